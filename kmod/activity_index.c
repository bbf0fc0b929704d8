// SPDX-License-Identifier: GPL-2.0
/*
 * The index of marked tasks (activity.c drains the marks into it at each
 * pass): one entry per task (thread, and its group) with the pass number
 * of its last mark, on a list kept in that order; a "since N" pass walks
 * the list back from its end while entries are newer than N: cost
 * proportional to the tasks that changed. Entries of tasks gone for good
 * are pruned a few at a time. Everything here runs under the pass lock
 * (seq.c).
 */
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "activity_marks.h"
#include "activity_index.h"

#define ACT_HASH_BITS	15

struct act_ent {
	struct hlist_node hnode;
	struct list_head lnode;		/* act_list, oldest mark first */
	u64 start;
	u64 pass;			/* pass number of its last mark */
	u32 pid;
	u32 tgid;
	bool group;
};

static struct hlist_head *act_hash;
static LIST_HEAD(act_list);
static struct list_head prune_cursor;	/* a position in act_list */
static struct kmem_cache *ent_cache;
static u64 act_entries;

int ptop_ts_act_index_init(void)
{
	ent_cache = KMEM_CACHE(act_ent, 0);
	return ent_cache ? 0 : -ENOMEM;
}

void ptop_ts_act_index_exit(void)
{
	kmem_cache_destroy(ent_cache);
}

u64 ptop_ts_act_entries(void)
{
	return READ_ONCE(act_entries);
}

/* An empty index, as tracking starts. */
int ptop_ts_act_index_alloc(void)
{
	act_hash = kvcalloc(1U << ACT_HASH_BITS, sizeof(*act_hash),
			    GFP_KERNEL_ACCOUNT);
	if (!act_hash)
		return -ENOMEM;
	INIT_LIST_HEAD(&prune_cursor);
	list_add(&prune_cursor, &act_list);
	return 0;
}

static struct hlist_head *bucket(u32 pid, u64 start, bool group)
{
	u32 h = ptop_ts_mark_hash(pid, start) ^ group;

	return &act_hash[hash_32(h, ACT_HASH_BITS)];
}

static struct act_ent *lookup(u32 pid, u64 start, bool group)
{
	struct act_ent *e;

	hlist_for_each_entry(e, bucket(pid, start, group), hnode)
		if (e->pid == pid && e->start == start && e->group == group)
			return e;
	return NULL;
}

static void ent_free(struct act_ent *e)
{
	hlist_del(&e->hnode);
	list_del(&e->lnode);
	kmem_cache_free(ent_cache, e);
	act_entries--;
}

/* false: no memory (the caller walks fully) */
static bool touch(u32 pid, u32 tgid, u64 start, bool group, u64 pass)
{
	struct act_ent *e = lookup(pid, start, group);

	if (e) {
		list_move_tail(&e->lnode, &act_list);
	} else {
		e = kmem_cache_alloc(ent_cache, GFP_KERNEL | __GFP_NOWARN);
		if (!e)
			return false;
		e->pid = pid;
		e->tgid = tgid;
		e->start = start;
		e->group = group;
		hlist_add_head(&e->hnode, bucket(pid, start, group));
		list_add_tail(&e->lnode, &act_list);
		act_entries++;
	}
	e->pass = pass;
	return true;
}

/* The live task of an identity (group: its leader), under RCU. */
struct task_struct *ptop_ts_act_find_task(u32 pid, u64 start, bool group)
{
	struct pid *p = find_pid_ns(pid, &init_pid_ns);
	struct task_struct *t;

	if (!p)
		return NULL;
	t = pid_task(p, group ? PIDTYPE_TGID : PIDTYPE_PID);
	return t && t->start_boottime == start ? t : NULL;
}

