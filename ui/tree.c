// SPDX-License-Identifier: GPL-2.0
/*
 * Tree order: depth first from the roots, siblings in sort order, with
 * what the lines need (is there a later sibling at each level), subtree
 * totals and collapsed branches folded into their top row. An explicit
 * stack instead of recursion, and a visited mark, so a deep chain cannot
 * overflow and a ppid cycle cannot loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

struct pid_idx {
	uint32_t pid;
	size_t idx;
};

static int pid_idx_cmp(const void *a, const void *b)
{
	const struct pid_idx *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	/* a duplicate pid (a process and its leader thread): the first */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static long find_pid(const struct pid_idx *map, size_t n, uint32_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && map[lo].pid == pid ? (long)map[lo].idx : -1;
}

/* The figures a branch adds up: every per-interval field, and TIME. */
void ui_tree_figures_add(struct ptop_row *to, const struct ptop_row *r)
{
	to->user += r->user;
	to->sys += r->sys;
	to->ste += r->ste;
	to->cuser += r->cuser;
	to->csys += r->csys;
	to->cste += r->cste;
	to->xuser += r->xuser;
	to->xsys += r->xsys;
	to->xste += r->xste;
	to->total += r->total;
	to->rdelay += r->rdelay;
	to->nvcsw += r->nvcsw;
	to->nivcsw += r->nivcsw;
	to->minflt += r->minflt;
	to->majflt += r->majflt;
	to->time_ns += r->time_ns;
	to->rss_kb += r->rss_kb;
}

/* ui_tree_figures_add()'s inverse (modulo 2^64, so it undoes it exactly) */
void ui_tree_figures_sub(struct ptop_row *to, const struct ptop_row *r)
{
	to->user -= r->user;
	to->sys -= r->sys;
	to->ste -= r->ste;
	to->cuser -= r->cuser;
	to->csys -= r->csys;
	to->cste -= r->cste;
	to->xuser -= r->xuser;
	to->xsys -= r->xsys;
	to->xste -= r->xste;
	to->total -= r->total;
	to->rdelay -= r->rdelay;
	to->nvcsw -= r->nvcsw;
	to->nivcsw -= r->nivcsw;
	to->minflt -= r->minflt;
	to->majflt -= r->majflt;
	to->time_ns -= r->time_ns;
	to->rss_kb -= r->rss_kb;
}

void ui_tree_figures_zero(struct ptop_row *r)
{
	r->user = r->sys = r->ste = 0;
	r->cuser = r->csys = r->cste = 0;
	r->xuser = r->xsys = r->xste = 0;
	r->total = r->rdelay = 0;
	r->nvcsw = r->nivcsw = r->minflt = r->majflt = 0;
	r->time_ns = r->rss_kb = 0;
}

struct tree_work {
	struct pid_idx *map;
	long *parent, *first, *last, *next, *tparent;
	size_t *stack, *order;
	int *depth;
	uint64_t *more;
	bool *seen, *hidden;
	struct ptop_row *acc;	/* a branch's sums */
	int *size;		/* rows in a branch, itself excluded */
	struct ui_vrow *out;
};

static void work_free(struct tree_work *w)
{
	free(w->map);
	free(w->parent);
	free(w->first);
	free(w->last);
	free(w->next);
	free(w->tparent);
	free(w->stack);
	free(w->order);
	free(w->depth);
	free(w->more);
	free(w->seen);
	free(w->hidden);
	free(w->acc);
	free(w->size);
	free(w->out);
}

static int work_alloc(struct tree_work *w, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->map = calloc(n, sizeof(*w->map));
	w->parent = calloc(n, sizeof(*w->parent));
	w->first = calloc(n, sizeof(*w->first));
	w->last = calloc(n, sizeof(*w->last));
	w->next = calloc(n, sizeof(*w->next));
	w->tparent = calloc(n, sizeof(*w->tparent));
	w->stack = calloc(n, sizeof(*w->stack));
	w->order = calloc(n, sizeof(*w->order));
	w->depth = calloc(n, sizeof(*w->depth));
	w->more = calloc(n, sizeof(*w->more));
	w->seen = calloc(n, sizeof(*w->seen));
	w->hidden = calloc(n, sizeof(*w->hidden));
	w->acc = calloc(n, sizeof(*w->acc));
	w->size = calloc(n, sizeof(*w->size));
	w->out = calloc(n, sizeof(*w->out));
	if (!w->map || !w->parent || !w->first || !w->last || !w->next ||
	    !w->tparent || !w->stack || !w->order || !w->depth || !w->more ||
	    !w->seen || !w->hidden || !w->acc || !w->size ||
	    !w->out) {
		work_free(w);
		return -ENOMEM;
	}
	return 0;
}

/*
 * The parent a row hangs under: a thread under its process; an orphan
 * (real parent init or a subreaper, accounting parent another task that
 * is shown) under the ancestor it came from; else its real parent.
 */
