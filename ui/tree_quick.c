// SPDX-License-Identifier: GPL-2.0
/*
 * The tree view's quick build (its cost follows what changed): the last
 * tree is kept (each row's node: parent, depth, children count, the figures
 * of the branches below it, its place in the view's rows), and an interval
 * made by the quick path changes only what its changed rows touch:
 *
 * - a row whose figures changed: its ancestors' branch sums take the
 *   difference, its output row and theirs are written again, and the
 *   row, then (siblings ordered by branch sums) each ancestor, moves
 *   among its siblings only if its key went past a neighbour's: a binary
 *   search over the siblings' blocks in the flattened rows, one rotation
 *   of the rows between the old and the new place;
 * - a row that left (died, filtered out, the last interval's dead) or
 *   came (born, the dead of this interval), and one whose parent links
 *   changed (taken out, put back), as a leaf; a row that leaves with
 *   rows below it first moves each child's branch to where the full
 *   build puts it now (out of the rows, depths and lines shifted, back
 *   in among its new siblings); a row that comes whose pid other rows
 *   looked up in vain takes their branches under it likewise;
 * - the full build instead for a duplicate pid, a ppid cycle, a branch
 *   with hidden rows that must move.
 *
 * The full build (ui_tree_build(), ui/tree.c) stays the reference: the
 * tree kept here is made from its input and checked against its output,
 * and any case this file does not take (the state then invalid) is left
 * to it. The lines (more bits) of a branch change only when it becomes
 * or stops being its parent's last child. Rows below a collapsed branch
 * have no place (not shown); their figures still go to its sums.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tree_quick_internal.h"

/* A node with no rows below it leaves the tree. */
static int remove_leaf(struct ui_tree_quick *q, struct ui_view *v, long x)
{
	struct tq_node *n = &q->node[x];
	long p = n->parent, oprev = -1;
	struct ptop_row c;
	struct tq_ent *e;
	size_t lo, hi;

	tq_contrib(n, &c);
	if (!n->hidden) {
		tq_region(q, v, x, &lo, &hi);
		if (n->pos > lo)
			oprev = tq_sib_at(q, n->pos - 1, n->depth);
		tq_rows_close(q, v, n->pos);
	}
	tq_up(q, p, NULL, &c, -1, n->hidden ? 0 : -1);
	if (p >= 0)
		q->node[p].nkids--;
	tq_misses_del(q, x);
	e = tq_tab_find(q, n->own.r.pid);
	if (e && e->node == x) {
		e->node = -1;
		tq_tab_trim(q, n->own.r.pid);
	}
	if (tq_node_free(q, x))
		return -ENOMEM;
	if (oprev >= 0)
		tq_fix_more(q, v, oprev);
	return tq_ancestors_changed(q, v, p);
}

/*
 * A shown branch c (nothing in it hidden) moves under np (shown, not
 * collapsed; -1: a root), e.g. its parent is leaving: out of the rows,
 * its depths and lines shifted, back in among np's children. -ENOTEMPTY
 * for what this does not take (lines beyond UI_TREE_MAX_DEPTH).
 */
