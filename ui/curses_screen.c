// SPDX-License-Identifier: GPL-2.0
/*
 * The stack of open screens (ui/curses_screen.h) and what every screen
 * shares: the shown rows rebuilt from the interval, the columns, the
 * selection kept on its task and on screen.
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "curses_screen.h"

static void close_one(struct cv *cv, int i)
{
	const struct cv_screen_ops *ops = cv->scr[i].ops;

	if (ops->close)
		ops->close(cv, cv->scr[i].st);
	else
		free(cv->scr[i].st);
	memmove(&cv->scr[i], &cv->scr[i + 1],
		(size_t)(cv->nscr - i - 1) * sizeof(cv->scr[0]));
	cv->nscr--;
}

int cv_screen_push(struct cv *cv, const struct cv_screen_ops *ops, void *st)
{
	if (cv->nscr == CV_MAX_SCREENS) {
		if (ops->close)
			ops->close(cv, st);
		else
			free(st);
		snprintf(cv->msg, sizeof(cv->msg), "too many screens open");
		return -ENOSPC;
	}
	cv->scr[cv->nscr].ops = ops;
	cv->scr[cv->nscr++].st = st;
	return 0;
}

void cv_screen_pop(struct cv *cv)
{
	if (cv->nscr > 1)
		close_one(cv, cv->nscr - 1);
}

void cv_screen_close(struct cv *cv, const struct cv_screen_ops *ops)
{
	int i;

	for (i = cv->nscr - 1; i > 0; i--)
		if (cv->scr[i].ops == ops)
			close_one(cv, i);
}

void cv_screen_close_all(struct cv *cv)
{
	while (cv->nscr)
		close_one(cv, cv->nscr - 1);
}

void *cv_screen_find(const struct cv *cv, const struct cv_screen_ops *ops)
{
	int i;

	for (i = 0; i < cv->nscr; i++)
		if (cv->scr[i].ops == ops)
			return cv->scr[i].st;
	return NULL;
}

const struct cv_screen_ops *cv_screen_top(const struct cv *cv)
{
	return cv->nscr ? cv->scr[cv->nscr - 1].ops : NULL;
}

void cv_screen_draw(struct cv *cv)
{
	if (!cv->nscr)
		return;
	cv->drawing = cv->nscr - 1;
	cv->scr[cv->drawing].ops->draw(cv, cv->scr[cv->drawing].st);
}

void cv_screen_draw_below(struct cv *cv)
{
	int me = cv->drawing;

	if (me <= 0)
		return;
	cv->drawing = me - 1;
	cv->scr[me - 1].ops->draw(cv, cv->scr[me - 1].st);
	cv->drawing = me;
}

void cv_key(struct cv *cv, int ch)
{
	int i;

	/*
	 * A terminal that grows may fill the new lines from its scrollback
	 * (tmux does): curses must repaint every cell, not only what it
	 * thinks has changed.
	 */
	if (ch == KEY_RESIZE)
		clearok(curscr, TRUE);
	/* a screen may close itself (and those above) while taking it */
	for (i = cv->nscr - 1; i >= 0 && i < cv->nscr; i--)
		if (cv->scr[i].ops->key(cv, cv->scr[i].st, ch))
			return;
}

void cv_mouse(struct cv *cv, int y, int x, int button)
{
	int i;

	for (i = cv->nscr - 1; i >= 0 && i < cv->nscr; i--)
		if (cv->scr[i].ops->mouse &&
		    cv->scr[i].ops->mouse(cv, cv->scr[i].st, y, x, button))
			return;
}

uint64_t cv_now_ns(void)
{
	return ui_now_ns();
}

const struct ui_vrow *cv_sel_row(const struct cv *cv)
{
	return cv_sel_shown(cv) ? &cv->v.rows[cv->sel] : NULL;
}

/* The targets of k, F7, F8: the tagged tasks, else the selected one. */
int cv_targets(const struct cv *cv, uint32_t *pids, int max)
{
	const struct ui_vrow *r = cv_sel_row(cv);
	size_t i;
	int n = 0;

	for (i = 0; i < cv->v.tagged.n && n < max; i++)
		pids[n++] = cv->v.tagged.pid[i];
	if (!n && r && !r->exited)
		pids[n++] = r->r.pid;
	return n;
}

