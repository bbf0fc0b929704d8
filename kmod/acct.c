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
 * ptop_acct_lock, and the EXIT record gets its ring position there; a
 * pass (snapshot.c) reads the ring head under the same lock when it
 * begins (ptop_ts_acct_pass_begin()). A pass reports a dying group as
 * live exactly when its EXIT record is at or after that head (see
 * snapshot.c), so the pass must report the parent's c* without the folds made after it began:
 * the first fold into a record during pass G saves the value it had
 * (c_snap, snap_gen = G), and pass G reports c_snap. Every ns of a dead
 * group is thus in exactly one place in every answer: on its own live row,
 * or in its fold target's c*, never both, never neither.
 *
 * The exit path after the EXIT record (see acct_exit.c) is folded into the
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
 * Files: this one keeps the records and the tree (links, folds,
 * reaping) and answers passes; acct_exit.c handles a group's death and
 * the exit paths (the fold, the EXIT record's position, late folds, own
 * x*). They share acct_internal.h, which nothing else includes.
 *
 * Locking: ptop_acct_lock (a spinlock; never taken from irq context)
 * protects the hash, the tree, every record and the tail entries.
 * Nesting: siglock -> ptop_acct_lock -> ring_lock (exit_ring.c); siglock
 * is never taken while holding ptop_acct_lock.
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
#include "activity_marks.h"
#include "record.h"
#include "thread_tail.h"
#include "acct_internal.h"
#include "reaper.h"
#include "acct.h"

#define ACCT_HASH_BITS	12

DEFINE_SPINLOCK(ptop_acct_lock);
static DEFINE_HASHTABLE(acct_hash, ACCT_HASH_BITS);
DEFINE_HASHTABLE(ptop_acct_rep_hash, PTOP_ACCT_REP_BITS);
LIST_HEAD(ptop_acct_dead_list);
LIST_HEAD(ptop_acct_running);
static struct kmem_cache *acct_cache;
u64 ptop_acct_gen;			/* pass generation */
long ptop_acct_live, ptop_acct_dead, ptop_acct_nomem;
u64 ptop_acct_folds, ptop_acct_unfolded, ptop_acct_late_ns;

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

/* The record of the group led by leader (alive or dead); acct lock held */
struct ptop_acct *ptop_acct_lookup(struct task_struct *leader)
{
	return lookup(task_tgid_nr(leader), leader->start_boottime);
}

/* Creates the record of leader's group if missing; ptop_acct_lock held. */
static struct ptop_acct *get_or_create(struct task_struct *leader)
{
	struct ptop_acct *a = ptop_acct_lookup(leader);

	if (a)
		return a;
	a = kmem_cache_zalloc(acct_cache, GFP_NOWAIT | __GFP_NOWARN);
	if (!a) {
		ptop_acct_nomem++;
		return NULL;
	}
	INIT_LIST_HEAD(&a->children);
	INIT_LIST_HEAD(&a->sibling);
	INIT_LIST_HEAD(&a->dead_node);
	INIT_LIST_HEAD(&a->dying);
	INIT_LIST_HEAD(&a->running_node);
	INIT_LIST_HEAD(&a->fostered);
	INIT_LIST_HEAD(&a->foster_node);
	a->tgid = task_tgid_nr(leader);
	a->start_ns = leader->start_boottime;
	a->tgid_pid = get_pid(task_tgid(leader));
	hash_add(acct_hash, &a->hnode, key_hash(a->tgid, a->start_ns));
	ptop_acct_live++;
	return a;
}

void ptop_acct_set_parent(struct ptop_acct *a, struct ptop_acct *p)
{
	if (a == p || a->parent)
		return;
	a->parent = p;
	list_add_tail(&a->sibling, &p->children);
}

/* Link leader's group under its real parent's group; ptop_acct_lock held. */
static struct ptop_acct *link_group(struct task_struct *leader)
{
	struct task_struct *parent;
	struct ptop_acct *a, *p;

	parent = rcu_dereference(leader->real_parent);
	a = get_or_create(leader);
	if (!a) {
		/* a real child of parent's group without a record */
		p = parent && parent->pid ?
		    ptop_acct_lookup(parent->group_leader) : NULL;
		if (p)
			p->adopts = true;
		return NULL;
	}
	if (!a->parent && parent && parent->pid) {
		p = get_or_create(parent->group_leader);
		if (p && !p->dead)
			ptop_acct_set_parent(a, p);
	}
	return a;
}

