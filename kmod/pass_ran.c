// SPDX-License-Identifier: GPL-2.0
/*
 * The tasks that ran after their CPU's pass instant, each with its
 * runtime as of that instant, for the walk of that pass (record.c).
 *
 * A walk reads tasks one after another while they run; a task's runtime
 * as of the instant is wanted (cpus.c). From the task alone only its
 * last stretch on a CPU can be told apart (sched_info.last_arrival to
 * se.exec_start): a task switched out and in again during the walk, or
 * one that moved to another CPU, kept its earlier stretches, and a walk
 * that a stopped vCPU stretches to hundreds of ms moved that much time
 * into the interval that ends at the instant (and out of the next one).
 * So from its CPU's instant on, each task that CPU switches in is noted
 * once per pass with its runtime then (its first stretch after the
 * instant starts there), and each CPU's task at the instant with its
 * runtime at the instant (cpus.c). A task the walk finds here is read as
 * noted; one it does not find did not run since the instant: its
 * counter is exact as it is. When the table was full for a task, the
 * pass falls back to the last-stretch rule for the tasks it misses.
 *
 * One table of RAN_SLOTS, open addressing by task pointer; a slot is
 * claimed for a pass by cmpxchg of its claim to the pass's generation,
 * filled, then published by its gen (release); within a pass a slot is
 * written once. The switch probe notes only between the instant and the
 * walk's end (ran_gen non-zero).
 */
#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/sched.h>
#include "pass_pending.h"
#include "pass_ran.h"

#define RAN_BITS	12
#define RAN_SLOTS	(1U << RAN_BITS)
#define RAN_PROBE	32		/* slots tried for one task */

struct ran_slot {
	u64 claim;		/* generation of the pass that took it */
	u64 gen;		/* generation whose entry is complete */
	const struct task_struct *t;
	u64 start;		/* t->start_boottime: see ran_same_task() */
	u64 rt;			/* runtime as of the pass instant */
	int cpu;		/* >= 0: kept there to settle (pass_pending.c) */
};

static struct ran_slot ran_slots[RAN_SLOTS];
static u64 ran_gen;		/* noting for this pass; 0: not noting */
static u64 ran_full_gen;	/* a task of this pass found no slot */
static atomic_long_t ran_full_passes = ATOMIC_LONG_INIT(0);

/* From the instant on (before its IPIs), for pass gen; pass lock held. */
void ptop_ts_ran_begin(u64 gen)
{
	WRITE_ONCE(ran_gen, gen);
	/* noted before the instant's IPIs, which the CPUs see after it */
	smp_wmb();
}

/* Is pass gen between its instant and its walk's end (noting)? */
bool ptop_ts_ran_noting(u64 gen)
{
	return gen && READ_ONCE(ran_gen) == gen;
}

/* At the walk's end; pass lock held. Entries stay valid until the next. */
void ptop_ts_ran_end(void)
{
	WRITE_ONCE(ran_gen, 0);
}

/*
 * Is the task noted with start time start still t? A task_struct freed
 * and reused by a new task has a later start; a non-leader exec'er has
 * an earlier one, the old leader's (de_thread()), and the same runtime
 * counter: its note stands. Matching the exact start (2026-12-04 to
 * 2026-12-06) took an exec'er in the pass window for a new task: the
 * switch probe noted it again, or the walk found no note and read its
 * counter as it was, its run after the instant counted before it (a
 * thread that exec'ed 4 ms after its fork: +15 ms, then -15 ms,
 * tests/vm/diag/exits.sh with ptop_churn -p exec).
 */
static bool ran_same_task(const struct task_struct *t, u64 start)
{
	return t->start_boottime <= start;
}

/*
 * Note t, with runtime rt as of its CPU's instant of pass gen; pending_cpu
 * >= 0: that CPU kept t, rt is the most it can be (pass_pending.c).
 */