static int move_branch(struct ui_tree_quick *q, struct ui_view *v, long c,
		       long np, bool orphan)
{
	struct tq_node *n = &q->node[c];
	long op = n->parent, oprev = -1, nprev = -1;
	size_t len = 1 + (size_t)n->vsize, lo, hi, a = n->pos, t, i;
	int od = n->depth, nd = np < 0 ? 0 : q->node[np].depth + 1, maxd = 0;
	uint64_t low;
	struct ptop_row cc;
	int rc;

	for (i = a; i < a + len; i++)
		if (v->rows[i].depth > maxd)
			maxd = v->rows[i].depth;
	if (maxd > UI_TREE_MAX_DEPTH || maxd - od + nd > UI_TREE_MAX_DEPTH)
		return -ENOTEMPTY;
	/* out: the rows kept aside */
	if (tq_reserve(&q->mv, &q->cap_mv, len, sizeof(*q->mv)) ||
	    tq_reserve(&q->mvat, &q->cap_mvat, len, sizeof(*q->mvat)))
		return -ENOMEM;
	memcpy(q->mv, &v->rows[a], len * sizeof(*q->mv));
	memcpy(q->mvat, &q->at[a], len * sizeof(*q->mvat));
	tq_region(q, v, c, &lo, &hi);
	if (a > lo)
		oprev = tq_sib_at(q, a - 1, od);
	memmove(&v->rows[a], &v->rows[a + len],
		(v->nrows - a - len) * sizeof(*v->rows));
	memmove(&q->at[a], &q->at[a + len], (v->nrows - a - len) * sizeof(*q->at));
	v->nrows -= len;
	for (i = a; i < v->nrows; i++)
		q->node[q->at[i]].pos = i;
	tq_contrib(n, &cc);
	tq_up(q, op, NULL, &cc, -(n->size + 1), -(int)len);
	if (op >= 0)
		q->node[op].nkids--;
	if (oprev >= 0)
		tq_fix_more(q, v, oprev);
	rc = tq_ancestors_changed(q, v, op);
	if (rc)
		return rc;
	/* the branch's depths and lines: np's above, its own shifted */
	n->parent = np;
	n->orphan = np >= 0 && orphan;
	low = np < 0 || nd < 2 ? 0 :
	      v->rows[q->node[np].pos].more & ((1ULL << (nd - 1)) - 1);
	for (i = 0; i < len; i++) {
		struct ui_vrow *r = &q->mv[i];

		r->more = low | ((r->more >> od) << nd);
		r->depth += nd - od;
		r->r.depth = r->depth;
		q->node[q->mvat[i]].depth = r->depth;
	}
	/* in, among np's children */
	n->parent = np;
	tq_region(q, v, c, &lo, &hi);
	t = tq_sib_bound(q, c, lo, hi);
	if (t > lo)
		nprev = tq_sib_at(q, t - 1, nd);
	if (tq_reserve(&v->rows, &v->cap, v->nrows + len, sizeof(*v->rows)) ||
	    tq_reserve(&q->at, &q->cap_at, v->nrows + len, sizeof(*q->at)))
		return -ENOMEM;
	memmove(&v->rows[t + len], &v->rows[t], (v->nrows - t) * sizeof(*v->rows));
	memmove(&q->at[t + len], &q->at[t], (v->nrows - t) * sizeof(*q->at));
	memcpy(&v->rows[t], q->mv, len * sizeof(*q->mv));
	memcpy(&q->at[t], q->mvat, len * sizeof(*q->mvat));
	v->nrows += len;
	for (i = t; i < v->nrows; i++)
		q->node[q->at[i]].pos = i;
	tq_up(q, np, &cc, NULL, n->size + 1, (int)len);
	if (np >= 0)
		q->node[np].nkids++;
	tq_out_row(q, v, c);
	tq_fix_more(q, v, c);
	if (nprev >= 0)
		tq_fix_more(q, v, nprev);
	return tq_ancestors_changed(q, v, np);
}

/*
 * A node leaving with rows below it: its pid out of the table first, its
 * children then go where the full build would put them now (each found
 * as a block start in its branch's rows), and it leaves as a leaf. Only
 * for a shown node that is not collapsed, with nothing hidden below.
 */
