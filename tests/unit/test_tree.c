// SPDX-License-Identifier: GPL-2.0
/*
 * Tree order on scripted rows: depth first, siblings by the sort column,
 * depth set, orphans become roots, ppid cycles neither hang nor lose rows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/tree.h"

#define MS 1000000ULL

static struct ptop_row mk(uint32_t pid, uint32_t ppid, uint64_t total)
{
	struct ptop_row r;

	memset(&r, 0, sizeof(r));
	r.pid = r.tgid = pid;
	r.ppid = ppid;
	r.total = total;
	r.depth = -7;	/* must be overwritten */
	snprintf(r.comm, sizeof(r.comm), "p%u", pid);
	return r;
}

static void expect(const struct ptop_row *rows, size_t n,
		   const uint32_t *pids, const int *depths)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (rows[i].pid != pids[i] || rows[i].depth != depths[i])
			fail_msg("row %zu: pid %u depth %d, want pid %u depth %d",
				 i, rows[i].pid, rows[i].depth, pids[i], depths[i]);
	}
}

/*
 *   1 ─┬─ 10 ─┬─ 100
 *      │      └─ 101
 *      └─ 20 ── 200
 */
static void test_order_and_depth(void **state)
{
	struct ptop_row rows[] = {
		mk(200, 20, 5 * MS), mk(10, 1, 1 * MS), mk(101, 10, 9 * MS),
		mk(1, 0, 0), mk(20, 1, 3 * MS), mk(100, 10, 2 * MS),
	};
	/* by total descending: siblings 20 (3) before 10 (1); 101 before 100 */
	const uint32_t pids[] = { 1, 20, 200, 10, 101, 100 };
	const int depths[] = { 0, 1, 2, 1, 2, 2 };
	const uint32_t pids_asc[] = { 1, 10, 100, 101, 20, 200 };
	const int depths_asc[] = { 0, 1, 2, 2, 1, 2 };

	(void)state;
	assert_int_equal(ui_tree_order(rows, 6, PTOP_COL_TOTAL, false), 0);
	expect(rows, 6, pids, depths);
	/* ascending by pid */
	assert_int_equal(ui_tree_order(rows, 6, PTOP_COL_PID, true), 0);
	expect(rows, 6, pids_asc, depths_asc);
	/* ascending by total: 10 (1) before 20 (3), 100 (2) before 101 (9) */
	assert_int_equal(ui_tree_order(rows, 6, PTOP_COL_TOTAL, true), 0);
	expect(rows, 6, pids_asc, depths_asc);
}

/* Parents that are not shown: their children are roots, in sort order. */
static void test_orphans_are_roots(void **state)
{
	struct ptop_row rows[] = {
		mk(5, 4, 1 * MS), mk(7, 99, 8 * MS), mk(6, 5, 0), mk(8, 0, 4 * MS),
	};
	const uint32_t pids[] = { 7, 8, 5, 6 };
	const int depths[] = { 0, 0, 0, 1 };

	(void)state;
	assert_int_equal(ui_tree_order(rows, 4, PTOP_COL_TOTAL, false), 0);
	expect(rows, 4, pids, depths);
}

/* ppid cycles (1 -> 2 -> 3 -> 1, and a self-parent): no hang, all rows. */
static void test_cycles(void **state)
{
	struct ptop_row rows[] = {
		mk(1, 3, 1 * MS), mk(2, 1, 2 * MS), mk(3, 2, 3 * MS),
		mk(9, 9, 0), mk(50, 0, 0), mk(51, 50, 0),
	};
	bool seen[6] = { false };
	size_t i, j;

	(void)state;
	assert_int_equal(ui_tree_order(rows, 6, PTOP_COL_TOTAL, false), 0);
	for (i = 0; i < 6; i++) {
		for (j = 0; j < 6; j++) {
			static const uint32_t all[] = { 1, 2, 3, 9, 50, 51 };

			if (rows[i].pid == all[j]) {
				assert_false(seen[j]);
				seen[j] = true;
			}
		}
		assert_true(rows[i].depth >= 0 && rows[i].depth < 6);
	}
	for (j = 0; j < 6; j++)
		assert_true(seen[j]);
	/* the self-parent is a root; the cycle is broken at its top row */
	for (i = 0; i < 6; i++)
		if (rows[i].pid == 9 || rows[i].pid == 50 || rows[i].pid == 3)
			assert_int_equal(rows[i].depth, 0);
	/* the true roots first; the cycle after them, 3 -> 1 -> 2 */
	assert_int_equal(rows[3].pid, 3);
	assert_int_equal(rows[4].pid, 1);
	assert_int_equal(rows[4].depth, 1);
	assert_int_equal(rows[5].pid, 2);
	assert_int_equal(rows[5].depth, 2);
}

/* Thread rows hang under their process's leader thread. */
static void test_threads(void **state)
{
	struct ptop_row rows[] = {
		mk(11, 1, 1 * MS), mk(10, 1, 0), mk(12, 1, 2 * MS), mk(1, 0, 0),
	};
	const uint32_t pids[] = { 1, 10, 12, 11 };
	const int depths[] = { 0, 1, 2, 2 };
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		rows[i].is_thread = true;
	rows[0].tgid = 10;	/* 11 and 12 are threads of 10 */
	rows[2].tgid = 10;
	assert_int_equal(ui_tree_order(rows, 4, PTOP_COL_TOTAL, false), 0);
	expect(rows, 4, pids, depths);
}

/* A long chain: no recursion, depth grows to n - 1. */
static void test_deep_chain(void **state)
{
	enum { N = 100000 };
	struct ptop_row *rows = calloc(N, sizeof(*rows));
	size_t i;

	(void)state;
	assert_non_null(rows);
	for (i = 0; i < N; i++)
		rows[i] = mk(N - i, N - i - 1, i);
	assert_int_equal(ui_tree_order(rows, N, PTOP_COL_TOTAL, false), 0);
	for (i = 0; i < N; i++) {
		assert_int_equal(rows[i].pid, i + 1);
		assert_int_equal(rows[i].depth, (int)i);
	}
	free(rows);
}

static void test_empty_and_one(void **state)
{
	struct ptop_row r = mk(1, 1, 0);

	(void)state;
	assert_int_equal(ui_tree_order(NULL, 0, PTOP_COL_TOTAL, false), 0);
	assert_int_equal(ui_tree_order(&r, 1, PTOP_COL_TOTAL, false), 0);
	assert_int_equal(r.depth, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_depth),
		cmocka_unit_test(test_orphans_are_roots),
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_deep_chain),
		cmocka_unit_test(test_empty_and_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
