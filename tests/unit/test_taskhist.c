// SPDX-License-Identifier: GPL-2.0
/*
 * The per-process screen's history (ui/taskhist.c): a point per interval
 * with the task's own, c*, x* and steal as its rows had them (its
 * threads' rows added up in thread mode), a reused pid is another task,
 * the rings keep the newest, the exited children come from the EXIT
 * records of groups whose parent is the task, with their exit status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/taskhist.h"

#define MS 1000000ULL

struct fx {
	struct ui_taskhist h;
	struct ptop_interval iv;
	struct ptop_row rows[8];
	struct ptop_snap snap;
	struct ptop_rec exits[8];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	ui_taskhist_init(&f->h);
	f->iv.rows = f->rows;
	f->iv.ncpu = 2;
	f->iv.interval_ns = 1000 * MS;
	f->snap.exits = f->exits;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static struct ptop_row *row(struct fx *f, uint32_t pid, uint32_t tgid,
			    uint64_t start, uint64_t user, uint64_t sys)
{
	struct ptop_row *r = &f->rows[f->iv.nrows++];

	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->tgid = tgid;
	r->start_ns = start;
	r->user = user;
	r->sys = sys;
	r->has = PTOP_DATA_C | PTOP_DATA_X;
	return r;
}

static struct ptop_rec *exit_rec(struct fx *f, uint16_t kind, uint32_t pid,
				 uint32_t ppid, uint64_t start, uint32_t code)
{
	struct ptop_rec *e = &f->exits[f->snap.nexits++];

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->flags = PTOP_RECF_EXIT;
	e->pid = e->tgid = pid;
	e->ppid = ppid;
	e->start_ns = start;
	e->exit_code = code;
	snprintf(e->comm, sizeof(e->comm), "kid%u", pid);
	return e;
}

/* the next interval: no rows, no exits, ending 1 s later */
static void next(struct fx *f)
{
	f->iv.nrows = 0;
	f->snap.nexits = 0;
	f->iv.time_ns += 1000 * MS;
}

static void test_process_row(void **state)
{
	struct fx *f = *state;
	const struct ui_th_task *t;
	const struct ui_th_point *p;
	struct ptop_row *r;

	ui_taskhist_follow(&f->h, 100, 5);
	next(f);
	row(f, 99, 99, 1, 50 * MS, 50 * MS);
	r = row(f, 100, 100, 5, 300 * MS, 20 * MS);
	r->cuser = 7 * MS;
	r->csys = 3 * MS;
	r->xuser = 11 * MS;
	r->xsys = 13 * MS;
	row(f, 101, 101, 6, 40 * MS, 40 * MS);
	ui_taskhist_feed(&f->h, &f->iv, &f->snap);

	t = ui_taskhist_find(&f->h, 100, 5);
	assert_non_null(t);
	assert_int_equal(t->npts, 1);
	assert_false(t->gone);
	p = ui_th_point(t, 0);
	assert_true(p->present);
	assert_int_equal(p->user, 300 * MS);
	assert_int_equal(p->sys, 20 * MS);
	assert_int_equal(p->cuser, 7 * MS);
	assert_int_equal(p->csys, 3 * MS);
	assert_int_equal(p->xuser, 11 * MS);
	assert_int_equal(p->xsys, 13 * MS);
	assert_int_equal(ui_th_total(p), 354 * MS);
	assert_int_equal(p->end_ns, f->iv.time_ns);
	assert_int_equal(p->has, PTOP_DATA_C | PTOP_DATA_X);
	assert_null(ui_th_point(t, 1));
}

static void test_thread_mode_adds_threads(void **state)
{
	struct fx *f = *state;
	const struct ui_th_task *t;
	const struct ui_th_point *p;

	ui_taskhist_follow(&f->h, 100, 5);
	next(f);
	f->iv.threads = true;
	row(f, 100, 100, 5, 100 * MS, 10 * MS)->cuser = 1 * MS;
	row(f, 102, 100, 8, 200 * MS, 20 * MS);
	row(f, 103, 100, 9, 300 * MS, 30 * MS);
	row(f, 104, 104, 9, 999 * MS, 999 * MS);	/* another process */
	ui_taskhist_feed(&f->h, &f->iv, &f->snap);
	t = ui_taskhist_find(&f->h, 100, 5);
	p = ui_th_point(t, 0);
	assert_int_equal(p->user, 600 * MS);
	assert_int_equal(p->sys, 60 * MS);
	assert_int_equal(p->cuser, 1 * MS);
}

static void test_reused_pid_is_gone(void **state)
{
	struct fx *f = *state;
	const struct ui_th_task *t;

	ui_taskhist_follow(&f->h, 100, 5);
	next(f);
	row(f, 100, 100, 5, 10 * MS, 0);
	ui_taskhist_feed(&f->h, &f->iv, &f->snap);
	next(f);
	row(f, 100, 100, 77, 500 * MS, 0);	/* the pid, another task */
	exit_rec(f, PTOP_REC_GROUP, 100, 1, 5, 9);	/* ours: killed */
	ui_taskhist_feed(&f->h, &f->iv, &f->snap);
	t = ui_taskhist_find(&f->h, 100, 5);
	assert_int_equal(t->npts, 2);
	assert_true(t->gone);
	assert_true(t->have_exit);
	assert_int_equal(t->exit_code, 9);
	assert_false(ui_th_point(t, 1)->present);
	assert_int_equal(ui_th_total(ui_th_point(t, 1)), 0);
	assert_null(ui_taskhist_find(&f->h, 100, 77));
}