void cv_move_sel(struct cv *cv, long delta)
{
	long s = (long)cv->sel + delta;

	if (s < 0 || !cv->v.nrows)
		s = 0;
	else if ((size_t)s >= cv->v.nrows)
		s = cv->v.nrows - 1;
	cv->sel = s;
	if (cv->follow && cv->sel < cv->v.nrows)	/* before clamp scrolls */
		cv->follow_pid = cv->v.rows[cv->sel].r.pid;
	cv_clamp(cv);
}

void cv_set_sort(struct cv *cv, int id)
{
	cv->app->view.sort_id = id;
	cv_rebuild(cv);
}

void cv_clamp(struct cv *cv)
{
	size_t i, nvis = cv->nvis > 0 ? (size_t)cv->nvis : 0;
	size_t n = cv->v.nrows;

	if (cv->follow && cv->have_iv) {
		for (i = 0; i < n; i++)
			if (cv->v.rows[i].r.pid == cv->follow_pid &&
			    !cv->v.rows[i].exited) {
				cv->sel = i;
				break;
			}
		/* gone: say so, rather than go on naming a pid not selected */
		if (i == n) {
			cv->follow = false;
			snprintf(cv->msg, sizeof(cv->msg),
				 "followed pid %u is gone (exited or filtered out): follow off",
				 cv->follow_pid);
		}
	}
	if (!n) {
		cv->sel = cv->top = 0;
		return;
	}
	if (cv->sel >= n)
		cv->sel = n - 1;
	if (cv->top > cv->sel)
		cv->top = cv->sel;
	if (!nvis)
		cv->top = cv->sel;
	else if (cv->sel >= cv->top + nvis)
		cv->top = cv->sel - nvis + 1;
	/* no empty space below the last row when scrolled */
	if (nvis && cv->top + nvis > n)
		cv->top = n > nvis ? n - nvis : 0;
}

bool cv_sel_shown(const struct cv *cv)
{
	return cv->have_iv && cv->sel < cv->v.nrows && cv->nvis > 0 &&
	       cv->sel >= cv->top && cv->sel < cv->top + (size_t)cv->nvis;
}

/* Is a column's data missing for every row of this interval? */
static bool unfillable(const struct cv *cv, int id)
{
	const struct ptop_col *c = &ptop_cols[id];

	return cv->have_iv && (c->needs & ~cv->app->iv.sum.has);
}

void cv_columns(struct cv *cv)
{
	struct ui_app *app = cv->app;
	int i, j, n = 0;

	for (i = 0; i < app->ncols && n < CV_MAX_DCOLS; i++) {
		int id = app->cols[i];
		const struct ptop_col *c = &ptop_cols[id];

		if (cv->expand_groups && c->nsum > 1) {
			for (j = 0; j < c->nsum && n < CV_MAX_DCOLS; j++)
				if (!app->cols_default || !unfillable(cv, c->fold_of + j))
					cv->dcols[n++] = c->fold_of + j;
			continue;
		}
		/* the default set hides what this source cannot fill */
		if (app->cols_default && unfillable(cv, id))
			continue;
		cv->dcols[n++] = id;
	}
	if (!n)		/* never an empty table */
		cv->dcols[n++] = PTOP_COL_PID;
	cv->ndcols = n;
}

/*
 * The selection is a task, not a line: after a build the selected task
 * (pid and start time: a reused pid is another task) is selected again
 * wherever it went, on the same screen line when it can be. Gone (or a
 * first build): the line number stays.
 */
static void reselect(struct cv *cv, const struct ptop_row *was, size_t line)
{
	size_t i;

	for (i = 0; i < cv->v.nrows; i++) {
		const struct ptop_row *r = &cv->v.rows[i].r;

		if (r->pid == was->pid && r->start_ns == was->start_ns &&
		    r->is_thread == was->is_thread)
			break;
	}
	if (i == cv->v.nrows)
		return;
	cv->sel = i;
	cv->top = i >= line ? i - line : 0;
}

void cv_rebuild(struct cv *cv)
{
	struct ui_app *app = cv->app;
	struct ptop_row was;
	bool had = false;
	size_t line = 0;

	cv_columns(cv);
	cv->v.show_exited = cv->v.tree ? cv->exited_tree : cv->exited_list;
	if (!cv->have_iv)
		return;
	if (cv->sel < cv->v.nrows) {
		was = cv->v.rows[cv->sel].r;
		line = cv->sel >= cv->top ? cv->sel - cv->top : 0;
		had = true;
	}
	if (ui_view_build(&cv->v, &app->view, &app->iv,
			  ptop_snap_prev(&app->snap), ptop_snap_cur(&app->snap)))
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
	else if (had)
		reselect(cv, &was, line);
	cv_clamp(cv);
}
