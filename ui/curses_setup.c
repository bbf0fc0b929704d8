// SPDX-License-Identifier: GPL-2.0
/*
 * The setup screen (F2): the columns (show, hide, reorder), the meters
 * (which, in which of the header's two columns, in which order, bar or
 * text where the meter has a bar, as htop's Meters setup), the colours;
 * Enter applies, s applies and saves to ptoprc, Esc cancels.
 *
 * The meters are one list, the left column's then the right column's
 * then the hidden ones: moving a meter up past the top of the right
 * column puts it at the bottom of the left one, and back.
 */
#include <curses.h>
#include <string.h>

#include <stdlib.h>

#include "curses_paint.h"
#include "curses_setup.h"

/* the meters section: on/off, the meters, the All meter, two switches */
enum {
	SM_ON,
	SM_METER0,
	SM_ALL = SM_METER0 + CFG_M__COUNT,
	SM_EXITED,
	SM_KTHREADS,
	SM_FKEYS,
	SM__COUNT
};

static const char *const meter_help[CFG_M__COUNT] = {
	[CFG_M_CPU] = "one line per CPU (or group of CPUs): user, sys, irq+steal",
	[CFG_M_MEM] = "memory: used, buffers, cache of the total",
	[CFG_M_SWAP] = "swap used of the total",
	[CFG_M_TASKS] = "processes, threads, running tasks",
	[CFG_M_LOAD] = "the load average over 1, 5, 15 minutes",
	[CFG_M_UPTIME] = "time since boot",
};

void cv_meters_default(struct cv *cv)
{
	struct cfg d;

	cfg_defaults(&d);
	cv_meters_from(cv, &d);
}

void cv_meters_from(struct cv *cv, const struct cfg *c)
{
	memcpy(cv->mcol, c->mcol, sizeof(cv->mcol));
	memcpy(cv->nmcol, c->nmcol, sizeof(cv->nmcol));
	cv->all_style = c->all_style;
}

/* the meters as one list: left column, right column, hidden */
static void meters_open(struct cv *cv, struct cv_setup *s)
{
	bool used[CFG_M__COUNT] = { false };
	int c, i, n = 0;

	for (c = 0; c < 2; c++)
		for (i = 0; i < cv->nmcol[c]; i++) {
			s->mch[n].id = cv->mcol[c][i].id;
			s->mch[n].style = cv->mcol[c][i].style;
			s->mch[n++].col = c;
			used[cv->mcol[c][i].id] = true;
		}
	for (i = 0; i < CFG_M__COUNT; i++)
		if (!used[i]) {
			s->mch[n].id = i;
			s->mch[n].style = cfg_meter_has_bar(i) ? CFG_MS_BAR :
								  CFG_MS_TEXT;
			s->mch[n++].col = -1;
		}
	s->all_style = cv->all_style;
}

static void meters_close(struct cv *cv, struct cv_setup *s)
{
	int i, c;

	cv->nmcol[0] = cv->nmcol[1] = 0;
	for (i = 0; i < CFG_M__COUNT; i++) {
		c = s->mch[i].col;
		if (c < 0)
			continue;
		cv->mcol[c][cv->nmcol[c]].id = s->mch[i].id;
		cv->mcol[c][cv->nmcol[c]++].style = s->mch[i].style;
	}
	cv->all_style = s->all_style;
}

void cv_setup_open(struct cv *cv)
{
	struct ui_app *app = cv->app;
	bool used[PTOP_COL__COUNT] = { false };
	struct cv_setup *s = calloc(1, sizeof(*s));
	int i, n = 0;

	if (!s) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	for (i = 0; i < app->ncols; i++) {
		if (used[app->cols[i]])
			continue;
		used[app->cols[i]] = true;
		s->chosen[n] = true;
		s->chooser[n++] = app->cols[i];
	}
	for (i = 0; i < PTOP_COL__COUNT; i++) {
		if (used[i])
			continue;
		s->chosen[n] = false;
		s->chooser[n++] = i;
	}
	meters_open(cv, s);
	cv_screen_push(cv, &cv_setup_ops, s);
}

