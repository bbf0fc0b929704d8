// SPDX-License-Identifier: GPL-2.0
/*
 * The groups of a pass: every group of the reader's namespace in tgid
 * order, in chunks of WALK_CHUNK pids under rcu_read_lock() with a
 * resched point and a fatal-signal check between chunks, or the groups
 * activity.c marked since the reader's last answer; each with its
 * threads' records (walk_threads.c) and its group record. Under the
 * pass lock (seq.c).
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include "compat.h"
#include "acct.h"
#include "acct_exit.h"
#include "activity_index.h"
#include "exit_ring.h"
#include "record.h"
#include "walk.h"
#include "walk_threads.h"
#include "walk_groups.h"

/*
 * Is leader's group gone for the pass? Siglock held. By its EXIT
 * record's position against the pass's start, fixed for the whole pass
 * (not by exit_state, which changes during it): a group whose threads
 * all passed exit_notify() during the pass is live in it, read here
 * while its threads are linked, by late.c once they are not. The
 * position is the one its accounting record keeps (O(1)); a group
 * without a record (none could be made) is looked for in the ring.
 */
static bool group_gone_locked(const struct ptop_ts_walk *w,
			      struct task_struct *leader)
{
	struct signal_struct *sig = leader->signal;
	struct task_struct *t;
	bool linked = false;	/* a thread not past exit_notify() */
	u64 pos = 0;
	int known;

	if (atomic_read(&sig->live))
		return false;
	__for_each_thread(sig, t)
		if (!READ_ONCE(t->exit_state)) {
			linked = true;
			break;
		}
	known = ptop_ts_acct_exit_pos(leader, &pos);
	if (known >= 0) {
		/*
		 * a thread not past exit_notify() yet: gone only by a
		 * record before the pass; every thread past it: by a
		 * record before the pass, or none
		 */
		if (linked)
			return known && pos < w->exit_head;
		return !known || pos < w->exit_head;
	}
	if (linked)
		return ptop_ts_exits_recorded(task_tgid(leader), true,
					      leader->start_boottime,
					      NULL, w->exit_head);
	/* every thread is past its probe: the record is before or after */
	return !ptop_ts_exits_recorded_since(task_tgid(leader), true,
					     leader->start_boottime, NULL,
					     w->exit_head);
}

/*
 * The leader now of the group whose leader was picked (under RCU): after a
 * non-leader exec the tgid belongs to the exec'er. NULL: the group is gone.
 */
static struct task_struct *current_leader(const struct ptop_ts_walk *w,
					  struct task_struct *picked, u32 tgid)
{
	struct pid *pid = find_pid_ns(tgid, w->q->pid_ns);
	struct task_struct *t = pid ? pid_task(pid, PIDTYPE_TGID) : NULL;

	return t && t != picked && t->signal == picked->signal ? t : NULL;
}

/*
 * The sums of *leader's group into r, under its siglock (the leader now,
 * in *leader, after a non-leader exec). 1: r is the group's; 0: the group
 * is gone for this pass; -EINTR.
 */
