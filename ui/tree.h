/* SPDX-License-Identifier: GPL-2.0 */
/* The tree order of the view's rows, and of plain rows (batch --tree). */
#ifndef UI_TREE_H
#define UI_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/col.h"
#include "vrow.h"

#define UI_TREE_MAX_DEPTH 63

/*
 * Reorder rows depth first: every row follows its parent (a thread row
 * follows its process, a process its ppid, an orphan its accounting
 * parent when shown), siblings sorted by sort_id, and row->depth set (0
 * for roots). Rows caught in a ppid cycle are broken out as roots. 0 or
 * -ENOMEM (rows then only sorted, depth 0). The view's ui_tree_build()
 * with no branch collapsed, for plain rows (batch).
 */
int ui_tree_order(struct ptop_row *rows, size_t n, int sort_id, bool asc);

/*
 * What ui_tree_build() and its quick twin (ui/tree_quick.c) share: the
 * figures a branch adds up (every per-interval field, and TIME; zeroed:
 * a dead row's own, which is already in its ancestor's c*), and whether
 * a column's siblings are ordered by their branches' sums.
 */
void ui_tree_figures_add(struct ptop_row *to, const struct ptop_row *r);
void ui_tree_figures_sub(struct ptop_row *to, const struct ptop_row *r);
void ui_tree_figures_zero(struct ptop_row *r);
bool ui_tree_summable(int id);

/*
 * Tree order over rows[0..n): depth first, each row after its parent (a
 * thread after its process, a process after its parent, an orphan after
 * its accounting parent when that is shown), siblings sorted by sort_id
 * (for a column of figures, by their branches' sums: where the time goes);
 * sets depth, more, has_kids and subtree_ns; removes the rows below a
 * collapsed branch (pid in collapsed), adding their figures to it. Rows
 * caught in a ppid cycle become roots. Returns the new count, or -ENOMEM
 * (rows then only sorted).
 */
long ui_tree_build(struct ui_vrow *rows, size_t n, int sort_id, bool asc,
		   const struct ui_pidset *collapsed);

/*
 * The tree's lines before a row's COMMAND ("│  ├─ "), in UTF-8 when utf8,
 * else ASCII ("|  |- "). Empty for a root that is not collapsed.
 */
void ui_tree_prefix(const struct ui_vrow *r, bool utf8, char *buf, size_t len);

#endif /* UI_TREE_H */
