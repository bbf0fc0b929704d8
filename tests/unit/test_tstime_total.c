// SPDX-License-Identifier: GPL-2.0
/*
 * tstime's total and verdict (tstime/tstime_total.c, compiled in): which
 * counter gives the total, "exact" only within 0.5% of the run's cgroup
 * counter or where nothing can be missing, and the bound and why
 * otherwise; never below wait4's sum.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tstime/tstime_total.c"

#define MS 1000000ULL

/* records (user, sys) as the source leaves them, wait4's split */
static struct tstime_result res_of(uint64_t rec_u, uint64_t rec_s,
				   uint64_t ru_u, uint64_t ru_s, int records)
{
	struct tstime_result r = {
		.user_ns = rec_u, .sys_ns = rec_s,
		.ru_user_ns = ru_u, .ru_sys_ns = ru_s,
		.has_records = records,
	};

	return r;
}

static void test_cgroup_exact(void **state)
{
	/* a fork-exec loop: records miss the exit paths, the cgroup not */
	struct tstime_result r = res_of(150 * MS, 20 * MS, 100 * MS, 160 * MS, 1);
	struct tstime_cg_stat cs = { 261 * MS, 101 * MS, 160 * MS };

	(void)state;
	tstime_total(&r, &cs, 0, 0, 0);
	assert_string_equal(r.verdict, "exact");
	assert_int_equal(r.exact, 1);
	assert_string_equal(r.total_from, "cgroup");
	assert_int_equal(r.user_ns + r.sys_ns, 261 * MS);
	assert_int_equal(r.user_ns, 101 * MS);
	assert_int_equal(r.exit_paths_ns, 91 * MS);
	assert_int_equal(r.records_ns, 170 * MS);
	assert_int_equal(r.rusage_ns, 260 * MS);
	/* the same from a cgroup v1 cpuacct: said so */
	r = res_of(150 * MS, 20 * MS, 100 * MS, 160 * MS, 1);
	cs.v1 = 1;
	tstime_total(&r, &cs, 0, 0, 0);
	assert_string_equal(r.total_from, "cgroup v1");
	assert_string_equal(r.verdict, "exact");
}

static void test_cgroup_left(void **state)
{
	/* the command moved itself out: wait4 saw more than the cgroup */
	struct tstime_result r = res_of(100 * MS, 50 * MS, 150 * MS, 90 * MS, 1);
	struct tstime_cg_stat cs = { 80 * MS, 40 * MS, 40 * MS };

	(void)state;
	tstime_total(&r, &cs, 0, 0, 0);
	assert_int_equal(r.exact, 0);
	assert_string_equal(r.total_from, "rusage");
	assert_int_equal(r.user_ns + r.sys_ns, 240 * MS);
	assert_int_equal(r.user_ns, 150 * MS);
	assert_non_null(strstr(r.verdict, "inexact: within ±66.67% (a task left the run's cgroup"));
}

static void test_cgroup_tolerance(void **state)
{
	/* wait4 0.4% above the counter: rounding, still exact */
	struct tstime_result r = res_of(0, 0, 1004 * MS, 0, 0);
	struct tstime_cg_stat cs = { 1000 * MS, 600 * MS, 400 * MS };

	(void)state;
	tstime_total(&r, &cs, 0, 0, 0);
	assert_string_equal(r.verdict, "exact");
	assert_string_equal(r.total_from, "cgroup");
	/* never less than wait4's */
	assert_int_equal(r.user_ns + r.sys_ns, 1004 * MS);
	/* 0.7% above: not */
	r = res_of(0, 0, 1007 * MS, 0, 0);
	tstime_total(&r, &cs, 0, 0, 0);
	assert_int_equal(r.exact, 0);
	assert_int_equal(r.user_ns + r.sys_ns, 1007 * MS);
}

