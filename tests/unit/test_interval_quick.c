// SPDX-License-Identifier: GPL-2.0
/*
 * The interval's quick path (lib/interval_quick.c): after an
 * incremental answer it recomputes only the rows the answer touched and
 * those that had figures, and keeps the others from the last interval.
 * It must give exactly what the full math gives: every step of random
 * scripts (tasks that run, new processes and threads, x* and c* that
 * grow, a counter that dips, processes and threads that die, folded
 * into the living or into the dead) is computed both ways and compared
 * field by field, and the snapshot's
 * list of what the answer brought is checked against the answer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "iv_fixture.h"
#include "ui/view.h"

#define NPROC_MAX 64
#define NTHR 3

struct model_thr {
	uint32_t pid;
	uint64_t u, s, nvcsw;
};

struct model_proc {
	uint32_t tgid;
	bool live;
	int nthr;
	struct model_thr thr[NTHR];
	uint64_t xu, xs, cu, cs;
	char state;		/* changes only with a record in the answer */
	char comm[16];
};

struct model {
	struct iv_fixture *ref;	/* fed full answers of the same tasks */
	struct model_proc p[NPROC_MAX];
	int n;
	uint32_t next_pid;
	uint64_t t_ns, idle_ns;
	unsigned int seed;
};

static unsigned int rnd(struct model *m, unsigned int n)
{
	return (unsigned int)(rand_r(&m->seed) % n);
}

static void add_thread(struct model *m, struct model_proc *p)
{
	struct model_thr *t = &p->thr[p->nthr++];

	memset(t, 0, sizeof(*t));
	t->pid = p->nthr == 1 ? p->tgid : m->next_pid++;
}

static void add_proc(struct model *m)
{
	struct model_proc *p = &m->p[m->n++];

	memset(p, 0, sizeof(*p));
	p->tgid = m->next_pid++;
	p->live = true;
	snprintf(p->comm, sizeof(p->comm), "p%u", p->tgid);
	add_thread(m, p);
}

/* Merged or full, the same live set, record for record. */
static void assert_same_snap(const struct ptop_snap *a, const struct ptop_snap *b)
{
	assert_int_equal(a->nthreads, b->nthreads);
	assert_int_equal(a->ngroups, b->ngroups);
	assert_memory_equal(a->threads, b->threads,
			    a->nthreads * sizeof(*a->threads));
	assert_memory_equal(a->groups, b->groups,
			    a->ngroups * sizeof(*a->groups));
}

/* One process (group + its threads) into the sample, as they are now. */
static void emit(struct ptop_sample *s, const struct model_proc *p)
{
	struct ptop_rec *g;
	int i;

	fake_proc(s, p->tgid, 1, p->tgid, p->thr[0].u, p->thr[0].s, p->comm);
	s->recs[s->nrecs - 1].nvcsw = p->thr[0].nvcsw;
	for (i = 1; i < p->nthr; i++) {
		fake_thread(s, p->thr[i].pid, p->tgid, p->thr[i].pid,
			    p->thr[i].u, p->thr[i].s);
		s->recs[s->nrecs - 1].nvcsw = p->thr[i].nvcsw;
	}
	g = fake_group(s, p->tgid);
	g->nthreads = (uint32_t)p->nthr;
	g->state = p->state ? p->state : 'R';
	for (i = 0; i < p->nthr; i++) {
		g->utime_ns += p->thr[i].u;
		g->stime_ns += p->thr[i].s;
	}
	g->xutime_ns = p->xu;
	g->xstime_ns = p->xs;
	g->cutime_ns = p->cu;
	g->cstime_ns = p->cs;
}

/*
 * A process dies (its EXIT records in s): its time goes to a process
 * picked at random, live (its c* grows, it is in the answer) or dead
 * (then on through that one's EXIT record, if it is in s, or nowhere).
 */
