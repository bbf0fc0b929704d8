/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descendant accounting on a stock kernel: which dead tasks belong to the
 * process tree below one root (tstime), summed from the taskstats exit
 * listener's final counters (lib/tsnl.h), the tree known from proc connector
 * fork events (lib/cnproc.h).
 *
 * No I/O here: the caller feeds what it reads from both sockets, in the
 * order each socket delivered it; the two streams may interleave in any
 * way. The kernel sends a task's taskstats exit record before its
 * connector EXIT event; the n-th record of a pid pairs with the n-th EXIT
 * event of that pid (so pid reuse is safe), and the pair counts when the
 * connector timeline says the task's group descends from the root at its
 * EXIT event. Records left unpaired (lost connector messages) are resolved
 * at the end through ac_ppid chains: a record counts when its ppid is the
 * root, a descendant group known from fork events, or the group of another
 * counted record. With the root a child subreaper, orphans have the root
 * as ppid, so the chains reach it.
 *
 * A record's runtime is cpu_run_virtual_total (sum_exec_runtime), which
 * lags by the slice still running at exit; for a task that ran in one
 * slice from its first arrival to exit (cpu_count 1) it is elapsed time
 * minus run-queue wait. Without either, the tick-sampled utime + stime.
 */
#ifndef PTOP_TREE_ACCT_H
#define PTOP_TREE_ACCT_H

#include <stddef.h>
#include <stdint.h>
#include "lib/cnproc.h"
#include "lib/tsnl.h"
#include "../kmod/uapi/ptop_taskstats.h"

/* CPU time per command name (comm at exit) */
struct ptop_tree_comm {
	char comm[PTOP_TS_COMM_LEN];
	uint64_t procs;		/* processes (group leaders) */
	uint64_t threads;	/* other threads */
	uint64_t cpu_ns;	/* user_ns + sys_ns */
	uint64_t user_ns, sys_ns;
};

struct ptop_tree_acct {
	uint32_t root;		/* tgid whose descendants are counted */
	void *groups;		/* descendant tgids (private hash) */
	struct ptop_tsnl_stats *recs;	/* records waiting for their EXIT */
	size_t nrecs, recs_cap;
	struct tree_wait *waits;	/* EXITs waiting for their record */
	size_t nwaits, waits_cap;

	/* results: dead descendants so far */
	uint64_t user_ns, sys_ns;	/* user + sys = precise runtime */
	uint64_t procs, threads;	/* records of leaders / other threads */
	uint64_t max_rss_kb;		/* largest hiwater RSS of one process */
	uint64_t paired;		/* records paired with their EXIT */
	uint64_t by_ppid;		/* records resolved by ppid chains */
	uint64_t unresolved;		/* records that may be ours, not counted */
	uint64_t tick_based;		/* records without a ns runtime */
	int lost;			/* messages were lost: not exact */
	/*
	 * Every exit record given is of the tree (the kernel filtered
	 * them): counted as it comes, no connector event needed.
	 */
	int all_ours;
	/*
	 * Dead descendants wait4 did not reap up to the root, so the
	 * root's rusage lacks them: their parent ignored SIGCHLD (they
	 * reaped themselves), or was not ours (reparented elsewhere).
	 * The parent's disposition comes from sigchld_ignored(), when set
	 * (the caller's I/O): 1 ignored, 0 not or unknown; asked at its
	 * first fork event and remembered until its pid is reused.
	 */
	uint64_t unwaited_user_ns, unwaited_sys_ns;
	uint64_t unwaited;		/* records of such tasks */
	int (*sigchld_ignored)(void *arg, uint32_t tgid);
	void *sigchld_arg;
	struct tree_parent *parents;	/* their answers, per live parent */
	size_t nparents;
	struct ptop_tree_comm *comms;
	size_t ncomms, comms_cap;
};

int ptop_tree_acct_init(struct ptop_tree_acct *acct, uint32_t root);
void ptop_tree_acct_free(struct ptop_tree_acct *acct);

/* A proc connector event (fork, exec, exit), in connector order. */
int ptop_tree_acct_event(struct ptop_tree_acct *acct,
			 const struct ptop_cnproc_event *ev);
/* A taskstats exit record of one thread, in listener order. */
int ptop_tree_acct_exit(struct ptop_tree_acct *acct,
			const struct ptop_tsnl_stats *st);
/* Either socket reported ENOBUFS. */
void ptop_tree_acct_lost(struct ptop_tree_acct *acct);

/* Is tgid a live descendant known from fork events? */
int ptop_tree_acct_is_desc(const struct ptop_tree_acct *acct, uint32_t tgid);

/*
 * Records of known descendants still waiting for their EXIT event, and
 * descendants' EXIT events waiting for their record: what is worth
 * waiting for at the end.
 */
size_t ptop_tree_acct_pending(const struct ptop_tree_acct *acct);

/*
 * No more input: resolve the unpaired records through ppid chains, and
 * sort comms by CPU time, descending. 0 or -ENOMEM.
 */
int ptop_tree_acct_finish(struct ptop_tree_acct *acct);

#endif /* PTOP_TREE_ACCT_H */