static void test_ring_keeps_newest(void **state)
{
	struct fx *f = *state;
	const struct ui_th_task *t;
	struct ui_th_point sum;
	size_t i, n = UI_TH_DEPTH + 5;

	ui_taskhist_follow(&f->h, 100, 5);
	for (i = 1; i <= n; i++) {
		next(f);
		row(f, 100, 100, 5, i * MS, 0);
		ui_taskhist_feed(&f->h, &f->iv, &f->snap);
	}
	t = ui_taskhist_find(&f->h, 100, 5);
	assert_int_equal(t->npts, UI_TH_DEPTH);
	assert_int_equal(ui_th_point(t, 0)->user, 6 * MS);
	assert_int_equal(ui_th_point(t, UI_TH_DEPTH - 1)->user, n * MS);
	/* the newest 3: n + n-1 + n-2 */
	ui_th_sum(t, 3, &sum);
	assert_int_equal(sum.user, (3 * n - 3) * MS);
	assert_int_equal(sum.interval_ns, 3000 * MS);
	ui_th_sum(t, 1000, &sum);
	assert_int_equal(sum.user, (n * (n + 1) / 2 - 15) * MS);
}

static void test_exited_children(void **state)
{
	struct fx *f = *state;
	const struct ui_th_task *t;
	const struct ui_th_exit *x;
	struct ptop_rec *e;

	ui_taskhist_follow(&f->h, 100, 5);
	next(f);
	row(f, 100, 100, 5, 0, 0);
	e = exit_rec(f, PTOP_REC_GROUP, 200, 100, 50, 3 << 8);
	e->utime_ns = 70 * MS;
	e->xutime_ns = 5 * MS;
	e->stime_ns = 2 * MS;
	exit_rec(f, PTOP_REC_THREAD, 201, 100, 51, 0);	/* a thread: no */
	exit_rec(f, PTOP_REC_GROUP, 202, 99, 52, 0);	/* not its child */
	exit_rec(f, PTOP_REC_GROUP, 203, 100, 1, 0);	/* older than it */
	ui_taskhist_feed(&f->h, &f->iv, &f->snap);
	next(f);
	row(f, 100, 100, 5, 0, 0);
	exit_rec(f, PTOP_REC_GROUP, 204, 100, 60, 15);
	ui_taskhist_feed(&f->h, &f->iv, &f->snap);

	t = ui_taskhist_find(&f->h, 100, 5);
	assert_int_equal(t->nex, 2);
	assert_false(t->have_exit);
	x = ui_th_exit(t, 0);	/* the newest first */
	assert_int_equal(x->pid, 204);
	assert_int_equal(x->exit_code, 15);
	assert_int_equal(x->seen_ns, f->iv.time_ns);
	x = ui_th_exit(t, 1);
	assert_int_equal(x->pid, 200);
	assert_int_equal(x->exit_code, 3 << 8);
	assert_int_equal(x->user_ns, 75 * MS);
	assert_int_equal(x->sys_ns, 2 * MS);
	assert_string_equal(x->comm, "kid200");
	assert_null(ui_th_exit(t, 2));
}

static void test_exit_ring_wraps(void **state)
{
	struct fx *f = *state;
	const struct ui_th_task *t;
	size_t i;

	ui_taskhist_follow(&f->h, 100, 5);
	for (i = 0; i < UI_TH_EXITS + 3; i++) {
		next(f);
		exit_rec(f, PTOP_REC_GROUP, 1000 + (uint32_t)i, 100, 10, 0);
		ui_taskhist_feed(&f->h, &f->iv, &f->snap);
	}
	t = ui_taskhist_find(&f->h, 100, 5);
	assert_int_equal(t->nex, UI_TH_EXITS);
	assert_int_equal(ui_th_exit(t, 0)->pid, 1000 + UI_TH_EXITS + 2);
	assert_int_equal(ui_th_exit(t, UI_TH_EXITS - 1)->pid, 1003);
}

static void test_follow_lru(void **state)
{
	struct fx *f = *state;
	uint32_t pid;

	for (pid = 1; pid <= UI_TH_TASKS; pid++)
		ui_taskhist_follow(&f->h, pid, pid);
	next(f);
	row(f, 1, 1, 1, 10 * MS, 0);
	ui_taskhist_feed(&f->h, &f->iv, &f->snap);
	/* 1 followed again: 2 is the least recent and gives way */
	ui_taskhist_follow(&f->h, 1, 1);
	ui_taskhist_follow(&f->h, 50, 50);
	assert_null(ui_taskhist_find(&f->h, 2, 2));
	assert_non_null(ui_taskhist_find(&f->h, 50, 50));
	assert_int_equal(ui_taskhist_find(&f->h, 1, 1)->npts, 1);
	assert_int_equal(ui_taskhist_find(&f->h, 50, 50)->npts, 0);
	assert_int_equal(ui_th_point(ui_taskhist_find(&f->h, 1, 1), 0)->user,
			 10 * MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_process_row, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_mode_adds_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reused_pid_is_gone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_keeps_newest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exited_children, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_ring_wraps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_follow_lru, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
