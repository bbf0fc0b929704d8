// SPDX-License-Identifier: GPL-2.0
/*
 * The main table screen: draws the top line, the meters (or the system
 * line), the status line, the column header, the rows and the sum row;
 * takes the keys of its binding table, htop's pid typing and the mouse.
 */
#include <curses.h>
#include <string.h>

#include "curses_bars.h"
#include "curses_fkeys.h"
#include "curses_paint.h"
#include "curses_rows.h"
#include "curses_table.h"

/* The message (up to 3 lines, wrapped) or the status line; its lines. */
static int draw_status(struct cv *cv, int status_y, bool with_meters)
{
	char line[CV_LINE_MAX], tmp[CV_LINE_MAX];
	int y, nmsg = 1;

	/* a long message (the source's note at start): up to 3 lines */
	if (cv->msg[0] && !cv->status_busy && with_meters)
		nmsg = cv_wrap(cv->msg, COLS - 1, 2, -1, tmp, sizeof(tmp));
	nmsg = nmsg < 3 ? nmsg : 3;
	if (cv->status_busy)
		return nmsg;
	if (!cv->msg[0]) {
		cv_status_line(cv, line, sizeof(line));
		cv_put(status_y, line, 0, A_NORMAL);
		return nmsg;
	}
	for (y = 0; y < nmsg; y++) {
		if (nmsg > 1)
			cv_wrap(cv->msg, COLS - 1, 2, y, tmp, sizeof(tmp));
		cv_put(status_y + y, nmsg > 1 ? tmp : cv->msg, 0, cv_attr_msg());
	}
	return nmsg;
}

/* The lines above the column header; returns the header's line. */
static int draw_top(struct cv *cv)
{
	char line[CV_LINE_MAX];
	int meters = 1;
	bool with_meters;

	/* the meters need room: 16 lines leave a few rows under them */
	with_meters = !cv->hide_meters && LINES >= 16 && COLS >= 40;
	cv_headline(cv, with_meters && cv->have_iv, COLS, line, sizeof(line));
	cv_put(0, line, 0, A_BOLD);
	if (with_meters) {
		meters = cv_draw_meters(cv);
	} else if (cv->have_iv) {
		ui_sysline(&cv->app->iv, line, sizeof(line));
		cv_put(1, line, 0, A_NORMAL);
	} else {
		cv_put(1, "", 0, A_NORMAL);
	}
	cv->status_y = meters + 1;
	return cv->status_y + draw_status(cv, cv->status_y, with_meters);
}

/* htop's, with F5 saying what it goes to */
static const struct cv_fkey fkeys[] = {
	{ KEY_F(1), "Help" }, { KEY_F(2), "Setup" }, { KEY_F(3), "Search" },
	{ KEY_F(4), "Filter" }, { KEY_F(5), "Tree" }, { KEY_F(6), "SortBy" },
	{ KEY_F(7), "Nice -" }, { KEY_F(8), "Nice +" }, { KEY_F(9), "Kill" },
	{ KEY_F(10), "Quit" },
};
#define NFKEYS ((int)(sizeof(fkeys) / sizeof(fkeys[0])))

/* The bar, where rows keep a line (not at the smallest size). */
static int draw_fkeys(struct cv *cv)
{
	struct cv_fkey k[NFKEYS];

	cv->fkeys_y = -1;
	if (cv->hide_fkeys || LINES <= CV_MIN_LINES)
		return LINES;
	memcpy(k, fkeys, sizeof(k));
	if (cv->v.tree)
		k[4].label = "List";
	cv->fkeys_y = LINES - 1;
	cv_fkeys_draw(cv->fkeys_y, k, NFKEYS);
	return cv->fkeys_y;
}

/* The lines the table ends above: the bar's, a panel's (the table keeps 3). */
static int table_bottom(struct cv *cv)
{
	int bottom = draw_fkeys(cv), h = cv->panel_h;

	if (h) {
		if (bottom - h < cv->table_y + 3)
			h = bottom - cv->table_y - 3;
		if (h < 2)
			h = 0;
		bottom -= h;
	}
	cv->panel_y = bottom;
	cv->panel_h = h;
	return bottom;
}

/*
 * How far Right goes: to the end of the columns. The command line, the
 * last column, counts as its column's width: a longer one is cut at the
 * screen's edge, as htop's (w shows it whole).
 */
static int table_width(struct cv *cv, int hdr_w)
{
	static char tmp[CV_LINE_MAX];
	int w = hdr_w, last = cv->ndcols - 1;
	size_t i;

	if (last >= 0 && cv->dcols[last] == PTOP_COL_COMMAND) {
		i = (size_t)cv->col_start[last] + ptop_cols[PTOP_COL_COMMAND].width;
		return (int)i > w ? (int)i : w;
	}
	for (i = cv->top; cv->have_iv && i < cv->v.nrows &&
	     i < cv->top + (size_t)cv->nvis; i++) {
		cv_row_line(cv, &cv->v.rows[i], NULL, tmp);
		if ((int)strlen(tmp) > w)
			w = (int)strlen(tmp);
	}
	return w;
}

static void draw_header(struct cv *cv)
{
	char line[CV_LINE_MAX];
	size_t sort_from, sort_to;
	attr_t h = cv_attr_header();

	cv_header_line(cv, line, &sort_from, &sort_to);
	cv->line_w = table_width(cv, (int)strlen(line));
	if (cv->hscroll > cv_hscroll_max(cv))
		cv->hscroll = cv_hscroll_max(cv);
	cv_put(cv->table_y, line, cv->hscroll, h);
	cv_mark_sort(cv->table_y, sort_from, sort_to, cv->hscroll);
	/* scrolled: say there is more to the left / right */
	if (cv->table_y < LINES && cv->hscroll > 0)
		mvaddch(cv->table_y, 0, '<' | h | A_BOLD);
	if (cv->table_y < LINES && COLS > 1 && cv->line_w - cv->hscroll > COLS)
		mvaddch(cv->table_y, COLS - 1, '>' | h | A_BOLD);
}

