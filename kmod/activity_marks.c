// SPDX-License-Identifier: GPL-2.0
/*
 * Marks: the tasks that changed since the last drain, per CPU (see
 * activity.c for which events mark a task and why none is missed). A
 * mark goes into a small per-CPU table (deduplicated, under a per-CPU raw
 * spinlock that only that CPU's probes and the drain take). The tables
 * and the sched_switch probe exist while tracking is on (activity.c); the
 * other marks come from the fork and exit probes (exits.c) and from
 * acct_exit.c's folds. The tables are reached from probes with interrupts
 * off and freed after the probe is synchronized.
 */
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include "probe.h"
#include "activity_marks.h"

#define ACT_PROBE	32		/* slots tried for one mark */

struct act_cpu {
	raw_spinlock_t lock;
	u32 tag;
	u32 n;
	bool lost;
	struct task_struct *curr;	/* on this CPU (valid under lock) */
	u16 order[PTOP_TS_MARK_SLOTS];
	struct ptop_ts_mark slot[PTOP_TS_MARK_SLOTS];
};

static struct act_cpu **act_cpus;	/* NULL: tracking off */

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
	unsigned long flags;

	local_irq_save(flags);
	tabs = READ_ONCE(act_cpus);
	if (tabs) {
		struct act_cpu *ac = tabs[smp_processor_id()];

		raw_spin_lock(&ac->lock);
		mark_locked(ac, pid, tgid, start, group);
		raw_spin_unlock(&ac->lock);
	}
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
 * sched_switch, under the runqueue lock with interrupts off, after the
 * scheduler brought prev's runtime up to date.
 */
static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct act_cpu **tabs = READ_ONCE(act_cpus);
	struct act_cpu *ac;

	if (unlikely(!tabs))
		return;		/* being detached */
	ac = tabs[smp_processor_id()];
	raw_spin_lock(&ac->lock);
	if (prev->pid)
		mark_locked(ac, prev->pid, prev->tgid, prev->start_boottime,
			    false);
	ac->curr = next;
	raw_spin_unlock(&ac->lock);
}

static void set_curr(void *unused)
{
	struct act_cpu *ac = act_cpus[smp_processor_id()];

	raw_spin_lock(&ac->lock);
	ac->curr = current;
	raw_spin_unlock(&ac->lock);
}

static struct ptop_ts_probe switch_probe =
	PTOP_TS_PROBE("sched_switch", probe_switch);

static void free_tables(struct act_cpu **tabs)
{
	int cpu;

	if (!tabs)
		return;
	for_each_possible_cpu(cpu)
		kvfree(tabs[cpu]);
	kfree(tabs);
}

/* Tables and probe; pass lock held (activity.c). 0 or -errno. */
int ptop_ts_marks_start(void)
{
	struct act_cpu **tabs;
	int cpu, ret;

	tabs = kcalloc(nr_cpu_ids, sizeof(*tabs), GFP_KERNEL);
	if (!tabs)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		tabs[cpu] = kvzalloc_node(sizeof(**tabs), GFP_KERNEL,
					  cpu_to_node(cpu));
		if (!tabs[cpu]) {
			free_tables(tabs);
			return -ENOMEM;
		}
		raw_spin_lock_init(&tabs[cpu]->lock);
		tabs[cpu]->tag = 1;
	}
	WRITE_ONCE(act_cpus, tabs);
	ret = ptop_ts_probes_attach(&switch_probe, 1);
	if (ret) {
		WRITE_ONCE(act_cpus, NULL);
		synchronize_rcu();
		free_tables(tabs);
		return ret;
	}
	/* what runs now, until its CPU switches: one IPI, at attach only */
	on_each_cpu(set_curr, NULL, 1);
	return 0;
}

/* The probe goes, then the tables; pass lock held. */
void ptop_ts_marks_stop(void)
{
	struct act_cpu **tabs = act_cpus;

	WRITE_ONCE(act_cpus, NULL);
	/* probes and markers run with interrupts or preemption off */
	ptop_ts_probes_detach(&switch_probe, 1);
	free_tables(tabs);
}

/*
 * cpu's marks since the last take into buf (room for PTOP_TS_MARK_SLOTS +
 * 1), with the task on that CPU now; its table starts empty again. *lost:
 * a mark could not be kept since. Returns how many. Pass lock held.
 */
u32 ptop_ts_marks_take(int cpu, struct ptop_ts_mark *buf, bool *lost)
{
	struct act_cpu *ac = act_cpus[cpu];
	struct task_struct *c;
	u32 i, n;

	raw_spin_lock_irq(&ac->lock);
	for (i = 0; i < ac->n; i++)
		buf[i] = ac->slot[ac->order[i]];
	n = ac->n;
	c = ac->curr;
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
	raw_spin_unlock_irq(&ac->lock);
	return n;
}
