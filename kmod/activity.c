// SPDX-License-Identifier: GPL-2.0
/*
 * "Active since answer N": answer sequence numbers, and which tasks changed
 * since a pass, learnt from events the kernel already reports, so that a
 * "since N" pass visits those tasks only (plus the EXIT ring).
 *
 * Sequence numbers. An answer's seq is (pass << 32 | low 32 bits of the
 * EXIT ring head the pass answered up to). pass counts passes from a random
 * base, so that a reader holding a number from before a reload is told to
 * RESYNC; the head bits let any later pass find where that answer's exits
 * ended without a table of past answers, so that no number of other
 * readers' passes can push a reader's N out (the 32 bits are unambiguous
 * while fewer than 2^32 exits separate two answers; more than
 * exit_ring_size gives RESYNC anyway).
 *
 * Marks. While tracking is on (a reader open, and track_linger seconds
 * after the last one went), these events mark a task:
 *  - sched_switch: the task switched out (its runtime, switch and fault
 *    counters, run delay, state, comm, uid only change while it runs, and
 *    a task's last stretch before a switch ends at that switch);
 *  - the task on each CPU at a drain (act_cpu.curr, set at every switch):
 *    it runs now, maybe since before N without ever switching;
 *  - sched_process_fork: the new task;
 *  - acct.c: a group whose c* received a fold, or whose accounting parent
 *    changed (its parent died);
 *  - a thread exiting with children: those children (after the thread's
 *    exit_notify() gave them a new real_parent: ppid changed).
 * A mark goes into a small per-CPU table (deduplicated, under a per-CPU
 * raw spinlock that only that CPU's probes and the drain take). Each pass
 * drains every CPU's table into the index: one entry per task (thread, and
 * its group) with the pass number of its last mark, on a list kept in that
 * order; a "since N" pass walks the list back from its end while entries
 * are newer than N: cost proportional to the tasks that changed.
 *
 * Why no task can be missed. Let a task's record change after pass N read
 * it. Changes come only from the events above: the task ran (it switched
 * out afterwards, or it is on a CPU at the next drain), was forked, got a
 * fold or a new accounting parent, or was reparented; each marks it on
 * the CPU where it happens, in the same critical section of that CPU's
 * table lock as the change is visible (the switch probe runs after the
 * scheduler updated the runtime; folds mark under acct_lock). Pass N read
 * the task after its drain D(N) had taken every CPU's lock, so the mark of
 * a change pass N did not see is not in D(N): it is drained by some
 * D(M), N < M <= now, which gives the entry pass number M > N, and
 * numbers only grow. So the walk for "since N" reaches it. A change seen
 * by pass N whose mark comes after D(N) only reports the task once more.
 * Folds are marked under acct_lock and drained before ptop_ts_acct_pass_begin()
 * starts the generation whose c* a pass reports (acct.c): a fold after
 * that is in the next pass's c* and in its drain.
 * When a mark cannot be kept (a full CPU table, no memory), or tracking
 * was off at some point after N, the pass walks every task instead
 * (complete_from): an answer "since N" with every live task is still a
 * correct one. What these events do not see: gauges of a task that did
 * not run (rss shrunk by reclaim, a sleeper woken but not yet run still
 * shows its old state, run delay that grew while it waits in a runqueue):
 * they show as of the task's last report until it runs.
 *
 * Marks are kept only while someone reads (the RFC reviewers' point: no
 * cost for those who do not use it): the switch probe stays attached for
 * the module's life (hooks.c says why) and, with nobody reading, only
 * notes each CPU's task. Debug builds of the tests cross-check every
 * incremental answer against a full walk of the same pass (crosscheck=1,
 * snapshot.c).
 *
 * Locking: ptop_ts_pass_lock (a mutex, taken killable) serializes passes
 * and protects the index; act_mutex the reader count and attaching;
 * order act_mutex -> pass lock. The per-CPU tables are reached from
 * probes with interrupts off, under their CPU's act_here.lock, and freed
 * once every CPU's lock was taken after act_cpus went NULL.
 */
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "ptop_ts.h"

