/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the interval math share (lib/interval*.c): the
 * (user, system, steal) triple, the full path's work area, the dead of a
 * quick interval, and the helpers one file makes for another. Private
 * to lib/: the public API is interval.h.
 */
#ifndef PTOP_INTERVAL_INTERNAL_H
#define PTOP_INTERVAL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "interval.h"

struct tri {
	uint64_t u, s, st;
};

struct work {
	const struct ptop_snap *prev, *cur;
	struct ptop_interval *iv;
	struct tri *xsub;	/* per cur group: prev own of its dead threads */
	struct tri *csub;	/* per cur group: prev T+C of groups folded in */
	struct tri *prev_own;	/* per prev group: own of its live threads */
	ssize_t *group_row;	/* per cur group: its row (or leader's row) */
	struct ptop_rec *gexits;	/* GROUP EXIT records, sorted */
	size_t ngexits;
	const struct ptop_rec **execs; /* cur threads with RECF_EXEC */
	size_t nexecs;
};

/*
 * The dead of a quick interval, found from the keys the merge dropped:
 * prev's index of each dead group and where its time went (cur's group,
 * -1: nowhere), each dead thread's record in prev and its group in cur
 * (-1: it died too). The GROUP EXIT records go to w->gexits, sorted.
 */
struct quick_dead {
	size_t *group;		/* prev index, ascending */
	ssize_t *target;	/* cur index of the receiver */
	const struct ptop_rec **thread;
	ssize_t *in;		/* cur index of the dead thread's group */
	ssize_t *more;		/* target[] and in[]: rows to recompute */
	size_t ngroups, nthreads;
};

static inline uint64_t sat_sub(uint64_t a, uint64_t b, uint64_t *clamped)
{
	if (a >= b)
		return a - b;
	*clamped += b - a;
	return 0;
}

static inline uint64_t tri_total(struct tri t)
{
	return t.u + t.s + t.st;
}

static inline struct tri tri_own(const struct ptop_rec *r)
{
	return (struct tri){ r->utime_ns, r->stime_ns, r->steal_ns };
}

static inline struct tri tri_x(const struct ptop_rec *r)
{
	return (struct tri){ r->xutime_ns, r->xstime_ns, r->xsteal_ns };
}

static inline struct tri tri_c(const struct ptop_rec *r)
{
	return (struct tri){ r->cutime_ns, r->cstime_ns, r->csteal_ns };
}

static inline void tri_add(struct tri *a, struct tri b)
{
	a->u += b.u;
	a->s += b.s;
	a->st += b.st;
}

static inline ssize_t index_of(const struct ptop_rec *base,
			const struct ptop_rec *r)
{
	return r ? r - base : -1;
}

/* triples and rows (interval_rows.c) */
int iv_grow(struct ptop_interval *iv, size_t n);
void iv_row_identity(struct ptop_row *row, const struct ptop_rec *r,
		     const struct ptop_rec *g);
void iv_row_add_own(struct ptop_row *row, const struct ptop_rec *t,
		    const struct ptop_rec *pt);
void iv_row_drop_own(struct ptop_row *row, const struct ptop_rec *t);
void iv_row_xc(struct ptop_row *row, const struct ptop_rec *g,
	       const struct ptop_rec *pg, struct tri xsub, struct tri csub,
	       uint64_t *clamped);
void iv_row_total(struct ptop_row *r);
void iv_sum_add(struct ptop_interval *iv, const struct ptop_row *r, int sign);
void iv_sum_rows(struct ptop_interval *iv);
bool iv_row_loud(const struct ptop_row *r);
int iv_add_loud(struct ptop_interval *iv, const struct ptop_row *r);

/* the full path and the folding of the dead (interval_fold.c) */
ssize_t iv_cur_group_index(const struct work *w, uint32_t tgid,
			   uint64_t start_ns, bool start_known);
int iv_gexit_cmp(const void *a, const void *b);
const struct ptop_rec *iv_find_gexit(const struct work *w, uint32_t tgid,
				     uint64_t start_ns);
ssize_t iv_fold_target(const struct work *w, const struct ptop_rec *d);
int iv_full_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
		    const struct ptop_snap *cur);

/* thread mode: the threads by group (interval_tidx.c) */
size_t iv_tidx_group(const struct ptop_interval *iv, uint32_t tgid,
		     size_t *from);
int iv_tidx_build(struct ptop_interval *iv, const struct ptop_snap *cur);
int iv_tidx_update(struct ptop_interval *iv, const struct ptop_snap *prev,
		   const struct ptop_snap *cur);

/* the quick path (interval_quick.c, interval_quick_threads.c) */
size_t iv_first_not_below(const size_t *a, size_t n, size_t v);
int iv_idx_cmp(const void *a, const void *b);
int iv_changes_reserve(struct ptop_interval *iv, size_t n);
void iv_quick_remove(struct ptop_interval *iv, const size_t *pos, size_t np);
int iv_quick_find_dead(struct work *w, struct quick_dead *d);
bool iv_quick_ok(const struct ptop_interval *iv, const struct ptop_snap *prev,
		 const struct ptop_snap *cur, bool threads);
bool iv_quick_ok_threads(const struct ptop_interval *iv,
			 const struct ptop_snap *prev,
			 const struct ptop_snap *cur);
int iv_quick_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
		     const struct ptop_snap *cur);
int iv_quick_compute_threads(struct ptop_interval *iv,
			     const struct ptop_snap *prev,
			     const struct ptop_snap *cur);

#endif /* PTOP_INTERVAL_INTERNAL_H */
