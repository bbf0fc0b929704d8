// SPDX-License-Identifier: GPL-2.0
/*
 * One answer: a single pass over the reader's pid namespace, in tgid
 * order, filling records into a buffer allocated before (answer.c).
 * Runtimes are as of the instant the pass began (cpus.c), so that a long
 * walk does not move time between intervals. A task is live until its
 * EXIT record exists, decided against the ring's head at the pass's
 * start; groups that die during the pass come from the ring (late.c):
 * docs/design.md, "Live or dead, once per task".
 *
 * "since N" answers walk the groups activity.c marked after pass N, the
 * first answer, RESYNC and answers activity.c cannot give walk every
 * group (walk_groups.c). Passes are serialized by the pass lock (seq.c),
 * taken killable; the walk reads tasks under rcu_read_lock() in
 * sections of WALK_CHUNK groups or threads.
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

#define PASS_RESYNC	1	/* answer_begin(): begin again, a full answer */

/* One pass: its walk and what it keeps beside it. Under the pass lock. */
struct pass {
	const struct ptop_ts_query *q;
	struct ptop_ts_snap *snap;
	struct ptop_ts_walk w;
	struct ptop_ts_act_sel sel;
	struct ptop_ts_cpu *cpus;	/* the CPUs' readings at the instant */
	u32 ncpu;
	u64 pass;		/* of the marks (activity.c) */
	u64 head;		/* of the EXIT ring at the pass's start */
	u64 since;		/* the reader's last answer (0: none) */
	u64 since_pass, from_head;	/* its pass, its ring head */
	u32 nexits;		/* EXIT records from there to head */
	u64 t0, b0, w0;		/* the instant (time, boot time); the start */
	bool xcheck, resync, marked, idle_irq;
};

/*
 * The pass's start: the marks first, then the generation of c*
 * (activity.c), then the instant right after: the exit tails folded,
 * the c* generation and the EXIT ring head are as of the pass's start,
 * and what ran from there to the instant (tails of exit paths, a group's
 * last run) would be in the next answer. The selection and the answer's
 * allocation come after it (the walk's marks are drained again after the
 * instant: reselect()).
 */
static void pass_begin(struct pass *p)
{
	const struct ptop_ts_cmd *cmd = &p->q->cmd;

	p->pass = ptop_ts_act_pass();
	p->head = ptop_ts_acct_pass_begin();
	p->t0 = ktime_get_ns();
	p->b0 = ktime_get_boottime_ns();
	ptop_ts_cpus_read(p->cpus, p->ncpu, false);
	if (ptop_ts_runtimes_at_t0())
		p->idle_irq = ptop_ts_pass_instant(p->cpus, p->ncpu, &p->t0,
						   &p->b0);
	ptop_ts_test_pass_window();	/* test builds only */
	if (!p->since)
		return;
	if (!ptop_ts_seq_lookup(p->since, p->head, &p->since_pass,
				&p->from_head) ||
	    p->head - p->from_head > ptop_ts_exit_ring_size ||
	    p->head - p->from_head >= cmd->max_count)
		p->resync = true;
	else
		p->nexits = p->head - p->from_head;
}

/* The records the answer is sized for: the selection's, or every task's */
static int pass_size(struct pass *p, u32 *cap)
{
	const struct ptop_ts_query *q = p->q;
	u32 want;
	int ret;

	if (p->resync) {
		p->since = 0;
		p->since_pass = 0;
		p->nexits = 0;
	}
	/* otherwise a full walk: every live task is a correct "since N" */
	p->marked = p->since && ptop_ts_act_complete(p->since_pass);
	if (p->marked && !p->xcheck) {
		ret = ptop_ts_act_select(p->since_pass, q->pid_ns,
					 q->cmd.start_pid, &p->sel);
		if (ret)
			return ret;
		want = p->sel.n + (p->w.threads ? p->sel.threads : 0);
		want += want / 8 + 64;
	} else {
		want = ptop_ts_walk_count(q->pid_ns, p->w.threads,
					  &p->w.spans);
		if (p->marked)
			want *= 2;		/* cross-check: both walks */
	}
	*cap = min_t(u64, (u64)want + p->nexits, q->cmd.max_count);
	return 0;
}

