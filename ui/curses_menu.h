/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A list to pick from, beside the table (htop's side menus): one screen
 * for every menu, each kind a struct cv_menu_def of what its entries say
 * and what picking one does. The sort and user menus are here
 * (ui/curses_menus.c); the signal menu is ui/curses_signal.c.
 */
#ifndef UI_CURSES_MENU_H
#define UI_CURSES_MENU_H

#include <stdbool.h>
#include <stddef.h>
#include "curses_screen.h"

struct cv_menu_def {
	const char *title;
	int width;		/* the menu's width (0: 44) */
	/* entry i's text; st is what the opener gave */
	void (*entry)(const struct cv *cv, const void *st, int i, char *buf,
		      size_t len);
	/* Enter on entry i; the menu closes after it */
	void (*pick)(struct cv *cv, void *st, int i);
	/* Esc (may be NULL) */
	void (*cancel)(struct cv *cv, void *st);
	/* a key the list does not take (may be NULL): true if taken */
	bool (*key)(struct cv *cv, void *st, int ch);
	/* a line above the menu, over the status line (may be NULL) */
	void (*head)(const struct cv *cv, const void *st, char *buf,
		     size_t len);
};

struct cv_menu {
	const struct cv_menu_def *def;
	int sel, n, top;
	void *st;		/* the kind's (malloc'ed: freed on close) */
};

extern const struct cv_screen_ops cv_menu_ops;
/* Open a menu of n entries at sel; st (may be NULL) is freed with it. */
int cv_menu_open(struct cv *cv, const struct cv_menu_def *def, int n,
		 int sel, void *st);
/* The menu on top; NULL: none. */
struct cv_menu *cv_menu_top(const struct cv *cv);

/* The sort menu (F6) and the user menu (u). */
extern const struct cv_menu_def cv_sort_menu, cv_user_menu;
void cv_sort_menu_open(struct cv *cv);
void cv_user_menu_open(struct cv *cv);

#endif /* UI_CURSES_MENU_H */
