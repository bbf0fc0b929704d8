// SPDX-License-Identifier: GPL-2.0
/* The sort menu (F6: every column) and the user menu (u: one user's tasks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curses_menu.h"

static void sort_entry(const struct cv *cv, const void *st, int i, char *buf,
		       size_t len)
{
	(void)cv;
	(void)st;
	snprintf(buf, len, "%-8s %-7s %s", ptop_cols[i].name, ptop_cols[i].title,
		 ptop_cols[i].help);
}

static void sort_pick(struct cv *cv, void *st, int i)
{
	(void)st;
	cv_set_sort(cv, i);
}

const struct cv_menu_def cv_sort_menu = {
	.title = "Sort by (Enter: pick, Esc: cancel)",
	.entry = sort_entry,
	.pick = sort_pick,
};

void cv_sort_menu_open(struct cv *cv)
{
	cv_menu_open(cv, &cv_sort_menu, PTOP_COL__COUNT,
		     cv->app->view.sort_id, NULL);
}

/* the users of the interval's tasks; entry 0 is "all users" */
struct users {
	uint32_t uid[64];
};

static void user_entry(const struct cv *cv, const void *st, int i, char *buf,
		       size_t len)
{
	const struct users *u = st;
	struct ptop_row r = { .uid = i ? u->uid[i - 1] : 0 };

	(void)cv;
	if (!i)
		snprintf(buf, len, "all users");
	else
		ptop_col_format(&ptop_cols[PTOP_COL_USER], &r, NULL, buf, len);
}

static void user_pick(struct cv *cv, void *st, int i)
{
	const struct users *u = st;

	cv->v.by_user = i > 0;
	if (cv->v.by_user)
		cv->v.uid = u->uid[i - 1];
	cv->sel = cv->top = 0;
	cv_rebuild(cv);
}

const struct cv_menu_def cv_user_menu = {
	.title = "Show the tasks of (Enter: pick, Esc: cancel)",
	.entry = user_entry,
	.pick = user_pick,
};

void cv_user_menu_open(struct cv *cv)
{
	const struct ptop_interval *iv = &cv->app->iv;
	struct users *u = calloc(1, sizeof(*u));
	size_t i;
	int j, n = 0, sel = 0;

	if (!u) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	for (i = 0; i < iv->nrows && n < 64; i++) {
		for (j = 0; j < n; j++)
			if (u->uid[j] == iv->rows[i].uid)
				break;
		if (j == n)
			u->uid[n++] = iv->rows[i].uid;
	}
	for (j = 0; j < n; j++)
		if (cv->v.by_user && u->uid[j] == cv->v.uid)
			sel = j + 1;
	cv_menu_open(cv, &cv_user_menu, n + 1, sel, u);
}
