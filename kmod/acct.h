/* SPDX-License-Identifier: GPL-2.0 */
/* The accounting-parent hierarchy (c*): records, links, what a pass reads. */
#ifndef _PTOP_TS_ACCT_H
#define _PTOP_TS_ACCT_H

#include <linux/types.h>

struct pid;
struct pid_namespace;
struct ptop_ts_record;
struct task_struct;

int ptop_ts_acct_init(void);
void ptop_ts_acct_populate(void);
void ptop_ts_acct_exit(void);
void ptop_ts_acct_fork(struct task_struct *parent, struct task_struct *child);
void ptop_ts_acct_exec_takeover(struct task_struct *leader,
				struct pid *execer, u64 execer_start);
void ptop_ts_acct_thread_steal(struct task_struct *leader, u64 steal);
u32 ptop_ts_acct_children(struct task_struct *leader, u32 *tgid, u64 *start,
			  u32 max);
int ptop_ts_acct_kin(struct task_struct *leader, u32 *tgid, u64 *start,
		     u32 max);
void ptop_ts_acct_read(struct task_struct *leader, struct ptop_ts_record *r,
		       struct pid_namespace *ns);
void ptop_ts_acct_counts(long *live, long *dead, long *nomem, u64 *folds,
			 u64 *unfolded, u64 *late);
void ptop_ts_acct_tail_counts(long *live, u64 *ns);

#endif /* _PTOP_TS_ACCT_H */
