/* SPDX-License-Identifier: GPL-2.0 */
/* The EXIT ring: records of exited threads and groups, by position. */
#ifndef _PTOP_TS_EXIT_RING_H
#define _PTOP_TS_EXIT_RING_H

#include <linux/types.h>
#include <linux/uidgid.h>
#include "uapi/ptop_taskstats.h"
#include "record.h"

struct pid;
struct pid_namespace;
struct task_struct;
struct user_namespace;

struct ptop_ts_exit_ent {
	struct ptop_ts_record rec;
	struct pid *pid;
	struct pid *tgid;
	struct pid *parent;
	struct pid *fold;		/* GROUP: the group that received T + C */
	kuid_t uid;
	/*
	 * THREAD: the task, compared only, never followed. After a
	 * non-leader exec the exec'er has the old leader's struct pid
	 * (exchange_tids()) and start time (de_thread()): by pid and start
	 * alone the old leader's record is the exec'er's own. exec_id: its
	 * self_exec_id, compared with the task: after two non-leader execs
	 * in a row a new thread can sit at the freed old leader's address
	 * and hold its (pid, start) again, but with two execs more.
	 */
	const struct task_struct *task;
	u64 exec_id;
	/*
	 * GROUP, for a pass that cannot see it live (snapshot.c,
	 * add_late_groups()): the c* of the group as that pass reports c*
	 * (folds into it since the pass began left out), the acct
	 * generation that holds for; GROUP and THREAD: what the record
	 * has after the instant of pass t0_gen (exits.c), left out there.
	 */
	struct ptop_tri c_pass;
	u64 c_gen;
	u64 post_t0;
	u64 t0_gen;
};

int ptop_ts_exits_init(void);
void ptop_ts_exits_exit(void);
u64 ptop_ts_exits_head(void);
u32 ptop_ts_exits_used(void);
void ptop_ts_exits_saw_mm(void);
bool ptop_ts_exit_before_mm(void);
u64 ptop_ts_exits_push(struct ptop_ts_exit_ent *e, bool dedup, u64 at);
/*
 * exit_head of a group's exit report (exits.c): every thread still linked
 * counts as live, whatever its exit_state (see ptop_ts_thread_gone())
 */
#define PTOP_TS_LINKED_LIVE	U64_MAX
bool ptop_ts_thread_gone(struct task_struct *t, u64 exit_head);
bool ptop_ts_exits_recorded(struct pid *pid, bool group, u64 start_ns,
			    const struct task_struct *task, u64 before);
bool ptop_ts_exits_recorded_since(struct pid *pid, bool group, u64 start_ns,
				  const struct task_struct *task, u64 from);
int ptop_ts_exits_copy(u64 from, u64 to, bool threads,
		       struct pid_namespace *ns, struct user_namespace *user_ns,
		       struct ptop_ts_record *out, u32 max);
int ptop_ts_exits_copy_live(u64 from, u64 to, bool threads, u64 c_gen,
			    u64 t0_gen, struct pid_namespace *ns,
			    struct user_namespace *user_ns,
			    struct ptop_ts_record *out, u32 max, u64 *stopped);

#endif /* _PTOP_TS_EXIT_RING_H */
