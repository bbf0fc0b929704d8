// SPDX-License-Identifier: GPL-2.0
/*
 * The table's lines as text: the column header, a task's row, the sum
 * row and the status line, each cell padded to its column's width.
 */
#include <curses.h>
#include <string.h>

#include "lib/cmdline.h"
#include "curses_paint.h"
#include "curses_rows.h"

/* n bytes of s (NULL: spaces) at pos, cut at the line's end */
static size_t append(char *line, size_t pos, const char *s, size_t n)
{
	size_t room = CV_LINE_MAX - 1 - pos;

	if (n > room)
		n = room;
	if (s)
		memcpy(line + pos, s, n);
	else
		memset(line + pos, ' ', n);
	return pos + n;
}

/*
 * A cell at pos, padded to its width, a space after it unless last: the
 * bytes snprintf "%-*s " / "%*s%s" wrote, cut at CV_LINE_MAX - 1, without
 * a printf per cell (every visible cell of every draw).
 */
static size_t cell(char *line, size_t pos, const struct ptop_col *c,
		   const char *s, bool last)
{
	size_t n = strlen(s), w = c->width > 0 ? (size_t)c->width : 0;
	size_t pad = n < w && !(c->left && last) ? w - n : 0;

	if (pos >= CV_LINE_MAX - 1)
		return pos;
	if (!c->left)
		pos = append(line, pos, NULL, pad);
	pos = append(line, pos, s, n);
	if (c->left)
		pos = append(line, pos, NULL, pad);
	if (!last)
		pos = append(line, pos, " ", 1);
	line[pos] = '\0';
	return pos;
}

int cv_col_at(const struct cv *cv, int x)
{
	int i;

	for (i = 0; i < cv->ndcols; i++)
		if (x >= cv->col_start[i] && x < cv->col_start[i + 1])
			return cv->dcols[i];
	return -1;
}

void cv_header_line(struct cv *cv, char *line, size_t *sort_from,
			size_t *sort_to)
{
	size_t pos = 0, start;
	int i;

	line[0] = '\0';
	*sort_from = *sort_to = 0;
	for (i = 0; i < cv->ndcols; i++) {
		const struct ptop_col *c = &ptop_cols[cv->dcols[i]];

		start = pos;
		cv->col_start[i] = (int)start;
		pos = cell(line, pos, c, c->title, i == cv->ndcols - 1);
		if (cv->dcols[i] == cv->app->view.sort_id && !*sort_to) {
			/* just the title, without the padding */
			size_t t = strlen(c->title);
			size_t end = i == cv->ndcols - 1 ? pos : pos - 1;

			*sort_from = c->left ? start : end - t;
			*sort_to = *sort_from + t;
		}
	}
	cv->col_start[i] = i == cv->ndcols ? CV_LINE_MAX : (int)pos;
}

void cv_mark_sort(int y, size_t from, size_t to, int off)
{
	long a = (long)from - off, b = (long)to - off;

	if (y >= LINES || b <= 0 || a >= COLS)
		return;
	if (a < 0)
		a = 0;
	if (b > COLS)
		b = COLS;
	mvchgat(y, (int)a, (int)(b - a),
		A_BOLD | A_UNDERLINE | (cv_mono() ? A_REVERSE : 0),
		cv_mono() ? 0 : CP_HEADER, NULL);
}

static void exit_text(int code, char *buf, size_t len)
{
	if (code < 0)
		buf[0] = '\0';
	else if (code & 0x7f)
		snprintf(buf, len, " [signal %d%s]", code & 0x7f,
			 code & 0x80 ? ", core" : "");
	else
		snprintf(buf, len, " [exit %d]", (code >> 8) & 0xff);
}

static void command_text(const struct cv *cv, const struct ui_vrow *vr,
			 char *buf, size_t len)
{
	char pre[200] = "", cmd[CV_LINE_MAX], ex[40];
	const char *name = vr->r.comm;

	if (cv->v.tree)
		ui_tree_prefix(vr, cv->utf8, pre, sizeof(pre));
	if (cv->full_cmd && !vr->exited &&
	    !ptop_cmdline_read(cv->app->src->cfg.proc_root, vr->r.pid, cmd,
			     sizeof(cmd)))
		name = cmd;
	exit_text(vr->exited ? vr->exit_code : -1, ex, sizeof(ex));
	snprintf(buf, len, "%s%s%s%s", pre, name, ex,
		 vr->collapsed ? "" : "");
}

