// SPDX-License-Identifier: GPL-2.0
/*
 * The sched_switch and sched_process_exec probes, attached once at load
 * and detached at unload, like the exit, fork and free probes (exits.c).
 *
 * They used to come and go with their users (a reader for activity.c's
 * marks, a steal listener for steal.c, an events listener for events.c).
 * Attaching or detaching a tracepoint probe rewrites kernel text while
 * the other CPUs run it (the tracepoint's static key and static call:
 * text_poke_bp() with int3 and an IPI to every CPU): each reader or
 * listener that came or went cost every CPU, a nohz_full one included,
 * those IPIs, and under qemu's multi-threaded TCG a guest kernel's own
 * text patching sometimes oopses ("Oops: int3" at a patched site, seen on
 * 6.12 with no module loaded too). Attached for good, a probe nobody uses
 * costs a call and a flag test per switch or exec; its users switch their
 * part on and off with data only.
 */
#include <linux/binfmts.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include "ptop_ts.h"

static struct tracepoint *tp_switch, *tp_exec;

/* under the runqueue lock, interrupts off */
static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	ptop_ts_act_switch(prev, next);
	ptop_ts_steal_switch(prev);
}

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	ptop_ts_events_exec(p, old_pid);
}

int ptop_ts_hooks_attach(void)
{
	int ret;

	tp_switch = ptop_ts_find_tracepoint("sched_switch");
	tp_exec = ptop_ts_find_tracepoint("sched_process_exec");
	if (!tp_switch || !tp_exec)
		return -ENOENT;
	ptop_ts_steal_init();
	ret = tracepoint_probe_register(tp_switch, probe_switch, NULL);
	if (ret) {
		pr_err("cannot attach to sched_switch: %d\n", ret);
		return ret;
	}
	ret = tracepoint_probe_register(tp_exec, probe_exec, NULL);
	if (ret) {
		pr_err("cannot attach to sched_process_exec: %d\n", ret);
		tracepoint_probe_unregister(tp_switch, probe_switch, NULL);
		tracepoint_synchronize_unregister();
		return ret;
	}
	/* what runs on each CPU now, until it switches: one IPI, at load */
	ptop_ts_act_curr_init();
	return 0;
}

void ptop_ts_hooks_detach(void)
{
	tracepoint_probe_unregister(tp_exec, probe_exec, NULL);
	tracepoint_probe_unregister(tp_switch, probe_switch, NULL);
	tracepoint_synchronize_unregister();
}
