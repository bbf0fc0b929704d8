// SPDX-License-Identifier: GPL-2.0
/*
 * The process screen's lists: its threads (with their CPU in the last
 * interval, from the two snapshots), its live children (from the
 * interval's rows), its exited children (from the history), each packed
 * on as many lines as it gets, "+ N more" when they do not fit.
 */
#include <curses.h>
#include <string.h>

#include "curses_task.h"

static const struct ptop_snap *cur_snap(const struct cv *cv)
{
	return ptop_snap_cur(&cv->app->snap);
}

void cv_task_exit_status(uint32_t code, char *buf, size_t len)
{
	if (code & 0x7f)
		snprintf(buf, len, "[signal %u%s]", code & 0x7f,
			 code & 0x80 ? ", core" : "");
	else
		snprintf(buf, len, "[exit %u]", (code >> 8) & 0xff);
}

/*
 * Items packed after head on lines y.. (at most maxl), two spaces apart;
 * the last line ends in "+ N more" when they do not fit. Lines used.
 */
static int put_items(int y, int maxl, const char *head,
		     char (*it)[CV_TL_ITEM], int n)
{
	char line[CV_TL_LEN], more[32];
	int used = 0, i = 0, w = COLS - 1;
	size_t pos;

	if (w > CV_TL_LEN - 1)	/* a line never overflows its buffer */
		w = CV_TL_LEN - 1;

	while (used < maxl) {
		pos = (size_t)snprintf(line, sizeof(line), "%s", used ? "  " : head);
		for (; i < n; i++) {
			size_t l = strlen(it[i]);
			bool last_line = used == maxl - 1;

			snprintf(more, sizeof(more), "  + %d more", n - i);
			if (pos + 2 + l + (last_line && i < n - 1 ? strlen(more) : 0) >
			    (size_t)w && pos > 2)
				break;
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos,
						"  %s", it[i]);
		}
		if (i < n && used == maxl - 1)
			snprintf(line + pos, sizeof(line) - pos, "%s", more);
		cv_task_put(y + used++, line, A_NORMAL);
		if (i >= n)
			break;
	}
	return used;
}

/* --- threads, children, exited children ---------------------------------------- */

/* a live task's total in the interval, % of one CPU; -1: no row */
static double row_pct(const struct ptop_interval *iv, uint32_t pid,
		      uint64_t start)
{
	uint64_t ns = 0;
	bool found = false;
	size_t i;

	for (i = 0; i < iv->nrows; i++) {
		const struct ptop_row *r = &iv->rows[i];

		if (r->pid == pid && r->start_ns == start)
			found = true;
		if (r->tgid == pid && (iv->threads || r->start_ns == start))
			ns += r->total;
	}
	return found ? ptop_interval_pct(iv, ns) : -1.0;
}

static int thread_items(const struct cv *cv, char (*it)[CV_TL_ITEM])
{
	const struct ptop_snap *s = cur_snap(cv), *prev = ptop_snap_prev(&cv->app->snap);
	uint64_t d = cv->app->iv.interval_ns ? cv->app->iv.interval_ns : 1;
	size_t i;
	int n = 0;

	for (i = 0; s && i < s->nthreads && n < CV_TL_ITEMS; i++) {
		const struct ptop_rec *t = &s->threads[i], *p;
		uint64_t now, was;

		if (t->tgid != cv->task_pid)
			continue;
		p = prev ? ptop_snap_prev_thread(prev, t) : NULL;
		now = ptop_rec_own(t);
		was = p ? ptop_rec_own(p) : 0;
		snprintf(it[n++], CV_TL_ITEM, "%u %c %.2f", t->pid, t->state ? t->state : '-',
			 100.0 * (double)(now > was ? now - was : 0) / (double)d);
	}
	return n;
}

static int child_items(const struct cv *cv, char (*it)[CV_TL_ITEM])
{
	const struct ptop_snap *s = cur_snap(cv);
	size_t i;
	int n = 0;

	for (i = 0; s && i < s->ngroups && n < CV_TL_ITEMS; i++) {
		const struct ptop_rec *g = &s->groups[i];
		double v;

		if (g->ppid != cv->task_pid || g->start_ns < cv->task_start)
			continue;
		v = row_pct(&cv->app->iv, g->pid, g->start_ns);
		if (v < 0)
			snprintf(it[n++], CV_TL_ITEM, "%u %c %s -", g->pid,
				 g->state ? g->state : '-', g->comm);
		else
			snprintf(it[n++], CV_TL_ITEM, "%u %c %s %.2f", g->pid,
				 g->state ? g->state : '-', g->comm, v);
	}
	return n;
}

static int exit_items(const struct ui_th_task *t, char (*it)[CV_TL_ITEM])
{
	const struct ui_th_point *oldest = t ? ui_th_point(t, 0) : NULL;
	const struct ui_th_exit *x;
	char st[48];
	size_t i;
	int n = 0;

	for (i = 0; t && n < CV_TL_ITEMS && (x = ui_th_exit(t, i)); i++) {
		/* of the intervals kept only */
		if (oldest && x->seen_ns < oldest->end_ns)
			break;
		cv_task_exit_status(x->exit_code, st, sizeof(st));
		snprintf(it[n++], CV_TL_ITEM, "%u %s %s %.3f s", x->pid, x->comm, st,
			 (double)(x->user_ns + x->sys_ns) / 1e9);
	}
	return n;
}

static bool exits_seen(const struct cv *cv)
{
	return cv->app->iv.caps & PTOP_CAP_EXITS;
}

static void list_heads(const struct cv *cv, const struct ptop_rec *g, int nth,
		       int nch, int nex, char (*head)[96])
{
	bool exits = exits_seen(cv);

	if (!nth && g && g->nthreads)
		snprintf(head[0], 96, "threads %u: - (H: thread mode reads them)",
			 g->nthreads);
	else
		snprintf(head[0], 96, "threads %d:", nth);
	snprintf(head[1], 96, "live children %d:", nch);
	if (exits)
		snprintf(head[2], 96, "exited children %d:", nex);
	else
		snprintf(head[2], 96, "exited children: - (the source sees no exits)");
}

void cv_task_lists_make(const struct cv *cv, const struct ui_th_task *t,
			const struct ptop_rec *g, int rem,
			struct cv_task_lists *l)
{
	int i, cap;

	l->n[0] = thread_items(cv, l->items[0]);
	l->n[1] = child_items(cv, l->items[1]);
	l->n[2] = exits_seen(cv) ? exit_items(t, l->items[2]) : 0;
	list_heads(cv, g, l->n[0], l->n[1], l->n[2], l->head);
	/* a dry run (off screen): the lines each takes, up to its share */
	for (i = 0; i < 3; i++) {
		cap = rem / (i == 2 ? 4 : 6);
		l->need[i] = put_items(-1000, cap > 1 ? cap : 1, l->head[i],
				       l->items[i], l->n[i]);
	}
}

int cv_task_lists_draw(int y, const struct cv_task_lists *l)
{
	int i, used = 0;

	for (i = 0; i < 3; i++)
		used += put_items(y + used, l->need[i], l->head[i],
				  (char (*)[CV_TL_ITEM])l->items[i], l->n[i]);
	return used;
}
