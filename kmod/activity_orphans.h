/* SPDX-License-Identifier: GPL-2.0 */
/* Marks for the children an exiting thread hands on to a new parent. */
#ifndef _PTOP_TS_ACTIVITY_ORPHANS_H
#define _PTOP_TS_ACTIVITY_ORPHANS_H

#include <linux/types.h>

struct task_struct;

/* Entries kept at most, and their bytes (each pins its father too). */
#define PTOP_TS_ORPHANS_MAX		1024
#define PTOP_TS_ORPHAN_BYTES_MAX	(256 << 10)

void ptop_ts_act_exit_children(struct task_struct *p, bool group_dead);
bool ptop_ts_orphans_drain(u64 pass);
void ptop_ts_orphans_free(void);
void ptop_ts_orphans_counts(u32 *n, size_t *bytes, u64 *capped);

#endif /* _PTOP_TS_ACTIVITY_ORPHANS_H */
