/* SPDX-License-Identifier: GPL-2.0 */
/* Dead threads of a live group, counted by the module (ptop_acct_lock). */
#ifndef _PTOP_TS_THREAD_TAIL_H
#define _PTOP_TS_THREAD_TAIL_H

#include <linux/list.h>
#include <linux/types.h>
#include "record.h"

struct ptop_acct;
struct ptop_ts_record;
struct task_struct;

struct ptop_thread_tail {
	struct hlist_node hnode;	/* by task, for sched_process_free */
	struct list_head gnode;		/* on its group's record (acct.c) */
	struct task_struct *p;
	struct ptop_acct *owner;	/* its group's record */
	struct ptop_tri at_exit;	/* user, system, steal at the probe */
	u64 rt_exit;			/* their sum */
	u64 settled;			/* group dead: tail already folded */
	u64 at_report;			/* tail at its group's exit report */
};

struct ptop_thread_tail *ptop_ts_tail_new(struct task_struct *p,
					  const struct ptop_ts_record *th);
struct ptop_thread_tail *ptop_ts_tail_find(struct task_struct *p);
u64 ptop_ts_tail_ns(const struct ptop_thread_tail *e, bool final);
void ptop_ts_tail_value_at_t0(const struct ptop_thread_tail *e,
			      struct ptop_tri *v);
void ptop_ts_tail_value(const struct ptop_thread_tail *e, bool final,
			struct ptop_tri *v);
struct task_struct *ptop_ts_tail_free(struct ptop_thread_tail *e);
void ptop_ts_tail_counts(long *live, u64 *ns);
void ptop_ts_tail_reset(void);

#endif /* _PTOP_TS_THREAD_TAIL_H */
