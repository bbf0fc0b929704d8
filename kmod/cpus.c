// SPDX-License-Identifier: GPL-2.0
/*
 * The CPUs' counters of an answer (idle, iowait, steal, irq, softirq),
 * and the instant a pass begins, as each CPU reads it itself in an IPI:
 * its sched_clock (the clock of its runqueue and its tasks' runtimes),
 * the time and its counters (docs/design.md, "One instant per pass").
 * nohz_full CPUs are not interrupted (that would break their isolation):
 * their tasks' times come from vtime (record.c, runtime_at_t0()), their
 * counters are read from here.
 *
 * Without IRQ_TIME_ACCOUNTING an interrupt on an idle CPU is in no
 * counter (the idle task has no row, the idle count stops at
 * irq_enter()): each CPU measures its idle task's runs (idle_switch())
 * and each instant turns what of them the idle count did not cover into
 * the answer's irq_ns, with PTOP_TS_ANSF_IDLE_IRQ (idle_busy_at()).
 *
 * Under the pass lock (seq.c); a CPU's idle runs are written on that CPU
 * with interrupts off.
 */
#include <linux/kernel_stat.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include "uapi/ptop_taskstats.h"
#include "pass_pending.h"
#include "pass_ran.h"
#include "test_window.h"
#include "cpus.h"

struct pass_cpu {
	u64 gen;		/* the pass that wrote it */
	u64 t0;			/* sched_clock_cpu() */
	u64 time_ns;		/* ktime_get_ns() */
	u64 boottime_ns;
	struct ptop_ts_cpu c;
	bool idle_irq;		/* c.irq_ns is the idle task's time outside idle */
};
static DEFINE_PER_CPU(struct pass_cpu, pass_cpu);
static u64 pass_gen;

/* The idle task's runs on one CPU, written on that CPU, irqs off. */
struct idle_run {
	u64 in;			/* the runqueue's clock it came on the CPU */
	u64 ran;		/* its runtime so far (since measured) */
	bool on;		/* on the CPU since in */
	u64 last_ran;		/* ran, the idle count, the clock at the last instant */
	u64 last_idle;
	u64 last_idle_ns;	/* the idle count alone, without iowait */
	u64 last_t0;
	u64 busy;		/* the counter: ran outside the idle count */
	u64 cut_idle;		/* the idle count beyond ran, left out of */
	u64 cut_iowait;		/* the answer's idle and iowait */
	bool started;		/* last_* are set */
};
static DEFINE_PER_CPU(struct idle_run, idle_run);

/*
 * Is the idle task's time outside idle measured (the answer's irq_ns)?
 * Not with IRQ_TIME_ACCOUNTING (irq time is then kept apart by the
 * kernel and the answer has that), not without the nohz idle count (a
 * tick-sampled idle count cannot be compared with a runtime), nor with
 * nohz_full CPUs (no instant there).
 */
static bool idle_irq_measured(void)
{
	return !IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING) &&
	       ptop_ts_runtimes_at_t0() && !tick_nohz_full_enabled();
}

/* a + (b - a) / 2 of two readings of a counter that only grows */
u64 ptop_ts_mid(u64 a, u64 b)
{
	return b >= a ? a + (b - a) / 2 : b;
}

/* false: the idle count is tick-sampled (no nohz idle accounting) */
static bool read_cpu(struct ptop_ts_cpu *v, int cpu)
{
	struct kernel_cpustat kcs;
	u64 us;
	bool nohz;

	memset(v, 0, sizeof(*v));	/* pad goes to user space too */
	kcpustat_cpu_fetch(&kcs, cpu);
	us = get_cpu_idle_time_us(cpu, NULL);
	nohz = us != (u64)-1;
	v->idle_ns = !nohz ? kcs.cpustat[CPUTIME_IDLE] : us * NSEC_PER_USEC;
	us = get_cpu_iowait_time_us(cpu, NULL);
	v->iowait_ns = us == (u64)-1 ? kcs.cpustat[CPUTIME_IOWAIT] :
					us * NSEC_PER_USEC;
	v->steal_ns = kcs.cpustat[CPUTIME_STEAL];
	v->irq_ns = kcs.cpustat[CPUTIME_IRQ];
	v->softirq_ns = kcs.cpustat[CPUTIME_SOFTIRQ];
	return nohz;
}

/*
 * t's runtime counter and the start of its run since that update
 * (exec_start, in its CPU's clock), untorn by an update (a tick, another
 * CPU) between the two reads. false: no matching pair, *start unusable.
 */
