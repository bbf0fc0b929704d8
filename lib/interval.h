/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interval math (docs/design.md, "The interval math"): per-task deltas
 * between two snapshots, with the time of tasks that died in the interval
 * taken from their accounting parent's c* (and the group's x*) minus what
 * the previous interval already showed of them. Backend independent.
 */
#ifndef PTOP_INTERVAL_H
#define PTOP_INTERVAL_H

#include <stdbool.h>
#include "snap.h"
#include "verdict.h"

struct ptop_row {
	uint32_t pid;		/* thread rows: tid; process rows: tgid */
	uint32_t tgid;
	uint32_t ppid;
	uint32_t acct_ppid;	/* accounting parent (c* goes there); 0 unknown */
	uint32_t uid;
	uint32_t nthreads;
	char state;
	char comm[PTOP_COMM_LEN];
	uint64_t start_ns;
	bool is_thread;
	bool is_new;		/* born in the interval */
	unsigned int has;	/* PTOP_DATA_* the source gives for this row */
	/* per interval, ns */
	uint64_t user, sys, ste;
	uint64_t cuser, csys, cste;
	uint64_t xuser, xsys, xste;
	uint64_t total;
	uint64_t rdelay;
	/* per interval, counts */
	uint64_t nvcsw, nivcsw, minflt, majflt;
	/* cumulative */
	uint64_t time_ns;	/* own + dead threads since start */
	uint64_t rss_kb;
	/*
	 * The interval math's own: the thread records the row adds up
	 * (their count, their cumulative user, system, steal), so that the
	 * next interval's quick path knows what a dead group's row held.
	 */
	uint32_t nrecs;
	uint64_t live_u, live_s, live_st;
	/* filled by the tree view */
	int depth;
};

/* A row's task, kept across intervals */
struct ptop_iv_key {
	uint32_t pid;
	uint64_t start_ns;
};

/* A thread, by its group: struct ptop_interval.tidx */
struct ptop_iv_tkey {
	uint32_t tgid, pid;
	uint64_t start_ns;
};

/* struct ptop_iv_change.row of a row that is gone (its group died) */
#define PTOP_IV_GONE ((size_t)-1)

struct ptop_iv_change {
	size_t row;
	bool was;
	struct ptop_row old;
};

/* struct ptop_interval.flags */
#define PTOP_IV_INEXACT		(1U << 0) /* !verdict.exact */
#define PTOP_IV_LOST		(1U << 1) /* the source lost data */

struct ptop_interval {
	uint64_t interval_ns;
	uint64_t time_ns;	/* end of interval, CLOCK_MONOTONIC */
	unsigned int ncpu;
	unsigned int flags;	/* PTOP_IV_* */
	unsigned int caps;	/* the source's PTOP_DATA_* and PTOP_CAP_* */
	unsigned int sys_apart;	/* PTOP_SYS_* */
	bool threads;		/* rows are threads, not processes */
	struct ptop_row *rows;
	size_t nrows;
	size_t cap;
	struct ptop_row sum;	/* over every row */
	/* over every row too: processes, threads, rows in state R */
	size_t nprocs, nthreads_all, nrunning;
	/* system-wide parts, ns over the interval */
	uint64_t idle_ns;	/* idle + iowait */
	uint64_t iowait_ns;
	uint64_t steal_ns;	/* counted only when kept apart from tasks */
	uint64_t irq_ns;	/* counted only when kept apart from tasks */
	uint64_t clamped_ns;	/* time dropped to avoid a negative delta */
	uint64_t unfolded_ns;	/* dead time with no live ancestor to go to */
	size_t nexited;		/* thread groups that died in the interval */
	unsigned int nlost;	/* of them: final counters lost */
	size_t ntask_exits;	/* threads that died (EXIT records) */
	size_t nlate;		/* EXIT records late: pending, or came now */
	/* the source's bound (struct ptop_src): the wider of both ends' */
	unsigned int tol_ppm;
	uint64_t res_ns;
	const char *res_what;
	/* exact or not, and why: see verdict.h */
	struct ptop_verdict verdict;
	/*
	 * What the next interval can build on: when the next snapshot is
	 * an incremental answer merged into this interval's end (struct
	 * ptop_snap.merged_from == end_snap_id), only the rows that the
	 * answer touched and those that had figures here (loud: by key)
	 * are computed again, the others keep their row (no figures, the
	 * same cumulative time). quick: this interval was made that way.
	 */
	uint64_t end_snap_id;
	uint64_t from_snap_id;	/* the snapshot this interval started at */
	bool quick;
	/*
	 * quick: the rows that were computed again (index into rows, or
	 * PTOP_IV_GONE: the row of a group that died is no more), and what
	 * each was in the interval before (was: it had a row); every other
	 * row is as it was. ui/view.c moves only these.
	 */
	struct ptop_iv_change *changes;
	size_t nchanges, cap_changes;
	struct ptop_iv_key *loud;
	size_t nloud, cap_loud;
	size_t *dirty;		/* scratch of the quick path */
	size_t cap_dirty;
	/*
	 * Thread mode: every thread of the snapshot with id tidx_snap (the
	 * end of this interval when it is its end_snap_id), sorted by
	 * (tgid, pid, start_ns), so that the quick path finds a group's
	 * threads without a walk; kept across quick intervals by the
	 * threads that were born and died.
	 */
	struct ptop_iv_tkey *tidx;
	size_t ntidx, cap_tidx;
	uint64_t tidx_snap;
};

void ptop_interval_init(struct ptop_interval *iv);
void ptop_interval_free(struct ptop_interval *iv);
/*
 * Compute the interval (prev, cur]. threads: one row per thread (the
 * group's x* and c* go on the leader's row) instead of one per process.
 */
int ptop_interval_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
			  const struct ptop_snap *cur, bool threads);

/* Everything accounted for, ns: rows + idle + system parts kept apart. */
uint64_t ptop_interval_accounted_ns(const struct ptop_interval *iv);
/* ncpu x interval, ns */
uint64_t ptop_interval_capacity_ns(const struct ptop_interval *iv);
/* ns as % of one CPU over the interval */
double ptop_interval_pct(const struct ptop_interval *iv, uint64_t ns);

#endif /* PTOP_INTERVAL_H */
