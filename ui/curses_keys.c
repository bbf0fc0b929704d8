// SPDX-License-Identifier: GPL-2.0
/* Key bindings of the curses view, one small handler per mode. */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "curses_view.h"

#define CTRL(x) ((x) & 0x1f)
#define KEY_ESC 27

static size_t page(const struct cv *cv)
{
	return cv->nvis > 1 ? (size_t)cv->nvis - 1 : 1;
}

/* The selected row's pid, followed across updates when F is on. */
static void remember_sel(struct cv *cv)
{
	if (cv->follow && cv->sel < cv->nrows)
		cv->follow_pid = cv->rows[cv->sel].pid;
}

static void move_sel(struct cv *cv, long delta)
{
	long s = (long)cv->sel + delta;

	if (s < 0 || !cv->nrows)
		s = 0;
	else if ((size_t)s >= cv->nrows)
		s = cv->nrows - 1;
	cv->sel = s;
	remember_sel(cv);
	cv_clamp(cv);
}

/* < and >: the previous / next shown column becomes the sort column. */
static void sort_step(struct cv *cv, int dir)
{
	struct ui_app *app = cv->app;
	int i, pos = -1;

	for (i = 0; i < app->ncols; i++)
		if (app->cols[i] == app->view.sort_id)
			pos = i;
	if (pos < 0)
		pos = dir > 0 ? -1 : app->ncols;
	pos += dir;
	if (pos < 0)
		pos = 0;
	if (pos >= app->ncols)
		pos = app->ncols - 1;
	app->view.sort_id = app->cols[pos];
	cv_rebuild(cv);
}

static void start_input(struct cv *cv, enum cv_input kind)
{
	cv->mode = CV_INPUT;
	cv->input_kind = kind;
	/* the delay starts empty: typing 1 means 1s, not the old value's 21 */
	if (kind == CV_IN_FILTER)
		snprintf(cv->input, sizeof(cv->input), "%s", cv->filter);
	else
		cv->input[0] = '\0';
	cv->inlen = strlen(cv->input);
}

static void apply_delay(struct cv *cv)
{
	struct ui_app *app = cv->app;
	char *end;
	double d = strtod(cv->input, &end);

	if (end == cv->input || *end || !(d >= 0.01 && d <= 86400)) {
		snprintf(cv->msg, sizeof(cv->msg),
			 "bad delay '%s' (0.01 to 86400 seconds)", cv->input);
		return;
	}
	app->delay_s = d;
	/* the next snapshot: one new delay after the last one */
	cv->deadline_ns = cv->last_snap_ns + (uint64_t)(d * 1e9);
	snprintf(cv->msg, sizeof(cv->msg), "delay %gs", d);
}

static void key_input(struct cv *cv, int ch)
{
	switch (ch) {
	case KEY_ESC:
	case CTRL('g'):
		cv->mode = CV_TABLE;
		return;
	case '\n':
	case '\r':
	case KEY_ENTER:
		cv->mode = CV_TABLE;
		if (cv->input_kind == CV_IN_FILTER) {
			snprintf(cv->filter, sizeof(cv->filter), "%s", cv->input);
			cv->sel = cv->top = 0;
			cv_rebuild(cv);
		} else {
			apply_delay(cv);
		}
		return;
	case KEY_BACKSPACE:
	case 127:
	case CTRL('h'):
		if (cv->inlen)
			cv->input[--cv->inlen] = '\0';
		return;
	case CTRL('u'):
		cv->inlen = 0;
		cv->input[0] = '\0';
		return;
	case CTRL('w'):
		while (cv->inlen && cv->input[cv->inlen - 1] == ' ')
			cv->inlen--;
		while (cv->inlen && cv->input[cv->inlen - 1] != ' ')
			cv->inlen--;
		cv->input[cv->inlen] = '\0';
		return;
	default:
		if (ch >= 0x20 && ch < 0x7f && cv->inlen + 1 < sizeof(cv->input)) {
			cv->input[cv->inlen++] = ch;
			cv->input[cv->inlen] = '\0';
		}
		return;
	}
}