/* The answer's header: what its counters mean on this kernel. */
static void answer_header(struct pass *p)
{
	struct ptop_ts_answer *ans = p->snap->ans;

	ans->version = PTOP_TS_ANSWER_VERSION;
	ans->size = sizeof(struct ptop_ts_answer);
	ans->seq_now = p->w.seq;
	ans->ncpu = p->ncpu;
	ans->rec_size = sizeof(struct ptop_ts_record);
	ans->flags |= PTOP_TS_ANSF_CHILDREN;
	if (p->q->cmd.flags & PTOP_TS_CMDF_STEAL) {
		/* the reader is a listener (proc.c, netlink.c) by now */
		if (!ptop_ts_steal_clock())
			ans->flags |= PTOP_TS_ANSF_NO_STEAL_CLOCK;
		else if (ptop_ts_steal_attached())
			ans->flags |= PTOP_TS_ANSF_STEAL;
	}
	if (ans->flags & PTOP_TS_ANSF_STEAL)
		p->w.recf = PTOP_TS_RECF_HAS_STEAL;
	if (IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING))
		ans->flags |= PTOP_TS_ANSF_STEAL_APART;
	if (IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING))
		ans->flags |= PTOP_TS_ANSF_IRQ_APART;
	if (p->idle_irq)
		ans->flags |= PTOP_TS_ANSF_IDLE_IRQ;
	if (ptop_ts_exit_before_mm())
		ans->flags |= PTOP_TS_ANSF_EXIT_BEFORE_MM;
}

/*
 * The answer, sized, allocated and begun: its header, then the exits
 * recorded after answer since_seq began and before this pass began (a
 * task exiting during the walk is in the next answer). PASS_RESYNC:
 * those were overwritten meanwhile; begin again, a full answer.
 */
static int answer_begin(struct pass *p)
{
	struct ptop_ts_snap *snap = p->snap;
	u32 cap;
	int ret, n;

	ret = pass_size(p, &cap);
	if (!ret)
		ret = ptop_ts_snap_alloc(p->q, snap, p->ncpu, cap);
	if (ret)
		return ret;
	p->w.seq = ptop_ts_seq_of(p->pass, p->head);
	p->w.cap = cap;
	p->w.exit_head = p->head;
	answer_header(p);
	if (p->nexits) {
		n = ptop_ts_exits_copy(p->from_head, p->head, p->w.threads,
				       p->q->pid_ns, p->q->user_ns, snap->recs,
				       p->nexits);
		if (n < 0) {
			ptop_ts_act_sel_free(&p->sel);
			ptop_ts_snap_free(snap);
			p->resync = true;
			return PASS_RESYNC;
		}
		snap->ans->count = n;
		while (n--)
			snap->recs[n].flags |= p->w.recf;
	}
	if (p->resync)
		snap->ans->flags |= PTOP_TS_ANSF_RESYNC;
	memcpy(snap->cpus, p->cpus, p->ncpu * sizeof(*p->cpus));
	return 0;
}

/* The late groups after a walk from record from on (late.c). */
static void late_groups(struct pass *p, u32 from)
{
	ptop_ts_add_late_groups(&p->w, from);
	note_late_span(p->w.seq, p->w.exit_head, p->w.late_head);
}

/*
 * A task that came on a CPU after the drain (the pass's start) and ran
 * until the instant changed before it, yet its mark is for the next
 * drain: the marks again, after the instant (numbered for the next pass,
 * which must see them too), and the groups to walk again. Without it
 * that run would move to the next interval (a child forked in the
 * window, all of its first run). More groups than the answer was sized
 * for: it is paged (ANSF_MORE).
 */
static int reselect(struct pass *p)
{
	ptop_ts_act_drain_late(p->pass);
	p->marked = ptop_ts_act_complete(p->since_pass);
	ptop_ts_act_sel_free(&p->sel);
	if (!p->marked)
		return 0;
	return ptop_ts_act_select(p->since_pass, p->q->pid_ns,
				  p->q->cmd.start_pid, &p->sel);
}

/*
 * The cross-check: every task as the full walk sees it, then the
 * incremental answer (marks made meanwhile are in it: a task not in it
 * has not changed since the reader's last answer read it).
 */
