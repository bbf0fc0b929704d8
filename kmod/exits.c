// SPDX-License-Identifier: GPL-2.0
/*
 * The probes on a task's life that the accounting keeps attached while
 * the module is loaded: sched_process_fork (acct.c's record of a new
 * group, activity marks, FORK events), sched_process_exit (EXIT records
 * into the ring, exit_ring.c) and sched_process_free (the reporting
 * thread's time after its exit probe, acct_exit.c).
 *
 * At sched_process_exit the thread is still linked to its group and its
 * runtime is not yet in signal->sum_sched_runtime (__exit_signal() adds it
 * at release time, under siglock), so the group's final total is read under
 * siglock as "threads still linked + signal sums", exactly as a pass does.
 *
 * The exiting thread is current, on this CPU, and its se.sum_exec_runtime
 * was last brought up to date at its last tick or switch; the record
 * includes the time since then (ptop_ts_running_extra(), as for every task
 * on a CPU in a pass), so the final record does not lag a tick.
 *
 * A group's EXIT record is pushed by acct_exit.c, under its lock, together
 * with the fold of the group's time into its accounting parent
 * (folded_into, folded_start_ns): see acct.c for why that makes the fold
 * and the record one event for every pass. Several threads can see
 * sig->live at 0 in sched_process_exit (each decremented it before the
 * tracepoint): a report that is not the group's first replaces the
 * earlier record rather than adding a second EXIT for the same group.
 */
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/timekeeping.h>
#include "compat.h"
#include "cpus.h"
#include "acct.h"
#include "acct_exit.h"
#include "activity_marks.h"
#include "activity_orphans.h"
#include "events.h"
#include "exit_ring.h"
#include "pass_ran.h"
#include "probe.h"
#include "record.h"
#include "steal.h"
#include "exits.h"

#ifdef PTOP_TS_TEST_EXIT_WINDOW
/*
 * Test builds only (make vm-exit-pos): a task named ptop-exitwin whose
 * group it reports dead waits here, after the group's EXIT record, while
 * the parameter test_exit_hold is set (at most 12 s: preemption is off),
 * so that tests/vm/exit_pos_race.sh can have thousands of records
 * written and a pass made while the group is dying but not past
 * exit_notify().
 */
static bool test_exit_hold;
module_param(test_exit_hold, bool, 0644);

static void exit_window(struct task_struct *p)
{
	char comm[TASK_COMM_LEN];
	int ms;

	get_task_comm(comm, p);
	if (strcmp(comm, "ptop-exitwin"))
		return;
	pr_info("test build: exit window for %d\n", task_pid_nr(p));
	for (ms = 0; ms < 12000 && READ_ONCE(test_exit_hold); ms++)
		mdelay(1);
	pr_info("test build: exit window for %d ends after %d ms\n",
		task_pid_nr(p), ms);
}

/*
 * The same build: a task named ptop-repwin that reports its group dead
 * runs on for test_report_ms (at most 2,000) between the report (under
 * siglock) and the group's EXIT record, busy, as a thread in its exit
 * path does when its vCPU stalls there: tests/vm/report_window.sh reads
 * the group in between (acct_exit.c, at_report()).
 */
static uint test_report_ms;
module_param(test_report_ms, uint, 0644);

/* p, named name, runs on busy for ms (at most 2,000), said in the log */
static void busy_window(struct task_struct *p, const char *name, uint ms,
			const char *what)
{
	char comm[TASK_COMM_LEN];

	get_task_comm(comm, p);
	if (!ms || strcmp(comm, name))
		return;
	pr_info("test build: %s window for %d\n", what, task_pid_nr(p));
	mdelay(min(ms, 2000U));
	pr_info("test build: %s window for %d ends\n", what, task_pid_nr(p));
}

static void report_window(struct task_struct *p)
{
	busy_window(p, "ptop-repwin", READ_ONCE(test_report_ms), "report");
}

/*
 * The same build: a thread named ptop-thrwin that exits while its group
 * lives on runs on, busy, for test_thread_ms (at most 2,000) before its
 * EXIT record, so that a walk finds it exiting and live; the walk, having
 * given it a row, then waits (snapshot.c) while it finishes its exit and
 * is released: tests/vm/thread_window.sh (the row and x*, record.c's
 * ptop_ts_gone_walked_live()).
 */
