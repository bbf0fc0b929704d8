/* SPDX-License-Identifier: GPL-2.0 */
/* The threads of one group in a walk: their records, a big group's sum. */
#ifndef _PTOP_TS_WALK_THREADS_H
#define _PTOP_TS_WALK_THREADS_H

#include <linux/compiler.h>
#include <linux/types.h>

struct ptop_gone;
struct ptop_ts_record;
struct ptop_ts_walk;
struct task_struct;

int ptop_ts_walk_threads(struct ptop_ts_walk *w, struct task_struct *leader,
			 struct ptop_ts_record **lrec, bool *truncated)
	__must_hold(RCU);
int ptop_ts_group_sum_chunked(struct ptop_ts_walk *w,
			      struct task_struct *leader,
			      struct ptop_ts_record *r, struct ptop_gone *gone,
			      u32 *n)
	__must_hold(RCU);
void ptop_ts_add_execer(struct ptop_ts_walk *w, struct task_struct *leader,
			u32 first, const struct ptop_ts_record *g,
			bool *truncated);

#endif /* _PTOP_TS_WALK_THREADS_H */