void ptop_acct_fold(struct ptop_acct *to, const struct ptop_tri *amount)
{
	if (to->snap_gen != ptop_acct_gen) {
		to->c_snap = to->c;
		to->snap_gen = ptop_acct_gen;
	}
	ptop_tri_add(&to->c, amount);
	ptop_acct_folds++;
	ptop_ts_act_mark_group(to->tgid, to->start_ns);
}

/*
 * No record to fold into (allocation failed at fork): the nearest live
 * ancestor by real_parent that has one. Under RCU.
 */
struct ptop_acct *ptop_acct_ancestor(struct task_struct *t)
{
	struct ptop_acct *a;
	int hops;

	for (hops = 0; hops < 64; hops++) {
		t = rcu_dereference(t->real_parent);
		if (!t || !t->pid)
			return NULL;
		t = t->group_leader;
		a = ptop_acct_lookup(t);
		if (a && !a->dead)
			return a;
	}
	return NULL;
}

/*
 * A record with tail entries is never reaped (ptop_acct_reap()): only module
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
	ptop_acct_unfoster(a);
	list_del(&a->sibling);
	list_del(&a->dead_node);
	list_del(&a->running_node);
	hash_del(&a->hnode);
	if (a->reporter)
		hash_del(&a->rnode);
	put_pid(a->tgid_pid);
	put_pid(a->exec_pid);
	if (a->dead)
		ptop_acct_dead--;
	else
		ptop_acct_live--;
	kmem_cache_free(acct_cache, a);
}

/*
 * Free dead records whose leader has been released (no thread of the
 * group can report it dead again). ptop_acct_lock held, under RCU.
 */
