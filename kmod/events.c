// SPDX-License-Identifier: GPL-2.0
/*
 * Process events (fork, exec, exit, reparent), each with its CLOCK_BOOTTIME
 * timestamp, multicast to the genetlink group PTOP_TS_EVENTS_GROUP while at
 * least one socket listens (PTOP_TS_CMD_LISTEN, see listen.c).
 *
 * fork and exit come from the probes that the accounting keeps attached
 * anyway (exits.c); they only build a message while events_on is set. The
 * sched_process_exec probe exists only while someone listens.
 *
 * REPARENT: the kernel reparents the children of an exiting thread in
 * exit_notify(), which has no tracepoint; the exit probe of a group's last
 * thread runs just before, so it reports each child group that will move,
 * with the reaper the kernel is going to choose (a live thread of the same
 * group cannot exist then, so: the nearest child subreaper ancestor still
 * alive, else the pid namespace's init). The children are found through the
 * module's own hierarchy (acct.c), as the kernel's children lists need
 * tasklist_lock, which modules cannot take.
 */
#include <linux/binfmts.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include "ptop_ts.h"

static bool events_on;			/* READ_ONCE in probes */
static struct tracepoint *tp_exec;
static atomic_long_t events_sent = ATOMIC_LONG_INIT(0);
static atomic_long_t events_failed = ATOMIC_LONG_INIT(0);

static void send(u32 type, struct task_struct *t, struct task_struct *other,
		 u32 exit_code)
{
	struct ptop_ts_event ev = {
		.type = type,
		.pid = task_pid_nr(t),
		.tgid = task_tgid_nr(t),
		.exit_code = exit_code,
		.time_ns = ktime_get_boottime_ns(),
	};

	if (other) {
		ev.other_pid = task_pid_nr(other);
		ev.other_tgid = task_tgid_nr(other);
	}
	get_task_comm(ev.comm, t);
	if (ptop_ts_nl_event(&ev))
		atomic_long_inc(&events_failed);
	else
		atomic_long_inc(&events_sent);
}

void ptop_ts_events_fork(struct task_struct *parent, struct task_struct *child)
{
	if (!READ_ONCE(events_on))
		return;
	send(PTOP_TS_EV_FORK, child, parent, 0);
}

/* The kernel's choice in find_new_reaper() when the whole group goes. */
static struct task_struct *new_reaper(struct task_struct *father)
{
	struct pid_namespace *ns = task_active_pid_ns(father);
	struct task_struct *reaper = ns ? ns->child_reaper : NULL;
	struct task_struct *p;

	if (father->signal->has_child_subreaper) {
		unsigned int level = ns ? ns->level : 0;

		for (p = rcu_dereference(father->real_parent);
		     p && p->pid && task_pid(p)->level >= level && p != reaper;
		     p = rcu_dereference(p->real_parent)) {
			if (!p->signal->is_child_subreaper)
				continue;
			if (!(p->flags & PF_EXITING) || atomic_read(&p->signal->live))
				return p;
		}
	}
	return reaper;
}

/* Under RCU: report every child group whose real parent is father's group. */
static void report_reparents(struct task_struct *father)
{
	struct task_struct *reaper = new_reaper(father);
	struct task_struct *t, *c;

	for_each_process(c) {
		t = rcu_dereference(c->real_parent);
		if (t && same_thread_group(t, father) && !c->exit_state)
			send(PTOP_TS_EV_REPARENT, c, reaper, 0);
	}
}

void ptop_ts_events_exit(struct task_struct *p, bool group_dead)
{
	if (!READ_ONCE(events_on))
		return;
	send(PTOP_TS_EV_EXIT, p, NULL, p->exit_code);
	if (group_dead) {
		rcu_read_lock();
		report_reparents(p);
		rcu_read_unlock();
	}
}

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	struct ptop_ts_event ev = {
		.type = PTOP_TS_EV_EXEC,
		.pid = task_pid_nr(p),
		.tgid = task_tgid_nr(p),
		.other_pid = old_pid,	/* the tid before a non-leader exec */
		.other_tgid = task_tgid_nr(p),
		.time_ns = ktime_get_boottime_ns(),
	};

	get_task_comm(ev.comm, p);
	if (ptop_ts_nl_event(&ev))
		atomic_long_inc(&events_failed);
	else
		atomic_long_inc(&events_sent);
}

/* listen.c, process context */
int ptop_ts_events_attach(void)
{
	int ret;

	if (!tp_exec)
		tp_exec = ptop_ts_find_tracepoint("sched_process_exec");
	if (!tp_exec)
		return -ENOENT;
	ret = tracepoint_probe_register(tp_exec, probe_exec, NULL);
	if (ret) {
		pr_err("cannot attach to sched_process_exec: %d\n", ret);
		return ret;
	}
	WRITE_ONCE(events_on, true);
	return 0;
}

void ptop_ts_events_detach(void)
{
	WRITE_ONCE(events_on, false);
	tracepoint_probe_unregister(tp_exec, probe_exec, NULL);
	tracepoint_synchronize_unregister();
}

void ptop_ts_events_counts(long *sent, long *failed)
{
	*sent = atomic_long_read(&events_sent);
	*failed = atomic_long_read(&events_failed);
}
