// SPDX-License-Identifier: GPL-2.0
/*
 * The F-key bar, laid out as htop's: "F1" then the label padded to six
 * cells, so that the ten keys fit 80 columns.
 */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "curses_fkeys.h"
#include "curses_paint.h"

#define LABEL_W 6

/* the key's name as the bar shows it: F1 .. F10 */
static int fkey_name(int key, char *buf, size_t len)
{
	return snprintf(buf, len, "F%d", key - KEY_F0);
}

void cv_fkeys_draw(int y, const struct cv_fkey *keys, int n)
{
	char name[16], label[LABEL_W + 1];
	int i, w = COLS - (y == LINES - 1);	/* not the last cell */

	if (y < 0 || y >= LINES)
		return;
	/* cleared first: the last cell is never drawn and keeps what was there */
	move(y, 0);
	clrtoeol();
	for (i = 0; i < n && getcurx(stdscr) < w; i++) {
		fkey_name(keys[i].key, name, sizeof(name));
		attrset(A_NORMAL);
		addnstr(name, w - getcurx(stdscr));
		snprintf(label, sizeof(label), "%-*s", LABEL_W, keys[i].label);
		attrset(cv_pair(CP_FKEY, A_REVERSE));
		if (getcurx(stdscr) < w)
			addnstr(label, w - getcurx(stdscr));
	}
	attrset(A_NORMAL);
}

int cv_fkeys_at(const struct cv_fkey *keys, int n, int x)
{
	char name[16];
	int i, start = 0, end;

	for (i = 0; i < n; i++) {
		end = start + fkey_name(keys[i].key, name, sizeof(name)) + LABEL_W;
		if (x >= start && x < end)
			return keys[i].key;
		start = end;
	}
	return 0;
}