static void die(struct model *m, struct ptop_sample *s, bool *changed)
{
	struct model_proc *p = &m->p[rnd(m, (unsigned int)m->n)];
	struct model_proc *to = &m->p[rnd(m, (unsigned int)m->n)];
	uint64_t u = p->xu, st = p->xs;
	int i;

	if (!p->live || p == &m->p[0])
		return;
	if (to == p)
		to = &m->p[0];
	p->live = false;
	fake_exit_group(s, p->tgid, p->tgid, p->xu, p->xs, p->cu, p->cs,
			to->tgid, to->tgid);
	for (i = 0; i < p->nthr; i++) {
		fake_exit_thread(s, p->thr[i].pid, p->tgid, p->thr[i].pid,
				 p->thr[i].u, p->thr[i].s);
		u += p->thr[i].u;
		st += p->thr[i].s;
	}
	if (to->live) {
		to->cu += u + p->cu;
		to->cs += st + p->cs;
		changed[to - m->p] = true;
	}
}

/*
 * One step: some processes run (and are in the answer), maybe a new
 * process or thread, maybe x* or c* grows, maybe a dip; with exits a
 * process dies (its EXIT record in the answer).
 */
static void step(struct iv_fixture *f, struct model *m, bool full,
		 bool exits, bool *changed)
{
	struct ptop_sample *s, *ref;
	int i, k, nrun;

	m->t_ns += 1000 * MS;
	m->idle_ns += 1000 * MS;
	/* the script holds FAKE_MAX_SAMPLES: replay from a fresh one */
	fake_script_free(&f->fs);
	f->fs.next = 0;
	s = fake_sample(&f->fs, m->t_ns, 2, m->idle_ns);
	s->flags = full ? 0 : PTOP_SAMPLE_INCREMENTAL;
	memset(changed, 0, NPROC_MAX * sizeof(*changed));
	if (!full) {
		nrun = (int)rnd(m, 5);
		for (k = 0; k < nrun; k++) {
			struct model_proc *p = &m->p[rnd(m, (unsigned int)m->n)];
			struct model_thr *t;

			if (!p->live)
				continue;
			t = &p->thr[rnd(m, (unsigned int)p->nthr)];
			t->u += (1 + rnd(m, 50)) * MS;
			t->s += rnd(m, 3) * MS;
			t->nvcsw += rnd(m, 4);
			if (!rnd(m, 4))		/* a torn reading: held */
				t->u -= 100000;
			if (!rnd(m, 5))
				p->xu += MS;
			if (!rnd(m, 5))
				p->cs += 2 * MS;
			if (p->nthr < NTHR && !rnd(m, 6))
				add_thread(m, p);
			p->state = rnd(m, 2) ? 'R' : 'S';
			changed[p - m->p] = true;
		}
		if (m->n < NPROC_MAX && !rnd(m, 4)) {
			add_proc(m);
			changed[m->n - 1] = true;
		}
		for (k = exits ? 1 + (int)rnd(m, 3) : 0; k > 0 && m->n > 4; k--)
			die(m, s, changed);
		if (exits && !rnd(m, 3)) {
			/* a thread of a live process dies; x* gets its time */
			struct model_proc *p = &m->p[rnd(m, (unsigned int)m->n)];

			if (p->live && p->nthr > 1) {
				struct model_thr *t = &p->thr[--p->nthr];

				fake_exit_thread(s, t->pid, p->tgid, t->pid, t->u,
						 t->s);
				p->xu += t->u;
				p->xs += t->s;
				changed[p - m->p] = true;
			}
		}
		if (exits && !rnd(m, 4)) {
			/* born and dead within the interval */
			uint32_t pid = m->next_pid++;

			fake_exit_group(s, pid, pid, 0, 0, 0, 0, m->p[0].tgid,
					m->p[0].tgid);
			fake_exit_thread(s, pid, pid, pid, 3 * MS, MS);
			m->p[0].cu += 3 * MS;
			m->p[0].cs += MS;
			changed[0] = true;
		}
	}
	for (i = 0; i < m->n; i++)
		if (m->p[i].live && (full || changed[i]))
			emit(s, &m->p[i]);
	iv_fixture_update(f);
	/*
	 * The reference: the same tasks as one full answer (with the same
	 * EXIT records), which no merge is involved in.
	 */
	fake_script_free(&m->ref->fs);
	m->ref->fs.next = 0;
	ref = fake_sample(&m->ref->fs, m->t_ns, 2, m->idle_ns);
	for (i = 0; i < m->n; i++)
		if (m->p[i].live)
			emit(ref, &m->p[i]);
	for (k = 0; k < (int)s->nrecs; k++)
		if (s->recs[k].flags & PTOP_RECF_EXIT)
			*ptop_sample_add(ref, PTOP_REC_GROUP) = s->recs[k];
	iv_fixture_update(m->ref);
	assert_same_snap(ptop_snap_cur(&f->snap), ptop_snap_cur(&m->ref->snap));
}

