/* SPDX-License-Identifier: GPL-2.0 */
/* The groups of a pass: all of the namespace, or the marked ones. */
#ifndef _PTOP_TS_WALK_GROUPS_H
#define _PTOP_TS_WALK_GROUPS_H

#include <linux/types.h>

struct pid_namespace;
struct ptop_ts_act_sel;
struct ptop_ts_spans;
struct ptop_ts_walk;

int ptop_ts_walk_all(struct ptop_ts_walk *w);
int ptop_ts_walk_marked(struct ptop_ts_walk *w,
			const struct ptop_ts_act_sel *sel);
u32 ptop_ts_walk_count(struct pid_namespace *ns, bool threads,
		       struct ptop_ts_spans *sp);

#endif /* _PTOP_TS_WALK_GROUPS_H */
