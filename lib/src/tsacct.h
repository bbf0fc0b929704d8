/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The accounting hierarchy of the taskstats_nl source: live threads and
 * groups as last reported, and what dead tasks leave behind.
 *
 * A group's accounting parent is its parent at fork (never reparented);
 * each group keeps synthetic cumulative x* (its dead threads) and c* (its
 * dead descendants) counters that start at 0. A dead thread adds its final
 * own time to its group's x*; a group dies with its last thread and adds
 * its final x* + c* to the c* of its nearest LIVE accounting ancestor
 * (dead ancestors are walked through). Every death appends an EXIT record
 * to the current sample, so x* and c* always move by exactly what the EXIT
 * records say.
 *
 * A group that was in a snapshot folds only into an ancestor that was in
 * one too (a live ancestor the scans have not met yet, e.g. forked during
 * a walk, is passed over): the interval math takes what the previous
 * snapshot showed of the dead group off the receiver's c*, which a first
 * appearance cannot have. A thread closed without its exit record (lost)
 * and whose record comes later (by up to PTOP_TSACCT_TOMB_GENS reads)
 * adds only what it ran since its last report, to its group's x* or,
 * once the group is gone, to where the group was folded: never twice.
 *
 * No I/O here: the source feeds fork/exit events and /proc scan results;
 * dead groups stay in memory only while a live descendant refers to them.
 * Times are ns; the user/system split of a thread is kept monotonic
 * (ptop_cputime_adjust()).
 *
 * Exit paths: a stock kernel sends a thread's exit record before the rest
 * of its exit; what it ran after is in its parent's kernel cutime +
 * cstime once reaped. Per group, struct ptop_exit_paths holds what that
 * counter should have without them; the excess goes into the group's c*
 * (tsacct_exit_path.c; the formula and why in docs/design.md).
 */
#ifndef PTOP_TSACCT_H
#define PTOP_TSACCT_H

#include <stdint.h>
#include "../cputime.h"
#include "../src.h"

#define PTOP_TSACCT_HASH	4096	/* buckets, power of two */
#define PTOP_TSACCT_TOMB_GENS	2	/* reads a dead thread is remembered */
/* exits credited before exit paths are predicted (docs/design.md) */
#define PTOP_TSACCT_TAU_EXITS	64

/*
 * The exit paths of a live group's dead children, from the kernel's
 * cutime + cstime of the group ("kernel c", read with its /proc stat):
 * what the kernel added beyond what the children's exit records said
 * (docs/design.md, "Exit paths on a stock kernel"). ns unless said.
 */
struct ptop_exit_paths {
	uint64_t kernel_c_ns;	/* cutime + cstime as last read, floored */
	uint64_t kernel_c_gen;	/* generation of that reading */
	uint64_t base_ns;	/* the kernel's c when we started, expected */
	uint64_t base_seq;	/* records received before base's reading */
	/* what the kernel adds for the credited children, less exit paths */
	uint64_t expected_ns;
	uint64_t bound_ns;	/* at most that much exit path in all */
	uint64_t credited_ns;	/* exit paths put into the group's c* */
	/*
	 * this generation's reading: every record of a child reaped before
	 * it is among the first reading_seq received (0: unknown, all
	 * count); the *_late: what children with later records added
	 */
	uint64_t reading_seq, expected_late_ns, bound_late_ns;
	/* child thread exits credited; of them with later records; predicted */
	uint64_t exits, exits_late, exits_predicted;
	uint32_t parent;	/* whose expected_ns has this group (0: none) */
	unsigned int known : 1;	/* a first reading was taken */
	/* a child's final counters or kernel c unknown: expected is short */
	unsigned int unusable : 1;
	unsigned int again : 1;	/* in ptop_tsacct.again */
};

struct ptop_tsacct_group {
	struct ptop_tsacct_group *next;		/* live hash chain */
	struct ptop_tsacct_group *aparent;	/* accounting parent, may be dead */
	unsigned int nref;	/* live hash + threads + acct children */
	unsigned int nlive;	/* live threads */
	unsigned int nseen;	/* threads met by this generation's scan */
	uint32_t tgid, ppid, uid;
	uint64_t start_ns;
	uint64_t xu, xs, cu, cs;	/* synthetic cumulative x*, c* */
	uint64_t rss_kb, hwm_kb;
	uint64_t seen_gen;	/* generation of the last scan that met it */
	uint64_t scan_gen;	/* created by the scan of that generation */
	struct ptop_exit_paths paths;	/* of its children */
	uint64_t die_seq;	/* the record this group died with (its seq) */
	uint32_t die_live_for;	/* and that record's live_for */
	unsigned int nexits;	/* own threads that died with their records */
	char comm[PTOP_COMM_LEN];
	char state;
	/* reported: in a snapshot (emitted) at least once */
	unsigned int dead : 1, start_exact : 1, want_parent : 1, reported : 1;
	/* forked: born under us (FORK event): its kernel c started at 0 */
	unsigned int forked : 1, lost_thread : 1;
};

