/* SPDX-License-Identifier: GPL-2.0 */
/* A CPU's task at its pass instant with a switch pending (pass_pending.c). */
#ifndef _PTOP_TS_PASS_PENDING_H
#define _PTOP_TS_PASS_PENDING_H

#include <linux/types.h>

struct task_struct;

bool ptop_ts_pending_note(struct task_struct *t, u64 gen, u64 t0, u64 low,
			  u64 high);
void ptop_ts_pending_switch(struct task_struct *prev);
u64 ptop_ts_pending_settle(const struct task_struct *t, u64 gen, int cpu,
			   u64 high);
void ptop_ts_pending_counts(long *noted, long *waited, long *unsettled);

#endif /* _PTOP_TS_PASS_PENDING_H */
