/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The setup screen (F2): the columns, the header's meters, the colours;
 * and saving the settings to ptoprc.
 */
#ifndef UI_CURSES_SETUP_H
#define UI_CURSES_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include "curses_screen.h"

struct cv_setup {
	int sec;		/* 0 columns, 1 meters, 2 colours */
	int sel;		/* the selected line */
	int chooser[PTOP_COL__COUNT];	/* column ids in list order */
	bool chosen[PTOP_COL__COUNT];
	/* the meters: one list, left column, right column, hidden */
	struct cv_meter_choice {
		int id, style;
		int col;	/* 0 left, 1 right, -1 hidden */
	} mch[CFG_M__COUNT];
	int all_style;
};

extern const struct cv_screen_ops cv_setup_ops;
void cv_setup_open(struct cv *cv);
int cv_setup_items(const struct cv_setup *s);
/* setup's line i of the current section, and the section's keys */
void cv_setup_line(const struct cv *cv, const struct cv_setup *s, int i,
		   char *buf, size_t len);
const char *cv_setup_keys(const struct cv_setup *s);
/* Save the settings to the config file (W, setup's s). */
void cv_save_config(struct cv *cv);
/* the header's meters: from a configuration, or the defaults */
void cv_meters_from(struct cv *cv, const struct cfg *c);
void cv_meters_default(struct cv *cv);

#endif /* UI_CURSES_SETUP_H */