uint ptop_ts_test_thread_ms;
module_param_named(test_thread_ms, ptop_ts_test_thread_ms, uint, 0644);

static void thread_window(struct task_struct *p)
{
	busy_window(p, "ptop-thrwin", READ_ONCE(ptop_ts_test_thread_ms),
		    "thread");
}
#else
static inline void exit_window(struct task_struct *p) { }
static inline void report_window(struct task_struct *p) { }
static inline void thread_window(struct task_struct *p) { }
#endif

static void set_ident(struct ptop_ts_exit_ent *e, struct task_struct *t)
{
	struct task_struct *parent;

	e->rec.flags |= PTOP_TS_RECF_EXIT;
	e->rec.state = 'X';
	e->rec.start_ns = t->start_boottime;
	e->rec.exit_ns = ktime_get_boottime_ns();
	get_task_comm(e->rec.comm, t);
	e->uid = task_uid(t);
	rcu_read_lock();
	parent = rcu_dereference(t->real_parent);
	if (parent)
		e->parent = get_pid(task_tgid(parent));
	rcu_read_unlock();
}

/*
 * Under leader's siglock, r the group's exit report just made: how much of
 * r's own + x* time came after the instant of the pass under way, as a
 * walk of that pass would read the group (each linked thread and own x*
 * entry as of its CPU's instant), and that pass's generation in *gen (0:
 * this CPU has not read its instant, the whole record is before it).
 * Every thread's run after the instant counts, not only the reporter's:
 * otherwise the next answer's EXIT record gives back less than the late
 * record kept (tests/vm/report_window.sh).
 */
static u64 group_post_t0(struct task_struct *leader,
			 const struct ptop_ts_record *r, u64 *gen)
{
	struct ptop_ts_record at = {};
	u64 now, then;

	*gen = 0;
	/* only while a pass is between its instant and its late records */
	if (!ptop_ts_runtimes_at_t0() ||
	    !ptop_ts_ran_noting(ptop_ts_pass_gen()) ||
	    ptop_ts_cpu_instant_gen() != ptop_ts_pass_gen())
		return 0;
	*gen = ptop_ts_pass_gen();
	ptop_ts_fill_group_locked(&at, leader, PTOP_TS_LINKED_LIVE, NULL, NULL,
				  true, NULL);
	ptop_ts_acct_own_x_locked(leader, PTOP_TS_LINKED_LIVE, NULL, &at);
	now = r->utime_ns + r->stime_ns + r->xutime_ns + r->xstime_ns;
	then = at.utime_ns + at.stime_ns + at.xutime_ns + at.xstime_ns;
	return now > then ? now - then : 0;
}

