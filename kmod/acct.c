// SPDX-License-Identifier: GPL-2.0
/*
 * The accounting-parent hierarchy (c*), the RFC's patch 5 done from a
 * module: one record per thread group, created by the sched_process_fork
 * probe (and from the task list at load time), linked to the group that
 * forked it. When a group dies (exits.c, the last thread's
 * sched_process_exit probe) its total T plus its own c* is folded into its
 * accounting parent, and its live accounting children move to that parent:
 * so the parent of a record is always a live group (or a dead record that
 * waits to be freed), the nearest live accounting ancestor is one step
 * away, and orphans (reparented by the kernel to init or a subreaper) and
 * self-reaped children are counted where they came from.
 *
 * Fold timing. The fold and the group's EXIT record are made under
 * acct_lock, and the EXIT record gets its ring position there; a pass
 * (snapshot.c) reads the ring head under the same lock when it begins
 * (ptop_ts_acct_pass_begin). A pass reports a dying group as live exactly
 * when its EXIT record is at or after that head (see snapshot.c), so the
 * pass must report the parent's c* without the folds made after it began:
 * the first fold into a record during pass G saves the value it had
 * (c_snap, snap_gen = G), and pass G reports c_snap. Every ns of a dead
 * group is thus in exactly one place in every answer: on its own live row,
 * or in its fold target's c*, never both, never neither.
 *
 * The exit path after the EXIT record (see fold_tail()) is folded into the
 * same receiver as it is spent, under the same rules.
 *
 * A group whose threads report it dead more than once (several threads
 * past signal->live == 0 at once) folds only the growth since its last
 * fold. Dead records stay (as leaves of the tree) until the group leader
 * is released, when no thread of the group can report again; they are
 * freed a few at a time by later exits and passes.
 *
 * Dead threads of groups born while the module is loaded are counted here
 * too (x*, see thread_tail.c): each record holds the tail entries of its
 * threads that exited and are not freed yet, and the final values of
 * those freed. A pass counts an entry in x* exactly when the walk does not
 * count its thread as live (released, or its EXIT record is older than
 * the pass), deciding both under the group's siglock.
 *
 * Locking: acct_lock (a spinlock; never taken from irq context) protects
 * the hash, the tree, every record and the tail entries. Nesting:
 * siglock -> acct_lock -> ring_lock (exits.c); siglock is never taken
 * while holding acct_lock.
 */
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include "ptop_ts.h"

#define ACCT_HASH_BITS	12
#define REAP_BATCH	8

struct ptop_acct {
	struct hlist_node hnode;	/* acct_hash, by (tgid, start_ns) */
	struct list_head children;	/* accounting children */
	struct list_head sibling;	/* in parent->children */
	struct list_head dead_node;	/* dead_list, once dead */
	struct ptop_acct *parent;	/* accounting parent, or NULL */
	struct pid *tgid_pid;		/* reference held */
	u64 start_ns;
	struct ptop_tri c;		/* dead descendants folded in */
	struct ptop_tri c_snap;		/* c before the first fold of pass snap_gen */
	u64 snap_gen;
	struct ptop_tri x_prev;		/* x* as last reported: never backwards */
	struct ptop_tri folded;		/* dead: T + C given to the parent so far */
	u64 x_steal;			/* steal of the group's dead threads */
	struct list_head dying;		/* tail entries: exited, not freed */
	struct ptop_tri x_freed;	/* own x*: freed dead threads */
	bool x_own;			/* x* counted here, not by the kernel */
	bool own_reported;		/* its one group-exit report is made */
	struct hlist_node rnode;	/* rep_hash, while reporter is set */
	/*
	 * The thread that reported the group dead, until it is freed:
	 * ptop_ts_acct_free() takes it out under acct_lock before the task
	 * struct goes, so it may be read under acct_lock while here.
	 */
	struct task_struct *reporter;
	u64 reporter_rt;		/* its runtime in the fold */
	struct pid *exec_pid;		/* a non-leader exec'er's pid before */
	u64 exec_old_start;		/* its start_ns before the exec */
	u32 tgid;			/* global tgid */
	bool dead;
};

