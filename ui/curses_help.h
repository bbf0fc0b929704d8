/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The help screen (F1): the keys of the screen that opened it (its
 * binding table), every label the view draws, then the columns; wrapped
 * to the terminal's width and scrolled, so that nothing is cut.
 */
#ifndef UI_CURSES_HELP_H
#define UI_CURSES_HELP_H

#include <stddef.h>
#include "curses_screen.h"

/* the keys the help lists */
struct cv_keys {
	const struct cv_binding *b;
	size_t n;
};

extern const struct cv_screen_ops cv_help_ops;
void cv_help_open(struct cv *cv, const struct cv_binding *b, size_t n);
/*
 * The help's line i, wrapped at width: 0, or -1 past the end; how many
 * lines there are at that width.
 */
int cv_help_wrapped(const struct cv_keys *k, int i, int width, char *buf,
		    size_t len);
int cv_help_count(const struct cv_keys *k, int width);

#endif /* UI_CURSES_HELP_H */
