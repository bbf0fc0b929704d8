/* SPDX-License-Identifier: GPL-2.0 */
/* The tree order of plain rows (batch --tree), a pure function. */
#ifndef UI_TREE_H
#define UI_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/col.h"

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

#endif /* UI_TREE_H */
