// SPDX-License-Identifier: GPL-2.0
/*
 * The sched_switch and sched_process_exec probes, attached once at load
 * and detached at unload, like the exit, fork and free probes (exits.c).
 *
 * They used to come and go with their users (a reader for the activity
 * marks, a steal listener for steal.c, an events listener for events.c).
 * Attaching or detaching a tracepoint probe rewrites kernel text while
 * the other CPUs run it (the tracepoint's static key and static call:
 * text_poke_bp() with int3 and IPIs to every CPU): each reader or
 * listener that came or went cost every CPU, a nohz_full one included,
 * those IPIs, and under qemu's multi-threaded TCG a 6.12 guest's text
 * patching sometimes oopses ("Oops: int3" at the patched site, also with
 * no module loaded). Attached for good, a probe nobody uses costs a call,
 * a per-CPU lock and a flag test per switch, a flag test per exec; its
 * users switch their part on and off with data only.
 */
#include <linux/binfmts.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include "activity_marks.h"
#include "cpus.h"
#include "events.h"
#include "hooks.h"
#include "probe.h"
#include "steal.h"

/*
 * probe_timing=1: each switch also adds the time the probe's body took
 * (local_clock() before and after) to its CPU's count, for
 * bench/probe_cost.sh (the state file's switch_probe_* lines). Off, it
 * costs the switch one flag test; a static key would not, but switching
 * it patches kernel text (see above).
 */
static bool probe_timing;
module_param(probe_timing, bool, 0644);
MODULE_PARM_DESC(probe_timing,
		 "Bench: count the ns the sched_switch probe takes (state file)");

struct switch_time {
	u64 calls;
	u64 ns;
};
static DEFINE_PER_CPU(struct switch_time, switch_time);

static void switch_body(struct task_struct *prev, struct task_struct *next)
{
	ptop_ts_act_switch(prev, next);
	ptop_ts_steal_switch(prev);
	ptop_ts_pass_switch(prev, next);
}

/* under the runqueue lock, interrupts off */
static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	struct switch_time *st;
	u64 t0;

	if (likely(!READ_ONCE(probe_timing))) {
		switch_body(prev, next);
		return;
	}
	t0 = local_clock();
	switch_body(prev, next);
	st = this_cpu_ptr(&switch_time);
	st->ns += local_clock() - t0;
	st->calls++;
}

/*
 * The timed switches so far (every CPU), and what an empty timing costs:
 * the mean of 256 back-to-back local_clock() pairs, interrupts off (it
 * is in each timed switch's ns: subtract it; the least is often 0 under
 * qemu TCG); 0 while timing is off, so that reading the state file costs
 * nothing more then.
 */
void ptop_ts_hooks_switch_time(u64 *calls, u64 *ns, u64 *clock_ns)
{
	unsigned long flags;
	u64 t0, sum = 0;
	int cpu, i;

	*calls = 0;
	*ns = 0;
	for_each_possible_cpu(cpu) {
		*calls += READ_ONCE(per_cpu(switch_time, cpu).calls);
		*ns += READ_ONCE(per_cpu(switch_time, cpu).ns);
	}
	*clock_ns = 0;
	if (!READ_ONCE(probe_timing))
		return;
	local_irq_save(flags);
	for (i = 0; i < 256; i++) {
		t0 = local_clock();
		sum += local_clock() - t0;
	}
	local_irq_restore(flags);
	*clock_ns = sum / 256;
}

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	ptop_ts_events_exec(p, old_pid);
}

#ifdef PTOP_TS_TEST_UNLOAD_WINDOW
/*
 * Test builds only (make vm-unload-window): a second after the switch
 * probe went at unload, for tests/vm/test_kmod_unload_race.sh's reader
 * to run passes in if it still can; activity_marks.c then warns when a
 * pass reads a CPU's task (kept by that probe: it may be freed by now).
 */
static void unload_window(void)
{
	ptop_ts_act_test_switch_gone();
	pr_info("test build: unload window\n");
	msleep(1000);
}
#else
static inline void unload_window(void) { }
#endif

static struct ptop_ts_probe hooks[] = {
	PTOP_TS_PROBE("sched_switch", probe_switch),
	PTOP_TS_PROBE("sched_process_exec", probe_exec),
};

int ptop_ts_hooks_attach(void)
{
	int ret;

	ptop_ts_act_here_init();
	ptop_ts_steal_init();
	ret = ptop_ts_probes_attach(hooks, ARRAY_SIZE(hooks));
	if (ret)
		return ret;
	/* what runs on each CPU now, until it switches: one IPI, at load */
	ptop_ts_act_curr_init();
	return 0;
}

void ptop_ts_hooks_detach(void)
{
	ptop_ts_probes_detach(hooks, ARRAY_SIZE(hooks));
	unload_window();	/* test builds only */
	/* each CPU's task may go now: nothing may read it any more */
	ptop_ts_act_curr_clear();
}
