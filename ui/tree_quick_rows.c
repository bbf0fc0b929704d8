// SPDX-License-Identifier: GPL-2.0
/*
 * The tree view's quick build, its output: the flattened rows (v->rows)
 * kept in the full build's order as nodes change and move.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tree_quick_internal.h"

/* The node's row as ui_tree_build() writes it (more kept as it is). */
void tq_out_row(const struct ui_tree_quick *q, struct ui_view *v, long x)
{
	const struct tq_node *n = &q->node[x];
	struct ui_vrow *o = &v->rows[n->pos];
	uint64_t more = o->more;

	*o = n->own;
	o->depth = n->depth;
	o->r.depth = n->depth;
	o->more = more;
	o->has_kids = n->nkids > 0;
	o->orphan = n->orphan;
	o->subtree_ns = (n->own.exited ? 0 : n->own.r.total) + n->kids.total;
	o->collapsed = false;
	o->nhidden = 0;
	if (o->has_kids && ui_pidset_has(&v->collapsed, o->r.pid)) {
		/* the branch's figures under the top row's identity */
		if (n->own.exited)
			ui_tree_figures_zero(&o->r);
		ui_tree_figures_add(&o->r, &n->kids);
		o->collapsed = true;
		o->nhidden = n->size;
	}
}

/* The sibling (depth d) whose branch holds row i. */
long tq_sib_at(const struct ui_tree_quick *q, size_t i, int d)
{
	long s = q->at[i];

	while (q->node[s].depth > d)
		s = q->node[s].parent;
	return s;
}

/* Where x's parent's children are in the rows: [lo, hi). */
void tq_region(const struct ui_tree_quick *q, const struct ui_view *v,
	       long x, size_t *lo, size_t *hi)
{
	long p = q->node[x].parent;

	if (p < 0) {
		*lo = 0;
		*hi = v->nrows;
	} else {
		*lo = q->node[p].pos + 1;
		*hi = *lo + (size_t)q->node[p].vsize;
	}
}

