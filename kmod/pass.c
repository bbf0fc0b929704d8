// SPDX-License-Identifier: GPL-2.0
/*
 * One answer: a single pass over the reader's pid namespace, in tgid order,
 * under rcu_read_lock(), filling records into a buffer allocated before.
 *
 * Records are filled by record.c; runtimes are as of the instant the walk
 * began (cpus.c), so that a long walk does not move time between
 * intervals.
 * A thread inside do_exit() is reported as live until the EXIT record that
 * exits.c writes for it exists: a thread or group whose record was written
 * before this pass began is left out (that record is in this answer or an
 * earlier one); one whose record comes later is in this answer as live and
 * in the next one as EXIT, except a thread already past exit_notify(),
 * which is gone (its probe ran: ptop_ts_thread_gone()). So every task a reader has seen ends with
 * exactly one EXIT record, and no answer has a task both live and dead.
 * A group is live or gone by its EXIT record's position alone, fixed once
 * written, so that it holds for the whole pass (a group past
 * exit_notify() whose record came after the pass began is live in it:
 * group_gone_locked()). A group that dies after the pass began and that
 * the walk cannot read any more (released) is live in the answer from
 * its EXIT record (ptop_ts_add_late_groups()); a group whose leader changed since
 * it was picked (a non-leader exec) is read from its leader now.
 *
 * Which tasks a pass visits: "since N" answers walk the groups activity.c
 * marked after pass N, in tgid order; the first answer, RESYNC, and
 * answers activity.c cannot give (tracking was off, a mark was lost) walk
 * every group, in chunks of WALK_CHUNK pids under rcu_read_lock(),
 * resuming by pid, with a resched point and a fatal-signal check between
 * chunks; a group with more threads than that is itself walked (and its
 * total summed) WALK_CHUNK threads a section. Passes are serialized by
 * the pass lock (seq.c), taken killable.
 */
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/timekeeping.h>
#include "acct_exit.h"
#include "activity.h"
#include "activity_index.h"
#include "cpus.h"
#include "exit_ring.h"
#include "main.h"
#include "pass_ran.h"
#include "record.h"
#include "seq.h"
#include "steal.h"
#include "test_window.h"
#include "late.h"
#include "walk.h"
#include "walk_groups.h"
#include "pass.h"

bool ptop_ts_crosscheck;

static u64 walk_last_ns, walk_rcu_max_ns;	/* pass lock */

void ptop_ts_snap_walk_times(u64 *walk_ns, u64 *rcu_max_ns)
{
	*walk_ns = READ_ONCE(walk_last_ns);
	*rcu_max_ns = READ_ONCE(walk_rcu_max_ns);
}

/*
 * The ring positions [from, to) whose GROUP records the last pass owed
 * its answer as live (late.c), and that answer's seq: a test
 * (test_kmod_late_groups) checks that each of them is in that answer
 * unless it says MORE. Pass lock; read by the state file.
 */
static u64 late_seq, late_from, late_to;

void ptop_ts_snap_late_span(u64 *seq, u64 *from, u64 *to)
{
	*seq = READ_ONCE(late_seq);
	*from = READ_ONCE(late_from);
	*to = READ_ONCE(late_to);
}

static void note_late_span(u64 seq, u64 from, u64 to)
{
	WRITE_ONCE(late_seq, seq);
	WRITE_ONCE(late_from, from);
	WRITE_ONCE(late_to, to);
}

int ptop_ts_cmd_check(struct ptop_ts_cmd *cmd)
{
	if (cmd->cmd != PTOP_TS_CMD_PIDS)
		return -EINVAL;
	if (cmd->flags & ~PTOP_TS_CMDF_ALL)
		return -EINVAL;
	if (cmd->start_pid > PID_MAX_LIMIT)
		return -EINVAL;
	if ((cmd->flags & PTOP_TS_CMDF_CROSSCHECK) && !ptop_ts_crosscheck)
		return -EOPNOTSUPP;
	if (!cmd->max_count || cmd->max_count > ptop_ts_max_records)
		cmd->max_count = ptop_ts_max_records;
	return 0;
}

