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

#include "lib/reserve.h"
#include "tree.h"
#include "view.h"

struct tq_node {
	struct ui_vrow own;	/* the row as the view selected it */
	struct ptop_row kids;	/* figures of the branches below, summed */
	long parent;		/* -1: a root */
	size_t pos;		/* in v->rows, when shown */
	int depth, nkids;
	int size;		/* rows below it */
	int vsize;		/* rows below it that are shown */
	uint32_t miss[2];	/* pids it looked up in vain */
	bool used, hidden, orphan;
	unsigned char mark;	/* an addition: 1 to attach, 2 attaching */
};

struct tq_ent {
	uint32_t pid;		/* 0: free */
	uint32_t nmiss;		/* nodes that looked this pid up in vain */
	long node;		/* -1: no row has it */
};

struct ui_tree_quick {
	bool valid;
	int sort_id;
	bool asc, sum;
	struct tq_node *node;
	size_t nnode, cap;
	long *freel;
	size_t nfree, cap_free;
	struct tq_ent *tab;
	size_t tabcap, tabused;	/* tabcap: a power of 2 */
	long *at;		/* the node of each v->rows[i] */
	size_t cap_at;
	long *exited;		/* the nodes of the dead rows shown */
	size_t nexited, cap_exited;
	/* scratch */
	long *lst;
	size_t cap_lst;
	struct ui_vrow *blk;
	long *blkat;
	size_t cap_blk, cap_blkat;
	struct ui_vrow *mv;	/* a branch on its way (move_branch) */
	long *mvat;
	size_t cap_mv, cap_mvat;
	long *kidx, *order;
	size_t *kstart;
	size_t cap_kidx, cap_order, cap_kstart;
};

static int reserve(void *p, size_t *cap, size_t n, size_t size)
{
	return ptop_reserve(p, cap, n, size, 16);
}

/* --- pid -> node, and the pids looked up in vain ------------------------ */

static size_t tab_hash(uint32_t pid, size_t cap)
{
	return (size_t)(pid * 2654435761U) & (cap - 1);
}

static struct tq_ent *tab_find(const struct ui_tree_quick *q, uint32_t pid)
{
	size_t i;

	if (!q->tabcap)
		return NULL;
	for (i = tab_hash(pid, q->tabcap); q->tab[i].pid;
	     i = (i + 1) & (q->tabcap - 1))
		if (q->tab[i].pid == pid)
			return &q->tab[i];
	return NULL;
}

static long tab_node(const struct ui_tree_quick *q, uint32_t pid)
{
	const struct tq_ent *e = tab_find(q, pid);

	return e ? e->node : -1;
}

