/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stock kernel's taskstats over generic netlink (linux/taskstats.h):
 * per-pid queries and the exit listener. Reusable on its own (tstime).
 *
 * Family resolution uses libnl-genl-3; the sockets themselves are plain
 * netlink sockets with hand-built requests (one send + one recv per query,
 * no allocation). Needs CAP_NET_ADMIN for the exit listener; the kernel
 * checks it for queries of other users' tasks too.
 */
#ifndef PTOP_TSNL_H
#define PTOP_TSNL_H

#include <stddef.h>
#include <stdint.h>

/* The fields of struct taskstats that ptop uses, kernel units kept. */
struct ptop_tsnl_stats {
	uint16_t version;		/* the kernel's TASKSTATS_VERSION */
	uint32_t pid, tgid, ppid, uid;
	uint32_t exitcode;
	uint8_t flag;			/* AFORK, ASU, ... AGROUP */
	char comm[32];
	uint64_t btime64;		/* s since 1970 at fork */
	uint64_t etime_us;		/* elapsed since fork */
	uint64_t utime_us, stime_us;	/* tick-sampled user/system */
	uint64_t minflt, majflt;
	uint64_t nvcsw, nivcsw;
	uint64_t hiwater_rss_kb;
	/* delay accounting: all 0 unless kernel.task_delayacct=1 */
	uint64_t cpu_count;
	uint64_t cpu_delay_ns;		/* run-queue wait */
	uint64_t run_real_ns;		/* utime + stime (tick based) */
	uint64_t run_virtual_ns;	/* se.sum_exec_runtime: precise */
};

struct ptop_tsnl {
	int fd;			/* queries */
	int lfd;		/* exit listener, -1 when not listening */
	uint16_t family;
	uint32_t seq;
	char cpumask[256];	/* registered with the listener */
	unsigned char *buf;	/* receive buffer */
	size_t bufsz;
};

/* Resolve the family, open the query socket. -ENOENT: no taskstats. */
int ptop_tsnl_open(struct ptop_tsnl *t);
void ptop_tsnl_close(struct ptop_tsnl *t);

/* Stats of one live thread. -ESRCH: it is gone. */
int ptop_tsnl_get_pid(struct ptop_tsnl *t, uint32_t pid,
		      struct ptop_tsnl_stats *st);

/*
 * Delay accounting (kernel.task_delayacct): older kernels (6.1) fill the
 * ns runtime (cpu_run_virtual_total) only when it is on. Read / write the
 * sysctl: the value, or -errno.
 */
int ptop_tsnl_delayacct_get(void);
int ptop_tsnl_delayacct_set(int on);
/*
 * Does the kernel fill cpu_run_virtual_total? 1, 0, or -errno. Asked
 * about a child forked now (delay accounting is allocated at fork, so
 * after setting the sysctl only new tasks can tell) once it slept (the
 * runtime of a task that never left the CPU may still read 0).
 */
int ptop_tsnl_probe_precise(struct ptop_tsnl *t);

/* Online CPUs as a cpu list ("0-3,6"), from /sys. 0 or -errno. */
int ptop_tsnl_online_cpus(char *buf, size_t len);

/*
 * Register a second, non-blocking socket for the exit records of every
 * task on the CPUs in cpumask (NULL: all online). rcvbuf bytes are forced
 * with SO_RCVBUFFORCE when allowed (root), else set with SO_RCVBUF.
 */
int ptop_tsnl_listen(struct ptop_tsnl *t, const char *cpumask, int rcvbuf);

/*
 * Called per exit record: the dead thread's final stats, and when the
 * last thread of a multi-threaded group died, the group's aggregate of its
 * dead threads (tgid, else NULL). Return 0 or -errno to stop.
 */
typedef int (*ptop_tsnl_exit_fn)(void *arg, const struct ptop_tsnl_stats *pid,
				 const struct ptop_tsnl_stats *tgid);

/*
 * Read every queued exit record without blocking. *lost is set to 1 when
 * the kernel dropped records (ENOBUFS); draining goes on. 0 or -errno.
 */
int ptop_tsnl_drain(struct ptop_tsnl *t, ptop_tsnl_exit_fn fn, void *arg,
		    int *lost);

/*
 * The parsers behind ptop_tsnl_get_pid() and ptop_tsnl_drain(), on a
 * buffer of netlink messages as one recv() returned it (public for tests
 * and fuzzing; no I/O). parse_reply: the answer with sequence seq: 0 and
 * *st filled, -EAGAIN when it is not in buf (receive on), the kernel's
 * -errno, or -EINVAL when malformed. parse_exits: fn per exit record,
 * malformed messages skipped; 0 or fn's -errno.
 */
int ptop_tsnl_parse_reply(const void *buf, size_t len, uint32_t seq,
			  struct ptop_tsnl_stats *st);
int ptop_tsnl_parse_exits(const void *buf, size_t len, ptop_tsnl_exit_fn fn,
			  void *arg);

#endif /* PTOP_TSNL_H */