/* Apply the choices; false: they cannot be (the screen stays). */
static bool apply_setup(struct cv *cv, struct cv_setup *s)
{
	struct ui_app *app = cv->app;
	int i, n = 0, cols[PTOP_COL__COUNT];

	for (i = 0; i < PTOP_COL__COUNT; i++)
		if (s->chosen[i])
			cols[n++] = s->chooser[i];
	if (!n) {
		snprintf(cv->msg, sizeof(cv->msg), "at least one column must be shown");
		return false;
	}
	memcpy(app->cols, cols, n * sizeof(cols[0]));
	app->ncols = n;
	app->view.cols = app->cols;
	app->view.ncols = n;
	/* chosen now: shown even where the source cannot fill them */
	app->cols_default = false;
	/* gather what the new columns need from the next snapshot on */
	app->src->cfg.need = ptop_col_needs(app->cols, app->ncols) |
		(app->threads ? 0 : PTOP_DATA_GROUPS_ONLY);
	meters_close(cv, s);
	cv->hscroll = 0;
	cv->msg[0] = '\0';
	cv_rebuild(cv);
	return true;
}

static void chooser_swap(struct cv_setup *s, int to)
{
	int from = s->sel, id;
	bool on;

	if (to < 0 || to >= PTOP_COL__COUNT)
		return;
	id = s->chooser[from];
	on = s->chosen[from];
	s->chooser[from] = s->chooser[to];
	s->chosen[from] = s->chosen[to];
	s->chooser[to] = id;
	s->chosen[to] = on;
	s->sel = to;
}

/* the list stays: left column, right column, hidden */
static void mch_swap(struct cv_setup *s, int a, int b)
{
	struct cv_meter_choice t = s->mch[a];

	s->mch[a] = s->mch[b];
	s->mch[b] = t;
}

/* - (up) and + (down) on meter i: within its column, or across */
static void meter_move(struct cv *cv, struct cv_setup *s, int i, int dir)
{
	struct cv_meter_choice *m = &s->mch[i];
	int j = i + dir;

	if (m->col < 0) {
		snprintf(cv->msg, sizeof(cv->msg), "show the meter first (Space)");
		return;
	}
	if (j >= 0 && j < CFG_M__COUNT && s->mch[j].col == m->col) {
		mch_swap(s, i, j);
		s->sel += dir;
	} else if (dir < 0 && m->col == 1) {
		m->col = 0;	/* the bottom of the left column */
	} else if (dir > 0 && m->col == 0) {
		m->col = 1;	/* the top of the right column */
	}
}

/* Space on meter i: hidden ones go to the end of the right column */
static void meter_toggle(struct cv_setup *s, int i)
{
	struct cv_meter_choice m = s->mch[i];
	int j;

	if (m.col >= 0) {
		/* to the top of the hidden ones */
		for (j = i; j + 1 < CFG_M__COUNT && s->mch[j + 1].col >= 0; j++)
			s->mch[j] = s->mch[j + 1];
		m.col = -1;
	} else {
		for (j = i; j > 0 && s->mch[j - 1].col < 0; j--)
			s->mch[j] = s->mch[j - 1];
		m.col = 1;
	}
	s->mch[j] = m;
	s->sel = SM_METER0 + j;
}

static void meter_style(struct cv *cv, struct cv_setup *s, int i)
{
	struct cv_meter_choice *m = &s->mch[i];

	if (!cfg_meter_has_bar(m->id)) {
		snprintf(cv->msg, sizeof(cv->msg), "the %s meter is text only",
			 cfg_meter_name[m->id]);
		return;
	}
	m->style = m->style == CFG_MS_BAR ? CFG_MS_TEXT : CFG_MS_BAR;
}

static void setup_toggle(struct cv *cv, struct cv_setup *s)
{
	int i = s->sel;

	if (s->sec == 0) {
		s->chosen[i] = !s->chosen[i];
	} else if (s->sec == 1) {
		if (i == SM_ON)
			cv->hide_meters = !cv->hide_meters;
		else if (i < SM_ALL)
			meter_toggle(s, i - SM_METER0);
		else if (i == SM_ALL)
			s->all_style = !s->all_style;
		else if (i == SM_EXITED)
			cv->exited_tree = !cv->exited_tree;
		else if (i == SM_KTHREADS)
			cv->v.hide_kthreads = !cv->v.hide_kthreads;
		else
			cv->hide_fkeys = !cv->hide_fkeys;
	} else if (cv->cfg) {
		cv->cfg->colors = i;
		cv_colors_init(cv->cfg->colors);
	}
}

