// SPDX-License-Identifier: GPL-2.0
/*
 * steal_inject: a test module (tests/vm/test_kmod_steal_many.sh), never
 * part of ptop. qemu TCG gives the guest no steal clock: every CPU's
 * kcpustat steal stays 0, so ptop_taskstats' per-task steal is never
 * charged there. This module adds step_ns to the CPU's steal counter at
 * every context switch (a sched_switch probe: the CPU's own counter,
 * interrupts off, as the kernel's tick writes it), so that every task
 * switched out after that has steal to be charged, as on a busy host.
 */
#include <linux/kernel_stat.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static ulong step_ns = 1000;
module_param(step_ns, ulong, 0444);
MODULE_PARM_DESC(step_ns, "steal added to the CPU at every switch (ns)");

static struct tracepoint *switch_tp;

static void find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		switch_tp = tp;
}

static void probe_switch(void *data, bool preempt, struct task_struct *prev,
			 struct task_struct *next, unsigned int prev_state)
{
	kcpustat_this_cpu->cpustat[CPUTIME_STEAL] += step_ns;
}

static int __init steal_inject_init(void)
{
	for_each_kernel_tracepoint(find_tp, NULL);
	if (!switch_tp)
		return -ENOENT;
	return tracepoint_probe_register(switch_tp, probe_switch, NULL);
}

static void __exit steal_inject_exit(void)
{
	tracepoint_probe_unregister(switch_tp, probe_switch, NULL);
	tracepoint_synchronize_unregister();
}

module_init(steal_inject_init);
module_exit(steal_inject_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ptop test: fake steal time at every context switch");
