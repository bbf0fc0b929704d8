// SPDX-License-Identifier: GPL-2.0
/*
 * The threads of one group in a walk (walk_groups.c): each thread's
 * record in a thread answer, in chunks of WALK_CHUNK with a resched
 * point between them; a big group's sum read in such chunks; the
 * exec'er of a non-leader exec. Under RCU and the pass lock.
 */
#include <linux/bsearch.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sort.h>
#include "acct_exit.h"
#include "exit_ring.h"
#include "record.h"
#include "test_window.h"
#include "walk.h"
#include "walk_threads.h"

/*
 * Is this thread gone for the pass: its EXIT record written before the
 * pass began, or the thread past exit_notify()?
 */
static bool thread_gone(const struct ptop_ts_walk *w, struct task_struct *t)
{
	return ptop_ts_thread_gone(t, w->exit_head);
}

/*
 * Is r, just read from t, the group leader's row (pid = tgid, the
 * leader's start)? The leader's, and a non-leader exec'er's from the
 * moment de_thread() gives it the leader's start: then the leader's pid
 * (exchange_tids()), then the leadership, all under tasklist_lock, which
 * the walk does not take; the old leader, dead (exit_state), gets the
 * exec'er's old pid and loses the leadership. So decided on what r has,
 * read before: a record with the leader's pid is the leader's row,
 * whatever t is now (asking t, read later, gave two live THREAD records
 * of one (pid, start): test_kmod_late_exec, make vm-leader-window).
 */
static bool leader_row(struct task_struct *t, const struct ptop_ts_record *r)
{
	const struct task_struct *leader = READ_ONCE(t->group_leader);

	/*
	 * else the leader's start: the leader (an exec'er that became it
	 * after r was read has its old start in r: its own row), or an
	 * exec'er on its way to it, alive
	 */
	return r->pid == r->tgid ||
	       (r->start_ns == leader->start_boottime &&
		(leader == t || !READ_ONCE(t->exit_state)));
}

/* In threads mode, thread t's record, unless it is not wanted. */
static void walk_thread(struct ptop_ts_walk *w, struct task_struct *leader,
			struct task_struct *t, struct ptop_ts_record **lrec,
			bool *truncated)
{
	struct ptop_ts_record r;

	if (thread_gone(w, t) || !ptop_ts_walk_wants(w, t))
		return;
	/* one slot stays free for the group record */
	if (w->snap->ans->count + 1 >= w->cap) {
		*truncated = true;
		return;
	}
	memset(&r, 0, sizeof(r));
	ptop_ts_fill_ident(&r, t, w->q->pid_ns, w->q->user_ns);
	/* released since thread_gone(): its EXIT record is next */
	if (!r.pid || !r.tgid)
		return;
	ptop_ts_fill_thread(&r, t, true);
	/* its group reported dead before the instant: as the report has it */
	if (READ_ONCE(t->flags) & PF_EXITING)
		ptop_ts_acct_thread_at_report(t, &r);
	ptop_ts_test_ident_window(t);	/* test builds only */
	if (!leader_row(t, &r)) {
		ptop_ts_walk_add(w, &r);
		/*
		 * the group's sum and x* count it live, as its row (beyond
		 * PTOP_GONE_KEPT of them they decide again)
		 */
		if ((READ_ONCE(t->flags) & PF_EXITING) &&
		    w->nlive < PTOP_GONE_KEPT) {
			w->live[w->nlive++] = t;
			ptop_ts_test_thread_window(t);	/* test builds only */
		}
		return;
	}
	/*
	 * The leader now (an exec'er may have become it). A leader's
	 * record already taken in this walk of the group: a non-leader
	 * exec happened between the two reads (the old leader read live,
	 * then killed by de_thread(), which gives the exec'er its pid and
	 * start: exchange_tids()). Both have the leader's (pid, start):
	 * one row per identity, the newest, in the older one's place (the
	 * old leader's time is in the group's x*, as late.c's
	 * fit_late_threads() keeps it).
	 */
	r.pid = r.tgid;		/* an exec'er taking it over: its pid next */
	if (*lrec) {
		r.flags |= w->recf;
		**lrec = r;
	} else {
		*lrec = ptop_ts_walk_add(w, &r);
	}
	ptop_ts_test_leader_window(t);	/* test builds only */
}

