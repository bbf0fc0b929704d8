// SPDX-License-Identifier: GPL-2.0
/*
 * Drawing: the header meters (or the one-line headline), the status
 * line, the column header, rows, the sum row; the help screen, the
 * menus and the setup screen. Every line is built in a buffer first and
 * clipped to the screen, so any terminal size works.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cmdline.h"
#include "curses_view.h"

#define LINE_MAX_LEN 4096

/* colour pairs */
enum {
	CP_HEADER = 1, CP_SELECT, CP_MSG, CP_LABEL, CP_TAG,
	CP_CAT0,	/* + enum ui_cat */
	CP_MEM_USED = CP_CAT0 + UI_CAT__COUNT, CP_MEM_BUF, CP_MEM_CACHE,
	CP_CPU_IRQ,
};

static bool mono;

void cv_colors_init(int scheme)
{
	const char *nc = getenv("NO_COLOR");
	static const short cat_fg[UI_CAT__COUNT] = {
		[UI_CAT_USER] = COLOR_GREEN, [UI_CAT_SYS] = COLOR_RED,
		[UI_CAT_STEAL] = COLOR_CYAN, [UI_CAT_CDEAD] = COLOR_MAGENTA,
		[UI_CAT_XDEAD] = COLOR_BLUE, [UI_CAT_IRQ] = COLOR_YELLOW,
		[UI_CAT_UNACC] = COLOR_WHITE, [UI_CAT_IDLE] = -1,
	};
	int i;

	/* https://no-color.org: set and not empty means no colour */
	mono = scheme == CFG_COLORS_MONO || (nc && nc[0]) || !has_colors();
	if (mono || !has_colors())
		return;
	start_color();
	use_default_colors();
	init_pair(CP_HEADER, COLOR_BLACK, COLOR_GREEN);
	init_pair(CP_SELECT, COLOR_BLACK, COLOR_CYAN);
	init_pair(CP_MSG, COLOR_YELLOW, -1);
	init_pair(CP_LABEL, COLOR_CYAN, -1);
	init_pair(CP_TAG, COLOR_YELLOW, -1);
	for (i = 0; i < UI_CAT__COUNT; i++)
		init_pair(CP_CAT0 + i, cat_fg[i], -1);
	init_pair(CP_CAT0 + UI_CAT_UNACC, COLOR_WHITE, COLOR_RED);
	init_pair(CP_MEM_USED, COLOR_GREEN, -1);
	init_pair(CP_MEM_BUF, COLOR_BLUE, -1);
	init_pair(CP_MEM_CACHE, COLOR_YELLOW, -1);
	init_pair(CP_CPU_IRQ, COLOR_YELLOW, -1);
}

static attr_t pair(int p, attr_t mono_attr)
{
	return mono ? mono_attr : COLOR_PAIR(p);
}

static attr_t attr_header(void)
{
	return pair(CP_HEADER, A_REVERSE);
}

static attr_t attr_select(void)
{
	return mono ? A_REVERSE | A_BOLD : COLOR_PAIR(CP_SELECT) | A_BOLD;
}

static attr_t attr_msg(void)
{
	return pair(CP_MSG, 0) | A_BOLD;
}

/* --- lines ------------------------------------------------------------------ */

/* One screen line from s (skipping off bytes), clipped, cleared. */
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
	if (attr & (A_REVERSE | A_COLOR)) {
		/* fill the rest of a highlighted line */
		int x = getcurx(stdscr);

		for (; x < w; x++)
			addch(' ');
	}
	attrset(A_NORMAL);
}

