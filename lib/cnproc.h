/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The proc connector (NETLINK_CONNECTOR, CN_IDX_PROC): fork/exec/exit
 * events of every task, multicast. Needs CAP_NET_ADMIN. Reusable alone.
 */
#ifndef PTOP_CNPROC_H
#define PTOP_CNPROC_H

#include <stdint.h>

enum ptop_cnproc_what {
	PTOP_CNPROC_FORK = 1,	/* pid/tgid: child; ppid/ptgid: its parent */
	PTOP_CNPROC_EXEC = 2,	/* pid/tgid: the task after exec */
	PTOP_CNPROC_EXIT = 3,	/* pid/tgid: the dead task; ppid/ptgid parent */
};

struct ptop_cnproc_event {
	enum ptop_cnproc_what what;
	uint64_t time_ns;	/* CLOCK_MONOTONIC of the event */
	uint32_t pid, tgid;
	uint32_t ppid, ptgid;
	uint32_t exit_code;	/* EXIT: as wait(2) reports it */
};

struct ptop_cnproc {
	int fd;
};

/*
 * Subscribe, non-blocking; rcvbuf bytes forced with SO_RCVBUFFORCE when
 * allowed (root). 0, -EPERM (no CAP_NET_ADMIN), -ENOENT (no connector).
 */
int ptop_cnproc_open(struct ptop_cnproc *c, int rcvbuf);
void ptop_cnproc_close(struct ptop_cnproc *c);

/*
 * Keep only the exit events and the forks of new processes (not threads):
 * the kernel drops the rest before they are queued (a socket filter), a
 * quarter of the messages of a fork-exec loop. 0 or -errno (then every
 * event still comes).
 */
int ptop_cnproc_only_procs(struct ptop_cnproc *c);

/* Return 0 to go on, -errno to stop draining. */
typedef int (*ptop_cnproc_fn)(void *arg, const struct ptop_cnproc_event *ev);

/*
 * Deliver every queued fork/exec/exit event, in order, without blocking.
 * *lost is set to 1 when the kernel dropped events (ENOBUFS).
 */
int ptop_cnproc_drain(struct ptop_cnproc *c, ptop_cnproc_fn fn, void *arg,
		      int *lost);

#endif /* PTOP_CNPROC_H */