static DEFINE_SPINLOCK(acct_lock);
static DEFINE_HASHTABLE(acct_hash, ACCT_HASH_BITS);
static DEFINE_HASHTABLE(rep_hash, 8);
static LIST_HEAD(dead_list);
static struct kmem_cache *acct_cache;
static u64 acct_gen;			/* pass generation */
static long acct_live, acct_dead, acct_nomem;
static u64 acct_folds, acct_unfolded, acct_late_ns;

static u32 key_hash(u32 tgid, u64 start)
{
	return hash_32(tgid ^ (u32)start ^ (u32)(start >> 32), ACCT_HASH_BITS);
}

static struct ptop_acct *lookup(u32 tgid, u64 start)
{
	struct ptop_acct *a;

	hash_for_each_possible(acct_hash, a, hnode, key_hash(tgid, start))
		if (a->tgid == tgid && a->start_ns == start)
			return a;
	return NULL;
}

/* The record of the group led by leader (alive or dead); acct_lock held. */
static struct ptop_acct *lookup_task(struct task_struct *leader)
{
	return lookup(task_tgid_nr(leader), leader->start_boottime);
}

/* Creates the record of leader's group if missing; acct_lock held. */
static struct ptop_acct *get_or_create(struct task_struct *leader)
{
	struct ptop_acct *a = lookup_task(leader);

	if (a)
		return a;
	a = kmem_cache_zalloc(acct_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!a) {
		acct_nomem++;
		return NULL;
	}
	INIT_LIST_HEAD(&a->children);
	INIT_LIST_HEAD(&a->sibling);
	INIT_LIST_HEAD(&a->dead_node);
	INIT_LIST_HEAD(&a->dying);
	a->tgid = task_tgid_nr(leader);
	a->start_ns = leader->start_boottime;
	a->tgid_pid = get_pid(task_tgid(leader));
	hash_add(acct_hash, &a->hnode, key_hash(a->tgid, a->start_ns));
	acct_live++;
	return a;
}

static void set_parent(struct ptop_acct *a, struct ptop_acct *p)
{
	if (a == p || a->parent)
		return;
	a->parent = p;
	list_add_tail(&a->sibling, &p->children);
}

/* Link leader's group under its real parent's group; acct_lock held. */
static struct ptop_acct *link_group(struct task_struct *leader)
{
	struct task_struct *parent;
	struct ptop_acct *a, *p;

	a = get_or_create(leader);
	if (!a)
		return NULL;
	parent = rcu_dereference(leader->real_parent);
	if (!a->parent && parent && parent->pid) {
		p = get_or_create(parent->group_leader);
		if (p && !p->dead)
			set_parent(a, p);
	}
	return a;
}

static void tri_add(struct ptop_tri *a, const struct ptop_tri *b)
{
	a->u += b->u;
	a->s += b->s;
	a->st += b->st;
}

static void fold(struct ptop_acct *to, const struct ptop_tri *amount)
{
	if (to->snap_gen != acct_gen) {
		to->c_snap = to->c;
		to->snap_gen = acct_gen;
	}
	tri_add(&to->c, amount);
	acct_folds++;
	ptop_ts_act_mark_group(to->tgid, to->start_ns);
}

/*
 * No record to fold into (allocation failed at fork): the nearest live
 * ancestor by real_parent that has one. Under RCU.
 */
static struct ptop_acct *ancestor_by_task(struct task_struct *t)
{
	struct ptop_acct *a;
	int hops;

	for (hops = 0; hops < 64; hops++) {
		t = rcu_dereference(t->real_parent);
		if (!t || !t->pid)
			return NULL;
		t = t->group_leader;
		a = lookup_task(t);
		if (a && !a->dead)
			return a;
	}
	return NULL;
}

/*
 * A record with tail entries is never reaped (reap_some()): only module
 * exit frees one, after moving its entries away (ptop_ts_acct_exit()).
 */
