// SPDX-License-Identifier: GPL-2.0
/*
 * Process events (fork, exec, exit, reparent), each with its CLOCK_BOOTTIME
 * timestamp, sent to every socket that listens (PTOP_TS_CMD_LISTEN, which
 * needs CAP_NET_ADMIN; see listen.c), one message per listener with the
 * pids as that listener's pid namespace numbers them; a listener does not
 * get the events of tasks its namespace does not see. Nothing goes to the
 * multicast group PTOP_TS_EVENTS_GROUP: a group member gets a message
 * with one set of pid numbers whoever it is, and on kernels without
 * GENL_MCAST_CAP_* anyone may join (compat.h).
 *
 * fork and exit come from the probes that the accounting keeps attached
 * anyway (exits.c), exec from the one of hooks.c, also attached for the
 * module's life; they only build a message while events_on is set.
 *
 * REPARENT: the kernel reparents the children of an exiting thread in
 * exit_notify(), which has no tracepoint; the exit probe of a group's last
 * thread runs just before, so it reports each child group that will move,
 * with the reaper the kernel is going to choose (a live thread of the same
 * group cannot exist then, so: the nearest child subreaper ancestor still
 * alive, else the pid namespace's init). The children are found through the
 * module's own records (acct.c, with the children a reaper took in:
 * reaper.c), as the kernel's children lists need tasklist_lock, which
 * modules cannot take; a group that may have real children outside them
 * (a child's record could not be made) gets a walk of every process
 * instead, counted (reparent_walks).
 */
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include "uapi/ptop_taskstats.h"
#include "acct.h"
#include "acct_exit.h"
#include "listen.h"
#include "netlink.h"
#include "reaper.h"
#include "events.h"

static bool events_on;			/* READ_ONCE in probes */
static atomic_long_t events_sent = ATOMIC_LONG_INIT(0);
static atomic_long_t events_failed = ATOMIC_LONG_INIT(0);
static atomic_long_t reparent_walks = ATOMIC_LONG_INIT(0);

struct one_event {
	struct ptop_ts_event ev;	/* type, exit code, time, comm */
	struct task_struct *t;
	struct task_struct *other;	/* or NULL */
	pid_t old_pid;			/* EXEC: global tid before the exec */
};

/* To one listener, in its pid namespace; under listen_lock. */
static void deliver(u32 portid, struct pid_namespace *ns, void *arg)
{
	const struct one_event *o = arg;
	struct ptop_ts_event ev = o->ev;

	ev.pid = task_pid_nr_ns(o->t, ns);
	ev.tgid = task_tgid_nr_ns(o->t, ns);
	if (!ev.pid || !ev.tgid)
		return;		/* not a task of the listener's namespace */
	if (o->other) {
		ev.other_pid = task_pid_nr_ns(o->other, ns);
		ev.other_tgid = task_tgid_nr_ns(o->other, ns);
	} else if (o->ev.type == PTOP_TS_EV_EXEC) {
		/*
		 * other: the tid before a non-leader exec. de_thread() has
		 * released the old leader, and with it that tid's struct pid:
		 * its number is known in the initial namespace only (0, not
		 * known, elsewhere).
		 */
		ev.other_tgid = ev.tgid;
		if (o->old_pid == task_pid_nr(o->t))
			ev.other_pid = ev.pid;
		else if (ns == &init_pid_ns)
			ev.other_pid = o->old_pid;
	}
	if (ptop_ts_nl_event(portid, &ev))
		atomic_long_inc(&events_failed);
	else
		atomic_long_inc(&events_sent);
}

static void send(struct one_event *o, u32 type, struct task_struct *t,
		 struct task_struct *other, u32 exit_code)
{
	o->ev.type = type;
	o->ev.exit_code = exit_code;
	o->ev.time_ns = ktime_get_boottime_ns();
	get_task_comm(o->ev.comm, t);
	o->t = t;
	o->other = other;
	ptop_ts_listen_events_each(deliver, o);
}

void ptop_ts_events_fork(struct task_struct *parent, struct task_struct *child)
{
	struct one_event o = {};

	if (!READ_ONCE(events_on))
		return;
	send(&o, PTOP_TS_EV_FORK, child, parent, 0);
}

/* c, a child process of father's group that the kernel will reparent? */
static void report_one(struct one_event *o, struct task_struct *father,
		       struct task_struct *c, struct task_struct *reaper)
{
	struct task_struct *t = rcu_dereference(c->real_parent);

	if (t && same_thread_group(t, father) && !c->exit_state)
		send(o, PTOP_TS_EV_REPARENT, c, reaper, 0);
}

/*
 * Under RCU: report every child group whose real parent is father's
 * group. Its accounting children are a superset of those (acct.c says
 * when they are not: then every process is looked at, as before), and
 * that is what is walked: an exit costs what the group has children,
 * not what the machine has processes (with preemption off).
 */
static void report_reparents(struct task_struct *father)
{
	struct task_struct *leader = father->group_leader;
	struct task_struct *reaper = ptop_ts_new_reaper(father);
	struct one_event o = {};
	struct task_struct *c;
	u32 *tgid = NULL;
	u64 *start = NULL;
	int n, i;

	if (!reaper)		/* no child to move */
		return;
	n = ptop_ts_acct_kin(leader, NULL, NULL, 0);
	if (n > 0) {
		tgid = kmalloc_array(n, sizeof(*tgid), GFP_NOWAIT | __GFP_NOWARN);
		start = kmalloc_array(n, sizeof(*start), GFP_NOWAIT | __GFP_NOWARN);
		if (tgid && start)
			n = ptop_ts_acct_kin(leader, tgid, start, n);
		else
			n = -ENOMEM;
	}
	if (n < 0) {
		atomic_long_inc(&reparent_walks);
		for_each_process(c)
			report_one(&o, father, c, reaper);
		goto out;
	}
	for (i = 0; i < n; i++) {
		c = pid_task(find_pid_ns(tgid[i], &init_pid_ns), PIDTYPE_TGID);
		if (c && c->start_boottime == start[i])
			report_one(&o, father, c, reaper);
	}
out:
	kfree(tgid);
	kfree(start);
}

void ptop_ts_events_exit(struct task_struct *p, bool group_dead)
{
	struct one_event o = {};

	if (!READ_ONCE(events_on))
		return;
	send(&o, PTOP_TS_EV_EXIT, p, NULL, p->exit_code);
	if (group_dead) {
		rcu_read_lock();
		report_reparents(p);
		rcu_read_unlock();
	}
}

/* sched_process_exec (hooks.c) */
void ptop_ts_events_exec(struct task_struct *p, pid_t old_pid)
{
	struct one_event o = { .old_pid = old_pid };

	if (!READ_ONCE(events_on))
		return;
	send(&o, PTOP_TS_EV_EXEC, p, NULL, 0);
}

/*
 * listen.c, process context. Off: a probe past its events_on test still
 * delivers, under listen_lock, to the listeners still listed.
 */
int ptop_ts_events_attach(void)
{
	WRITE_ONCE(events_on, true);
	return 0;
}

void ptop_ts_events_detach(void)
{
	WRITE_ONCE(events_on, false);
}

void ptop_ts_events_counts(long *sent, long *failed, long *walks)
{
	*sent = atomic_long_read(&events_sent);
	*failed = atomic_long_read(&events_failed);
	*walks = atomic_long_read(&reparent_walks);
}