struct ptop_tsacct_thread {
	struct ptop_tsacct_thread *next;	/* hash chain, one per tid */
	struct ptop_tsacct_group *g;
	uint32_t tid;
	uint64_t start_ns;
	struct ptop_cputime_prev split;	/* own user/sys as last reported */
	struct ptop_rec_counts counts;	/* as last reported */
	uint64_t seen_gen, dead_gen, born_gen;
	uint64_t moved_gen;	/* the last read that saw its own time move */
	uint64_t exit_path_ns;	/* given by ptop_tsacct_zombie() so far */
	char comm[PTOP_COMM_LEN];
	char state;
	/* closed_lost: closed without final counters, which may still come */
	unsigned int dead : 1, start_exact : 1, reported : 1, closed_lost : 1;
	unsigned int zombie_read : 1;	/* ptop_tsacct_zombie() took all */
};

/* A thread's counters (live, or final at exit), as the kernel gave them. */
struct ptop_tsacct_counters {
	uint64_t runtime_ns;		/* the total to report */
	uint64_t raw_user, raw_sys;	/* any unit: only their ratio counts */
	struct ptop_rec_counts counts;
	uint64_t hiwater_kb;
	uint32_t uid, ppid, exit_code;
	char comm[PTOP_COMM_LEN];
	/*
	 * exit records only: the source's number of the record (1, 2, ...
	 * as received; 0: unnumbered), and the tgid of the parent whose
	 * first kernel c reading it was still in /proc after (0: none)
	 */
	uint64_t seq;
	uint32_t live_for;
};

/* A child in its parent's expected_ns, not known to be reaped (kernel c). */
struct ptop_tsacct_unreaped {
	uint32_t tgid, parent;
	/* its part of the parent's expected_ns, bound_ns, exits */
	uint64_t exp_ns, max_ns, nexits;
	uint64_t gen;				/* credited then */
};

struct ptop_tsacct {
	struct ptop_tsacct_thread *threads[PTOP_TSACCT_HASH];
	struct ptop_tsacct_group *groups[PTOP_TSACCT_HASH]; /* live only */
	uint64_t gen;		/* one per read; bumped by the caller */
	uint64_t now_ns;	/* CLOCK_BOOTTIME of this read (lost exits) */
	uint64_t tick_ns;	/* start estimates are truncated to a tick */
	unsigned int thread_flags; /* added to THREAD records (HAS_RDELAY) */
	int lost;		/* set when data was lost (caller resets) */
	unsigned int nlost;	/* threads closed without final counters */
	uint64_t tail_ns;	/* exit paths put into c* by this read */
	/*
	 * all exit paths put into c* so far; the exits credited, and of them
	 * those credited before the last ptop_tsacct_tails() (tau's)
	 */
	uint64_t tails_sum_ns, tails_exits, tails_exits_before;
	/*
	 * groups credited with a child's exit this generation, their kernel
	 * c known: it is read again at the end (ptop_tsacct_kernel_c_again())
	 */
	uint32_t *again;
	size_t nagain, again_cap;
	/*
	 * children credited to a parent's expected_ns and maybe not reaped yet:
	 * what a reading of the parent's kernel c cannot have while the
	 * child is still in /proc (ptop_tsacct_kernel_c_again())
	 */
	struct ptop_tsacct_unreaped *unreaped;
	size_t nunreaped, unreaped_cap;
	struct ptop_sample *out; /* EXIT records go here */
};

void ptop_tsacct_init(struct ptop_tsacct *a, uint64_t tick_ns);
void ptop_tsacct_free(struct ptop_tsacct *a);

struct ptop_tsacct_group *ptop_tsacct_group_find(struct ptop_tsacct *a,
						 uint32_t tgid);
struct ptop_tsacct_thread *ptop_tsacct_thread_find(struct ptop_tsacct *a,
						   uint32_t tid);

/*
 * Events, in kernel order. start_ns: an estimate (CLOCK_BOOTTIME) used
 * until a scan gives the exact one. exit_ns: CLOCK_BOOTTIME of the exit.
 */
int ptop_tsacct_fork(struct ptop_tsacct *a, uint32_t pid, uint32_t tgid,
		     uint32_t ptgid, uint64_t start_ns);
/* Final counters of a dead thread (an unknown one is born and dies). */
int ptop_tsacct_exit(struct ptop_tsacct *a, uint32_t pid, uint32_t tgid,
		     uint32_t ptgid, uint64_t start_ns,
		     const struct ptop_tsacct_counters *c, uint64_t exit_ns);