static void free_acct(struct ptop_acct *a)
{
	struct ptop_acct *c, *n;

	WARN_ON_ONCE(!list_empty(&a->dying));
	list_for_each_entry_safe(c, n, &a->children, sibling) {
		list_del_init(&c->sibling);
		c->parent = NULL;
	}
	list_del(&a->sibling);
	list_del(&a->dead_node);
	hash_del(&a->hnode);
	if (a->reporter)
		hash_del(&a->rnode);
	put_pid(a->tgid_pid);
	put_pid(a->exec_pid);
	if (a->dead)
		acct_dead--;
	else
		acct_live--;
	kmem_cache_free(acct_cache, a);
}

/*
 * Free dead records whose leader has been released (no thread of the
 * group can report it dead again). acct_lock held, under RCU.
 */
static void reap_some(unsigned int max)
{
	struct ptop_acct *a;

	while (max-- && !list_empty(&dead_list)) {
		struct task_struct *t;

		a = list_first_entry(&dead_list, struct ptop_acct, dead_node);
		t = pid_task(a->tgid_pid, PIDTYPE_TGID);
		if (a->reporter || !list_empty(&a->dying) ||
		    (t && t->start_boottime == a->start_ns)) {
			/* still linked (a zombie leader): look again later */
			list_move_tail(&a->dead_node, &dead_list);
			continue;
		}
		free_acct(a);
	}
}

/*
 * sched_process_fork: a new thread group gets its record. Its signal sums
 * start at zero and every thread that exits from now on passes the exit
 * probe: its x* can be counted here.
 */
void ptop_ts_acct_fork(struct task_struct *parent, struct task_struct *child)
{
	struct ptop_acct *a;
	unsigned long flags;

	if (!thread_group_leader(child))
		return;
	rcu_read_lock();
	spin_lock_irqsave(&acct_lock, flags);
	a = link_group(child);
	if (a && !a->dead)
		a->x_own = true;
	spin_unlock_irqrestore(&acct_lock, flags);
	rcu_read_unlock();
}

/*
 * The last thread of a group reports the group dead (exits.c), with its
 * final totals in tot. Under acct_lock: fold, move children, push the EXIT
 * record through push() so that it gets its ring position here.
 * c_out: the group's own c*; fold_pid/fold_start: the target.
 */
void ptop_ts_acct_group_dead(struct task_struct *leader,
			     struct task_struct *p, u64 p_rt,
			     const struct ptop_tri *tot,
			     void (*push)(void *arg, const struct ptop_tri *c,
					  struct pid *fold_pid, u64 fold_start,
					  bool again),
			     void *arg)
{
	struct ptop_acct *a, *to = NULL, *c, *n;
	struct ptop_tri amount = { 0 }, cown = { 0 };
	unsigned long flags;
	bool again;

	rcu_read_lock();
	spin_lock_irqsave(&acct_lock, flags);
	a = lookup_task(leader);
	if (a) {
		cown = a->c;
		to = a->parent;
		while (to && to->dead)	/* only after a failed move */
			to = to->parent;
	}
	if (!to)
		to = ancestor_by_task(leader);
	amount = *tot;
	if (a && !a->x_own)
		amount.st += a->x_steal;
	tri_add(&amount, &cown);
	again = a && a->dead;
	if (again) {
		/* a twin: only what grew since the first report */
		amount.u = amount.u > a->folded.u ? amount.u - a->folded.u : 0;
		amount.s = amount.s > a->folded.s ? amount.s - a->folded.s : 0;
		amount.st = amount.st > a->folded.st ? amount.st - a->folded.st : 0;
	}
	if (to)
		fold(to, &amount);
	else
		acct_unfolded += amount.u + amount.s + amount.st;

	if (a) {
		tri_add(&a->folded, &amount);
		/*
		 * p keeps running until its last switch: ptop_ts_acct_free();
		 * in an own-x group p is an entry like the other dying threads
		 */
		if (a->reporter)
			hash_del(&a->rnode);
		a->reporter = NULL;
		if (!a->x_own) {
			a->reporter = p;
			a->reporter_rt = p_rt;
			hash_add(rep_hash, &a->rnode, hash_ptr(p, 8));
		}
		if (!a->dead) {
			/* live children move to the receiver (dead ones too) */
			list_for_each_entry_safe(c, n, &a->children, sibling) {
				list_del_init(&c->sibling);
				c->parent = NULL;
				if (to)
					set_parent(c, to);
				/* its accounting parent changed */
				ptop_ts_act_mark_group(c->tgid, c->start_ns);
			}
			a->dead = true;
			acct_live--;
			acct_dead++;
			list_add_tail(&a->dead_node, &dead_list);
		}
	}
	push(arg, &cown, to ? to->tgid_pid : NULL, to ? to->start_ns : 0,
	     again);
	reap_some(REAP_BATCH);
	spin_unlock_irqrestore(&acct_lock, flags);
	rcu_read_unlock();
}

