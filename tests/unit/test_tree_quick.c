// SPDX-License-Identifier: GPL-2.0
/*
 * The tree view's quick build (ui/tree_quick.c): over
 * many scripted refreshes of a process tree (rows that run and go quiet,
 * births under any process, deaths with their rows shown, children left
 * dangling or reparented to init or a subreaper, pid reuse, threads, a
 * ppid cycle now and then, collapsed and expanded branches, the sort
 * column and direction, a filter, kernel threads hidden), the view kept
 * across intervals (quick when it can) is compared row by row, byte for
 * byte, with one built afresh; and most refreshes must really have taken
 * the quick path (the counter), so this fails if it is disabled.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/src.h"
#include "ui/view.h"

#define MS 1000000ULL
#define NMAX 400
#define XMAX 64

struct task {
	struct ptop_row r;
	bool live;
	bool loud;		/* had figures last interval */
};

struct model {
	struct task t[NMAX];
	int n;
	uint32_t next_pid;
	unsigned int seed;
	bool threads;		/* rows are threads (-H) */
	bool deep;		/* most births under the tip: depth > 63 */
	int tip;		/* deep: the chain's newest task */
	/* the interval handed to the view */
	struct ptop_interval iv;
	struct ptop_row rows[NMAX];
	struct ptop_iv_change chg[2 * NMAX];
	struct ptop_rec ex[XMAX];
	struct ptop_snap cur;
	uint64_t snap_id;
	/* the rows of the last interval, by task index (-1: none) */
	int row_of[NMAX];
	/* what was tested */
	int cyc, cyc_left;	/* a ppid cycle through task cyc, refreshes */
	uint32_t cyc_ppid;
	int steps, quick_possible, quick, maxdepth;
	int births, deaths, reparents, reuses, cycles, dup;
};

static unsigned int rnd(struct model *m, unsigned int n)
{
	return (unsigned int)(rand_r(&m->seed) % n);
}

static struct task *add_task(struct model *m, uint32_t pid, uint32_t ppid,
			     uint32_t tgid, bool thread)
{
	struct task *t;

	if (m->n >= NMAX)
		return NULL;
	t = &m->t[m->n++];
	memset(t, 0, sizeof(*t));
	t->live = true;
	t->r.pid = pid;
	t->r.tgid = tgid;
	t->r.ppid = t->r.acct_ppid = ppid;
	t->r.uid = pid % 3 ? 1000 : 0;
	t->r.nthreads = 1;
	t->r.state = 'S';
	t->r.is_thread = thread;
	t->r.start_ns = 1000 + pid + m->steps * 1000000ULL;
	t->r.has = PTOP_DATA_X | PTOP_DATA_C;
	t->r.is_new = true;
	t->r.rss_kb = 100 + pid % 7;
	snprintf(t->r.comm, sizeof(t->r.comm), "%s%u",
		 ppid == 2 ? "kworker" : "p", pid);
	return t;
}

static int find_live(const struct model *m, uint32_t pid)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (m->t[i].live && m->t[i].r.pid == pid)
			return i;
	return -1;
}

/*
 * A live task's parent (a child left dangling keeps the dead one's pid)
 * or, now and then not, its accounting parent (an orphan's, shown under
 * it when there: a new task with that pid would take it, a cycle if the
 * new one hangs below it).
 */
static bool is_ppid(struct model *m, uint32_t pid)
{
	bool acct_ok = !rnd(m, 4);
	int i;

	for (i = 0; i < m->n; i++)
		if (m->t[i].live && (m->t[i].r.ppid == pid ||
				     (!acct_ok && m->t[i].r.acct_ppid == pid)))
			return true;
	return false;
}

/* a random live process (not a thread row), or -1 */
static int any_proc(struct model *m)
{
	int k, i;

	for (k = 0; k < 8; k++) {
		i = (int)rnd(m, (unsigned int)m->n);
		if (m->t[i].live && m->t[i].r.pid == m->t[i].r.tgid)
			return i;
	}
	return -1;
}