/* pid is dead but its final counters were lost: close it as last seen. */
int ptop_tsacct_lost(struct ptop_tsacct *a, uint32_t pid, uint64_t exit_ns);
/* tgid exec'ed (a non-leader exec takes over the leader's pid). */
void ptop_tsacct_exec(struct ptop_tsacct *a, uint32_t tgid);

/*
 * The /proc scan. scan_group: the group as /proc shows it now (a stale
 * incarnation with another start is closed first); NULL only on ENOMEM.
 * scan_thread: a thread of it; *t = NULL when it must be skipped (a dead
 * task still in /proc). scan_counters: its counters from the kernel.
 * scan_group_end once its threads are done; scan_end after all groups.
 */
int ptop_tsacct_scan_group(struct ptop_tsacct *a, uint32_t tgid,
			   uint64_t start_ns, uint32_t ppid, char state,
			   const char *comm, uint64_t rss_kb,
			   struct ptop_tsacct_group **g);
int ptop_tsacct_scan_thread(struct ptop_tsacct *a,
			    struct ptop_tsacct_group *g, uint32_t tid,
			    uint64_t start_ns, char state, const char *comm,
			    struct ptop_tsacct_thread **t);
void ptop_tsacct_scan_counters(struct ptop_tsacct *a,
			       struct ptop_tsacct_thread *t,
			       const struct ptop_tsacct_counters *c);
/*
 * The same thread's counters read again later in the same generation
 * (the tight window of a two-phase snapshot): newer values, nothing else.
 */
void ptop_tsacct_reread_counters(struct ptop_tsacct *a,
				 struct ptop_tsacct_thread *t,
				 const struct ptop_tsacct_counters *c);
/* Own user + system time as last reported, ns. */
static inline uint64_t ptop_tsacct_thread_own(const struct ptop_tsacct_thread *t)
{
	return t->split.user_ns + t->split.sys_ns;
}
/*
 * Did a read of this generation or of the previous one see t's own time
 * move (its first read aside)? A task that ran in the last interval is
 * likely to run before this snapshot's window: one that wakes once per
 * interval (a 1 Hz timer beside `-d 1`) was asleep at its walk read and
 * unchanged since the last window, and ran between the walk and the
 * window (a whole interval's run shifted to the next one).
 */
static inline int ptop_tsacct_thread_ran_lately(const struct ptop_tsacct *a,
					const struct ptop_tsacct_thread *t)
{
	return t->moved_gen && t->moved_gen + 1 >= a->gen;
}
/* At the open: t counts as moved at this read (ptop_pfs_busy_life()). */
static inline void ptop_tsacct_thread_moved(const struct ptop_tsacct *a,
					    struct ptop_tsacct_thread *t)
{
	t->moved_gen = a->gen;
}
/*
 * At open, for a group that was running before: the time of its threads
 * that died before (the kernel's group sums minus its live threads), so
 * that its cumulative time is whole. x* deltas are unchanged by it.
 */
void ptop_tsacct_x_base(struct ptop_tsacct_group *g, uint64_t user_ns,
			uint64_t sys_ns);
/*
 * A single-threaded group that did not run since the last scan (the
 * caller knows it from a counter: ptop_pfs_marks in procfs_read.h): the
 * group and its thread as that scan left them, met by this one, without
 * scan_group/scan_thread/scan_counters. 1 when done; 0 when that does not
 * apply (not one live thread, or the last scan did not meet them): then
 * the caller scans it as usual.
 */
int ptop_tsacct_scan_same(struct ptop_tsacct *a, uint32_t tgid);
void ptop_tsacct_scan_group_end(struct ptop_tsacct *a,
				struct ptop_tsacct_group *g);
/*
 * The group's kernel cutime + cstime as /proc stat shows it now (ticks
 * in ns), read by this generation's scan, after seq exit records had
 * been received (docs/design.md). rseq: the number of exit records received
 * once the listener's socket was drained after the reading (0: not
 * known). A child's record is queued on the socket before the child can
 * be reaped, so every child in this reading has a record among the first
 * rseq; children whose records came later are not in it, and the tails
 * leave them out of expected_ns (else a child reaped during the rest of the
 * walk takes its whole runtime off L, and the parent's exit paths wait
 * for a reading with no child dying after it: under a parallel build,
 * most intervals). Used by ptop_tsacct_tails(), after this read's last
 * exit records. never_waited: the same stat line shows no fault of a
 * waited child (cminflt and cmajflt 0) and kc_ns is 0: the group never
 * reaped a child that ran, so a group older than us had a kernel c of 0
 * at its first reading, not up to 2 ticks (its base has no slack). Only
 * a child that never faulted (a vfork child whose exec failed) could be
 * in c without a fault: it runs microseconds.
 */
