/* SPDX-License-Identifier: GPL-2.0 */
/* Per-task steal from a sched_switch probe. */
#ifndef _PTOP_TS_STEAL_H
#define _PTOP_TS_STEAL_H

#include <linux/types.h>

struct task_struct;

bool ptop_ts_steal_clock(void);
bool ptop_ts_steal_attached(void);
void ptop_ts_steal_init(void);
void ptop_ts_steal_switch(struct task_struct *prev);
int ptop_ts_steal_attach(void);
void ptop_ts_steal_detach(void);
u64 ptop_ts_steal_of(struct task_struct *t);
u64 ptop_ts_steal_take(struct task_struct *t);
void ptop_ts_steal_forget(struct task_struct *t);
long ptop_ts_steal_dropped(void);
long ptop_ts_steal_entries(void);
long ptop_ts_steal_switches(void);

#endif /* _PTOP_TS_STEAL_H */
