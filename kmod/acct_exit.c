// SPDX-License-Identifier: GPL-2.0
/*
 * A group's death in the accounting hierarchy (acct.c says how c* works):
 * the fold of its time and the position of its EXIT record, made as one
 * event under ptop_acct_lock; and the time threads run after their exit
 * probe: the exit path of a dead group's threads, folded late into the
 * same receiver, and, for groups born while the module is loaded, the
 * module's own count of their dead threads (x*, thread_tail.c).
 */
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/spinlock.h>
#include "compat.h"
#include "acct_internal.h"
#include "activity_marks.h"
#include "cpus.h"
#include "exit_ring.h"
#include "pass_ran.h"
#include "reaper.h"
#include "record.h"
#include "thread_tail.h"
#include "acct_exit.h"

/*
 * The last thread of a group reports the group dead (exits.c), with its
 * final totals in tot. Under ptop_acct_lock: fold, move children, and push the
 * group's EXIT record gr (its references taken over) with the group's
 * own c* and the fold target, so that it gets its ring position here.
 * twins: another thread may report the group too (exits.c); a record
 * that is not the group's first replaces the earlier one.
 */
void ptop_ts_acct_group_dead(struct task_struct *leader,
			     struct task_struct *p, u64 p_rt,
			     const struct ptop_tri *tot,
			     struct ptop_ts_exit_ent *gr, bool twins)
{
	struct ptop_acct *a, *to = NULL, *r = NULL;
	struct ptop_tri amount = { 0 }, cown = { 0 };
	struct task_struct *reaper;
	unsigned long flags;
	bool again;

	rcu_read_lock();
	reaper = ptop_ts_new_reaper(p);
	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	if (a) {
		cown = a->c;
		to = a->parent;
		while (to && to->dead)	/* only after a failed move */
			to = to->parent;
	}
	if (!to)
		to = ptop_acct_ancestor(leader);
	/* its real children go to reaper, their records under "to" */
	if (reaper && reaper->pid)
		r = ptop_acct_lookup(reaper->group_leader);
	if (r && r->dead)
		r = NULL;
	amount = *tot;
	if (a && !a->x_own)
		amount.st += a->x_steal;
	ptop_tri_add(&amount, &cown);
	again = a && a->dead;
	if (again) {
		/* a twin: only what grew since the first report */
		amount.u = amount.u > a->folded.u ? amount.u - a->folded.u : 0;
		amount.s = amount.s > a->folded.s ? amount.s - a->folded.s : 0;
		amount.st = amount.st > a->folded.st ? amount.st - a->folded.st : 0;
	}
	if (to)
		ptop_acct_fold(to, &amount);
	else
		ptop_acct_unfolded += amount.u + amount.s + amount.st;

	if (a) {
		ptop_tri_add(&a->folded, &amount);
		/*
		 * p keeps running until its last switch: ptop_ts_acct_free();
		 * in an own-x group p is an entry like the other dying threads
		 */
		if (a->reporter)
			hash_del(&a->rnode);
		a->reporter = NULL;
		if (!a->x_own) {
			a->reporter = p;
			a->reporter_rt = p_rt;
			hash_add(ptop_acct_rep_hash, &a->rnode,
				 hash_ptr(p, PTOP_ACCT_REP_BITS));
		}
		if (!a->dead) {
			/* children to the receiver, real ones to r too */
			ptop_acct_move_children(a, to, r);
			a->dead = true;
			ptop_acct_live--;
			ptop_acct_dead++;
			list_add_tail(&a->dead_node, &ptop_acct_dead_list);
			/*
			 * its threads' exit paths: folded at each pass (an
			 * own-x group is there from its report on)
			 */
			if (!list_empty(&a->dying) &&
			    list_empty(&a->running_node))
				list_add_tail(&a->running_node,
					      &ptop_acct_running);
		}
	}
	gr->rec.cutime_ns = cown.u;
	gr->rec.cstime_ns = cown.s;
	gr->rec.csteal_ns = cown.st;
	gr->rec.flags |= PTOP_TS_RECF_HAS_C;
	/* c* as the pass of this generation reports it (acct.c) */
	gr->c_pass = a && a->snap_gen == ptop_acct_gen ? a->c_snap : cown;
	gr->c_gen = ptop_acct_gen;
	if (to) {
		gr->fold = get_pid(to->tgid_pid);
		gr->rec.folded_start_ns = to->start_ns;
	}
	if (a) {
		/* the group's earlier record, if any, is at a->exit_pos */
		u64 pos = ptop_ts_exits_push(gr, (twins || again) &&
					     a->exit_pos, a->exit_pos);

		if (!a->exit_pos)
			a->exit_pos = pos + 1;
	} else {
		ptop_ts_exits_push(gr, twins || again, 0);
	}
	ptop_acct_reap(PTOP_ACCT_REAP_BATCH);
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	rcu_read_unlock();
}