void ptop_acct_reap(unsigned int max)
{
	struct ptop_acct *a;

	while (max-- && !list_empty(&ptop_acct_dead_list)) {
		struct task_struct *t;

		a = list_first_entry(&ptop_acct_dead_list, struct ptop_acct,
				     dead_node);
		t = pid_task(a->tgid_pid, PIDTYPE_TGID);
		if (a->reporter || !list_empty(&a->dying) ||
		    (t && t->start_boottime == a->start_ns)) {
			/* still linked (a zombie leader): look again later */
			list_move_tail(&a->dead_node, &ptop_acct_dead_list);
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
	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = link_group(child);
	if (a && !a->dead)
		a->x_own = true;
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	rcu_read_unlock();
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
	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = link_group(leader);
	if (a) {
		old = a->exec_pid;
		a->exec_pid = get_pid(execer);
		a->exec_old_start = execer_start;
	}
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	rcu_read_unlock();
	put_pid(old);
}

/* A thread of a live group exits with this much steal: it goes to x*. */
void ptop_ts_acct_thread_steal(struct task_struct *leader, u64 steal)
{
	struct ptop_acct *a;
	unsigned long flags;

	rcu_read_lock();
	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	if (a && !a->dead)
		a->x_steal += steal;
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	rcu_read_unlock();
}

static bool list_one(struct ptop_acct *c, bool with_dead, u32 *tgid,
		     u64 *start, u32 max, u32 *n)
{
	if (c->dead && !with_dead)
		return true;
	if (tgid) {
		if (*n == max)
			return false;
		tgid[*n] = c->tgid;
		start[*n] = c->start_ns;
	}
	(*n)++;
	return true;
}

/*
 * a's real children as far as the records know (dead ones too if
 * with_dead): its accounting children not fostered by another group and
 * the ones it fostered (reaper.c); at most max of them into
 * tgid[]/start[] (NULL: only count); their number. Under ptop_acct_lock.
 */
static u32 list_children(struct ptop_acct *a, bool with_dead, u32 *tgid,
			 u64 *start, u32 max)
	__must_hold(&ptop_acct_lock)
{
	struct ptop_acct *c;
	u32 n = 0;

	list_for_each_entry(c, &a->children, sibling)
		if (!c->foster &&
		    !list_one(c, with_dead, tgid, start, max, &n))
			return n;
	list_for_each_entry(c, &a->fostered, foster_node)
		if (!list_one(c, with_dead, tgid, start, max, &n))
			return n;
	return n;
}

/*
 * The live real children of leader's group as the records know them
 * (list_children()), at most max of them into tgid[]/start[] (NULL: only
 * count); for activity_orphans.c, whose threads all get a new
 * real_parent when this group dies.
 */
u32 ptop_ts_acct_children(struct task_struct *leader, u32 *tgid, u64 *start,
			  u32 max)
{
	struct ptop_acct *a;
	unsigned long flags;
	u32 n = 0;

	rcu_read_lock();
	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	if (a)
		n = list_children(a, false, tgid, start, max);
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	rcu_read_unlock();
	return n;
}

/*
 * For a REPARENT report (events.c): the real children of leader's group
 * as the records know them (list_children()), dead ones too, at most max
 * into tgid[]/start[] (NULL: count only); every real child of the group
 * unless a child's record could not be made (adopts: then -ENOENT, as
 * without a record). Proportional to the group's children, where a walk
 * of every process is not.
 */
int ptop_ts_acct_kin(struct task_struct *leader, u32 *tgid, u64 *start,
		     u32 max)
{
	struct ptop_acct *a;
	unsigned long flags;
	int n;

	rcu_read_lock();
	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	n = !a || a->adopts ? -ENOENT : list_children(a, true, tgid, start, max);
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
	rcu_read_unlock();
	return n;
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
 * a's c* as the pass reports it (c_snap, c before the pass's first fold,
 * if it had one) and its accounting parent into r. Under ptop_acct_lock.
 */
static void read_c(const struct ptop_acct *a, struct ptop_ts_record *r,
		   struct pid_namespace *ns)
{
	const struct ptop_tri *c = a->snap_gen == ptop_acct_gen ?
				   &a->c_snap : &a->c;

	r->cutime_ns = c->u;
	r->cstime_ns = c->s;
	r->csteal_ns = c->st;
	r->flags |= PTOP_TS_RECF_HAS_C;
	if (a->parent) {
		u32 p = pid_nr_ns(a->parent->tgid_pid, ns);

		if (p)
			r->acct_ptgid = p;
	}
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

	spin_lock_irqsave(&ptop_acct_lock, flags);
	a = ptop_acct_lookup(leader);
	if (a && !a->dead) {
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

		read_c(a, r, ns);
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
	} else if (a) {
		/*
		 * Dead, and live in this pass (its EXIT record comes after
		 * the pass began): c* as the pass reports it (frozen at the
		 * death, which folded it on). Without it the time of its dead
		 * descendants was in neither this answer nor, as the fold
		 * came after the pass began, its receiver's c*.
		 */
		read_c(a, r, ns);
	}
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
}

void ptop_ts_acct_counts(long *live, long *dead, long *nomem, u64 *folds,
			 u64 *unfolded, u64 *late)
{
	unsigned long flags;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	*live = ptop_acct_live;
	*dead = ptop_acct_dead;
	*nomem = ptop_acct_nomem;
	*folds = ptop_acct_folds;
	*unfolded = ptop_acct_unfolded;
	*late = ptop_acct_late_ns;
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
}

void ptop_ts_acct_tail_counts(long *live, u64 *ns)
{
	unsigned long flags;

	spin_lock_irqsave(&ptop_acct_lock, flags);
	ptop_ts_tail_counts(live, ns);
	spin_unlock_irqrestore(&ptop_acct_lock, flags);
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
 * otherwise keep growing ahead of it). A group whose threads are all past
 * their exit (a zombie, or a group dying now) gets no record: its exit
 * probe has run or finds none, so nothing would ever mark it dead and
 * free it.
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
		if (!atomic_read(&p->signal->live))
			continue;
		spin_lock_irqsave(&ptop_acct_lock, flags);
		link_group(p);
		spin_unlock_irqrestore(&ptop_acct_lock, flags);
	}
	rcu_read_unlock();
}

/*
 * After the probes are detached and synchronized: no probe, pass or
 * reader can run any more. The tail entries end here (their tasks are
 * kept by the entries' references, see thread_tail.c): their tasks are
 * released after ptop_acct_lock, as the last reference may be ours.
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
	/* a bucket at a time: tens of thousands of records, interrupts on */
	for (bkt = 0; bkt < HASH_SIZE(acct_hash); bkt++) {
		spin_lock_irqsave(&ptop_acct_lock, flags);
		hlist_for_each_entry_safe(a, tmp, &acct_hash[bkt], hnode) {
			list_splice_init(&a->dying, &tails);
			free_acct(a);
		}
		spin_unlock_irqrestore(&ptop_acct_lock, flags);
		cond_resched();
	}
	list_for_each_entry_safe(e, en, &tails, gnode) {
		struct task_struct *p;

		spin_lock_irqsave(&ptop_acct_lock, flags);
		p = ptop_ts_tail_free(e);
		spin_unlock_irqrestore(&ptop_acct_lock, flags);
		put_task_struct(p);
		cond_resched();
	}
	kmem_cache_destroy(acct_cache);
	acct_cache = NULL;
	ptop_acct_folds = 0;
	ptop_acct_unfolded = 0;
	ptop_acct_late_ns = 0;
	ptop_ts_tail_reset();
	ptop_acct_nomem = 0;
}