static int pid_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The thread walk cannot resume (the thread it was to resume after was
 * released meanwhile): the threads already in the answer, from record
 * first on, by pid, sorted, to skip them. Process context, out of RCU.
 */
static u32 *walked_pids(const struct ptop_ts_walk *w, u32 first, u32 *n)
{
	u32 i, *pids;

	*n = w->snap->ans->count - first;
	pids = kvmalloc_array(max(*n, 1U), sizeof(*pids), GFP_KERNEL);
	if (!pids)
		return NULL;
	for (i = 0; i < *n; i++)
		pids[i] = w->snap->recs[first + i].pid;
	sort(pids, *n, sizeof(*pids), pid_cmp, NULL);
	return pids;
}

/*
 * The thread after t, the n-th of the group's list head: after every
 * WALK_CHUNK threads out of RCU for a moment (cond_resched()) with t
 * pinned, *ret -EINTR on a fatal signal. *alive false: t was unlinked
 * meanwhile, its successor unknown (NULL returned); else true.
 */
static struct task_struct *next_thread_chunked(struct ptop_ts_walk *w,
					       struct list_head *head,
					       struct task_struct *t, u32 n,
					       bool *alive, int *ret)
	__must_hold(RCU)
{
	struct task_struct *next;

	*alive = true;
	*ret = 0;
	if (n % WALK_CHUNK)
		return list_next_or_null_rcu(head, &t->thread_node,
					     struct task_struct, thread_node);
	get_task_struct(t);
	ptop_ts_span_end(&w->spans);
	if (fatal_signal_pending(current))
		*ret = -EINTR;
	ptop_ts_test_chunk_window(t);	/* test builds only */
	cond_resched();
	ptop_ts_span_begin(&w->spans);
	*alive = pid_alive(t);
	/* not the last reference while still linked */
	next = *alive ? list_next_or_null_rcu(head, &t->thread_node,
					      struct task_struct,
					      thread_node) : NULL;
	put_task_struct(t);
	return next;
}

/*
 * The threads of leader's group, WALK_CHUNK at a time: a group can have
 * tens of thousands, and between chunks the RCU read section ends, with
 * a resched point. The walk resumes after the last thread visited when
 * that is still linked (pid_alive() under RCU, as proc's next_tid()):
 * new threads go to the tail of the list, so none is missed. When it was
 * released meanwhile, the rest of the group is walked at once under its
 * siglock (the list cannot change then), skipping those already in the
 * answer (by pid): none is doubled, and the walk never starts over
 * (docs/design.md, "The walk of a big group"). Under RCU (left and
 * taken again between chunks), a reference on leader held.
 */
int ptop_ts_walk_threads(struct ptop_ts_walk *w, struct task_struct *leader,
			 struct ptop_ts_record **lrec, bool *truncated)
	__must_hold(RCU)
{
	struct list_head *head = &leader->signal->thread_head;
	u32 first = w->snap->ans->count, n = 0, nseen, nr, *seen;
	struct sighand_struct *sh;
	struct task_struct *t;
	unsigned long flags;
	bool alive = true;
	int ret = 0;

	t = list_first_or_null_rcu(head, struct task_struct, thread_node);
	while (t) {
		walk_thread(w, leader, t, lrec, truncated);
		t = next_thread_chunked(w, head, t, ++n, &alive, &ret);
		if (ret)
			return ret;
	}
	if (alive)
		return 0;
	ptop_ts_span_end(&w->spans);
	seen = walked_pids(w, first, &nseen);
	ptop_ts_span_begin(&w->spans);
	if (!seen)
		return -ENOMEM;
	sh = ptop_ts_lock_sighand(leader, &flags);
	if (sh) {
		for_each_thread(leader, t) {
			nr = task_pid_nr_ns(t, w->q->pid_ns);
			if (!bsearch(&nr, seen, nseen, sizeof(*seen), pid_cmp))
				walk_thread(w, leader, t, lrec, truncated);
		}
		spin_unlock_irqrestore(&sh->siglock, flags);
	}
	kvfree(seen);
	return 0;
}