/*
 * The thread that reported its group dead runs on for a while: the rest
 * of do_exit() (files, task work, exit_notify(), the last switch). That
 * time, in no record otherwise, is folded as system time into the same
 * receiver: at the start of every pass (fold_tails()) and for the last
 * time at sched_process_free (an RCU callback after the task's last
 * switch and its release, when it has stopped for good).
 */
/* late ns of system time of dead group a, after its fold: to its receiver */
static void fold_late(struct ptop_acct *a, u64 late)
{
	struct ptop_acct *to;

	for (to = a->parent; to && to->dead; to = to->parent)
		;
	if (to) {
		struct ptop_tri amount = { .s = late };

		fold(to, &amount);
	} else {
		acct_unfolded += late;
	}
	a->folded.s += late;
	acct_late_ns += late;
}

static void fold_tail(struct ptop_acct *a, u64 rt)
{
	u64 late = rt - a->reporter_rt;

	if ((s64)late <= 0 || late >= NSEC_PER_SEC)
		return;
	fold_late(a, late);
	a->reporter_rt = rt;
}

/* A thread of dead group a still in its exit path: fold what it ran on. */
static void fold_dying(struct ptop_acct *a, struct ptop_thread_tail *e,
		       bool final)
{
	u64 tail = ptop_ts_tail_ns(e, final);

	if (tail > e->settled && tail - e->settled < NSEC_PER_SEC)
		fold_late(a, tail - e->settled);
	e->settled = tail;
}

/*
 * A pass begins: the reporting threads still in their exit path have run
 * since; fold that now, before the pass's generation starts, so that time
 * shows in the interval it was spent in. acct_lock held.
 */
static void fold_tails(void)
{
	struct ptop_thread_tail *e;
	struct ptop_acct *a;
	int bkt;

	hash_for_each(rep_hash, bkt, a, rnode) {
		struct task_struct *p = a->reporter;
		u64 rt = READ_ONCE(p->se.sum_exec_runtime);

		fold_tail(a, rt + ptop_ts_running_extra(p));
	}
	list_for_each_entry(a, &dead_list, dead_node)
		list_for_each_entry(e, &a->dying, gnode)
			fold_dying(a, e, false);
}

void ptop_ts_acct_free(struct task_struct *p)
{
	struct ptop_acct *a, *found = NULL;
	struct ptop_thread_tail *e;
	unsigned long flags;

	spin_lock_irqsave(&acct_lock, flags);
	hash_for_each_possible(rep_hash, a, rnode, hash_ptr(p, 8))
		if (a->reporter == p)
			found = a;
	if (found) {
		fold_tail(found, p->se.sum_exec_runtime);
		hash_del(&found->rnode);
		found->reporter = NULL;
	}
	/* a dead thread of an own-x group has stopped for good */
	e = ptop_ts_tail_find(p);
	if (e) {
		struct ptop_tri v;

		a = e->owner;
		if (a->dead)
			fold_dying(a, e, true);
		/* own x* stays whole for a pass that still reports the group */
		ptop_ts_tail_value(e, true, &v);
		tri_add(&a->x_freed, &v);
		/* not the last reference: the probe's caller holds one */
		put_task_struct(ptop_ts_tail_free(e));
	}
	spin_unlock_irqrestore(&acct_lock, flags);
}

