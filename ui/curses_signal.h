/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The signal menu (F9, k): the signal to send to the tagged tasks, else
 * the selected one, as they were when the menu opened.
 */
#ifndef UI_CURSES_SIGNAL_H
#define UI_CURSES_SIGNAL_H

#include "curses_menu.h"

extern const struct cv_menu_def cv_signal_menu;
void cv_signal_menu_open(struct cv *cv);
/* The signal menu's entries: how many, entry i's name and number. */
int cv_signal_count(void);
const char *cv_signal_name(int i);
int cv_signal_number(int i);

#endif /* UI_CURSES_SIGNAL_H */
