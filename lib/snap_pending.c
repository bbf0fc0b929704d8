// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks gone from a full sample without their EXIT record: remembered
 * for PTOP_SNAP_PENDING_GENS snapshots with what intervals showed of
 * them, so that a late EXIT record shows only the rest (snap.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "snap_internal.h"

const struct ptop_snap_pending *ptop_snap_find_pending(const struct ptop_snap *sn,
						       enum ptop_rec_kind kind,
						       uint32_t pid,
						       uint64_t start_ns)
{
	size_t i;

	for (i = 0; sn && i < sn->npending; i++) {
		const struct ptop_rec *r = &sn->pending[i].rec;

		if (r->kind == kind && r->pid == pid && r->start_ns == start_ns)
			return &sn->pending[i];
	}
	return NULL;
}

static const struct ptop_rec *find_exit(const struct ptop_snap *sn,
					      enum ptop_rec_kind kind,
					      uint32_t pid, uint64_t start_ns)
{
	size_t i;

	for (i = 0; i < sn->nexits; i++)
		if (sn->exits[i].kind == kind && sn->exits[i].pid == pid &&
		    sn->exits[i].start_ns == start_ns)
			return &sn->exits[i];
	return NULL;
}

static int add_pending(struct ptop_snap *next, const struct ptop_snap_pending *p)
{
	if (next->npending == next->cap_pending) {
		size_t ncap = next->cap_pending ? 2 * next->cap_pending : 16;
		struct ptop_snap_pending *n = realloc(next->pending,
						      ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		next->pending = n;
		next->cap_pending = ncap;
	}
	next->pending[next->npending++] = *p;
	return 0;
}

/* Was thread t of prev continued by a non-leader exec in next? */
static int exec_continued(const struct ptop_snap *next,
			  const struct ptop_rec *t)
{
	size_t i;

	for (i = 0; i < next->nthreads; i++)
		if ((next->threads[i].flags & PTOP_RECF_EXEC) &&
		    next->threads[i].exec_old_pid == t->pid &&
		    next->threads[i].exec_old_start_ns == t->start_ns)
			return 1;
	return 0;
}

/*
 * The tasks of prev that next lost without an EXIT record, and prev's
 * pending ones whose EXIT record has still not come (see snap.h).
 */
int snap_note_pending(const struct ptop_snap *prev, struct ptop_snap *next)
{
	struct ptop_snap_pending p;
	size_t i, j;
	int ret;

	next->npending = 0;
	for (i = 0; i < prev->npending; i++) {
		const struct ptop_rec *r = &prev->pending[i].rec;

		if (prev->pending[i].age + 1 >= PTOP_SNAP_PENDING_GENS ||
		    find_exit(next, r->kind, r->pid, r->start_ns) ||
		    snap_find(r->kind == PTOP_REC_GROUP ? next->groups :
			 next->threads, r->kind == PTOP_REC_GROUP ?
			 next->ngroups : next->nthreads, r->pid, r->start_ns))
			continue;
		p = prev->pending[i];
		p.age++;
		ret = add_pending(next, &p);
		if (ret)
			return ret;
	}
	for (i = 0; i < prev->nthreads; i++) {
		const struct ptop_rec *t = &prev->threads[i];

		if (snap_find(next->threads, next->nthreads, t->pid, t->start_ns) ||
		    find_exit(next, PTOP_REC_THREAD, t->pid, t->start_ns) ||
		    exec_continued(next, t))
			continue;
		memset(&p, 0, sizeof(p));
		p.rec = *t;
		p.shown_u = t->utime_ns;
		p.shown_s = t->stime_ns;
		p.shown_st = t->steal_ns;
		ret = add_pending(next, &p);
		if (ret)
			return ret;
	}
	for (i = 0; i < prev->ngroups; i++) {
		const struct ptop_rec *g = &prev->groups[i];

		if (snap_find(next->groups, next->ngroups, g->pid, g->start_ns) ||
		    find_exit(next, PTOP_REC_GROUP, g->pid, g->start_ns))
			continue;
		memset(&p, 0, sizeof(p));
		p.rec = *g;
		p.rec.utime_ns = p.rec.stime_ns = p.rec.steal_ns = 0;
		for (j = 0; j < prev->nthreads; j++) {
			const struct ptop_rec *t = &prev->threads[j];

			if (t->tgid != g->pid ||
			    ptop_snap_find_tgid(prev, t->tgid) != g)
				continue;
			p.rec.utime_ns += t->utime_ns;
			p.rec.stime_ns += t->stime_ns;
			p.rec.steal_ns += t->steal_ns;
		}
		p.shown_u = p.rec.utime_ns + g->xutime_ns + g->cutime_ns;
		p.shown_s = p.rec.stime_ns + g->xstime_ns + g->cstime_ns;
		p.shown_st = p.rec.steal_ns + g->xsteal_ns + g->csteal_ns;
		ret = add_pending(next, &p);
		if (ret)
			return ret;
	}
	return 0;
}

