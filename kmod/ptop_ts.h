/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptop_taskstats: definitions shared by the module's files.
 */
#ifndef _PTOP_TS_H
#define _PTOP_TS_H

#include <linux/atomic.h>
#include <linux/types.h>
#include "uapi/ptop_taskstats.h"

struct pid;
struct pid_namespace;
struct user_namespace;
struct task_struct;

/* main.c: parameters and the counters shown in the state file */
extern unsigned int ptop_ts_max_records;
extern unsigned int ptop_ts_exit_ring_size;
extern atomic_long_t ptop_ts_open_files;
extern atomic_long_t ptop_ts_answer_bytes;
extern atomic_long_t ptop_ts_answers;

/* One question: the command plus who asks (for pid and uid numbers). */
struct ptop_ts_query {
	struct ptop_ts_cmd cmd;
	struct pid_namespace *pid_ns;
	struct user_namespace *user_ns;
};

/* One answer: header, per-CPU array and records in one buffer. */
struct ptop_ts_snap {
	void *buf;
	size_t len;
	size_t alloc;
	struct ptop_ts_answer *ans;
	struct ptop_ts_cpu *cpus;
	struct ptop_ts_record *recs;
	u32 cap;			/* records that fit */
};

/* snapshot.c */
int ptop_ts_cmd_check(struct ptop_ts_cmd *cmd);
int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap);
void ptop_ts_snap_free(struct ptop_ts_snap *snap);
void ptop_ts_fill_thread(struct ptop_ts_record *r, struct task_struct *t);
void ptop_ts_fill_group_locked(struct ptop_ts_record *r,
			       struct task_struct *leader);
u64 ptop_ts_scale(u64 total, u64 part, u64 all);

/* activity.c: answer sequence numbers and per-task change tracking */
int ptop_ts_act_init(void);
void ptop_ts_act_exit(void);
u64 ptop_ts_seq_now(void);
u64 ptop_ts_seq_next(u64 exit_head);
bool ptop_ts_seq_lookup(u64 seq, u64 *exit_head);
void ptop_ts_track_begin(u32 expected);
u64 ptop_ts_track_update(u32 gpid, bool group, u64 start_ns,
			 const struct ptop_ts_record *r, u64 seq);
void ptop_ts_track_end(void);
size_t ptop_ts_track_bytes(void);
int ptop_ts_reader_gid(void);

/* exits.c: EXIT records from the sched_process_exit tracepoint */
int ptop_ts_exits_init(void);
void ptop_ts_exits_exit(void);
int ptop_ts_exits_attach(void);
void ptop_ts_exits_detach(void);
u64 ptop_ts_exits_head(void);
u32 ptop_ts_exits_used(void);
bool ptop_ts_exits_recorded(struct pid *pid, bool group, u64 start_ns,
			    u64 before);
int ptop_ts_exits_copy(u64 from, u64 to, bool threads,
		       const struct ptop_ts_query *q,
		       struct ptop_ts_record *out, u32 max);

/* proc.c, netlink.c */
int ptop_ts_proc_init(void);
void ptop_ts_proc_exit(void);
int ptop_ts_nl_init(void);
void ptop_ts_nl_exit(void);

#endif /* _PTOP_TS_H */