int cv_setup_items(const struct cv_setup *s)
{
	return s->sec == 0 ? PTOP_COL__COUNT :
	       s->sec == 1 ? SM__COUNT : CFG_COLORS__COUNT;
}

const char *cv_setup_keys(const struct cv_setup *s)
{
	static const char *const keys[] = {
		"Up/Down select, Space show/hide, - + move, Enter done, s done and save, Esc cancel",
		"Up/Down select, Space show/hide, - + move (also to the other column), b bar/text, Enter done, s save, Esc cancel",
		"Up/Down select, Space choose, Enter done, s done and save, Esc cancel",
	};

	return keys[s->sec];
}

void cv_setup_line(const struct cv *cv, const struct cv_setup *s, int i,
		   char *buf, size_t len)
{
	const struct cv_meter_choice *m;
	static const char *const where[] = { "hidden", "left", "right" };

	if (s->sec == 0) {
		char col[512];

		ptop_col_describe(s->chooser[i], col, sizeof(col));
		snprintf(buf, len, "[%c] %s", s->chosen[i] ? 'x' : ' ', col);
		return;
	}
	if (s->sec == 2) {
		snprintf(buf, len, "(%c) %s%s",
			 cv->cfg && cv->cfg->colors == i ? '*' : ' ',
			 cfg_colors_name[i],
			 i == CFG_COLORS_MONO ? " (also when NO_COLOR is set)" : "");
		return;
	}
	if (i == SM_ON) {
		snprintf(buf, len, "[%c] header meters (the meters below and the All bar)",
			 !cv->hide_meters ? 'x' : ' ');
	} else if (i < SM_ALL) {
		m = &s->mch[i - SM_METER0];
		snprintf(buf, len, "    [%c] %-6s %-6s %-5s %s",
			 m->col >= 0 ? 'x' : ' ', where[m->col + 1],
			 cfg_meter_name[m->id],
			 cfg_meter_style_name[m->style], meter_help[m->id]);
	} else if (i == SM_ALL) {
		snprintf(buf, len, "    [x] below  all    %-5s the interval as ptop accounts it: ncpu x 100%%, exact or not",
			 cfg_meter_style_name[s->all_style]);
	} else if (i == SM_EXITED) {
		snprintf(buf, len, "[%c] tree view: rows for tasks that died in the interval (dimmed)",
			 cv->exited_tree ? 'x' : ' ');
	} else if (i == SM_KTHREADS) {
		snprintf(buf, len, "[%c] kernel threads", !cv->v.hide_kthreads ? 'x' : ' ');
	} else {
		snprintf(buf, len, "[%c] the F-key bar at the bottom (F1 Help ... F10 Quit, clickable)",
			 !cv->hide_fkeys ? 'x' : ' ');
	}
}

static bool setup_key(struct cv *cv, void *st, int ch)
{
	struct cv_setup *s = st;
	bool meter = s->sec == 1 && s->sel >= SM_METER0 &&
		     s->sel < SM_ALL;

	cv->msg[0] = '\0';
	switch (ch) {
	case KEY_UP:
		if (s->sel > 0)
			s->sel--;
		break;
	case KEY_DOWN:
		if (s->sel < cv_setup_items(s) - 1)
			s->sel++;
		break;
	case KEY_HOME:
		s->sel = 0;
		break;
	case KEY_END:
		s->sel = cv_setup_items(s) - 1;
		break;
	case '\t':
	case KEY_RIGHT:
		s->sec = (s->sec + 1) % 3;
		s->sel = 0;
		break;
	case KEY_BTAB:
	case KEY_LEFT:
		s->sec = (s->sec + 2) % 3;
		s->sel = 0;
		break;
	case ' ':
		setup_toggle(cv, s);
		break;
	case '-':
	case '[':
		if (s->sec == 0)
			chooser_swap(s, s->sel - 1);
		else if (meter)
			meter_move(cv, s, s->sel - SM_METER0, -1);
		break;
	case '+':
	case ']':
		if (s->sec == 0)
			chooser_swap(s, s->sel + 1);
		else if (meter)
			meter_move(cv, s, s->sel - SM_METER0, 1);
		break;
	case 'b':
		if (meter)
			meter_style(cv, s, s->sel - SM_METER0);
		else if (s->sec == 1 && s->sel == SM_ALL)
			s->all_style = !s->all_style;
		break;
	case 's':
		if (apply_setup(cv, s)) {
			cv_screen_pop(cv);
			cv_save_config(cv);
		}
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case KEY_F(2):
	case KEY_F(10):
	case 'q':
		if (apply_setup(cv, s))
			cv_screen_pop(cv);
		break;
	case KEY_ESC:
		cv_screen_pop(cv);
		break;
	default:
		break;
	}
	return true;
}