#define ACT_SLOTS	1024		/* per CPU: tasks marked between drains */
#define ACT_PROBE	32		/* slots tried for one mark */
#define ACT_HASH_BITS	15
#define ACT_PRUNE	64		/* entries checked for death per pass */

struct act_mark {
	u64 start;			/* start_boottime of the task */
	u32 pid;			/* global; a group mark: its tgid */
	u32 tgid;			/* global */
	u32 group;			/* a group mark (acct.c) */
	u32 tag;			/* slot is live when == act_cpu.tag */
};

/* A CPU's marks between drains; under that CPU's act_here.lock. */
struct act_cpu {
	u32 tag;
	u32 n;
	bool lost;
	u16 order[ACT_SLOTS];
	struct act_mark slot[ACT_SLOTS];
};

/*
 * Each CPU's task, kept by the switch probe (hooks.c) for the module's
 * life: tracking can begin without asking every CPU. The lock (raw, taken
 * with interrupts off) also guards the CPU's act_cpu and its reading of
 * act_cpus, so that act_detach() knows when no CPU uses the tables.
 */
struct act_here {
	raw_spinlock_t lock;
	struct task_struct *curr;	/* on this CPU (valid under lock) */
};
static DEFINE_PER_CPU(struct act_here, act_here);

/* A task whose children get a new parent once it passed exit_notify(). */
struct act_orphans {
	struct list_head node;
	struct task_struct *father;	/* reference held */
	bool group_dead;		/* wait for every thread of the group */
	u32 n;
	struct act_mark child[];
};

struct act_ent {
	struct hlist_node hnode;
	struct list_head lnode;		/* act_list, oldest mark first */
	u64 start;
	u64 pass;			/* pass number of its last mark */
	u32 pid;
	u32 tgid;
	bool group;
};

static DEFINE_MUTEX(ptop_ts_pass_mutex);
static DEFINE_MUTEX(act_mutex);
static DEFINE_SPINLOCK(seq_lock);
static u64 pass_base, pass_now;

static struct act_cpu **act_cpus;	/* NULL: tracking off (act_here.lock) */
static struct act_mark *drain_buf;
static struct hlist_head *act_hash;
static LIST_HEAD(act_list);
static struct list_head prune_cursor;	/* a position in act_list */
static struct kmem_cache *ent_cache;
static u64 act_entries;
static u64 complete_from = U64_MAX;	/* since passes below: full walk */
static DEFINE_SPINLOCK(orphan_lock);
static LIST_HEAD(orphan_list);
static bool orphans_lost;
static long act_readers;
static bool act_on;
static u64 act_full_walks, act_inc_walks, act_lost;

unsigned int ptop_ts_track_linger = 60;

static void act_linger_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(act_linger_work, act_linger_fn);

/* --- sequence numbers --------------------------------------------------- */

int ptop_ts_act_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu(act_here, cpu).lock);
	/* random base: a reader's N from before a reload is unknown here */
	pass_base = (get_random_u32() >> 2) | 1;
	pass_now = pass_base - 1;
	ent_cache = KMEM_CACHE(act_ent, 0);
	return ent_cache ? 0 : -ENOMEM;
}

u64 ptop_ts_seq_now(void)
{
	u64 s;

	spin_lock(&seq_lock);
	s = pass_now;
	spin_unlock(&seq_lock);
	return s;
}

u64 ptop_ts_seq_of(u64 pass, u64 exit_head)
{
	return pass << 32 | (u32)exit_head;
}

/*
 * The pass number of since_seq and the ring head its answer ended at,
 * given the head now; false when this module never issued it.
 */
bool ptop_ts_seq_lookup(u64 seq, u64 head, u64 *pass, u64 *exit_head)
{
	u64 p = seq >> 32, now = ptop_ts_seq_now();
	u32 d = (u32)head - (u32)seq;

	if (!seq || p < pass_base || p > now || d > head)
		return false;
	*pass = p;
	*exit_head = head - d;
	return true;
}

int ptop_ts_pass_lock(void)
{
	return mutex_lock_killable(&ptop_ts_pass_mutex);
}

void ptop_ts_pass_unlock(void)
{
	mutex_unlock(&ptop_ts_pass_mutex);
}

/* --- marks (any context; interrupts off inside) ------------------------- */

