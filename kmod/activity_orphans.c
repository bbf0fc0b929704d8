// SPDX-License-Identifier: GPL-2.0
/*
 * Marks for reparented children: a thread exiting with children gives
 * them a new real_parent in exit_notify(), after its exit probe and with
 * no tracepoint of its own; their ppid changed, so they are marked at
 * every pass (activity.c's drain) until their father has passed
 * exit_notify(), and once more after (a later exit's reap_ready() may do
 * that last mark instead of a pass).
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
	size_t size;			/* this entry's bytes */
	bool group_dead;		/* wait for every thread of the group */
	u32 n;
	struct ptop_ts_mark child[];
};

/*
 * The entries (on orphan_list, or taken by a drain or a reaper): each
 * holds a task_struct and signal_struct, ~10 KB, so their number and
 * bytes are capped; past the cap, orphans_lost (the next pass walks every
 * task).
 */
static DEFINE_SPINLOCK(orphan_lock);
static LIST_HEAD(orphan_list);
static bool orphans_lost;
static u32 orphans_count;
static size_t orphans_bytes;
static u64 orphans_capped;

#define ORPHAN_GFP	(GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT)
#define ORPHANS_REAP	2	/* entries an exit checks for readiness */

static void free_entry(struct act_orphans *o)
{
	unsigned long flags;

	spin_lock_irqsave(&orphan_lock, flags);
	orphans_count--;
	orphans_bytes -= o->size;
	spin_unlock_irqrestore(&orphan_lock, flags);
	put_task_struct(o->father);
	kfree(o);
}

/* Has father (with its group, if it reported it dead) passed exit_notify()? */
static bool orphans_ready(const struct act_orphans *o)
{
	struct task_struct *t;
	bool done = READ_ONCE(o->father->exit_state);

	if (!done || !o->group_dead)
		return done;
	rcu_read_lock();
	for_each_thread(o->father, t) {
		if (!READ_ONCE(t->exit_state)) {
			done = false;
			break;
		}
	}
	rcu_read_unlock();
	return done;
}

/* Every thread of o's children, into this CPU's marks (probe context). */
static void mark_children(const struct act_orphans *o)
{
	struct task_struct *c, *t;
	u32 i;

	rcu_read_lock();
	for (i = 0; i < o->n; i++) {
		c = ptop_ts_act_find_task(o->child[i].pid, o->child[i].start,
					  false);
		if (c)
			for_each_thread(c, t)
				ptop_ts_act_mark_task(t);
	}
	rcu_read_unlock();
}

/*
 * At every exit while tracking is on, the oldest ORPHANS_REAP entries:
 * one whose father is done gets its children marked (once after the
 * new parent, what a drain would do) and goes, without waiting for a
 * pass (a reader that does not write keeps none); one not done goes to
 * the tail. The entry is off the list meanwhile: a drain then does not
 * mark its children, which only matters after it is done, and then it
 * is marked here; act_detach() may have emptied the list meanwhile,
 * then it goes.
 */
static void reap_ready(void)
{
	struct act_orphans *o;
	unsigned long flags;
	int i;

	for (i = 0; i < ORPHANS_REAP && !list_empty(&orphan_list); i++) {
		spin_lock_irqsave(&orphan_lock, flags);
		o = list_first_entry_or_null(&orphan_list, struct act_orphans,
					     node);
		if (o)
			list_del(&o->node);
		spin_unlock_irqrestore(&orphan_lock, flags);
		if (!o)
			return;
		if (orphans_ready(o)) {
			mark_children(o);
			free_entry(o);
			continue;
		}
		spin_lock_irqsave(&orphan_lock, flags);
		if (ptop_ts_marks_on()) {
			list_add_tail(&o->node, &orphan_list);
			o = NULL;
		}
		spin_unlock_irqrestore(&orphan_lock, flags);
		if (o)
			free_entry(o);
	}
}

/* Room for size more bytes of entries? orphan_lock held. */
static bool orphans_room(size_t size)
{
	return orphans_count < PTOP_TS_ORPHANS_MAX &&
	       size <= PTOP_TS_ORPHAN_BYTES_MAX - orphans_bytes;
}

/* A new entry for p's group's n live children, or NULL (no memory). */
static struct act_orphans *new_entry(struct task_struct *p, u32 n,
				     bool group_dead)
{
	struct act_orphans *o;
	u32 i, *tgid;
	u64 *start;
	bool ok;

	o = kmalloc(struct_size(o, child, n), ORPHAN_GFP);
	tgid = kmalloc_array(n, sizeof(*tgid), ORPHAN_GFP);
	start = kmalloc_array(n, sizeof(*start), ORPHAN_GFP);
	ok = o && tgid && start;
	if (ok) {
		o->n = ptop_ts_acct_children(p->group_leader, tgid, start, n);
		for (i = 0; i < o->n; i++) {
			o->child[i].pid = tgid[i];
			o->child[i].tgid = tgid[i];
			o->child[i].start = start[i];
			o->child[i].group = false;
		}
		o->size = struct_size(o, child, n);
		o->group_dead = group_dead;
	}
	kfree(tgid);
	kfree(start);
	if (!ok) {
		kfree(o);
		return NULL;
	}
	return o;
}

/*
 * sched_process_exit of p (exits.c): when p passes exit_notify(), later,
 * its children get a new real_parent (another thread of the group, or,
 * when the group dies, a reaper). Remember the group's live accounting
 * children (acct.c: the groups it forked, and those it received from
 * dead descendants) until then: every pass reports them meanwhile, and
 * once more after. A child adopted by a subreaper that is not its nearest
 * live ancestor is not among them (its ppid shows as of its last run).
 * Probe context: no sleeping allocation; they are charged to p's cgroup.
 */
void ptop_ts_act_exit_children(struct task_struct *p, bool group_dead)
{
	struct act_orphans *o = NULL;
	unsigned long flags;
	u32 n;

	if (!ptop_ts_marks_on())
		return;
	reap_ready();
	if (!group_dead && list_empty(&p->children))
		return;		/* no children of its own to hand on */
	n = ptop_ts_acct_children(p->group_leader, NULL, NULL, 0);
	if (!n)
		return;
	spin_lock_irqsave(&orphan_lock, flags);
	if (orphans_room(struct_size(o, child, n))) {
		spin_unlock_irqrestore(&orphan_lock, flags);
		o = new_entry(p, n, group_dead);
		spin_lock_irqsave(&orphan_lock, flags);
	}
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
	if (o && orphans_room(o->size)) {
		get_task_struct(p);
		o->father = p;
		orphans_count++;
		orphans_bytes += o->size;
		list_add_tail(&o->node, &orphan_list);
		o = NULL;
	} else {
		orphans_lost = true;
		orphans_capped++;
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
	ms = kvmalloc_array(n, sizeof(*ms), GFP_KERNEL_ACCOUNT);
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
		cond_resched();
		if (!ready)
			continue;
		list_del(&o->node);
		free_entry(o);
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
		free_entry(o);
		cond_resched();
	}
}

/* For the state file: entries, their bytes, entries refused at the cap. */
void ptop_ts_orphans_counts(u32 *n, size_t *bytes, u64 *capped)
{
	*n = READ_ONCE(orphans_count);
	*bytes = READ_ONCE(orphans_bytes);
	*capped = READ_ONCE(orphans_capped);
}
