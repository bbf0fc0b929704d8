// SPDX-License-Identifier: GPL-2.0
/*
 * The table screen's header meters, in htop's two columns (CPU, memory,
 * swap as bars or text; tasks, load, uptime), then the All bar: the
 * interval as ptop accounts it, exactly ncpu x 100% wide, and the line
 * of its parts under it.
 */
#include <curses.h>
#include <string.h>

#include "curses_bars.h"
#include "curses_paint.h"

static const char mono_ch[UI_CAT__COUNT] = {
	[UI_CAT_USER] = '|', [UI_CAT_SYS] = '#', [UI_CAT_STEAL] = '~',
	[UI_CAT_CDEAD] = '*', [UI_CAT_XDEAD] = '+', [UI_CAT_IRQ] = '!',
	[UI_CAT_UNACC] = '?', [UI_CAT_IDLE] = ' ',
};

static void draw_cpu_bar(const struct cv *cv, int y, int x, int w,
			 unsigned int from, unsigned int to)
{
	uint64_t parts[4], whole;
	attr_t attrs[4] = {
		cv_pair(CP_CAT0 + UI_CAT_USER, 0), cv_pair(CP_CAT0 + UI_CAT_SYS, 0),
		cv_pair(CP_CPU_IRQ, 0), A_NORMAL,
	};
	char chars[4] = { '|', cv_mono() ? '#' : '|', cv_mono() ? '!' : '|', ' ' };
	char label[16], text[16];

	ptop_sysinfo_cpu_parts(&cv->sys, from, to, parts, &whole);
	if (to - from == 1)
		snprintf(label, sizeof(label), "%3u", from);
	else
		snprintf(label, sizeof(label), "%u-%u", from, to - 1);
	snprintf(text, sizeof(text), "%.1f%%",
		 whole ? 100.0 * (whole - parts[3]) / whole : 0.0);
	/* 3 parts: idle is the bar's blank rest */
	cv_draw_bar(y, x, w, label, parts, attrs, chars, 3, whole, text);
}

static void draw_mem_bar(const struct cv *cv, int y, int x, int w, bool swap)
{
	const struct ptop_sysinfo *s = &cv->sys;
	uint64_t parts[3], whole;
	attr_t attrs[3] = { cv_pair(CP_MEM_USED, 0), cv_pair(CP_MEM_BUF, 0),
			    cv_pair(CP_MEM_CACHE, 0) };
	char chars[3] = { '|', cv_mono() ? '#' : '|', cv_mono() ? '*' : '|' };
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
	cv_draw_bar(y, x, w, swap ? "Swp" : "Mem", parts, attrs, chars, 3,
		 whole ? whole : 1, text);
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
	cv_put_at_w(y, x, w, label, text);
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
	cv_put_at_w(y, x, w, swap ? "Swp: " : "Mem: ", text);
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
		cv_put_at_w(y, x, w, "Tasks: ", cv->have_iv ? text : "-");
		break;
	case CFG_M_LOAD:
		snprintf(text, sizeof(text), "%.2f %.2f %.2f", cv->sys.load[0],
			 cv->sys.load[1], cv->sys.load[2]);
		cv_put_at_w(y, x, w, "Load average: ", text);
		break;
	case CFG_M_UPTIME:
		ui_fmt_uptime(cv->sys.uptime_s, text, sizeof(text));
		cv_put_at_w(y, x, w, "Uptime: ", text);
		break;
	}
	return n;
}

int cv_draw_meters(struct cv *cv)
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
		cv_put(y, "", 0, A_NORMAL);
	/* two columns, as htop; one alone takes the whole width */
	for (c = 0; c < 2; c++) {
		int x = c && cv->nmcol[0] ? half : 0;
		int w = (cv->nmcol[!c] ? (c ? COLS - half : half) : COLS) - 1;

		for (i = 0, y = 1; i < cv->nmcol[c]; i++)
			y += draw_meter(cv, &cv->mcol[c][i], y, x, w);
	}

	/* the interval as ptop accounts it: exactly ncpu x 100% wide */
	y = lines + 1;
	cv_put(y, "", 0, A_NORMAL);
	cv_put(y + 1, "", 0, A_NORMAL);
	if (!cv->have_iv) {
		cv_put(y, "All  measuring...", 0, A_BOLD);
		return lines + 2;
	}
	whole = ui_meter_split(iv, parts, &over);
	for (i = 0; i < UI_CAT__COUNT; i++) {
		attrs[i] = cv_pair(CP_CAT0 + i, i == UI_CAT_UNACC ? A_REVERSE : 0);
		chars[i] = cv_mono() ? mono_ch[i] : i == UI_CAT_UNACC ? '?' : '|';
	}
	snprintf(text, sizeof(text), " accounted %.2f%% of %.2f%%  %s",
		 ptop_interval_pct(iv, ptop_interval_accounted_ns(iv)),
		 ptop_interval_pct(iv, ptop_interval_capacity_ns(iv)),
		 ptop_verdict_word(iv));
	{
		int w = COLS - (int)strlen(text) - 1;

		if (w > 10 && cv->all_style == CFG_MS_BAR) {
			cv_draw_bar(y, 0, w, "All", parts, attrs, chars,
				 UI_CAT__COUNT, whole, "");
			cv_put_at(y, w, "", text);
		} else {
			cv_put(y, "", 0, A_NORMAL);
			cv_put_at(y, 0, "All: ", text + 1);
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
	cv_put(y + 1, text, 0, A_NORMAL);
	return lines + 2;
}
