/* SPDX-License-Identifier: GPL-2.0 */
/* The index of marked tasks: which tasks changed since a pass. */
#ifndef _PTOP_TS_ACTIVITY_INDEX_H
#define _PTOP_TS_ACTIVITY_INDEX_H

#include <linux/types.h>

struct pid_namespace;
struct ptop_ts_mark;
struct task_struct;

struct ptop_ts_act_pick {
	u32 nr;				/* tgid in the reader's namespace */
	struct task_struct *leader;	/* reference held */
};

struct ptop_ts_act_sel {
	struct ptop_ts_act_pick *pick;	/* in tgid order */
	u32 n;
	u32 threads;			/* thread entries as new */
};

int ptop_ts_act_index_init(void);
void ptop_ts_act_index_exit(void);
int ptop_ts_act_index_alloc(void);
void ptop_ts_act_index_free(void);
u64 ptop_ts_act_entries(void);
struct task_struct *ptop_ts_act_find_task(u32 pid, u64 start, bool group);
bool ptop_ts_act_touch_mark(const struct ptop_ts_mark *m, u64 pass);
void ptop_ts_act_prune(u32 max);
bool ptop_ts_act_thread_changed(struct task_struct *t, u64 since_pass);
int ptop_ts_act_select(u64 since_pass, struct pid_namespace *ns,
		       u32 start_pid, struct ptop_ts_act_sel *sel);
void ptop_ts_act_sel_free(struct ptop_ts_act_sel *sel);

#endif /* _PTOP_TS_ACTIVITY_INDEX_H */
