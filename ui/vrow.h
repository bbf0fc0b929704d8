/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row as the view shows it (the interval's row with its place in the
 * tree), its sort order, and the small pid sets that tag or collapse
 * rows: what the view (view.c) and the tree order (tree.c,
 * tree_quick*.c) both work on.
 */
#ifndef UI_VROW_H
#define UI_VROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/col.h"

struct ui_vrow {
	struct ptop_row r;	/* a collapsed branch: the branch's sums */
	uint64_t subtree_ns;	/* tree: total of the row and all below it */
	uint64_t more;		/* tree: bit d, the ancestor at depth d+1
				 * (or this row, at its depth) has a later
				 * sibling: draw a continuation line */
	int depth;
	int nhidden;		/* collapsed: rows folded into this one */
	bool has_kids;
	bool collapsed;
	bool orphan;		/* reparented: shown under its accounting
				 * parent, not its real one (init) */
	bool exited;		/* died in the interval */
	bool tagged;
	int exit_code;		/* exited: as wait(2) says; -1 unknown */
};

/* A set of pids (tags, collapsed branches): small, sorted. */
struct ui_pidset {
	uint32_t *pid;
	size_t n, cap;
};

bool ui_pidset_has(const struct ui_pidset *s, uint32_t pid);
/* 0, or -ENOMEM (unchanged) */
int ui_pidset_add(struct ui_pidset *s, uint32_t pid);
void ui_pidset_del(struct ui_pidset *s, uint32_t pid);
void ui_pidset_clear(struct ui_pidset *s);

/* Sort rows by column id (descending unless asc), ties by pid. */
void ui_vrows_sort(struct ui_vrow *rows, size_t n, int sort_id, bool asc);
/* The order ui_vrows_sort() sorts by: <0, 0, >0 */
int ui_vrow_cmp(const struct ui_vrow *a, const struct ui_vrow *b, int sort_id,
		bool asc);

#endif /* UI_VROW_H */
