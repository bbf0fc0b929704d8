// SPDX-License-Identifier: GPL-2.0
/*
 * Requested event sources: per-task steal (its table) and process events
 * are on only while someone asked for them, as the "requested" extension
 * events of utrace: when the last listener goes, they go. The probes
 * themselves stay attached for the module's life (hooks.c: attaching one
 * rewrites kernel text under every CPU); on and off are data.
 *
 * Listeners:
 *  - an open /proc/taskstats file that wrote a command with
 *    PTOP_TS_CMDF_STEAL: until the file is released;
 *  - a generic netlink socket that dumped with PTOP_TS_CMDF_STEAL (steal)
 *    or sent PTOP_TS_CMD_LISTEN (events): until it sends LISTEN 0, or is
 *    released. 6.1's genetlink has no per-family mcast_bind/unbind, so the
 *    release is seen through the netlink notifier (NETLINK_URELEASE): it
 *    drops the listener and leaves the detaching to a work item.
 *
 * An events listener is the socket events are sent to (events.c), with
 * the pid namespace of the task that asked: it gets the events of the
 * tasks visible there, with their numbers there.
 *
 * Switching on and off (the steal table's allocation and freeing, the
 * events flag) happens only in process context under listen_mutex
 * (reconcile()); the counts are under listen_lock.
 *
 * The module's only cycle of calls closes here: this file attaches
 * events.c's events (reconcile()), events.c sends each event through
 * netlink.c to the listeners it finds here (ptop_ts_listen_events_each()),
 * and netlink.c's LISTEN command and STEAL dumps make listeners here:
 * events -> netlink -> listen -> events (and events -> listen -> events).
 * It cannot deadlock: reconcile() runs in process context only, never
 * from a probe or a netlink callback that holds a lock of this file, and
 * holds only listen_mutex while it calls events.c; the probes take only
 * listen_lock, a spinlock that reconcile() drops before it calls out.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include "events.h"
#include "steal.h"
#include "listen.h"

struct nl_listener {
	struct list_head node;
	const struct net *net;		/* compared only, never dereferenced */
	u32 portid;
	u32 kinds;			/* PTOP_TS_LISTEN_* */
	struct pid_namespace *pid_ns;	/* of the task that asked first */
};

static void free_listener(struct nl_listener *l)
{
	if (!l)
		return;
	put_pid_ns(l->pid_ns);
	kfree(l);
}

static DEFINE_SPINLOCK(listen_lock);
static DEFINE_MUTEX(listen_mutex);
static LIST_HEAD(nl_listeners);
static long nsteal, nevents;		/* listeners of each kind */
static bool steal_on, events_on;	/* what is attached */
static bool shutting_down;

static void reconcile(void)
{
	bool want_steal, want_events;
	int ret;

	mutex_lock(&listen_mutex);
	spin_lock(&listen_lock);
	want_steal = nsteal > 0 && !shutting_down;
	want_events = nevents > 0 && !shutting_down;
	spin_unlock(&listen_lock);

	if (want_steal != steal_on) {
		if (want_steal) {
			ret = ptop_ts_steal_attach();
			if (!ret)
				steal_on = true;
		} else {
			ptop_ts_steal_detach();
			steal_on = false;
		}
	}
	if (want_events != events_on) {
		if (want_events) {
			ret = ptop_ts_events_attach();
			if (!ret)
				events_on = true;
		} else {
			ptop_ts_events_detach();
			events_on = false;
		}
	}
	mutex_unlock(&listen_mutex);
}

static void reconcile_work_fn(struct work_struct *w)
{
	reconcile();
}

static DECLARE_WORK(reconcile_work, reconcile_work_fn);

static void count(u32 kinds, long d)
{
	if (kinds & PTOP_TS_LISTEN_STEAL)
		nsteal += d;
	if (kinds & PTOP_TS_LISTEN_EVENTS)
		nevents += d;
}

/* A /proc file starts (on) or stops listening for steal. Process context. */
void ptop_ts_listen_file(bool on)
{
	spin_lock(&listen_lock);
	if (shutting_down) {
		spin_unlock(&listen_lock);
		return;
	}
	count(PTOP_TS_LISTEN_STEAL, on ? 1 : -1);
	spin_unlock(&listen_lock);
	reconcile();
}