void cv_row_line(const struct cv *cv, const struct ui_vrow *vr,
		     const struct ptop_row *sum, char *line)
{
	const struct ui_app *app = cv->app;
	const struct ptop_row *r = sum ? sum : &vr->r;
	char val[CV_LINE_MAX];
	size_t pos = 0;
	int i;

	line[0] = '\0';
	for (i = 0; i < cv->ndcols; i++) {
		int id = cv->dcols[i];
		const struct ptop_col *c = &ptop_cols[id];

		if (sum && i == 0)
			snprintf(val, sizeof(val), "sum");
		else if (sum && !c->sum)
			val[0] = '\0';
		else if (!sum && id == PTOP_COL_COMMAND)
			command_text(cv, vr, val, sizeof(val));
		else if (!sum && vr->exited && (id == PTOP_COL_RSS ||
						id == PTOP_COL_THREADS))
			snprintf(val, sizeof(val), "-");
		else
			ptop_col_format(c, r, &app->iv, val, sizeof(val));
		pos = cell(line, pos, c, val, i == cv->ndcols - 1);
	}
}

void cv_status_line(const struct cv *cv, char *line, size_t len)
{
	const struct ui_app *app = cv->app;
	const struct ui_vrow *r = cv->sel < cv->v.nrows ? &cv->v.rows[cv->sel] : NULL;
	const struct ptop_col *c = &ptop_cols[app->view.sort_id];
	size_t pos;

	/* the header's title, and the name -o takes where they differ */
	pos = snprintf(line, len, "sort %s%s%s%s%s  %s%s%s", c->title,
		       strcmp(c->title, c->name) ? " (" : "",
		       strcmp(c->title, c->name) ? c->name : "",
		       strcmp(c->title, c->name) ? ")" : "",
		       app->view.sort_asc ? " (ascending)" : "",
		       app->threads ? "threads" : "processes",
		       cv->threads_pending ? " (next interval)" : "",
		       cv->v.tree ? "  tree" : "");
	if (pos < len && cv->v.filter[0])
		pos += snprintf(line + pos, len - pos, "  filter%s '%s'",
				cv->v.filter_regex ? " (regex)" : "", cv->v.filter);
	if (pos < len && cv->v.by_user) {
		struct ptop_row u = { .uid = cv->v.uid };
		char name[64];

		ptop_col_format(&ptop_cols[PTOP_COL_USER], &u, NULL, name,
				sizeof(name));
		pos += snprintf(line + pos, len - pos, "  user %s", name);
	}
	if (pos < len && cv->v.hide_kthreads)
		pos += snprintf(line + pos, len - pos, "  no kthreads");
	if (pos < len && cv->v.tagged.n)
		pos += snprintf(line + pos, len - pos, "  %zu tagged", cv->v.tagged.n);
	if (pos < len && cv->follow)
		pos += snprintf(line + pos, len - pos, "  follow %u", cv->follow_pid);
	if (pos < len && cv->paused)
		pos += snprintf(line + pos, len - pos, "  PAUSED");
	if (pos < len && cv->have_iv)
		pos += snprintf(line + pos, len - pos, "  %zu rows", cv->v.nrows);
	if (pos < len && cv->v.show_exited &&
	    (cv->v.nexited_shown || cv->v.nexited_tiny))
		pos += snprintf(line + pos, len - pos, " (%zu exited%s%.0zu%s)",
				cv->v.nexited_shown,
				cv->v.nexited_tiny ? ", " : "",
				cv->v.nexited_tiny,
				cv->v.nexited_tiny ? " at 0.00" : "");
	if (pos < len && cv->v.tree && r && r->has_kids)
		pos += snprintf(line + pos, len - pos, "  branch %u: %.2f%%",
				r->r.pid, ptop_interval_pct(&app->iv, r->subtree_ns));
	if (pos < len)
		snprintf(line + pos, len - pos, "  (F1: help)");
}

int cv_hscroll_max(const struct cv *cv)
{
	return cv->line_w > COLS ? cv->line_w - COLS : 0;
}
