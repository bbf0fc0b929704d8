// SPDX-License-Identifier: GPL-2.0
/*
 * Marks for reparented children: a thread exiting with children gives
 * them a new real_parent in exit_notify(), after its exit probe and with
 * no tracepoint of its own; their ppid changed, so they are marked at
 * every pass (activity.c's drain) until their father has passed
 * exit_notify(), and once more after.
 */
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "acct.h"
#include "activity_index.h"
#include "activity_marks.h"
#include "activity_orphans.h"

/* A task whose children get a new parent once it passed exit_notify(). */
struct act_orphans {
	struct list_head node;
	struct task_struct *father;	/* reference held */
	bool group_dead;		/* wait for every thread of the group */
	u32 n;
	struct ptop_ts_mark child[];
};

static DEFINE_SPINLOCK(orphan_lock);
static LIST_HEAD(orphan_list);
static bool orphans_lost;

/*
 * sched_process_exit of p (exits.c): when p passes exit_notify(), later,
 * its children get a new real_parent (another thread of the group, or,
 * when the group dies, a reaper). Remember the group's live accounting
 * children (acct.c: the groups it forked, and those it received from
 * dead descendants) until then: every pass reports them meanwhile, and
 * once more after. A child adopted by a subreaper that is not its nearest
 * live ancestor is not among them (its ppid shows as of its last run).
 */
void ptop_ts_act_exit_children(struct task_struct *p, bool group_dead)
{
	struct act_orphans *o;
	unsigned long flags;
	u32 n, i, *tgid;
	u64 *start;

	if (!ptop_ts_marks_on())
		return;
	if (!group_dead && list_empty(&p->children))
		return;		/* no children of its own to hand on */
	n = ptop_ts_acct_children(p->group_leader, NULL, NULL, 0);
	if (!n)
		return;
	o = kmalloc(struct_size(o, child, n), GFP_NOWAIT | __GFP_NOWARN);
	tgid = kmalloc_array(n, sizeof(*tgid), GFP_NOWAIT | __GFP_NOWARN);
	start = kmalloc_array(n, sizeof(*start), GFP_NOWAIT | __GFP_NOWARN);
	if (o && tgid && start) {
		o->n = ptop_ts_acct_children(p->group_leader, tgid, start, n);
		for (i = 0; i < o->n; i++) {
			o->child[i].pid = tgid[i];
			o->child[i].tgid = tgid[i];
			o->child[i].start = start[i];
			o->child[i].group = false;
		}
		o->group_dead = group_dead;
	}
	kfree(tgid);
	kfree(start);
	spin_lock_irqsave(&orphan_lock, flags);
	/*
	 * Tracking may have stopped since the check above: act_detach()
	 * stops the marks before ptop_ts_orphans_free() takes this lock, so
	 * a record added after that would stay (and pin p) until rmmod.
	 */
	if (!ptop_ts_marks_on()) {
		spin_unlock_irqrestore(&orphan_lock, flags);
		kfree(o);
		return;
	}
	if (o && tgid && start) {
		get_task_struct(p);
		o->father = p;
		list_add_tail(&o->node, &orphan_list);
		o = NULL;
	} else {
		orphans_lost = true;
	}
	spin_unlock_irqrestore(&orphan_lock, flags);
	kfree(o);
}


/* Every thread of a reparented child process. */
static bool touch_process(const struct ptop_ts_mark *m, u64 pass)
{
	struct ptop_ts_mark *ms;
	struct task_struct *c, *t;
	bool ok = true;
	u32 n = 0, i = 0;

	rcu_read_lock();
	c = ptop_ts_act_find_task(m->pid, m->start, false);
	if (c)
		n = get_nr_threads(c) + 8;
	rcu_read_unlock();
	if (!n)
		return true;		/* gone since: its EXIT says it */
	ms = kvmalloc_array(n, sizeof(*ms), GFP_KERNEL);
	if (!ms)
		return false;
	rcu_read_lock();
	c = ptop_ts_act_find_task(m->pid, m->start, false);
	if (c) {
		for_each_thread(c, t) {
			if (i == n) {
				ok = false;
				break;
			}
			ms[i].pid = t->pid;
			ms[i].tgid = t->tgid;
			ms[i].start = t->start_boottime;
			ms[i].group = false;
			i++;
		}
	}
	rcu_read_unlock();
	while (ok && i--)
		ok = ptop_ts_act_touch_mark(&ms[i], pass);
	kvfree(ms);
	return ok;
}

/* Has father (with its group, if it reported it dead) passed exit_notify()? */
static bool orphans_ready(const struct act_orphans *o)
{
	struct task_struct *t;
	bool done = READ_ONCE(o->father->exit_state);

	if (!done || !o->group_dead)
		return done;
	rcu_read_lock();
	for_each_thread(o->father, t)
		if (!READ_ONCE(t->exit_state))
			done = false;
	rcu_read_unlock();
	return done;
}

/*
 * Children of exiting tasks: marked at every pass until, and after, it is
 * done. false: a mark was lost. Pass lock held.
 */
bool ptop_ts_orphans_drain(u64 pass)
{
	struct act_orphans *o, *tmp;
	LIST_HEAD(pending);
	unsigned long flags;
	bool ok;
	u32 i;

	spin_lock_irqsave(&orphan_lock, flags);
	list_splice_init(&orphan_list, &pending);
	ok = !orphans_lost;
	orphans_lost = false;
	spin_unlock_irqrestore(&orphan_lock, flags);

	list_for_each_entry_safe(o, tmp, &pending, node) {
		bool ready = orphans_ready(o);	/* before the marks */

		for (i = 0; i < o->n; i++)
			if (!touch_process(&o->child[i], pass))
				ok = false;
		if (!ready)
			continue;
		list_del(&o->node);
		put_task_struct(o->father);
		kfree(o);
	}
	spin_lock_irqsave(&orphan_lock, flags);
	list_splice(&pending, &orphan_list);
	spin_unlock_irqrestore(&orphan_lock, flags);
	return ok;
}

void ptop_ts_orphans_free(void)
{
	struct act_orphans *o, *tmp;
	unsigned long flags;
	LIST_HEAD(all);

	spin_lock_irqsave(&orphan_lock, flags);
	list_splice_init(&orphan_list, &all);
	orphans_lost = false;
	spin_unlock_irqrestore(&orphan_lock, flags);
	list_for_each_entry_safe(o, tmp, &all, node) {
		put_task_struct(o->father);
		kfree(o);
	}
}
