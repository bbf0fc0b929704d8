// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing: headline, system line, status, column header, rows, the V:V:S
 * sum row; the help screen and the column chooser. Every line is built in
 * a buffer first and clipped to the screen, so any terminal size works.
 */
#include <curses.h>
#include <string.h>

#include "curses_view.h"

#define LINE_MAX_LEN 4096
#define TREE_MAX_INDENT 32

static const char *const help_keys[] = {
	"Keys",
	"  q            quit",
	"  h ?          this help (up/down/PgUp/PgDn scroll, any other key leaves)",
	"  Up Down      select a row",
	"  PgUp PgDn    a page up / down",
	"  Home End     first / last row",
	"  Left Right   scroll the columns sideways (< > mark more that way)",
	"  < >          sort by the previous / next shown column",
	"  r            reverse the sort order",
	"  t            tree view on / off (children under their parent)",
	"  H            threads / processes (from the next interval on)",
	"  /            filter: show rows whose COMMAND or USER contains the text",
	"               (Enter applies, an empty text clears, Esc cancels)",
	"  c            choose columns: Space shows/hides, - + move, Enter done",
	"  d            change the delay between updates (seconds)",
	"  Z p          pause / resume the updates (the headline keeps its time)",
	"  k            send SIGTERM to the selected task (asks first)",
	"  F            follow the selected pid across updates",
	"  s            save columns, sort, delay, tree, threads to the config file",
	"  Ctrl-L       redraw the screen",
	"",
	"Rows plus idle and the system parts add up to ncpu x 100%: the headline",
	"says how much was accounted for and whether the interval was exact.",
	"A column the source cannot fill shows '-'.",
	"",
	"Columns (name, unit, meaning)",
};

#define N_HELP_KEYS ((int)(sizeof(help_keys) / sizeof(help_keys[0])))

int cv_help_line(int i, char *buf, size_t len)
{
	if (i < 0)
		return -1;
	if (i < N_HELP_KEYS) {
		snprintf(buf, len, "%s", help_keys[i]);
		return 0;
	}
	i -= N_HELP_KEYS;
	if (i >= PTOP_COL__COUNT)
		return -1;
	snprintf(buf, len, "  %-8s %-6s %s", ptop_cols[i].name,
		 ptop_cols[i].unit, ptop_cols[i].help);
	return 0;
}

/* One screen line from s (skipping off characters), clipped, cleared. */
static void put(int y, const char *s, int off, attr_t attr)
{
	int w = COLS;

	if (y < 0 || y >= LINES)
		return;
	move(y, 0);
	attrset(attr);
	if (off > 0)
		s = (size_t)off < strlen(s) ? s + off : "";
	/* the bottom-right cell cannot be written without scrolling */
	if (y == LINES - 1)
		w--;
	if (w > 0)
		addnstr(s, w);
	clrtoeol();
	if (attr) {
		/* fill the rest of a highlighted line */
		int x = getcurx(stdscr);

		for (; x < w; x++)
			addch(' ');
	}
	attrset(A_NORMAL);
}

static attr_t attr_header(void)
{
	return has_colors() ? COLOR_PAIR(1) : A_REVERSE;
}

static attr_t attr_select(void)
{
	return has_colors() ? COLOR_PAIR(2) | A_BOLD : A_REVERSE | A_BOLD;
}

static attr_t attr_msg(void)
{
	return has_colors() ? COLOR_PAIR(3) | A_BOLD : A_BOLD;
}

static size_t cell(char *line, size_t pos, const struct ptop_col *c,
		   const char *s, bool last)
{
	int n;

	if (pos >= LINE_MAX_LEN - 1)
		return pos;
	if (c->left && last)
		n = snprintf(line + pos, LINE_MAX_LEN - pos, "%s", s);
	else if (c->left)
		n = snprintf(line + pos, LINE_MAX_LEN - pos, "%-*s ", c->width, s);
	else
		n = snprintf(line + pos, LINE_MAX_LEN - pos, "%*s%s", c->width, s,
			     last ? "" : " ");
	pos += n > 0 ? (size_t)n : 0;
	return pos < LINE_MAX_LEN ? pos : LINE_MAX_LEN - 1;
}

/* The header; [*sort_from, *sort_to) is the sort column's title. */
static void header_line(const struct ui_app *app, char *line,
			size_t *sort_from, size_t *sort_to)
{
	size_t pos = 0, start;
	int i;

	line[0] = '\0';
	*sort_from = *sort_to = 0;
	for (i = 0; i < app->ncols; i++) {
		const struct ptop_col *c = &ptop_cols[app->cols[i]];

		start = pos;
		pos = cell(line, pos, c, c->title, i == app->ncols - 1);
		if (app->cols[i] == app->view.sort_id && !*sort_to) {
			/* just the title, without the padding */
			size_t t = strlen(c->title);

			size_t end = i == app->ncols - 1 ? pos : pos - 1;

			*sort_from = c->left ? start : end - t;
			*sort_to = *sort_from + t;
		}
	}
}