static void assert_same_row(const struct ptop_row *a, const struct ptop_row *b)
{
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->tgid, b->tgid);
	assert_int_equal(a->nthreads, b->nthreads);
	assert_int_equal(a->is_new, b->is_new);
	assert_int_equal(a->has, b->has);
	assert_int_equal(a->state, b->state);
	assert_string_equal(a->comm, b->comm);
	assert_int_equal(a->user, b->user);
	assert_int_equal(a->sys, b->sys);
	assert_int_equal(a->ste, b->ste);
	assert_int_equal(a->xuser, b->xuser);
	assert_int_equal(a->xsys, b->xsys);
	assert_int_equal(a->cuser, b->cuser);
	assert_int_equal(a->csys, b->csys);
	assert_int_equal(a->total, b->total);
	assert_int_equal(a->nvcsw, b->nvcsw);
	assert_int_equal(a->time_ns, b->time_ns);
	assert_int_equal(a->rss_kb, b->rss_kb);
	/* and nothing else differs either */
	assert_memory_equal(a, b, sizeof(*a));
}

/*
 * The view kept across intervals (quick when it can) against one built
 * afresh with the same settings.
 */
static struct {
	struct ui_view v;
	struct ui_view_opts o;
	int nquick;
} view;

/* the tree view (t) with the dead of the interval, as ptop shows it */
static bool tree_mode;
/* the flat view with the dead of the interval listed (x) */
static bool exited_list;

static void assert_same_view(const struct ptop_interval *iv,
			     const struct ptop_snap *prev,
			     const struct ptop_snap *cur)
{
	struct ui_view fresh;

	view.v.tree = tree_mode;
	view.v.show_exited = tree_mode || exited_list;
	assert_int_equal(ui_view_build(&view.v, &view.o, iv, prev, cur), 0);
	view.nquick += view.v.quick;
	ui_view_init(&fresh);
	fresh.tree = tree_mode;
	fresh.show_exited = tree_mode || exited_list;
	fresh.hide_kthreads = view.v.hide_kthreads;
	assert_int_equal(ui_view_set_filter(&fresh, view.v.filter, false,
					    NULL, 0), 0);
	for (size_t i = 0; i < view.v.tagged.n; i++)
		assert_int_equal(ui_pidset_add(&fresh.tagged,
					       view.v.tagged.pid[i]), 0);
	assert_int_equal(ui_view_build(&fresh, &view.o, iv, prev, cur), 0);
	assert_false(fresh.quick);
	assert_int_equal(view.v.nexited_shown, fresh.nexited_shown);
	assert_int_equal(view.v.nrows, fresh.nrows);
	for (size_t i = 0; i < fresh.nrows; i++) {
		assert_same_row(&view.v.rows[i].r, &fresh.rows[i].r);
		assert_memory_equal(&view.v.rows[i], &fresh.rows[i],
				    sizeof(fresh.rows[i]));
	}
	ui_view_free(&fresh);
}

/* thread mode (-H): one row per thread */
static bool thr_mode;

/* f->iv by whatever path it takes; a fresh interval by the full math. */
static bool compute_both(struct iv_fixture *f)
{
	struct ptop_interval full;
	size_t i;

	iv_fixture_compute(f, thr_mode);
	ptop_interval_init(&full);
	assert_int_equal(ptop_interval_compute(&full, ptop_snap_prev(&f->snap),
					       ptop_snap_cur(&f->snap), thr_mode), 0);
	iv_assert_judged(&full);
	assert_false(full.quick);
	assert_int_equal(f->iv.nrows, full.nrows);
	for (i = 0; i < full.nrows; i++)
		assert_same_row(&f->iv.rows[i], &full.rows[i]);
	assert_same_row(&f->iv.sum, &full.sum);
	assert_int_equal(f->iv.clamped_ns, full.clamped_ns);
	assert_int_equal(f->iv.nexited, full.nexited);
	assert_int_equal(f->iv.interval_ns, full.interval_ns);
	assert_int_equal(f->iv.verdict.exact, full.verdict.exact);
	assert_int_equal(f->iv.nprocs, full.nprocs);
	assert_int_equal(f->iv.nthreads_all, full.nthreads_all);
	assert_int_equal(f->iv.nrunning, full.nrunning);
	ptop_interval_free(&full);
	assert_same_view(&f->iv, ptop_snap_prev(&f->snap), ptop_snap_cur(&f->snap));
	return f->iv.quick;
}

