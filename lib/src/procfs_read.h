/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc reading shared by the stock-kernel sources (procfs, taskstats_nl):
 * a reusable reader rooted at a configurable proc root, task enumeration,
 * parsers for stat/status/schedstat and /proc/stat, and the kernel-config
 * lookup. No printing, 0 / -errno returns; a task that vanished while being
 * read yields -ENOENT (callers skip it silently).
 *
 * The rule: a refresh reads no file whose generation walks something
 * global in the kernel beyond the tasks themselves, or holds interrupts
 * off for long. What each file read here costs the kernel to generate:
 *   <pid>/stat, task/<tid>/stat   one task; a group's (whole=1) sums its
 *                                 threads: linear in the tasks read
 *   <pid>/status, schedstat       one task, O(1)
 *   readdir of / and <pid>/task   the pid table / one group's threads
 *   stat                          O(CPUs x interrupts) counter sums, no
 *                                 interrupts off; top reads it too
 *   cpuN/cpuidle/stateK/time      one counter (cpuidle.h), O(1)
 *   config.gz, /boot/config-*     once per proc root (cached)
 * Not read: /proc/timer_list, the other ns idle by CPU on a stock
 * kernel: its generation walks every hrtimer of a CPU once per timer
 * printed (quadratic), taking the base lock with interrupts off each time,
 * and every sleeper with a timeout holds one (cpuidle.h has the numbers).
 */
#ifndef PTOP_PROCFS_READ_H
#define PTOP_PROCFS_READ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "../src.h"
#include "cpuidle.h"

struct ptop_pfs {
	int root_fd;		/* the proc root directory */
	char *buf;		/* reusable read buffer, NUL terminated */
	size_t bufsz;
	long hz;		/* USER_HZ: sysconf(_SC_CLK_TCK) */
	long page_kb;		/* page size in KiB */
	uint64_t *cpu_idle_ns;	/* per CPU idle+iowait from stat, ticks */
	unsigned int ncpu_idle;	/* entries in cpu_idle_ns */
	unsigned int cap_idle;
	struct ptop_cpuidle idle;	/* ns idle (cpuidle.h) */
	int idle_ticks;		/* a read since _sample_begin had tick idle */
	int task_fd;		/* the task/ that _for_each_thread_q walks */
};

int ptop_pfs_open(struct ptop_pfs *p, const char *proc_root);
void ptop_pfs_close(struct ptop_pfs *p);

/* Clock ticks (USER_HZ) to ns. */
uint64_t ptop_pfs_ticks_ns(const struct ptop_pfs *p, uint64_t ticks);

/*
 * Read dirfd/name into p->buf with one read() (more only if the buffer is
 * full). Returns the length, or -ENOENT if the file (task) is gone, or
 * -errno.
 */
ssize_t ptop_pfs_read_at(struct ptop_pfs *p, int dirfd, const char *name);

/* Fields of /proc/<pid>/stat and /proc/<pid>/task/<tid>/stat */
struct ptop_pfs_stat {
	int pid;
	int ppid;
	char state;
	char comm[PTOP_COMM_LEN];
	uint64_t minflt, majflt;
	uint64_t cminflt, cmajflt;	/* of the children it waited for */
	uint64_t utime, stime;		/* ticks */
	uint64_t cutime, cstime;	/* ticks */
	uint64_t nthreads;
	uint64_t starttime;		/* ticks since boot */
	uint64_t rss_pages;
};

/* comm may hold spaces and ')': it ends at the LAST ')'. 0 or -EINVAL. */
int ptop_pfs_parse_stat(const char *buf, struct ptop_pfs_stat *st);
/*
 * Read and parse dirfd/stat of one task: 1 when *st is filled, 0 when the
 * task is gone or its file was torn by an exit (skip it), -errno else.
 */
int ptop_pfs_read_stat(struct ptop_pfs *p, int dirfd, struct ptop_pfs_stat *st);

/* Fields of /proc/<pid>/status; absent lines leave 0 (has_* say so). */
struct ptop_pfs_status {
	uint32_t uid;			/* real uid */
	uint64_t nvcsw, nivcsw;
	uint64_t vmrss_kb, vmhwm_kb;
	unsigned int has_uid : 1, has_ctxt : 1, has_mem : 1;
};

