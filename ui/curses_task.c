// SPDX-License-Identifier: GPL-2.0
/*
 * The per-process screen (Enter on a row): the task's identity and
 * command line, its CPU split of the last interval in figures, a bar
 * per interval of its history (ui/taskhist.c keeps it), its live threads
 * and children, and the children that exited in the intervals kept.
 * Escape or q goes back to the table, whose selection never moved.
 *
 * The selected row's task is followed in the table view too, so that
 * its history is there when the screen opens. What the source cannot
 * measure shows "-", as in the table.
 */
#include <curses.h>
#include <string.h>
#include <time.h>

#include "lib/cmdline.h"
#include "curses_help.h"
#include "curses_task.h"

/* --- lines ------------------------------------------------------------------ */

void cv_task_put(int y, const char *s, attr_t attr)
{
	int w = COLS - (y == LINES - 1), x;

	if (y < 0 || y >= LINES || w <= 0)
		return;
	move(y, 0);
	attrset(attr);
	addnstr(s, w);
	clrtoeol();
	if (attr & A_REVERSE)
		for (x = getcurx(stdscr); x < w; x++)
			addch(' ');
	attrset(A_NORMAL);
}

/* ns as % of one CPU over interval_ns; "-" when has lacks need */
static void pct(char *buf, size_t len, uint64_t ns, uint64_t interval_ns,
		unsigned int has, unsigned int need)
{
	if (need && !(has & need))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f",
			 interval_ns ? 100.0 * (double)ns / (double)interval_ns : 0.0);
}

static void secs(char *buf, size_t len, uint64_t ns, unsigned int has,
		 unsigned int need)
{
	if (need && !(has & need))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
}