/* The snapshot's upd_* name exactly the answer's records, in order. */
static void assert_upd_lists(const struct ptop_snap *cur, const bool *changed,
			     const struct model *m)
{
	size_t k, n = 0;
	int i;

	for (i = 0; i < m->n; i++)
		n += m->p[i].live && changed[i];
	assert_int_equal(cur->nupd_groups, n);
	for (k = 0; k < cur->nupd_groups; k++) {
		const struct ptop_rec *g = &cur->groups[cur->upd_groups[k]];

		if (k)
			assert_true(cur->upd_groups[k] > cur->upd_groups[k - 1]);
		for (i = 0; i < m->n && m->p[i].tgid != g->pid; i++)
			;
		assert_true(i < m->n && changed[i]);
	}
}

static struct model *model_new(unsigned int seed, int nproc)
{
	struct model *m = calloc(1, sizeof(*m));
	int i;

	assert_non_null(m);
	assert_int_equal(iv_fixture_setup((void **)&m->ref), 0);
	iv_fixture_open(m->ref, CAPS_KMOD);
	m->seed = seed;
	m->next_pid = 100;
	for (i = 0; i < nproc; i++)
		add_proc(m);
	ui_view_free(&view.v);
	ui_view_init(&view.v);
	memset(&view.o, 0, sizeof(view.o));
	view.o.sort_id = PTOP_COL_TOTAL;
	view.nquick = 0;
	return m;
}

static void model_free(struct model *m)
{
	void *ref = m->ref;

	iv_fixture_teardown(&ref);
	ui_view_free(&view.v);
	free(m);
}

/* The view's settings change now and then (each: a full build, then quick). */
static void view_settings(int i)
{
	static const uint32_t some[] = { 101, 104, 110, 115 };

	view.o.sort_id = i % 20 < 10 ? PTOP_COL_TOTAL :
			 i % 20 < 15 ? PTOP_COL_PID : PTOP_COL_COMMAND;
	/* the direction alone changes at 13 */
	view.o.sort_asc = (i % 20 >= 10 && i % 20 < 13) || i % 20 >= 15;
	view.o.pids = i % 40 >= 30 ? some : NULL;
	view.o.npids = i % 40 >= 30 ? 4 : 0;
	assert_int_equal(ui_view_set_filter(&view.v, i % 30 >= 25 ? "p1" : "",
					    false, NULL, 0), 0);
	if (i == 7)
		assert_int_equal(ui_pidset_add(&view.v.tagged, 103), 0);
	if (i == 41)
		ui_pidset_del(&view.v.tagged, 103);
}

static void run(void **state, unsigned int seed, bool exits)
{
	struct iv_fixture *f = *state;
	struct model *m = model_new(seed, 20);
	bool changed[NPROC_MAX];
	int i, quick = 0, steps = 60, nexit = 0, qexit = 0;

	iv_fixture_open(f, CAPS_KMOD | PTOP_CAP_INCREMENTAL);
	step(f, m, true, false, changed);
	step(f, m, false, false, changed);
	compute_both(f);
	for (i = 0; i < steps; i++) {
		bool full = i % 25 == 24;	/* now and then a full answer */

		view_settings(i);
		step(f, m, full, exits && i % 3 == 0, changed);
		if (!full)
			assert_upd_lists(ptop_snap_cur(&f->snap), changed, m);
		if (compute_both(f)) {
			quick++;
			qexit += ptop_snap_cur(&f->snap)->nexits > 0;
		}
		nexit += !full && ptop_snap_cur(&f->snap)->nexits > 0;
	}
	/* the comparisons mean something only if the quick paths ran */
	assert_true(quick >= steps / 2);
	/* with exits too: an interval with EXIT records is quick as well */
	if (exits) {
		assert_true(nexit >= steps / 6);
		assert_true(qexit >= nexit * 3 / 4);
	}
	/* (the flat view with dead rows listed is built in full then) */
	assert_true(exited_list || view.nquick >= quick / 2);
	if (!exits)
		assert_true(quick < steps);	/* the full answers were not */
	model_free(m);
}

