/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interactive curses view. It only reads the model (struct ui_app's
 * last interval); what it shows is built by ui/view.c into rows of its
 * own, and drawn by screens (ui/curses_screen.h) over the main table.
 */
#ifndef UI_CURSES_VIEW_H
#define UI_CURSES_VIEW_H

#include "app.h"
#include "config/cfg.h"

/*
 * Run the view. cfg (may be NULL) gives the initial settings and is what
 * the save key saves, to cfg_path (NULL: saving is off).
 */
int ui_curses_run_cfg(struct ui_app *app, struct cfg *cfg,
		      const char *cfg_path);

#endif /* UI_CURSES_VIEW_H */