static bool runtime_untorn(struct task_struct *t, u64 *sum, u64 *start)
{
	u64 start2;
	int tries = 3;

	do {
		*start = READ_ONCE(t->se.exec_start);
		smp_rmb();	/* the runtime after the start it goes with */
		*sum = READ_ONCE(t->se.sum_exec_runtime);
		smp_rmb();	/* the start again: unchanged, they match */
		start2 = READ_ONCE(t->se.exec_start);
	} while (*start != start2 && --tries);
	return *start == start2;
}

/* v's idle and iowait less what idle_busy_at() cut from this CPU's */
static void idle_cut(const struct idle_run *ir, struct ptop_ts_cpu *v)
{
	v->idle_ns -= min(READ_ONCE(ir->cut_idle), v->idle_ns);
	v->iowait_ns -= min(READ_ONCE(ir->cut_iowait), v->iowait_ns);
}

/*
 * At this CPU's instant t0 (interrupts off): the idle task's run so far,
 * and in *busy the counter of what the idle count v did not cover, from
 * the CPU's first instant on. The idle count is in another clock than
 * the runs (ktime against the runqueue's): where it came out longer than
 * the idle task's run, that excess is cut from v's idle (then iowait),
 * so that busy + idle + iowait move with the run, and this CPU's rows +
 * idle + irq with its t0 to t0, whichever clock ran ahead: at once, not
 * carried into later intervals. Both counters only grow.
 */
static void idle_busy_at(u64 t0, struct ptop_ts_cpu *v, u64 *busy)
{
	struct idle_run *ir = this_cpu_ptr(&idle_run);
	u64 idle = v->idle_ns + v->iowait_ns;
	u64 cut, d_idle;
	s64 d;

	if (!current->pid) {
		if (ir->on && t0 > ir->in)
			ir->ran += t0 - ir->in;
		ir->in = t0;
		ir->on = true;	/* counted from here on */
	}
	if (ir->started) {
		d = (s64)(ir->ran - ir->last_ran) -
		    (s64)(idle - ir->last_idle);
		/* no more than the time between (a CPU offline meanwhile) */
		if (t0 > ir->last_t0 && d > (s64)(t0 - ir->last_t0))
			d = t0 - ir->last_t0;
		if (d > 0) {
			ir->busy += d;
		} else if (d < 0) {
			/* from this interval's idle first, the rest its iowait */
			d_idle = v->idle_ns > ir->last_idle_ns ?
				 v->idle_ns - ir->last_idle_ns : 0;
			cut = min_t(u64, -d, d_idle);
			ir->cut_idle += cut;
			ir->cut_iowait += -d - cut;
		}
	}
	ir->started = true;
	ir->last_ran = ir->ran;
	ir->last_idle = idle;
	ir->last_idle_ns = v->idle_ns;
	ir->last_t0 = t0;
	*busy = ir->busy;
	idle_cut(ir, v);
}

/*
 * sched_switch (hooks.c): the idle task's runs, in its runqueue's clock.
 * They end where the next task's runtime begins (its se.exec_start, set
 * to the runqueue's clock when it was picked, whatever its class) and
 * begin where the task before ended (its se.exec_start, the clock of its
 * last update, at put_prev): the same instants as the tasks' runtimes
 * (a sched_clock reading here comes later than both, and would count
 * the scheduler's own path twice).
 */
static void idle_switch(struct task_struct *prev, struct task_struct *next)
{
	struct idle_run *ir;
	u64 at;

	if (prev->pid && next->pid)
		return;
	ir = this_cpu_ptr(&idle_run);
	if (!prev->pid) {
		at = READ_ONCE(next->se.exec_start);
		if (ir->on && at > ir->in)
			ir->ran += at - ir->in;
		ir->on = false;
	} else {
		ir->in = READ_ONCE(prev->se.exec_start);
		ir->on = true;
	}
}

/*
 * This CPU's task at the instant t0, with its runtime then (pass_ran.c):
 * the counter plus its run since its last update; kept to be settled at
 * its switch when one is pending (pass_pending.c).
 */
