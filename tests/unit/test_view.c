// SPDX-License-Identifier: GPL-2.0
/*
 * The view: built from a const interval (nothing in it changes), -p, the
 * text and regex filters, kernel threads, one user, rows for the tasks
 * that died in the interval (their share of it, exit status, in no sum),
 * the schedule.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/view.h"

#define MS 1000000ULL

static struct ptop_row rows[4];
static struct ptop_interval iv;
static struct ui_view_opts opts;

static int setup(void **state)
{
	static const char *const comm[] = { "init", "make", "kworker/0:1", "vim" };
	int i;

	(void)state;
	memset(&iv, 0, sizeof(iv));
	memset(&opts, 0, sizeof(opts));
	for (i = 0; i < 4; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].pid = rows[i].tgid = i + 1;
		rows[i].ppid = i ? 1 : 0;
		rows[i].uid = i == 3 ? 1000 : 0;
		rows[i].total = rows[i].user = (i + 1) * MS;
		snprintf(rows[i].comm, sizeof(rows[i].comm), "%s", comm[i]);
	}
	rows[2].ppid = 2;	/* 3 is a kernel thread (a child of kthreadd) */
	rows[1].pid = rows[1].tgid = 2;
	iv.rows = rows;
	iv.nrows = 4;
	iv.ncpu = 1;
	iv.interval_ns = 1000 * MS;
	opts.sort_id = PTOP_COL_PID;
	opts.sort_asc = true;
	return 0;
}

static void test_const_and_select(void **state)
{
	struct ptop_row before[4];
	struct ui_view v;
	uint32_t pids[] = { 4 };
	char err[200];

	(void)state;
	memcpy(before, rows, sizeof(rows));
	ui_view_init(&v);
	opts.sort_id = PTOP_COL_TOTAL;
	opts.sort_asc = false;
	assert_int_equal(ui_view_build(&v, &opts, &iv, NULL, NULL), 0);
	assert_int_equal(v.nrows, 4);
	assert_int_equal(v.rows[0].r.pid, 4);		/* the biggest total */
	assert_memory_equal(rows, before, sizeof(rows));	/* untouched */
	opts.pids = pids;
	opts.npids = 1;
	ui_view_build(&v, &opts, &iv, NULL, NULL);
	assert_int_equal(v.nrows, 1);
	opts.npids = 0;
	/* text filter on COMMAND, then a regex, then a broken one */
	assert_int_equal(ui_view_set_filter(&v, "MAK", false, err, sizeof(err)), 0);
	ui_view_build(&v, &opts, &iv, NULL, NULL);
	assert_int_equal(v.nrows, 1);
	assert_string_equal(v.rows[0].r.comm, "make");
	assert_int_equal(ui_view_set_filter(&v, "^(init|vim)$", true, err, sizeof(err)), 0);
	ui_view_build(&v, &opts, &iv, NULL, NULL);
	assert_int_equal(v.nrows, 2);
	assert_int_equal(ui_view_set_filter(&v, "([", true, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "bad regex"));
	assert_string_equal(v.filter, "^(init|vim)$");	/* the old one stays */
	ui_view_set_filter(&v, "", false, err, sizeof(err));
	v.hide_kthreads = true;
	ui_view_build(&v, &opts, &iv, NULL, NULL);
	assert_int_equal(v.nrows, 2);	/* kthreadd (2) and its child go */
	v.hide_kthreads = false;
	v.by_user = true;
	v.uid = 1000;
	ui_view_build(&v, &opts, &iv, NULL, NULL);
	assert_int_equal(v.nrows, 1);
	assert_string_equal(v.rows[0].r.comm, "vim");
	ui_view_free(&v);
}

static struct ptop_rec rec(uint32_t pid, uint64_t start, uint64_t u,
				 uint64_t xu)
{
	struct ptop_rec r;

	memset(&r, 0, sizeof(r));
	r.kind = PTOP_REC_GROUP;
	r.pid = r.tgid = pid;
	r.ppid = 2;
	r.acct_ptgid = 2;
	r.start_ns = start;
	r.utime_ns = u;
	r.xutime_ns = xu;
	snprintf(r.comm, sizeof(r.comm), "cc1");
	return r;
}

static void test_exited_rows(void **state)
{
	struct ptop_rec prev_groups[] = { rec(50, 7, 30 * MS, 0) };
	struct ptop_rec exits[] = {
		rec(50, 7, 0, 80 * MS),		/* lived before: 80 - 30 */
		rec(60, 9, 10 * MS, 15 * MS),	/* born and died in it */
		rec(70, 9, 1 * MS, 0),
		rec(80, 9, 10000, 0),		/* 10 us: would show 0.00 */
	};
	struct ptop_snap prev, cur;
	struct ui_view v;

	(void)state;
	memset(&prev, 0, sizeof(prev));
	memset(&cur, 0, sizeof(cur));
	prev.groups = prev_groups;
	prev.ngroups = 1;
	exits[0].exit_code = 0;
	exits[1].exit_code = 9;			/* SIGKILL */
	exits[2].kind = PTOP_REC_THREAD;	/* not a process row */
	cur.exits = exits;
	cur.nexits = 4;
	iv.sum.total = 10 * MS;
	ui_view_init(&v);
	assert_int_equal(ui_view_build(&v, &opts, &iv, &prev, &cur), 0);
	assert_int_equal(v.nrows, 4);	/* dead rows only when asked */
	v.show_exited = true;
	assert_int_equal(ui_view_build(&v, &opts, &iv, &prev, &cur), 0);
	assert_int_equal(v.nrows, 6);
	assert_int_equal(v.nexited_shown, 2);
	assert_int_equal(v.nexited_tiny, 1);	/* counted, not listed */
	assert_int_equal(v.rows[4].r.pid, 50);
	assert_true(v.rows[4].exited);
	assert_int_equal(v.rows[4].r.state, 'X');
	assert_int_equal(v.rows[4].r.user, 50 * MS);	/* its share, as own */
	assert_int_equal(v.rows[4].r.total, 50 * MS);
	assert_int_equal(v.rows[4].r.xuser, 0);
	assert_int_equal(v.rows[5].r.total, 25 * MS);
	assert_int_equal(v.rows[5].exit_code, 9);
	assert_false(v.rows[0].exited);
	assert_int_equal(v.rows[0].exit_code, -1);
	assert_int_equal(iv.sum.total, 10 * MS);	/* in no sum */
	/* in the tree: under their parent, and not in its branch total */
	v.tree = true;
	assert_int_equal(ui_view_build(&v, &opts, &iv, &prev, &cur), 0);
	assert_int_equal(v.rows[1].r.pid, 2);
	assert_int_equal(v.rows[1].subtree_ns, 5 * MS);	/* 2 + 3 (kthread) */
	ui_view_free(&v);
}

static void test_schedule(void **state)
{
	uint64_t d = 0;

	(void)state;
	assert_int_equal(ui_sched_next(&d, 100, 1000), 1100);
	/* absolute: late by 30, the next is still on the grid */
	assert_int_equal(ui_sched_next(&d, 100, 1130), 1200);
	/* behind by more than a step: from now */
	assert_int_equal(ui_sched_next(&d, 100, 5000), 5100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_const_and_select, setup),
		cmocka_unit_test_setup(test_exited_rows, setup),
		cmocka_unit_test_setup(test_schedule, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