static int group_sum(struct ptop_ts_walk *w, struct task_struct **leader,
		     u32 tgid, struct ptop_ts_record *r)
	__must_hold(RCU)
{
	struct signal_struct *sig = (*leader)->signal;
	struct sighand_struct *sh;
	struct ptop_gone gone;
	unsigned long flags;
	unsigned int seq = 0;
	u32 summed = 0;
	int ret = -EAGAIN;

	gone.live = w->live;
	gone.nlive = w->nlive;
	if (get_nr_threads(*leader) > WALK_CHUNK) {
		seq = read_seqbegin(&sig->stats_lock);
		memset(r, 0, sizeof(*r));
		ret = ptop_ts_group_sum_chunked(w, *leader, r, &gone, &summed);
		if (ret == -EINTR)
			return ret;
	}
	sh = ptop_ts_lock_sighand(*leader, &flags);
	if (!sh) {
		/*
		 * Released: a group gone for good, or a non-leader exec
		 * (de_thread()) made another thread the leader since this
		 * leader was picked (ptop_ts_walk_marked(): before the walk);
		 * the group is then read from its leader now.
		 */
		*leader = current_leader(w, *leader, tgid);
		sh = *leader ? ptop_ts_lock_sighand(*leader, &flags) : NULL;
		if (!sh)
			return 0;
		ret = -EAGAIN;	/* summed under this leader's siglock */
	}
	if (group_gone_locked(w, *leader)) {
		spin_unlock_irqrestore(&sh->siglock, flags);
		return 0;
	}
	if (ret || read_seqretry(&sig->stats_lock, seq)) {
		/* a small group, or a thread of a big one released meanwhile */
		memset(r, 0, sizeof(*r));
		ptop_ts_fill_group_locked(r, *leader, w->exit_head, NULL,
					  NULL, true, &gone);
	} else if (summed != (u32)sig->nr_threads) {
		/*
		 * threads added after the chunked sum passed the list's
		 * tail (nr_threads and the list change under siglock): the
		 * sum did not read them, x* decides them itself
		 */
		gone.whole = false;
	}
	/* the dead threads the sum counted, not decided again (acct_exit.c) */
	ptop_ts_acct_own_x_locked(*leader, w->exit_head, &gone, r);
	spin_unlock_irqrestore(&sh->siglock, flags);
	return 1;
}

/*
 * The record of leader's group, after its threads' (lrec: the leader's;
 * first: the group's first record in the answer)
 */
static int group_record(struct ptop_ts_walk *w, struct task_struct *leader,
			u32 tgid, struct ptop_ts_record *lrec, u32 first,
			bool *truncated)
	__must_hold(RCU)
{
	struct ptop_ts_record r;
	int ret;

	ret = group_sum(w, &leader, tgid, &r);
	if (ret <= 0)
		return ret;
	ptop_ts_fill_ident(&r, leader, w->q->pid_ns, w->q->user_ns);
	if (!r.pid || !r.tgid) {
		/* released since its siglock: as above */
		leader = current_leader(w, leader, tgid);
		if (!leader)
			return 0;	/* its EXIT record is after the head */
		ptop_ts_fill_ident(&r, leader, w->q->pid_ns, w->q->user_ns);
		if (!r.pid || !r.tgid)
			return 0;
	}
	/*
	 * A non-leader exec since the leader was picked: de_thread()'s
	 * exchange_tids() gave the leader's pid to the exec'er, and the
	 * old leader has the exec'er's old tid until it is released. The
	 * record is the group's: under its tgid (the exec'er takes over the
	 * leader's start_ns too), not another process's.
	 */
	r.pid = r.tgid;
	ptop_ts_fill_mem(&r, leader);
	ptop_ts_acct_read(leader, &r, w->q->pid_ns);
	if (lrec && (r.flags & PTOP_TS_RECF_EXEC)) {
		/* the exec'er, now the leader: its identity before the exec */
		lrec->flags |= PTOP_TS_RECF_EXEC;
		lrec->exec_old_pid = r.exec_old_pid;
		lrec->exec_old_start_ns = r.exec_old_start_ns;
	} else if (w->threads && (r.flags & PTOP_TS_RECF_EXEC)) {
		ptop_ts_add_execer(w, leader, first, &r, truncated);
	}
	if (w->snap->ans->count < w->cap)
		ptop_ts_walk_add(w, &r);
	else
		*truncated = true;
	return 0;
}