static void birth(struct model *m, bool reuse)
{
	int p = any_proc(m), i;
	uint32_t pid = m->next_pid++;
	struct task *t;

	/* mostly under the tip of a chain: deep chains */
	bool tip = m->deep && rnd(m, 8);

	if (tip) {
		while (m->tip > 0 && !m->t[m->tip].live)
			m->tip = find_live(m, m->t[m->tip].r.ppid) > 0 ?
				 find_live(m, m->t[m->tip].r.ppid) : 0;
		p = m->tip;
	}
	if (p < 0)
		return;
	if (reuse) {
		/* the pid of a dead task (maybe one that died right now) */
		for (i = 0; i < m->n; i++)
			if (!m->t[i].live && find_live(m, m->t[i].r.pid) < 0 &&
			    !is_ppid(m, m->t[i].r.pid) && !rnd(m, 3)) {
				pid = m->t[i].r.pid;
				/* under init: an orphan it takes is no cycle */
				p = 0;
				m->reuses++;
				break;
			}
	}
	if (m->threads && !rnd(m, 3)) {
		/* a thread of the process p */
		t = add_task(m, pid, m->t[p].r.ppid, m->t[p].r.pid, true);
	} else {
		t = add_task(m, pid, m->t[p].r.pid, pid, m->threads);
	}
	if (!t)
		return;
	if (tip)
		m->tip = (int)(t - m->t);
	t->r.user = (1 + rnd(m, 20)) * MS;
	m->births++;
}

static void exit_rec(struct model *m, const struct task *t)
{
	struct ptop_rec *e;

	if (m->cur.nexits >= XMAX)
		return;
	e = &m->ex[m->cur.nexits++];
	memset(e, 0, sizeof(*e));
	e->kind = m->threads ? PTOP_REC_THREAD : PTOP_REC_GROUP;
	e->pid = t->r.pid;
	e->tgid = t->r.tgid;
	e->ppid = t->r.ppid;
	e->acct_ptgid = t->r.acct_ppid;
	e->uid = t->r.uid;
	e->start_ns = t->r.start_ns;
	e->exit_code = 9;
	memcpy(e->comm, t->r.comm, sizeof(e->comm));
	/* some die quiet (counted, not shown) */
	e->utime_ns = rnd(m, 2) ? (1 + rnd(m, 40)) * MS : 0;
	e->stime_ns = rnd(m, 3) * MS;
}

/*
 * A task dies: its EXIT record; its children stay with a dangling ppid,
 * or go to init, or to a subreaper (accounting parent: the dead one).
 */
static void death(struct model *m)
{
	int i = (int)rnd(m, (unsigned int)m->n), k, how = (int)rnd(m, 6);
	struct task *t = &m->t[i];
	uint32_t reaper = 1;

	if (!t->live || t->r.pid <= 3 || m->cyc_left)
		return;
	if (m->deep && is_ppid(m, t->r.pid) && rnd(m, 8))
		return;		/* the chains mostly stay */
	if (m->deep)
		how = 4;	/* and go to a subreaper above */
	t->live = false;
	exit_rec(m, t);
	m->deaths++;
	if (how >= 4) {
		/* a subreaper: an ancestor of the dead one */
		int s = find_live(m, t->r.ppid);

		if (s >= 0 && rnd(m, 2))
			s = find_live(m, m->t[s].r.ppid) >= 0 ?
			    find_live(m, m->t[s].r.ppid) : s;
		if (s >= 0)
			reaper = m->t[s].r.pid;
	}
	for (k = 0; k < m->n; k++) {
		struct task *c = &m->t[k];

		if (!c->live)
			continue;
		if (c->r.is_thread && c->r.tgid == t->r.pid && c->r.pid != c->r.tgid) {
			c->live = false;	/* its threads with it */
			exit_rec(m, c);
			continue;
		}
		if (c->r.ppid != t->r.pid || how == 0 || c->r.pid == reaper)
			continue;
		c->r.ppid = reaper;
		c->r.acct_ppid = t->r.pid;
		m->reparents++;
	}
}