int ptop_pfs_parse_status(const char *buf, struct ptop_pfs_status *st);

/* /proc/<pid>/schedstat: runtime ns, run-queue wait ns. 0 or -EINVAL. */
int ptop_pfs_parse_schedstat(const char *buf, uint64_t *run_ns,
			     uint64_t *delay_ns);

/* <proc_root>/stat: summed CPU counters in ns, online CPUs (cpuN lines). */
int ptop_pfs_read_cpu(struct ptop_pfs *p, struct ptop_cpu_sum *sum,
		      unsigned int *ncpu);
/*
 * Idle (with iowait) in ns: per CPU the larger of cpuidle's ended periods
 * and /proc/stat's ticks (read by ptop_pfs_read_cpu() just before).
 * -errno when cpuidle cannot give it: sum keeps the ticks.
 */
int ptop_pfs_read_idle_ns(struct ptop_pfs *p, struct ptop_cpu_sum *sum);
/*
 * A scan of every task takes time (hundreds of ms on a loaded machine),
 * and task counters are read all along it. Time and CPU counters are read
 * at both ends and the sample gets their midpoint, so that consecutive
 * samples line up with the tasks' counters on average.
 * Call _begin before the task scan and _end after it.
 */
int ptop_pfs_sample_begin(struct ptop_pfs *p, struct ptop_sample *out);
int ptop_pfs_sample_end(struct ptop_pfs *p, struct ptop_sample *out);

/*
 * Enumeration. fn is called with the directory fd of each task; it returns
 * 0 to go on, or -errno to stop (returned as is). A task whose directory is
 * gone is skipped.
 */
typedef int (*ptop_pfs_task_fn)(void *arg, int id, int dirfd);

/* Every thread group: /proc/<tgid>, dirfd = that directory. */
int ptop_pfs_for_each_group(struct ptop_pfs *p, ptop_pfs_task_fn fn,
			    void *arg);
/* Every thread of a group: gdirfd/task/<tid>. -ENOENT if the group is gone. */
int ptop_pfs_for_each_thread(struct ptop_pfs *p, int gdirfd,
			     ptop_pfs_task_fn fn, void *arg);

/*
 * Every group: as above, but fn first asks quiet(arg, tgid, ino) (ino: the
 * directory entry's inode number) whether the group needs reading at all:
 * 1 = no (skip it, its directory is not even opened), 0 = read it, <0 =
 * stop. The cheap test that a task did not run (ptop_pfs_marks below)
 * runs there.
 */
typedef int (*ptop_pfs_quiet_fn)(void *arg, int id, uint64_t ino);
int ptop_pfs_for_each_group_q(struct ptop_pfs *p, ptop_pfs_quiet_fn quiet,
			      ptop_pfs_task_fn fn, void *arg);

/*
 * Every thread of a group, asking quiet(arg, tid, ino) first as
 * _for_each_group_q does; while it runs, p->task_fd is the group's
 * task/ directory (quiet reads the thread's counter relative to it).
 */
int ptop_pfs_for_each_thread_q(struct ptop_pfs *p, int gdirfd,
			       ptop_pfs_quiet_fn quiet, ptop_pfs_task_fn fn,
			       void *arg);

/*
 * Which single-threaded groups did not run since the previous walk, told
 * by their cheapest counter: /proc/<tgid>/schedstat (sum_exec_runtime,
 * run-queue wait, and pcount, the times it was put on a CPU; CONFIG_
 * SCHED_INFO). Everything a stock source reads of such a task (times,
 * faults, context switches, state, uid, children's times, threads)
 * changes only when one of its threads runs, and a thread that runs,
 * even for a ns, moves pcount (sched_info_arrive()): a group whose only
 * thread's (run, pcount) is what it was before its last full read, and
 * that was not running then, is as that read left it. Two exceptions a
 * source must mind: RSS can shrink by reclaim without the task running
 * (so no marks when memory is shown), and a sleeper woken but not yet on
 * a CPU still shows its old state until it runs (its times cannot have
 * moved yet). Identity: readdir's inode number of /proc/<tgid>, which a
 * new incarnation of the pid gets anew (a new struct pid, a new proc
 * inode); a dentry evicted and built again also gets a new one, which
 * only costs a full read.
 *
 * Use: _begin before a walk; per group, _quiet() (reads the schedstat)
 * says whether the mark of the previous walk still holds; a full read
 * reads the counter with ptop_pfs_read_mark() BEFORE anything else of the
 * group and adds the new mark with _add(); _end after the walk.
 */
