// SPDX-License-Identifier: GPL-2.0
/*
 * Whether the terminal can show the view: it must address the cursor
 * (TERM=dumb cannot: the view would come out as one garbled line) and be
 * at least CV_MIN_COLS x CV_MIN_LINES, the compact layout (headline,
 * system line, status, column header, one row, the sum row). At start a
 * terminal that cannot is refused with one line that suggests -b; a
 * terminal made smaller while the view runs shows that line instead of
 * the view until it grows again.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "curses_paint.h"
/* last: it defines lines, columns and other short names as macros */
#include <term.h>

static void too_small_text(int w, int h, char *buf, size_t len)
{
	snprintf(buf, len,
		 "terminal too small: %dx%d, the view needs %dx%d; or use ptop -b",
		 w, h, CV_MIN_COLS, CV_MIN_LINES);
}

int cv_term_check(int fd, char *err, size_t len)
{
	const char *term = getenv("TERM");
	struct winsize ws = { 0 };
	char *cup;
	int h, w, e = 0;

	if (setupterm(NULL, fd, &e) != OK) {
		snprintf(err, len, "cannot use the terminal (TERM=%s): use ptop -b",
			 term ? term : "");
		return -1;
	}
	cup = tigetstr("cup");
	h = tigetnum("lines");
	w = tigetnum("cols");
	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		h = ws.ws_row;
		w = ws.ws_col;
	}
	del_curterm(cur_term);
	if (!cup || cup == (char *)-1) {
		snprintf(err, len,
			 "TERM=%s cannot move the cursor, the view needs it: use ptop -b",
			 term ? term : "");
		return -1;
	}
	if (h > 0 && w > 0 && !cv_fits(h, w)) {
		too_small_text(w, h, err, len);
		return -1;
	}
	return 0;
}

bool cv_fits(int h, int w)
{
	return h >= CV_MIN_LINES && w >= CV_MIN_COLS;
}

void cv_draw_too_small(void)
{
	char line[160];

	too_small_text(COLS, LINES, line, sizeof(line));
	erase();
	/* the bottom-right cell cannot be written without scrolling */
	mvaddnstr(0, 0, line, LINES > 1 ? COLS : COLS - 1);
}