void ptop_tsacct_scan_kernel_c(struct ptop_tsacct *a,
			       struct ptop_tsacct_group *g, uint64_t kc_ns,
			       uint64_t seq, uint64_t rseq, int never_waited);
/*
 * At open, after the walk: an older group's first kernel c reading once
 * more (the same arguments; rseq unknown). The walk reads a parent before
 * most of its children (pid order), so an older child that dies during
 * the rest of the walk, before the walk meets it, has neither a kernel c
 * nor x base of its own: its parent would be unusable for good. Taken again
 * after the walk, the parent's first reading has every older child that
 * was reaped by then (its record is among the first seq: it counts for
 * nothing), and one not reaped yet is still in /proc (live_for).
 */
void ptop_tsacct_first_kernel_c_again(struct ptop_tsacct *a,
				      struct ptop_tsacct_group *g,
				      uint64_t kc_ns, uint64_t seq,
				      int never_waited);
void ptop_tsacct_scan_end(struct ptop_tsacct *a);

/*
 * After the read's last exit records: g's kernel c read once more (g in
 * a->again), then rseq records received. A parent read by the walk
 * before it reaped a child that died before the snapshot's instant (or
 * a child that reaped its own and died: ptop_sleepers, a cc driver)
 * has those exit paths in its kernel c only after that reading: without
 * this one they would go into the next interval, which they do not
 * belong to (a -X/+X pair). Their final records are in this interval
 * already. Likewise a parent the walk did not read (quiet when met:
 * ptop_sleepers asleep until it kills its 2,000 children, then reaps
 * them): this is its reading of this generation. A child credited to
 * g that in_proc() says is still in /proc after this reading (a zombie,
 * or on its exit path: 2,000 killed children reaped one by one) is not
 * in it: its part of expected_ns counts as late, else it would hide the exit
 * paths of the children reaped before it. Call ptop_tsacct_again_done()
 * after the list.
 */
void ptop_tsacct_kernel_c_again(struct ptop_tsacct *a,
				struct ptop_tsacct_group *g, uint64_t kc_ns,
				uint64_t rseq,
				int (*in_proc)(void *arg, uint32_t tgid),
				void *arg);
/*
 * Forget the children in a->unreaped that in_proc() says are gone
 * (reaped: in their parent's kernel c from now on), whose parent died,
 * or credited before the last generation: a zombie its parent leaves
 * unreaped that long holds back the parent's exit paths until reaped
 * (as before the list), rather than risk its pid being another
 * process's by then (which would count it as late for good).
 */
void ptop_tsacct_again_done(struct ptop_tsacct *a,
			    int (*in_proc)(void *arg, uint32_t tgid),
			    void *arg);
/*
 * A zombie the scan met: the leader t of a dead group, its exit record
 * taken, not reaped yet. Its exit path is complete but in no kernel c
 * until its parent reaps it, which may come after the next snapshot: a
 * parent busy elsewhere (ptop_sleepers killing 2,000 children) or an
 * interval's instant between the exit and the reap. So it is taken from
 * the zombie itself, in this interval: runtime_ns, its runtime now (as
 * the exit record counts it), less what the record said is its own exit
 * path (at most PTOP_EXIT_PATH_MAX_NS); kc_ns, its cutime + cstime now,
 * gives the exit paths of the children it reaped and was not read with
 * (as ptop_tsacct_tails() would at a reading). Both go into the c* of
 * where the group was folded, as system time, and into the expected_ns of the
 * parent that was credited with it, whose own kernel c has them once it
 * reaps: never twice. Once per zombie. zombie = 0: t is still on its
 * exit path (the record is sent before it ends: 2,000 children killed at
 * once wait in state D for their turn); what it ran so far is taken the
 * same way, and a later call takes only what it ran since.
 */
void ptop_tsacct_zombie(struct ptop_tsacct *a, struct ptop_tsacct_thread *t,
			uint64_t runtime_ns, uint64_t kc_ns, int zombie);
/*
 * End of a generation: close threads that vanished without an exit record
 * (lost), forget old dead ones, then append the live THREAD and GROUP
 * records of everything this generation's scan met.
 */
int ptop_tsacct_sweep(struct ptop_tsacct *a);
/*
 * The exit paths that the kernel's c of the groups read this generation
 * vouches for (docs/design.md), into their c*; after the read's last exit
 * records, before emit. Their sum is in a->tail_ns.
 */
void ptop_tsacct_tails(struct ptop_tsacct *a);
int ptop_tsacct_emit(struct ptop_tsacct *a);

#endif /* PTOP_TSACCT_H */