static void test_quick_equals_full(void **state)
{
	run(state, 1, false);
}

static void test_quick_equals_full_seed2(void **state)
{
	run(state, 77, false);
}

static void test_quick_with_exits(void **state)
{
	run(state, 5, true);
}

/* More scripts with exits, each on a fresh fixture. */
static void test_quick_with_exits_seeds(void **state)
{
	unsigned int seed;

	for (seed = 100; seed < 120; seed++) {
		assert_int_equal(iv_fixture_teardown(state), 0);
		assert_int_equal(iv_fixture_setup(state), 0);
		run(state, seed, true);
	}
}

/* Thread mode (-H): the same scripts, one row per thread. */
static void test_threads_quick_equals_full(void **state)
{
	thr_mode = true;
	run(state, 1, false);
	thr_mode = false;
}

static void test_threads_quick_with_exits_seeds(void **state)
{
	unsigned int seed;

	thr_mode = true;
	for (seed = 200; seed < 220; seed++) {
		assert_int_equal(iv_fixture_teardown(state), 0);
		assert_int_equal(iv_fixture_setup(state), 0);
		run(state, seed, true);
	}
	thr_mode = false;
}

/* The tree view over the same scripts, the dead of each interval shown. */
static void test_tree_quick_with_exits_seeds(void **state)
{
	unsigned int seed;

	tree_mode = true;
	for (seed = 300; seed < 310; seed++) {
		assert_int_equal(iv_fixture_teardown(state), 0);
		assert_int_equal(iv_fixture_setup(state), 0);
		run(state, seed, true);
		thr_mode = !thr_mode;
	}
	thr_mode = false;
	tree_mode = false;
}

/*
 * The flat view with the dead listed: an interval with dead rows to show
 * is built in full (the flat quick build adds none; it once took such
 * intervals and showed no dead rows at all).
 */
static void test_exited_list_seeds(void **state)
{
	unsigned int seed;

	exited_list = true;
	for (seed = 400; seed < 405; seed++) {
		assert_int_equal(iv_fixture_teardown(state), 0);
		assert_int_equal(iv_fixture_setup(state), 0);
		run(state, seed, true);
	}
	exited_list = false;
}

/* A switch between processes and threads: one full interval, then quick. */
static void test_threads_mode_switch(void **state)
{
	struct iv_fixture *f = *state;
	struct model *m = model_new(3, 5);
	bool changed[NPROC_MAX];
	int i;

	iv_fixture_open(f, CAPS_KMOD | PTOP_CAP_INCREMENTAL);
	step(f, m, true, false, changed);
	for (i = 0; i < 6; i++) {
		thr_mode = i >= 3;
		step(f, m, false, false, changed);
		/* the first of each mode is full, the next quick */
		assert_true(compute_both(f) == (i != 0 && i != 3));
	}
	/* back to processes: the first is full, the next quick */
	thr_mode = false;
	step(f, m, false, false, changed);
	assert_false(compute_both(f));
	step(f, m, false, false, changed);
	assert_true(compute_both(f));
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		iv_test(test_quick_equals_full),
		iv_test(test_quick_equals_full_seed2),
		iv_test(test_quick_with_exits),
		iv_test(test_quick_with_exits_seeds),
		iv_test(test_threads_quick_equals_full),
		iv_test(test_threads_quick_with_exits_seeds),
		iv_test(test_threads_mode_switch),
		iv_test(test_tree_quick_with_exits_seeds),
		iv_test(test_exited_list_seeds),
	};

	return cmocka_run_group_tests_name("interval_quick", tests, NULL, NULL);
}
