/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The main table's lines as text (ui/curses_rows.c), for the table
 * screen to draw: what a line says, not where it goes.
 */
#ifndef UI_CURSES_ROWS_H
#define UI_CURSES_ROWS_H

#include <stddef.h>
#include "curses_screen.h"

/* The column header; [*sort_from, *sort_to) is the sort column's title. */
void cv_header_line(struct cv *cv, char *line, size_t *sort_from,
		    size_t *sort_to);
/* Mark the sort column's title in the header line y (scrolled by off). */
void cv_mark_sort(int y, size_t from, size_t to, int off);
/* A row's line (sum: the sum row), CV_LINE_MAX bytes. */
void cv_row_line(const struct cv *cv, const struct ui_vrow *vr,
		 const struct ptop_row *sum, char *line);
void cv_status_line(const struct cv *cv, char *line, size_t len);
/* The table's column at screen column x (after hscroll); -1 none. */
int cv_col_at(const struct cv *cv, int x);
/* Right stops where the widest line ends at the screen's edge */
int cv_hscroll_max(const struct cv *cv);

#endif /* UI_CURSES_ROWS_H */
