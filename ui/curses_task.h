/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The process screen (Enter on a row): ui/curses_task.c draws it and
 * takes its keys, ui/curses_task_lists.c makes its lists (threads, live
 * children, exited children).
 */
#ifndef UI_CURSES_TASK_H
#define UI_CURSES_TASK_H

#include <curses.h>
#include "curses_screen.h"

/*
 * Enter opens it on the selected row; step: after each interval's
 * rebuild, feeds the history (the table's selected task is followed
 * too, so its history is there when the screen opens).
 */
extern const struct cv_screen_ops cv_task_ops;
void cv_task_open(struct cv *cv, int ch);
void cv_task_step(struct cv *cv);

#define CV_TL_LEN 1024		/* a screen line's buffer */
#define CV_TL_ITEMS 256		/* entries per list */
#define CV_TL_ITEM 80

/* The lists, what each needs on screen, made before they are drawn. */
struct cv_task_lists {
	char items[3][CV_TL_ITEMS][CV_TL_ITEM];
	char head[3][96];
	int n[3];
	int need[3];		/* lines, at most a share of what is left */
};

/* One screen line at y, clipped and cleared (y off screen: nothing). */
void cv_task_put(int y, const char *s, attr_t attr);
/* "[exit N]", "[signal N]" or "[signal N, core]" of a wait(2) status */
void cv_task_exit_status(uint32_t code, char *buf, size_t len);
/*
 * The lists of task (pid, start) t (may be NULL) with group record g
 * (may be NULL), and the lines each needs of rem lines left.
 */
void cv_task_lists_make(const struct cv *cv, const struct ui_th_task *t,
			const struct ptop_rec *g, int rem,
			struct cv_task_lists *l);
/* Draw them from line y on; returns the lines used. */
int cv_task_lists_draw(int y, const struct cv_task_lists *l);

#endif /* UI_CURSES_TASK_H */
