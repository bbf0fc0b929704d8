/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htop's bar of function keys on the bottom line: each key's name, then
 * its label on a coloured field; a click on a key presses it.
 */
#ifndef UI_CURSES_FKEYS_H
#define UI_CURSES_FKEYS_H

/* one key of the bar: F1 .. F10 and its label (at most 6 characters) */
struct cv_fkey {
	int key;		/* KEY_F(n) */
	const char *label;
};

/* Draw the bar on line y. */
void cv_fkeys_draw(int y, const struct cv_fkey *keys, int n);
/* The key drawn at column x; 0: none. */
int cv_fkeys_at(const struct cv_fkey *keys, int n, int x);

#endif /* UI_CURSES_FKEYS_H */
