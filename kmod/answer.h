/* SPDX-License-Identifier: GPL-2.0 */
/* One question, its answer's buffer, and the RCU read sections of a walk. */
#ifndef _PTOP_TS_ANSWER_H
#define _PTOP_TS_ANSWER_H

#include <linux/compiler.h>
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

/*
 * The RCU read sections of a pass, timed: the longest of the last pass
 * and how long its walk took (the state file shows both, for the tests:
 * one section must stay a small part of a walk of many tasks).
 */
struct ptop_ts_spans {
	u64 t0;
	u64 max;
};

int ptop_ts_snap_alloc(const struct ptop_ts_query *q,
		       struct ptop_ts_snap *snap, u32 ncpu, u32 cap);
void ptop_ts_snap_grow(struct ptop_ts_snap *snap, u32 cap);
void ptop_ts_snap_free(struct ptop_ts_snap *snap);
void ptop_ts_snap_count_grow(bool grown);
void ptop_ts_snap_grow_counts(long *grown, long *refused);
void ptop_ts_span_begin(struct ptop_ts_spans *sp) __acquires(RCU);
void ptop_ts_span_end(struct ptop_ts_spans *sp) __releases(RCU);

#endif /* _PTOP_TS_ANSWER_H */