static int tab_resize(struct ui_tree_quick *q, size_t want)
{
	struct tq_ent *old = q->tab, *nt;
	size_t ocap = q->tabcap, cap = 64, i;

	while (cap < want * 2)
		cap *= 2;
	nt = calloc(cap, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	q->tab = nt;
	q->tabcap = cap;
	for (i = 0; i < ocap; i++) {
		size_t j;

		if (!old[i].pid)
			continue;
		for (j = tab_hash(old[i].pid, cap); nt[j].pid; j = (j + 1) & (cap - 1))
			;
		nt[j] = old[i];
	}
	free(old);
	return 0;
}

/* The entry of pid, made if need be (NULL: no memory). */
static struct tq_ent *tab_get(struct ui_tree_quick *q, uint32_t pid)
{
	struct tq_ent *e = tab_find(q, pid);
	size_t i;

	if (e)
		return e;
	if ((q->tabused + 1) * 2 > q->tabcap &&
	    tab_resize(q, q->tabused + 1))
		return NULL;
	for (i = tab_hash(pid, q->tabcap); q->tab[i].pid;
	     i = (i + 1) & (q->tabcap - 1))
		;
	q->tab[i] = (struct tq_ent){ pid, 0, -1 };
	q->tabused++;
	return &q->tab[i];
}

/* Drop pid's entry when nothing needs it (linear probing: shift back). */
static void tab_trim(struct ui_tree_quick *q, uint32_t pid)
{
	struct tq_ent *e = tab_find(q, pid);
	size_t i, j, k, mask = q->tabcap - 1;

	if (!e || e->node >= 0 || e->nmiss)
		return;
	i = (size_t)(e - q->tab);
	q->tab[i].pid = 0;
	q->tabused--;
	for (j = (i + 1) & mask; q->tab[j].pid; j = (j + 1) & mask) {
		k = tab_hash(q->tab[j].pid, q->tabcap);
		/* stays if its home is cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		q->tab[i] = q->tab[j];
		q->tab[j].pid = 0;
		i = j;
	}
}

/*
 * The parent a node hangs under, as ui/tree.c's tree_parent() finds it
 * (no duplicate pids here), and the pids it looked up in vain.
 */
static long resolve(struct ui_tree_quick *q, long x, bool *orphan)
{
	struct tq_node *n = &q->node[x];
	const struct ptop_row *r = &n->own.r;
	long p;

	*orphan = false;
	n->miss[0] = n->miss[1] = 0;
	if (r->is_thread && r->pid != r->tgid) {
		p = tab_node(q, r->tgid);
		if (p < 0)
			n->miss[0] = r->tgid;
		return p == x ? -1 : p;
	}
	if (r->acct_ppid && r->acct_ppid != r->ppid && r->acct_ppid != r->pid) {
		p = tab_node(q, r->acct_ppid);
		if (p >= 0 && p != x) {
			*orphan = true;
			return p;
		}
		if (p < 0)
			n->miss[0] = r->acct_ppid;
	}
	if (!r->ppid || r->ppid == r->pid)
		return -1;
	p = tab_node(q, r->ppid);
	if (p < 0)
		n->miss[1] = r->ppid;
	return p == x ? -1 : p;
}

static int misses_add(struct ui_tree_quick *q, long x)
{
	int i;

	for (i = 0; i < 2; i++) {
		uint32_t pid = q->node[x].miss[i];
		struct tq_ent *e;

		if (!pid)
			continue;
		e = tab_get(q, pid);
		if (!e)
			return -ENOMEM;
		e->nmiss++;
	}
	return 0;
}

static void misses_del(struct ui_tree_quick *q, long x)
{
	int i;

	for (i = 0; i < 2; i++) {
		uint32_t pid = q->node[x].miss[i];
		struct tq_ent *e = pid ? tab_find(q, pid) : NULL;

		if (!e)
			continue;
		e->nmiss--;
		tab_trim(q, pid);
	}
}

/* --- nodes --------------------------------------------------------------- */

static long node_new(struct ui_tree_quick *q, const struct ui_vrow *own)
{
	long x;

	if (q->nfree) {
		x = q->freel[--q->nfree];
	} else {
		if (reserve(&q->node, &q->cap, q->nnode + 1,
			    sizeof(*q->node)))
			return -1;
		x = (long)q->nnode++;
	}
	memset(&q->node[x], 0, sizeof(q->node[x]));
	q->node[x].own = *own;
	q->node[x].parent = -1;
	q->node[x].used = true;
	return x;
}

static int node_free(struct ui_tree_quick *q, long x)
{
	if (reserve(&q->freel, &q->cap_free, q->nfree + 1,
		    sizeof(*q->freel)))
		return -ENOMEM;
	q->node[x].used = false;
	q->freel[q->nfree++] = x;
	return 0;
}

/* What a node's branch adds to its parent's sums. */
static void contrib(const struct tq_node *n, struct ptop_row *c)
{
	memset(c, 0, sizeof(*c));
	if (!n->own.exited)
		ui_tree_figures_add(c, &n->own.r);
	ui_tree_figures_add(c, &n->kids);
}

/* Ancestors from p up: sums, rows below, rows shown below. */
static void up(struct ui_tree_quick *q, long p, const struct ptop_row *add,
	       const struct ptop_row *sub, int dsize, int dvsize)
{
	for (; p >= 0; p = q->node[p].parent) {
		if (add)
			ui_tree_figures_add(&q->node[p].kids, add);
		if (sub)
			ui_tree_figures_sub(&q->node[p].kids, sub);
		q->node[p].size += dsize;
		q->node[p].vsize += dvsize;
	}
}

/* The sibling order of ui_tree_build(): by the key, then pid, live first. */
static int node_cmp(const struct ui_tree_quick *q, long a, long b)
{
	const struct tq_node *x = &q->node[a], *y = &q->node[b];
	const struct ptop_col *col = &ptop_cols[q->sort_id];
	int c;

	if (q->sum) {
		/* the branch's sum: own (live) + below, as ptop_col_value() */
		uint64_t vx = ptop_col_value(col, &x->kids) +
			      (x->own.exited ? 0 : ptop_col_value(col, &x->own.r));
		uint64_t vy = ptop_col_value(col, &y->kids) +
			      (y->own.exited ? 0 : ptop_col_value(col, &y->own.r));

		c = vx < vy ? -1 : vx > vy;
	} else {
		c = ptop_col_compare(col, &x->own.r, &y->own.r);
	}
	if (!q->asc)
		c = -c;
	if (!c)
		c = x->own.r.pid < y->own.r.pid ? -1 : x->own.r.pid > y->own.r.pid;
	if (!c)
		c = x->own.exited - y->own.exited;
	return c;
}

/* --- the flattened rows -------------------------------------------------- */

/* The node's row as ui_tree_build() writes it (more kept as it is). */
static void out_row(const struct ui_tree_quick *q, struct ui_view *v, long x)
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
static long sib_at(const struct ui_tree_quick *q, size_t i, int d)
{
	long s = q->at[i];

	while (q->node[s].depth > d)
		s = q->node[s].parent;
	return s;
}

/* Where x's parent's children are in the rows: [lo, hi). */
static void region(const struct ui_tree_quick *q, const struct ui_view *v,
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
static size_t sib_bound(const struct ui_tree_quick *q, long x, size_t lo,
			size_t hi)
{
	int d = q->node[x].depth;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (node_cmp(q, sib_at(q, mid, d), x) < 0)
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
	if (reserve(&q->blk, &q->cap_blk, m, sizeof(*q->blk)) ||
	    reserve(&q->blkat, &q->cap_blkat, m, sizeof(*q->blkat)))
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
static int rows_open(struct ui_tree_quick *q, struct ui_view *v, size_t i,
		     long x)
{
	size_t k;

	if (reserve(&v->rows, &v->cap, v->nrows + 1, sizeof(*v->rows)) ||
	    reserve(&q->at, &q->cap_at, v->nrows + 1, sizeof(*q->at)))
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

static void rows_close(struct ui_tree_quick *q, struct ui_view *v, size_t i)
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
static void fix_more(const struct ui_tree_quick *q, struct ui_view *v, long s)
{
	const struct tq_node *n = &q->node[s];
	size_t lo, hi, i;
	uint64_t bit;
	bool later;

	if (n->depth < 1 || n->depth > UI_TREE_MAX_DEPTH)
		return;
	region(q, v, s, &lo, &hi);
	later = n->pos + 1 + (size_t)n->vsize < hi;
	bit = 1ULL << (n->depth - 1);
	if (!!(v->rows[n->pos].more & bit) == later)
		return;
	for (i = n->pos; i <= n->pos + (size_t)n->vsize; i++)
		v->rows[i].more ^= bit;
}

/* A shown node whose key changed: moved among its siblings if need be. */
static int reposition(struct ui_tree_quick *q, struct ui_view *v, long x)
{
	struct tq_node *n = &q->node[x];
	size_t lo, hi, a = n->pos, len = 1 + (size_t)n->vsize, t;
	long oprev = -1, nprev = -1;
	bool prev_ok, next_ok;
	int d = n->depth, rc;

	region(q, v, x, &lo, &hi);
	if (a > lo)
		oprev = sib_at(q, a - 1, d);
	prev_ok = oprev < 0 || node_cmp(q, oprev, x) < 0;
	next_ok = a + len >= hi || node_cmp(q, x, q->at[a + len]) < 0;
	if (prev_ok && next_ok)
		return 0;
	if (!prev_ok) {
		t = sib_bound(q, x, lo, a);
		rc = rotate(q, v, t, a, a + len);
	} else {
		t = sib_bound(q, x, a + len, hi);
		rc = rotate(q, v, a, a + len, t);
	}
	if (rc)
		return rc;
	if (n->pos > lo)
		nprev = sib_at(q, n->pos - 1, d);
	fix_more(q, v, x);
	if (oprev >= 0)
		fix_more(q, v, oprev);
	if (nprev >= 0 && nprev != oprev)
		fix_more(q, v, nprev);
	return 0;
}

/*
 * Ancestors from p up whose sums changed: their rows written again and,
 * siblings ordered by sums, each moved among its siblings.
 */
static int ancestors_changed(struct ui_tree_quick *q, struct ui_view *v, long p)
{
	int rc;

	for (; p >= 0; p = q->node[p].parent) {
		if (q->node[p].hidden)
			continue;
		out_row(q, v, p);
		if (q->sum && (rc = reposition(q, v, p)))
			return rc;
	}
	return 0;
}

/* --- the changes --------------------------------------------------------- */

/* A node with no rows below it leaves the tree. */
static int remove_leaf(struct ui_tree_quick *q, struct ui_view *v, long x)
{
	struct tq_node *n = &q->node[x];
	long p = n->parent, oprev = -1;
	struct ptop_row c;
	struct tq_ent *e;
	size_t lo, hi;

	contrib(n, &c);
	if (!n->hidden) {
		region(q, v, x, &lo, &hi);
		if (n->pos > lo)
			oprev = sib_at(q, n->pos - 1, n->depth);
		rows_close(q, v, n->pos);
	}
	up(q, p, NULL, &c, -1, n->hidden ? 0 : -1);
	if (p >= 0)
		q->node[p].nkids--;
	misses_del(q, x);
	e = tab_find(q, n->own.r.pid);
	if (e && e->node == x) {
		e->node = -1;
		tab_trim(q, n->own.r.pid);
	}
	if (node_free(q, x))
		return -ENOMEM;
	if (oprev >= 0)
		fix_more(q, v, oprev);
	return ancestors_changed(q, v, p);
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
	if (reserve(&q->mv, &q->cap_mv, len, sizeof(*q->mv)) ||
	    reserve(&q->mvat, &q->cap_mvat, len, sizeof(*q->mvat)))
		return -ENOMEM;
	memcpy(q->mv, &v->rows[a], len * sizeof(*q->mv));
	memcpy(q->mvat, &q->at[a], len * sizeof(*q->mvat));
	region(q, v, c, &lo, &hi);
	if (a > lo)
		oprev = sib_at(q, a - 1, od);
	memmove(&v->rows[a], &v->rows[a + len],
		(v->nrows - a - len) * sizeof(*v->rows));
	memmove(&q->at[a], &q->at[a + len], (v->nrows - a - len) * sizeof(*q->at));
	v->nrows -= len;
	for (i = a; i < v->nrows; i++)
		q->node[q->at[i]].pos = i;
	contrib(n, &cc);
	up(q, op, NULL, &cc, -(n->size + 1), -(int)len);
	if (op >= 0)
		q->node[op].nkids--;
	if (oprev >= 0)
		fix_more(q, v, oprev);
	rc = ancestors_changed(q, v, op);
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
	region(q, v, c, &lo, &hi);
	t = sib_bound(q, c, lo, hi);
	if (t > lo)
		nprev = sib_at(q, t - 1, nd);
	if (reserve(&v->rows, &v->cap, v->nrows + len, sizeof(*v->rows)) ||
	    reserve(&q->at, &q->cap_at, v->nrows + len, sizeof(*q->at)))
		return -ENOMEM;
	memmove(&v->rows[t + len], &v->rows[t], (v->nrows - t) * sizeof(*v->rows));
	memmove(&q->at[t + len], &q->at[t], (v->nrows - t) * sizeof(*q->at));
	memcpy(&v->rows[t], q->mv, len * sizeof(*q->mv));
	memcpy(&q->at[t], q->mvat, len * sizeof(*q->mvat));
	v->nrows += len;
	for (i = t; i < v->nrows; i++)
		q->node[q->at[i]].pos = i;
	up(q, np, &cc, NULL, n->size + 1, (int)len);
	if (np >= 0)
		q->node[np].nkids++;
	out_row(q, v, c);
	fix_more(q, v, c);
	if (nprev >= 0)
		fix_more(q, v, nprev);
	return ancestors_changed(q, v, np);
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
	struct tq_ent *e = tab_find(q, n->own.r.pid);
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

		misses_del(q, c);
		p = resolve(q, c, &orphan);
		rc = misses_add(q, c);
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
	e = tab_get(q, q->node[x].own.r.pid);
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
		misses_del(q, (long)y);
		p = resolve(q, (long)y, &orphan);
		rc = misses_add(q, (long)y);
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
		up(q, n->parent, &n->own.r, &old, 0, 0);
	if (!n->hidden) {
		out_row(q, v, x);
		rc = reposition(q, v, x);
		if (rc)
			return rc;
	}
	return ancestors_changed(q, v, n->parent);
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
	p = resolve(q, x, &orphan);
	if (p >= 0 && q->node[p].mark) {
		rc = attach(q, v, p, depth + 1);
		if (rc)
			return rc;
	}
	n = &q->node[x];
	rc = misses_add(q, x);
	if (rc)
		return rc;
	n->mark = 0;
	n->parent = p;
	n->orphan = p >= 0 && orphan;
	n->depth = p < 0 ? 0 : q->node[p].depth + 1;
	n->hidden = p >= 0 && (q->node[p].hidden ||
			       ui_pidset_has(&v->collapsed, q->node[p].own.r.pid));
	if (!n->hidden) {
		region(q, v, x, &lo, &hi);
		t = sib_bound(q, x, lo, hi);
		if (t > lo)
			nprev = sib_at(q, t - 1, n->depth);
		rc = rows_open(q, v, t, x);
		if (rc)
			return rc;
		v->rows[t].more = p < 0 ? 0 : v->rows[q->node[p].pos].more;
	}
	contrib(n, &c);
	up(q, p, &c, NULL, 1, n->hidden ? 0 : 1);
	if (p >= 0)
		q->node[p].nkids++;
	if (!n->hidden) {
		out_row(q, v, x);
		fix_more(q, v, x);
		if (nprev >= 0)
			fix_more(q, v, nprev);
	}
	return ancestors_changed(q, v, p);
}

static bool same_links(const struct ptop_row *a, const struct ptop_row *b)
{
	return a->pid == b->pid && a->tgid == b->tgid && a->ppid == b->ppid &&
	       a->acct_ppid == b->acct_ppid && a->is_thread == b->is_thread;
}

int ui_tq_update(struct ui_view *v, const struct ui_tq_chg *chg, size_t nchg,
		 const struct ui_vrow *exited, size_t nexited)
{
	struct ui_tree_quick *q = v->tq;
	size_t i, nrem = 0, nadd = 0, left, k;
	long x;
	int rc;

	if (!q || !q->valid)
		return -EINVAL;
	q->valid = false;	/* until all of it is done */
	if (reserve(&q->lst, &q->cap_lst, q->nexited + 2 * nchg + nexited,
		    sizeof(*q->lst)))
		return -ENOMEM;
	/* what leaves: the last build's dead, rows gone or relinked */
	for (i = 0; i < q->nexited; i++)
		q->lst[nrem++] = q->exited[i];
	for (i = 0; i < nchg; i++) {
		if (!chg[i].old)
			continue;
		x = tab_node(q, chg[i].old->pid);
		if (x < 0 || q->node[x].own.exited || q->node[x].mark)
			return -ESRCH;	/* not there, or two changes, one row */
		q->node[x].mark = 3;
		if (!chg[i].nv || !same_links(&q->node[x].own.r, &chg[i].nv->r))
			q->lst[nrem++] = x;
	}
	for (i = 0; i < nchg; i++)
		if (chg[i].old)
			q->node[tab_node(q, chg[i].old->pid)].mark = 0;
	/* a leaf first, then what is a leaf once those left, then the rest */
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
	/* what stays, with new figures */
	for (i = 0; i < nchg; i++) {
		if (!chg[i].old || !chg[i].nv)
			continue;
		x = tab_node(q, chg[i].old->pid);
		if (x < 0 || !same_links(&q->node[x].own.r, &chg[i].nv->r))
			continue;	/* relinked: it came again below */
		rc = update(q, v, x, chg[i].nv);
		if (rc)
			return rc;
	}
	/* what comes: pids in the table first, then each under its parent */
	for (i = 0; i < nchg + nexited; i++) {
		const struct ui_vrow *nv = i < nchg ? chg[i].nv : &exited[i - nchg];
		struct tq_ent *e;

		if (!nv)
			continue;
		if (i < nchg && chg[i].old) {
			x = tab_node(q, chg[i].old->pid);
			if (x >= 0 && same_links(&q->node[x].own.r, &nv->r))
				continue;	/* updated */
		}
		if (!nv->r.pid)
			return -EINVAL;
		e = tab_get(q, nv->r.pid);
		if (!e)
			return -ENOMEM;
		/* a duplicate pid (rows that looked it up in vain: below) */
		if (e->node >= 0)
			return -EEXIST;
		x = node_new(q, nv);
		if (x < 0)
			return -ENOMEM;
		e = tab_find(q, nv->r.pid);
		e->node = x;
		q->node[x].mark = 1;
		q->lst[nadd++] = x;
	}
	for (k = 0; k < nadd; k++) {
		rc = attach(q, v, q->lst[k], 0);
		if (rc)
			return rc;
	}
	/* rows that looked a new pid up in vain go under it now */
	for (k = 0; k < nadd; k++) {
		struct tq_ent *w = tab_find(q, q->node[q->lst[k]].own.r.pid);

		if (w && w->nmiss && (rc = relink_missing(q, v, w->pid)))
			return rc;
	}
	/* the dead shown now */
	if (reserve(&q->exited, &q->cap_exited, nexited, sizeof(*q->exited)))
		return -ENOMEM;
	q->nexited = 0;
	for (k = 0; k < nadd; k++)
		if (q->node[q->lst[k]].own.exited)
			q->exited[q->nexited++] = q->lst[k];
	q->valid = true;
	return 0;
}

/* --- from a full build --------------------------------------------------- */

/*
 * The tree kept from rows in[0, n) (the full build's input) and its
 * output (v->rows): pid table, parents, depths, sums, places. Any case
 * the quick build does not take (a duplicate pid, a cycle, a row not
 * where it should be): not valid.
 */
static void tq_from_full(struct ui_tree_quick *q, struct ui_view *v, size_t n)
{
	size_t i, j, k, head;
	long x, p;
	bool orphan;

	q->valid = false;
	if (reserve(&q->kidx, &q->cap_kidx, n + 1, sizeof(*q->kidx)) ||
	    reserve(&q->order, &q->cap_order, n + 1, sizeof(*q->order)) ||
	    reserve(&q->kstart, &q->cap_kstart, n + 1, sizeof(*q->kstart)))
		return;
	if (reserve(&q->at, &q->cap_at, v->nrows + 1, sizeof(*q->at)))
		return;
	if (!q->tabcap || q->tabcap < 4 * n || q->tabcap > 16 * n + 64) {
		free(q->tab);
		q->tab = NULL;
		q->tabcap = 0;
		if (tab_resize(q, 2 * n))
			return;
	} else {
		memset(q->tab, 0, q->tabcap * sizeof(*q->tab));
	}
	q->tabused = 0;
	for (i = 0; i < n; i++) {
		struct tq_ent *e;

		if (!q->node[i].own.r.pid)
			return;
		e = tab_get(q, q->node[i].own.r.pid);
		if (!e || e->node >= 0)
			return;		/* a duplicate pid */
		e->node = (long)i;
	}
	memset(q->kstart, 0, (n + 1) * sizeof(*q->kstart));
	for (i = 0; i < n; i++) {
		p = resolve(q, (long)i, &orphan);
		if (misses_add(q, (long)i))
			return;
		q->node[i].parent = p;
		q->node[i].orphan = p >= 0 && orphan;
		if (p >= 0) {
			q->node[p].nkids++;
			q->kstart[p + 1]++;
		}
	}
	/* children lists (any order), then breadth first from the roots */
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
	if (k < n)
		return;		/* a ppid cycle */
	for (i = n; i-- > 0;) {
		struct ptop_row c;

		x = q->order[i];
		p = q->node[x].parent;
		if (p < 0)
			continue;
		contrib(&q->node[x], &c);
		ui_tree_figures_add(&q->node[p].kids, &c);
		q->node[p].size += q->node[x].size + 1;
		if (!q->node[x].hidden)
			q->node[p].vsize += q->node[x].vsize + 1;
	}
	/* the places, checked against the full build's rows */
	for (i = 0, k = 0; i < n; i++)
		k += !q->node[i].hidden;
	if (k != v->nrows)
		return;
	for (i = 0; i < v->nrows; i++) {
		x = tab_node(q, v->rows[i].r.pid);
		if (x < 0 || q->node[x].hidden ||
		    q->node[x].depth != v->rows[i].depth ||
		    q->node[x].own.exited != v->rows[i].exited)
			return;
		q->node[x].pos = i;
		q->at[i] = x;
	}
	if (reserve(&q->exited, &q->cap_exited, n, sizeof(*q->exited)))
		return;
	for (i = 0, q->nexited = 0; i < n; i++)
		if (q->node[i].own.exited)
			q->exited[q->nexited++] = (long)i;
	q->valid = true;
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
	if (keep && q && !reserve(&q->node, &q->cap, n ? n : 1,
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
