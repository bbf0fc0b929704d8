/* SPDX-License-Identifier: GPL-2.0 */
/* The view's substring filter: a pure function over rows. */
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
 * Keep only the rows whose COMMAND or USER contains needle (case
 * insensitive), in order; returns how many are kept. An empty or NULL
 * needle keeps every row.
 */
size_t ui_filter_rows(struct ptop_row *rows, size_t n, const char *needle);
bool ui_filter_match(const struct ptop_row *r, const char *needle);

#endif /* UI_TREE_H */
