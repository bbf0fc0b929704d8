/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one-line prompts over the table's status line: search (F3, /),
 * filter (F4, \), delay (d). Search and filter act as keys come.
 */
#ifndef UI_CURSES_INPUT_H
#define UI_CURSES_INPUT_H

#include "curses_screen.h"

struct cv_input_state {
	enum cv_input kind;
	struct ui_prompt prompt;
	char filter_before[128];	/* restored by Esc on the live filter */
};

extern const struct cv_screen_ops cv_input_ops;
void cv_input_open(struct cv *cv, enum cv_input kind);
/* The prompt on top; NULL: none. */
struct cv_input_state *cv_input_top(const struct cv *cv);

#endif /* UI_CURSES_INPUT_H */