static void key_confirm(struct cv *cv, int ch)
{
	cv->mode = CV_TABLE;
	if (ch != 'y' && ch != 'Y') {
		snprintf(cv->msg, sizeof(cv->msg), "not sent");
		return;
	}
	if (kill(cv->kill_pid, SIGTERM))
		snprintf(cv->msg, sizeof(cv->msg), "kill %u: %s", cv->kill_pid,
			 strerror(errno));
	else
		snprintf(cv->msg, sizeof(cv->msg), "sent SIGTERM to %u (%s)",
			 cv->kill_pid, cv->kill_comm);
}

static void key_help(struct cv *cv, int ch)
{
	switch (ch) {
	case KEY_UP:
		cv->help_top--;
		break;
	case KEY_DOWN:
		cv->help_top++;
		break;
	case KEY_PPAGE:
		cv->help_top -= LINES > 2 ? LINES - 2 : 1;
		break;
	case KEY_NPAGE:
	case ' ':
		cv->help_top += LINES > 2 ? LINES - 2 : 1;
		break;
	case KEY_HOME:
		cv->help_top = 0;
		break;
	case KEY_END:
		cv->help_top = cv->help_lines;
		break;
	case KEY_RESIZE:
		break;
	default:
		cv->mode = CV_TABLE;
		break;
	}
}

static void open_chooser(struct cv *cv)
{
	struct ui_app *app = cv->app;
	bool used[PTOP_COL__COUNT] = { false };
	int i, n = 0;

	for (i = 0; i < app->ncols; i++) {
		if (used[app->cols[i]])
			continue;
		used[app->cols[i]] = true;
		cv->chosen[n] = true;
		cv->chooser[n++] = app->cols[i];
	}
	for (i = 0; i < PTOP_COL__COUNT; i++) {
		if (used[i])
			continue;
		cv->chosen[n] = false;
		cv->chooser[n++] = i;
	}
	cv->ch_sel = 0;
	cv->mode = CV_COLS;
}

static void close_chooser(struct cv *cv)
{
	struct ui_app *app = cv->app;
	int i, n = 0, cols[PTOP_COL__COUNT];

	for (i = 0; i < PTOP_COL__COUNT; i++)
		if (cv->chosen[i])
			cols[n++] = cv->chooser[i];
	if (!n) {
		snprintf(cv->msg, sizeof(cv->msg), "at least one column must be shown");
		return;
	}
	memcpy(app->cols, cols, n * sizeof(cols[0]));
	app->ncols = n;
	app->view.cols = app->cols;
	app->view.ncols = n;
	/* gather what the new columns need from the next snapshot on */
	app->src->cfg.need = ptop_col_needs(app->cols, app->ncols);
	cv->hscroll = 0;
	cv->mode = CV_TABLE;
	cv->msg[0] = '\0';
	cv_rebuild(cv);
}

static void chooser_swap(struct cv *cv, int to)
{
	int from = cv->ch_sel, id;
	bool on;

	if (to < 0 || to >= PTOP_COL__COUNT)
		return;
	id = cv->chooser[from];
	on = cv->chosen[from];
	cv->chooser[from] = cv->chooser[to];
	cv->chosen[from] = cv->chosen[to];
	cv->chooser[to] = id;
	cv->chosen[to] = on;
	cv->ch_sel = to;
}

static void key_chooser(struct cv *cv, int ch)
{
	cv->msg[0] = '\0';
	switch (ch) {
	case KEY_UP:
		if (cv->ch_sel > 0)
			cv->ch_sel--;
		break;
	case KEY_DOWN:
		if (cv->ch_sel < PTOP_COL__COUNT - 1)
			cv->ch_sel++;
		break;
	case KEY_HOME:
		cv->ch_sel = 0;
		break;
	case KEY_END:
		cv->ch_sel = PTOP_COL__COUNT - 1;
		break;
	case ' ':
		cv->chosen[cv->ch_sel] = !cv->chosen[cv->ch_sel];
		break;
	case '-':
	case '[':
		chooser_swap(cv, cv->ch_sel - 1);
		break;
	case '+':
	case ']':
		chooser_swap(cv, cv->ch_sel + 1);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 'c':
	case 'q':
		close_chooser(cv);
		break;
	case KEY_ESC:
		cv->mode = CV_TABLE;
		break;
	default:
		break;
	}
}

