/* SPDX-License-Identifier: GPL-2.0 */
/* One answer: a pass over the reader's pid namespace. */
#ifndef _PTOP_TS_SNAPSHOT_H
#define _PTOP_TS_SNAPSHOT_H

#include <linux/types.h>
#include <linux/uidgid.h>
#include "uapi/ptop_taskstats.h"

struct pid_namespace;
struct user_namespace;

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

extern bool ptop_ts_crosscheck;

int ptop_ts_cmd_check(struct ptop_ts_cmd *cmd);
int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap);
void ptop_ts_snap_free(struct ptop_ts_snap *snap);
void ptop_ts_snap_walk_times(u64 *walk_ns, u64 *rcu_max_ns);
void ptop_ts_snap_late_span(u64 *seq, u64 *from, u64 *to);
void ptop_ts_snap_grow_counts(long *grown, long *refused);
#ifdef PTOP_TS_TEST_LEADER_WINDOW
void ptop_ts_snap_test_init(void);
void ptop_ts_snap_test_exit(void);
#else
static inline void ptop_ts_snap_test_init(void) { }
static inline void ptop_ts_snap_test_exit(void) { }
#endif

#endif /* _PTOP_TS_SNAPSHOT_H */
