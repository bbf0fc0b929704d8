/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshots: what every live task's cumulative counters were at one
 * moment, keyed by (pid, start_ns), plus the tasks that died since the
 * previous snapshot. A snapshotter keeps the current and the previous
 * one and swaps them per update (hyptop's two sample buffers), so callers
 * never juggle previous values themselves.
 */
#ifndef PTOP_SNAP_H
#define PTOP_SNAP_H

#include "src.h"

/*
 * A task of an earlier snapshot that is gone from a full sample of a
 * source that sends EXIT records, without its EXIT record: that record
 * may come late, with a later sample. Until it does (or for
 * PTOP_SNAP_PENDING_GENS snapshots) the snapshot remembers what intervals
 * showed of the task, so that the interval its EXIT record arrives in
 * shows only the rest (lib/interval.c). rec: the task's last record (a
 * group's with own = its threads' own); shown: own (+ x* + c*), ns.
 */
#define PTOP_SNAP_PENDING_GENS	2

struct ptop_snap_pending {
	struct ptop_rec rec;
	uint64_t shown_u, shown_s, shown_st;
	unsigned int age;	/* 0: gone from this very snapshot */
};

/* A task's key: pid (or tgid) and start time. */
struct ptop_snap_key {
	uint32_t pid;
	uint64_t start_ns;
};

struct ptop_snap {
	uint64_t seq;		/* 1 for the first snapshot taken */
	uint64_t time_ns;	/* CLOCK_MONOTONIC */
	unsigned int ncpu;
	unsigned int flags;	/* PTOP_SAMPLE_INEXACT survives, INCREMENTAL not */
	unsigned int sys_apart;
	unsigned int caps;	/* the source's PTOP_DATA_* and PTOP_CAP_* */
	struct ptop_cpu_sum cpu;
	uint64_t window_ns;	/* struct ptop_sample's */
	unsigned int nlost;
	unsigned int tol_ppm;
	uint64_t res_ns;
	const char *res_what;
	/* live tasks, sorted by (pid, start_ns) */
	struct ptop_rec *threads;
	size_t nthreads;
	/* live thread groups, sorted by (tgid, start_ns) */
	struct ptop_rec *groups;
	size_t ngroups;
	/* EXIT records that arrived with this snapshot (died since prev) */
	struct ptop_rec *exits;
	size_t nexits;
	/* gone without their EXIT record so far (see above) */
	struct ptop_snap_pending *pending;
	size_t npending;
	size_t cap_threads, cap_groups, cap_exits, cap_pending;
	/*
	 * An incremental answer merged into the previous snapshot: every
	 * other record is that snapshot's, unchanged. id: unique in the
	 * process; merged_from: the id of the snapshot merged into (0: a
	 * full answer). upd_*: the indices into threads/groups of the
	 * records the answer brought, ascending, so that the interval
	 * math (lib/interval_quick.c) recomputes only what they touch.
	 */
	uint64_t id;
	uint64_t merged_from;
	size_t *upd_threads, nupd_threads, cap_upd_threads;
	size_t *upd_groups, nupd_groups, cap_upd_groups;
	size_t ndropped;	/* records the merge dropped (EXIT, exec) */
	/*
	 * The keys of the records of the snapshot merged into that the
	 * merge dropped (sorted): the next merge drops them from the older
	 * buffer it rewrites, and the interval math finds the dead there
	 * without a walk of every record.
	 */
	struct ptop_snap_key *dropped_threads, *dropped_groups;
	size_t ndropped_threads, ndropped_groups;
	size_t cap_dropped_threads, cap_dropped_groups;
};

struct ptop_snapper {
	struct ptop_src *src;
	struct ptop_snap snap[2];
	int cur;		/* index of the current snapshot */
	uint64_t taken;		/* snapshots taken so far */
	struct ptop_sample sample;
	/*
	 * An incremental answer's records, sorted, before the merge. The
	 * merge writes into the buffer of the snapshot before the current
	 * one: when the current one was merged from it, only what that
	 * merge dropped and brought and the new answer are written
	 * (lib/snap.c), not the whole set again.
	 */
	struct ptop_rec *ans_threads, *ans_groups;
	size_t nans_threads, nans_groups, cap_ans_threads, cap_ans_groups;
};

void ptop_snapper_init(struct ptop_snapper *s, struct ptop_src *src);
void ptop_snapper_free(struct ptop_snapper *s);
/* Read the source and make a new current snapshot: 0 or -errno. */
int ptop_snap_update(struct ptop_snapper *s);
/* Build the next snapshot from a sample (no source involved). */
int ptop_snap_apply(struct ptop_snapper *s, const struct ptop_sample *sample,
		    unsigned int caps);

static inline const struct ptop_snap *ptop_snap_cur(const struct ptop_snapper *s)
{
	return s->taken ? &s->snap[s->cur] : NULL;
}

static inline const struct ptop_snap *ptop_snap_prev(const struct ptop_snapper *s)
{
	return s->taken > 1 ? &s->snap[!s->cur] : NULL;
}

/* Lookup in a snapshot's sorted arrays; NULL when absent. */
const struct ptop_rec *ptop_snap_find_thread(const struct ptop_snap *sn,
						   uint32_t pid,
						   uint64_t start_ns);
/*
 * The previous record of live thread t of a later snapshot: the one with
 * its (pid, start_ns), except after a non-leader exec (t has
 * PTOP_RECF_EXEC): the exec'er took the leader's pid and start time,
 * and continues the thread it was before (exec_old_pid/start), not the
 * old leader, whose EXIT record has the same key. NULL: a new thread.
 */
const struct ptop_rec *ptop_snap_prev_thread(const struct ptop_snap *prev,
						   const struct ptop_rec *t);
const struct ptop_rec *ptop_snap_find_group(const struct ptop_snap *sn,
						  uint32_t tgid,
						  uint64_t start_ns);
/* The live group with this tgid, whatever its start time; NULL if none. */
const struct ptop_rec *ptop_snap_find_tgid(const struct ptop_snap *sn,
						 uint32_t tgid);

/*
 * The pending entry of sn for a task of this kind and key (see struct
 * ptop_snap_pending); NULL when there is none.
 */
const struct ptop_snap_pending *ptop_snap_find_pending(const struct ptop_snap *sn,
						       enum ptop_rec_kind kind,
						       uint32_t pid,
						       uint64_t start_ns);

/* Own time of a record (user + system + steal), ns. */
static inline uint64_t ptop_rec_own(const struct ptop_rec *r)
{
	return r->utime_ns + r->stime_ns + r->steal_ns;
}

static inline uint64_t ptop_rec_x(const struct ptop_rec *r)
{
	return r->xutime_ns + r->xstime_ns + r->xsteal_ns;
}

static inline uint64_t ptop_rec_c(const struct ptop_rec *r)
{
	return r->cutime_ns + r->cstime_ns + r->csteal_ns;
}

#endif /* PTOP_SNAP_H */