static void save_config(struct cv *cv)
{
	struct ui_app *app = cv->app;
	struct cfg c;
	char err[400];

	if (!cv->cfg_path) {
		snprintf(cv->msg, sizeof(cv->msg),
			 "no config file to save to (--no-config)");
		return;
	}
	if (cv->cfg)
		c = *cv->cfg;
	else
		cfg_defaults(&c);
	memcpy(c.cols, app->cols, app->ncols * sizeof(c.cols[0]));
	c.ncols = app->ncols;
	c.sort_id = app->view.sort_id;
	c.sort_asc = app->view.sort_asc;
	c.delay_s = app->delay_s;
	c.tree = cv->tree;
	c.threads = app->threads;
	if (cfg_save(cv->cfg_path, &c, err, sizeof(err))) {
		snprintf(cv->msg, sizeof(cv->msg), "%s", err);
		return;
	}
	if (cv->cfg)
		*cv->cfg = c;
	snprintf(cv->msg, sizeof(cv->msg), "saved %s", cv->cfg_path);
}

static void key_table(struct cv *cv, int ch)
{
	struct ui_app *app = cv->app;

	cv->msg[0] = '\0';
	switch (ch) {
	case 'q':
	case 'Q':
		cv->quit = true;
		break;
	case 'h':
	case '?':
	case KEY_F(1):
		cv->mode = CV_HELP;
		cv->help_top = 0;
		break;
	case KEY_UP:
		move_sel(cv, -1);
		break;
	case KEY_DOWN:
		move_sel(cv, 1);
		break;
	case KEY_PPAGE:
		move_sel(cv, -(long)page(cv));
		break;
	case KEY_NPAGE:
		move_sel(cv, page(cv));
		break;
	case KEY_HOME:
		move_sel(cv, -(long)cv->nrows);
		break;
	case KEY_END:
		move_sel(cv, cv->nrows);
		break;
	case KEY_LEFT:
		cv->hscroll = cv->hscroll > CV_HSTEP ? cv->hscroll - CV_HSTEP : 0;
		break;
	case KEY_RIGHT:
		/* up to where the widest line's end is at the right edge */
		if (cv->hscroll < cv_hscroll_max(cv))
			cv->hscroll += CV_HSTEP;
		if (cv->hscroll > cv_hscroll_max(cv))
			cv->hscroll = cv_hscroll_max(cv);
		break;
	case '<':
	case ',':
		sort_step(cv, -1);
		break;
	case '>':
	case '.':
		sort_step(cv, 1);
		break;
	case 'r':
		app->view.sort_asc = !app->view.sort_asc;
		cv_rebuild(cv);
		break;
	case 't':
		cv->tree = !cv->tree;
		cv_rebuild(cv);
		break;
	case 'H':
		app->threads = !app->threads;
		cv->threads_pending = !cv->have_iv ||
				      app->iv.threads != app->threads;
		break;
	case '/':
		start_input(cv, CV_IN_FILTER);
		break;
	case 'c':
		open_chooser(cv);
		break;
	case 'd':
		start_input(cv, CV_IN_DELAY);
		break;
	case 'p':
	case 'Z':
		cv->paused = !cv->paused;
		if (!cv->paused)	/* an update now, covering the pause */
			cv->deadline_ns = cv_now_ns();
		break;
	case 'k':
		if (!cv->have_iv || cv->sel >= cv->nrows) {
			snprintf(cv->msg, sizeof(cv->msg), "no task selected");
			break;
		}
		cv->kill_pid = cv->rows[cv->sel].pid;
		memcpy(cv->kill_comm, cv->rows[cv->sel].comm,
		       sizeof(cv->kill_comm));
		cv->kill_comm[sizeof(cv->kill_comm) - 1] = '\0';
		cv->mode = CV_CONFIRM;
		break;
	case 's':
		save_config(cv);
		break;
	case 'F':
		cv->follow = !cv->follow;
		if (cv->follow && cv->sel < cv->nrows)
			cv->follow_pid = cv->rows[cv->sel].pid;
		else
			cv->follow = false;
		break;
	case CTRL('l'):
		clearok(curscr, TRUE);
		break;
	case KEY_RESIZE:
	default:
		break;
	}
}

void cv_key(struct cv *cv, int ch)
{
	switch (cv->mode) {
	case CV_INPUT:
		key_input(cv, ch);
		break;
	case CV_CONFIRM:
		key_confirm(cv, ch);
		break;
	case CV_HELP:
		key_help(cv, ch);
		break;
	case CV_COLS:
		key_chooser(cv, ch);
		break;
	default:
		key_table(cv, ch);
		break;
	}
}