static long tree_parent(const struct ui_vrow *rows, size_t i,
			const struct pid_idx *map, size_t n, bool *orphan)
{
	const struct ptop_row *r = &rows[i].r;
	long p = -1;

	*orphan = false;
	if (r->is_thread && r->pid != r->tgid)
		return find_pid(map, n, r->tgid);
	if (r->acct_ppid && r->acct_ppid != r->ppid && r->acct_ppid != r->pid) {
		p = find_pid(map, n, r->acct_ppid);
		if (p >= 0 && p != (long)i) {
			*orphan = true;
			return p;
		}
	}
	if (!r->ppid || r->ppid == r->pid)
		return -1;
	return find_pid(map, n, r->ppid);
}

/* Depth first from row r: order, depth, the sibling lines. */
static void walk_from(struct tree_work *w, size_t r, size_t *k)
{
	size_t sp = 0;

	w->seen[r] = true;
	w->depth[r] = 0;
	w->more[r] = 0;
	w->tparent[r] = -1;
	w->stack[sp++] = r;
	while (sp) {
		size_t cur = w->stack[--sp], nkids = 0, j;
		long c, lastkid = -1;

		w->order[(*k)++] = cur;
		for (c = w->first[cur]; c >= 0; c = w->next[c])
			if (!w->seen[c]) {
				nkids++;
				lastkid = c;
			}
		/* push children reversed so the first pops first */
		j = sp + nkids;
		for (c = w->first[cur]; c >= 0; c = w->next[c]) {
			int d;

			if (w->seen[c])
				continue;
			w->seen[c] = true;
			d = w->depth[cur] + 1;
			w->depth[c] = d;
			w->tparent[c] = cur;
			w->more[c] = w->more[cur];
			if (c != lastkid && d <= UI_TREE_MAX_DEPTH)
				w->more[c] |= 1ULL << (d - 1);
			w->stack[--j] = c;
		}
		sp += nkids;
	}
}

/* a column whose figures add up over a branch */
bool ui_tree_summable(int id)
{
	enum ptop_col_type t = ptop_cols[id].type;

	return t == PTOP_CT_PCT || t == PTOP_CT_RATE || t == PTOP_CT_CUMTIME ||
	       t == PTOP_CT_KB;
}

/*
 * The tree's shape over rows in their current order: parents, children
 * lists in row order, the depth-first order, and each branch's sums.
 * Returns the rows reached (all of them).
 */
static size_t shape(struct tree_work *w, struct ui_vrow *rows, size_t n)
{
	size_t k = 0, i, r;
	int pass;

	memset(w->seen, 0, n * sizeof(*w->seen));
	memset(w->size, 0, n * sizeof(*w->size));
	for (i = 0; i < n; i++) {
		w->map[i].pid = rows[i].r.pid;
		w->map[i].idx = i;
		w->first[i] = w->last[i] = w->next[i] = -1;
	}
	qsort(w->map, n, sizeof(*w->map), pid_idx_cmp);
	/* children lists in sort order: append in the (sorted) row order */
	for (i = 0; i < n; i++) {
		long p = tree_parent(rows, i, w->map, n, &rows[i].orphan);

		if (p == (long)i)
			p = -1;
		w->parent[i] = p;
		if (p < 0) {
			rows[i].orphan = false;
			continue;
		}
		if (w->last[p] < 0)
			w->first[p] = i;
		else
			w->next[w->last[p]] = i;
		w->last[p] = i;
	}
	/*
	 * Two passes over the rows in sort order: first the true roots,
	 * then whatever is still unseen (only rows in a ppid cycle).
	 */
	for (pass = 0; pass < 2; pass++)
		for (r = 0; r < n; r++)
			if (!w->seen[r] && (pass == 1 || w->parent[r] < 0))
				walk_from(w, r, &k);

	/* branch sums, leaves up; a dead row's time is in its ancestor's c* */
	for (i = 0; i < k; i++) {
		size_t o = w->order[i];

		w->acc[o] = rows[o].r;
		if (rows[o].exited)
			ui_tree_figures_zero(&w->acc[o]);
	}
	for (i = k; i-- > 0;) {
		size_t o = w->order[i];
		long p = w->tparent[o];

		if (p < 0)
			continue;
		ui_tree_figures_add(&w->acc[p], &w->acc[o]);
		w->size[p] += w->size[o] + 1;
	}
	return k;
}

/* A collapsed branch: its figures (acc) under the top row's identity. */
static void collapse_row(struct ui_vrow *v, const struct ptop_row *acc,
			 int nhidden)
{
	struct ptop_row id = v->r;

	v->r = *acc;
	memcpy(v->r.comm, id.comm, sizeof(id.comm));
	v->r.pid = id.pid;
	v->r.tgid = id.tgid;
	v->r.ppid = id.ppid;
	v->r.uid = id.uid;
	v->r.state = id.state;
	v->r.has = id.has;
	v->r.nthreads = id.nthreads;
	v->r.depth = id.depth;
	v->collapsed = true;
	v->nhidden = nhidden;
}