/* sched_process_exit of p, a thread of a group that lives on */
void ptop_ts_acct_thread_exit(struct task_struct *leader,
			      struct task_struct *p,
			      const struct ptop_ts_record *th)
{
	struct ptop_thread_tail *e;
	struct ptop_acct *a;
	unsigned long flags;

	spin_lock_irqsave(&acct_lock, flags);
	a = lookup_task(leader);
	if (a && a->x_own && !a->dead) {
		e = ptop_ts_tail_new(p, th);
		if (e) {
			e->owner = a;
			list_add_tail(&e->gnode, &a->dying);
		} else {
			/* one dead thread not counted: the kernel's x* then */
			a->x_own = false;
			acct_nomem++;
		}
	}
	spin_unlock_irqrestore(&acct_lock, flags);
}

/*
 * Under leader's siglock, after ptop_ts_fill_group_locked(): for an own-x
 * group, x* from the tail entries. An entry counts when its thread is not
 * counted live: released (__exit_signal() cleared its sighand under this
 * same siglock) or gone as of exit_head. false: x* stays the kernel's.
 * Also for a dead group that a pass begun before its EXIT record still
 * reports live: the same count as at its exit report.
 */
static void own_x(struct ptop_acct *a, u64 exit_head, struct ptop_ts_record *r)
{
	struct ptop_thread_tail *e;
	struct ptop_tri x = a->x_freed, v;

	list_for_each_entry(e, &a->dying, gnode) {
		if (rcu_access_pointer(e->p->sighand) &&
		    !ptop_ts_thread_gone(e->p, exit_head))
			continue;
		ptop_ts_tail_value(e, false, &v);
		tri_add(&x, &v);
	}
	r->xutime_ns = x.u;
	r->xstime_ns = x.s;
	r->xsteal_ns = x.st;
}

bool ptop_ts_acct_own_x_locked(struct task_struct *leader, u64 exit_head,
			       struct ptop_ts_record *r)
{
	struct ptop_acct *a;
	unsigned long flags;
	bool own;

	spin_lock_irqsave(&acct_lock, flags);
	a = lookup_task(leader);
	own = a && a->x_own;
	if (own)
		own_x(a, exit_head, r);
	spin_unlock_irqrestore(&acct_lock, flags);
	return own;
}

/*
 * Under siglock, the group's last live-- seen (after
 * ptop_ts_fill_group_locked() with exit_head 0): for an own-x group, the
 * first such report gets x* from the entries, and every thread still
 * linked without an entry (the reporter, and threads between their live--
 * and their probe) gets one now, valued as the report has it: what they
 * run from here on is folded as they run it (fold_dying()), so their own
 * probes, later, have nothing left to report (PTOP_OWN_TWIN).
 */
enum ptop_own_exit ptop_ts_acct_group_exit_locked(struct task_struct *leader,
						  struct task_struct *p, u64 p_rt,
						  struct ptop_ts_record *r)
{
	enum ptop_own_exit ret;
	struct ptop_thread_tail *e;
	struct ptop_ts_record tr;
	struct task_struct *t;
	struct ptop_acct *a;
	unsigned long flags;

	spin_lock_irqsave(&acct_lock, flags);
	a = lookup_task(leader);
	if (!a || !a->x_own) {
		ret = PTOP_OWN_NO;
		goto out;
	}
	if (a->dead || a->own_reported) {
		ret = PTOP_OWN_TWIN;
		goto out;
	}
	ret = PTOP_OWN_FIRST;
	a->own_reported = true;		/* under siglock: exactly one first */
	own_x(a, 0, r);
	/* what the entries ran so far is in the report's total */
	list_for_each_entry(e, &a->dying, gnode)
		e->settled = ptop_ts_tail_ns(e, false);
	__for_each_thread(leader->signal, t) {
		if (ptop_ts_tail_find(t))
			continue;
		memset(&tr, 0, sizeof(tr));
		ptop_ts_fill_thread(&tr, t);
		e = ptop_ts_tail_new(t, &tr);
		if (!e) {
			acct_nomem++;	/* its exit path is lost */
			continue;
		}
		/* the reporter's tail from the reading the total has */
		if (t == p && p_rt <= e->rt_exit)
			e->rt_exit = p_rt;
		e->owner = a;
		list_add_tail(&e->gnode, &a->dying);
	}
out:
	spin_unlock_irqrestore(&acct_lock, flags);
	return ret;
}