/*
 * Now and then two processes point at each other (a torn reading), for
 * a few refreshes.
 */
static void cycle(struct model *m)
{
	int a = any_proc(m), b;

	if (a < 0)
		return;
	b = find_live(m, m->t[a].r.ppid);
	if (b < 0 || m->t[b].r.pid <= 3 || m->t[b].r.pid != m->t[b].r.tgid)
		return;
	/* b's parent is now its child a */
	m->cyc = b;
	m->cyc_ppid = m->t[b].r.ppid;
	m->cyc_left = 1 + (int)rnd(m, 4);
	m->t[b].r.ppid = m->t[b].r.acct_ppid = m->t[a].r.pid;
	m->cycles++;
}

static void cycle_end(struct model *m)
{
	struct task *t = &m->t[m->cyc];

	if (!m->cyc_left || --m->cyc_left)
		return;
	t->r.ppid = t->r.acct_ppid = m->cyc_ppid;
}

/* One refresh's events, then the interval (rows, changes, exits). */
static void step(struct model *m, bool quick)
{
	struct ptop_row before[NMAX];
	bool had[NMAX];
	int i, k, nrun;
	size_t nrows = 0, nchg = 0;

	m->steps++;
	m->cur.nexits = 0;
	for (i = 0; i < NMAX; i++) {	/* those born below had none */
		had[i] = m->row_of[i] >= 0;
		if (had[i])
			before[i] = m->rows[m->row_of[i]];
	}
	/* the loud ones go quiet, some others run */
	for (i = 0; i < m->n; i++) {
		struct ptop_row *r = &m->t[i].r;

		r->user = r->sys = r->total = r->cuser = r->nvcsw = 0;
		r->is_new = false;
	}
	nrun = 1 + (int)rnd(m, 6);
	for (k = 0; k < nrun; k++) {
		struct ptop_row *r = &m->t[rnd(m, (unsigned int)m->n)].r;

		r->user = (1 + rnd(m, 30)) * MS;
		r->sys = rnd(m, 4) * MS;
		r->nvcsw = rnd(m, 9);
		if (!rnd(m, 4))
			r->cuser = rnd(m, 5) * MS;
		r->time_ns += r->user + r->sys;
		r->state = rnd(m, 2) ? 'R' : 'S';
		if (!rnd(m, 10))
			r->rss_kb += 4;
	}
	if (!rnd(m, 2))
		birth(m, false);
	if (!rnd(m, m->deep ? 40 : 5))
		birth(m, true);
	for (k = (int)rnd(m, 3); k > 0; k--)
		if (!rnd(m, 2))
			death(m);
	cycle_end(m);
	if (!rnd(m, 40) && !m->cyc_left)
		cycle(m);
	for (i = 0; i < m->n; i++) {
		struct ptop_row *r = &m->t[i].r;

		r->total = r->user + r->sys + r->cuser;
	}
	/* the rows now, and what changed */
	for (i = 0; i < m->n; i++) {
		struct ptop_iv_change *c;
		bool same;

		if (!m->t[i].live) {
			if (had[i]) {
				c = &m->chg[nchg++];
				c->row = PTOP_IV_GONE;
				c->was = true;
				c->old = before[i];
			}
			m->row_of[i] = -1;
			continue;
		}
		m->rows[nrows] = m->t[i].r;
		m->row_of[i] = (int)nrows;
		same = had[i] && !memcmp(&before[i], &m->t[i].r, sizeof(before[i]));
		if (!same) {
			c = &m->chg[nchg++];
			c->row = nrows;
			c->was = had[i];
			if (had[i])
				c->old = before[i];
		}
		nrows++;
	}
	/* the changes in any order */
	for (k = 0; k + 1 < (int)nchg; k++) {
		int j = k + (int)rnd(m, (unsigned int)(nchg - (size_t)k));
		struct ptop_iv_change x = m->chg[k];

		m->chg[k] = m->chg[j];
		m->chg[j] = x;
	}
	m->iv.rows = m->rows;
	m->iv.nrows = nrows;
	m->iv.changes = m->chg;
	m->iv.nchanges = nchg;
	m->iv.quick = quick;
	m->iv.from_snap_id = m->snap_id;
	m->iv.end_snap_id = ++m->snap_id;
	m->iv.threads = m->threads;
}