/*
 * The thread that reported its group dead runs on for a while: the rest
 * of do_exit() (files, task work, exit_notify(), the last switch). That
 * time, in no record otherwise, is folded as system time into the same
 * receiver: at the start of every pass (fold_tails()) and for the last
 * time at sched_process_free (an RCU callback after the task's last
 * switch and its release, when it has stopped for good).
 */
/* late ns of system time of dead group a, after its fold: to its receiver */
static void fold_late(struct ptop_acct *a, u64 late)
{
	struct ptop_acct *to;

	for (to = a->parent; to && to->dead; to = to->parent)
		;
	if (to) {
		struct ptop_tri amount = { .s = late };

		ptop_acct_fold(to, &amount);
	} else {
		ptop_acct_unfolded += late;
	}
	a->folded.s += late;
	ptop_acct_late_ns += late;
}

static void fold_tail(struct ptop_acct *a, u64 rt)
{
	u64 late = rt - a->reporter_rt;

	if ((s64)late <= 0 || late >= NSEC_PER_SEC)
		return;
	fold_late(a, late);
	a->reporter_rt = rt;
}

/* A thread of dead group a still in its exit path: fold what it ran on. */
static void fold_dying(struct ptop_acct *a, struct ptop_thread_tail *e,
		       bool final)
{
	u64 tail = ptop_ts_tail_ns(e, final);

	if (tail > e->settled && tail - e->settled < NSEC_PER_SEC)
		fold_late(a, tail - e->settled);
	e->settled = tail;
}

/*
 * p made its last switch (do_task_dead(), then off its CPU): its runtime
 * is final. A zombie stays so until its parent reaps it, which can be
 * never: such tasks leave the per-pass work below after one last fold.
 */
static bool stopped_for_good(struct task_struct *p)
{
	if (ptop_task_state(p) != TASK_DEAD)
		return false;
	/* the last switch wrote the runtime before on_cpu = 0 (release) */
	return !smp_load_acquire(&p->on_cpu);
}

/*
 * A pass begins: the reporting threads still in their exit path have run
 * since; fold that now, before the pass's generation starts, so that time
 * shows in the interval it was spent in. Only the threads that can still
 * run are visited (reporters in rep_hash, records on ptop_acct_running),
 * not every zombie: this runs with interrupts off. ptop_acct_lock held.
 */
static void fold_tails(void)
{
	struct ptop_thread_tail *e;
	struct ptop_acct *a, *an;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(ptop_acct_rep_hash, bkt, tmp, a, rnode) {
		struct task_struct *p = a->reporter;
		bool final = stopped_for_good(p);
		u64 rt = READ_ONCE(p->se.sum_exec_runtime);

		fold_tail(a, final ? rt : rt + ptop_ts_running_extra(p));
		if (final) {
			hash_del(&a->rnode);
			a->reporter = NULL;
		}
	}
	list_for_each_entry_safe(a, an, &ptop_acct_running, running_node) {
		bool running = false;

		list_for_each_entry(e, &a->dying, gnode) {
			fold_dying(a, e, false);
			if (!stopped_for_good(e->p))
				running = true;
		}
		if (!running)
			list_del_init(&a->running_node);
	}
}