/* A thread's mark: the thread and its group changed. false: no memory */
bool ptop_ts_act_touch_mark(const struct ptop_ts_mark *m, u64 pass)
{
	struct task_struct *leader = NULL;
	u64 gstart = m->start;
	struct pid *p;

	if (m->group)
		return touch(m->pid, m->tgid, m->start, true, pass);
	if (!touch(m->pid, m->tgid, m->start, false, pass))
		return false;
	if (m->pid != m->tgid) {
		rcu_read_lock();
		p = find_pid_ns(m->tgid, &init_pid_ns);
		if (p)
			leader = pid_task(p, PIDTYPE_TGID);
		gstart = leader ? leader->start_boottime : 0;
		rcu_read_unlock();
		if (!leader)
			return true;	/* the group is gone: its EXIT says it */
	}
	return touch(m->tgid, m->tgid, gstart, true, pass);
}

void ptop_ts_act_index_free(void)
{
	struct act_ent *e, *tmp;

	list_del_init(&prune_cursor);
	list_for_each_entry_safe(e, tmp, &act_list, lnode)
		ent_free(e);
	kvfree(act_hash);
	act_hash = NULL;
}

/* Entries of tasks gone for good are dropped, max of them checked per pass. */
void ptop_ts_act_prune(u32 max)
{
	while (max-- && act_entries) {
		struct list_head *pos = prune_cursor.next;
		struct act_ent *e;
		bool alive;

		if (pos == &act_list) {
			list_move(&prune_cursor, &act_list);	/* wrap */
			continue;
		}
		e = list_entry(pos, struct act_ent, lnode);
		list_move(&prune_cursor, pos);
		rcu_read_lock();
		alive = ptop_ts_act_find_task(e->pid, e->start,
					      e->group) != NULL;
		rcu_read_unlock();
		if (!alive)
			ent_free(e);
	}
}

bool ptop_ts_act_thread_changed(struct task_struct *t, u64 since_pass)
{
	struct act_ent *e = lookup(t->pid, t->start_boottime, false);

	return e && e->pass > since_pass;
}

static int pick_cmp(const void *a, const void *b)
{
	const struct ptop_ts_act_pick *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/*
 * The groups marked after since_pass that the reader's namespace sees,
 * from start_pid on, in tgid order (a reference on each leader), and how
 * many thread entries are that new. Pass lock held.
 */
int ptop_ts_act_select(u64 since_pass, struct pid_namespace *ns,
		       u32 start_pid, struct ptop_ts_act_sel *sel)
{
	struct list_head *pos, *prev;
	u32 groups = 0, n = 0, seen = 0;

	memset(sel, 0, sizeof(*sel));
	for (pos = act_list.prev; pos != &act_list; pos = pos->prev) {
		struct act_ent *e;

		if (pos == &prune_cursor)
			continue;
		e = list_entry(pos, struct act_ent, lnode);
		if (e->pass <= since_pass)
			break;
		if (e->group)
			groups++;
		else
			sel->threads++;
	}
	if (!groups)
		return 0;
	sel->pick = kvmalloc_array(groups, sizeof(*sel->pick), GFP_KERNEL);
	if (!sel->pick)
		return -ENOMEM;
	for (pos = act_list.prev; pos != &act_list; pos = prev) {
		struct task_struct *leader;
		struct act_ent *e;
		u32 nr = 0;

		prev = pos->prev;
		if (pos == &prune_cursor)
			continue;
		e = list_entry(pos, struct act_ent, lnode);
		if (e->pass <= since_pass)
			break;
		if (!e->group)
			continue;
		rcu_read_lock();
		leader = ptop_ts_act_find_task(e->pid, e->start, true);
		if (leader)
			nr = task_tgid_nr_ns(leader, ns);
		if (nr && nr >= start_pid && n < groups) {
			get_task_struct(leader);
			sel->pick[n].nr = nr;
			sel->pick[n].leader = leader;
			n++;
		}
		rcu_read_unlock();
		if (!leader)
			ent_free(e);
		if (!(++seen % 256))
			cond_resched();
	}
	sel->n = n;
	sort(sel->pick, n, sizeof(*sel->pick), pick_cmp, NULL);
	return 0;
}

void ptop_ts_act_sel_free(struct ptop_ts_act_sel *sel)
{
	u32 i;

	for (i = 0; i < sel->n; i++)
		put_task_struct(sel->pick[i].leader);
	kvfree(sel->pick);
	memset(sel, 0, sizeof(*sel));
}
