// SPDX-License-Identifier: GPL-2.0
/*
 * The quick path in thread mode: one row per thread, the threads of a
 * group found in the thread index (interval_tidx.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interval_internal.h"

static bool key_dropped(const struct ptop_snap_key *keys, size_t n,
			uint32_t pid, uint64_t start_ns)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (keys[mid].pid < pid ||
		    (keys[mid].pid == pid && keys[mid].start_ns < start_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && keys[lo].pid == pid && keys[lo].start_ns == start_ns;
}

/*
 * Thread mode, the dead: every dead thread had a row of prev; a dead
 * group is the only one of its tgid in prev and took every thread of
 * prev in it along (else a thread would be left without its group, a
 * case for the full math).
 */
bool iv_quick_ok_threads(const struct ptop_interval *iv,
			 const struct ptop_snap *prev,
			 const struct ptop_snap *cur)
{
	size_t k, i, from, end;

	for (k = 0; k < cur->ndropped_threads; k++)
		if (!ptop_snap_find_thread(prev, cur->dropped_threads[k].pid,
					   cur->dropped_threads[k].start_ns))
			return false;
	for (k = 0; k < cur->ndropped_groups; k++) {
		const struct ptop_snap_key *d = &cur->dropped_groups[k];
		const struct ptop_rec *g = ptop_snap_find_group(prev, d->pid,
								d->start_ns);

		if (!g || ptop_snap_find_tgid(prev, g->pid) != g)
			return false;
		end = iv_tidx_group(iv, g->pid, &from);
		for (i = from; i < end; i++)
			if (!key_dropped(cur->dropped_threads,
					 cur->ndropped_threads, iv->tidx[i].pid,
					 iv->tidx[i].start_ns))
				return false;
	}
	return true;
}

/*
 * Thread mode: the rows to compute again, by cur thread index; gslot:
 * the place in the dirty groups of the group whose x* and c* the row
 * carries (its leader's row, or its first thread's), -1: none.
 */
struct tdirty {
	size_t ci;
	ssize_t gslot;
};

static int tdirty_cmp(const void *a, const void *b)
{
	const struct tdirty *x = a, *y = b;

	if (x->ci != y->ci)
		return x->ci < y->ci ? -1 : 1;
	/* the one that carries a group's x* and c* first */
	return (y->gslot >= 0) - (x->gslot >= 0);
}

/* Open the places pos[0, np) (ascending, of the nrows rows to be). */
static void open_places(struct ptop_interval *iv, const size_t *pos, size_t np,
			size_t nrows)
{
	size_t dst = nrows, src = iv->nrows, k = np;

	while (k-- > 0) {
		size_t len = dst - (pos[k] + 1);

		memmove(&iv->rows[pos[k] + 1], &iv->rows[src - len],
			len * sizeof(*iv->rows));
		src -= len;
		dst = pos[k];
		memset(&iv->rows[pos[k]], 0, sizeof(iv->rows[pos[k]]));
	}
	iv->nrows = nrows;
}

/* Thread ci's row of cur from scratch, as make_rows() and apply_xc() make it. */
static void thread_row(struct ptop_interval *iv, const struct ptop_snap *prev,
		       const struct ptop_snap *cur, size_t ci,
		       const struct ptop_rec *xg, struct tri xsub, struct tri csub)
{
	const struct ptop_rec *t = &cur->threads[ci];
	const struct ptop_rec *pt = ptop_snap_prev_thread(prev, t);
	const struct ptop_rec *g = ptop_snap_find_tgid(cur, t->tgid);
	struct ptop_row *row = &iv->rows[ci];

	iv_row_identity(row, t, g);
	row->is_thread = true;
	row->is_new = !pt;
	row->has = cur->caps & ~(PTOP_DATA_X | PTOP_DATA_C);
	iv_row_add_own(row, t, pt);
	if (xg) {
		row->has |= cur->caps & (PTOP_DATA_X | PTOP_DATA_C);
		iv_row_xc(row, xg, ptop_snap_find_group(prev, xg->pid, xg->start_ns),
			  xsub, csub, &iv->clamped_ns);
	}
	iv_row_total(row);
}

static ssize_t slot_of(const size_t *a, size_t n, ssize_t v)
{
	size_t i;

	if (v < 0)
		return -1;
	i = iv_first_not_below(a, n, (size_t)v);
	return i < n && a[i] == (size_t)v ? (ssize_t)i : -1;
}

