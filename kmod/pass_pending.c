// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU's task at its pass instant while a switch was pending: its
 * runtime as of the instant, settled at that switch.
 *
 * cpus.c reads each CPU's task at the instant as its counter plus its run
 * since its last update, which is what the kernel charges it at its next
 * update, at that update's runqueue clock: a clock after the instant,
 * except at a switch that follows a wakeup preemption. There the waker
 * marks the task for rescheduling and asks the switch to skip the clock's
 * update (check_preempt_curr(), rq_clock_skip_update(): a queue event
 * just updated it), so the switch charges the task up to the wakeup's
 * clock, which can be before the instant; the time since goes to the next
 * task, from that same clock. Such a reading stands above every later one
 * of the task. Under qemu TCG on a loaded host by milliseconds: a vCPU
 * stopped between the wakeup and the instant, whose clock resync then
 * jumps ahead (test_kmod_exec_exit: single-threaded groups read 1.4 to
 * 7.7 ms above the next answer's reading, all noted at the instant).
 * Leaving the run out when a switch is pending is no better: a task that
 * runs on with no update between two passes (passes back to back, or a
 * tick-less stretch) is then read below the reading before (tried: ten
 * times the falls).
 *
 * So a CPU whose task at the instant is marked for rescheduling keeps it
 * here with both bounds, its counter (low) and that reading (high); the
 * task's switch, on that CPU, settles it to the counter the switch leaves
 * (the kernel's charge up to the clock it used), within the bounds. A walk
 * that finds the task unsettled waits for its switch, RAN_SETTLE_NS at
 * most: not when it was updated on its CPU since the instant at a later
 * clock (charged past the instant: high is its counter's due), nor for
 * the walker itself; a wait that runs out takes high, as the plain
 * reading did, and is counted (the state file's walk_pending_unsettled).
 *
 * The walker may wait with interrupts off and the task's siglock held
 * (walk_group()), which the task itself may be spinning on, interrupts
 * off too (exit_signals(), a signal): then its switch never comes and
 * only the wait's end frees both. That end is measured with
 * ktime_get_mono_fast_ns() (the clocksource, read directly), not
 * local_clock(): with an unstable sched_clock (a guest whose TSC is not
 * trusted: the 6.1 VM's "Unstable clock detected") local_clock() stops
 * one tick past this CPU's last tick while interrupts are off, and a
 * 2 ms wait that began after half of that tick never ran out: both CPUs
 * spun with interrupts off for good (test_kmod_cpu_pad, 2 of 5 runs
 * under multi-threaded TCG: one in the wait's pause, the other in
 * native_queued_spin_lock_slowpath). RAN_SETTLE_SPINS bounds the loop
 * whatever the clocksource does.
 * One record per CPU, written only by its CPU, interrupts off: at its
 * instant and at its next switch.
 */
#include <linux/atomic.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/sched.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include "pass_pending.h"

#define RAN_SETTLE_NS	(2 * NSEC_PER_MSEC)
#define RAN_SETTLE_SPINS	(1U << 20)	/* well past 2 ms of pauses */

enum { PENDING_NONE, PENDING_OPEN, PENDING_SETTLED };

struct pending_run {
	u64 gen;		/* the pass whose instant kept it; 0 while written */
	const struct task_struct *t;
	u64 t0;			/* the instant, in this CPU's clock */
	u64 low, high;		/* its counter then, and the reading */
	u64 settled;		/* its runtime as of the instant, once settled */
	int state;
};
static DEFINE_PER_CPU(struct pending_run, pending_run);
static atomic_long_t pending_noted = ATOMIC_LONG_INIT(0);
static atomic_long_t pending_waited = ATOMIC_LONG_INIT(0);
static atomic_long_t pending_unsettled = ATOMIC_LONG_INIT(0);

/*
 * At this CPU's instant t0 of pass gen (interrupts off): t, current here,
 * read as high, its counter low. True when
 * kept here (a switch is pending and the bounds differ): the note of t
 * (pass_ran.c) then says so.
 */
bool ptop_ts_pending_note(struct task_struct *t, u64 gen, u64 t0, u64 low,
			  u64 high)
{
	struct pending_run *p = this_cpu_ptr(&pending_run);

	if (high <= low || !test_tsk_need_resched(t))
		return false;
	WRITE_ONCE(p->gen, 0);
	smp_wmb();	/* a reader of the last pass sees it change */
	WRITE_ONCE(p->t, t);
	WRITE_ONCE(p->t0, t0);
	WRITE_ONCE(p->low, low);
	WRITE_ONCE(p->high, high);
	WRITE_ONCE(p->state, PENDING_OPEN);
	smp_store_release(&p->gen, gen);	/* complete */
	atomic_long_inc(&pending_noted);
	return true;
}

/*
 * sched_switch (hooks.c), on this CPU, interrupts off: prev's counter is
 * now what the kernel charged it, up to the clock of this switch.
 */
void ptop_ts_pending_switch(struct task_struct *prev)
{
	struct pending_run *p = this_cpu_ptr(&pending_run);
	u64 sum;

	if (likely(READ_ONCE(p->state) != PENDING_OPEN) ||
	    READ_ONCE(p->t) != prev)
		return;
	sum = READ_ONCE(prev->se.sum_exec_runtime);
	WRITE_ONCE(p->settled, clamp(sum, p->low, p->high));
	/* settled is read after this (ptop_ts_pending_settle()) */
	smp_store_release(&p->state, PENDING_SETTLED);
}

/*
 * t's runtime as of pass gen's instant of cpu, where that CPU kept t (its
 * note said so), high as noted: settled, or after a wait (see above).
 */
u64 ptop_ts_pending_settle(const struct task_struct *t, u64 gen, int cpu,
			   u64 high)
{
	const struct pending_run *p = per_cpu_ptr(&pending_run, cpu);
	u64 until = 0, v, t0;
	bool waited = false;
	u32 spins = 0;

	for (;;) {
		/* the record complete, its fields after it */
		if (smp_load_acquire(&p->gen) != gen || READ_ONCE(p->t) != t)
			return high;	/* a later instant: its pass is over */
		t0 = READ_ONCE(p->t0);
		/* settled after the switch wrote it */
		if (smp_load_acquire(&p->state) == PENDING_SETTLED) {
			v = READ_ONCE(p->settled);
			smp_rmb();	/* not rewritten by a later instant */
			if (READ_ONCE(p->gen) != gen)
				return high;
			if (waited)
				atomic_long_inc(&pending_waited);
			return v;
		}
		if (t == current)
			return high;	/* the walker: its switch is not before */
		/* updated on that CPU since, at a clock after the instant */
		if (READ_ONCE(t->on_cpu) && task_cpu(t) == cpu &&
		    READ_ONCE(t->se.exec_start) >= t0) {
			smp_rmb();	/* unless settled meanwhile */
			if (smp_load_acquire(&p->state) != PENDING_SETTLED)
				return high;
			continue;
		}
		/* not local_clock(): it may stand still here (see above) */
		if (!until) {
			until = ktime_get_mono_fast_ns() + RAN_SETTLE_NS;
			waited = true;
		} else if (ktime_get_mono_fast_ns() > until ||
			   ++spins > RAN_SETTLE_SPINS) {
			atomic_long_inc(&pending_unsettled);
			return high;
		}
		cpu_relax();
	}
}

/* Since load: tasks kept, settled after a wait, waits that ran out */
void ptop_ts_pending_counts(long *noted, long *waited, long *unsettled)
{
	*noted = atomic_long_read(&pending_noted);
	*waited = atomic_long_read(&pending_waited);
	*unsettled = atomic_long_read(&pending_unsettled);
}
