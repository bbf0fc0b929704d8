// SPDX-License-Identifier: GPL-2.0
/*
 * Per-task steal: while a reader asks for steal (listen.c), the
 * sched_switch probe (hooks.c) charges the CPU's steal delta since the
 * previous switch on that CPU to the task that is switched out (it was
 * the one on the CPU). The CPU's steal is the kernel's own kcpustat steal
 * counter, followed at every switch also while nobody asks (a per-CPU
 * read and write), so that counting starts without asking every CPU.
 *
 * The probe runs under the runqueue lock with interrupts off: no
 * allocation there. Per-thread values live in a table allocated when the
 * first steal listener comes and freed when the last goes (open
 * addressing with linear probing, key = the task, in shards of their own
 * raw spinlock: the probe touches the table under one only, so freeing
 * needs no grace period, and no probe comes or goes); a full shard drops
 * charges and counts them (steal_dropped in the state file). A removed
 * entry leaves no tombstone: the entries after it in its run move back
 * (remove_at()), so the table holds the threads that have an entry and
 * nothing else, however many came and went (tombstones, reused only
 * where a lookup met one, left new threads that met none without room
 * once 57,344 had come and gone: 7,414 charges dropped in 200,000). At a thread's exit its steal moves
 * to its group (x*), at the group's death with the group's T into the
 * fold target's c* (acct.c), as runtime does. A thread switched out
 * after its exit probe (exit_files() can sleep) gets an entry again,
 * which nobody would take: it goes when the task is freed (exits.c's
 * free probe), and a switch once the thread is a zombie (its last one)
 * charges nothing. Such entries filled the table after ~57,000 thread
 * exits, after which no thread was charged any more.
 *
 * A kernel without a steal clock (no CONFIG_PARAVIRT, or a guest whose
 * hypervisor gives none, e.g. qemu TCG: every CPU's steal is still 0) is
 * reported as such (PTOP_TS_ANSF_NO_STEAL_CLOCK) instead of zeros that
 * would look measured.
 */
#include <linux/cache.h>
#include <linux/hash.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "main.h"
#include "steal.h"

/*
 * The table is STEAL_SHARDS tables of SHARD_SLOTS, each with its own lock
 * and fill, chosen by the hash's high bits: two CPUs charging steal at
 * once take the same lock one time in STEAL_SHARDS, where one global
 * lock serialised every charge of the machine (a review's LOW,
 * docs/reliability.md). Same room as before: 57,344 entries, 3,584 a
 * shard.
 */
#define STEAL_BITS	16
#define SHARD_BITS	12
#define STEAL_SHARDS	(1U << (STEAL_BITS - SHARD_BITS))
#define SHARD_SLOTS	(1U << SHARD_BITS)
#define SHARD_MASK	(SHARD_SLOTS - 1)
#define STEAL_SLOTS	(1U << STEAL_BITS)
/* an eighth stays free: a lookup of a missing key ends soon at a free slot */
#define SHARD_MAX_USED	(SHARD_SLOTS - SHARD_SLOTS / 8)

/*
 * The key is the task itself: an entry lives from the task's first
 * charge to its exit probe or its free (never past it: the pointer cannot
 * be reused before). Not (pid, start time): a non-leader exec changes
 * those (de_thread() gives the exec'er the old leader's), and the entry
 * would be lost (test_kmod_steal_exec).
 */
struct steal_ent {
	const struct task_struct *task;	/* NULL: a free slot */
	u64 steal;
};

struct steal_shard {
	raw_spinlock_t lock;
	u32 used;			/* entries of this shard (lock) */
} ____cacheline_aligned_in_smp;

static struct steal_shard shards[STEAL_SHARDS];
/*
 * NULL: not counting. Published with release once the counts are reset;
 * cleared, then every shard's lock taken once, before it is freed.
 */
static struct steal_ent *table;
static DEFINE_PER_CPU(u64, last_steal);
static atomic_long_t steal_dropped = ATOMIC_LONG_INIT(0);
static atomic_long_t steal_switches = ATOMIC_LONG_INIT(0);

static u64 cpu_steal(int cpu)
{
	return kcpustat_cpu(cpu).cpustat[CPUTIME_STEAL];
}

bool ptop_ts_steal_clock(void)
{
	int cpu;

	if (!IS_ENABLED(CONFIG_PARAVIRT))
		return false;
	for_each_possible_cpu(cpu)
		if (cpu_steal(cpu))
			return true;
	return false;
}

static u32 key_hash(const struct task_struct *t)
{
	return hash_ptr((void *)t, STEAL_BITS);
}

/* the shard of hash h, its lock taken; its slots in *slots, or NULL */
static struct steal_shard *shard_lock(u32 h, struct steal_ent **slots,
				      unsigned long *flags)
	__acquires(shard)
{
	struct steal_shard *sh = &shards[h >> SHARD_BITS];
	struct steal_ent *tb;

	raw_spin_lock_irqsave(&sh->lock, *flags);
	/* with the used counts attach() reset before publishing it */
	tb = smp_load_acquire(&table);
	*slots = tb ? tb + (h >> SHARD_BITS) * SHARD_SLOTS : NULL;
	return sh;
}

static void shard_unlock(struct steal_shard *sh, unsigned long flags)
	__releases(shard)
{
	raw_spin_unlock_irqrestore(&sh->lock, flags);
}

