// SPDX-License-Identifier: GPL-2.0
/*
 * Marks: the tasks that changed since the last drain, per CPU (see
 * activity.c for which events mark a task and why none is missed). A
 * mark goes into a small per-CPU table (deduplicated, under a per-CPU raw
 * spinlock that only that CPU's probes and the drain take). The tables
 * exist while tracking is on (activity.c); the sched_switch probe (hooks.c)
 * stays attached from load to unload and, while tracking is off, only
 * notes each CPU's task (act_here), so that tracking starts without
 * asking every CPU; the other marks come from the fork and exit probes
 * (exits.c) and from acct_exit.c's folds. The tables are reached with
 * interrupts off under their CPU's act_here.lock, and freed once every
 * CPU's lock was taken after act_cpus went NULL.
 */
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include "activity_marks.h"

#define ACT_PROBE	32		/* slots tried for one mark */

/* A CPU's marks between drains; under that CPU's act_here.lock. */
struct act_cpu {
	u32 tag;
	u32 n;
	bool lost;
	u16 order[PTOP_TS_MARK_SLOTS];
	struct ptop_ts_mark slot[PTOP_TS_MARK_SLOTS];
};

/*
 * Each CPU's task, kept by the switch probe for the module's life. The
 * lock (raw, taken with interrupts off) also guards the CPU's act_cpu and
 * its reading of act_cpus.
 */
struct act_here {
	raw_spinlock_t lock;
	struct task_struct *curr;	/* on this CPU (valid under lock) */
};
static DEFINE_PER_CPU(struct act_here, act_here);

static struct act_cpu **act_cpus;	/* NULL: tracking off */

#ifdef PTOP_TS_TEST_UNLOAD_WINDOW
/* Test builds only: hooks.c's unload window; a CPU's task read after it. */
static bool test_switch_gone;

void ptop_ts_act_test_switch_gone(void)
{
	WRITE_ONCE(test_switch_gone, true);
}

static void test_curr_read(const struct task_struct *c)
{
	WARN_ONCE(c && READ_ONCE(test_switch_gone),
		  "test build: a CPU's task read after the switch probe went\n");
}
#else
static inline void test_curr_read(const struct task_struct *c) { }
#endif

bool ptop_ts_marks_on(void)
{
	return READ_ONCE(act_cpus) != NULL;
}

static void mark_locked(struct act_cpu *ac, u32 pid, u32 tgid, u64 start,
			bool group)
{
	u32 i = ptop_ts_mark_hash(pid, start), n;

	for (n = 0; n < ACT_PROBE; n++, i++) {
		struct ptop_ts_mark *m = &ac->slot[i % PTOP_TS_MARK_SLOTS];

		if (m->tag != ac->tag) {
			if (ac->n >= PTOP_TS_MARK_SLOTS)
				break;
			m->tag = ac->tag;
			m->pid = pid;
			m->tgid = tgid;
			m->start = start;
			m->group = group;
			ac->order[ac->n++] = i % PTOP_TS_MARK_SLOTS;
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

/* At load, before the switch probe is attached. */
void ptop_ts_act_here_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu(act_here, cpu).lock);
}

/* At load, once the switch probe is attached: each CPU's task now. */
void ptop_ts_act_curr_init(void)
{
	on_each_cpu(set_curr, NULL, 1);
}

/* At unload, once the switch probe is detached (and synchronized). */
void ptop_ts_act_curr_clear(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct act_here *h = per_cpu_ptr(&act_here, cpu);

		raw_spin_lock_irq(&h->lock);
		h->curr = NULL;
		raw_spin_unlock_irq(&h->lock);
	}
}

static void free_tables(struct act_cpu **tabs)
{
	int cpu;

	if (!tabs)
		return;
	for_each_possible_cpu(cpu)
		kvfree(tabs[cpu]);
	kfree(tabs);
}

/* The tables; pass lock held (activity.c). 0 or -errno. */
int ptop_ts_marks_start(void)
{
	struct act_cpu **tabs;
	int cpu;

	tabs = kcalloc(nr_cpu_ids, sizeof(*tabs), GFP_KERNEL_ACCOUNT);
	if (!tabs)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		tabs[cpu] = kvzalloc_node(sizeof(**tabs), GFP_KERNEL_ACCOUNT,
					  cpu_to_node(cpu));
		if (!tabs[cpu]) {
			free_tables(tabs);
			return -ENOMEM;
		}
		tabs[cpu]->tag = 1;
	}
	/* act_here knows each CPU's task: no CPU needs asking */
	WRITE_ONCE(act_cpus, tabs);
	return 0;
}

/* The tables go; pass lock held. */
void ptop_ts_marks_stop(void)
{
	struct act_cpu **tabs = act_cpus;
	int cpu;

	WRITE_ONCE(act_cpus, NULL);
	/* the probe and marks read act_cpus under their CPU's lock */
	for_each_possible_cpu(cpu) {
		raw_spinlock_t *l = &per_cpu(act_here, cpu).lock;

		raw_spin_lock_irq(l);
		raw_spin_unlock_irq(l);
	}
	free_tables(tabs);
}

/*
 * cpu's marks since the last take into buf (room for PTOP_TS_MARK_SLOTS +
 * 1), with the task on that CPU now; its table starts empty again. *lost:
 * a mark could not be kept since. Returns how many. Pass lock held.
 */
u32 ptop_ts_marks_take(int cpu, struct ptop_ts_mark *buf, bool *lost)
{
	struct act_here *h = per_cpu_ptr(&act_here, cpu);
	struct act_cpu *ac = act_cpus[cpu];
	struct task_struct *c;
	u32 i, n;

	raw_spin_lock_irq(&h->lock);
	for (i = 0; i < ac->n; i++)
		buf[i] = ac->slot[ac->order[i]];
	n = ac->n;
	c = h->curr;
	test_curr_read(c);	/* test builds only */
	if (c && c->pid) {	/* alive: it cannot switch out now */
		buf[n].pid = c->pid;
		buf[n].tgid = c->tgid;
		buf[n].start = c->start_boottime;
		buf[n].group = false;
		n++;
	}
	*lost = ac->lost;
	ac->lost = false;
	ac->n = 0;
	if (!++ac->tag)
		ac->tag = 1;
	raw_spin_unlock_irq(&h->lock);
	return n;
}
