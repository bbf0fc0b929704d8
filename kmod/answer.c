// SPDX-License-Identifier: GPL-2.0
/*
 * An answer's buffer (header, per-CPU array, records), charged to the
 * reader's budget (budget.c), and grown during a walk that outgrew it;
 * the RCU read sections of a walk, timed. Under the pass lock (seq.c).
 */
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include "budget.h"
#include "answer.h"

/*
 * Answers grown during their walk (walk.c: WALK_GROW), and growths
 * refused (the reader's budget, memory), since load: the state file, so
 * that a test can tell the path ran (test_kmod_answer_grow)
 */
static atomic_long_t walk_grows = ATOMIC_LONG_INIT(0);
static atomic_long_t walk_grows_refused = ATOMIC_LONG_INIT(0);

void ptop_ts_snap_count_grow(bool grown)
{
	atomic_long_inc(grown ? &walk_grows : &walk_grows_refused);
}

void ptop_ts_snap_grow_counts(long *grown, long *refused)
{
	*grown = atomic_long_read(&walk_grows);
	*refused = atomic_long_read(&walk_grows_refused);
}

void ptop_ts_span_begin(struct ptop_ts_spans *sp)
	__acquires(RCU)
{
	rcu_read_lock();
	sp->t0 = ktime_get_ns();
}

void ptop_ts_span_end(struct ptop_ts_spans *sp)
	__releases(RCU)
{
	u64 d = ktime_get_ns() - sp->t0;

	if (d > sp->max)
		sp->max = d;
	rcu_read_unlock();
}

/* An answer with room for cap records, charged to the asker. */
int ptop_ts_snap_alloc(const struct ptop_ts_query *q,
		       struct ptop_ts_snap *snap, u32 ncpu, u32 cap)
{
	size_t hdr, size;
	int ret;

	hdr = sizeof(struct ptop_ts_answer) + ncpu * sizeof(struct ptop_ts_cpu);
	size = hdr + (size_t)cap * sizeof(struct ptop_ts_record);
	snap->buf = ptop_ts_answer_alloc(q->uid, size, &ret);
	if (!snap->buf)
		return ret;
	snap->alloc = size;
	snap->uid = q->uid;
	snap->ans = snap->buf;
	snap->cpus = snap->buf + sizeof(struct ptop_ts_answer);
	snap->recs = snap->buf + hdr;
	snap->cap = cap;
	return 0;
}

/*
 * Make room for cap records in the answer (at most; fewer: as it was),
 * which holds snap->ans->count of them: a larger buffer, the answer so
 * far copied into it. Under the pass lock, out of RCU.
 */
void ptop_ts_snap_grow(struct ptop_ts_snap *snap, u32 cap)
{
	size_t hdr = (void *)snap->recs - snap->buf, size;
	void *buf;
	int ret;

	if (cap <= snap->cap)
		return;
	size = hdr + (size_t)cap * sizeof(struct ptop_ts_record);
	buf = ptop_ts_answer_alloc(snap->uid, size, &ret);
	if (!buf)
		return;
	memcpy(buf, snap->buf,
	       hdr + (size_t)snap->ans->count * sizeof(struct ptop_ts_record));
	ptop_ts_answer_free(snap->uid, snap->buf, snap->alloc);
	snap->buf = buf;
	snap->alloc = size;
	snap->ans = buf;
	snap->cpus = buf + sizeof(struct ptop_ts_answer);
	snap->recs = buf + hdr;
	snap->cap = cap;
}

void ptop_ts_snap_free(struct ptop_ts_snap *snap)
{
	ptop_ts_answer_free(snap->uid, snap->buf, snap->alloc);
	memset(snap, 0, sizeof(*snap));
}
