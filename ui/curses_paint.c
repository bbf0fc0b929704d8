// SPDX-License-Identifier: GPL-2.0
/*
 * Paint primitives (ui/curses_paint.h): every line is built in a buffer
 * first and clipped to the screen here, so any terminal size works.
 */
#include <stdlib.h>
#include <string.h>

#include "config/cfg.h"
#include "curses_paint.h"

static bool mono;

void cv_colors_init(int scheme)
{
	const char *nc = getenv("NO_COLOR");
	static const short cat_fg[UI_CAT__COUNT] = {
		[UI_CAT_USER] = COLOR_GREEN, [UI_CAT_SYS] = COLOR_RED,
		[UI_CAT_STEAL] = COLOR_CYAN, [UI_CAT_CDEAD] = COLOR_MAGENTA,
		[UI_CAT_XDEAD] = COLOR_BLUE, [UI_CAT_IRQ] = COLOR_YELLOW,
		[UI_CAT_UNACC] = COLOR_WHITE, [UI_CAT_IDLE] = -1,
	};
	int i;

	/* https://no-color.org: set and not empty means no colour */
	mono = scheme == CFG_COLORS_MONO || (nc && nc[0]) || !has_colors();
	if (mono || !has_colors())
		return;
	start_color();
	use_default_colors();
	init_pair(CP_HEADER, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_SELECT, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_MSG, COLOR_YELLOW, -1);
	init_pair(CP_LABEL, COLOR_CYAN, -1);
	init_pair(CP_TAG, COLOR_YELLOW, -1);
	init_pair(CP_FKEY, COLOR_BLACK, COLOR_CYAN);
	for (i = 0; i < UI_CAT__COUNT; i++)
		init_pair(CP_CAT0 + i, cat_fg[i], -1);
	init_pair(CP_CAT0 + UI_CAT_UNACC, COLOR_WHITE, COLOR_RED);
	init_pair(CP_MEM_USED, COLOR_GREEN, -1);
	init_pair(CP_MEM_BUF, COLOR_BLUE, -1);
	init_pair(CP_MEM_CACHE, COLOR_YELLOW, -1);
	init_pair(CP_CPU_IRQ, COLOR_YELLOW, -1);
}

attr_t cv_pair(int p, attr_t mono_attr)
{
	return mono ? mono_attr : COLOR_PAIR(p);
}

attr_t cv_attr_header(void)
{
	return cv_pair(CP_HEADER, A_REVERSE);
}

attr_t cv_attr_select(void)
{
	return mono ? A_REVERSE | A_BOLD : COLOR_PAIR(CP_SELECT) | A_BOLD;
}

attr_t cv_attr_msg(void)
{
	return cv_pair(CP_MSG, 0) | A_BOLD;
}

bool cv_mono(void)
{
	return mono;
}

void cv_put(int y, const char *s, int off, attr_t attr)
{
	int w = COLS;

	if (y < 0 || y >= LINES)
		return;
	move(y, 0);
	attrset(attr);
	if (off > 0)
		s = (size_t)off < strlen(s) ? s + off : "";
	/* the bottom-right cell cannot be written without scrolling */
	if (y == LINES - 1)
		w--;
	if (w > 0)
		addnstr(s, w);
	clrtoeol();
	if (attr & (A_REVERSE | A_COLOR)) {
		/* fill the rest of a highlighted line */
		int x = getcurx(stdscr);

		for (; x < w; x++)
			addch(' ');
	}
	attrset(A_NORMAL);
}

void cv_draw_bar(int y, int x, int w, const char *label,
		     const uint64_t *parts, const attr_t *attrs,
		     const char *chars, int nparts, uint64_t whole,
		     const char *text)
{
	int cells[16], inner, i, j, pos = 0, tl = (int)strlen(text), lw;
	char bar[CV_LINE_MAX];
	attr_t at[CV_LINE_MAX];

	lw = (int)strlen(label);
	inner = w - lw - 2;
	if (y >= LINES || inner < 1 || x + w > COLS || inner >= CV_LINE_MAX)
		return;
	ui_bar_cells(parts, nparts, whole, inner, cells);
	for (i = 0; i < nparts; i++)
		for (j = 0; j < cells[i] && pos < inner; j++) {
			bar[pos] = chars[i];
			at[pos++] = attrs[i];
		}
	for (; pos < inner; pos++) {
		bar[pos] = ' ';
		at[pos] = A_NORMAL;
	}
	/* the figure over the bar's right end, as htop does */
	for (i = 0; i < tl && i < inner; i++) {
		bar[inner - tl + i < 0 ? 0 : inner - tl + i] = text[i];
		at[inner - tl + i < 0 ? 0 : inner - tl + i] = A_BOLD;
	}
	move(y, x);
	attrset(cv_pair(CP_LABEL, 0) | A_BOLD);
	addstr(label);
	attrset(A_BOLD);
	addch('[');
	for (i = 0; i < inner; i++) {
		attrset(at[i]);
		addch((unsigned char)bar[i]);
	}
	attrset(A_BOLD);
	addch(']');
	attrset(A_NORMAL);
}

void cv_put_at_w(int y, int x, int w, const char *label, const char *text)
{
	int end = x + w < COLS - 1 ? x + w : COLS - 1;

	if (y >= LINES || x >= end)
		return;
	move(y, x);
	attrset(cv_pair(CP_LABEL, 0) | A_BOLD);
	addnstr(label, end - x);
	attrset(A_BOLD);
	if (getcurx(stdscr) < end)
		addnstr(text, end - getcurx(stdscr));
	attrset(A_NORMAL);
}

void cv_put_at(int y, int x, const char *label, const char *text)
{
	if (y >= LINES || x >= COLS)
		return;
	move(y, x);
	attrset(cv_pair(CP_LABEL, 0) | A_BOLD);
	addnstr(label, COLS - x);
	attrset(A_BOLD);
	if (getcurx(stdscr) < COLS - 1)
		addnstr(text, COLS - 1 - getcurx(stdscr));
	attrset(A_NORMAL);
}

int cv_wrap(const char *s, int width, int hang, int k, char *buf, size_t len)
{
	int n = 0, room, take, ind = 0;
	size_t rest = strlen(s);

	if (width < 1)
		width = 1;
	if (hang > width / 2)
		hang = width > 8 ? 2 : 0;
	room = width;
	buf[0] = '\0';
	do {
		take = (int)rest;
		if (take > room) {
			take = room;
			while (take > room / 2 && s[take] != ' ')
				take--;
			if (s[take] != ' ')
				take = room;
		}
		if (n == k)
			snprintf(buf, len, "%*s%.*s", ind, "", take, s);
		s += take;
		rest -= (size_t)take;
		while (*s == ' ') {
			s++;
			rest--;
		}
		n++;
		ind = hang;
		room = width - hang > 1 ? width - hang : 1;
	} while (rest);
	return n;
}