static void note_current(u64 t0)
{
	struct task_struct *cur = current;
	u64 gen = READ_ONCE(pass_gen);
	u64 start, sum, low;
	int pending = -1;

	if (!cur->pid)
		return;		/* idle: no row */
	if (runtime_untorn(cur, &sum, &start) && t0 > start &&
	    t0 - start < NSEC_PER_SEC) {
		low = sum;
		sum += t0 - start;
		if (ptop_ts_pending_note(cur, gen, t0, low, sum))
			pending = smp_processor_id();
	}
	ptop_ts_ran_note(cur, gen, sum, pending);
}

/* a pass instant's clock pair: read again when wider (see below) */
#define PAIR_WIDE_NS	(50 * NSEC_PER_USEC)
#define PAIR_TRIES	5

/*
 * local: called on cpu itself with interrupts off (the IPI); otherwise in
 * process context for a nohz_full CPU, which is not disturbed: its clock
 * is not resynced and its current task not noted (vtime has it precise).
 */
static void read_pass_cpu_at(int cpu, bool local)
{
	struct pass_cpu *pc = per_cpu_ptr(&pass_cpu, cpu);
	u64 k1, k2, t0, wide = U64_MAX;
	int try;

	/*
	 * The tick's own resync first (a no-op on a stable clock): an
	 * unstable sched_clock stands still on a CPU whose ticks come late.
	 * The pair (t0, time) is one instant only if nothing came between
	 * its readings, and a stopped vCPU leaves it apart: the time is
	 * read before the resync too, and a pair wider than PAIR_WIDE_NS
	 * is read again, the narrowest kept (docs/design.md).
	 */
	for (try = 0; try < PAIR_TRIES && wide > PAIR_WIDE_NS; try++) {
		k1 = ktime_get_ns();
		if (local)
			sched_clock_idle_wakeup_event();
		t0 = sched_clock_cpu(cpu);
		ptop_ts_test_pair_stop(cpu, local, try, &pass_gen); /* tests */
		k2 = ktime_get_ns();
		ptop_ts_test_pair_log(cpu, k1, t0, k2, try, &pass_gen);
		if (k2 - k1 < wide) {
			wide = k2 - k1;
			pc->t0 = t0;
			pc->time_ns = k2;
		}
	}
	/* the same instant's boot time, not a third reading */
	pc->boottime_ns = ktime_to_ns(ktime_mono_to_any(ns_to_ktime(pc->time_ns),
							TK_OFFS_BOOT));
	pc->idle_irq = read_cpu(&pc->c, cpu) && local && idle_irq_measured();
	if (pc->idle_irq) {
		idle_busy_at(pc->t0, &pc->c, &pc->c.irq_ns);
		pc->c.softirq_ns = 0;
	}
	if (local)
		note_current(pc->t0);
	pc->gen = READ_ONCE(pass_gen);
}

static void read_pass_cpu(void *unused)
{
	read_pass_cpu_at(smp_processor_id(), true);
}

static bool pass_cpu_ipi(int cpu, void *unused)
{
	return !tick_nohz_full_cpu(cpu);
}

/*
 * The CPUs' counters; called before the walk (again = false) and after it
 * (again = true), which leaves the midpoint of the two readings: the
 * tasks are read during the walk, so the answer's clock and the CPUs'
 * counters are both taken as of the middle of it.
 */
void ptop_ts_cpus_read(struct ptop_ts_cpu *c, u32 n, bool again)
{
	struct ptop_ts_cpu v;
	u32 cpu;

	for (cpu = 0; cpu < n; cpu++, c++) {
		if (!cpu_possible(cpu))
			continue;
		read_cpu(&v, cpu);
		/*
		 * without the cut of its instants a CPU that misses one
		 * would hand its excess back (idle_busy_at())
		 */
		idle_cut(per_cpu_ptr(&idle_run, cpu), &v);
		if (again) {
			c->idle_ns = ptop_ts_mid(c->idle_ns, v.idle_ns);
			c->iowait_ns = ptop_ts_mid(c->iowait_ns, v.iowait_ns);
			c->steal_ns = ptop_ts_mid(c->steal_ns, v.steal_ns);
			c->irq_ns = ptop_ts_mid(c->irq_ns, v.irq_ns);
			c->softirq_ns = ptop_ts_mid(c->softirq_ns, v.softirq_ns);
		} else {
			*c = v;
		}
		c->online = cpu_online(cpu);
	}
}

/*
 * Each online CPU reads its instant (read_pass_cpu()); the answer's clock
 * is the mean of their times, so that the rows plus idle of all CPUs
 * cover ncpu times the interval. A CPU that did not answer keeps the
 * reading ptop_ts_cpus_read() made. Returns true when every online CPU
 * gave the idle task's time outside idle as its irq_ns (see above).
 */