/* The first sibling block in [lo, hi) not before x: its first row. */
size_t tq_sib_bound(const struct ui_tree_quick *q, long x, size_t lo,
		    size_t hi)
{
	int d = q->node[x].depth;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tq_node_cmp(q, tq_sib_at(q, mid, d), x) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Rows [mid, last) before rows [first, mid), places noted. */
static int rotate(struct ui_tree_quick *q, struct ui_view *v, size_t first,
		  size_t mid, size_t last)
{
	size_t a = mid - first, b = last - mid, m = a < b ? a : b, i;

	if (!a || !b)
		return 0;
	if (tq_reserve(&q->blk, &q->cap_blk, m, sizeof(*q->blk)) ||
	    tq_reserve(&q->blkat, &q->cap_blkat, m, sizeof(*q->blkat)))
		return -ENOMEM;
	if (a <= b) {
		memcpy(q->blk, &v->rows[first], a * sizeof(*q->blk));
		memcpy(q->blkat, &q->at[first], a * sizeof(*q->blkat));
		memmove(&v->rows[first], &v->rows[mid], b * sizeof(*v->rows));
		memmove(&q->at[first], &q->at[mid], b * sizeof(*q->at));
		memcpy(&v->rows[first + b], q->blk, a * sizeof(*q->blk));
		memcpy(&q->at[first + b], q->blkat, a * sizeof(*q->blkat));
	} else {
		memcpy(q->blk, &v->rows[mid], b * sizeof(*q->blk));
		memcpy(q->blkat, &q->at[mid], b * sizeof(*q->blkat));
		memmove(&v->rows[first + b], &v->rows[first], a * sizeof(*v->rows));
		memmove(&q->at[first + b], &q->at[first], a * sizeof(*q->at));
		memcpy(&v->rows[first], q->blk, b * sizeof(*q->blk));
		memcpy(&q->at[first], q->blkat, b * sizeof(*q->blkat));
	}
	for (i = first; i < last; i++)
		q->node[q->at[i]].pos = i;
	return 0;
}

/* An empty row at i (rows from i move one down) for node x. */
int tq_rows_open(struct ui_tree_quick *q, struct ui_view *v, size_t i,
		 long x)
{
	size_t k;

	if (tq_reserve(&v->rows, &v->cap, v->nrows + 1, sizeof(*v->rows)) ||
	    tq_reserve(&q->at, &q->cap_at, v->nrows + 1, sizeof(*q->at)))
		return -ENOMEM;
	memmove(&v->rows[i + 1], &v->rows[i], (v->nrows - i) * sizeof(*v->rows));
	memmove(&q->at[i + 1], &q->at[i], (v->nrows - i) * sizeof(*q->at));
	v->nrows++;
	memset(&v->rows[i], 0, sizeof(v->rows[i]));
	q->at[i] = x;
	for (k = i; k < v->nrows; k++)
		q->node[q->at[k]].pos = k;
	return 0;
}

void tq_rows_close(struct ui_tree_quick *q, struct ui_view *v, size_t i)
{
	size_t k;

	memmove(&v->rows[i], &v->rows[i + 1], (v->nrows - i - 1) * sizeof(*v->rows));
	memmove(&q->at[i], &q->at[i + 1], (v->nrows - i - 1) * sizeof(*q->at));
	v->nrows--;
	for (k = i; k < v->nrows; k++)
		q->node[q->at[k]].pos = k;
}

/*
 * The line bit of a shown node (has it a later sibling?), on its row and
 * every row of its branch, which draw that line too.
 */
void tq_fix_more(const struct ui_tree_quick *q, struct ui_view *v, long s)
{
	const struct tq_node *n = &q->node[s];
	size_t lo, hi, i;
	uint64_t bit;
	bool later;

	if (n->depth < 1 || n->depth > UI_TREE_MAX_DEPTH)
		return;
	tq_region(q, v, s, &lo, &hi);
	later = n->pos + 1 + (size_t)n->vsize < hi;
	bit = 1ULL << (n->depth - 1);
	if (!!(v->rows[n->pos].more & bit) == later)
		return;
	for (i = n->pos; i <= n->pos + (size_t)n->vsize; i++)
		v->rows[i].more ^= bit;
}

/* A shown node whose key changed: moved among its siblings if need be. */
int tq_reposition(struct ui_tree_quick *q, struct ui_view *v, long x)
{
	struct tq_node *n = &q->node[x];
	size_t lo, hi, a = n->pos, len = 1 + (size_t)n->vsize, t;
	long oprev = -1, nprev = -1;
	bool prev_ok, next_ok;
	int d = n->depth, rc;

	tq_region(q, v, x, &lo, &hi);
	if (a > lo)
		oprev = tq_sib_at(q, a - 1, d);
	prev_ok = oprev < 0 || tq_node_cmp(q, oprev, x) < 0;
	next_ok = a + len >= hi || tq_node_cmp(q, x, q->at[a + len]) < 0;
	if (prev_ok && next_ok)
		return 0;
	if (!prev_ok) {
		t = tq_sib_bound(q, x, lo, a);
		rc = rotate(q, v, t, a, a + len);
	} else {
		t = tq_sib_bound(q, x, a + len, hi);
		rc = rotate(q, v, a, a + len, t);
	}
	if (rc)
		return rc;
	if (n->pos > lo)
		nprev = tq_sib_at(q, n->pos - 1, d);
	tq_fix_more(q, v, x);
	if (oprev >= 0)
		tq_fix_more(q, v, oprev);
	if (nprev >= 0 && nprev != oprev)
		tq_fix_more(q, v, nprev);
	return 0;
}

/*
 * Ancestors from p up whose sums changed: their rows written again and,
 * siblings ordered by sums, each moved among its siblings.
 */
int tq_ancestors_changed(struct ui_tree_quick *q, struct ui_view *v, long p)
{
	int rc;

	for (; p >= 0; p = q->node[p].parent) {
		if (q->node[p].hidden)
			continue;
		tq_out_row(q, v, p);
		if (q->sum && (rc = tq_reposition(q, v, p)))
			return rc;
	}
	return 0;
}
