/* SPDX-License-Identifier: GPL-2.0 */
/* Marks for the children an exiting thread hands on to a new parent. */
#ifndef _PTOP_TS_ACTIVITY_ORPHANS_H
#define _PTOP_TS_ACTIVITY_ORPHANS_H

#include <linux/types.h>

struct task_struct;

void ptop_ts_act_exit_children(struct task_struct *p, bool group_dead);
bool ptop_ts_orphans_drain(u64 pass);
void ptop_ts_orphans_free(void);

#endif /* _PTOP_TS_ACTIVITY_ORPHANS_H */