static u32 mark_hash(u32 pid, u64 start)
{
	return hash_32(pid ^ (u32)start ^ (u32)(start >> 32), 32);
}

static void mark_locked(struct act_cpu *ac, u32 pid, u32 tgid, u64 start,
			bool group)
{
	u32 i = mark_hash(pid, start), n;

	for (n = 0; n < ACT_PROBE; n++, i++) {
		struct act_mark *m = &ac->slot[i % ACT_SLOTS];

		if (m->tag != ac->tag) {
			if (ac->n >= ACT_SLOTS)
				break;
			m->tag = ac->tag;
			m->pid = pid;
			m->tgid = tgid;
			m->start = start;
			m->group = group;
			ac->order[ac->n++] = i % ACT_SLOTS;
			return;
		}
		if (m->pid == pid && m->start == start && m->group == group)
			return;
	}
	ac->lost = true;
}

static void mark(u32 pid, u32 tgid, u64 start, bool group)
{
	struct act_cpu **tabs;
	struct act_here *h;
	unsigned long flags;

	if (!READ_ONCE(act_cpus))
		return;
	local_irq_save(flags);
	h = this_cpu_ptr(&act_here);
	raw_spin_lock(&h->lock);
	tabs = READ_ONCE(act_cpus);
	if (tabs)
		mark_locked(tabs[smp_processor_id()], pid, tgid, start, group);
	raw_spin_unlock(&h->lock);
	local_irq_restore(flags);
}

void ptop_ts_act_mark_task(struct task_struct *t)
{
	if (t->pid)
		mark(t->pid, t->tgid, t->start_boottime, false);
}

void ptop_ts_act_mark_group(u32 tgid, u64 start_ns)
{
	mark(tgid, tgid, start_ns, true);
}

/*
 * sched_switch (hooks.c), under the runqueue lock with interrupts off,
 * after the scheduler brought prev's runtime up to date; also while
 * tracking is off, to know each CPU's task.
 */
void ptop_ts_act_switch(struct task_struct *prev, struct task_struct *next)
{
	struct act_here *h = this_cpu_ptr(&act_here);
	struct act_cpu **tabs;

	raw_spin_lock(&h->lock);
	h->curr = next;
	tabs = READ_ONCE(act_cpus);
	if (tabs && prev->pid)
		mark_locked(tabs[smp_processor_id()], prev->pid, prev->tgid,
			    prev->start_boottime, false);
	raw_spin_unlock(&h->lock);
}

static void set_curr(void *unused)
{
	struct act_here *h = this_cpu_ptr(&act_here);

	raw_spin_lock(&h->lock);
	h->curr = current;
	raw_spin_unlock(&h->lock);
}

/* At load, once the switch probe is attached: each CPU's task now. */
void ptop_ts_act_curr_init(void)
{
	on_each_cpu(set_curr, NULL, 1);
}

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

	if (!READ_ONCE(act_cpus))
		return;
	if (!group_dead && list_empty(&p->children))
		return;		/* no children of its own to hand on */
	n = ptop_ts_acct_children(p->group_leader, NULL, NULL, 0);
	if (!n)
		return;
	o = kmalloc(struct_size(o, child, n), GFP_ATOMIC | __GFP_NOWARN);
	tgid = kmalloc_array(n, sizeof(*tgid), GFP_ATOMIC | __GFP_NOWARN);
	start = kmalloc_array(n, sizeof(*start), GFP_ATOMIC | __GFP_NOWARN);
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

/* --- the index (pass lock held) ----------------------------------------- */

static struct hlist_head *bucket(u32 pid, u64 start, bool group)
{
	return &act_hash[hash_32(mark_hash(pid, start) ^ group, ACT_HASH_BITS)];
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
static struct task_struct *find_task(u32 pid, u64 start, bool group)
{
	struct pid *p = find_pid_ns(pid, &init_pid_ns);
	struct task_struct *t;

