/* SPDX-License-Identifier: GPL-2.0 */
/* The table screen's header meters and the All bar (ui/curses_bars.c). */
#ifndef UI_CURSES_BARS_H
#define UI_CURSES_BARS_H

#include "curses_screen.h"

/* Meter lines drawn from y = 1; returns the lines used. */
int cv_draw_meters(struct cv *cv);

#endif /* UI_CURSES_BARS_H */
