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
#include <linux/kernel.h>
#include <linux/sched.h>
#include "activity_marks.h"
#include "cpus.h"
#include "events.h"
#include "hooks.h"
#include "probe.h"
#include "steal.h"

/* under the runqueue lock, interrupts off */
static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	ptop_ts_act_switch(prev, next);
	ptop_ts_steal_switch(prev);
	ptop_ts_pass_switch(next);
}

static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	ptop_ts_events_exec(p, old_pid);
}

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
}
