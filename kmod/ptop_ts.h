/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptop_taskstats: definitions shared by the module's files.
 */
#ifndef _PTOP_TS_H
#define _PTOP_TS_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include "uapi/ptop_taskstats.h"

struct pid;
struct pid_namespace;
struct ptop_acct;
struct user_namespace;
struct task_struct;
struct tracepoint;

/* main.c: parameters and the counters shown in the state file */
extern unsigned int ptop_ts_max_records;
extern unsigned int ptop_ts_exit_ring_size;
extern atomic_long_t ptop_ts_open_files;
extern atomic_long_t ptop_ts_answer_bytes;
extern atomic_long_t ptop_ts_answers;
extern atomic_long_t ptop_ts_steal_bytes;

/* user, system, steal ns */
struct ptop_tri {
	u64 u, s, st;
};

/* One question: the command plus who asks (for pid and uid numbers). */
struct ptop_ts_query {
	struct ptop_ts_cmd cmd;
	struct pid_namespace *pid_ns;
	struct user_namespace *user_ns;
	kuid_t uid;			/* euid of the asker: budget.c */
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
	kuid_t uid;			/* charged to (budget.c) */
};

/* budget.c: answers charged to the reader's memcg, bounded per uid */
void ptop_ts_budget_init(void);
void *ptop_ts_answer_alloc(kuid_t uid, size_t size, int *err);
void ptop_ts_answer_free(kuid_t uid, void *buf, size_t size);
void ptop_ts_budget_counts(size_t *nonroot, long *nrefused,
			   unsigned long *user_max_kb,
			   unsigned long *all_max_kb);

/* snapshot.c */
int ptop_ts_cmd_check(struct ptop_ts_cmd *cmd);
int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap);
void ptop_ts_snap_free(struct ptop_ts_snap *snap);
void ptop_ts_fill_thread(struct ptop_ts_record *r, struct task_struct *t);
void ptop_ts_fill_group_locked(struct ptop_ts_record *r,
			       struct task_struct *leader, u64 exit_head,
			       struct task_struct *who, u64 *who_rt, bool at_t0);
u64 ptop_ts_scale(u64 total, u64 part, u64 all);
u64 ptop_ts_running_extra(struct task_struct *t);

/* activity.c: answer sequence numbers, which tasks changed since a pass */
struct ptop_ts_act_pick {
	u32 nr;				/* tgid in the reader's namespace */
	struct task_struct *leader;	/* reference held */
};
struct ptop_ts_act_sel {
	struct ptop_ts_act_pick *pick;	/* in tgid order */
	u32 n;
	u32 threads;			/* thread entries as new */
};
struct ptop_ts_act_counts {
	long readers;
	bool attached;
	u64 entries, full_walks, inc_walks, lost;
};
extern unsigned int ptop_ts_track_linger;
extern bool ptop_ts_crosscheck;
int ptop_ts_act_init(void);
void ptop_ts_act_exit(void);
u64 ptop_ts_seq_now(void);
u64 ptop_ts_seq_of(u64 pass, u64 exit_head);
bool ptop_ts_seq_lookup(u64 seq, u64 head, u64 *pass, u64 *exit_head);
int ptop_ts_pass_lock(void);
void ptop_ts_pass_unlock(void);
void ptop_ts_act_mark_task(struct task_struct *t);
void ptop_ts_act_mark_group(u32 tgid, u64 start_ns);
void ptop_ts_act_exit_children(struct task_struct *p, bool group_dead);
void ptop_ts_act_switch(struct task_struct *prev, struct task_struct *next);
void ptop_ts_act_curr_init(void);
u64 ptop_ts_act_pass(void);
void ptop_ts_act_drain_late(u64 pass);
bool ptop_ts_act_complete(u64 since_pass);
bool ptop_ts_act_thread_changed(struct task_struct *t, u64 since_pass);
int ptop_ts_act_select(u64 since_pass, struct pid_namespace *ns,
		       u32 start_pid, struct ptop_ts_act_sel *sel);
void ptop_ts_act_sel_free(struct ptop_ts_act_sel *sel);
void ptop_ts_act_reader_get(void);
void ptop_ts_act_reader_put(void);
void ptop_ts_act_walked(bool full);
void ptop_ts_act_counts(struct ptop_ts_act_counts *c);
int ptop_ts_reader_gid(void);

/* acct.c: the accounting-parent hierarchy (c*) */
int ptop_ts_acct_init(void);
void ptop_ts_acct_populate(void);
void ptop_ts_acct_exit(void);
void ptop_ts_acct_fork(struct task_struct *parent, struct task_struct *child);
void ptop_ts_acct_group_dead(struct task_struct *leader,
			     struct task_struct *p, u64 p_rt,
			     const struct ptop_tri *tot,
			     void (*push)(void *arg, const struct ptop_tri *c,
					  struct pid *fold_pid, u64 fold_start,
					  bool again),
			     void *arg);
void ptop_ts_acct_thread_exit(struct task_struct *leader,
			      struct task_struct *p,
			      const struct ptop_ts_record *th);
bool ptop_ts_acct_own_x_locked(struct task_struct *leader, u64 exit_head,
			       struct ptop_ts_record *r);