/*
 * The counters of a group of more than WALK_CHUNK threads, read without
 * its siglock and WALK_CHUNK threads at a time, out of RCU between
 * chunks, as the kernel's thread_group_cputime() reads them: valid when
 * no thread of the group was released meanwhile, which the caller tells
 * under siglock from sig->stats_lock's count (__exit_signal() moves a
 * thread's counters to the signal's sums and unlinks it inside that
 * seqlock, under siglock). *n: the threads read. -EAGAIN: a thread was
 * released during the sum; the caller sums under siglock instead. Under
 * RCU, leader pinned.
 */
int ptop_ts_group_sum_chunked(struct ptop_ts_walk *w,
			      struct task_struct *leader,
			      struct ptop_ts_record *r, struct ptop_gone *gone,
			      u32 *n)
	__must_hold(RCU)
{
	struct signal_struct *sig = leader->signal;
	struct list_head *head = &sig->thread_head;
	struct task_struct *t;
	bool alive;
	int ret;

	*n = 0;
	ptop_ts_group_begin(r, gone, sig);
	t = list_first_or_null_rcu(head, struct task_struct, thread_node);
	while (t) {
		ptop_ts_group_add(r, gone, t, w->exit_head, NULL, NULL, true);
		t = next_thread_chunked(w, head, t, ++*n, &alive, &ret);
		if (ret)
			return ret;
		if (!alive)
			return -EAGAIN;
	}
	ptop_ts_group_end(r, sig, gone);
	return 0;
}

/*
 * In a thread answer, the group record g says a non-leader exec took over
 * (EXEC) but the walk did not report the leader's thread: the exec'er's
 * record (as the leader it is now, the pid and start it had before the
 * exec in exec_old_*, RECF_EXEC), unless it is in the answer already
 * under either identity (records from first on). Its marks are under its
 * old identity before de_thread() and the leader's after it, so an
 * exchange between the pass's drain and the walk left it in neither
 * (docs/design.md, "Which tasks changed since answer N"). Under RCU.
 */
void ptop_ts_add_execer(struct ptop_ts_walk *w, struct task_struct *leader,
			u32 first, const struct ptop_ts_record *g,
			bool *truncated)
{
	struct ptop_ts_answer *ans = w->snap->ans;
	struct ptop_ts_record r;
	u32 i;

	if (thread_gone(w, leader))
		return;
	memset(&r, 0, sizeof(r));
	ptop_ts_fill_ident(&r, leader, w->q->pid_ns, w->q->user_ns);
	if (!r.pid || !r.tgid)
		return;
	/* in the answer already, as the leader or as itself before */
	for (i = first; i < ans->count; i++) {
		const struct ptop_ts_record *t = &w->snap->recs[i];

		if (t->kind == PTOP_TS_KIND_THREAD &&
		    ((t->pid == r.pid && t->start_ns == r.start_ns) ||
		     (t->pid == g->exec_old_pid &&
		      t->start_ns == g->exec_old_start_ns)))
			return;
	}
	/* one slot stays free for the group record; none: the answer is short */
	if (ans->count + 1 >= w->cap) {
		*truncated = true;
		return;
	}
	ptop_ts_fill_thread(&r, leader, true);
	r.flags |= PTOP_TS_RECF_EXEC;
	r.exec_old_pid = g->exec_old_pid;
	r.exec_old_start_ns = g->exec_old_start_ns;
	ptop_ts_walk_add(w, &r);
}