/*
 * A non-leader thread execs: the old leader exits while the exec'er waits
 * in de_thread(); remember who takes over, with its identity before
 * de_thread() gives it the leader's pid and start time.
 */
void ptop_ts_acct_exec_takeover(struct task_struct *leader,
				struct pid *execer, u64 execer_start)
{
	struct pid *old = NULL;
	struct ptop_acct *a;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&acct_lock, flags);
	a = link_group(leader);
	if (a) {
		old = a->exec_pid;
		a->exec_pid = get_pid(execer);
		a->exec_old_start = execer_start;
	}
	spin_unlock_irqrestore(&acct_lock, flags);
	rcu_read_unlock();
	put_pid(old);
}

/* A thread of a live group exits with this much steal: it goes to x*. */
void ptop_ts_acct_thread_steal(struct task_struct *leader, u64 steal)
{
	struct ptop_acct *a;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&acct_lock, flags);
	a = lookup_task(leader);
	if (a && !a->dead)
		a->x_steal += steal;
	spin_unlock_irqrestore(&acct_lock, flags);
	rcu_read_unlock();
}

/*
 * The live accounting children of leader's group, at most max of them
 * into tgid[]/start[] (NULL: only count); for activity.c, whose threads
 * all get a new real_parent when this group dies.
 */
u32 ptop_ts_acct_children(struct task_struct *leader, u32 *tgid, u64 *start,
			  u32 max)
{
	struct ptop_acct *a, *c;
	unsigned long flags;
	u32 n = 0;

	rcu_read_lock();
	spin_lock_irqsave(&acct_lock, flags);
	a = lookup_task(leader);
	if (a) {
		list_for_each_entry(c, &a->children, sibling) {
			if (c->dead)
				continue;
			if (tgid) {
				if (n == max)
					break;
				tgid[n] = c->tgid;
				start[n] = c->start_ns;
			}
			n++;
		}
	}
	spin_unlock_irqrestore(&acct_lock, flags);
	rcu_read_unlock();
	return n;
}

/* A pass begins: returns the EXIT ring head it answers up to. */
u64 ptop_ts_acct_pass_begin(void)
{
	u64 head;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&acct_lock, flags);
	fold_tails();
	acct_gen++;
	head = ptop_ts_exits_head();
	reap_some(REAP_BATCH * 4);
	spin_unlock_irqrestore(&acct_lock, flags);
	rcu_read_unlock();
	return head;
}

/*
 * Has the exec'er taken over? Before de_thread() exchanges the pids, its
 * old pid still belongs to it, a live thread; after, to the old leader,
 * which is exiting or already released.
 */
static bool exec_done(struct pid *old)
{
	struct task_struct *t = pid_task(old, PIDTYPE_PID);

	return !t || (t->flags & PF_EXITING);
}

/*
 * For a pass: c*, accounting parent and the non-leader exec identity of
 * the group led by leader; x is kept from going backwards per part.
 * Under RCU.
 */
void ptop_ts_acct_read(struct task_struct *leader, struct ptop_ts_record *r,
		       struct pid_namespace *ns)
{
	struct ptop_acct *a;
	unsigned long flags;

	spin_lock_irqsave(&acct_lock, flags);
	a = lookup_task(leader);
	if (a && !a->dead) {
		const struct ptop_tri *c = a->snap_gen == acct_gen ?
					   &a->c_snap : &a->c;
		u64 xt = r->xutime_ns + r->xstime_ns;

		if (a->x_steal && !a->x_own) {
			/* without PARAVIRT_TIME_ACCOUNTING it is inside x */
			u64 st = min(a->x_steal, xt);

			if (IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING))
				st = 0;
			r->xutime_ns = ptop_ts_scale(xt - st, r->xutime_ns, xt);
			r->xstime_ns = xt - st - r->xutime_ns;
			r->xsteal_ns += a->x_steal;
			xt -= st;
		}