static void ptop_ts_probe_exit(void *data, PTOP_EXIT_PROBE_ARGS)
{
	struct signal_struct *sig = p->signal;
	struct task_struct *leader = p->group_leader, *t, *exec_task;
	struct sighand_struct *sh;
	struct ptop_ts_exit_ent th = {}, group = {};
	struct ptop_ts_exit_ent *gr = &group;
	struct pid *execer = NULL;
	u64 execer_start = 0;
	bool group_dead, twins = false;
	enum ptop_own_exit own = PTOP_OWN_NO;
	unsigned long flags;
	u64 steal, p_rt = 0, th_post, th_gen;
	struct ptop_tri tot;

	if (unlikely(p->mm))
		ptop_ts_exits_saw_mm();
	/* p is on this CPU: its runtime since the last tick is included */
	ptop_ts_fill_thread(&th.rec, p, false);
	th_post = ptop_ts_after_pass_t0(p, &th_gen);
	th.rec.exit_code = p->exit_code;
	set_ident(&th, p);
	th.pid = get_pid(task_pid(p));
	th.task = p;
	th.exec_id = p->self_exec_id;
	th.tgid = get_pid(task_tgid(p));

	/* p is current: its sighand stays until its release, after this */
	sh = rcu_dereference_protected(p->sighand, p == current);
	spin_lock_irqsave(&sh->siglock, flags);
	group_dead = !atomic_read(&sig->live);
	/* a non-leader exec: the old leader goes, the exec'er takes over */
	exec_task = ptop_group_exec_task(sig);
	if (p == leader && exec_task && exec_task != p) {
		execer = get_pid(task_pid(exec_task));
		execer_start = exec_task->start_boottime;
	}
	if (group_dead) {
		/*
		 * p_rt: p's time exactly as the group total has it; every
		 * linked thread counts live (see ptop_ts_thread_gone())
		 */
		ptop_ts_fill_group_locked(&gr->rec, p, PTOP_TS_LINKED_LIVE, p,
					  &p_rt, false, NULL);
		own = ptop_ts_acct_group_exit_locked(leader, p, p_rt, &gr->rec);
		/*
		 * p's own record as of the report, not before it: a pass
		 * between the report and the EXIT records has p's row as
		 * the report had it (acct_exit.c), which its EXIT record
		 * must not fall below (2 ms when the vCPU stopped between
		 * the two readings: tests/vm/report_window.sh)
		 */
		ptop_ts_fill_thread(&th.rec, p, false);
		th_post = ptop_ts_after_pass_t0(p, &th_gen);
		/*
		 * for a pass under way that can no longer see the group
		 * (snapshot.c): what the record has after that pass's
		 * instant, read with the record (group_post_t0())
		 */
		gr->post_t0 = group_post_t0(leader, &gr->rec, &gr->t0_gen);
		/* another thread between its live-- and here may report too */
		__for_each_thread(sig, t)
			if (!own && t != p && !t->exit_state)
				twins = true;
		gr->rec.exit_code = (sig->flags & SIGNAL_GROUP_EXIT) ?
				   sig->group_exit_code : p->exit_code;
	}
	spin_unlock_irqrestore(&sh->siglock, flags);
	if (group_dead)
		report_window(p);	/* test builds only */
	else
		thread_window(p);	/* test builds only */

	/*
	 * p's x* entry before its EXIT record: from the record on a pass
	 * counts p as a dead thread (ptop_ts_thread_gone()), whose time is
	 * then only in the entries; a pass between the two had p in
	 * neither the linked threads nor x* (its group's total fell for
	 * one answer: tests/vm/test_kmod_exec_exit.sh)
	 */
	if (!group_dead)
		ptop_ts_acct_thread_exit(leader, p, &th.rec);
	/* p's run after its CPU's instant, for a pass that has it late */
	th.post_t0 = th_post;
	th.t0_gen = th_gen;
	ptop_ts_exits_push(&th, false, 0);
	/* the thread's steal leaves the table: into x*, or with the group */
	steal = ptop_ts_steal_take(p);
	if (steal && !group_dead)
		ptop_ts_acct_thread_steal(leader, steal);
	if (execer) {
		ptop_ts_acct_exec_takeover(leader, execer, execer_start);
		put_pid(execer);
	}
	ptop_ts_events_exit(p, group_dead);
	ptop_ts_act_exit_children(p, group_dead);
	if (!group_dead)
		return;
	if (own == PTOP_OWN_TWIN)
		return;		/* the group's first report made p an entry */
	set_ident(gr, leader);
	gr->pid = get_pid(task_tgid(p));
	gr->tgid = get_pid(task_tgid(p));
	tot.u = gr->rec.utime_ns + gr->rec.xutime_ns;
	tot.s = gr->rec.stime_ns + gr->rec.xstime_ns;
	tot.st = gr->rec.steal_ns + gr->rec.xsteal_ns;
	gr->rec.nthreads = 0;
	ptop_ts_acct_group_dead(leader, p, p_rt, &tot, gr, twins);
	exit_window(p);		/* test builds only */
}

static void ptop_ts_probe_free(void *data, struct task_struct *p)
{
	ptop_ts_acct_free(p);
	ptop_ts_steal_forget(p);
}

static void ptop_ts_probe_fork(void *data, struct task_struct *parent,
			       struct task_struct *child)
{
	ptop_ts_acct_fork(parent, child);
	ptop_ts_act_mark_task(child);
	ptop_ts_events_fork(parent, child);
}

static struct ptop_ts_probe task_probes[] = {
	/* the exit probe first: a group forked in between is found at its exit */
	PTOP_TS_PROBE("sched_process_free", ptop_ts_probe_free),
	PTOP_TS_PROBE("sched_process_exit", ptop_ts_probe_exit),
	PTOP_TS_PROBE("sched_process_fork", ptop_ts_probe_fork),
};

int ptop_ts_exits_attach(void)
{
	return ptop_ts_probes_attach(task_probes, ARRAY_SIZE(task_probes));
}

void ptop_ts_exits_detach(void)
{
	ptop_ts_probes_detach(task_probes, ARRAY_SIZE(task_probes));
}
