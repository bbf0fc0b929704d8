/* SPDX-License-Identifier: GPL-2.0 */
/* Filling a record from a live task (thread or group). */
#ifndef _PTOP_TS_RECORD_H
#define _PTOP_TS_RECORD_H

#include <linux/types.h>
#include "uapi/ptop_taskstats.h"

struct pid_namespace;
struct signal_struct;
struct task_struct;
struct user_namespace;

/* user, system, steal ns */
struct ptop_tri {
	u64 u, s, st;
};

/*
 * The runtime (sum_exec_runtime's clock) in a thread's times: steal is
 * inside it, except with PARAVIRT_TIME_ACCOUNTING, where the runqueue's
 * clock leaves it out and thread_times() adds it on top.
 */
static inline u64 ptop_ts_tri_runtime(u64 u, u64 s, u64 st)
{
	return u + s + (IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING) ? 0 : st);
}

/*
 * A group sum's linked threads counted as dead (x*): their times, how
 * many, and which (the first PTOP_GONE_KEPT), so that the module's own x*
 * (acct_exit.c) counts the very threads the sum counted: see
 * ptop_ts_gone_counted().
 */
#define PTOP_GONE_KEPT	16

struct ptop_gone {
	struct ptop_tri v;
	u32 n;
	bool whole;	/* t[] has every one, and the sum read every thread */
	const struct task_struct *t[PTOP_GONE_KEPT];
	/*
	 * Set by the caller before the sum (a thread answer's walk): exiting
	 * non-leader threads the walk gave a live row, which the sum and
	 * own x* count as live (own), never in x*: ptop's process row adds
	 * the rows' own time, and x* is for threads without a row.
	 */
	const struct task_struct *const *live;
	u32 nlive;
};

bool ptop_ts_gone_walked_live(const struct ptop_gone *gone,
			      const struct task_struct *t);

u64 ptop_ts_scale(u64 total, u64 part, u64 all);
u64 ptop_ts_running_extra(struct task_struct *t);
u64 ptop_ts_later_runs_ns(void);
void ptop_ts_fill_thread(struct ptop_ts_record *r, struct task_struct *t,
			 bool at_t0);
void ptop_ts_fill_group_locked(struct ptop_ts_record *r,
			       struct task_struct *leader, u64 exit_head,
			       struct task_struct *who, u64 *who_rt, bool at_t0,
			       struct ptop_gone *gone);
void ptop_ts_group_begin(struct ptop_ts_record *r, struct ptop_gone *gone,
			 struct signal_struct *sig);
void ptop_ts_group_add(struct ptop_ts_record *r, struct ptop_gone *gone,
		       struct task_struct *t, u64 exit_head,
		       struct task_struct *who, u64 *who_rt, bool at_t0);
void ptop_ts_group_end(struct ptop_ts_record *r, struct signal_struct *sig,
		       const struct ptop_gone *gone);
bool ptop_ts_gone_counted(const struct ptop_gone *gone, struct task_struct *t,
			  u64 exit_head);
void ptop_ts_fill_ident(struct ptop_ts_record *r, struct task_struct *t,
			struct pid_namespace *pid_ns,
			struct user_namespace *user_ns);
void ptop_ts_fill_mem(struct ptop_ts_record *r, struct task_struct *leader);

#endif /* _PTOP_TS_RECORD_H */