struct ptop_pfs_mark {
	uint32_t tgid;
	uint32_t quiet_ok;	/* single-threaded and not running when read */
	uint64_t ino;
	uint64_t run_ns, pcount;
	size_t data;		/* the source's: where its records are */
};

struct ptop_pfs_marks {
	struct ptop_pfs_mark *v[2];	/* [cur] this walk, [!cur] the last */
	size_t n[2], cap[2];
	int cur;
	int unsorted;		/* this walk's tgids not ascending */
	/* the counter the last _quiet() read (so a full read needs no other) */
	uint32_t read_id;	/* 0: none */
	int read_ok;		/* ptop_pfs_read_mark()'s 1 */
	uint64_t read_run, read_pcount, read_delay;
};

void ptop_pfs_marks_begin(struct ptop_pfs_marks *m);
/* The last walk's mark of tgid if it holds now, else NULL. */
const struct ptop_pfs_mark *ptop_pfs_marks_quiet(struct ptop_pfs *p,
						 struct ptop_pfs_marks *m,
						 uint32_t tgid, uint64_t ino);
int ptop_pfs_marks_add(struct ptop_pfs_marks *m,
		       const struct ptop_pfs_mark *mk);
void ptop_pfs_marks_end(struct ptop_pfs_marks *m);
void ptop_pfs_marks_free(struct ptop_pfs_marks *m);
/*
 * (run, pcount) of /proc/<tgid>/schedstat: 1 when read, 0 when there is
 * no usable counter (no file, sched_info off: "0 0 0"), -errno else.
 */
int ptop_pfs_read_mark(struct ptop_pfs *p, uint32_t tgid, uint64_t *run_ns,
		       uint64_t *pcount);
/*
 * The same of any task's schedstat, dirfd/name (a thread's: the procfs
 * source marks threads too, keyed by tid), with its run-queue wait.
 */
int ptop_pfs_read_mark_at(struct ptop_pfs *p, int dirfd, const char *name,
			  uint64_t *run_ns, uint64_t *delay_ns,
			  uint64_t *pcount);
const struct ptop_pfs_mark *ptop_pfs_marks_quiet_at(struct ptop_pfs *p,
						    struct ptop_pfs_marks *m,
						    int dirfd, const char *name,
						    uint32_t id, uint64_t ino);

/*
 * Which CPU time the kernel keeps apart from tasks (PTOP_SYS_*), from
 * /boot/config-$(uname -r) or <proc_root>/config.gz (a fixture proc root
 * only looks at its own config.gz). 0, or -ENOENT when no config was found:
 * then *sys_apart = PTOP_SYS_STEAL_APART (an assumption). Cached per root.
 */
int ptop_pfs_kconfig(const char *proc_root, unsigned int *sys_apart);

/* CLOCK_MONOTONIC / CLOCK_BOOTTIME now, ns */
uint64_t ptop_pfs_mono_ns(void);
uint64_t ptop_pfs_boot_ns(void);

/*
 * At the open a single reading cannot show a thread's time moving, so the
 * first snapshot's window would read again only the threads running then.
 * One that spent at least 1/PTOP_PFS_BUSY_SHARE of a life of a second or
 * more on a CPU (a poller on a timer, a daemon at work) counts as having
 * run lately; thousands of sleepers do not.
 */
#define PTOP_PFS_BUSY_SHARE	200	/* 0.5% */
static inline int ptop_pfs_busy_life(uint64_t own_ns, uint64_t start_ns,
				     uint64_t now_ns)
{
	uint64_t age = now_ns > start_ns ? now_ns - start_ns : 0;

	return age >= 1000000000ULL && own_ns >= age / PTOP_PFS_BUSY_SHARE;
}

#endif /* PTOP_PROCFS_READ_H */
