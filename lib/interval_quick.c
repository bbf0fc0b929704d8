// SPDX-License-Identifier: GPL-2.0
/*
 * The quick path: few tasks changed, so the interval is made from the
 * last one by computing again only the rows that changed (process mode;
 * thread mode in interval_quick_threads.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interval_internal.h"
#include "reserve.h"

/* The first place in the sorted a[0, n) whose value is not below v. */
size_t iv_first_not_below(const size_t *a, size_t n, size_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int iv_idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Can the interval (prev, cur] be made from iv, the interval that ended
 * at prev? When cur is prev with an incremental answer merged in, iv is
 * in process mode with one row per group of prev, no EXIT record is
 * late (pending), and nothing exec'ed, moved to another group, came
 * back as another incarnation of a pid, or is left without its group
 * (a dead group's thread records are all dead too): the other cases
 * take the full math. Tasks that died are the keys the merge dropped.
 */
bool iv_quick_ok(const struct ptop_interval *iv,
		 const struct ptop_snap *prev, const struct ptop_snap *cur,
		 bool threads)
{
	size_t k, *of = NULL, nof = 0;
	bool ok = false;

	if (threads != iv->threads || !iv->end_snap_id ||
	    iv->end_snap_id != prev->id || cur->merged_from != prev->id ||
	    iv->nrows != (threads ? prev->nthreads : prev->ngroups) ||
	    cur->caps != prev->caps || cur->npending || prev->npending ||
	    (threads && iv->tidx_snap != prev->id))
		return false;
	for (k = 0; k < cur->nupd_threads; k++) {
		const struct ptop_rec *t = &cur->threads[cur->upd_threads[k]];
		const struct ptop_rec *pt;

		if ((t->flags & PTOP_RECF_EXEC) ||
		    !ptop_snap_find_tgid(cur, t->tgid))
			return false;
		pt = ptop_snap_find_thread(prev, t->pid, t->start_ns);
		if (pt && pt->tgid != t->tgid)
			return false;
	}
	for (k = 0; k < cur->nupd_groups; k++) {
		const struct ptop_rec *g = &cur->groups[cur->upd_groups[k]];

		if (g->flags & PTOP_RECF_EXEC)
			return false;
		if (!ptop_snap_find_group(prev, g->pid, g->start_ns) &&
		    ptop_snap_find_tgid(prev, g->pid))
			return false;	/* a second incarnation of the tgid */
	}
	if (threads)
		return iv_quick_ok_threads(iv, prev, cur);
	if (!cur->ndropped_groups)
		return true;
	/* the groups of prev that the dead threads were in, sorted */
	of = malloc(cur->ndropped_threads * sizeof(*of) + 1);
	if (!of)
		return false;
	for (k = 0; k < cur->ndropped_threads; k++) {
		const struct ptop_snap_key *d = &cur->dropped_threads[k];
		const struct ptop_rec *t, *pg;

		t = ptop_snap_find_thread(prev, d->pid, d->start_ns);
		pg = t ? ptop_snap_find_tgid(prev, t->tgid) : NULL;
		if (pg)
			of[nof++] = (size_t)(pg - prev->groups);
	}
	if (nof > 1)
		qsort(of, nof, sizeof(*of), iv_idx_cmp);
	/* a dead group's row held as many thread records as died with it */
	for (k = 0; k < cur->ndropped_groups; k++) {
		const struct ptop_snap_key *d = &cur->dropped_groups[k];
		const struct ptop_rec *g = ptop_snap_find_group(prev, d->pid,
								d->start_ns);
		size_t gi, lo, first;

		if (!g)
			goto out;
		gi = (size_t)(g - prev->groups);
		lo = iv_first_not_below(of, nof, gi);
		for (first = lo; lo < nof && of[lo] == gi; lo++)
			;
		if (lo - first != iv->rows[gi].nrecs)
			goto out;
	}
	ok = true;
out:
	free(of);
	return ok;
}

/* Room for n changes in iv->changes (kept as it is): 0 or -ENOMEM. */
int iv_changes_reserve(struct ptop_interval *iv, size_t n)
{
	return ptop_reserve(&iv->changes, &iv->cap_changes, n,
			    sizeof(*iv->changes), 64);
}

/*
 * The groups whose rows change: those the answer brought, those of the
 * threads it brought, those that had figures in the last interval, and
 * more[0, nmore) (where the dead were and went; -1: none).
 * Sorted and unique, in iv->dirty; returns the count or -ENOMEM.
 */
static ssize_t quick_dirty(struct ptop_interval *iv, const struct ptop_snap *cur,
			   const ssize_t *more, size_t nmore)
{
	size_t n = cur->nupd_groups + cur->nupd_threads + iv->nloud + nmore, k,
	       m = 0;

	if (ptop_reserve(&iv->dirty, &iv->cap_dirty, n, sizeof(*iv->dirty), 64))
		return -ENOMEM;
	for (k = 0; k < cur->nupd_groups; k++)
		iv->dirty[m++] = cur->upd_groups[k];
	for (k = 0; k < cur->nupd_threads; k++)
		iv->dirty[m++] = index_of(cur->groups, ptop_snap_find_tgid(cur,
				 cur->threads[cur->upd_threads[k]].tgid));
	for (k = 0; k < iv->nloud; k++) {
		ssize_t gi = index_of(cur->groups,
				      ptop_snap_find_group(cur, iv->loud[k].pid,
							   iv->loud[k].start_ns));

		if (gi >= 0)	/* else it died */
			iv->dirty[m++] = gi;
	}
	for (k = 0; k < nmore; k++)
		if (more[k] >= 0)
			iv->dirty[m++] = (size_t)more[k];
	if (m)	/* iv->dirty may be NULL then: qsort(NULL, 0) is UB */
		qsort(iv->dirty, m, sizeof(*iv->dirty), iv_idx_cmp);
	for (k = 0, n = 0; k < m; k++)
		if (!n || iv->dirty[n - 1] != iv->dirty[k])
			iv->dirty[n++] = iv->dirty[k];
	return (ssize_t)n;
}

/*
 * Open the places of the groups that are new in cur: rows[] was prev's,
 * one per group in the same order, and cur is prev plus the new groups.
 * The runs between them move once, from the end.
 */
static void quick_insert(struct ptop_interval *iv, const struct ptop_snap *prev,
			 const struct ptop_snap *cur)
{
	size_t dst = cur->ngroups, src = iv->nrows, k = cur->nupd_groups;

	while (k-- > 0) {
		size_t pos = cur->upd_groups[k], len;
		const struct ptop_rec *g = &cur->groups[pos];

		if (ptop_snap_find_group(prev, g->pid, g->start_ns))
			continue;
		len = dst - (pos + 1);
		memmove(&iv->rows[pos + 1], &iv->rows[src - len],
			len * sizeof(*iv->rows));
		src -= len;
		dst = pos;
		memset(&iv->rows[pos], 0, sizeof(iv->rows[pos]));
	}
	iv->nrows = cur->ngroups;
}

/*
 * Row gi again, first part: the row as it was (the own time of its
 * unchanged threads included) without its figures. pg: the group's
 * previous record (NULL: new).
 */
static void quick_reset(struct ptop_interval *iv, const struct ptop_snap *cur,
			size_t gi, const struct ptop_rec *pg)
{
	struct ptop_row *row = &iv->rows[gi], was = *row;

	iv_row_identity(row, &cur->groups[gi], &cur->groups[gi]);
	row->has = cur->caps;
	row->is_new = !pg;
	if (!pg)
		return;
	row->time_ns = was.time_ns - ptop_rec_x(pg);
	row->nrecs = was.nrecs;
	row->live_u = was.live_u;
	row->live_s = was.live_s;
	row->live_st = was.live_st;
}

/* Take the rows at the sorted places pos[0, np) out (dead groups'). */
void iv_quick_remove(struct ptop_interval *iv, const size_t *pos, size_t np)
{
	size_t j, dst, from, len;

	for (j = 0, dst = np ? pos[0] : 0; j < np; j++) {
		from = pos[j] + 1;
		len = (j + 1 < np ? pos[j + 1] : iv->nrows) - from;
		if (len)
			memmove(&iv->rows[dst], &iv->rows[from],
				len * sizeof(*iv->rows));
		dst += len;
	}
	iv->nrows -= np;
}


int iv_quick_find_dead(struct work *w, struct quick_dead *d)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	size_t ng = cur->ndropped_groups, nt = cur->ndropped_threads, i, k;

	for (i = 0, k = 0; i < cur->nexits; i++)
		k += cur->exits[i].kind == PTOP_REC_GROUP;
	w->gexits = malloc((k ? k : 1) * sizeof(*w->gexits));
	d->group = malloc((ng ? ng : 1) * sizeof(*d->group));
	d->thread = malloc((nt ? nt : 1) * sizeof(*d->thread));
	d->more = malloc((ng + nt ? ng + nt : 1) * sizeof(*d->more));
	if (!w->gexits || !d->group || !d->thread || !d->more)
		return -ENOMEM;
	d->target = d->more;
	d->in = d->more + ng;
	for (i = 0, k = 0; i < cur->nexits; i++)
		if (cur->exits[i].kind == PTOP_REC_GROUP)
			w->gexits[k++] = cur->exits[i];
	w->ngexits = k;
	if (k)
		qsort(w->gexits, k, sizeof(*w->gexits), iv_gexit_cmp);
	w->iv->nexited = k;
	w->iv->ntask_exits = cur->nexits - k;
	/* iv_quick_ok() found each of them in prev */
	for (i = 0; i < ng; i++) {
		const struct ptop_snap_key *key = &cur->dropped_groups[i];
		const struct ptop_rec *g = ptop_snap_find_group(prev, key->pid,
								key->start_ns);

		d->group[i] = (size_t)(g - prev->groups);
		d->target[i] = iv_fold_target(w, g);
		if (!iv_find_gexit(w, g->pid, g->start_ns))
			w->iv->nexited++;	/* vanished without an EXIT */
	}
	d->ngroups = ng;
	for (i = 0, k = 0; i < nt; i++) {
		const struct ptop_snap_key *key = &cur->dropped_threads[i];
		const struct ptop_rec *t, *pg;

		t = ptop_snap_find_thread(prev, key->pid, key->start_ns);
		pg = t ? ptop_snap_find_tgid(prev, t->tgid) : NULL;
		if (!pg)
			continue;	/* not in prev's rows: not in any sum */
		d->thread[k] = t;
		d->in[k++] = iv_cur_group_index(w, pg->pid, pg->start_ns, true);
	}
	d->nthreads = k;
	return 0;
}

/*
 * The sum without the rows that change (dirty[0, nd)) or go (the dead
 * groups'), before they move, each kept in iv->changes; what the last
 * interval showed of a dead group goes to its receiver's csub.
 */
static void quick_take_out(struct ptop_interval *iv,
			   const struct ptop_snap *prev,
			   const struct ptop_snap *cur,
			   const struct quick_dead *d, size_t nd,
			   struct tri *csub)
{
	size_t k;

	for (k = 0; k < nd; k++) {
		const struct ptop_rec *g = &cur->groups[iv->dirty[k]];
		const struct ptop_rec *pg =
			ptop_snap_find_group(prev, g->pid, g->start_ns);
		struct ptop_iv_change *c = &iv->changes[k];

		c->row = iv->dirty[k];
		c->was = pg != NULL;
		if (pg) {
			c->old = iv->rows[pg - prev->groups];
			iv_sum_add(iv, &c->old, -1);
		}
	}
	/*
	 * A dead group: what the last interval showed of it (its threads'
	 * own then, x*, c*) is not new in its receiver's c*.
	 */
	for (k = 0; k < d->ngroups; k++) {
		const struct ptop_rec *g = &prev->groups[d->group[k]];
		struct ptop_iv_change *c = &iv->changes[nd + k];
		struct tri shown;

		c->row = PTOP_IV_GONE;
		c->was = true;
		c->old = iv->rows[d->group[k]];
		iv_sum_add(iv, &c->old, -1);
		shown = (struct tri){ c->old.live_u, c->old.live_s,
				      c->old.live_st };
		tri_add(&shown, tri_x(g));
		tri_add(&shown, tri_c(g));
		if (d->target[k] >= 0)
			tri_add(&csub[iv_first_not_below(iv->dirty, nd,
							 (size_t)d->target[k])], shown);
		else
			iv->unfolded_ns += tri_total(shown);
	}
}

/*
 * The rows in their new places: the dirty ones reset, the own time of
 * the dead threads out (the rest in their group's x: xsub), the
 * answer's threads in.
 */
static void quick_own(struct ptop_interval *iv, const struct ptop_snap *prev,
		      const struct ptop_snap *cur, const struct quick_dead *d,
		      size_t nd, struct tri *xsub)
{
	size_t k;

	for (k = 0; k < nd; k++) {
		const struct ptop_rec *g = &cur->groups[iv->dirty[k]];

		quick_reset(iv, cur, iv->dirty[k],
			    ptop_snap_find_group(prev, g->pid, g->start_ns));
	}
	/* a dead thread of a live group: its group shows the rest in x */
	for (k = 0; k < d->nthreads; k++) {
		if (d->in[k] < 0)
			continue;
		iv_row_drop_own(&iv->rows[d->in[k]], d->thread[k]);
		tri_add(&xsub[iv_first_not_below(iv->dirty, nd,
						 (size_t)d->in[k])],
			tri_own(d->thread[k]));
	}
	/* the answer's threads, as make_rows() adds them */
	for (k = 0; k < cur->nupd_threads; k++) {
		const struct ptop_rec *t = &cur->threads[cur->upd_threads[k]];
		const struct ptop_rec *pt = ptop_snap_prev_thread(prev, t);
		struct ptop_row *row = &iv->rows[ptop_snap_find_tgid(cur, t->tgid) -
						 cur->groups];

		if (pt)
			iv_row_drop_own(row, pt);
		iv_row_add_own(row, t, pt);
	}
}

/* The dirty rows' x*, c* and totals, back into the sum: 0 or -ENOMEM. */
static int quick_put_back(struct ptop_interval *iv,
			  const struct ptop_snap *prev,
			  const struct ptop_snap *cur, size_t nd,
			  const struct tri *xsub, const struct tri *csub)
{
	size_t k;

	iv->nloud = 0;
	for (k = 0; k < nd; k++) {
		struct ptop_row *row = &iv->rows[iv->dirty[k]];
		const struct ptop_rec *g = &cur->groups[iv->dirty[k]];

		iv_row_xc(row, g, ptop_snap_find_group(prev, g->pid, g->start_ns),
			  xsub[k], csub[k], &iv->clamped_ns);
		iv_row_total(row);
		iv_sum_add(iv, row, 1);
		if (iv_row_loud(row) && iv_add_loud(iv, row))
			return -ENOMEM;
	}
	return 0;
}

int iv_quick_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
		     const struct ptop_snap *cur)
{
	struct work w = { .prev = prev, .cur = cur, .iv = iv };
	struct quick_dead d = { 0 };
	struct tri *xsub = NULL, *csub = NULL;
	ssize_t nd;
	size_t nc;
	int ret;

	if (iv_grow(iv, cur->ngroups + cur->ndropped_groups))
		return -ENOMEM;
	ret = iv_quick_find_dead(&w, &d);
	if (ret)
		goto out;
	nd = quick_dirty(iv, cur, d.more, d.ngroups + d.nthreads);
	ret = (int)nd;
	if (nd < 0)
		goto out;
	ret = -ENOMEM;
	nc = (size_t)nd + d.ngroups;
	if (iv_changes_reserve(iv, nc))
		goto out;
	/* what the dead take from x* and c*, per dirty row */
	xsub = calloc(nd ? (size_t)nd : 1, sizeof(*xsub));
	csub = calloc(nd ? (size_t)nd : 1, sizeof(*csub));
	if (!xsub || !csub)
		goto out;
	quick_take_out(iv, prev, cur, &d, (size_t)nd, csub);
	iv->nchanges = nc;
	iv_quick_remove(iv, d.group, d.ngroups);
	quick_insert(iv, prev, cur);
	quick_own(iv, prev, cur, &d, (size_t)nd, xsub);
	ret = quick_put_back(iv, prev, cur, (size_t)nd, xsub, csub);
out:
	free(xsub);
	free(csub);
	free(d.group);
	free(d.thread);
	free(d.more);
	free(w.gexits);
	return ret;
}
