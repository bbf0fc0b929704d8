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
 * addressing with linear probing, key = global pid + start time, raw
 * spinlock: the probe touches the table under it only, so freeing needs
 * no grace period, and no probe comes or goes); a full table drops
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
#include <linux/hash.h>
#include <linux/kernel_stat.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "main.h"
#include "steal.h"

#define STEAL_BITS	16
#define STEAL_SLOTS	(1U << STEAL_BITS)
#define STEAL_MASK	(STEAL_SLOTS - 1)
/* an eighth stays free: a lookup of a missing key ends soon at a free slot */
#define STEAL_MAX_USED	(STEAL_SLOTS - STEAL_SLOTS / 8)

struct steal_ent {
	u64 start_ns;
	u64 steal;
	u32 pid;			/* global; 0: a free slot */
	u32 pad;
};

static DEFINE_RAW_SPINLOCK(steal_lock);
static struct steal_ent *table;		/* NULL: not counting (steal_lock) */
static u32 used;
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

static u32 home_slot(u32 pid, u64 start)
{
	return hash_32(pid ^ (u32)start, STEAL_BITS);
}

/* under steal_lock; insert: a new entry if there is none (NULL: full) */
static struct steal_ent *find(u32 pid, u64 start, bool insert)
{
	u32 i = home_slot(pid, start);
	struct steal_ent *e;

	/* never all used: the run from i ends at a free slot */
	for (;; i = (i + 1) & STEAL_MASK) {
		e = &table[i];
		if (!e->pid)
			break;
		if (e->pid == pid && e->start_ns == start)
			return e;
	}
	if (!insert || used >= STEAL_MAX_USED)
		return NULL;
	used++;
	e->pid = pid;
	e->start_ns = start;
	e->steal = 0;
	return e;
}

/*
 * Free slot i, then move back each later entry of its run that its own
 * lookup would no longer reach across the hole (linear probing's
 * deletion, Knuth's algorithm R): no tombstones. Under steal_lock.
 */
static void remove_at(u32 i)
{
	u32 j = i, home;

	for (;;) {
		table[i].pid = 0;
		for (;;) {
			j = (j + 1) & STEAL_MASK;
			if (!table[j].pid) {
				used--;
				return;
			}
			home = home_slot(table[j].pid, table[j].start_ns);
			/* j stays when its home lies cyclically in (i, j] */
			if (i <= j ? (i < home && home <= j) :
				     (i < home || home <= j))
				continue;
			break;
		}
		table[i] = table[j];
		i = j;
	}
}

/* sched_switch (hooks.c), interrupts off */
void ptop_ts_steal_switch(struct task_struct *prev)
{
	int cpu = smp_processor_id();
	u64 now = cpu_steal(cpu), d = now - __this_cpu_read(last_steal);
	struct steal_ent *e;
	unsigned long flags;

	__this_cpu_write(last_steal, now);
	/* a dead thread's last switch: its steal is in its EXIT record */
	if (!d || !prev->pid || prev->exit_state || !READ_ONCE(table))
		return;
	raw_spin_lock_irqsave(&steal_lock, flags);
	if (table) {
		e = find(task_pid_nr(prev), prev->start_boottime, true);
		if (e)
			e->steal += d;
		else
			atomic_long_inc(&steal_dropped);
	}
	raw_spin_unlock_irqrestore(&steal_lock, flags);
	atomic_long_inc(&steal_switches);
}

/* The thread's steal so far (0 when not measured); take: it leaves the table */
static u64 steal_read(struct task_struct *t, bool take)
{
	struct steal_ent *e;
	unsigned long flags;
	u64 v = 0;

	if (!READ_ONCE(table))
		return 0;
	raw_spin_lock_irqsave(&steal_lock, flags);
	if (table) {
		e = find(task_pid_nr(t), t->start_boottime, false);
		if (e) {
			v = e->steal;
			if (take)
				remove_at(e - table);
		}
	}
	raw_spin_unlock_irqrestore(&steal_lock, flags);
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

/* At load, before the switch probe: every CPU's steal so far. */
void ptop_ts_steal_init(void)
{
	int cpu;

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

	t = kvcalloc(STEAL_SLOTS, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	raw_spin_lock_irq(&steal_lock);
	table = t;
	used = 0;
	raw_spin_unlock_irq(&steal_lock);
	atomic_long_add(STEAL_SLOTS * sizeof(*t), &ptop_ts_steal_bytes);
	return 0;
}

void ptop_ts_steal_detach(void)
{
	struct steal_ent *t;

	raw_spin_lock_irq(&steal_lock);
	t = table;
	table = NULL;
	raw_spin_unlock_irq(&steal_lock);
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