/* A netlink socket starts or stops listening. Process context. */
int ptop_ts_listen_nl(const struct net *net, u32 portid, u32 kinds, bool on)
{
	struct nl_listener *l, *found = NULL, *nl = NULL;
	u32 before, after;

	if (READ_ONCE(shutting_down))
		return -ENODEV;
	if (on) {
		nl = kzalloc(sizeof(*nl), GFP_KERNEL_ACCOUNT);
		if (!nl)
			return -ENOMEM;
		nl->pid_ns = get_pid_ns(task_active_pid_ns(current));
	}
	spin_lock(&listen_lock);
	list_for_each_entry(l, &nl_listeners, node)
		if (l->net == net && l->portid == portid)
			found = l;
	before = found ? found->kinds : 0;
	after = on ? before | kinds : before & ~kinds;
	if (!found && after) {
		found = nl;
		nl = NULL;
		found->net = net;
		found->portid = portid;
		list_add(&found->node, &nl_listeners);
	}
	if (found) {
		count(after & ~before, 1);
		count(before & ~after, -1);
		found->kinds = after;
		if (!after) {
			list_del(&found->node);
			nl = found;	/* freed below, out of the lock */
		}
	}
	spin_unlock(&listen_lock);
	free_listener(nl);
	if (before != after)
		reconcile();
	return 0;
}

static int nl_release(struct notifier_block *nb, unsigned long event,
		      void *ptr)
{
	struct netlink_notify *n = ptr;
	struct nl_listener *l, *tmp;
	LIST_HEAD(gone);

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC)
		return NOTIFY_DONE;
	spin_lock(&listen_lock);
	list_for_each_entry_safe(l, tmp, &nl_listeners, node) {
		if (l->net != n->net || l->portid != n->portid)
			continue;
		count(l->kinds, -1);
		list_move(&l->node, &gone);
	}
	spin_unlock(&listen_lock);
	if (list_empty(&gone))
		return NOTIFY_DONE;
	list_for_each_entry_safe(l, tmp, &gone, node)
		free_listener(l);
	schedule_work(&reconcile_work);
	return NOTIFY_DONE;
}

static struct notifier_block nl_release_nb = {
	.notifier_call = nl_release,
};

/*
 * fn(portid, pid_ns, arg) for every events listener, under listen_lock:
 * from the probes (process context, preemption off); fn must not sleep.
 */
void ptop_ts_listen_events_each(void (*fn)(u32 portid,
					   struct pid_namespace *ns,
					   void *arg),
				void *arg)
{
	struct nl_listener *l;

	spin_lock(&listen_lock);
	list_for_each_entry(l, &nl_listeners, node)
		if (l->kinds & PTOP_TS_LISTEN_EVENTS)
			fn(l->portid, l->pid_ns, arg);
	spin_unlock(&listen_lock);
}

void ptop_ts_listen_counts(long *steal, long *events, bool *steal_attached,
			   bool *events_attached)
{
	mutex_lock(&listen_mutex);
	spin_lock(&listen_lock);
	*steal = nsteal;
	*events = nevents;
	spin_unlock(&listen_lock);
	*steal_attached = steal_on;
	*events_attached = events_on;
	mutex_unlock(&listen_mutex);
}

int ptop_ts_listen_init(void)
{
	return netlink_register_notifier(&nl_release_nb);
}

/*
 * Module exit (before the family and the /proc file go) or init failure:
 * detach for good; a listener still coming or going changes counts only.
 */
void ptop_ts_listen_exit(void)
{
	struct nl_listener *l, *tmp;
	LIST_HEAD(gone);

	netlink_unregister_notifier(&nl_release_nb);
	spin_lock(&listen_lock);
	shutting_down = true;
	list_for_each_entry_safe(l, tmp, &nl_listeners, node) {
		count(l->kinds, -1);
		list_move(&l->node, &gone);
	}
	spin_unlock(&listen_lock);
	list_for_each_entry_safe(l, tmp, &gone, node)
		free_listener(l);
	cancel_work_sync(&reconcile_work);
	reconcile();		/* detaches whatever is still attached */
	spin_lock(&listen_lock);
	nsteal = 0;
	nevents = 0;
	spin_unlock(&listen_lock);
}
