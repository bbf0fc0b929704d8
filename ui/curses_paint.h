/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paint primitives every curses screen shares: the colour scheme, whole
 * lines clipped to the screen, labelled text, bars, and text wrapped to
 * a width. They know nothing of screens or of the view's state. Also
 * the terminal's own limits (ui/curses_fit.c): what the view needs to
 * draw at all.
 */
#ifndef UI_CURSES_PAINT_H
#define UI_CURSES_PAINT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "meters.h"

#define CV_LINE_MAX 4096

/* colour pairs */
enum {
	CP_HEADER = 1, CP_SELECT, CP_MSG, CP_LABEL, CP_TAG, CP_FKEY,
	CP_CAT0,	/* + enum ui_cat */
	CP_MEM_USED = CP_CAT0 + UI_CAT__COUNT, CP_MEM_BUF, CP_MEM_CACHE,
	CP_CPU_IRQ,
};

/* The colour scheme: 0 default, 1 monochrome; NO_COLOR forces 1. */
void cv_colors_init(int scheme);
bool cv_mono(void);
/* colour pair p, or mono_attr without colours */
attr_t cv_pair(int p, attr_t mono_attr);
attr_t cv_attr_header(void);
attr_t cv_attr_select(void);
attr_t cv_attr_msg(void);

/* Line y from s (skipping off bytes), clipped, the rest cleared. */
void cv_put(int y, const char *s, int off, attr_t attr);
/* a label and its text at (y, x), to the line's end or w cells */
void cv_put_at(int y, int x, const char *label, const char *text);
void cv_put_at_w(int y, int x, int w, const char *label, const char *text);
/*
 * A bar "LABEL[||||   text]" at (y, x), w cells in all: the parts' cells
 * with their attributes and characters, text right-aligned inside.
 */
void cv_draw_bar(int y, int x, int w, const char *label,
		 const uint64_t *parts, const attr_t *attrs, const char *chars,
		 int nparts, uint64_t whole, const char *text);
/*
 * Piece k of s wrapped at width (the first at column 0, the rest after
 * hang spaces), at spaces where there are any, into buf (k < 0: none);
 * returns how many pieces there are.
 */
int cv_wrap(const char *s, int width, int hang, int k, char *buf, size_t len);

/*
 * The terminal (ui/curses_fit.c): the smallest the view draws, the check
 * before curses starts (0, or -1 with one line in err saying why and to
 * use -b), and the line shown instead of the view when it is smaller.
 */
#define CV_MIN_LINES 6
#define CV_MIN_COLS 40
int cv_term_check(int fd, char *err, size_t len);
bool cv_fits(int h, int w);
void cv_draw_too_small(void);

#endif /* UI_CURSES_PAINT_H */