/* n bytes of s (NULL: spaces) at pos, cut at the line's end */
static size_t append(char *line, size_t pos, const char *s, size_t n)
{
	size_t room = LINE_MAX_LEN - 1 - pos;

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
 * bytes snprintf "%-*s " / "%*s%s" wrote, cut at LINE_MAX_LEN - 1, without
 * a printf per cell (every visible cell of every draw).
 */
static size_t cell(char *line, size_t pos, const struct ptop_col *c,
		   const char *s, bool last)
{
	size_t n = strlen(s), w = c->width > 0 ? (size_t)c->width : 0;
	size_t pad = n < w && !(c->left && last) ? w - n : 0;

	if (pos >= LINE_MAX_LEN - 1)
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

/* Where each shown column starts in the header line (for the mouse). */
static int col_start[CV_MAX_DCOLS + 1];

int cv_col_at(const struct cv *cv, int x)
{
	int i;

	for (i = 0; i < cv->ndcols; i++)
		if (x >= col_start[i] && x < col_start[i + 1])
			return cv->dcols[i];
	return -1;
}

/* The header; [*sort_from, *sort_to) is the sort column's title. */
static void header_line(const struct cv *cv, char *line, size_t *sort_from,
			size_t *sort_to)
{
	size_t pos = 0, start;
	int i;

	line[0] = '\0';
	*sort_from = *sort_to = 0;
	for (i = 0; i < cv->ndcols; i++) {
		const struct ptop_col *c = &ptop_cols[cv->dcols[i]];

		start = pos;
		col_start[i] = (int)start;
		pos = cell(line, pos, c, c->title, i == cv->ndcols - 1);
		if (cv->dcols[i] == cv->app->view.sort_id && !*sort_to) {
			/* just the title, without the padding */
			size_t t = strlen(c->title);
			size_t end = i == cv->ndcols - 1 ? pos : pos - 1;

			*sort_from = c->left ? start : end - t;
			*sort_to = *sort_from + t;
		}
	}
	col_start[i] = i == cv->ndcols ? LINE_MAX_LEN : (int)pos;
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
		A_BOLD | A_UNDERLINE | (mono ? A_REVERSE : 0),
		mono ? 0 : CP_HEADER, NULL);
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
	char pre[200] = "", cmd[1024], ex[40];
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

static void row_line(const struct cv *cv, const struct ui_vrow *vr,
		     const struct ptop_row *sum, char *line)
{
	const struct ui_app *app = cv->app;
	const struct ptop_row *r = sum ? sum : &vr->r;
	char val[1400];
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

static void status_line(const struct cv *cv, char *line, size_t len)
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

/* --- meters ------------------------------------------------------------------ */

static const char mono_ch[UI_CAT__COUNT] = {
	[UI_CAT_USER] = '|', [UI_CAT_SYS] = '#', [UI_CAT_STEAL] = '~',
	[UI_CAT_CDEAD] = '*', [UI_CAT_XDEAD] = '+', [UI_CAT_IRQ] = '!',
	[UI_CAT_UNACC] = '?', [UI_CAT_IDLE] = ' ',
};

/*
 * A bar "LABEL[||||   text]" at (y, x), w cells in all: the parts' cells
 * with their attributes and characters, text right-aligned inside.
 */
static void draw_bar(int y, int x, int w, const char *label,
		     const uint64_t *parts, const attr_t *attrs,
		     const char *chars, int nparts, uint64_t whole,
		     const char *text)
{
	int cells[16], inner, i, j, pos = 0, tl = (int)strlen(text), lw;
	char bar[LINE_MAX_LEN];
	attr_t at[LINE_MAX_LEN];

	lw = (int)strlen(label);
	inner = w - lw - 2;
	if (y >= LINES || inner < 1 || x + w > COLS || inner >= LINE_MAX_LEN)
		return;
	ui_bar_cells(parts, nparts, whole, inner, cells);
	for (i = 0; i < nparts; i++)
		for (j = 0; j < cells[i] && pos < inner; j++) {
			bar[pos] = chars[i];
			at[pos++] = attrs[i];
		}
	for (; pos < inner; pos++) {
		bar[pos] = ' ';
		at[pos] = A_NORMAL;
	}
	/* the figure over the bar's right end, as htop does */
	for (i = 0; i < tl && i < inner; i++) {
		bar[inner - tl + i < 0 ? 0 : inner - tl + i] = text[i];
		at[inner - tl + i < 0 ? 0 : inner - tl + i] = A_BOLD;
	}
	move(y, x);
	attrset(pair(CP_LABEL, 0) | A_BOLD);
	addstr(label);
	attrset(A_BOLD);
	addch('[');
	for (i = 0; i < inner; i++) {
		attrset(at[i]);
		addch((unsigned char)bar[i]);
	}
	attrset(A_BOLD);
	addch(']');
	attrset(A_NORMAL);
}

static void draw_cpu_bar(const struct cv *cv, int y, int x, int w,
			 unsigned int from, unsigned int to)
{
	uint64_t parts[4], whole;
	attr_t attrs[4] = {
		pair(CP_CAT0 + UI_CAT_USER, 0), pair(CP_CAT0 + UI_CAT_SYS, 0),
		pair(CP_CPU_IRQ, 0), A_NORMAL,
	};
	char chars[4] = { '|', mono ? '#' : '|', mono ? '!' : '|', ' ' };
	char label[16], text[16];

	ptop_sysinfo_cpu_parts(&cv->sys, from, to, parts, &whole);
	if (to - from == 1)
		snprintf(label, sizeof(label), "%3u", from);
	else
		snprintf(label, sizeof(label), "%u-%u", from, to - 1);
	snprintf(text, sizeof(text), "%.1f%%",
		 whole ? 100.0 * (whole - parts[3]) / whole : 0.0);
	/* 3 parts: idle is the bar's blank rest */
	draw_bar(y, x, w, label, parts, attrs, chars, 3, whole, text);
}

static void draw_mem_bar(const struct cv *cv, int y, int x, int w, bool swap)
{
	const struct ptop_sysinfo *s = &cv->sys;
	uint64_t parts[3], whole;
	attr_t attrs[3] = { pair(CP_MEM_USED, 0), pair(CP_MEM_BUF, 0),
			    pair(CP_MEM_CACHE, 0) };
	char chars[3] = { '|', mono ? '#' : '|', mono ? '*' : '|' };
	char a[16], b[16], text[40];

	if (swap) {
		whole = s->swap_total_kb;
		parts[0] = s->swap_total_kb - s->swap_free_kb;
		parts[1] = parts[2] = 0;
	} else {
		uint64_t rest = s->mem_free_kb + s->buffers_kb + s->cached_kb;

		whole = s->mem_total_kb;
		parts[0] = whole > rest ? whole - rest : 0;
		parts[1] = s->buffers_kb;
		parts[2] = s->cached_kb;
	}
	ui_fmt_kb(parts[0], a, sizeof(a));
	ui_fmt_kb(whole, b, sizeof(b));
	snprintf(text, sizeof(text), "%s/%s", a, b);
	draw_bar(y, x, w, swap ? "Swp" : "Mem", parts, attrs, chars, 3,
		 whole ? whole : 1, text);
}

/* a label and its text at (y, x), at most w cells */
static void put_at_w(int y, int x, int w, const char *label, const char *text)
{
	int end = x + w < COLS - 1 ? x + w : COLS - 1;

	if (y >= LINES || x >= end)
		return;
	move(y, x);
	attrset(pair(CP_LABEL, 0) | A_BOLD);
	addnstr(label, end - x);
	attrset(A_BOLD);
	if (getcurx(stdscr) < end)
		addnstr(text, end - getcurx(stdscr));
	attrset(A_NORMAL);
}

static void put_at(int y, int x, const char *label, const char *text)
{
	if (y >= LINES || x >= COLS)
		return;
	move(y, x);
	attrset(pair(CP_LABEL, 0) | A_BOLD);
	addnstr(label, COLS - x);
	attrset(A_BOLD);
	if (getcurx(stdscr) < COLS - 1)
		addnstr(text, COLS - 1 - getcurx(stdscr));
	attrset(A_NORMAL);
}

/* CPUs per bar line: one bar per CPU, or per group of CPUs, 8 at most */
static unsigned int cpu_per_line(const struct cv *cv)
{
	unsigned int ncpu = cv->sys.ncpu;

	return ncpu > 8 ? (ncpu + 7) / 8 : 1;
}

static int meter_lines(const struct cv *cv, const struct cfg_meter *m)
{
	unsigned int per = cpu_per_line(cv), ncpu = cv->sys.ncpu;

	if (m->id != CFG_M_CPU)
		return 1;
	return ncpu ? (int)((ncpu + per - 1) / per) : 0;
}

static void cpu_text(const struct cv *cv, int y, int x, int w,
		     unsigned int from, unsigned int to)
{
	uint64_t parts[4], whole;
	char label[16], text[128];

	ptop_sysinfo_cpu_parts(&cv->sys, from, to, parts, &whole);
	if (to - from == 1)
		snprintf(label, sizeof(label), "%3u ", from);
	else
		snprintf(label, sizeof(label), "%u-%u ", from, to - 1);
	if (!whole)
		whole = 1;
	snprintf(text, sizeof(text), "%5.1f%%  usr %.1f%%  sys %.1f%%  irq+st %.1f%%",
		 100.0 * (whole - parts[3]) / whole, 100.0 * parts[0] / whole,
		 100.0 * parts[1] / whole, 100.0 * parts[2] / whole);
	put_at_w(y, x, w, label, text);
}

static void mem_text(const struct cv *cv, int y, int x, int w, bool swap)
{
	const struct ptop_sysinfo *s = &cv->sys;
	char a[16], b[16], c[16], d[16], text[128];

	if (swap) {
		ui_fmt_kb(s->swap_total_kb - s->swap_free_kb, a, sizeof(a));
		ui_fmt_kb(s->swap_total_kb, b, sizeof(b));
		snprintf(text, sizeof(text), "%s/%s used", a, b);
	} else {
		uint64_t rest = s->mem_free_kb + s->buffers_kb + s->cached_kb;

		ui_fmt_kb(s->mem_total_kb > rest ? s->mem_total_kb - rest : 0,
			  a, sizeof(a));
		ui_fmt_kb(s->mem_total_kb, b, sizeof(b));
		ui_fmt_kb(s->buffers_kb, c, sizeof(c));
		ui_fmt_kb(s->cached_kb, d, sizeof(d));
		snprintf(text, sizeof(text), "%s/%s used, %s buffers, %s cache",
			 a, b, c, d);
	}
	put_at_w(y, x, w, swap ? "Swp: " : "Mem: ", text);
}

/* One meter at (y, x), w cells wide; returns the lines it used. */
static int draw_meter(struct cv *cv, const struct cfg_meter *m, int y, int x,
		      int w)
{
	const struct ptop_interval *iv = &cv->app->iv;
	unsigned int per = cpu_per_line(cv), ncpu = cv->sys.ncpu, i, to;
	unsigned long procs, threads, running;
	char text[160];
	int n = meter_lines(cv, m);

	switch (m->id) {
	case CFG_M_CPU:
		for (i = 0; i < (unsigned int)n; i++) {
			to = (i + 1) * per < ncpu ? (i + 1) * per : ncpu;
			if (m->style == CFG_MS_BAR)
				draw_cpu_bar(cv, y + i, x, w, i * per, to);
			else
				cpu_text(cv, y + i, x, w, i * per, to);
		}
		break;
	case CFG_M_MEM:
	case CFG_M_SWAP:
		if (m->style == CFG_MS_BAR)
			draw_mem_bar(cv, y, x, w, m->id == CFG_M_SWAP);
		else
			mem_text(cv, y, x, w, m->id == CFG_M_SWAP);
		break;
	case CFG_M_TASKS:
		ui_task_counts(iv, &procs, &threads, &running);
		snprintf(text, sizeof(text), "%lu, %lu thr; %lu running", procs,
			 threads, running);
		put_at_w(y, x, w, "Tasks: ", cv->have_iv ? text : "-");
		break;
	case CFG_M_LOAD:
		snprintf(text, sizeof(text), "%.2f %.2f %.2f", cv->sys.load[0],
			 cv->sys.load[1], cv->sys.load[2]);
		put_at_w(y, x, w, "Load average: ", text);
		break;
	case CFG_M_UPTIME:
		ui_fmt_uptime(cv->sys.uptime_s, text, sizeof(text));
		put_at_w(y, x, w, "Uptime: ", text);
		break;
	}
	return n;
}

/* Meter lines drawn from y = 1; returns the lines used. */
static int draw_meters(struct cv *cv)
{
	const struct ptop_interval *iv = &cv->app->iv;
	int half = COLS / 2, lines = 0, y, c, i, h[2] = { 0, 0 };
	uint64_t parts[UI_CAT__COUNT], over, whole;
	attr_t attrs[UI_CAT__COUNT];
	char chars[UI_CAT__COUNT], text[400];
	size_t pos;

	for (c = 0; c < 2; c++)
		for (i = 0; i < cv->nmcol[c]; i++)
			h[c] += meter_lines(cv, &cv->mcol[c][i]);
	lines = h[0] > h[1] ? h[0] : h[1];
	for (y = 1; y <= lines; y++)
		put(y, "", 0, A_NORMAL);
	/* two columns, as htop; one alone takes the whole width */
	for (c = 0; c < 2; c++) {
		int x = c && cv->nmcol[0] ? half : 0;
		int w = (cv->nmcol[!c] ? (c ? COLS - half : half) : COLS) - 1;

		for (i = 0, y = 1; i < cv->nmcol[c]; i++)
			y += draw_meter(cv, &cv->mcol[c][i], y, x, w);
	}

	/* the interval as ptop accounts it: exactly ncpu x 100% wide */
	y = lines + 1;
	put(y, "", 0, A_NORMAL);
	put(y + 1, "", 0, A_NORMAL);
	if (!cv->have_iv) {
		put(y, "All  measuring...", 0, A_BOLD);
		return lines + 2;
	}
	whole = ui_meter_split(iv, parts, &over);
	for (i = 0; i < UI_CAT__COUNT; i++) {
		attrs[i] = pair(CP_CAT0 + i, i == UI_CAT_UNACC ? A_REVERSE : 0);
		chars[i] = mono ? mono_ch[i] : i == UI_CAT_UNACC ? '?' : '|';
	}
	snprintf(text, sizeof(text), " accounted %.2f%% of %.2f%%  %s",
		 ptop_interval_pct(iv, ptop_interval_accounted_ns(iv)),
		 ptop_interval_pct(iv, ptop_interval_capacity_ns(iv)),
		 ptop_verdict_word(iv));
	{
		int w = COLS - (int)strlen(text) - 1;

		if (w > 10 && cv->all_style == CFG_MS_BAR) {
			draw_bar(y, 0, w, "All", parts, attrs, chars,
				 UI_CAT__COUNT, whole, "");
			put_at(y, w, "", text);
		} else {
			put(y, "", 0, A_NORMAL);
			put_at(y, 0, "All: ", text + 1);
		}
	}
	/* the legend, with each part's share */
	pos = 0;
	for (i = 0; i < UI_CAT__COUNT && pos < sizeof(text); i++) {
		/* what is 0 says nothing, but for the main three */
		if (!parts[i] && i != UI_CAT_USER && i != UI_CAT_SYS &&
		    i != UI_CAT_IDLE)
			continue;
		pos += snprintf(text + pos, sizeof(text) - pos, "%s%s %.2f",
				pos ? "  " : "", ui_cat_name[i],
				ptop_interval_pct(iv, parts[i]));
	}
	if (over && pos < sizeof(text))
		pos += snprintf(text + pos, sizeof(text) - pos, "  over %.2f",
				ptop_interval_pct(iv, over));
	if (pos < sizeof(text))
		snprintf(text + pos, sizeof(text) - pos, "  exited %zu",
			 iv->nexited);
	put(y + 1, text, 0, A_NORMAL);
	return lines + 2;
}

/* --- the table view ------------------------------------------------------------ */

int cv_hscroll_max(const struct cv *cv)
{
	return cv->line_w > COLS ? cv->line_w - COLS : 0;
}

static void draw_prompt(struct cv *cv, int y)
{
	static const char *const what[CV_IN__COUNT] = {
		[CV_IN_SEARCH] = "search (F3: next)",
		[CV_IN_FILTER] = "filter",
		[CV_IN_DELAY] = "delay in seconds",
	};
	char line[LINE_MAX_LEN], text[UI_PROMPT_MAX * 4], head[128];
	int x;

	ui_prompt_text(&cv->prompt, text, sizeof(text));
	if (cv->input_kind == CV_IN_DELAY)
		snprintf(head, sizeof(head), "%s (now %g): ", what[cv->input_kind],
			 cv->app->delay_s);
	else if (cv->input_kind == CV_IN_FILTER)
		snprintf(head, sizeof(head), "filter%s (Tab: %s): ",
			 cv->filter_regex ? " regex" : "",
			 cv->filter_regex ? "plain text" : "regex");
	else
		snprintf(head, sizeof(head), "%s: ", what[cv->input_kind]);
	snprintf(line, sizeof(line), "%s%s", head, text);
	put(y, line, 0, attr_msg());
	x = (int)strlen(head) + ui_prompt_cursor_col(&cv->prompt);
	if (cv->msg[0] && (int)strlen(line) + 3 < COLS) {
		move(y, (int)strlen(line) + 2);
		attrset(A_NORMAL);
		addnstr(cv->msg, COLS - (int)strlen(line) - 3);
	}
	curs_set(1);
	move(y, x < COLS - 1 ? x : COLS - 1);
}

/* The event panel: a title line, then the log's last lines. */
static void draw_events(const struct cv *cv, int y0, int h)
{
	char line[LINE_MAX_LEN];
	int i;

	cv_events_title(cv, line, sizeof(line));
	put(y0, line, 0, attr_header());
	for (i = 0; i < h - 1; i++) {
		bool err = cv_events_line(cv, i, h - 1, line, sizeof(line));

		put(y0 + 1 + i, line, 0, err ? attr_msg() : A_NORMAL);
	}
}

static void draw_table(struct cv *cv)
{
	static char line[LINE_MAX_LEN], tmp[LINE_MAX_LEN];
	struct ui_app *app = cv->app;
	int y, nvis, status_y, meters = 0, bottom = LINES, ev_h = 0, nmsg = 1;
	size_t i, sort_from, sort_to;
	bool with_meters;

	/* the meters need room: 16 lines leave a few rows under them */
	with_meters = !cv->hide_meters && LINES >= 16 && COLS >= 40;
	cv_headline(cv, with_meters && cv->have_iv, COLS, line, sizeof(line));
	put(0, line, 0, A_BOLD);
	if (with_meters) {
		meters = draw_meters(cv);
	} else if (cv->have_iv) {
		ui_sysline(&app->iv, line, sizeof(line));
		put(1, line, 0, A_NORMAL);
		meters = 1;
	} else {
		put(1, "", 0, A_NORMAL);
		meters = 1;
	}
	status_y = meters + 1;
	/* a long message (the source's note at start): up to 3 lines */
	if (cv->msg[0] && cv->mode != CV_INPUT && with_meters)
		nmsg = cv_wrap(cv->msg, COLS - 1, 2, -1, tmp, sizeof(tmp));
	nmsg = nmsg < 3 ? nmsg : 3;
	cv->table_y = status_y + nmsg;
	if (cv->mode != CV_INPUT) {
		if (cv->msg[0]) {
			for (y = 0; y < nmsg; y++) {
				if (nmsg > 1)
					cv_wrap(cv->msg, COLS - 1, 2, y, tmp,
						sizeof(tmp));
				put(status_y + y, nmsg > 1 ? tmp : cv->msg, 0,
				    attr_msg());
			}
		} else {
			status_line(cv, line, sizeof(line));
			put(status_y, line, 0, A_NORMAL);
		}
	}
	header_line(cv, line, &sort_from, &sort_to);
	/* the event panel takes the bottom third, the table keeps 3 lines */
	if (cv->ev_on) {
		ev_h = LINES / 3 > 4 ? LINES / 3 : 4;
		if (LINES - ev_h < cv->table_y + 3)
			ev_h = LINES - cv->table_y - 3;
		if (ev_h < 2)
			ev_h = 0;
		bottom = LINES - ev_h;
	}
	nvis = bottom - cv->table_y - 2;
	cv->nvis = nvis > 0 ? nvis : 0;
	cv_clamp(cv);
	cv->line_w = (int)strlen(line);
	/* the widest row decides how far Right can scroll */
	for (i = cv->top; cv->have_iv && i < cv->v.nrows &&
	     i < cv->top + (size_t)cv->nvis; i++) {
		row_line(cv, &cv->v.rows[i], NULL, tmp);
		if ((int)strlen(tmp) > cv->line_w)
			cv->line_w = (int)strlen(tmp);
	}
	if (cv->hscroll > cv_hscroll_max(cv))
		cv->hscroll = cv_hscroll_max(cv);
	put(cv->table_y, line, cv->hscroll, attr_header());
	mark_sort(cv->table_y, sort_from, sort_to, cv->hscroll);
	/* scrolled: say there is more to the left / right */
	if (cv->table_y < LINES && cv->hscroll > 0)
		mvaddch(cv->table_y, 0, '<' | attr_header() | A_BOLD);
	if (cv->table_y < LINES && COLS > 1 && cv->line_w - cv->hscroll > COLS)
		mvaddch(cv->table_y, COLS - 1, '>' | attr_header() | A_BOLD);

	for (y = 0; y < cv->nvis; y++) {
		const struct ui_vrow *vr;
		attr_t a = A_NORMAL;

		i = cv->top + y;
		if (!cv->have_iv || i >= cv->v.nrows) {
			put(cv->table_y + 1 + y, "", 0, A_NORMAL);
			continue;
		}
		vr = &cv->v.rows[i];
		row_line(cv, vr, NULL, line);
		if (vr->exited)
			a |= A_DIM;
		if (vr->tagged)
			a |= pair(CP_TAG, A_UNDERLINE) | A_BOLD;
		if (i == cv->sel)
			a = attr_select() | (vr->exited ? A_DIM : 0);
		put(cv->table_y + 1 + y, line, cv->hscroll, a);
	}
	/* the sum row, on the table's last line, under the last row drawn */
	if (cv->have_iv && bottom > cv->table_y + 1) {
		row_line(cv, NULL, &app->iv.sum, line);
		put(bottom - 1, line, cv->hscroll, A_BOLD);
	} else {
		put(bottom - 1, "", 0, A_NORMAL);
	}
	if (ev_h)
		draw_events(cv, bottom, ev_h);
	if (cv->mode == CV_INPUT && status_y < LINES)
		draw_prompt(cv, status_y);
}

/* --- menus ----------------------------------------------------------------------- */

static void menu_entry(const struct cv *cv, int i, char *buf, size_t len)
{
	switch (cv->menu_kind) {
	case CV_MENU_SORT:
		snprintf(buf, len, "%-8s %-7s %s", ptop_cols[cv->menu_ids[i]].name,
			 ptop_cols[cv->menu_ids[i]].title,
			 ptop_cols[cv->menu_ids[i]].help);
		break;
	case CV_MENU_SIGNAL:
		snprintf(buf, len, "%-9s", cv_signal_name(i));
		break;
	case CV_MENU_USER:
		if (!i) {
			snprintf(buf, len, "all users");
		} else {
			struct ptop_row u = { .uid = cv->user_uids[i - 1] };

			ptop_col_format(&ptop_cols[PTOP_COL_USER], &u, NULL,
					buf, len);
		}
		break;
	}
}

static void draw_menu(struct cv *cv)
{
	static const char *const title[] = {
		[CV_MENU_SORT] = "Sort by (Enter: pick, Esc: cancel)",
		[CV_MENU_SIGNAL] = "Send signal (Enter: send, Esc: cancel)",
		[CV_MENU_USER] = "Show the tasks of (Enter: pick, Esc: cancel)",
	};
	char line[512], who[128];
	int y, i, nvis, w = COLS < 44 ? COLS : 44;

	/* the table stays visible to the right of the menu */
	draw_table(cv);
	curs_set(0);
	if (cv->menu_kind == CV_MENU_SIGNAL) {
		if (cv->sig_n > 1 || (cv->sig_n == 1 && !cv->sig_comm[0]))
			snprintf(who, sizeof(who), "%d tagged tasks", cv->sig_n);
		else if (cv->sig_n == 1)
			snprintf(who, sizeof(who), "%u (%s)", cv->sig_pids[0],
				 cv->sig_comm);
		else
			snprintf(who, sizeof(who), "nothing");
		snprintf(line, sizeof(line), "Send to %s", who);
		if (cv->table_y > 0)
			put(cv->table_y - 1, line, 0, attr_msg());
	}
	nvis = LINES - cv->table_y - 1;
	if (nvis < 1)
		return;
	if (cv->menu_sel < cv->menu_top)
		cv->menu_top = cv->menu_sel;
	if (cv->menu_sel >= cv->menu_top + nvis)
		cv->menu_top = cv->menu_sel - nvis + 1;
	move(cv->table_y, 0);
	attrset(attr_header());
	snprintf(line, sizeof(line), "%-*.*s", w, w, title[cv->menu_kind]);
	addnstr(line, COLS);
	attrset(A_NORMAL);
	for (y = 0; y < nvis && cv->table_y + 1 + y < LINES; y++) {
		char ent[400];

		i = cv->menu_top + y;
		if (i < cv->menu_n)
			menu_entry(cv, i, ent, sizeof(ent));
		else
			ent[0] = '\0';
		snprintf(line, sizeof(line), " %-*.*s", w - 1, w - 1, ent);
		move(cv->table_y + 1 + y, 0);
		attrset(i == cv->menu_sel ? attr_select() : A_NORMAL);
		addnstr(line, COLS - (cv->table_y + 1 + y == LINES - 1));
		attrset(A_NORMAL);
	}
}

static void draw_help(struct cv *cv)
{
	char line[512];
	int y, n, w = COLS > 1 ? COLS - 1 : 1;

	/* wrapped to the width: nothing cut, the lines scroll */
	n = cv_help_count(w);
	cv->help_lines = n;
	if (cv->help_top > n - LINES + 1)
		cv->help_top = n - LINES + 1;
	if (cv->help_top < 0)
		cv->help_top = 0;
	snprintf(line, sizeof(line), "ptop %s help  lines %d-%d of %d  (Up Down PgUp PgDn; other keys: back)",
		 PTOP_VERSION, cv->help_top + 1,
		 cv->help_top + LINES - 1 < n ? cv->help_top + LINES - 1 : n, n);
	put(0, line, 0, attr_header());
	for (y = 1; y < LINES; y++) {
		if (cv_help_wrapped(cv->help_top + y - 1, w, line, sizeof(line)))
			line[0] = '\0';
		put(y, line, 0, A_NORMAL);
	}
}

static void draw_setup(struct cv *cv)
{
	static const char *const secs[] = { "Columns", "Meters", "Colours" };
	char line[512];
	int y, i, top = 0, nvis = LINES - 3, n;

	snprintf(line, sizeof(line), "Setup: %s%s%s | %s%s%s | %s%s%s   (Tab: next section)",
		 cv->setup_sec == 0 ? "[" : "", secs[0], cv->setup_sec == 0 ? "]" : "",
		 cv->setup_sec == 1 ? "[" : "", secs[1], cv->setup_sec == 1 ? "]" : "",
		 cv->setup_sec == 2 ? "[" : "", secs[2], cv->setup_sec == 2 ? "]" : "");
	put(0, line, 0, attr_header());
	put(1, cv_setup_keys(cv), 0, A_BOLD);
	n = cv_setup_items(cv);
	if (nvis > 0 && cv->ch_sel >= nvis)
		top = cv->ch_sel - nvis + 1;
	for (y = 2; y < LINES; y++) {
		i = top + y - 2;
		if (y == LINES - 1 || i >= n) {
			put(y, "", 0, A_NORMAL);
			continue;
		}
		cv_setup_line(cv, i, line, sizeof(line));
		put(y, line, 0, i == cv->ch_sel ? attr_select() : A_NORMAL);
	}
	if (cv->msg[0])
		put(LINES - 1, cv->msg, 0, attr_msg());
}

void cv_draw(struct cv *cv)
{
	curs_set(0);
	if (!cv_fits(LINES, COLS)) {
		cv->nvis = 0;	/* no row shown: none to click or signal */
		cv_draw_too_small();
		refresh();
		return;
	}
	switch (cv->mode) {
	case CV_HELP:
		draw_help(cv);
		break;
	case CV_SETUP:
		draw_setup(cv);
		break;
	case CV_MENU:
		draw_menu(cv);
		break;
	case CV_TASK:
		cv_task_draw(cv);
		break;
	default:
		draw_table(cv);
		break;
	}
	refresh();
}
