// SPDX-License-Identifier: GPL-2.0
/*
 * The tree view's quick build, its kept tree: pid -> node (and the pids
 * looked up in vain), and the nodes with their branches' sums.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/reserve.h"
#include "tree_quick_internal.h"

int tq_reserve(void *p, size_t *cap, size_t n, size_t size)
{
	return ptop_reserve(p, cap, n, size, 16);
}

/* --- pid -> node, and the pids looked up in vain ------------------------ */

static size_t tab_hash(uint32_t pid, size_t cap)
{
	return (size_t)(pid * 2654435761U) & (cap - 1);
}

struct tq_ent *tq_tab_find(const struct ui_tree_quick *q, uint32_t pid)
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

long tq_tab_node(const struct ui_tree_quick *q, uint32_t pid)
{
	const struct tq_ent *e = tq_tab_find(q, pid);

	return e ? e->node : -1;
}

int tq_tab_resize(struct ui_tree_quick *q, size_t want)
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
struct tq_ent *tq_tab_get(struct ui_tree_quick *q, uint32_t pid)
{
	struct tq_ent *e = tq_tab_find(q, pid);
	size_t i;

	if (e)
		return e;
	if ((q->tabused + 1) * 2 > q->tabcap &&
	    tq_tab_resize(q, q->tabused + 1))
		return NULL;
	for (i = tab_hash(pid, q->tabcap); q->tab[i].pid;
	     i = (i + 1) & (q->tabcap - 1))
		;
	q->tab[i] = (struct tq_ent){ pid, 0, -1 };
	q->tabused++;
	return &q->tab[i];
}

/* Drop pid's entry when nothing needs it (linear probing: shift back). */
void tq_tab_trim(struct ui_tree_quick *q, uint32_t pid)
{
	struct tq_ent *e = tq_tab_find(q, pid);
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
long tq_resolve(struct ui_tree_quick *q, long x, bool *orphan)
{
	struct tq_node *n = &q->node[x];
	const struct ptop_row *r = &n->own.r;
	long p;

	*orphan = false;
	n->miss[0] = n->miss[1] = 0;
	if (r->is_thread && r->pid != r->tgid) {
		p = tq_tab_node(q, r->tgid);
		if (p < 0)
			n->miss[0] = r->tgid;
		return p == x ? -1 : p;
	}
	if (r->acct_ppid && r->acct_ppid != r->ppid && r->acct_ppid != r->pid) {
		p = tq_tab_node(q, r->acct_ppid);
		if (p >= 0 && p != x) {
			*orphan = true;
			return p;
		}
		if (p < 0)
			n->miss[0] = r->acct_ppid;
	}
	if (!r->ppid || r->ppid == r->pid)
		return -1;
	p = tq_tab_node(q, r->ppid);
	if (p < 0)
		n->miss[1] = r->ppid;
	return p == x ? -1 : p;
}

int tq_misses_add(struct ui_tree_quick *q, long x)
{
	int i;

	for (i = 0; i < 2; i++) {
		uint32_t pid = q->node[x].miss[i];
		struct tq_ent *e;

		if (!pid)
			continue;
		e = tq_tab_get(q, pid);
		if (!e)
			return -ENOMEM;
		e->nmiss++;
	}
	return 0;
}

void tq_misses_del(struct ui_tree_quick *q, long x)
{
	int i;

	for (i = 0; i < 2; i++) {
		uint32_t pid = q->node[x].miss[i];
		struct tq_ent *e = pid ? tq_tab_find(q, pid) : NULL;

		if (!e)
			continue;
		e->nmiss--;
		tq_tab_trim(q, pid);
	}
}

/* --- nodes --------------------------------------------------------------- */

long tq_node_new(struct ui_tree_quick *q, const struct ui_vrow *own)
{
	long x;

	if (q->nfree) {
		x = q->freel[--q->nfree];
	} else {
		if (tq_reserve(&q->node, &q->cap, q->nnode + 1,
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

int tq_node_free(struct ui_tree_quick *q, long x)
{
	if (tq_reserve(&q->freel, &q->cap_free, q->nfree + 1,
		       sizeof(*q->freel)))
		return -ENOMEM;
	q->node[x].used = false;
	q->freel[q->nfree++] = x;
	return 0;
}

/* What a node's branch adds to its parent's sums. */
void tq_contrib(const struct tq_node *n, struct ptop_row *c)
{
	memset(c, 0, sizeof(*c));
	if (!n->own.exited)
		ui_tree_figures_add(c, &n->own.r);
	ui_tree_figures_add(c, &n->kids);
}

/* Ancestors from p up: sums, rows below, rows shown below. */
void tq_up(struct ui_tree_quick *q, long p, const struct ptop_row *add,
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
int tq_node_cmp(const struct ui_tree_quick *q, long a, long b)
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
