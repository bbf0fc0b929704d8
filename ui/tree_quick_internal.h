/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the tree view's quick build share (ui/tree_quick*.c):
 * the kept tree and the helpers one file makes for another. Private to
 * them: the API is ui_tq_*() in view.h.
 */
#ifndef UI_TREE_QUICK_INTERNAL_H
#define UI_TREE_QUICK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* pid -> node, the nodes (tree_quick_nodes.c) */
int tq_reserve(void *p, size_t *cap, size_t n, size_t size);
struct tq_ent *tq_tab_find(const struct ui_tree_quick *q, uint32_t pid);
long tq_tab_node(const struct ui_tree_quick *q, uint32_t pid);
int tq_tab_resize(struct ui_tree_quick *q, size_t want);
struct tq_ent *tq_tab_get(struct ui_tree_quick *q, uint32_t pid);
void tq_tab_trim(struct ui_tree_quick *q, uint32_t pid);
long tq_resolve(struct ui_tree_quick *q, long x, bool *orphan);
int tq_misses_add(struct ui_tree_quick *q, long x);
void tq_misses_del(struct ui_tree_quick *q, long x);
long tq_node_new(struct ui_tree_quick *q, const struct ui_vrow *own);
int tq_node_free(struct ui_tree_quick *q, long x);
void tq_contrib(const struct tq_node *n, struct ptop_row *c);
void tq_up(struct ui_tree_quick *q, long p, const struct ptop_row *add,
	   const struct ptop_row *sub, int dsize, int dvsize);
int tq_node_cmp(const struct ui_tree_quick *q, long a, long b);

/* the flattened rows (tree_quick_rows.c) */
void tq_out_row(const struct ui_tree_quick *q, struct ui_view *v, long x);
long tq_sib_at(const struct ui_tree_quick *q, size_t i, int d);
void tq_region(const struct ui_tree_quick *q, const struct ui_view *v,
	       long x, size_t *lo, size_t *hi);
size_t tq_sib_bound(const struct ui_tree_quick *q, long x, size_t lo,
		    size_t hi);
int tq_rows_open(struct ui_tree_quick *q, struct ui_view *v, size_t i,
		 long x);
void tq_rows_close(struct ui_tree_quick *q, struct ui_view *v, size_t i);
void tq_fix_more(const struct ui_tree_quick *q, struct ui_view *v, long s);
int tq_reposition(struct ui_tree_quick *q, struct ui_view *v, long x);
int tq_ancestors_changed(struct ui_tree_quick *q, struct ui_view *v, long p);

#endif /* UI_TREE_QUICK_INTERNAL_H */
