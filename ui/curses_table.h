/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The main table screen, the bottom of the screen stack: the top line,
 * the meters, the status line, the rows and the sum row, the F-key bar;
 * its keys are one binding table (ui/curses_bindings.c) that the help
 * lists.
 */
#ifndef UI_CURSES_TABLE_H
#define UI_CURSES_TABLE_H

#include <stdbool.h>
#include "curses_screen.h"

extern const struct cv_screen_ops cv_table_ops;

extern const struct cv_binding cv_bindings[];
extern const size_t cv_nbindings;
/* The binding of a key in the table; NULL: the key does nothing. */
const struct cv_binding *cv_binding_of(int ch);

/*
 * The top line, at most width cells when it can be: the verdict whole,
 * time, interval, ncpu and source as they fit (ui/curses_head.c);
 * with_bar: the All bar below says "accounted X% of Y%", this line not.
 */
void cv_headline(const struct cv *cv, bool with_bar, int width, char *buf,
		 size_t len);

#endif /* UI_CURSES_TABLE_H */
