// SPDX-License-Identifier: GPL-2.0
/*
 * EXIT records: a probe on the sched_process_exit tracepoint captures the
 * final counters of every exiting thread and, when the last thread of a
 * group goes (signal->live reached 0), of the group, into a bounded ring.
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
 * A group's EXIT record is pushed by acct.c, under its lock, together with
 * the fold of the group's time into its accounting parent (folded_into,
 * folded_start_ns): see acct.c for why that makes the fold and the record
 * one event for every pass. The fork probe (acct.c) and the free probe
 * (the reporting thread's time after this probe) live here too.
 *
 * Every record has a position (head counts records ever written). An
 * answer "since N" returns the records written between the start of pass N
 * and the start of this pass; if the ring overwrote some of them, the
 * reader is told to RESYNC. pids are kept as struct pid references, so that
 * a reader in any pid namespace gets its own numbers even after the task is
 * gone.
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/cred.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include "compat.h"
#include "ptop_ts.h"

#define DEDUP_SCAN	1024

struct exit_ent {
	struct ptop_ts_record rec;
	struct pid *pid;
	struct pid *tgid;
	struct pid *parent;
	struct pid *fold;		/* GROUP: the group that received T + C */
	kuid_t uid;
};

/*
 * Taken with interrupts off: acct.c takes it under acct_lock, which the
 * sched_process_free probe takes from RCU callbacks (softirq).
 */
static DEFINE_SPINLOCK(ring_lock);
static struct exit_ent *ring;
static u32 ring_size;
static u64 head;			/* records ever written */
static struct tracepoint *tp_exit, *tp_fork, *tp_free;

int ptop_ts_exits_init(void)
{
	ring_size = ptop_ts_exit_ring_size;
	ring = kvcalloc(ring_size, sizeof(*ring), GFP_KERNEL);
	return ring ? 0 : -ENOMEM;
}

static void put_refs(struct exit_ent *e)
{
	put_pid(e->pid);
	put_pid(e->tgid);
	put_pid(e->parent);
	put_pid(e->fold);
}

void ptop_ts_exits_exit(void)
{
	u32 i;

	for (i = 0; i < ring_size; i++)
		put_refs(&ring[i]);
	kvfree(ring);
	ring = NULL;
}

u64 ptop_ts_exits_head(void)
{
	u64 h;
	unsigned long flags;

	spin_lock_irqsave(&ring_lock, flags);
	h = head;
	spin_unlock_irqrestore(&ring_lock, flags);
	return h;
}

u32 ptop_ts_exits_used(void)
{
	return min_t(u64, ptop_ts_exits_head(), ring_size);
}

static void set_ident(struct exit_ent *e, struct task_struct *t)
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

static bool same_group(const struct exit_ent *a, const struct exit_ent *b)
{
	return a->rec.kind == PTOP_TS_KIND_GROUP && a->tgid == b->tgid &&
	       a->rec.start_ns == b->rec.start_ns;
}

/* Append e (taking over its references); replace an earlier twin if any. */
static void push(struct exit_ent *e, bool dedup)
{
	struct exit_ent old, *slot = NULL;
	u64 i, stop;
	unsigned long flags;

	spin_lock_irqsave(&ring_lock, flags);
	if (dedup) {
		stop = head > min_t(u64, ring_size, DEDUP_SCAN) ?
			head - min_t(u64, ring_size, DEDUP_SCAN) : 0;
		for (i = head; i > stop; i--) {
			if (same_group(&ring[(i - 1) % ring_size], e)) {
				slot = &ring[(i - 1) % ring_size];
				break;
			}
		}
	}
	if (!slot)
		slot = &ring[head++ % ring_size];
	old = *slot;
	*slot = *e;
	spin_unlock_irqrestore(&ring_lock, flags);
	put_refs(&old);
}

struct group_exit {
	struct exit_ent e;
	bool twins;
};

/*
 * Under acct_lock (acct.c): the group's c* and fold target, then push.
 * Several threads can see sig->live at 0 in sched_process_exit (each
 * decremented it before the tracepoint): acct.c knows which report is not
 * the group's first (again), and that one replaces the earlier record
 * rather than adding a second EXIT for the same group.
 */
static void push_group(void *arg, const struct ptop_tri *c,
		       struct pid *fold_pid, u64 fold_start, bool again)
{
	struct group_exit *g = arg;
	struct exit_ent *gr = &g->e;