/* Mark the sort column's title in the header line y. */
static void mark_sort(int y, size_t from, size_t to, int off)
{
	long a = (long)from - off, b = (long)to - off;

	if (y >= LINES || b <= 0 || a >= COLS)
		return;
	if (a < 0)
		a = 0;
	if (b > COLS)
		b = COLS;
	mvchgat(y, (int)a, (int)(b - a),
		A_BOLD | A_UNDERLINE | (has_colors() ? 0 : A_REVERSE),
		has_colors() ? 1 : 0, NULL);
}

static void row_line(const struct cv *cv, const struct ptop_row *r,
		     bool is_sum, char *line)
{
	const struct ui_app *app = cv->app;
	char val[128], tmp[200];
	const char *shown;
	size_t pos = 0;
	int i, d;

	line[0] = '\0';
	for (i = 0; i < app->ncols; i++) {
		int id = app->cols[i];
		const struct ptop_col *c = &ptop_cols[id];

		if (is_sum && i == 0)
			snprintf(val, sizeof(val), "V:V:S");
		else if (is_sum && !c->sum)
			val[0] = '\0';
		else
			ptop_col_format(c, r, &app->iv, val, sizeof(val));
		shown = val;
		if (cv->tree && !is_sum && id == PTOP_COL_COMMAND && r->depth) {
			d = r->depth < TREE_MAX_INDENT ? r->depth : TREE_MAX_INDENT;
			snprintf(tmp, sizeof(tmp), "%*s`- %s", 2 * (d - 1), "", val);
			shown = tmp;
		}
		pos = cell(line, pos, c, shown, i == app->ncols - 1);
	}
}

static void status_line(const struct cv *cv, char *line, size_t len)
{
	const struct ui_app *app = cv->app;
	size_t pos;

	pos = snprintf(line, len, "sort %s%s  %s%s%s",
		       ptop_cols[app->view.sort_id].name,
		       app->view.sort_asc ? " (ascending)" : "",
		       app->threads ? "threads" : "processes",
		       cv->threads_pending ? " (next interval)" : "",
		       cv->tree ? "  tree" : "");
	if (pos < len && cv->filter[0])
		pos += snprintf(line + pos, len - pos, "  filter '%s'", cv->filter);
	if (pos < len && cv->follow)
		pos += snprintf(line + pos, len - pos, "  follow %u", cv->follow_pid);
	if (pos < len && cv->paused)
		pos += snprintf(line + pos, len - pos, "  PAUSED");
	if (pos < len && cv->have_iv)
		pos += snprintf(line + pos, len - pos, "  %zu rows", cv->nrows);
	if (pos < len)
		snprintf(line + pos, len - pos, "  (h: help)");
}

int cv_hscroll_max(const struct cv *cv)
{
	return cv->line_w > COLS ? cv->line_w - COLS : 0;
}