enum ptop_own_exit {
	PTOP_OWN_NO,		/* x* is the kernel's: the usual report */
	PTOP_OWN_FIRST,		/* own x*: the group's one report */
	PTOP_OWN_TWIN,		/* own x*, already reported: nothing to do */
};
enum ptop_own_exit ptop_ts_acct_group_exit_locked(struct task_struct *leader,
						  struct task_struct *p, u64 p_rt,
						  struct ptop_ts_record *r);
void ptop_ts_acct_tail_counts(long *live, u64 *ns);
void ptop_ts_acct_exec_takeover(struct task_struct *leader,
				struct pid *execer, u64 execer_start);
void ptop_ts_acct_thread_steal(struct task_struct *leader, u64 steal);
u64 ptop_ts_acct_pass_begin(void);
u32 ptop_ts_acct_children(struct task_struct *leader, u32 *tgid, u64 *start,
			  u32 max);
void ptop_ts_acct_read(struct task_struct *leader, struct ptop_ts_record *r,
		       struct pid_namespace *ns);
void ptop_ts_acct_counts(long *live, long *dead, long *nomem, u64 *folds,
			 u64 *unfolded, u64 *late);
void ptop_ts_acct_free(struct task_struct *p);

/* exits.c: EXIT records from the sched_process_exit tracepoint */
int ptop_ts_exits_init(void);
void ptop_ts_exits_exit(void);
int ptop_ts_exits_attach(void);
void ptop_ts_exits_detach(void);
u64 ptop_ts_exits_head(void);
u32 ptop_ts_exits_used(void);
struct tracepoint *ptop_ts_find_tracepoint(const char *name);
bool ptop_ts_thread_gone(struct task_struct *t, u64 exit_head);
bool ptop_ts_exits_recorded(struct pid *pid, bool group, u64 start_ns,
			    u64 before);
int ptop_ts_exits_copy(u64 from, u64 to, bool threads,
		       const struct ptop_ts_query *q,
		       struct ptop_ts_record *out, u32 max);

/* listen.c: requested event sources (steal probe, events) */
#define PTOP_TS_LISTEN_STEAL	(1U << 0)
#define PTOP_TS_LISTEN_EVENTS	(1U << 1)
struct net;
int ptop_ts_listen_init(void);
void ptop_ts_listen_exit(void);
void ptop_ts_listen_file(bool on);
int ptop_ts_listen_nl(const struct net *net, u32 portid, u32 kinds, bool on);
void ptop_ts_listen_events_each(void (*fn)(u32 portid,
					   struct pid_namespace *ns,
					   void *arg),
				void *arg);
void ptop_ts_listen_counts(long *steal, long *events, bool *steal_attached,
			   bool *events_attached);

/* steal.c: per-task steal from a sched_switch probe */
bool ptop_ts_steal_clock(void);
bool ptop_ts_exit_before_mm(void);
bool ptop_ts_steal_attached(void);
void ptop_ts_steal_init(void);
void ptop_ts_steal_switch(struct task_struct *prev);
int ptop_ts_steal_attach(void);
void ptop_ts_steal_detach(void);
u64 ptop_ts_steal_of(struct task_struct *t);
u64 ptop_ts_steal_take(struct task_struct *t);
long ptop_ts_steal_dropped(void);
long ptop_ts_steal_switches(void);

/* events.c: process events to the genl multicast group */
int ptop_ts_events_attach(void);
void ptop_ts_events_detach(void);
void ptop_ts_events_exec(struct task_struct *p, pid_t old_pid);
void ptop_ts_events_fork(struct task_struct *parent, struct task_struct *child);
void ptop_ts_events_exit(struct task_struct *p, bool group_dead);
void ptop_ts_events_counts(long *sent, long *failed);

/* hooks.c: the sched_switch and sched_process_exec probes, for good */
int ptop_ts_hooks_attach(void);
void ptop_ts_hooks_detach(void);

/* proc.c, netlink.c */
int ptop_ts_nl_event(u32 portid, const struct ptop_ts_event *ev);
int ptop_ts_proc_init(void);
void ptop_ts_proc_exit(void);
int ptop_ts_nl_init(void);
void ptop_ts_nl_exit(void);

/* thread_tail.c: dead threads of a live group, counted by the module */
struct ptop_thread_tail {
	struct hlist_node hnode;	/* by task, for sched_process_free */
	struct list_head gnode;		/* on its group's record (acct.c) */
	struct task_struct *p;
	struct ptop_acct *owner;	/* its group's record */
	struct ptop_tri at_exit;	/* user, system, steal at the probe */
	u64 rt_exit;			/* their sum */
	u64 settled;			/* group dead: tail already folded */
};
struct ptop_thread_tail *ptop_ts_tail_new(struct task_struct *p,
					  const struct ptop_ts_record *th);
struct ptop_thread_tail *ptop_ts_tail_find(struct task_struct *p);
u64 ptop_ts_tail_ns(const struct ptop_thread_tail *e, bool final);
void ptop_ts_tail_value(const struct ptop_thread_tail *e, bool final,
			struct ptop_tri *v);
struct task_struct *ptop_ts_tail_free(struct ptop_thread_tail *e);
void ptop_ts_tail_counts(long *live, u64 *ns);
void ptop_ts_tail_reset(void);

#endif /* _PTOP_TS_H */