	gr->rec.cutime_ns = c->u;
	gr->rec.cstime_ns = c->s;
	gr->rec.csteal_ns = c->st;
	gr->rec.flags |= PTOP_TS_RECF_HAS_C;
	gr->fold = get_pid(fold_pid);
	gr->rec.folded_start_ns = fold_start;
	push(gr, g->twins || again);
}

/* an exiting user task with its mm still set: see ANSF_EXIT_BEFORE_MM */
static bool exit_before_mm;

bool ptop_ts_exit_before_mm(void)
{
	return READ_ONCE(exit_before_mm);
}

static void ptop_ts_probe_exit(void *data, PTOP_EXIT_PROBE_ARGS)
{
	struct signal_struct *sig = p->signal;
	struct task_struct *leader = p->group_leader, *t, *exec_task;
	struct sighand_struct *sh;
	struct exit_ent th = {};
	struct group_exit g = {};
	struct exit_ent *gr = &g.e;
	struct pid *execer = NULL;
	u64 execer_start = 0;
	bool group_dead, twins = false;
	enum ptop_own_exit own = PTOP_OWN_NO;
	unsigned long flags;
	u64 steal, p_rt = 0;
	struct ptop_tri tot;

	if (unlikely(p->mm && !READ_ONCE(exit_before_mm)))
		WRITE_ONCE(exit_before_mm, true);
	/* p is on this CPU: its runtime since the last tick is included */
	ptop_ts_fill_thread(&th.rec, p);
	th.rec.exit_code = p->exit_code;
	set_ident(&th, p);
	th.pid = get_pid(task_pid(p));
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
		/* p_rt: p's time exactly as the group total has it */
		ptop_ts_fill_group_locked(&gr->rec, p, 0, p, &p_rt, false);
		own = ptop_ts_acct_group_exit_locked(leader, p, p_rt, &gr->rec);
		/* another thread between its live-- and here may report too */
		__for_each_thread(sig, t)
			if (!own && t != p && !t->exit_state)
				twins = true;
		gr->rec.exit_code = (sig->flags & SIGNAL_GROUP_EXIT) ?
				   sig->group_exit_code : p->exit_code;
	}
	spin_unlock_irqrestore(&sh->siglock, flags);

	push(&th, false);
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
	if (!group_dead) {
		ptop_ts_acct_thread_exit(leader, p, &th.rec);
		return;
	}
	if (own == PTOP_OWN_TWIN)
		return;		/* the group's first report made p an entry */
	set_ident(gr, leader);
	gr->pid = get_pid(task_tgid(p));
	gr->tgid = get_pid(task_tgid(p));
	tot.u = gr->rec.utime_ns + gr->rec.xutime_ns;
	tot.s = gr->rec.stime_ns + gr->rec.xstime_ns;
	tot.st = gr->rec.steal_ns + gr->rec.xsteal_ns;
	gr->rec.nthreads = 0;
	g.twins = twins;
	ptop_ts_acct_group_dead(leader, p, p_rt, &tot, push_group, &g);
}

static void ptop_ts_probe_free(void *data, struct task_struct *p)
{
	ptop_ts_acct_free(p);
}

static void ptop_ts_probe_fork(void *data, struct task_struct *parent,
			       struct task_struct *child)
{
	ptop_ts_acct_fork(parent, child);
	ptop_ts_act_mark_task(child);
	ptop_ts_events_fork(parent, child);
}

struct tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void find_tp(struct tracepoint *tp, void *priv)
{
	struct tp_find *f = priv;

	if (!strcmp(tp->name, f->name))
		f->tp = tp;
}

struct tracepoint *ptop_ts_find_tracepoint(const char *name)
{
	struct tp_find f = { .name = name };

	for_each_kernel_tracepoint(find_tp, &f);
	if (!f.tp)
		pr_err("tracepoint %s not found\n", name);
	return f.tp;
}

