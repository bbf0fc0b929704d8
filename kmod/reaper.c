// SPDX-License-Identifier: GPL-2.0
/*
 * Where a dead group's real children go: the reaper the kernel is going
 * to choose, looked for only when there are children to move (as
 * forget_original_parent() does), and each group's fostered children,
 * the real children it took in as their reaper while their accounting
 * parent is another group (acct.c's c* follows the tree of origin).
 * With them a group's real children are its accounting children not
 * fostered elsewhere plus its own fostered list, so an exit's REPARENT
 * report (events.c) walks those, never every process.
 */
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include "acct_internal.h"
#include "activity_marks.h"
#include "reaper.h"

#ifdef PTOP_TS_TEST_REAPER_WINDOW
/*
 * Test builds only (make vm-reaper-race): a second between reading the
 * parent and its pid when a task named ptop-reaperwin exits, for
 * tests/vm/reaper_race.sh to release that parent inside it.
 */
static void reaper_window(struct task_struct *father, struct task_struct *p)
{
	char comm[TASK_COMM_LEN];

	if (p != rcu_access_pointer(father->real_parent))
		return;
	get_task_comm(comm, father);
	if (strcmp(comm, "ptop-reaperwin"))
		return;
	pr_info("test build: reaper window for %d\n", task_pid_nr(father));
	mdelay(1000);
}
#else
static inline void reaper_window(struct task_struct *father,
				 struct task_struct *p) { }
#endif

/*
 * Has a thread of father's group a child (live or zombie) that the
 * kernel will move? Under RCU, without tasklist_lock: each list head is
 * read once; a child forked meanwhile cannot be, every thread of a dead
 * group is exiting. O(threads of the group).
 */
bool ptop_ts_has_children(struct task_struct *father)
{
	struct task_struct *t;

	for_each_thread(father, t)
		if (!list_empty(&t->children))
			return true;
	return false;
}

/*
 * The kernel's choice in find_new_reaper() for the children of father
 * when its whole group goes: a live thread of the same group cannot
 * exist then, so the nearest child subreaper ancestor still alive, else
 * the pid namespace's init; NULL when the group has no child to move,
 * without walking its ancestors (any user can make that chain long).
 * Under RCU (no tasklist_lock: a racing release can make it guess; it
 * stops at a released task). What it reads of an ancestor stays valid
 * under RCU even when that is released meanwhile: the task_struct and
 * its signal_struct are freed from the RCU callback of release_task()
 * (delayed_put_task_struct()), a struct pid from free_pid()'s; a
 * real_parent read under RCU is a task not yet released or inside that
 * grace period (exit_notify() moves the children before release). What
 * changes is task_pid(): NULL once detach_pid() ran, hence the check
 * (tests/vm/reaper_race.sh releases a parent inside a test build's
 * window there).
 */
struct task_struct *ptop_ts_new_reaper(struct task_struct *father)
{
	struct pid_namespace *ns = task_active_pid_ns(father);
	struct task_struct *reaper = ns ? ns->child_reaper : NULL;
	struct task_struct *p;

	if (!ptop_ts_has_children(father))
		return NULL;
	if (father->signal->has_child_subreaper) {
		unsigned int level = ns ? ns->level : 0;

		for (p = rcu_dereference(father->real_parent);
		     p && p->pid && p != reaper;
		     p = rcu_dereference(p->real_parent)) {
			struct pid *pid;

			reaper_window(father, p);	/* test builds only */
			pid = task_pid(p);

			/* released meanwhile (no tasklist_lock here) */
			if (!pid || pid->level < level)
				break;
			if (!p->signal->is_child_subreaper)
				continue;
			if (!(p->flags & PF_EXITING) || atomic_read(&p->signal->live))
				return p;
		}
	}
	return reaper;
}

/* c's real parent is r's group now (r NULL: not known here). */
static void set_foster(struct ptop_acct *c, struct ptop_acct *r)
{
	if (c->foster)
		list_del_init(&c->foster_node);
	c->foster = NULL;
	if (r && r != c->parent && r != c) {
		c->foster = r;
		list_add_tail(&c->foster_node, &r->fostered);
	}
}

/*
 * Dead group a's children at its death, under ptop_acct_lock: its
 * accounting children (dead ones too) move to the receiver to; its real
 * children (the accounting ones not fostered elsewhere, and its own
 * fostered ones) to r, the record of the reaper (NULL: none known).
 */
void ptop_acct_move_children(struct ptop_acct *a, struct ptop_acct *to,
			     struct ptop_acct *r)
{
	struct ptop_acct *c, *n;
	LIST_HEAD(real);

	list_for_each_entry_safe(c, n, &a->fostered, foster_node)
		list_move_tail(&c->foster_node, &real);
	list_for_each_entry_safe(c, n, &a->children, sibling) {
		list_del_init(&c->sibling);
		c->parent = NULL;
		if (to)
			ptop_acct_set_parent(c, to);
		if (!c->foster)
			list_add_tail(&c->foster_node, &real);
		/* its accounting parent changed */
		ptop_ts_act_mark_group(c->tgid, c->start_ns);
	}
	list_for_each_entry_safe(c, n, &real, foster_node) {
		list_del_init(&c->foster_node);
		c->foster = NULL;
		set_foster(c, r);
	}
}

/* a's record goes: no record is its fostered child any more */
void ptop_acct_unfoster(struct ptop_acct *a)
{
	struct ptop_acct *c, *n;

	list_for_each_entry_safe(c, n, &a->fostered, foster_node) {
		list_del_init(&c->foster_node);
		c->foster = NULL;
	}
	if (a->foster)
		list_del_init(&a->foster_node);
	a->foster = NULL;
}