static struct model *model_new(unsigned int seed, bool threads, bool deep)
{
	struct model *m = calloc(1, sizeof(*m));
	int i;

	assert_non_null(m);
	m->seed = seed;
	m->threads = threads;
	m->deep = deep;
	m->next_pid = 10;
	m->iv.interval_ns = 1000 * MS;
	m->iv.ncpu = 2;
	m->iv.caps = PTOP_CAP_INCREMENTAL | PTOP_DATA_X | PTOP_DATA_C;
	m->iv.sum.has = PTOP_DATA_X | PTOP_DATA_C;
	m->cur.exits = m->ex;
	for (i = 0; i < NMAX; i++)
		m->row_of[i] = -1;
	add_task(m, 1, 0, 1, threads);		/* init */
	add_task(m, 2, 0, 2, threads);		/* kthreadd */
	for (i = 0; i < 3; i++) {
		uint32_t pid = m->next_pid++;

		add_task(m, pid, 2, pid, threads);
	}
	for (i = 0; i < 30; i++)
		birth(m, false);
	return m;
}

/* The view settings of step i (each change: a full build, then quick). */
struct settings {
	int sort_id;
	bool asc, hide_k;
	const char *filter;
	uint32_t collapse[3];
	int ncollapse;
	bool exited;
};

static void settings_of(struct model *m, int i, struct settings *s)
{
	static const int sorts[] = { PTOP_COL_TOTAL, PTOP_COL_TOTAL,
				     PTOP_COL_PID, PTOP_COL_USER,
				     PTOP_COL_TIME, PTOP_COL_COMMAND,
				     PTOP_COL_STATE, PTOP_COL_RSS };
	int era = i / 12, k;

	memset(s, 0, sizeof(*s));
	s->sort_id = sorts[era % 8];
	s->asc = era % 3 == 1;
	s->hide_k = era % 5 == 3;
	s->filter = era % 7 == 4 ? "p1" : "";
	s->exited = era % 6 != 5;
	/* collapsed branches: the parents of a few rows */
	if (era % 4 >= 2)
		for (k = 0; k < 3; k++) {
			int t = (int)((era * 7 + k * 13) % m->n);

			s->collapse[s->ncollapse++] = m->t[t].r.ppid > 2 ?
						      m->t[t].r.ppid : 10 + (uint32_t)k;
		}
}

static void apply(struct ui_view *v, struct ui_view_opts *o,
		  const struct settings *s)
{
	int k;

	o->sort_id = s->sort_id;
	o->sort_asc = s->asc;
	v->tree = true;
	v->show_exited = s->exited;
	v->hide_kthreads = s->hide_k;
	assert_int_equal(ui_view_set_filter(v, s->filter, false, NULL, 0), 0);
	ui_pidset_clear(&v->collapsed);
	for (k = 0; k < s->ncollapse; k++)
		assert_int_equal(ui_pidset_add(&v->collapsed, s->collapse[k]), 0);
}

static int cur_step;