static int crosscheck_walk(struct pass *p)
{
	u32 from = p->snap->ans->count;
	int ret;

	p->w.recf |= PTOP_TS_RECF_CROSSCHECK;
	ret = ptop_ts_walk_all(&p->w);
	if (!ret)
		late_groups(p, from);
	p->w.recf &= ~PTOP_TS_RECF_CROSSCHECK;
	if (ret)
		return ret;
	ptop_ts_act_drain_late(p->pass);
	/* a mark lost meanwhile: the answer walks every task */
	p->marked = ptop_ts_act_complete(p->since_pass);
	if (!p->marked)
		return 0;
	return ptop_ts_act_select(p->since_pass, p->q->pid_ns,
				  p->q->cmd.start_pid, &p->sel);
}

/* The walk: the marked groups or every one, then the late ones. */
static int pass_walk(struct pass *p)
{
	u32 from;
	int ret = 0;

	if (p->marked && !p->xcheck)
		ret = reselect(p);
	else if (p->marked)
		ret = crosscheck_walk(p);
	if (ret)
		return ret;
	if (!ptop_ts_runtimes_at_t0()) {
		/*
		 * No per-CPU instant here: the answer is as of the middle of
		 * the walk (pass_end()), so its first readings are taken
		 * right before it, not before the selection and the
		 * allocation.
		 */
		p->t0 = ktime_get_ns();
		p->b0 = ktime_get_boottime_ns();
		ptop_ts_cpus_read(p->snap->cpus, p->ncpu, false);
	}
	p->w.since_pass = p->marked ? p->since_pass : 0;
	from = p->snap->ans->count;
	ret = p->marked ? ptop_ts_walk_marked(&p->w, &p->sel) :
			  ptop_ts_walk_all(&p->w);
	if (ret)
		return ret;
	late_groups(p, from);
	return 0;
}

/* The pass done: the answer's clock and counters, the walk's times. */
static void pass_end(struct pass *p)
{
	struct ptop_ts_answer *ans = p->snap->ans;

	ptop_ts_ran_end();
	ptop_ts_act_walked(!p->marked);
	ptop_ts_act_sel_free(&p->sel);
	WRITE_ONCE(walk_last_ns, ktime_get_ns() - p->w0);
	WRITE_ONCE(walk_rcu_max_ns, p->w.spans.max);
	if (ptop_ts_runtimes_at_t0()) {
		/* every runtime is as of its CPU's t0: so are the counters */
		ans->time_ns = p->t0;
		ans->boottime_ns = p->b0;
	} else {
		ans->time_ns = ptop_ts_mid(p->t0, ktime_get_ns());
		ans->boottime_ns = ptop_ts_mid(p->b0, ktime_get_boottime_ns());
		ptop_ts_cpus_read(p->snap->cpus, p->ncpu, true);
	}
}

int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap)
{
	struct pass p = {
		.q = q,
		.snap = snap,
		.ncpu = nr_cpu_ids,
		.since = q->cmd.since_seq,
		.xcheck = q->cmd.flags & PTOP_TS_CMDF_CROSSCHECK,
		.w0 = ktime_get_ns(),
		.w = {
			.q = q,
			.snap = snap,
			.threads = q->cmd.flags & PTOP_TS_CMDF_THREADS,
		},
	};
	int ret;

	ptop_ts_snap_free(snap);
	/* zeroed: the slots of CPUs not possible are copied out unwritten */
	p.cpus = kvcalloc(p.ncpu, sizeof(*p.cpus), GFP_KERNEL);
	if (!p.cpus)
		return -ENOMEM;
	ret = ptop_ts_pass_lock_killable();
	if (ret)
		goto err_cpus;
	pass_begin(&p);
	do {
		ret = answer_begin(&p);
	} while (ret == PASS_RESYNC);
	if (!ret)
		ret = pass_walk(&p);
	if (ret)
		goto err_pass;
	pass_end(&p);
	ptop_ts_pass_unlock();
	kvfree(p.cpus);

	snap->len = sizeof(struct ptop_ts_answer) +
		    p.ncpu * sizeof(struct ptop_ts_cpu) +
		    (size_t)snap->ans->count * sizeof(struct ptop_ts_record);
	atomic_long_inc(&ptop_ts_answers);
	return 0;

err_pass:
	/* each of these is a no-op for what was not taken yet */
	ptop_ts_snap_free(snap);
	ptop_ts_act_sel_free(&p.sel);
	ptop_ts_ran_end();
	ptop_ts_pass_unlock();
err_cpus:
	kvfree(p.cpus);
	return ret;
}
