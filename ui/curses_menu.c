// SPDX-License-Identifier: GPL-2.0
/*
 * The menu screen: a list beside the table, Up/Down/Home/End/PgUp/PgDn
 * to choose, Enter to pick, Esc to cancel; a click picks.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "curses_menu.h"
#include "curses_paint.h"

static int menu_w(const struct cv_menu *m)
{
	int w = m->def->width ? m->def->width : 44;

	return COLS < w ? COLS : w;
}

static int menu_lines(const struct cv *cv)
{
	return cv->rows_end - cv->table_y;
}

static void menu_draw(struct cv *cv, void *st)
{
	struct cv_menu *m = st;
	char line[512], ent[400];
	int y, i, nvis = menu_lines(cv), w;

	/* the table stays visible to the right of the menu */
	cv_screen_draw_below(cv);
	w = menu_w(m);
	if (m->def->head && cv->table_y > 0) {
		m->def->head(cv, m->st, line, sizeof(line));
		cv_put(cv->table_y - 1, line, 0, cv_attr_msg());
	}
	if (nvis < 1)
		return;
	if (m->sel < m->top)
		m->top = m->sel;
	if (m->sel >= m->top + nvis)
		m->top = m->sel - nvis + 1;
	move(cv->table_y, 0);
	attrset(cv_attr_header());
	snprintf(line, sizeof(line), "%-*.*s", w, w, m->def->title);
	addnstr(line, COLS);
	attrset(A_NORMAL);
	for (y = 0; y < nvis && cv->table_y + 1 + y < LINES; y++) {
		i = m->top + y;
		if (i < m->n)
			m->def->entry(cv, m->st, i, ent, sizeof(ent));
		else
			ent[0] = '\0';
		snprintf(line, sizeof(line), " %-*.*s", w - 1, w - 1, ent);
		move(cv->table_y + 1 + y, 0);
		attrset(i == m->sel ? cv_attr_select() : A_NORMAL);
		addnstr(line, COLS - (cv->table_y + 1 + y == LINES - 1));
		attrset(A_NORMAL);
	}
}

static void pick(struct cv *cv, struct cv_menu *m)
{
	if (m->n > 0)
		m->def->pick(cv, m->st, m->sel);
	cv_screen_close(cv, &cv_menu_ops);
}

static bool menu_key(struct cv *cv, void *st, int ch)
{
	struct cv_menu *m = st;
	int page = menu_lines(cv) > 1 ? menu_lines(cv) - 1 : 1;

	switch (ch) {
	case KEY_UP:
		m->sel -= m->sel > 0;
		break;
	case KEY_DOWN:
		m->sel += m->sel < m->n - 1;
		break;
	case KEY_PPAGE:
		m->sel = m->sel > page ? m->sel - page : 0;
		break;
	case KEY_NPAGE:
		m->sel = m->sel + page < m->n ? m->sel + page : m->n - 1;
		break;
	case KEY_HOME:
		m->sel = 0;
		break;
	case KEY_END:
		m->sel = m->n - 1;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		pick(cv, m);
		return true;	/* m is freed with the screen */
	case KEY_ESC:
	case 'q':
	case KEY_F(10):
		if (m->def->cancel)
			m->def->cancel(cv, m->st);
		cv_screen_close(cv, &cv_menu_ops);
		return true;
	default:
		if (m->def->key)
			m->def->key(cv, m->st, ch);
		break;
	}
	if (m->sel < 0)
		m->sel = 0;
	return true;
}

static bool menu_mouse(struct cv *cv, void *st, int y, int x, int button)
{
	struct cv_menu *m = st;
	int i = m->top + y - cv->table_y - 1;

	if (button == 4 || button == 5)
		return menu_key(cv, st, button == 4 ? KEY_UP : KEY_DOWN);
	if (x < menu_w(m) && i >= 0 && i < m->n && y <= cv->rows_end) {
		m->sel = i;
		pick(cv, m);
	}
	return true;
}

static void menu_close(struct cv *cv, void *st)
{
	struct cv_menu *m = st;

	(void)cv;
	free(m->st);
	free(m);
}

const struct cv_screen_ops cv_menu_ops = {
	.name = "menu",
	.draw = menu_draw,
	.key = menu_key,
	.mouse = menu_mouse,
	.close = menu_close,
};

int cv_menu_open(struct cv *cv, const struct cv_menu_def *def, int n,
		 int sel, void *st)
{
	struct cv_menu *m = calloc(1, sizeof(*m));

	if (!m) {
		free(st);
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return -1;
	}
	m->def = def;
	m->n = n;
	m->sel = sel >= 0 && sel < n ? sel : 0;
	m->st = st;
	return cv_screen_push(cv, &cv_menu_ops, m);
}

struct cv_menu *cv_menu_top(const struct cv *cv)
{
	return cv_screen_top(cv) == &cv_menu_ops ?
	       cv->scr[cv->nscr - 1].st : NULL;
}