/* The exit probe first: a group forked in between is found at its exit. */
int ptop_ts_exits_attach(void)
{
	int ret;

	tp_exit = ptop_ts_find_tracepoint("sched_process_exit");
	tp_fork = ptop_ts_find_tracepoint("sched_process_fork");
	tp_free = ptop_ts_find_tracepoint("sched_process_free");
	if (!tp_exit || !tp_fork || !tp_free)
		return -ENOENT;
	ret = tracepoint_probe_register(tp_free, ptop_ts_probe_free, NULL);
	if (ret) {
		pr_err("cannot attach to sched_process_free: %d\n", ret);
		return ret;
	}
	ret = tracepoint_probe_register(tp_exit, ptop_ts_probe_exit, NULL);
	if (ret) {
		pr_err("cannot attach to sched_process_exit: %d\n", ret);
		goto err_exit;
	}
	ret = tracepoint_probe_register(tp_fork, ptop_ts_probe_fork, NULL);
	if (ret) {
		pr_err("cannot attach to sched_process_fork: %d\n", ret);
		goto err_fork;
	}
	return 0;

err_fork:
	tracepoint_probe_unregister(tp_exit, ptop_ts_probe_exit, NULL);
err_exit:
	tracepoint_probe_unregister(tp_free, ptop_ts_probe_free, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

void ptop_ts_exits_detach(void)
{
	tracepoint_probe_unregister(tp_fork, ptop_ts_probe_fork, NULL);
	tracepoint_probe_unregister(tp_free, ptop_ts_probe_free, NULL);
	tracepoint_probe_unregister(tp_exit, ptop_ts_probe_exit, NULL);
	tracepoint_synchronize_unregister();
}

/*
 * Is this thread, still linked to its group, one whose EXIT record was
 * written before position exit_head (0: only threads past exit_notify)?
 * Its time then belongs to x*, not to the live threads.
 */
bool ptop_ts_thread_gone(struct task_struct *t, u64 exit_head)
{
	if (t->exit_state)	/* past exit_notify(): the probe ran */
		return true;
	if (!exit_head || !(t->flags & PF_EXITING))
		return false;
	return ptop_ts_exits_recorded(task_pid(t), false, t->start_boottime,
				      exit_head);
}

/*
 * Was an EXIT record of this task (group: of this thread group) written at
 * a position before 'before'? Only the last DEDUP_SCAN records are looked
 * at: the caller asks for tasks that are inside do_exit() right now, whose
 * record, if any, is among the newest.
 */
bool ptop_ts_exits_recorded(struct pid *pid, bool group, u64 start_ns,
			    u64 before)
{
	u16 kind = group ? PTOP_TS_KIND_GROUP : PTOP_TS_KIND_THREAD;
	bool found = false;
	u64 i, stop;
	unsigned long flags;

	spin_lock_irqsave(&ring_lock, flags);
	if (before > head)
		before = head;
	stop = before > DEDUP_SCAN ? before - DEDUP_SCAN : 0;
	if (head > ring_size && stop < head - ring_size)
		stop = head - ring_size;
	for (i = before; i > stop && !found; i--) {
		const struct exit_ent *e = &ring[(i - 1) % ring_size];

		found = e->rec.kind == kind && e->rec.start_ns == start_ns &&
			(group ? e->tgid : e->pid) == pid;
	}
	spin_unlock_irqrestore(&ring_lock, flags);
	return found;
}

/*
 * Copy the records at positions [from, to) visible to the reader; returns
 * their number, or -ENOSPC when the ring has overwritten some of them.
 */
int ptop_ts_exits_copy(u64 from, u64 to, bool threads,
		       const struct ptop_ts_query *q,
		       struct ptop_ts_record *out, u32 max)
{
	struct pid_namespace *ns = q->pid_ns;
	u32 n = 0;
	u64 pos;
	unsigned long flags;

	spin_lock_irqsave(&ring_lock, flags);
	if (head - from > ring_size) {
		spin_unlock_irqrestore(&ring_lock, flags);
		return -ENOSPC;
	}
	for (pos = from; pos < to && n < max; pos++) {
		const struct exit_ent *e = &ring[pos % ring_size];
		struct ptop_ts_record *r = &out[n];

		if (!threads && e->rec.kind == PTOP_TS_KIND_THREAD)
			continue;
		*r = e->rec;
		r->pid = pid_nr_ns(e->pid, ns);
		r->tgid = pid_nr_ns(e->tgid, ns);
		if (!r->pid || !r->tgid)
			continue;
		r->ppid = pid_nr_ns(e->parent, ns);
		r->acct_ptgid = r->ppid;
		if (e->rec.kind == PTOP_TS_KIND_GROUP) {
			r->folded_into = pid_nr_ns(e->fold, ns);
			r->acct_ptgid = r->folded_into;
			if (!r->folded_into)
				r->folded_start_ns = 0;
		}
		r->uid = from_kuid_munged(q->user_ns, e->uid);
		n++;
	}
	spin_unlock_irqrestore(&ring_lock, flags);
	return n;
}