static int remove_inner(struct ui_tree_quick *q, struct ui_view *v, long x)
{
	struct tq_node *n = &q->node[x];
	struct tq_ent *e = tq_tab_find(q, n->own.r.pid);
	size_t i, nk = 0, from = n->pos + 1, to = n->pos + 1 + (size_t)n->vsize;
	long *kid;
	int rc = 0;

	if (n->hidden || n->vsize != n->size || !e || e->node != x)
		return -ENOTEMPTY;
	kid = malloc((size_t)n->nkids * sizeof(*kid));
	if (!kid)
		return -ENOMEM;
	for (i = from; i < to && nk < (size_t)n->nkids; i++)
		if (v->rows[i].depth == n->depth + 1)
			kid[nk++] = q->at[i];
	if (nk != (size_t)n->nkids) {
		free(kid);
		return -ENOTEMPTY;
	}
	e->node = -1;		/* what looks it up finds it no more */
	for (i = 0; i < nk && !rc; i++) {
		long c = kid[i], p, a;
		bool orphan;

		tq_misses_del(q, c);
		p = tq_resolve(q, c, &orphan);
		rc = tq_misses_add(q, c);
		if (rc)
			break;
		/* under its own branch (a cycle), or hidden: the full build */
		for (a = p; a >= 0 && a != c; a = q->node[a].parent)
			;
		if (a == c || (p >= 0 && (q->node[p].hidden ||
					  ui_pidset_has(&v->collapsed,
							q->node[p].own.r.pid)))) {
			rc = -ENOTEMPTY;
			break;
		}
		rc = move_branch(q, v, c, p, orphan);
	}
	free(kid);
	e = tq_tab_get(q, q->node[x].own.r.pid);
	if (!rc && (!e || e->node >= 0))
		rc = -ENOMEM;
	if (rc)
		return rc;
	e->node = x;		/* remove_leaf() takes it out */
	if (q->node[x].nkids)
		return -ENOTEMPTY;
	return remove_leaf(q, v, x);
}

/*
 * A pid came that rows looked up in vain: each of those (a scan of the
 * nodes, only then) is looked up again and its branch moves where the
 * full build puts it now. The cases move_branch() does not take, a
 * hidden row or a cycle: -ENOTEMPTY, -ELOOP.
 */
static int relink_missing(struct ui_tree_quick *q, struct ui_view *v,
			  uint32_t pid)
{
	size_t y;
	int rc;

	for (y = 0; y < q->nnode; y++) {
		struct tq_node *n = &q->node[y];
		bool orphan;
		long p, a;

		if (!n->used || (n->miss[0] != pid && n->miss[1] != pid))
			continue;
		tq_misses_del(q, (long)y);
		p = tq_resolve(q, (long)y, &orphan);
		rc = tq_misses_add(q, (long)y);
		if (rc)
			return rc;
		if (n->hidden || n->vsize != n->size ||
		    (p >= 0 && (q->node[p].hidden ||
				ui_pidset_has(&v->collapsed, q->node[p].own.r.pid))))
			return -ENOTEMPTY;
		for (a = p; a >= 0 && a != (long)y; a = q->node[a].parent)
			;
		if (a == (long)y)
			return -ELOOP;
		if (p == n->parent && (p >= 0 && orphan) == n->orphan)
			continue;
		rc = move_branch(q, v, (long)y, p, orphan);
		if (rc)
			return rc;
	}
	return 0;
}

/* A row whose figures (not its parent links) changed. */
static int update(struct ui_tree_quick *q, struct ui_view *v, long x,
		  const struct ui_vrow *nv)
{
	struct tq_node *n = &q->node[x];
	struct ptop_row old = n->own.r;
	int rc;

	n->own = *nv;
	if (!n->own.exited)
		tq_up(q, n->parent, &n->own.r, &old, 0, 0);
	if (!n->hidden) {
		tq_out_row(q, v, x);
		rc = tq_reposition(q, v, x);
		if (rc)
			return rc;
	}
	return tq_ancestors_changed(q, v, n->parent);
}

/*
 * A new node (its pid in the table, mark 1) joins the tree as a leaf,
 * after its parent if that is new too. -ELOOP: new rows in a cycle.
 */