int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap)
{
	u64 since = q->cmd.since_seq, since_pass = 0, from_head = 0;
	u64 head, pass, t0, b0, w0 = ktime_get_ns();
	u32 nexits = 0, want_recs, cap;
	u32 ncpu = nr_cpu_ids;
	struct ptop_ts_act_sel sel = { 0 };
	struct ptop_ts_walk w = {
		.q = q,
		.snap = snap,
		.threads = q->cmd.flags & PTOP_TS_CMDF_THREADS,
	};
	bool xcheck = q->cmd.flags & PTOP_TS_CMDF_CROSSCHECK;
	bool resync = false, marked, idle_irq = false;
	struct ptop_ts_cpu *cpus;
	u32 walk_from;
	int ret, n;

	ptop_ts_snap_free(snap);
	/* zeroed: the slots of CPUs not possible are copied out unwritten */
	cpus = kvcalloc(ncpu, sizeof(*cpus), GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;
	ret = ptop_ts_pass_lock_killable();
	if (ret)
		goto err_cpus;

	/* the marks first, then the generation of c* (activity.c) */
	pass = ptop_ts_act_pass();
	head = ptop_ts_acct_pass_begin();
	/*
	 * The instant right after: the exit tails folded, the c*
	 * generation and the EXIT ring head are as of the pass's start,
	 * and what ran from there to the instant (tails of exit paths, a
	 * group's last run) would be in the next answer. The selection and
	 * the answer's allocation come after it (the walk's marks are
	 * drained again after the instant: below).
	 */
	t0 = ktime_get_ns();
	b0 = ktime_get_boottime_ns();
	ptop_ts_cpus_read(cpus, ncpu, false);
	if (ptop_ts_runtimes_at_t0())
		idle_irq = ptop_ts_pass_instant(cpus, ncpu, &t0, &b0);
	ptop_ts_test_pass_window();	/* test builds only */
	if (since) {
		if (!ptop_ts_seq_lookup(since, head, &since_pass, &from_head) ||
		    head - from_head > ptop_ts_exit_ring_size ||
		    head - from_head >= q->cmd.max_count)
			resync = true;
		else
			nexits = head - from_head;
	}
again:
	if (resync) {
		since = 0;
		since_pass = 0;
		nexits = 0;
	}
	/* otherwise a full walk: every live task is a correct "since N" */
	marked = since && ptop_ts_act_complete(since_pass);
	if (marked && !xcheck) {
		ret = ptop_ts_act_select(since_pass, q->pid_ns,
					 q->cmd.start_pid, &sel);
		if (ret)
			goto err_unlock;
		want_recs = sel.n + (w.threads ? sel.threads : 0);
		want_recs += want_recs / 8 + 64;
	} else {
		want_recs = ptop_ts_walk_count(q->pid_ns, w.threads, &w.spans);
		if (marked)
			want_recs *= 2;		/* cross-check: both walks */
	}
	cap = min_t(u64, (u64)want_recs + nexits, q->cmd.max_count);
	ret = ptop_ts_snap_alloc(q, snap, ncpu, cap);
	if (ret)
		goto err_sel;

	w.seq = ptop_ts_seq_of(pass, head);
	w.cap = cap;
	w.exit_head = head;

	snap->ans->version = PTOP_TS_ANSWER_VERSION;
	snap->ans->size = sizeof(struct ptop_ts_answer);
	snap->ans->seq_now = w.seq;
	snap->ans->ncpu = ncpu;
	snap->ans->rec_size = sizeof(struct ptop_ts_record);
	snap->ans->flags |= PTOP_TS_ANSF_CHILDREN;
	if (q->cmd.flags & PTOP_TS_CMDF_STEAL) {
		/* the reader is a listener (proc.c, netlink.c) by now */
		if (!ptop_ts_steal_clock())
			snap->ans->flags |= PTOP_TS_ANSF_NO_STEAL_CLOCK;
		else if (ptop_ts_steal_attached())
			snap->ans->flags |= PTOP_TS_ANSF_STEAL;
	}
	if (snap->ans->flags & PTOP_TS_ANSF_STEAL)
		w.recf = PTOP_TS_RECF_HAS_STEAL;
	if (IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING))
		snap->ans->flags |= PTOP_TS_ANSF_STEAL_APART;
	if (IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING))
		snap->ans->flags |= PTOP_TS_ANSF_IRQ_APART;
	if (idle_irq)
		snap->ans->flags |= PTOP_TS_ANSF_IDLE_IRQ;
	if (ptop_ts_exit_before_mm())
		snap->ans->flags |= PTOP_TS_ANSF_EXIT_BEFORE_MM;

	/*
	 * Exits recorded after answer since_seq began and before this pass
	 * begins; a task exiting during the walk is in the next answer.
	 */
	if (nexits) {
		n = ptop_ts_exits_copy(from_head, head, w.threads, q->pid_ns,
				       q->user_ns, snap->recs, nexits);
		if (n < 0) {
			/* overwritten meanwhile: a full answer, RESYNC */
			ptop_ts_act_sel_free(&sel);
			ptop_ts_snap_free(snap);
			resync = true;
			goto again;
		}
		snap->ans->count = n;
		while (n--)
			snap->recs[n].flags |= w.recf;
	}

	if (resync)
		snap->ans->flags |= PTOP_TS_ANSF_RESYNC;
	memcpy(snap->cpus, cpus, ncpu * sizeof(*cpus));
	if (marked && !xcheck) {
		/*
		 * A task that came on a CPU after the drain (the pass's start)
		 * and ran until the instant changed before it, yet its mark
		 * is for the next drain: the marks again, after the instant
		 * (numbered for the next pass, which must see them too), and
		 * the groups to walk again. Without it that run moved to the
		 * next interval: a new child forked in the window was missing
		 * until then, all of its first run with it, and the window is
		 * as long as the host stops the vCPU (132 ms seen, 54 ms
		 * moved). More groups than the answer was sized for: it is
		 * paged (ANSF_MORE).
		 */
		ptop_ts_act_drain_late(pass);
		marked = ptop_ts_act_complete(since_pass);
		ptop_ts_act_sel_free(&sel);
		if (marked)
			ret = ptop_ts_act_select(since_pass, q->pid_ns,
						 q->cmd.start_pid, &sel);
		if (ret)
			goto err_free;
	}
	if (marked && xcheck) {
		/*
		 * Every task as the full walk sees it, then the incremental
		 * answer: marks made meanwhile are in it (a task not in it has
		 * not changed since the reader's last answer read it).
		 */
		w.recf |= PTOP_TS_RECF_CROSSCHECK;
		walk_from = snap->ans->count;
		ret = ptop_ts_walk_all(&w);
		if (!ret) {
			ptop_ts_add_late_groups(&w, walk_from);
			note_late_span(w.seq, w.exit_head, w.late_head);
		}
		w.recf &= ~PTOP_TS_RECF_CROSSCHECK;
		if (ret)
			goto err_free;
		ptop_ts_act_drain_late(pass);
		/* a mark lost meanwhile: the answer walks every task */
		marked = ptop_ts_act_complete(since_pass);
		if (marked)
			ret = ptop_ts_act_select(since_pass, q->pid_ns,
						 q->cmd.start_pid, &sel);
		if (ret)
			goto err_free;
	}
	if (!ptop_ts_runtimes_at_t0()) {
		/*
		 * No per-CPU instant here: the answer is as of the middle of
		 * the walk (below), so its first readings are taken right
		 * before it, not before the selection and the allocation.
		 */
		t0 = ktime_get_ns();
		b0 = ktime_get_boottime_ns();
		ptop_ts_cpus_read(snap->cpus, ncpu, false);
	}
	w.since_pass = marked ? since_pass : 0;
	walk_from = snap->ans->count;
	ret = marked ? ptop_ts_walk_marked(&w, &sel) : ptop_ts_walk_all(&w);
	if (ret)
		goto err_free;
	ptop_ts_add_late_groups(&w, walk_from);
	note_late_span(w.seq, w.exit_head, w.late_head);
	ptop_ts_ran_end();
	ptop_ts_act_walked(!marked);
	ptop_ts_act_sel_free(&sel);
	WRITE_ONCE(walk_last_ns, ktime_get_ns() - w0);
	WRITE_ONCE(walk_rcu_max_ns, w.spans.max);
	if (ptop_ts_runtimes_at_t0()) {
		/* every runtime is as of its CPU's t0: so are the counters */
		snap->ans->time_ns = t0;
		snap->ans->boottime_ns = b0;
	} else {
		snap->ans->time_ns = ptop_ts_mid(t0, ktime_get_ns());
		snap->ans->boottime_ns = ptop_ts_mid(b0,
						     ktime_get_boottime_ns());
		ptop_ts_cpus_read(snap->cpus, ncpu, true);
	}
	ptop_ts_pass_unlock();
	kvfree(cpus);

	snap->len = sizeof(struct ptop_ts_answer) +
		    ncpu * sizeof(struct ptop_ts_cpu) +
		    (size_t)snap->ans->count * sizeof(struct ptop_ts_record);
	atomic_long_inc(&ptop_ts_answers);
	return 0;

err_free:
	ptop_ts_snap_free(snap);
err_sel:
	ptop_ts_act_sel_free(&sel);
err_unlock:
	ptop_ts_ran_end();
	ptop_ts_pass_unlock();
err_cpus:
	kvfree(cpus);
	return ret;
}