static void draw_table(struct cv *cv)
{
	static char line[LINE_MAX_LEN], tmp[LINE_MAX_LEN];
	struct ui_app *app = cv->app;
	int y, nvis, cur_x = -1;
	size_t i, sort_from, sort_to;

	if (cv->have_iv) {
		ui_headline(&app->iv, app->view.source, line, sizeof(line));
		put(0, line, 0, A_BOLD);
		ui_sysline(&app->iv, line, sizeof(line));
		put(1, line, 0, A_NORMAL);
	} else {
		snprintf(line, sizeof(line),
			 "ptop  source %s  measuring... (the first interval needs two snapshots, %.2fs apart)",
			 app->view.source, app->delay_s);
		put(0, line, 0, A_BOLD);
		put(1, "", 0, A_NORMAL);
	}
	if (cv->mode == CV_INPUT) {
		snprintf(line, sizeof(line), "%s: %s",
			 cv->input_kind == CV_IN_FILTER ? "filter (COMMAND or USER)" :
			 "delay in seconds", cv->input);
		if (cv->input_kind == CV_IN_DELAY)
			snprintf(line, sizeof(line), "delay in seconds (now %g): %s",
				 app->delay_s, cv->input);
		put(2, line, 0, attr_msg());
		cur_x = (int)strlen(line);
	} else if (cv->mode == CV_CONFIRM) {
		snprintf(line, sizeof(line), "send SIGTERM to %u (%s)? [y/N]",
			 cv->kill_pid, cv->kill_comm);
		put(2, line, 0, attr_msg());
	} else if (cv->msg[0]) {
		put(2, cv->msg, 0, attr_msg());
	} else {
		status_line(cv, line, sizeof(line));
		put(2, line, 0, A_NORMAL);
	}
	header_line(app, line, &sort_from, &sort_to);
	cv->line_w = (int)strlen(line);
	/* the widest row decides how far Right can scroll */
	for (i = cv->top; cv->have_iv && i < cv->nrows &&
	     i < cv->top + (size_t)(LINES > 5 ? LINES - 5 : 0); i++) {
		row_line(cv, &cv->rows[i], false, tmp);
		if ((int)strlen(tmp) > cv->line_w)
			cv->line_w = (int)strlen(tmp);
	}
	if (cv->hscroll > cv_hscroll_max(cv))
		cv->hscroll = cv_hscroll_max(cv);
	put(3, line, cv->hscroll, attr_header());
	mark_sort(3, sort_from, sort_to, cv->hscroll);
	/* scrolled: say there is more to the left / right */
	if (LINES > 3 && cv->hscroll > 0)
		mvaddch(3, 0, '<' | attr_header() | A_BOLD);
	if (LINES > 3 && COLS > 1 && cv->line_w - cv->hscroll > COLS)
		mvaddch(3, COLS - 1, '>' | attr_header() | A_BOLD);

	/* rows between the header and the sum line */
	nvis = LINES - 5;
	cv->nvis = nvis > 0 ? nvis : 0;
	cv_clamp(cv);
	for (y = 0; y < cv->nvis; y++) {
		i = cv->top + y;
		if (!cv->have_iv || i >= cv->nrows) {
			put(4 + y, "", 0, A_NORMAL);
			continue;
		}
		row_line(cv, &cv->rows[i], false, line);
		put(4 + y, line, cv->hscroll,
		    i == cv->sel ? attr_select() : A_NORMAL);
	}
	if (cv->have_iv && LINES > 4) {
		row_line(cv, &app->iv.sum, true, line);
		put(LINES - 1, line, cv->hscroll, A_BOLD);
	}
	if (cur_x >= 0 && LINES > 2) {
		curs_set(1);
		move(2, cur_x < COLS - 1 ? cur_x : COLS - 1);
	}
}

static void draw_help(struct cv *cv)
{
	char line[512];
	int y, n = 0;

	while (!cv_help_line(n, line, sizeof(line)))
		n++;
	cv->help_lines = n;
	if (cv->help_top > n - LINES + 1)
		cv->help_top = n - LINES + 1;
	if (cv->help_top < 0)
		cv->help_top = 0;
	snprintf(line, sizeof(line), "ptop %s help  (lines %d-%d of %d; any other key returns)",
		 PTOP_VERSION, cv->help_top + 1,
		 cv->help_top + LINES - 1 < n ? cv->help_top + LINES - 1 : n, n);
	put(0, line, 0, attr_header());
	for (y = 1; y < LINES; y++) {
		if (cv_help_line(cv->help_top + y - 1, line, sizeof(line)))
			line[0] = '\0';
		put(y, line, 0, A_NORMAL);
	}
}

static void draw_chooser(struct cv *cv)
{
	char line[512];
	int y, i, top, nvis = LINES - 2;

	put(0, "columns: Up/Down select, Space show/hide, - + move, Enter done, Esc cancel",
	    0, attr_header());
	top = 0;
	if (nvis > 0 && cv->ch_sel >= nvis)
		top = cv->ch_sel - nvis + 1;
	for (y = 1; y < LINES; y++) {
		i = top + y - 1;
		if (y == LINES - 1 || i >= PTOP_COL__COUNT) {
			put(y, "", 0, A_NORMAL);
			continue;
		}
		snprintf(line, sizeof(line), "[%c] %-8s %-6s %s",
			 cv->chosen[i] ? 'x' : ' ', ptop_cols[cv->chooser[i]].name,
			 ptop_cols[cv->chooser[i]].unit,
			 ptop_cols[cv->chooser[i]].help);
		put(y, line, 0, i == cv->ch_sel ? attr_select() : A_NORMAL);
	}
	if (cv->msg[0])
		put(LINES - 1, cv->msg, 0, attr_msg());
}

void cv_draw(struct cv *cv)
{
	curs_set(0);
	switch (cv->mode) {
	case CV_HELP:
		draw_help(cv);
		break;
	case CV_COLS:
		draw_chooser(cv);
		break;
	default:
		draw_table(cv);
		break;
	}
	refresh();
}
