// SPDX-License-Identifier: GPL-2.0
/*
 * The tree view's quick build, its start: the tree kept from a full
 * build (ui_tree_build()), and the end of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tree_quick_internal.h"

/* Room for what the rest needs, and the pid table of the n nodes. */
static bool from_full_table(struct ui_tree_quick *q, struct ui_view *v,
			    size_t n)
{
	size_t i;

	if (tq_reserve(&q->kidx, &q->cap_kidx, n + 1, sizeof(*q->kidx)) ||
	    tq_reserve(&q->order, &q->cap_order, n + 1, sizeof(*q->order)) ||
	    tq_reserve(&q->kstart, &q->cap_kstart, n + 1, sizeof(*q->kstart)))
		return false;
	if (tq_reserve(&q->at, &q->cap_at, v->nrows + 1, sizeof(*q->at)))
		return false;
	if (!q->tabcap || q->tabcap < 4 * n || q->tabcap > 16 * n + 64) {
		free(q->tab);
		q->tab = NULL;
		q->tabcap = 0;
		if (tq_tab_resize(q, 2 * n))
			return false;
	} else {
		memset(q->tab, 0, q->tabcap * sizeof(*q->tab));
	}
	q->tabused = 0;
	for (i = 0; i < n; i++) {
		struct tq_ent *e;

		if (!q->node[i].own.r.pid)
			return false;
		e = tq_tab_get(q, q->node[i].own.r.pid);
		if (!e || e->node >= 0)
			return false;	/* a duplicate pid */
		e->node = (long)i;
	}
	return true;
}

/* Each node's parent, and the number of children (in kstart[p + 1]). */
static bool from_full_parents(struct ui_tree_quick *q, size_t n)
{
	size_t i;
	long p;
	bool orphan;

	memset(q->kstart, 0, (n + 1) * sizeof(*q->kstart));
	for (i = 0; i < n; i++) {
		p = tq_resolve(q, (long)i, &orphan);
		if (tq_misses_add(q, (long)i))
			return false;
		q->node[i].parent = p;
		q->node[i].orphan = p >= 0 && orphan;
		if (p >= 0) {
			q->node[p].nkids++;
			q->kstart[p + 1]++;
		}
	}
	return true;
}

/*
 * Children lists (any order), then breadth first from the roots into
 * q->order, with depths and what a collapsed branch hides; false: a
 * ppid cycle.
 */
static bool from_full_order(struct ui_tree_quick *q, struct ui_view *v,
			    size_t n)
{
	size_t i, j, k, head;
	long x, p;

	for (i = 0; i < n; i++)
		q->kstart[i + 1] += q->kstart[i];
	for (i = 0; i < n; i++) {
		p = q->node[i].parent;
		if (p >= 0)
			q->kidx[q->kstart[p]++] = (long)i;
	}
	for (i = n; i > 0; i--)
		q->kstart[i] = q->kstart[i - 1];
	q->kstart[0] = 0;
	for (i = 0, k = 0; i < n; i++)
		if (q->node[i].parent < 0)
			q->order[k++] = (long)i;
	for (head = 0; head < k; head++) {
		x = q->order[head];
		for (j = q->kstart[x]; j < q->kstart[x + 1]; j++) {
			long c = q->kidx[j];
			struct tq_node *cn = &q->node[c];

			cn->depth = q->node[x].depth + 1;
			cn->hidden = q->node[x].hidden ||
				     ui_pidset_has(&v->collapsed,
						   q->node[x].own.r.pid);
			q->order[k++] = c;
		}
	}
	return k >= n;
}

/* The branches' sums and sizes, from the leaves up (q->order reversed). */
static void from_full_sums(struct ui_tree_quick *q, size_t n)
{
	size_t i;
	long x, p;

	for (i = n; i-- > 0;) {
		struct ptop_row c;

		x = q->order[i];
		p = q->node[x].parent;
		if (p < 0)
			continue;
		tq_contrib(&q->node[x], &c);
		ui_tree_figures_add(&q->node[p].kids, &c);
		q->node[p].size += q->node[x].size + 1;
		if (!q->node[x].hidden)
			q->node[p].vsize += q->node[x].vsize + 1;
	}
}

/* The places, checked against the full build's rows, and the dead. */
static bool from_full_places(struct ui_tree_quick *q, struct ui_view *v,
			     size_t n)
{
	size_t i, k;
	long x;

	for (i = 0, k = 0; i < n; i++)
		k += !q->node[i].hidden;
	if (k != v->nrows)
		return false;
	for (i = 0; i < v->nrows; i++) {
		x = tq_tab_node(q, v->rows[i].r.pid);
		if (x < 0 || q->node[x].hidden ||
		    q->node[x].depth != v->rows[i].depth ||
		    q->node[x].own.exited != v->rows[i].exited)
			return false;
		q->node[x].pos = i;
		q->at[i] = x;
	}
	if (tq_reserve(&q->exited, &q->cap_exited, n, sizeof(*q->exited)))
		return false;
	for (i = 0, q->nexited = 0; i < n; i++)
		if (q->node[i].own.exited)
			q->exited[q->nexited++] = (long)i;
	return true;
}

/*
 * The tree kept from rows in[0, n) (the full build's input) and its
 * output (v->rows): pid table, parents, depths, sums, places. Any case
 * the quick build does not take (a duplicate pid, a cycle, a row not
 * where it should be): not valid.
 */
static void tq_from_full(struct ui_tree_quick *q, struct ui_view *v, size_t n)
{
	q->valid = false;
	if (!from_full_table(q, v, n) || !from_full_parents(q, n) ||
	    !from_full_order(q, v, n))
		return;
	from_full_sums(q, n);
	q->valid = from_full_places(q, v, n);
}

long ui_tq_full(struct ui_view *v, size_t n, int sort_id, bool asc, bool keep)
{
	struct ui_tree_quick *q = v->tq;
	size_t i;
	long t;

	if (keep && !q)
		q = v->tq = calloc(1, sizeof(*q));
	if (q)
		q->valid = false;
	/* the input rows, before ui_tree_build() reorders them */
	if (keep && q && !tq_reserve(&q->node, &q->cap, n ? n : 1,
				     sizeof(*q->node))) {
		for (i = 0; i < n; i++) {
			struct tq_node *nd = &q->node[i];

			/* all but own (the first field) zero, own copied */
			memset(&nd->kids, 0, sizeof(*nd) - offsetof(struct tq_node, kids));
			nd->own = v->rows[i];
			nd->parent = -1;
			nd->used = true;
		}
		q->nnode = n;
		q->nfree = 0;
	} else {
		keep = false;
	}
	t = ui_tree_build(v->rows, n, sort_id, asc, &v->collapsed);
	if (t < 0 || !keep)
		return t;
	v->nrows = (size_t)t;
	q->sort_id = sort_id;
	q->asc = asc;
	q->sum = ui_tree_summable(sort_id);
	tq_from_full(q, v, n);
	return t;
}

bool ui_tq_valid(const struct ui_view *v)
{
	return v->tq && v->tq->valid;
}

void ui_tq_free(struct ui_tree_quick *q)
{
	if (!q)
		return;
	free(q->node);
	free(q->freel);
	free(q->tab);
	free(q->at);
	free(q->exited);
	free(q->lst);
	free(q->blk);
	free(q->blkat);
	free(q->mv);
	free(q->mvat);
	free(q->kidx);
	free(q->order);
	free(q->kstart);
	free(q);
}