	if (!p)
		return NULL;
	t = pid_task(p, group ? PIDTYPE_TGID : PIDTYPE_PID);
	return t && t->start_boottime == start ? t : NULL;
}


/* A thread's mark: the thread and its group changed. */
static bool touch_mark(const struct act_mark *m, u64 pass)
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

/* Every thread of a reparented child process. */
static bool touch_process(const struct act_mark *m, u64 pass)
{
	struct act_mark *ms;
	struct task_struct *c, *t;
	bool ok = true;
	u32 n = 0, i = 0;

	rcu_read_lock();
	c = find_task(m->pid, m->start, false);
	if (c)
		n = get_nr_threads(c) + 8;
	rcu_read_unlock();
	if (!n)
		return true;		/* gone since: its EXIT says it */
	ms = kvmalloc_array(n, sizeof(*ms), GFP_KERNEL);
	if (!ms)
		return false;
	rcu_read_lock();
	c = find_task(m->pid, m->start, false);
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
		ok = touch_mark(&ms[i], pass);
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

/* Children of exiting tasks: marked at every pass until, and after, it is done. */
static bool drain_orphans(u64 pass)
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

static void free_orphans(void)
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

/* Entries of tasks gone for good are dropped, max of them checked per pass. */
static void prune(u32 max)
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
		alive = find_task(e->pid, e->start, e->group) != NULL;
		rcu_read_unlock();
		if (!alive)
			ent_free(e);
	}
}

/*
 * Every CPU's marks so far into the index, with pass number pass; false
 * when some were lost (complete_from moves to pass). Pass lock held.
 */
static bool drain(u64 pass)
{
	bool ok = true;
	u32 touched = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct act_here *h = per_cpu_ptr(&act_here, cpu);
		struct act_cpu *ac = act_cpus[cpu];
		struct task_struct *c;
		u32 i, n;

		raw_spin_lock_irq(&h->lock);
		for (i = 0; i < ac->n; i++)
			drain_buf[i] = ac->slot[ac->order[i]];
		n = ac->n;
		c = h->curr;
		if (c && c->pid) {	/* alive: it cannot switch out now */
			drain_buf[n].pid = c->pid;
			drain_buf[n].tgid = c->tgid;
			drain_buf[n].start = c->start_boottime;
			drain_buf[n].group = false;
			n++;
		}
		if (ac->lost)
			ok = false;
		ac->lost = false;
		ac->n = 0;
		if (!++ac->tag)
			ac->tag = 1;
		raw_spin_unlock_irq(&h->lock);
		for (i = 0; i < n; i++)
			if (!touch_mark(&drain_buf[i], pass))
				ok = false;
		touched += n;
		cond_resched();
	}
	if (!drain_orphans(pass))
		ok = false;
	if (!ok) {
		act_lost++;
		complete_from = pass;
	}
	prune(ACT_PRUNE + 2 * touched);
	return ok;
}

/* A pass begins: its number; the marks so far get it. Pass lock held. */
u64 ptop_ts_act_pass(void)
{
	u64 pass;

	spin_lock(&seq_lock);
	pass = ++pass_now;
	spin_unlock(&seq_lock);
	if (act_on)
		drain(pass);
	return pass;
}

/*
 * Cross-check passes (snapshot.c): the marks made during their full walk
 * belong after this pass; pass + 1 is the number the next pass gets.
 */
void ptop_ts_act_drain_late(u64 pass)
{
	if (act_on)
		drain(pass + 1);
}