/* The groups whose rows change (cur indices), sorted and unique: dg[return) */
static size_t dirty_groups(const struct ptop_interval *iv,
			   const struct ptop_snap *cur,
			   const struct quick_dead *d, size_t *dg)
{
	size_t ndg = 0, k, i;

	for (k = 0; k < cur->nupd_groups; k++)
		dg[ndg++] = cur->upd_groups[k];
	for (k = 0; k < cur->nupd_threads; k++)
		dg[ndg++] = (size_t)index_of(cur->groups,
			ptop_snap_find_tgid(cur, cur->threads[cur->upd_threads[k]].tgid));
	for (k = 0; k < d->ngroups + d->nthreads; k++)
		if (d->more[k] >= 0)
			dg[ndg++] = (size_t)d->more[k];
	for (k = 0; k < iv->nloud; k++) {
		const struct ptop_rec *t = ptop_snap_find_thread(cur,
				iv->loud[k].pid, iv->loud[k].start_ns);
		ssize_t gi = t ? index_of(cur->groups,
					  ptop_snap_find_tgid(cur, t->tgid)) : -1;

		if (gi >= 0)
			dg[ndg++] = (size_t)gi;
	}
	if (ndg > 1)
		qsort(dg, ndg, sizeof(*dg), iv_idx_cmp);
	for (k = 0, i = 0; k < ndg; k++)
		if (!i || dg[i - 1] != dg[k])
			dg[i++] = dg[k];
	return i;
}

/*
 * The rows computed again: the threads of the groups dg[0, ndg), and
 * loud rows of threads without a group; sorted and unique: rows[return)
 */
static size_t dirty_threads(const struct ptop_interval *iv,
			    const struct ptop_snap *cur, const size_t *dg,
			    size_t ndg, struct tdirty *rows)
{
	size_t nrow = 0, k, i, from, end;

	for (k = 0; k < ndg; k++) {
		const struct ptop_rec *g = &cur->groups[dg[k]];
		ssize_t carrier = -1;

		end = iv_tidx_group(iv, g->pid, &from);
		for (i = from; i < end; i++) {
			const struct ptop_rec *t = ptop_snap_find_thread(cur,
					iv->tidx[i].pid, iv->tidx[i].start_ns);

			rows[nrow].ci = (size_t)(t - cur->threads);
			rows[nrow].gslot = -1;
			/* the leader's row (the last), else the first thread's */
			if (carrier < 0 || t->pid == t->tgid)
				carrier = (ssize_t)nrow;
			nrow++;
		}
		/* a group that is not its tgid's (another incarnation): no row */
		if (carrier >= 0 && ptop_snap_find_tgid(cur, g->pid) == g)
			rows[carrier].gslot = (ssize_t)k;
	}
	for (k = 0; k < iv->nloud; k++) {
		const struct ptop_rec *t = ptop_snap_find_thread(cur,
				iv->loud[k].pid, iv->loud[k].start_ns);

		if (t && !ptop_snap_find_tgid(cur, t->tgid))
			rows[nrow++] = (struct tdirty){ (size_t)(t - cur->threads), -1 };
	}
	if (nrow > 1)
		qsort(rows, nrow, sizeof(*rows), tdirty_cmp);
	for (k = 0, i = 0; k < nrow; k++)
		if (!i || rows[i - 1].ci != rows[k].ci)
			rows[i++] = rows[k];
	return i;
}

/* What the dead take from the x* and c* of the groups dg[0, ndg) */
static void dead_subs(struct ptop_interval *iv, const struct ptop_snap *prev,
		      const struct quick_dead *d, const size_t *dg, size_t ndg,
		      struct tri *xsub, struct tri *csub)
{
	size_t k, i;

	/* a dead thread of a live group: its group shows the rest in x */
	for (k = 0; k < d->nthreads; k++) {
		ssize_t s = slot_of(dg, ndg, d->in[k]);

		if (s >= 0)
			tri_add(&xsub[s], tri_own(d->thread[k]));
	}
	/*
	 * A dead group: its threads' own then (all died with it), x*, c*
	 * are not new in its receiver's c*.
	 */
	for (k = 0; k < d->ngroups; k++) {
		const struct ptop_rec *g = &prev->groups[d->group[k]];
		struct tri shown = tri_x(g);
		ssize_t s = slot_of(dg, ndg, d->target[k]);

		tri_add(&shown, tri_c(g));
		for (i = 0; i < d->nthreads; i++)
			if (d->thread[i]->tgid == g->pid)
				tri_add(&shown, tri_own(d->thread[i]));
		if (s >= 0)
			tri_add(&csub[s], shown);
		else
			iv->unfolded_ns += tri_total(shown);
	}
}

/*
 * What changes (room for it reserved): the rows computed again, the
 * dead threads' rows, each taken out of the sum; dpos: the dead rows'
 * places in prev, ascending.
 */
static void take_out(struct ptop_interval *iv, const struct ptop_snap *prev,
		     const struct ptop_snap *cur, const struct tdirty *rows,
		     size_t nrow, size_t *dpos)
{
	size_t nt = cur->ndropped_threads, k;

	for (k = 0; k < nrow; k++) {
		const struct ptop_rec *t = &cur->threads[rows[k].ci];
		const struct ptop_rec *pt = ptop_snap_find_thread(prev, t->pid,
								  t->start_ns);
		struct ptop_iv_change *c = &iv->changes[k];

		c->row = rows[k].ci;
		c->was = pt != NULL;
		if (pt) {
			c->old = iv->rows[pt - prev->threads];
			iv_sum_add(iv, &c->old, -1);
		}
	}
	for (k = 0; k < nt; k++) {
		const struct ptop_snap_key *key = &cur->dropped_threads[k];
		struct ptop_iv_change *c = &iv->changes[nrow + k];

		/* sorted keys: ascending places in prev */
		dpos[k] = (size_t)(ptop_snap_find_thread(prev, key->pid,
							 key->start_ns) -
				   prev->threads);
		c->row = PTOP_IV_GONE;
		c->was = true;
		c->old = iv->rows[dpos[k]];
		iv_sum_add(iv, &c->old, -1);
	}
	iv->nchanges = nrow + nt;
}

