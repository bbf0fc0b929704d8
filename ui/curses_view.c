// SPDX-License-Identifier: GPL-2.0
/* PLACEHOLDER until the curses view lands: falls back to batch output. */
#include "app.h"

int ui_curses_run(struct ui_app *app)
{
	return ui_batch_run(app, stdout);
}
