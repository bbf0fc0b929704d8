/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A group's death in the accounting hierarchy, and the time threads run
 * after their exit probe (late folds into c*, the module's own x*).
 */
#ifndef _PTOP_TS_ACCT_EXIT_H
#define _PTOP_TS_ACCT_EXIT_H

#include <linux/types.h>

struct ptop_gone;
struct ptop_ts_exit_ent;
struct ptop_ts_record;
struct ptop_tri;
struct task_struct;

enum ptop_own_exit {
	PTOP_OWN_NO,		/* x* is the kernel's: the usual report */
	PTOP_OWN_FIRST,		/* own x*: the group's one report */
	PTOP_OWN_TWIN,		/* own x*, already reported: nothing to do */
};

void ptop_ts_acct_group_dead(struct task_struct *leader,
			     struct task_struct *p, u64 p_rt,
			     const struct ptop_tri *tot,
			     struct ptop_ts_exit_ent *gr, bool twins);
enum ptop_own_exit ptop_ts_acct_group_exit_locked(struct task_struct *leader,
						  struct task_struct *p, u64 p_rt,
						  struct ptop_ts_record *r);
void ptop_ts_acct_thread_exit(struct task_struct *leader,
			      struct task_struct *p,
			      const struct ptop_ts_record *th);
bool ptop_ts_acct_own_x_locked(struct task_struct *leader, u64 exit_head,
			       const struct ptop_gone *gone,
			       struct ptop_ts_record *r);
void ptop_ts_acct_free(struct task_struct *p);
long ptop_ts_acct_at_report_walks(void);
void ptop_ts_acct_thread_at_report(struct task_struct *t,
				   struct ptop_ts_record *r);
u64 ptop_ts_acct_pass_begin(void);
u64 ptop_ts_acct_gen(void);
int ptop_ts_acct_exit_pos(struct task_struct *leader, u64 *pos);

#endif /* _PTOP_TS_ACCT_EXIT_H */