static int attach(struct ui_tree_quick *q, struct ui_view *v, long x, int depth)
{
	struct tq_node *n = &q->node[x];
	struct ptop_row c;
	size_t lo, hi, t;
	bool orphan;
	long p, nprev = -1;
	int rc;

	if (!n->mark)
		return 0;
	if (n->mark == 2 || depth > 256)
		return -ELOOP;
	n->mark = 2;
	p = tq_resolve(q, x, &orphan);
	if (p >= 0 && q->node[p].mark) {
		rc = attach(q, v, p, depth + 1);
		if (rc)
			return rc;
	}
	n = &q->node[x];
	rc = tq_misses_add(q, x);
	if (rc)
		return rc;
	n->mark = 0;
	n->parent = p;
	n->orphan = p >= 0 && orphan;
	n->depth = p < 0 ? 0 : q->node[p].depth + 1;
	n->hidden = p >= 0 && (q->node[p].hidden ||
			       ui_pidset_has(&v->collapsed, q->node[p].own.r.pid));
	if (!n->hidden) {
		tq_region(q, v, x, &lo, &hi);
		t = tq_sib_bound(q, x, lo, hi);
		if (t > lo)
			nprev = tq_sib_at(q, t - 1, n->depth);
		rc = tq_rows_open(q, v, t, x);
		if (rc)
			return rc;
		v->rows[t].more = p < 0 ? 0 : v->rows[q->node[p].pos].more;
	}
	tq_contrib(n, &c);
	tq_up(q, p, &c, NULL, 1, n->hidden ? 0 : 1);
	if (p >= 0)
		q->node[p].nkids++;
	if (!n->hidden) {
		tq_out_row(q, v, x);
		tq_fix_more(q, v, x);
		if (nprev >= 0)
			tq_fix_more(q, v, nprev);
	}
	return tq_ancestors_changed(q, v, p);
}

static bool same_links(const struct ptop_row *a, const struct ptop_row *b)
{
	return a->pid == b->pid && a->tgid == b->tgid && a->ppid == b->ppid &&
	       a->acct_ppid == b->acct_ppid && a->is_thread == b->is_thread;
}

/*
 * What leaves, into q->lst[0, *nrem): the last build's dead, rows gone
 * or relinked. 0, or -ESRCH (a row not there, or two changes, one row).
 */
static int what_leaves(struct ui_tree_quick *q, const struct ui_tq_chg *chg,
		       size_t nchg, size_t *nrem)
{
	size_t i;
	long x;

	for (i = 0; i < q->nexited; i++)
		q->lst[(*nrem)++] = q->exited[i];
	for (i = 0; i < nchg; i++) {
		if (!chg[i].old)
			continue;
		x = tq_tab_node(q, chg[i].old->pid);
		if (x < 0 || q->node[x].own.exited || q->node[x].mark)
			return -ESRCH;	/* not there, or two changes, one row */
		q->node[x].mark = 3;
		if (!chg[i].nv || !same_links(&q->node[x].own.r, &chg[i].nv->r))
			q->lst[(*nrem)++] = x;
	}
	for (i = 0; i < nchg; i++)
		if (chg[i].old)
			q->node[tq_tab_node(q, chg[i].old->pid)].mark = 0;
	return 0;
}

/*
 * The nodes q->lst[0, nrem) leave: a leaf first, then what is a leaf
 * once those left, then the rest.
 */
static int remove_all(struct ui_tree_quick *q, struct ui_view *v, size_t nrem)
{
	size_t i, left;
	long x;
	int rc;

	for (left = nrem; left;) {
		size_t before = left;

		for (i = 0; i < nrem; i++) {
			x = q->lst[i];
			if (x < 0 || q->node[x].nkids)
				continue;
			rc = remove_leaf(q, v, x);
			if (rc)
				return rc;
			q->lst[i] = -1;
			left--;
		}
		if (left != before)
			continue;
		/* none is a leaf: the first moves its children away */
		for (i = 0; q->lst[i] < 0; i++)
			;
		rc = remove_inner(q, v, q->lst[i]);
		if (rc)
			return rc;
		q->lst[i] = -1;
		left--;
	}
	return 0;
}