bool ptop_ts_pass_instant(struct ptop_ts_cpu *cpus, u32 ncpu, u64 *t0,
			  u64 *b0)
{
	s64 sum_t = 0, sum_b = 0;	/* from the first CPU's: no overflow */
	u64 base_t = 0, base_b = 0, n = 0;
	bool idle_irq = true;
	u32 cpu;
	int c;

	WRITE_ONCE(pass_gen, pass_gen + 1);
	ptop_ts_ran_begin(pass_gen);
	on_each_cpu_cond(pass_cpu_ipi, read_pass_cpu, NULL, true);
	if (tick_nohz_full_enabled()) {
		for_each_online_cpu(c)
			if (tick_nohz_full_cpu(c))
				read_pass_cpu_at(c, false);
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		const struct pass_cpu *pc;

		if (!cpu_possible(cpu))
			continue;
		pc = per_cpu_ptr(&pass_cpu, cpu);
		if (pc->gen != pass_gen) {
			if (cpu_online(cpu))
				idle_irq = false;
			continue;
		}
		idle_irq &= pc->idle_irq;
		cpus[cpu] = pc->c;
		cpus[cpu].online = true;
		if (!n++) {
			base_t = pc->time_ns;
			base_b = pc->boottime_ns;
		}
		sum_t += (s64)(pc->time_ns - base_t);
		sum_b += (s64)(pc->boottime_ns - base_b);
	}
	if (n) {
		*t0 = base_t + div64_s64(sum_t, n);
		*b0 = base_b + div64_s64(sum_b, n);
	}
	return n && idle_irq;
}

/* The generation of the latest pass instant. */
u64 ptop_ts_pass_gen(void)
{
	return READ_ONCE(pass_gen);
}

/*
 * The generation of the latest pass instant this CPU has read (irqs or
 * preemption off): a moment on this CPU is before the instant of every
 * pass of a later generation (acct_exit.c, a group's exit report).
 */
u64 ptop_ts_cpu_instant_gen(void)
{
	return READ_ONCE(this_cpu_ptr(&pass_cpu)->gen);
}

/*
 * For the exit probe of p, current on this CPU (preemption off): how long
 * p has run since this CPU's instant of the latest pass, and that pass's
 * generation in *gen (0 with 0: this CPU has not read that instant yet,
 * so p's whole run is before it). p runs without a break since its last
 * arrival; earlier stretches after the instant are not counted (rare, as
 * in record.c's runtime_at_t0()).
 */
u64 ptop_ts_after_pass_t0(struct task_struct *p, u64 *gen)
{
	struct pass_cpu *pc = this_cpu_ptr(&pass_cpu);
	u64 now, from, sum, at;
	bool untorn;

	*gen = 0;
	if (!ptop_ts_runtimes_at_t0() || tick_nohz_full_cpu(smp_processor_id()))
		return 0;
	if (READ_ONCE(pc->gen) != READ_ONCE(pass_gen))
		return 0;
	*gen = pc->gen;
	now = sched_clock_cpu(smp_processor_id());
	/* noted at the instant or when it came on a CPU since: all of it */
	/* a tick may update both in between: read them as a pair */
	untorn = runtime_untorn(p, &sum, &from);
	smp_rmb();	/* the counter before the look-up (pass_ran.c) */
	if (ptop_ts_ran_lookup(p, *gen, &at) == PTOP_TS_RAN_AT) {
		if (untorn && now > from && now - from < NSEC_PER_SEC)
			sum += now - from;
		return sum > at ? sum - at : 0;
	}
	from = max(pc->t0, READ_ONCE(p->sched_info.last_arrival));
	return now > from && now - from < NSEC_PER_SEC ? now - from : 0;
}

/* sched_switch (hooks.c): next begins a stretch on this CPU */
void ptop_ts_pass_switch(struct task_struct *prev, struct task_struct *next)
{
	idle_switch(prev, next);
	ptop_ts_ran_switch(prev, next, READ_ONCE(this_cpu_ptr(&pass_cpu)->gen));
}

/* cpu's sched_clock at this pass's instant; false: it did not read one */
bool ptop_ts_pass_t0(int cpu, u64 *t0)
{
	if (per_cpu(pass_cpu, cpu).gen != pass_gen)
		return false;	/* came online during the pass */
	*t0 = per_cpu(pass_cpu, cpu).t0;
	return true;
}