/* in a shard, its lock held; insert: a new entry if none (NULL: full) */
static struct steal_ent *find(struct steal_shard *sh, struct steal_ent *slots,
			      const struct task_struct *t, u32 h, bool insert)
{
	u32 i = h & SHARD_MASK;
	struct steal_ent *e;

	/* never all used: the run from i ends at a free slot */
	for (;; i = (i + 1) & SHARD_MASK) {
		e = &slots[i];
		if (!e->task)
			break;
		if (e->task == t)
			return e;
	}
	if (!insert || sh->used >= SHARD_MAX_USED)
		return NULL;
	sh->used++;
	e->task = t;
	e->steal = 0;
	return e;
}

/*
 * Free slot i, then move back each later entry of its run that its own
 * lookup would no longer reach across the hole (linear probing's
 * deletion, Knuth's algorithm R): no tombstones. In a shard, its lock
 * held.
 */
static void remove_at(struct steal_shard *sh, struct steal_ent *slots, u32 i)
{
	u32 j = i, home;

	for (;;) {
		slots[i].task = NULL;
		for (;;) {
			j = (j + 1) & SHARD_MASK;
			if (!slots[j].task) {
				sh->used--;
				return;
			}
			home = key_hash(slots[j].task) & SHARD_MASK;
			/* j stays when its home lies cyclically in (i, j] */
			if (i <= j ? (i < home && home <= j) :
				     (i < home || home <= j))
				continue;
			break;
		}
		slots[i] = slots[j];
		i = j;
	}
}

/* sched_switch (hooks.c), interrupts off */
void ptop_ts_steal_switch(struct task_struct *prev)
{
	int cpu = smp_processor_id();
	u64 now = cpu_steal(cpu), d = now - __this_cpu_read(last_steal);
	struct steal_shard *sh;
	struct steal_ent *slots, *e;
	unsigned long flags;
	u32 h;

	__this_cpu_write(last_steal, now);
	/* a dead thread's last switch: its steal is in its EXIT record */
	if (!d || !prev->pid || prev->exit_state || !READ_ONCE(table))
		return;
	h = key_hash(prev);
	sh = shard_lock(h, &slots, &flags);
	if (slots) {
		e = find(sh, slots, prev, h, true);
		if (e)
			e->steal += d;
		else
			atomic_long_inc(&steal_dropped);
	}
	shard_unlock(sh, flags);
	atomic_long_inc(&steal_switches);
}

/* The thread's steal so far (0 when not measured); take: it leaves the table */
static u64 steal_read(struct task_struct *t, bool take)
{
	struct steal_shard *sh;
	struct steal_ent *slots, *e;
	unsigned long flags;
	u64 v = 0;
	u32 h;

	if (!READ_ONCE(table))
		return 0;
	h = key_hash(t);
	sh = shard_lock(h, &slots, &flags);
	if (slots) {
		e = find(sh, slots, t, h, false);
		if (e) {
			v = e->steal;
			if (take)
				remove_at(sh, slots, e - slots);
		}
	}
	shard_unlock(sh, flags);
	return v;
}

u64 ptop_ts_steal_of(struct task_struct *t)
{
	return steal_read(t, false);
}

/* A thread exits: its steal leaves the table (the caller keeps it). */
u64 ptop_ts_steal_take(struct task_struct *t)
{
	return steal_read(t, true);
}

/* A task is freed: what it was charged after its exit probe goes too. */
void ptop_ts_steal_forget(struct task_struct *t)
{
	steal_read(t, true);
}

bool ptop_ts_steal_attached(void)
{
	return READ_ONCE(table) != NULL;
}

/* Entries in the table now (the state file; 0 when not counting). */
long ptop_ts_steal_entries(void)
{
	long n = 0;
	u32 i;

	if (!READ_ONCE(table))
		return 0;
	for (i = 0; i < STEAL_SHARDS; i++)
		n += READ_ONCE(shards[i].used);
	return n;
}

/* At load, before the switch probe: every CPU's steal so far. */
void ptop_ts_steal_init(void)
{
	int cpu;
	u32 i;

	for (i = 0; i < STEAL_SHARDS; i++)
		raw_spin_lock_init(&shards[i].lock);
	for_each_possible_cpu(cpu)
		per_cpu(last_steal, cpu) = cpu_steal(cpu);
}

/*
 * listen.c, process context, listen_mutex held. last_steal follows every
 * switch: a CPU's first charge is the steal of the stretch of the task
 * switched out, as any other.
 */
int ptop_ts_steal_attach(void)
{
	struct steal_ent *t;
	u32 i;

	t = kvcalloc(STEAL_SLOTS, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	/* no charge touches a count while table is NULL (under its lock) */
	for (i = 0; i < STEAL_SHARDS; i++)
		WRITE_ONCE(shards[i].used, 0);
	/* the counts reset before the table is seen (shard_lock()) */
	smp_store_release(&table, t);
	atomic_long_add(STEAL_SLOTS * sizeof(*t), &ptop_ts_steal_bytes);
	return 0;
}

void ptop_ts_steal_detach(void)
{
	struct steal_ent *t = table;
	u32 i;

	WRITE_ONCE(table, NULL);
	/* a charge or read that saw the table is done once its lock was free */
	for (i = 0; i < STEAL_SHARDS; i++) {
		raw_spin_lock_irq(&shards[i].lock);
		raw_spin_unlock_irq(&shards[i].lock);
	}
	kvfree(t);
	atomic_long_sub(STEAL_SLOTS * sizeof(*t), &ptop_ts_steal_bytes);
}

long ptop_ts_steal_dropped(void)
{
	return atomic_long_read(&steal_dropped);
}

long ptop_ts_steal_switches(void)
{
	return atomic_long_read(&steal_switches);
}