static void setup_draw(struct cv *cv, void *st)
{
	const struct cv_setup *s = st;
	static const char *const secs[] = { "Columns", "Meters", "Colours" };
	char line[512];
	int y, i, top = 0, nvis = LINES - 3, n;

	snprintf(line, sizeof(line), "Setup: %s%s%s | %s%s%s | %s%s%s   (Tab: next section)",
		 s->sec == 0 ? "[" : "", secs[0], s->sec == 0 ? "]" : "",
		 s->sec == 1 ? "[" : "", secs[1], s->sec == 1 ? "]" : "",
		 s->sec == 2 ? "[" : "", secs[2], s->sec == 2 ? "]" : "");
	cv_put(0, line, 0, cv_attr_header());
	cv_put(1, cv_setup_keys(s), 0, A_BOLD);
	n = cv_setup_items(s);
	if (nvis > 0 && s->sel >= nvis)
		top = s->sel - nvis + 1;
	for (y = 2; y < LINES; y++) {
		i = top + y - 2;
		if (y == LINES - 1 || i >= n) {
			cv_put(y, "", 0, A_NORMAL);
			continue;
		}
		cv_setup_line(cv, s, i, line, sizeof(line));
		cv_put(y, line, 0, i == s->sel ? cv_attr_select() : A_NORMAL);
	}
	if (cv->msg[0])
		cv_put(LINES - 1, cv->msg, 0, cv_attr_msg());
}

static bool setup_mouse(struct cv *cv, void *st, int y, int x, int button)
{
	struct cv_setup *s = st;
	int nvis = LINES - 3, top = nvis > 0 && s->sel >= nvis ?
				    s->sel - nvis + 1 : 0;

	(void)x;
	if (button == 4 || button == 5)
		return setup_key(cv, st, button == 4 ? KEY_UP : KEY_DOWN);
	/* a click on a line selects it, as the line's keys then act on it */
	if (y >= 2 && y < LINES - 1 && top + y - 2 < cv_setup_items(s))
		s->sel = top + y - 2;
	return true;
}

const struct cv_screen_ops cv_setup_ops = {
	.name = "setup",
	.draw = setup_draw,
	.key = setup_key,
	.mouse = setup_mouse,
};

void cv_save_config(struct cv *cv)
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
	if (!app->cols_default) {
		memcpy(c.cols, app->cols, app->ncols * sizeof(c.cols[0]));
		c.ncols = app->ncols;
	}
	c.sort_id = app->view.sort_id;
	c.sort_asc = app->view.sort_asc;
	c.delay_s = app->delay_s;
	c.tree = cv->v.tree;
	c.threads = app->threads;
	c.show_exited = cv->exited_tree;
	c.hide_kthreads = cv->v.hide_kthreads;
	c.meters = !cv->hide_meters;
	c.fkeys = !cv->hide_fkeys;
	memcpy(c.mcol, cv->mcol, sizeof(c.mcol));
	memcpy(c.nmcol, cv->nmcol, sizeof(c.nmcol));
	c.all_style = cv->all_style;
	if (cfg_save(cv->cfg_path, &c, err, sizeof(err))) {
		snprintf(cv->msg, sizeof(cv->msg), "%s", err);
		return;
	}
	if (cv->cfg)
		*cv->cfg = c;
	snprintf(cv->msg, sizeof(cv->msg), "saved %s", cv->cfg_path);
}