static void hms(uint64_t mono_ns, char *buf, size_t len)
{
	time_t at = ui_wall_time(mono_ns);
	struct tm tm;

	localtime_r(&at, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
}

/* --- what is shown ------------------------------------------------------------ */

static const struct ptop_snap *cur_snap(const struct cv *cv)
{
	return ptop_snap_cur(&cv->app->snap);
}

static const struct ui_th_task *shown_task(const struct cv *cv)
{
	return ui_taskhist_find(&cv->task_hist, cv->task_pid, cv->task_start);
}

/* The task's leader row of the interval; NULL: none. */
static const struct ptop_row *task_row(const struct cv *cv)
{
	const struct ptop_interval *iv = &cv->app->iv;
	size_t i;

	for (i = 0; cv->have_iv && i < iv->nrows; i++)
		if (iv->rows[i].pid == cv->task_pid &&
		    iv->rows[i].start_ns == cv->task_start)
			return &iv->rows[i];
	return NULL;
}

static const struct ptop_rec *task_rec(const struct cv *cv)
{
	const struct ptop_snap *s = cur_snap(cv);

	return s ? ptop_snap_find_group(s, cv->task_pid, cv->task_start) : NULL;
}

static void title_line(const struct cv *cv, const struct ui_th_task *t,
		       const struct ptop_rec *g, char *buf, size_t len)
{
	char st[48] = "";

	if (t && t->gone && t->have_exit)
		cv_task_exit_status(t->exit_code, st, sizeof(st));
	snprintf(buf, len, "ptop process %u (%s)  %s%s   Esc q: back  F1: help",
		 cv->task_pid, g ? g->comm : cv->task_comm,
		 !t || !t->gone ? "live" : t->have_exit ? "exited " : "gone (no row: exited)",
		 st);
}

/* how long ago a task with this start time (CLOCK_BOOTTIME) was forked */
static uint64_t age_ns(uint64_t start_ns)
{
	struct timespec now;
	uint64_t bt;

	clock_gettime(CLOCK_BOOTTIME, &now);
	bt = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	return bt > start_ns ? bt - start_ns : 0;
}

static void identity(const struct cv *cv, const struct ptop_row *r,
		     const struct ptop_rec *g, char *buf, size_t len)
{
	const struct ptop_snap *s = cur_snap(cv);
	const struct ptop_rec *p = g && s ? ptop_snap_find_tgid(s, g->ppid) : NULL;
	struct ptop_row u = { .uid = g ? g->uid : 0 };
	char user[64] = "-", when[16] = "-";
	struct tm tm;
	time_t at;

	if (!g) {
		snprintf(buf, len, "pid %u  (no longer in the snapshot)",
			 cv->task_pid);
		return;
	}
	ptop_col_format(&ptop_cols[PTOP_COL_USER], &u, NULL, user, sizeof(user));
	at = time(NULL) - (time_t)(age_ns(g->start_ns) / 1000000000ULL);
	localtime_r(&at, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	snprintf(buf, len, "pid %u  ppid %u (%s)  user %s  state %c  threads %u  started %s",
		 g->pid, g->ppid, p ? p->comm : "-", user,
		 r ? r->state : g->state ? g->state : '-', g->nthreads, when);
}

/* own, c*, x*, steal of a point: two lines in % of one CPU */
static int last_lines(int y, const struct ui_th_point *p)
{
	char a[6][16], line[CV_TL_LEN], st[16], tot[16], when[16];
	uint64_t iv = p ? p->interval_ns : 0;
	unsigned int has = p ? p->has : 0;

	if (!p || !p->present) {
		cv_task_put(y, p ? "last interval: no row (the task is gone)" :
			 "last interval: measuring (the history starts with the next interval)",
		     A_BOLD);
		cv_task_put(y + 1, "", A_NORMAL);
		cv_task_put(y + 2, "", A_NORMAL);
		return 3;
	}
	hms(p->end_ns, when, sizeof(when));
	snprintf(line, sizeof(line), "last interval: %.2f s to %s, %% of one CPU",
		 (double)iv / 1e9, when);
	cv_task_put(y, line, A_BOLD);
	pct(a[0], 16, p->user, iv, has, 0);
	pct(a[1], 16, p->sys, iv, has, 0);
	pct(a[2], 16, p->cuser, iv, has, PTOP_DATA_C);
	pct(a[3], 16, p->csys, iv, has, PTOP_DATA_C);
	pct(a[4], 16, p->xuser, iv, has, PTOP_DATA_X);
	pct(a[5], 16, p->xsys, iv, has, PTOP_DATA_X);
	pct(st, 16, p->ste + p->cste + p->xste, iv, has, PTOP_DATA_STEAL);
	pct(tot, 16, ui_th_total(p), iv, has, 0);
	snprintf(line, sizeof(line), "  own  user %7s  sys %7s     c*  user %7s  sys %7s",
		 a[0], a[1], a[2], a[3]);
	cv_task_put(y + 1, line, A_NORMAL);
	snprintf(line, sizeof(line), "  x*   user %7s  sys %7s     steal %7s  total %7s",
		 a[4], a[5], st, tot);
	cv_task_put(y + 2, line, A_NORMAL);
	return 3;
}

static void sum_line(const struct ui_th_task *t, char *buf, size_t len)
{
	struct ui_th_point s;
	char own[32], c[32], x[32], st[32];

	if (!t) {
		snprintf(buf, len, "sum of 0 intervals");
		return;
	}
	ui_th_sum(t, UI_TH_DEPTH, &s);
	secs(own, sizeof(own), s.user + s.sys, s.has, 0);
	secs(c, sizeof(c), s.cuser + s.csys, s.has, PTOP_DATA_C);
	secs(x, sizeof(x), s.xuser + s.xsys, s.has, PTOP_DATA_X);
	secs(st, sizeof(st), s.ste + s.cste + s.xste, s.has, PTOP_DATA_STEAL);
	snprintf(buf, len, "sum of %zu intervals, %.2f s: own %s  c* %s  x* %s  steal %s",
		 t->npts, (double)s.interval_ns / 1e9, own, c, x, st);
}

/* TIME of the table's row: own + x* since the fork, and the age */
static void life_line(const struct ptop_row *r, const struct ptop_rec *g,
		      char *buf, size_t len)
{
	char age[48] = "-";

	if (g)
		ui_fmt_uptime((double)age_ns(g->start_ns) / 1e9, age, sizeof(age));
	if (r)
		snprintf(buf, len, "since start (age %s): own+x* %.3f s", age,
			 (double)r->time_ns / 1e9);
	else
		snprintf(buf, len, "since start (age %s): own+x* -", age);
}

/* --- the history: a bar per interval, newest first -------------------------- */

static double point_pct(const struct ui_th_point *p)
{
	return p->interval_ns ?
	       100.0 * (double)ui_th_total(p) / (double)p->interval_ns : 0.0;
}

/* full bar: the highest interval's % rounded up to 100s, at least 100 */
static unsigned int bar_scale(const struct ui_th_task *t)
{
	unsigned int scale = 100;
	size_t i;

	for (i = 0; i < t->npts; i++) {
		double v = point_pct(ui_th_point(t, i));

		while (v > scale && scale < 100000)
			scale += 100;
	}
	return scale;
}

static const char bar_ch[5] = { '|', '#', '*', '+', '~' };

static void bar_line(const struct ui_th_point *p, unsigned int scale,
		     char *line, size_t len)
{
	uint64_t parts[5], d = p->interval_ns ? p->interval_ns : 1;
	int cells[5], w = COLS - 1 - 18, i, j;
	char when[16];
	size_t pos;

	hms(p->end_ns, when, sizeof(when));
	if (!p->present) {
		snprintf(line, len, "%s %7s gone", when, "-");
		return;
	}
	pos = (size_t)snprintf(line, len, "%s %7.2f ", when, point_pct(p));
	if (w < 1 || pos + (size_t)w + 2 >= len)
		return;
	/* in millionths of one CPU: intervals of any length compare */
	parts[0] = p->user * 1000000 / d;
	parts[1] = p->sys * 1000000 / d;
	parts[2] = (p->cuser + p->csys) * 1000000 / d;
	parts[3] = (p->xuser + p->xsys) * 1000000 / d;
	parts[4] = (p->ste + p->cste + p->xste) * 1000000 / d;
	ui_bar_cells(parts, 5, (uint64_t)scale * 10000, w, cells);
	for (i = 0; i < 5; i++)
		for (j = 0; j < cells[i]; j++)
			line[pos++] = bar_ch[i];
	line[pos] = '\0';
}

static void draw_history(int y, int n, const struct ui_th_task *t)
{
	char line[CV_TL_LEN];
	unsigned int scale = t ? bar_scale(t) : 100;
	int k;

	snprintf(line, sizeof(line),
		 "history, newest first: end, total, | user # sys * c* + x* ~ steal, full %u%%",
		 scale);
	cv_task_put(y, line, A_BOLD);
	for (k = 0; k < n; k++) {
		line[0] = '\0';
		if (t && (size_t)k < t->npts)
			bar_line(ui_th_point(t, t->npts - 1 - k), scale, line,
				 sizeof(line));
		cv_task_put(y + 1 + k, line, A_NORMAL);
	}
}

/* --- the screen ------------------------------------------------------------------ */

static void footer(const struct cv *cv, const struct ui_th_task *t)
{
	char line[CV_TL_LEN], st[48];

	if (cv->msg[0]) {
		cv_task_put(LINES - 1, cv->msg, A_BOLD);
		return;
	}
	line[0] = '\0';
	if (t && t->gone) {
		if (t->have_exit)
			cv_task_exit_status(t->exit_code, st, sizeof(st));
		snprintf(line, sizeof(line),
			 "process %u exited %s while shown: its last figures stay (Esc: back)",
			 cv->task_pid, t->have_exit ? st : "(no status from the source)");
	}
	cv_task_put(LINES - 1, line, A_BOLD);
}

static void task_draw(struct cv *cv, void *st)
{
	static struct cv_task_lists lists;
	const struct ui_th_task *t = shown_task(cv);
	const struct ptop_rec *g = task_rec(cv);
	const struct ptop_row *r = task_row(cv);
	char line[CV_TL_LEN], cmd[CV_TL_LEN - 16];
	int y, rem, hist;

	(void)st;
	title_line(cv, t, g, line, sizeof(line));
	cv_task_put(0, line, A_REVERSE | A_BOLD);
	identity(cv, r, g, line, sizeof(line));
	cv_task_put(1, line, A_NORMAL);
	if (ptop_cmdline_read(cv->app->src->cfg.proc_root, cv->task_pid, cmd,
			    sizeof(cmd)) || !g)
		snprintf(cmd, sizeof(cmd), "- (%s)", g ? "none: a kernel thread" : "gone");
	snprintf(line, sizeof(line), "command: %s", cmd);
	cv_task_put(2, line, A_NORMAL);
	y = 3 + last_lines(3, t && t->npts ? ui_th_point(t, t->npts - 1) : NULL);
	sum_line(t, line, sizeof(line));
	cv_task_put(y++, line, A_NORMAL);
	life_line(r, g, line, sizeof(line));
	cv_task_put(y++, line, A_NORMAL);
	/* the lists take what they need, up to a share; the history the rest */
	rem = LINES - 1 - y - 1;
	cv_task_lists_make(cv, t, g, rem, &lists);
	hist = rem - lists.need[0] - lists.need[1] - lists.need[2];
	if (hist > (int)(t ? t->npts : 0))
		hist = (int)(t ? t->npts : 0);
	hist = hist > 0 ? hist : 0;
	draw_history(y, hist, t);
	y += 1 + hist;
	y += cv_task_lists_draw(y, &lists);
	for (; y < LINES - 1; y++)
		cv_task_put(y, "", A_NORMAL);
	footer(cv, t);
}

/* --- keys, opening, feeding --------------------------------------------------------- */

static bool task_key(struct cv *cv, void *st, int ch)
{
	(void)st;
	if (ch != KEY_RESIZE)
		cv->msg[0] = '\0';
	switch (ch) {
	case KEY_ESC:
	case 'q':
	case KEY_LEFT:
		cv_screen_pop(cv);
		break;
	case KEY_F(10):
		cv->quit = true;
		break;
	case KEY_F(1):
	case 'h':
	case '?':
		/* the view's keys; leaving the help comes back here */
		cv_help_open(cv, cv->keys, cv->nkeys);
		break;
	case KEY_RESIZE:
	case KEY_MOUSE:
		break;
	default:
		snprintf(cv->msg, sizeof(cv->msg),
			 "that key does nothing here (Esc or q: back, F1: help)");
		break;
	}
	return true;
}

/* the table under it keeps its selection: clicks stop here */
static bool task_mouse(struct cv *cv, void *st, int y, int x, int button)
{
	(void)cv;
	(void)st;
	(void)y;
	(void)x;
	(void)button;
	return true;
}

const struct cv_screen_ops cv_task_ops = {
	.name = "process",
	.draw = task_draw,
	.key = task_key,
	.mouse = task_mouse,
};

/* The process (tgid and its start) of a row; false: none (dead, unknown). */
static bool row_task(const struct cv *cv, const struct ui_vrow *vr,
		     uint32_t *pid, uint64_t *start)
{
	const struct ptop_snap *s = cur_snap(cv);
	const struct ptop_rec *g;

	if (vr->exited)
		return false;
	*pid = vr->r.tgid ? vr->r.tgid : vr->r.pid;
	*start = vr->r.start_ns;
	if (*pid == vr->r.pid)
		return true;
	/* a thread's row: its group's start */
	g = s ? ptop_snap_find_tgid(s, *pid) : NULL;
	if (!g)
		return false;
	*start = g->start_ns;
	return true;
}

void cv_task_open(struct cv *cv, int ch)
{
	const struct ui_vrow *vr;

	if (!cv_sel_shown(cv)) {
		snprintf(cv->msg, sizeof(cv->msg), "no row selected");
		return;
	}
	vr = &cv->v.rows[cv->sel];
	if (!row_task(cv, vr, &cv->task_pid, &cv->task_start)) {
		snprintf(cv->msg, sizeof(cv->msg),
			 "%u exited in the interval: no process screen", vr->r.pid);
		return;
	}
	snprintf(cv->task_comm, sizeof(cv->task_comm), "%s", vr->r.comm);
	ui_taskhist_follow(&cv->task_hist, cv->task_pid, cv->task_start);
	cv->msg[0] = '\0';
	cv_screen_push(cv, &cv_task_ops, NULL);
}

void cv_task_step(struct cv *cv)
{
	uint32_t pid;
	uint64_t start;

	/* the table's selected task is followed: its history is ready */
	if (cv_screen_find(cv, &cv_task_ops))
		ui_taskhist_follow(&cv->task_hist, cv->task_pid, cv->task_start);
	else if (cv->sel < cv->v.nrows &&
		 row_task(cv, &cv->v.rows[cv->sel], &pid, &start))
		ui_taskhist_follow(&cv->task_hist, pid, start);
	ui_taskhist_feed(&cv->task_hist, &cv->app->iv, cur_snap(cv));
}
