/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a dead group's real children go (reaper.c): the kernel's reaper
 * for them, and the records of the children a reaper took in.
 */
#ifndef _PTOP_TS_REAPER_H
#define _PTOP_TS_REAPER_H

#include <linux/types.h>

struct ptop_acct;
struct task_struct;

/* under RCU */
bool ptop_ts_has_children(struct task_struct *father);
struct task_struct *ptop_ts_new_reaper(struct task_struct *father);
/* under ptop_acct_lock */
void ptop_acct_move_children(struct ptop_acct *a, struct ptop_acct *to,
			     struct ptop_acct *r);
void ptop_acct_unfoster(struct ptop_acct *a);

#endif /* _PTOP_TS_REAPER_H */