/* What stays, with new figures. */
static int update_stayers(struct ui_tree_quick *q, struct ui_view *v,
			  const struct ui_tq_chg *chg, size_t nchg)
{
	size_t i;
	long x;
	int rc;

	for (i = 0; i < nchg; i++) {
		if (!chg[i].old || !chg[i].nv)
			continue;
		x = tq_tab_node(q, chg[i].old->pid);
		if (x < 0 || !same_links(&q->node[x].own.r, &chg[i].nv->r))
			continue;	/* relinked: it came again below */
		rc = update(q, v, x, chg[i].nv);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * What comes, as new nodes in the pid table, into q->lst[0, *nadd):
 * 0, -EINVAL (pid 0), -ENOMEM, -EEXIST (a duplicate pid).
 */
static int what_comes(struct ui_tree_quick *q, const struct ui_tq_chg *chg,
		      size_t nchg, const struct ui_vrow *exited,
		      size_t nexited, size_t *nadd)
{
	size_t i;
	long x;

	for (i = 0; i < nchg + nexited; i++) {
		const struct ui_vrow *nv = i < nchg ? chg[i].nv : &exited[i - nchg];
		struct tq_ent *e;

		if (!nv)
			continue;
		if (i < nchg && chg[i].old) {
			x = tq_tab_node(q, chg[i].old->pid);
			if (x >= 0 && same_links(&q->node[x].own.r, &nv->r))
				continue;	/* updated */
		}
		if (!nv->r.pid)
			return -EINVAL;
		e = tq_tab_get(q, nv->r.pid);
		if (!e)
			return -ENOMEM;
		/* a duplicate pid (rows that looked it up in vain: below) */
		if (e->node >= 0)
			return -EEXIST;
		x = tq_node_new(q, nv);
		if (x < 0)
			return -ENOMEM;
		e = tq_tab_find(q, nv->r.pid);
		e->node = x;
		q->node[x].mark = 1;
		q->lst[(*nadd)++] = x;
	}
	return 0;
}

/*
 * The new nodes q->lst[0, nadd) each under its parent, rows that looked
 * a new pid up in vain under it, and the dead shown now kept.
 */
static int attach_all(struct ui_tree_quick *q, struct ui_view *v, size_t nadd,
		      size_t nexited)
{
	size_t k;
	int rc;

	for (k = 0; k < nadd; k++) {
		rc = attach(q, v, q->lst[k], 0);
		if (rc)
			return rc;
	}
	for (k = 0; k < nadd; k++) {
		struct tq_ent *w = tq_tab_find(q, q->node[q->lst[k]].own.r.pid);

		if (w && w->nmiss && (rc = relink_missing(q, v, w->pid)))
			return rc;
	}
	if (tq_reserve(&q->exited, &q->cap_exited, nexited, sizeof(*q->exited)))
		return -ENOMEM;
	q->nexited = 0;
	for (k = 0; k < nadd; k++)
		if (q->node[q->lst[k]].own.exited)
			q->exited[q->nexited++] = q->lst[k];
	return 0;
}

int ui_tq_update(struct ui_view *v, const struct ui_tq_chg *chg, size_t nchg,
		 const struct ui_vrow *exited, size_t nexited)
{
	struct ui_tree_quick *q = v->tq;
	size_t nrem = 0, nadd = 0;
	int rc;

	if (!q || !q->valid)
		return -EINVAL;
	q->valid = false;	/* until all of it is done */
	if (tq_reserve(&q->lst, &q->cap_lst, q->nexited + 2 * nchg + nexited,
		       sizeof(*q->lst)))
		return -ENOMEM;
	rc = what_leaves(q, chg, nchg, &nrem);
	if (!rc)
		rc = remove_all(q, v, nrem);
	if (!rc)
		rc = update_stayers(q, v, chg, nchg);
	if (!rc)
		rc = what_comes(q, chg, nchg, exited, nexited, &nadd);
	if (!rc)
		rc = attach_all(q, v, nadd, nexited);
	if (rc)
		return rc;
	q->valid = true;
	return 0;
}