static u64 tri_less(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

/*
 * Dead thread e of a, freed with final value v while a pass is between
 * its instant and its walk's end: what v has after the thread's instant
 * is kept apart (x_post), for that pass's walks to leave out of own x*
 * (own_x()); the next pass has it whole. Otherwise a walk after the
 * free has it in x*: +d in that interval, -d in the next
 * (tests/vm/diag/exits.sh, -p threads).
 */
static void note_x_post(struct ptop_acct *a, struct ptop_thread_tail *e,
			const struct ptop_tri *v)
{
	u64 gen = ptop_ts_pass_gen();
	struct ptop_tri at;

	if (!ptop_ts_runtimes_at_t0() || !ptop_ts_ran_noting(gen))
		return;
	ptop_ts_tail_value_at_t0(e, &at);
	if (a->x_post_gen != gen) {
		memset(&a->x_post, 0, sizeof(a->x_post));
		a->x_post_gen = gen;
	}
	a->x_post.u += tri_less(v->u, at.u);
	a->x_post.s += tri_less(v->s, at.s);
	a->x_post.st += tri_less(v->st, at.st);
}

void ptop_ts_acct_free(struct task_struct *p)
{
	struct ptop_acct *a, *found = NULL;
	struct ptop_thread_tail *e;
	unsigned long flags;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	hash_for_each_possible(ptop_acct_rep_hash, a, rnode,
			       hash_ptr(p, PTOP_ACCT_REP_BITS))
		if (a->reporter == p)
			found = a;
	if (found) {
		fold_tail(found, p->se.sum_exec_runtime);
		hash_del(&found->rnode);
		found->reporter = NULL;
	}
	/* a dead thread of an own-x group has stopped for good */
	e = ptop_ts_tail_find(p);
	if (e) {
		struct ptop_tri v;

		a = e->owner;
		if (a->dead || a->own_reported)
			fold_dying(a, e, true);
		/* own x* stays whole for a pass that still reports the group */
		ptop_ts_tail_value(e, true, &v);
		ptop_tri_add(&a->x_freed, &v);
		note_x_post(a, e, &v);
		/* not the last reference: the probe's caller holds one */
		put_task_struct(ptop_ts_tail_free(e));
	}
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
}

/* sched_process_exit of p, a thread of a group that lives on */
void ptop_ts_acct_thread_exit(struct task_struct *leader,
			      struct task_struct *p,
			      const struct ptop_ts_record *th)
{
	struct ptop_thread_tail *e;
	struct ptop_acct *a;
	unsigned long flags;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	/*
	 * Not when the group's exit report, made by another thread between
	 * p's siglock and here, already gave p its entry: a second entry
	 * would count p twice in x* and in the late folds, and stay (only
	 * one is freed at p's free).
	 */
	if (a && a->x_own && !a->dead && !ptop_ts_tail_find(p)) {
		e = ptop_ts_tail_new(p, th);
		if (e) {
			e->owner = a;
			list_add_tail(&e->gnode, &a->dying);
		} else {
			/* one dead thread not counted: the kernel's x* then */
			a->x_own = false;
			ptop_acct_nomem++;
		}
	}
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
}

/*
 * Under leader's siglock, after ptop_ts_fill_group_locked(): for an own-x
 * group, x* from the tail entries. An entry counts when its thread is not
 * counted live: released (__exit_signal() cleared its sighand under this
 * same siglock) or counted dead by the group sum, under this siglock
 * (gone: ptop_ts_gone_counted(); without it, gone as of exit_head, never
 * for the group's exit report: PTOP_TS_LINKED_LIVE). Not decided again
 * here: a thread the sum read live (past its probe, its EXIT record
 * after the pass began) that passed exit_notify() before this point
 * (which sets exit_state under tasklist_lock, not siglock) would count
 * twice, in the group's own time and in x*: the old leader of a
 * non-leader exec, read live and a zombie a moment later, would put the
 * group's total milliseconds too high, the exec'er's next answer below
 * it (test_kmod_exec_exit on a loaded host).
 * false: x* stays the kernel's.
 * Also for a dead group that a pass begun before its EXIT record still
 * reports live: the same count as at its exit report. at_t0 (a walk):
 * each entry as of the pass instant.
 */
static void own_x(struct ptop_acct *a, u64 exit_head,
		  const struct ptop_gone *gone, struct ptop_ts_record *r,
		  bool at_t0)
{
	struct ptop_thread_tail *e;
	struct ptop_tri x = a->x_freed, v;

	/* a walk: the freed threads' runs after the instant are not yet */
	if (at_t0 && a->x_post_gen == ptop_ts_pass_gen()) {
		x.u = tri_less(x.u, a->x_post.u);
		x.s = tri_less(x.s, a->x_post.s);
		x.st = tri_less(x.st, a->x_post.st);
	}
	list_for_each_entry(e, &a->dying, gnode) {
		/* its row is live in this answer (released since, or not) */
		if (ptop_ts_gone_walked_live(gone, e->p))
			continue;
		if (rcu_access_pointer(e->p->sighand) &&
		    !ptop_ts_gone_counted(gone, e->p, exit_head))
			continue;
		if (at_t0)	/* a walk: as of the pass instant */
			ptop_ts_tail_value_at_t0(e, &v);
		else
			ptop_ts_tail_value(e, false, &v);
		ptop_tri_add(&x, &v);
	}
	r->xutime_ns = x.u;
	r->xstime_ns = x.s;
	r->xsteal_ns = x.st;
}

/* walks that answered a dying group as its report had it, since load */
static long at_report_walks;

/*
 * A group reported dead before this pass's instant (on the reporting
 * CPU), whose EXIT record comes after the pass began, so that the pass
 * has it live: its totals as the report had them, not its threads read
 * on. What they run after the report is folded into the receiver as they
 * run it (fold_dying(), from the report on), and the EXIT record has the
 * report's totals: a walk reading the threads on counted that run twice,
 * on the group and in the receiver's c*, and the group's total fell
 * from that live record to its EXIT record (by 1 to 53 ms in
 * test_kmod_exec_exit on a loaded host; test_kmod_report_window). A
 * report after the instant is later than the walk's reading: the
 * threads as of the instant are below it, and read so.
 */
static bool report_before_instant(const struct ptop_acct *a)
{
	return a->own_reported &&
	       (!ptop_ts_runtimes_at_t0() || a->rep_gen != ptop_ts_pass_gen());
}

static bool at_report(struct ptop_acct *a, struct ptop_ts_record *r)
{
	if (!report_before_instant(a))
		return false;
	r->utime_ns = a->rep_own.u;
	r->stime_ns = a->rep_own.s;
	r->steal_ns = a->rep_own.st;
	r->xutime_ns = a->rep_x.u;
	r->xstime_ns = a->rep_x.s;
	r->xsteal_ns = a->rep_x.st;
	at_report_walks++;
	return true;
}

bool ptop_ts_acct_own_x_locked(struct task_struct *leader, u64 exit_head,
			       const struct ptop_gone *gone,
			       struct ptop_ts_record *r)
{
	struct ptop_acct *a;
	unsigned long flags;
	bool own;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	own = a && a->x_own;
	if (own && !at_report(a, r))
		own_x(a, exit_head, gone, r, true);
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	return own;
}

/*
 * The same for a thread row of such a group (thread answers): a linked
 * thread with a tail entry, as the report had it (its reading at its
 * probe, or at the report for the threads the report gave an entry,
 * plus what it ran from its probe to the report), so that the rows
 * stay within their group's record. t is exiting (PF_EXITING); under RCU.
 */
void ptop_ts_acct_thread_at_report(struct task_struct *t,
				   struct ptop_ts_record *r)
{
	struct ptop_thread_tail *e;
	unsigned long flags;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	e = ptop_ts_tail_find(t);
	if (e && report_before_instant(e->owner)) {
		r->utime_ns = e->at_exit.u;
		r->stime_ns = e->at_exit.s + e->at_report;
		r->steal_ns = e->at_exit.st;
	}
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
}

long ptop_ts_acct_at_report_walks(void)
{
	return READ_ONCE(at_report_walks);
}

/*
 * Under siglock, the group's last live-- seen (after
 * ptop_ts_fill_group_locked() with PTOP_TS_LINKED_LIVE): for an own-x
 * group, the first such report gets x* from the entries of the released
 * threads (the linked ones are in the threads' sum), and every thread still
 * linked without an entry (the reporter, and threads between their live--
 * and their probe) gets one now, valued as the report has it: what they
 * run from here on is folded as they run it (fold_dying()), so their own
 * probes, later, have nothing left to report (PTOP_OWN_TWIN).
 */
enum ptop_own_exit ptop_ts_acct_group_exit_locked(struct task_struct *leader,
						  struct task_struct *p, u64 p_rt,
						  struct ptop_ts_record *r)
{
	enum ptop_own_exit ret;
	struct ptop_thread_tail *e;
	struct ptop_ts_record tr;
	struct task_struct *t;
	struct ptop_acct *a;
	unsigned long flags;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	if (!a || !a->x_own) {
		ret = PTOP_OWN_NO;
		goto out;
	}
	if (a->dead || a->own_reported) {
		ret = PTOP_OWN_TWIN;
		goto out;
	}
	ret = PTOP_OWN_FIRST;
	a->own_reported = true;		/* under siglock: exactly one first */
	own_x(a, PTOP_TS_LINKED_LIVE, NULL, r, false);
	/* what the entries ran so far is in the report's total */
	list_for_each_entry(e, &a->dying, gnode) {
		e->settled = ptop_ts_tail_ns(e, false);
		e->at_report = e->settled;
	}
	__for_each_thread(leader->signal, t) {
		if (ptop_ts_tail_find(t))
			continue;
		memset(&tr, 0, sizeof(tr));
		ptop_ts_fill_thread(&tr, t, false);
		e = ptop_ts_tail_new(t, &tr);
		if (!e) {
			ptop_acct_nomem++;	/* its exit path is lost */
			continue;
		}
		/* the reporter's tail from the reading the total has */
		if (t == p && p_rt <= e->rt_exit)
			e->rt_exit = p_rt;
		e->owner = a;
		list_add_tail(&e->gnode, &a->dying);
	}
	/* what a pass until its EXIT record answers (at_report()) */
	a->rep_own = (struct ptop_tri){ r->utime_ns, r->stime_ns, r->steal_ns };
	a->rep_x = (struct ptop_tri){ r->xutime_ns, r->xstime_ns, r->xsteal_ns };
	a->rep_gen = ptop_ts_cpu_instant_gen();
	/* and the run from here on is folded from the next pass on */
	if (!list_empty(&a->dying) && list_empty(&a->running_node))
		list_add_tail(&a->running_node, &ptop_acct_running);
out:
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	return ret;
}

/*
 * The ring position of the EXIT record of leader's group (under its
 * siglock, or not): 1 and *pos, 0 when none is written yet, -ENOENT when
 * the group has no record here (its record, if any, is found in the
 * ring: ptop_ts_exits_recorded()). O(1).
 */
int ptop_ts_acct_exit_pos(struct task_struct *leader, u64 *pos)
{
	struct ptop_acct *a;
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	if (a) {
		ret = a->exit_pos ? 1 : 0;
		*pos = a->exit_pos - ret;
	}
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	return ret;
}

/* The generation of c* the pass under way reports (pass lock held). */
u64 ptop_ts_acct_gen(void)
{
	return READ_ONCE(ptop_acct_gen);
}

/* A pass begins: returns the EXIT ring head it answers up to. */
u64 ptop_ts_acct_pass_begin(void)
{
	u64 head;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&ptop_acct_lock, flags);
	fold_tails();
	ptop_acct_gen++;
	head = ptop_ts_exits_head();
	ptop_acct_reap(PTOP_ACCT_REAP_BATCH * 4);
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	rcu_read_unlock();
	return head;
}