static void assert_same_rows(const struct ui_view *a, const struct ui_view *b)
{
	size_t i;

	assert_int_equal(a->nrows, b->nrows);
	assert_int_equal(a->nexited_shown, b->nexited_shown);
	assert_int_equal(a->nexited_tiny, b->nexited_tiny);
	for (i = 0; i < a->nrows; i++) {
		const struct ui_vrow *x = &a->rows[i], *y = &b->rows[i];

		if (memcmp(x, y, sizeof(*x)))
			fail_msg("step %d row %zu: pid %u depth %d more %llx kids %d coll %d sub %llu tot %llu; fresh: pid %u depth %d more %llx kids %d coll %d sub %llu tot %llu",
				 cur_step, i, x->r.pid, x->depth, (unsigned long long)x->more,
				 x->has_kids, x->collapsed,
				 (unsigned long long)x->subtree_ns,
				 (unsigned long long)x->r.total,
				 y->r.pid, y->depth, (unsigned long long)y->more,
				 y->has_kids, y->collapsed,
				 (unsigned long long)y->subtree_ns,
				 (unsigned long long)y->r.total);
	}
}

static int deepest;	/* the deepest row shown, over the runs */

static void run(unsigned int seed, bool threads, bool deep, int steps)
{
	struct model *m = model_new(seed, threads, deep);
	struct ui_view v, fresh;
	struct ui_view_opts o;
	struct settings s, last = { .sort_id = -1 };
	int i;

	ui_view_init(&v);
	memset(&o, 0, sizeof(o));
	for (i = 0; i < steps; i++) {
		/* now and then an interval that was not quick (a full answer) */
		bool quick = i % 17 != 16;
		unsigned long before = v.ntree_quick;

		settings_of(m, i, &s);
		cur_step = i;
		step(m, quick);
		apply(&v, &o, &s);
		if (quick && i && !memcmp(&s, &last, sizeof(s)))
			m->quick_possible++;
		assert_int_equal(ui_view_build(&v, &o, &m->iv, NULL, &m->cur), 0);
		m->quick += v.ntree_quick > before;
		assert_true(v.quick == (v.ntree_quick > before));
		ui_view_init(&fresh);
		apply(&fresh, &o, &s);
		assert_int_equal(ui_view_build(&fresh, &o, &m->iv, NULL, &m->cur), 0);
		assert_false(fresh.quick);
		assert_same_rows(&v, &fresh);
		for (size_t j = 0; j < fresh.nrows; j++)
			if (fresh.rows[j].depth > m->maxdepth)
				m->maxdepth = fresh.rows[j].depth;
		ui_view_free(&fresh);
		last = s;
	}
	print_message("seed %u%s%s: %d steps, %d could be quick, %d quick; %d births, %d deaths, %d reparented, %d pids reused, %d cycles, depth up to %d\n",
		      seed, threads ? " (threads)" : "", deep ? " (deep)" : "", steps, m->quick_possible,
		      m->quick, m->births, m->deaths, m->reparents, m->reuses,
		      m->cycles, m->maxdepth);
	if (m->maxdepth > deepest)
		deepest = m->maxdepth;
	/* the comparisons mean something only if the quick path ran */
	assert_true(m->quick >= m->quick_possible * 4 / 5);
	assert_true(m->births > steps / 4 && m->reparents > 0 &&
		    (deep || (m->deaths > steps / 8 && m->reuses > 0)));
	ui_view_free(&v);
	free(m);
}

static void test_tree_quick_processes(void **state)
{
	unsigned int seed;

	(void)state;
	for (seed = 1; seed <= 12; seed++)
		run(seed, false, false, 300);
}

static void test_tree_quick_threads(void **state)
{
	unsigned int seed;

	(void)state;
	for (seed = 50; seed <= 55; seed++)
		run(seed, true, false, 300);
}

/* Chains deeper than the lines go (UI_TREE_MAX_DEPTH). */
static void test_tree_quick_deep(void **state)
{
	unsigned int seed;

	(void)state;
	deepest = 0;
	for (seed = 70; seed <= 73; seed++)
		run(seed, false, true, 400);
	assert_true(deepest > UI_TREE_MAX_DEPTH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_quick_processes),
		cmocka_unit_test(test_tree_quick_threads),
		cmocka_unit_test(test_tree_quick_deep),
	};

	return cmocka_run_group_tests_name("tree_quick", tests, NULL, NULL);
}