long ui_tree_build(struct ui_vrow *rows, size_t n, int sort_id, bool asc,
		   const struct ui_pidset *collapsed)
{
	struct tree_work w;
	size_t k, i, out = 0;

	ui_vrows_sort(rows, n, sort_id, asc);
	for (i = 0; i < n; i++) {
		rows[i].depth = 0;
		rows[i].more = 0;
		rows[i].has_kids = rows[i].collapsed = rows[i].orphan = false;
		rows[i].nhidden = 0;
		rows[i].subtree_ns = rows[i].exited ? 0 : rows[i].r.total;
		rows[i].r.depth = 0;
	}
	if (n < 2)
		return (long)n;
	if (work_alloc(&w, n))
		return -ENOMEM;

	k = shape(&w, rows, n);
	/*
	 * Summable figures: siblings by their branch's sums (where the
	 * time goes), not their own: sort by the sums, shape again.
	 */
	if (ui_tree_summable(sort_id)) {
		for (i = 0; i < n; i++) {
			w.out[i] = rows[i];
			w.out[i].r = w.acc[i];	/* the key only */
			w.out[i].nhidden = (int)i;
		}
		ui_vrows_sort(w.out, n, sort_id, asc);
		for (i = 0; i < n; i++)
			w.order[i] = (size_t)w.out[i].nhidden;
		for (i = 0; i < n; i++)
			w.out[i] = rows[w.order[i]];
		memcpy(rows, w.out, n * sizeof(*rows));
		k = shape(&w, rows, n);
	}
	/* a collapsed branch hides what is below it */
	for (i = 0; i < k; i++) {
		size_t o = w.order[i];
		long p = w.tparent[o];

		if (p >= 0 && (w.hidden[p] ||
			       (collapsed && ui_pidset_has(collapsed, rows[p].r.pid))))
			w.hidden[o] = true;
	}
	for (i = 0; i < k; i++) {
		size_t o = w.order[i];
		struct ui_vrow *v;

		if (w.hidden[o])
			continue;
		v = &w.out[out++];
		*v = rows[o];
		v->depth = w.depth[o];
		v->r.depth = w.depth[o];
		v->more = w.more[o];
		v->has_kids = w.first[o] >= 0 && w.size[o] > 0;
		v->subtree_ns = w.acc[o].total;
		if (v->has_kids && collapsed &&
		    ui_pidset_has(collapsed, v->r.pid))
			collapse_row(v, &w.acc[o], w.size[o]);
	}
	memcpy(rows, w.out, out * sizeof(*rows));
	work_free(&w);
	return (long)out;
}

void ui_tree_prefix(const struct ui_vrow *r, bool utf8, char *buf, size_t len)
{
	/* two cells a level, as htop: the command stays in view */
	const char *bar = utf8 ? "\u2502 " : "| ";
	const char *tee = utf8 ? "\u251c" : "|";
	const char *end = utf8 ? "\u2514" : "`";
	const char *dash = utf8 ? "\u254c" : "~";	/* an orphan's link */
	const char *line = utf8 ? "\u2500" : "-";
	size_t pos = 0;
	int d, shown = r->depth < 32 ? r->depth : 32;

	if (!len)
		return;
	buf[0] = '\0';
	for (d = 1; d < shown && pos < len; d++)
		pos += snprintf(buf + pos, len - pos, "%s",
				(r->more >> (d - 1)) & 1 ? bar : "  ");
	if (r->depth > 0 && pos < len) {
		bool later = r->depth - 1 < 64 && (r->more >> (r->depth - 1)) & 1;

		snprintf(buf + pos, len - pos, "%s%s ", later ? tee : end,
			 r->collapsed ? "+" : r->orphan ? dash : line);
	} else if (r->collapsed && pos < len) {
		snprintf(buf + pos, len - pos, "+ ");
	}
}

int ui_tree_order(struct ptop_row *rows, size_t n, int sort_id, bool asc)
{
	struct ui_vrow *v;
	size_t i;
	long k;

	if (n < 2) {
		for (i = 0; i < n; i++)
			rows[i].depth = 0;
		return 0;
	}
	v = calloc(n, sizeof(*v));
	if (!v) {
		ptop_col_sort(rows, n, sort_id, asc);
		for (i = 0; i < n; i++)
			rows[i].depth = 0;
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i].r = rows[i];
	k = ui_tree_build(v, n, sort_id, asc, NULL);
	if (k < 0) {
		free(v);
		ptop_col_sort(rows, n, sort_id, asc);
		for (i = 0; i < n; i++)
			rows[i].depth = 0;
		return (int)k;
	}
	for (i = 0; i < (size_t)k; i++)
		rows[i] = v[i].r;	/* nothing collapsed: k == n */
	free(v);
	return 0;
}