void ptop_ts_ran_note(const struct task_struct *t, u64 gen, u64 rt,
		      int pending_cpu)
{
	u32 i = hash_ptr((void *)t, RAN_BITS), n;

	for (n = 0; n < RAN_PROBE; n++, i = (i + 1) & (RAN_SLOTS - 1)) {
		struct ran_slot *s = &ran_slots[i];
		u64 c = READ_ONCE(s->claim);

		if (c == gen) {
			/* a complete entry of this pass: its fields after it */
			if (smp_load_acquire(&s->gen) != gen ||
			    READ_ONCE(s->t) != t)
				continue;
			/* noted already (a task is in one place at a time) */
			if (ran_same_task(t, READ_ONCE(s->start)))
				return;
			/*
			 * t's task_struct was freed and reused during the
			 * pass: the note is the dead task's, which no walk
			 * can find any more. The new task is noted, or its
			 * run after the instant would count before it (a
			 * child forked in the pass)
			 */
		} else if (cmpxchg(&s->claim, c, gen) != c) {
			continue;	/* another CPU took it meanwhile */
		}
		WRITE_ONCE(s->gen, 0);
		smp_wmb();	/* a reader of the old pass sees it change */
		WRITE_ONCE(s->t, t);
		WRITE_ONCE(s->start, t->start_boottime);
		WRITE_ONCE(s->rt, rt);
		WRITE_ONCE(s->cpu, pending_cpu);
		/* published: the entry is complete */
		smp_store_release(&s->gen, gen);
		return;
	}
	if (READ_ONCE(ran_full_gen) != gen) {
		WRITE_ONCE(ran_full_gen, gen);
		atomic_long_inc(&ran_full_passes);
	}
}

/* sched_switch (hooks.c), under the runqueue lock, interrupts off */
void ptop_ts_ran_switch(struct task_struct *prev, struct task_struct *next,
			u64 cpu_gen)
{
	u64 gen = READ_ONCE(ran_gen);

	ptop_ts_pending_switch(prev);
	/* this CPU's instant of the pass read: a stretch after it begins */
	if (!gen || cpu_gen != gen || !next->pid)
		return;
	ptop_ts_ran_note(next, gen, READ_ONCE(next->se.sum_exec_runtime), -1);
}

/*
 * t's runtime as of pass gen's instant, in *rt: RAN_AT (ran after the
 * instant, *rt as noted), RAN_NOT (did not run since: its counter is
 * exact), RAN_UNKNOWN (the table was full for some task of the pass).
 * Read t's counter before this (smp_rmb() between): a task found
 * missing here had not been switched in when that counter was read.
 */
enum ptop_ts_ran ptop_ts_ran_lookup(const struct task_struct *t, u64 gen,
				    u64 *rt)
{
	u32 i = hash_ptr((void *)t, RAN_BITS), n;

	for (n = 0; n < RAN_PROBE; n++, i = (i + 1) & (RAN_SLOTS - 1)) {
		const struct ran_slot *s = &ran_slots[i];
		u64 v;
		int cpu;

		if (READ_ONCE(s->claim) != gen)
			break;		/* never taken in this pass: the end */
		if (smp_load_acquire(&s->gen) != gen ||
		    READ_ONCE(s->t) != t ||
		    !ran_same_task(t, READ_ONCE(s->start)))
			continue;
		v = READ_ONCE(s->rt);
		cpu = READ_ONCE(s->cpu);
		smp_rmb();	/* not taken by the next pass meanwhile */
		if (READ_ONCE(s->gen) != gen)
			return PTOP_TS_RAN_UNKNOWN;
		*rt = cpu < 0 ? v : ptop_ts_pending_settle(t, gen, cpu, v);
		return PTOP_TS_RAN_AT;
	}
	if (n == RAN_PROBE || READ_ONCE(ran_full_gen) == gen)
		return PTOP_TS_RAN_UNKNOWN;
	return PTOP_TS_RAN_NOT;
}

/* Passes whose table was full for a task (the state file) */
long ptop_ts_ran_full_passes(void)
{
	return atomic_long_read(&ran_full_passes);
}
