/* SPDX-License-Identifier: GPL-2.0 */
/* The CPUs' counters of an answer, and the instant a pass begins. */
#ifndef _PTOP_TS_CPUS_H
#define _PTOP_TS_CPUS_H

#include <linux/types.h>

struct ptop_ts_cpu;
struct task_struct;

/*
 * Can a walk read runtimes as of the pass instant? Not when irq or steal
 * time is taken out of the runqueue's clock (exec_start is then in
 * another clock than the instant's), nor without sched_info.
 */
static inline bool ptop_ts_runtimes_at_t0(void)
{
	return !IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING) &&
	       !IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING) &&
	       IS_ENABLED(CONFIG_SCHED_INFO);
}

u64 ptop_ts_mid(u64 a, u64 b);
void ptop_ts_cpus_read(struct ptop_ts_cpu *c, u32 n, bool again);
bool ptop_ts_pass_instant(struct ptop_ts_cpu *cpus, u32 ncpu, u64 *t0,
			  u64 *b0);
bool ptop_ts_pass_t0(int cpu, u64 *t0);
u64 ptop_ts_pass_gen(void);
u64 ptop_ts_cpu_instant_gen(void);
u64 ptop_ts_after_pass_t0(struct task_struct *p, u64 *gen);
void ptop_ts_pass_switch(struct task_struct *prev, struct task_struct *next);

#endif /* _PTOP_TS_CPUS_H */