/* Can the index answer "since pass"? Otherwise: walk every task. */
bool ptop_ts_act_complete(u64 since_pass)
{
	return act_on && since_pass >= complete_from;
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
		leader = find_task(e->pid, e->start, true);
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

/* --- attaching while someone reads -------------------------------------- */

static void free_tables(struct act_cpu **tabs)
{
	int cpu;

	if (!tabs)
		return;
	for_each_possible_cpu(cpu)
		kvfree(tabs[cpu]);
	kfree(tabs);
}

static void free_index(void)
{
	struct act_ent *e, *tmp;

	list_del_init(&prune_cursor);
	list_for_each_entry_safe(e, tmp, &act_list, lnode)
		ent_free(e);
	kvfree(act_hash);
	act_hash = NULL;
}

/*
 * act_mutex held. Tracking goes on by publishing the tables: the switch
 * probe is attached for good (hooks.c), and act_here knows each CPU's task.
 */
static int act_attach(void)
{
	struct act_cpu **tabs;
	int cpu, ret = -ENOMEM;

	tabs = kcalloc(nr_cpu_ids, sizeof(*tabs), GFP_KERNEL);
	if (!tabs)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		tabs[cpu] = kvzalloc_node(sizeof(**tabs), GFP_KERNEL,
					  cpu_to_node(cpu));
		if (!tabs[cpu])
			goto err_tabs;
		tabs[cpu]->tag = 1;
	}
	drain_buf = kvmalloc_array(ACT_SLOTS + 1, sizeof(*drain_buf),
				   GFP_KERNEL);
	act_hash = kvcalloc(1U << ACT_HASH_BITS, sizeof(*act_hash),
			    GFP_KERNEL);
	if (!drain_buf || !act_hash)
		goto err_bufs;

	mutex_lock(&ptop_ts_pass_mutex);
	INIT_LIST_HEAD(&prune_cursor);
	list_add(&prune_cursor, &act_list);
	WRITE_ONCE(act_cpus, tabs);
	/* a pass before this one could not see what ran in between */
	complete_from = pass_now + 1;
	act_on = true;
	mutex_unlock(&ptop_ts_pass_mutex);
	return 0;

err_bufs:
	kvfree(act_hash);
	act_hash = NULL;
	kvfree(drain_buf);
	drain_buf = NULL;
err_tabs:
	free_tables(tabs);
	return ret;
}

/* act_mutex held */
static void act_detach(void)
{
	struct act_cpu **tabs = act_cpus;
	int cpu;

	mutex_lock(&ptop_ts_pass_mutex);
	act_on = false;
	complete_from = U64_MAX;
	WRITE_ONCE(act_cpus, NULL);
	/* probes and marks read act_cpus under their CPU's lock: none left */
	for_each_possible_cpu(cpu) {
		raw_spinlock_t *l = &per_cpu(act_here, cpu).lock;

		raw_spin_lock_irq(l);
		raw_spin_unlock_irq(l);
	}
	free_tables(tabs);
	kvfree(drain_buf);
	drain_buf = NULL;
	free_orphans();
	free_index();
	mutex_unlock(&ptop_ts_pass_mutex);
}

static void act_linger_fn(struct work_struct *w)
{
	mutex_lock(&act_mutex);
	if (!act_readers && act_on)
		act_detach();
	mutex_unlock(&act_mutex);
}

/*
 * A reader comes (/proc/taskstats open, a netlink dump): tracking on. Its
 * failure only costs full walks.
 */
void ptop_ts_act_reader_get(void)
{
	int ret;

	mutex_lock(&act_mutex);
	cancel_delayed_work(&act_linger_work);
	act_readers++;
	if (!act_on) {
		ret = act_attach();
		if (ret)
			pr_warn_ratelimited("no activity tracking (%d): every answer walks all tasks\n",
					    ret);
	}
	mutex_unlock(&act_mutex);
}

/* ... and goes: tracking stays track_linger seconds for the next one. */
void ptop_ts_act_reader_put(void)
{
	mutex_lock(&act_mutex);
	if (!--act_readers && act_on) {
		if (ptop_ts_track_linger)
			schedule_delayed_work(&act_linger_work,
					      ptop_ts_track_linger * HZ);
		else
			act_detach();
	}
	mutex_unlock(&act_mutex);
}

void ptop_ts_act_exit(void)
{
	cancel_delayed_work_sync(&act_linger_work);
	mutex_lock(&act_mutex);
	if (act_on)
		act_detach();
	mutex_unlock(&act_mutex);
	kmem_cache_destroy(ent_cache);
}

void ptop_ts_act_counts(struct ptop_ts_act_counts *c)
{
	/* for the state file: a pass in progress need not be waited for */
	c->readers = READ_ONCE(act_readers);
	c->attached = READ_ONCE(act_on);
	c->entries = READ_ONCE(act_entries);
	c->full_walks = READ_ONCE(act_full_walks);
	c->inc_walks = READ_ONCE(act_inc_walks);
	c->lost = READ_ONCE(act_lost);
}

/* Pass lock held: what kind of walk the pass made. */
void ptop_ts_act_walked(bool full)
{
	if (full)
		act_full_walks++;
	else
		act_inc_walks++;
}
