// SPDX-License-Identifier: GPL-2.0
/*
 * Dead threads of a live group, counted by the module itself: the
 * kernel's dead-thread sum (signal->sum_sched_runtime) misses what a
 * thread runs after the last update of its runtime in its exit path
 * (docs/design.md, "Dead threads"). For groups born while the module is
 * loaded, the sched_process_exit probe starts a tail entry with the
 * thread's user/system/steal then; the entry's value is that plus
 * whatever the thread runs on (as system time), read live until
 * sched_process_free, when its final value moves to the group's sum of
 * freed threads. acct.c holds the entries on their group's record and
 * decides which of them a pass counts.
 *
 * Everything here runs under acct_lock (acct.c). An entry holds a
 * reference to its task (get_task_struct()), read up to the entry's end:
 * normally the task's sched_process_free (whose caller holds another
 * reference), at module unload ptop_ts_acct_exit() for tasks still
 * alive or freed after the probe was detached.
 */
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "cpus.h"
#include "pass_ran.h"
#include "record.h"
#include "thread_tail.h"

static DEFINE_HASHTABLE(tail_hash, 8);
static long tail_live;
static u64 tail_ns;

struct ptop_thread_tail *ptop_ts_tail_new(struct task_struct *p,
					  const struct ptop_ts_record *th)
{
	struct ptop_thread_tail *e = kzalloc(sizeof(*e),
					     GFP_NOWAIT | __GFP_NOWARN);

	if (!e)
		return NULL;
	get_task_struct(p);
	e->p = p;
	e->at_exit.u = th->utime_ns;
	e->at_exit.s = th->stime_ns;
	e->at_exit.st = th->steal_ns;
	/*
	 * The runtime the values above were read at, not a reading of now:
	 * the probe fills th first and makes the entry after the siglock
	 * section, and what p ran in between was then in neither part:
	 * 5.3 ms of a thread's 7.2 ms, once, when its vCPU stalled there.
	 * The value is at_exit plus the growth since.
	 */
	e->rt_exit = ptop_ts_tri_runtime(th->utime_ns, th->stime_ns,
					 th->steal_ns);
	INIT_LIST_HEAD(&e->gnode);
	hash_add(tail_hash, &e->hnode, hash_ptr(p, 8));
	tail_live++;
	return e;
}

struct ptop_thread_tail *ptop_ts_tail_find(struct task_struct *p)
{
	struct ptop_thread_tail *e;

	hash_for_each_possible(tail_hash, e, hnode, hash_ptr(p, 8))
		if (e->p == p)
			return e;
	return NULL;
}

/* what the thread ran since its probe; final: it has made its last switch */
u64 ptop_ts_tail_ns(const struct ptop_thread_tail *e, bool final)
{
	struct task_struct *p = e->p;
	u64 rt = READ_ONCE(p->se.sum_exec_runtime);

	if (!final)
		rt += ptop_ts_running_extra(p);
	return rt > e->rt_exit ? rt - e->rt_exit : 0;
}

/* The dead thread's user, system, steal now (or for good: final). */
void ptop_ts_tail_value(const struct ptop_thread_tail *e, bool final,
			struct ptop_tri *v)
{
	*v = e->at_exit;
	v->s += ptop_ts_tail_ns(e, final);
}

/*
 * The same as of the pass instant, for a walk: a thread that ran since
 * (pass_ran.c) is counted with its runtime then; what it ran after the
 * instant (its exit path, and before its probe too when it exited after
 * the instant: a thread released during a long walk) is for the next
 * answer. One that did not run since: its value now.
 */
void ptop_ts_tail_value_at_t0(const struct ptop_thread_tail *e,
			      struct ptop_tri *v)
{
	u64 at, less, part;

	if (ptop_ts_ran_lookup(e->p, ptop_ts_pass_gen(), &at) !=
	    PTOP_TS_RAN_AT) {
		ptop_ts_tail_value(e, false, v);
		return;
	}
	*v = e->at_exit;
	if (at >= e->rt_exit) {
		v->s += at - e->rt_exit;
		return;
	}
	less = e->rt_exit - at;		/* from system time first */
	part = min(less, v->s);
	v->s -= part;
	less -= part;
	part = min(less, v->u);
	v->u -= part;
	v->st -= min(less - part, v->st);
}

/*
 * Ends e; returns its task, whose reference the caller now owns: it drops
 * it with put_task_struct(), out of acct_lock when it may be the last.
 */
struct task_struct *ptop_ts_tail_free(struct ptop_thread_tail *e)
{
	struct task_struct *p = e->p;

	tail_ns += ptop_ts_tail_ns(e, true);
	hash_del(&e->hnode);
	list_del(&e->gnode);
	tail_live--;
	kfree(e);
	return p;
}

void ptop_ts_tail_counts(long *live, u64 *ns)
{
	*live = tail_live;
	*ns = tail_ns;
}

void ptop_ts_tail_reset(void)
{
	tail_live = 0;
	tail_ns = 0;
}