static void draw_rows(struct cv *cv)
{
	static char line[CV_LINE_MAX];
	size_t i;
	int y;

	for (y = 0; y < cv->nvis; y++) {
		const struct ui_vrow *vr;
		attr_t a = A_NORMAL;

		i = cv->top + y;
		if (!cv->have_iv || i >= cv->v.nrows) {
			cv_put(cv->table_y + 1 + y, "", 0, A_NORMAL);
			continue;
		}
		vr = &cv->v.rows[i];
		cv_row_line(cv, vr, NULL, line);
		if (vr->exited)
			a |= A_DIM;
		if (vr->tagged)
			a |= cv_pair(CP_TAG, A_UNDERLINE) | A_BOLD;
		if (i == cv->sel)
			a = cv_attr_select() | (vr->exited ? A_DIM : 0);
		cv_put(cv->table_y + 1 + y, line, cv->hscroll, a);
	}
	/* the sum row, on the table's last line, under the last row drawn */
	if (cv->have_iv && cv->rows_end > cv->table_y) {
		cv_row_line(cv, NULL, &cv->app->iv.sum, line);
		cv_put(cv->rows_end, line, cv->hscroll, A_BOLD);
	} else {
		cv_put(cv->rows_end, "", 0, A_NORMAL);
	}
}

static void table_draw(struct cv *cv, void *st)
{
	int nvis;

	(void)st;
	cv->table_y = draw_top(cv);
	cv->rows_end = table_bottom(cv) - 1;
	nvis = cv->rows_end - cv->table_y - 1;
	cv->nvis = nvis > 0 ? nvis : 0;
	cv_clamp(cv);
	draw_header(cv);
	draw_rows(cv);
}

static void describe_key(int ch, char *buf, size_t len)
{
	const char *n = ch >= 0x20 && ch < 0x7f ? NULL :
			UI_KEY_IS_WIDE(ch) ? "that key" : keyname(ch);

	if (n)
		snprintf(buf, len, "%s", n);
	else
		snprintf(buf, len, "'%c'", ch);
}

/* a pause longer than this starts a new pid */
#define CV_PID_TYPE_NS 1500000000ULL

/*
 * 0-9, as in htop: the digits typed so far are a pid; the row with that
 * pid is selected as soon as it is shown.
 */
static void pid_typed(struct cv *cv, int ch)
{
	uint64_t now = cv_now_ns();
	size_t i;

	if (!cv->pid_typed || now - cv->pid_typed_ns > CV_PID_TYPE_NS ||
	    cv->pid_typed > 99999999)
		cv->pid_typed = 0;
	cv->pid_typed = cv->pid_typed * 10 + (uint32_t)(ch - '0');
	cv->pid_typed_ns = now;
	for (i = 0; i < cv->v.nrows; i++)
		if (cv->v.rows[i].r.pid == cv->pid_typed) {
			cv->sel = i;
			if (cv->follow)
				cv->follow_pid = cv->pid_typed;
			cv_clamp(cv);
			snprintf(cv->msg, sizeof(cv->msg), "pid %u", cv->pid_typed);
			return;
		}
	snprintf(cv->msg, sizeof(cv->msg), "pid %u: not shown", cv->pid_typed);
}

static bool table_key(struct cv *cv, void *st, int ch)
{
	const struct cv_binding *b = cv_binding_of(ch);

	(void)st;
	if (ch != KEY_RESIZE)
		cv->msg[0] = '\0';
	if (ch >= '0' && ch <= '9') {
		pid_typed(cv, ch);
		return true;
	}
	if (ch != KEY_RESIZE && ch != KEY_MOUSE)
		cv->pid_typed = 0;
	if (!b) {
		char name[64];

		describe_key(ch, name, sizeof(name));
		snprintf(cv->msg, sizeof(cv->msg), "%s does nothing here (F1 or h: the keys)",
			 name);
		return true;
	}
	b->fn(cv, ch);
	return true;
}

/* a header click sorts by that column; again: reversed */
static void click_header(struct cv *cv, int x)
{
	int id = cv_col_at(cv, x + cv->hscroll);

	if (id < 0)
		return;
	if (id == cv->app->view.sort_id)
		cv->app->view.sort_asc = !cv->app->view.sort_asc;
	else	/* a new column: biggest first, as htop */
		cv->app->view.sort_asc = false;
	cv_set_sort(cv, id);
}

static bool table_mouse(struct cv *cv, void *st, int y, int x, int button)
{
	(void)st;
	if (button == 4 || button == 5) {
		cv_move_sel(cv, button == 4 ? -3 : 3);
		return true;
	}
	if (y == cv->fkeys_y && y >= 0) {
		int key = cv_fkeys_at(fkeys, NFKEYS, x);

		if (key)
			cv_key(cv, key);
		return true;
	}
	if (y == cv->table_y) {
		click_header(cv, x);
		return true;
	}
	if (y > cv->table_y && y <= cv->table_y + cv->nvis) {
		size_t i = cv->top + (size_t)(y - cv->table_y - 1);

		if (i < cv->v.nrows) {
			cv->sel = i;
			if (cv->follow)
				cv->follow_pid = cv->v.rows[i].r.pid;
			cv_clamp(cv);
		}
	}
	return true;
}

const struct cv_screen_ops cv_table_ops = {
	.name = "table",
	.draw = table_draw,
	.key = table_key,
	.mouse = table_mouse,
	.close = NULL,
};