static int walk_group(struct ptop_ts_walk *w, struct task_struct *leader,
		      u32 tgid)
	__must_hold(RCU)
{
	struct ptop_ts_answer *ans = w->snap->ans;
	struct ptop_ts_record *lrec = NULL;
	struct task_struct *t;
	bool truncated = false;
	u32 first = ans->count, need = 1;
	int ret = 0;

	if (w->full || tgid < w->q->cmd.start_pid)
		return 0;
	if (w->threads && !w->since_pass)
		need += get_nr_threads(leader);
	else if (w->threads)
		for_each_thread(leader, t)
			need += ptop_ts_walk_wants(w, t);
	if (ans->count + need > w->cap) {
		/* outgrown during the pass (forks since it was sized) */
		if (w->cap < w->q->cmd.max_count && !w->no_room) {
			w->grow = ans->count + need;
			return WALK_GROW;
		}
		if (ans->count || !w->cap) {
			ptop_ts_walk_stop_at(w, tgid);
			return 0;
		}
		/* alone more than the answer may hold: truncated, below */
	}

	/* the walk of a big group leaves RCU between chunks: keep leader */
	get_task_struct(leader);
	w->nlive = 0;
	if (w->threads)
		ret = ptop_ts_walk_threads(w, leader, &lrec, &truncated);
	if (!ret)
		ret = group_record(w, leader, tgid, lrec, first, &truncated);
	if (truncated && !w->full && !ret) {
		/*
		 * The group gained threads during its walk, past the room
		 * left: it is read again, whole, in a larger answer, or on
		 * the next page. Only a group with more threads than the
		 * whole answer may hold is cut: it cannot be paged by
		 * tgid, so say where to go on.
		 */
		if (w->cap < w->q->cmd.max_count && !w->no_room) {
			ans->count = first;
			w->grow = first + get_nr_threads(leader) + 1;
			ret = WALK_GROW;
		} else if (first) {
			ans->count = first;
			ptop_ts_walk_stop_at(w, tgid);
		} else {
			ptop_ts_walk_stop_at(w, tgid + 1);
			pr_warn_once("a thread group has more threads than max_records: answers for it are truncated\n");
		}
	}
	put_task_struct(leader);
	return ret;
}

/* Every group of the reader's namespace, in tgid order, in chunks. */
int ptop_ts_walk_all(struct ptop_ts_walk *w)
{
	struct pid_namespace *ns = w->q->pid_ns;
	struct task_struct *leader;
	struct pid *pid = NULL;
	u32 nr = 1, i;
	int ret = 0;

	do {
		ptop_ts_span_begin(&w->spans);
		for (i = 0; i < WALK_CHUNK && !w->full; i++, nr++) {
			pid = ptop_find_ge_pid(nr, ns);
			if (!pid)
				break;
			nr = pid_nr_ns(pid, ns);
			leader = pid_task(pid, PIDTYPE_TGID);
			if (leader)
				ret = walk_group(w, leader, nr);
			if (ret)
				break;
		}
		ptop_ts_span_end(&w->spans);
		if (ret == WALK_GROW) {
			/* and from the same pid on: the group is not in it */
			ptop_ts_walk_grow(w);
			ret = 0;
		}
		if (ret)
			return ret;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	} while (pid && !w->full);
	return 0;
}

/* The groups activity.c marked since the reader's answer (tgid order). */
int ptop_ts_walk_marked(struct ptop_ts_walk *w,
			const struct ptop_ts_act_sel *sel)
{
	u32 i;
	int ret;

	for (i = 0; i < sel->n && !w->full; i++) {
		ptop_ts_span_begin(&w->spans);
		ret = walk_group(w, sel->pick[i].leader, sel->pick[i].nr);
		ptop_ts_span_end(&w->spans);
		if (ret == WALK_GROW) {
			ptop_ts_walk_grow(w);
			/* killable and preemptible as ptop_ts_walk_all() */
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
			i--;	/* the same group again */
			continue;
		}
		if (ret)
			return ret;
		if (i % WALK_CHUNK == WALK_CHUNK - 1) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return 0;
}

/*
 * Tasks of the namespace now: records a full walk needs, with a margin
 * for forks. By pid in chunks, as ptop_ts_walk_all().
 */
u32 ptop_ts_walk_count(struct pid_namespace *ns, bool threads,
		       struct ptop_ts_spans *sp)
{
	u32 groups = 0, tasks = 0, nr = 1, i, n;
	struct pid *pid;

	do {
		ptop_ts_span_begin(sp);
		for (i = 0; i < WALK_CHUNK; i++, nr++) {
			pid = ptop_find_ge_pid(nr, ns);
			if (!pid)
				break;
			nr = pid_nr_ns(pid, ns);
			groups += !!pid_task(pid, PIDTYPE_TGID);
			tasks += !!pid_task(pid, PIDTYPE_PID);
		}
		ptop_ts_span_end(sp);
		cond_resched();
	} while (pid);
	n = (threads ? tasks : 0) + groups;
	return n + n / 8 + 64;
}
