/* SPDX-License-Identifier: GPL-2.0 */
/* Marks: which tasks changed since the last drain, per CPU. */
#ifndef _PTOP_TS_ACTIVITY_MARKS_H
#define _PTOP_TS_ACTIVITY_MARKS_H

#include <linux/hash.h>
#include <linux/types.h>

struct task_struct;

#define PTOP_TS_MARK_SLOTS	1024	/* per CPU: tasks marked between drains */

struct ptop_ts_mark {
	u64 start;			/* start_boottime of the task */
	u32 pid;			/* global; a group mark: its tgid */
	u32 tgid;			/* global */
	u32 group;			/* a group mark (acct_exit.c) */
	u32 tag;			/* slot is live when == its table's tag */
};

static inline u32 ptop_ts_mark_hash(u32 pid, u64 start)
{
	return hash_32(pid ^ (u32)start ^ (u32)(start >> 32), 32);
}

bool ptop_ts_marks_on(void);
void ptop_ts_act_mark_task(struct task_struct *t);
void ptop_ts_act_mark_group(u32 tgid, u64 start_ns);
void ptop_ts_act_switch(struct task_struct *prev, struct task_struct *next);
void ptop_ts_act_here_init(void);
void ptop_ts_act_curr_init(void);
void ptop_ts_act_curr_clear(void);
int ptop_ts_marks_start(void);
void ptop_ts_marks_stop(void);
u32 ptop_ts_marks_take(int cpu, struct ptop_ts_mark *buf, bool *lost);
#ifdef PTOP_TS_TEST_UNLOAD_WINDOW
void ptop_ts_act_test_switch_gone(void);
#endif

#endif /* _PTOP_TS_ACTIVITY_MARKS_H */