static void test_no_cgroup(void **state)
{
	struct tstime_result r = res_of(40 * MS, 8 * MS, 60 * MS, 22 * MS, 1);

	(void)state;
	/* the records add nothing to wait4: nothing can be missing */
	tstime_total(&r, NULL, 0, 0, 0);
	assert_string_equal(r.verdict, "exact");
	assert_string_equal(r.total_from, "rusage");
	assert_int_equal(r.user_ns + r.sys_ns, 82 * MS);
	assert_int_equal(r.exit_paths_ns, 34 * MS);
	/* self-reaped children only in the records: their bound */
	r = res_of(80 * MS, 20 * MS, 20 * MS, 5 * MS, 1);
	tstime_total(&r, NULL, 0, 0, 0);
	assert_int_equal(r.exact, 0);
	assert_string_equal(r.total_from, "records");
	assert_int_equal(r.user_ns + r.sys_ns, 100 * MS);
	assert_non_null(strstr(r.verdict, "inexact: within ±75.00% (75.00% of the total only in per-task records"));
	/* wait4 alone */
	r = res_of(0, 0, 20 * MS, 5 * MS, 0);
	tstime_total(&r, NULL, 0, 0, 0);
	assert_int_equal(r.exact, 0);
	assert_int_equal(r.has_records, 0);
	assert_non_null(strstr(r.verdict, "inexact: no bound"));
}

static void test_no_cgroup_union(void **state)
{
	/*
	 * wait4 saw a loop (60 ms, exit paths in), the records 10 ms more
	 * of self-reaped children: each once, not the larger of the two
	 */
	struct tstime_result r = res_of(40 * MS, 10 * MS, 45 * MS, 15 * MS, 1);

	(void)state;
	r.has_unwaited = 1;
	r.unwaited_ns = 10 * MS;
	r.unwaited_user_ns = 8 * MS;
	tstime_total(&r, NULL, 0, 0, 0);
	assert_string_equal(r.total_from, "rusage + records");
	assert_int_equal(r.user_ns + r.sys_ns, 70 * MS);
	assert_int_equal(r.user_ns, 53 * MS);
	assert_int_equal(r.exact, 0);
	assert_non_null(strstr(r.verdict, "inexact: within ±14.29% (14.29% of the total from per-task records of tasks wait4 did not reap"));
	/* nothing unreaped: wait4's, exact */
	r = res_of(40 * MS, 10 * MS, 45 * MS, 15 * MS, 1);
	r.has_unwaited = 1;
	tstime_total(&r, NULL, 0, 0, 0);
	assert_string_equal(r.verdict, "exact");
	assert_string_equal(r.total_from, "rusage");
	assert_int_equal(r.user_ns + r.sys_ns, 60 * MS);
	/* the records alone saw more (a parent not asked in time) */
	r = res_of(80 * MS, 20 * MS, 20 * MS, 5 * MS, 1);
	r.has_unwaited = 1;
	r.unwaited_ns = 10 * MS;
	tstime_total(&r, NULL, 0, 0, 0);
	assert_string_equal(r.total_from, "records");
	assert_int_equal(r.user_ns + r.sys_ns, 100 * MS);
}

static void test_left_and_lost(void **state)
{
	struct tstime_result r = res_of(0, 0, 100 * MS, 0, 0);
	struct tstime_cg_stat cs = { 100 * MS, 50 * MS, 50 * MS };

	(void)state;
	tstime_total(&r, &cs, 0, 0, 1);
	assert_int_equal(r.exact, 0);
	assert_string_equal(r.verdict,
			    "inexact: not bounded: descendants still running were not waited for");
	/* lost records do not matter to the cgroup's total */
	r = res_of(50 * MS, 0, 100 * MS, 0, 1);
	tstime_total(&r, &cs, 0, 1, 0);
	assert_string_equal(r.verdict, "exact");
	/* without one they do */
	r = res_of(50 * MS, 0, 100 * MS, 0, 1);
	tstime_total(&r, NULL, 0, 1, 0);
	assert_int_equal(r.exact, 0);
	assert_non_null(strstr(r.verdict, "not bounded: exit records were lost"));
}

static void test_never_below_wait4(void **state)
{
	/* whatever the counters, the total is at least wait4's */
	static const uint64_t c[] = { 0, 10, 99, 100, 101, 1000 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct tstime_result r = res_of(30 * MS, 0, 70 * MS, 30 * MS, 1);
		struct tstime_cg_stat cs = { c[i] * MS, c[i] * MS / 2, c[i] * MS / 2 };

		tstime_total(&r, &cs, 0, 0, 0);
		assert_true(r.user_ns + r.sys_ns >= 100 * MS);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_exact),
		cmocka_unit_test(test_cgroup_left),
		cmocka_unit_test(test_cgroup_tolerance),
		cmocka_unit_test(test_no_cgroup),
		cmocka_unit_test(test_no_cgroup_union),
		cmocka_unit_test(test_left_and_lost),
		cmocka_unit_test(test_never_below_wait4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