/* The dead threads' rows go, the new ones' places open (newpos: scratch). */
static void move_rows(struct ptop_interval *iv, const struct ptop_snap *prev,
		      const struct ptop_snap *cur, const size_t *dpos,
		      size_t *newpos)
{
	size_t nnew = 0, k;

	for (k = 0; k < cur->nupd_threads; k++) {
		const struct ptop_rec *t = &cur->threads[cur->upd_threads[k]];

		if (!ptop_snap_find_thread(prev, t->pid, t->start_ns))
			newpos[nnew++] = cur->upd_threads[k];
	}
	iv_quick_remove(iv, dpos, cur->ndropped_threads);
	open_places(iv, newpos, nnew, cur->nthreads);
}

/* The rows computed again, back into the sum: 0 or -ENOMEM. */
static int put_back(struct ptop_interval *iv, const struct ptop_snap *prev,
		    const struct ptop_snap *cur, const struct tdirty *rows,
		    size_t nrow, const size_t *dg, const struct tri *xsub,
		    const struct tri *csub)
{
	size_t k;

	iv->nloud = 0;
	for (k = 0; k < nrow; k++) {
		ssize_t s = rows[k].gslot;
		struct ptop_row *row = &iv->rows[rows[k].ci];

		thread_row(iv, prev, cur, rows[k].ci,
			   s >= 0 ? &cur->groups[dg[s]] : NULL,
			   s >= 0 ? xsub[s] : (struct tri){ 0 },
			   s >= 0 ? csub[s] : (struct tri){ 0 });
		iv_sum_add(iv, row, 1);
		if (iv_row_loud(row) && iv_add_loud(iv, row))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The quick path in thread mode: rows[] is prev's threads, one row per
 * thread in the same order. Computed again: every thread of each group
 * that the answer brought, that has a new or a dead thread, that
 * receives a dead group's time, or that had a row with figures (the
 * group's identity is on each of its thread rows, its x* and c* on one
 * of them), found in tidx; the dead threads' rows go, the new ones'
 * places open.
 */
int iv_quick_compute_threads(struct ptop_interval *iv,
			     const struct ptop_snap *prev,
			     const struct ptop_snap *cur)
{
	struct work w = { .prev = prev, .cur = cur, .iv = iv };
	struct quick_dead d = { 0 };
	size_t nt = cur->ndropped_threads, ndg, nrow, k;
	size_t *dg = NULL, *dpos = NULL, *newpos = NULL, from, end, cap;
	struct tdirty *rows = NULL;
	struct tri *xsub = NULL, *csub = NULL;
	int ret;

	if (iv_grow(iv, cur->nthreads + nt))
		return -ENOMEM;
	ret = iv_quick_find_dead(&w, &d);
	if (!ret)
		ret = iv_tidx_update(iv, prev, cur);
	if (ret)
		goto out;
	ret = -ENOMEM;
	cap = cur->nupd_groups + cur->nupd_threads + d.ngroups + d.nthreads +
	      iv->nloud + 1;
	dg = malloc(cap * sizeof(*dg));
	dpos = malloc((nt ? nt : 1) * sizeof(*dpos));
	newpos = malloc((cur->nupd_threads ? cur->nupd_threads : 1) *
			sizeof(*newpos));
	if (!dg || !dpos || !newpos)
		goto out;
	ndg = dirty_groups(iv, cur, &d, dg);
	for (k = 0, cap = iv->nloud + 1; k < ndg; k++) {
		end = iv_tidx_group(iv, cur->groups[dg[k]].pid, &from);
		cap += end - from;
	}
	rows = malloc(cap * sizeof(*rows));
	xsub = calloc(ndg ? ndg : 1, sizeof(*xsub));
	csub = calloc(ndg ? ndg : 1, sizeof(*csub));
	if (!rows || !xsub || !csub)
		goto out;
	nrow = dirty_threads(iv, cur, dg, ndg, rows);
	dead_subs(iv, prev, &d, dg, ndg, xsub, csub);
	if (iv_changes_reserve(iv, nrow + nt))
		goto out;
	take_out(iv, prev, cur, rows, nrow, dpos);
	move_rows(iv, prev, cur, dpos, newpos);
	ret = put_back(iv, prev, cur, rows, nrow, dg, xsub, csub);
out:
	if (ret)
		iv->tidx_snap = 0;
	free(dg);
	free(dpos);
	free(newpos);
	free(rows);
	free(xsub);
	free(csub);
	free(d.group);
	free(d.thread);
	free(d.more);
	free(w.gexits);
	return ret;
}