		r->cutime_ns = c->u;
		r->cstime_ns = c->s;
		r->csteal_ns = c->st;
		r->flags |= PTOP_TS_RECF_HAS_C;
		if (a->parent) {
			u32 p = pid_nr_ns(a->parent->tgid_pid, ns);

			if (p)
				r->acct_ptgid = p;
		}
		/* as cputime_adjust(): neither part of x goes backwards */
		if (xt >= a->x_prev.u + a->x_prev.s) {
			if (r->xutime_ns < a->x_prev.u) {
				r->xutime_ns = a->x_prev.u;
				r->xstime_ns = xt - r->xutime_ns;
			}
			if (r->xstime_ns < a->x_prev.s) {
				r->xstime_ns = a->x_prev.s;
				r->xutime_ns = xt - r->xstime_ns;
			}
			a->x_prev.u = r->xutime_ns;
			a->x_prev.s = r->xstime_ns;
		}
		/*
		 * The struct pid keeps its numbers after the tid is freed
		 * (exchange_tids() gave it to the old leader, now released).
		 */
		if (a->exec_pid && exec_done(a->exec_pid)) {
			r->exec_old_pid = pid_nr_ns(a->exec_pid, ns);
			r->exec_old_start_ns = a->exec_old_start;
			if (r->exec_old_pid)
				r->flags |= PTOP_TS_RECF_EXEC;
		}
	}
	spin_unlock_irqrestore(&acct_lock, flags);
}

void ptop_ts_acct_counts(long *live, long *dead, long *nomem, u64 *folds,
			 u64 *unfolded, u64 *late)
{
	unsigned long flags;

	spin_lock_irqsave(&acct_lock, flags);
	*live = acct_live;
	*dead = acct_dead;
	*nomem = acct_nomem;
	*folds = acct_folds;
	*unfolded = acct_unfolded;
	*late = acct_late_ns;
	spin_unlock_irqrestore(&acct_lock, flags);
}

void ptop_ts_acct_tail_counts(long *live, u64 *ns)
{
	unsigned long flags;

	spin_lock_irqsave(&acct_lock, flags);
	ptop_ts_tail_counts(live, ns);
	spin_unlock_irqrestore(&acct_lock, flags);
}

int ptop_ts_acct_init(void)
{
	acct_cache = KMEM_CACHE(ptop_acct, 0);
	return acct_cache ? 0 : -ENOMEM;
}

/*
 * Every group alive now; the fork and exit probes are already attached.
 * The task list is in fork order: a process that started after the probes
 * were attached got its record from the fork probe, and so did everything
 * after it, so the walk stops there (under a fork storm the list would
 * otherwise keep growing ahead of it).
 */
void ptop_ts_acct_populate(void)
{
	u64 attached = ktime_get_boottime_ns();
	struct task_struct *p;
	unsigned long flags;

	rcu_read_lock();
	for_each_process(p) {
		if (p->start_boottime > attached)
			break;
		spin_lock_irqsave(&acct_lock, flags);
		link_group(p);
		spin_unlock_irqrestore(&acct_lock, flags);
	}
	rcu_read_unlock();
}

/*
 * After the probes are detached and synchronized: no probe, pass or
 * reader can run any more. The tail entries end here (their tasks are
 * kept by the entries' references, see thread_tail.c): their tasks are
 * released after acct_lock, as the last reference may be ours.
 */
void ptop_ts_acct_exit(void)
{
	struct ptop_thread_tail *e, *en;
	struct ptop_acct *a;
	struct hlist_node *tmp;
	LIST_HEAD(tails);
	int bkt;
	unsigned long flags;

	if (!acct_cache)
		return;
	spin_lock_irqsave(&acct_lock, flags);
	hash_for_each_safe(acct_hash, bkt, tmp, a, hnode) {
		list_splice_init(&a->dying, &tails);
		free_acct(a);
	}
	spin_unlock_irqrestore(&acct_lock, flags);
	list_for_each_entry_safe(e, en, &tails, gnode) {
		struct task_struct *p;

		spin_lock_irqsave(&acct_lock, flags);
		p = ptop_ts_tail_free(e);
		spin_unlock_irqrestore(&acct_lock, flags);
		put_task_struct(p);
	}
	kmem_cache_destroy(acct_cache);
	acct_cache = NULL;
	acct_folds = 0;
	acct_unfolded = 0;
	acct_late_ns = 0;
	ptop_ts_tail_reset();
	acct_nomem = 0;
}
