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

#include "ui/view.h"

#define MS 1000000ULL

static struct ui_vrow mk(uint32_t pid, uint32_t ppid, uint64_t total)
{
	struct ui_vrow v;
	struct ptop_row *r = &v.r;

	memset(&v, 0, sizeof(v));
	r->pid = r->tgid = pid;
	r->ppid = ppid;
	r->acct_ppid = ppid;
	r->total = total;
	r->user = total;
	v.depth = r->depth = -7;	/* must be overwritten */
	snprintf(r->comm, sizeof(r->comm), "p%u", pid);
	return v;
}

static void expect(const struct ui_vrow *rows, size_t n,
		   const uint32_t *pids, const int *depths)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (rows[i].r.pid != pids[i] || rows[i].depth != depths[i] ||
		    rows[i].r.depth != depths[i])
			fail_msg("row %zu: pid %u depth %d, want pid %u depth %d",
				 i, rows[i].r.pid, rows[i].depth, pids[i], depths[i]);
	}
}

/*
 *   1 ─┬─ 10 ─┬─ 100
 *      │      └─ 101
 *      └─ 20 ── 200
 */
static void test_order_and_depth(void **state)
{
	struct ui_vrow rows[] = {
		mk(200, 20, 5 * MS), mk(10, 1, 1 * MS), mk(101, 10, 9 * MS),
		mk(1, 0, 0), mk(20, 1, 3 * MS), mk(100, 10, 2 * MS),
	};
	/*
	 * by total descending, siblings by their branch's sums: 10 (1 + 2 +
	 * 9 = 12) before 20 (3 + 5 = 8); 101 (9) before 100 (2)
	 */
	const uint32_t pids[] = { 1, 10, 101, 100, 20, 200 };
	const int depths[] = { 0, 1, 2, 2, 1, 2 };
	const uint32_t pids_asc[] = { 1, 10, 100, 101, 20, 200 };
	const int depths_asc[] = { 0, 1, 2, 2, 1, 2 };
	const uint32_t pids_tasc[] = { 1, 20, 200, 10, 100, 101 };
	const int depths_tasc[] = { 0, 1, 2, 1, 2, 2 };

	(void)state;
	assert_int_equal(ui_tree_build(rows, 6, PTOP_COL_TOTAL, false, NULL), 6);
	expect(rows, 6, pids, depths);
	/* ascending by pid: not a sum, by the rows' own */
	assert_int_equal(ui_tree_build(rows, 6, PTOP_COL_PID, true, NULL), 6);
	expect(rows, 6, pids_asc, depths_asc);
	/* ascending by total: 20 (8) before 10 (12), 100 (2) before 101 (9) */
	assert_int_equal(ui_tree_build(rows, 6, PTOP_COL_TOTAL, true, NULL), 6);
	expect(rows, 6, pids_tasc, depths_tasc);
}

/* Parents that are not shown: their children are roots, in sort order. */
static void test_orphans_are_roots(void **state)
{
	struct ui_vrow rows[] = {
		mk(5, 4, 1 * MS), mk(7, 99, 8 * MS), mk(6, 5, 0), mk(8, 0, 4 * MS),
	};
	const uint32_t pids[] = { 7, 8, 5, 6 };
	const int depths[] = { 0, 0, 0, 1 };

	(void)state;
	assert_int_equal(ui_tree_build(rows, 4, PTOP_COL_TOTAL, false, NULL), 4);
	expect(rows, 4, pids, depths);
}

/* ppid cycles (1 -> 2 -> 3 -> 1, and a self-parent): no hang, all rows. */
static void test_cycles(void **state)
{
	struct ui_vrow rows[] = {
		mk(1, 3, 1 * MS), mk(2, 1, 2 * MS), mk(3, 2, 3 * MS),
		mk(9, 9, 0), mk(50, 0, 0), mk(51, 50, 0),
	};
	bool seen[6] = { false };
	size_t i, j;

	(void)state;
	assert_int_equal(ui_tree_build(rows, 6, PTOP_COL_TOTAL, false, NULL), 6);
	for (i = 0; i < 6; i++) {
		for (j = 0; j < 6; j++) {
			static const uint32_t all[] = { 1, 2, 3, 9, 50, 51 };

			if (rows[i].r.pid == all[j]) {
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
		if (rows[i].r.pid == 9 || rows[i].r.pid == 50 || rows[i].r.pid == 3)
			assert_int_equal(rows[i].depth, 0);
	/* the true roots first; the cycle after them, 3 -> 1 -> 2 */
	assert_int_equal(rows[3].r.pid, 3);
	assert_int_equal(rows[4].r.pid, 1);
	assert_int_equal(rows[4].depth, 1);
	assert_int_equal(rows[5].r.pid, 2);
	assert_int_equal(rows[5].depth, 2);
}

/* Thread rows hang under their process's leader thread. */
static void test_threads(void **state)
{
	struct ui_vrow rows[] = {
		mk(11, 1, 1 * MS), mk(10, 1, 0), mk(12, 1, 2 * MS), mk(1, 0, 0),
	};
	const uint32_t pids[] = { 1, 10, 12, 11 };
	const int depths[] = { 0, 1, 2, 2 };
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		rows[i].r.is_thread = true;
	rows[0].r.tgid = 10;	/* 11 and 12 are threads of 10 */
	rows[2].r.tgid = 10;
	assert_int_equal(ui_tree_build(rows, 4, PTOP_COL_TOTAL, false, NULL), 4);
	expect(rows, 4, pids, depths);
}

/* A long chain: no recursion, depth grows to n - 1. */
static void test_deep_chain(void **state)
{
	enum { N = 100000 };
	struct ui_vrow *rows = calloc(N, sizeof(*rows));
	size_t i;

	(void)state;
	assert_non_null(rows);
	for (i = 0; i < N; i++)
		rows[i] = mk(N - i, N - i - 1, i);
	assert_int_equal(ui_tree_build(rows, N, PTOP_COL_TOTAL, false, NULL), N);
	for (i = 0; i < N; i++) {
		assert_int_equal(rows[i].r.pid, i + 1);
		assert_int_equal(rows[i].depth, (int)i);
	}
	free(rows);
}

static void test_empty_and_one(void **state)
{
	struct ui_vrow r = mk(1, 1, 0);

	(void)state;
	assert_int_equal(ui_tree_build(NULL, 0, PTOP_COL_TOTAL, false, NULL), 0);
	assert_int_equal(ui_tree_build(&r, 1, PTOP_COL_TOTAL, false, NULL), 1);
	assert_int_equal(r.depth, 0);
}

/* The lines: ├─ for a row with a later sibling, └─ for the last, │ below. */
static void test_lines(void **state)
{
	struct ui_vrow rows[] = {
		mk(1, 0, 0), mk(10, 1, 3 * MS), mk(100, 10, 2 * MS),
		mk(101, 10, 1 * MS), mk(20, 1, 1 * MS),
	};
	char buf[128];

	(void)state;
	assert_int_equal(ui_tree_build(rows, 5, PTOP_COL_TOTAL, false, NULL), 5);
	/* 1, 10, 100, 101, 20 */
	ui_tree_prefix(&rows[0], true, buf, sizeof(buf));
	assert_string_equal(buf, "");
	ui_tree_prefix(&rows[1], true, buf, sizeof(buf));
	assert_string_equal(buf, "\u251c\u2500 ");	/* ├─ */
	ui_tree_prefix(&rows[2], true, buf, sizeof(buf));
	assert_string_equal(buf, "\u2502 \u251c\u2500 ");	/* │ ├─ */
	ui_tree_prefix(&rows[3], true, buf, sizeof(buf));
	assert_string_equal(buf, "\u2502 \u2514\u2500 ");	/* │ └─ */
	ui_tree_prefix(&rows[4], true, buf, sizeof(buf));
	assert_string_equal(buf, "\u2514\u2500 ");	/* └─ */
	ui_tree_prefix(&rows[3], false, buf, sizeof(buf));
	assert_string_equal(buf, "| `- ");
	assert_true(rows[0].has_kids && rows[1].has_kids);
	assert_false(rows[2].has_kids || rows[4].has_kids);
}

/*
 * Subtree totals: own + everything below; a collapsed branch is one row
 * with the branch's sums and how many rows it hides.
 */
static void test_collapse_and_totals(void **state)
{
	struct ui_vrow rows[] = {
		mk(1, 0, 1 * MS), mk(10, 1, 3 * MS), mk(100, 10, 2 * MS),
		mk(101, 10, 5 * MS), mk(1000, 101, 7 * MS), mk(20, 1, 11 * MS),
	};
	struct ui_vrow copy[6];
	struct ui_pidset col = { 0 };
	long n;

	(void)state;
	memcpy(copy, rows, sizeof(rows));
	assert_int_equal(ui_tree_build(rows, 6, PTOP_COL_PID, true, NULL), 6);
	/* 1, 10, 100, 101, 1000, 20 */
	assert_int_equal(rows[0].subtree_ns, 29 * MS);
	assert_int_equal(rows[1].subtree_ns, 17 * MS);
	assert_int_equal(rows[3].subtree_ns, 12 * MS);
	assert_int_equal(rows[4].subtree_ns, 7 * MS);
	assert_int_equal(rows[1].r.total, 3 * MS);	/* open: its own */

	assert_int_equal(ui_pidset_add(&col, 10), 0);
	memcpy(rows, copy, sizeof(rows));
	n = ui_tree_build(rows, 6, PTOP_COL_PID, true, &col);
	assert_int_equal(n, 3);		/* 1, 10 (+3 hidden), 20 */
	assert_int_equal(rows[1].r.pid, 10);
	assert_true(rows[1].collapsed);
	assert_int_equal(rows[1].nhidden, 3);
	assert_int_equal(rows[1].r.total, 17 * MS);
	assert_int_equal(rows[1].r.user, 17 * MS);
	assert_string_equal(rows[1].r.comm, "p10");
	assert_int_equal(rows[2].r.pid, 20);
	assert_int_equal(rows[0].subtree_ns, 29 * MS);	/* the root's is whole */

	/* collapsing the root folds everything; a leaf cannot collapse */
	assert_int_equal(ui_pidset_add(&col, 1), 0);
	assert_int_equal(ui_pidset_add(&col, 20), 0);
	memcpy(rows, copy, sizeof(rows));
	n = ui_tree_build(rows, 6, PTOP_COL_PID, true, &col);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].r.total, 29 * MS);
	assert_int_equal(rows[0].nhidden, 5);
	free(col.pid);
}

/* Dead rows hang in the tree but add nothing: their time is in a c*. */
static void test_exited_not_summed(void **state)
{
	struct ui_vrow rows[] = { mk(1, 0, 4 * MS), mk(5, 1, 3 * MS) };

	(void)state;
	rows[1].exited = true;
	assert_int_equal(ui_tree_build(rows, 2, PTOP_COL_PID, true, NULL), 2);
	assert_int_equal(rows[1].depth, 1);
	assert_int_equal(rows[0].subtree_ns, 4 * MS);
	assert_int_equal(rows[1].subtree_ns, 0);
}

/*
 * An orphan (reparented to init) hangs under its accounting parent, the
 * ancestor it came from, when that one is shown, and is marked.
 */
static void test_orphan_under_ancestor(void **state)
{
	struct ui_vrow rows[] = { mk(1, 0, 0), mk(50, 1, MS), mk(60, 1, 2 * MS) };
	char buf[64];

	(void)state;
	rows[2].r.acct_ppid = 50;	/* 60's parent died; it came from 50 */
	assert_int_equal(ui_tree_build(rows, 3, PTOP_COL_PID, true, NULL), 3);
	assert_int_equal(rows[2].r.pid, 60);
	assert_int_equal(rows[2].depth, 2);
	assert_true(rows[2].orphan);
	assert_false(rows[1].orphan);
	ui_tree_prefix(&rows[2], false, buf, sizeof(buf));
	assert_string_equal(buf, "  `~ ");
	/* the accounting parent not shown: under its real parent, unmarked */
	rows[0] = mk(1, 0, 0);
	rows[1] = mk(70, 1, 0);
	rows[2] = mk(60, 1, 0);
	rows[2].r.acct_ppid = 50;
	assert_int_equal(ui_tree_build(rows, 3, PTOP_COL_PID, true, NULL), 3);
	assert_int_equal(rows[1].r.pid, 60);
	assert_int_equal(rows[1].depth, 1);
	assert_false(rows[1].orphan);
}

/* pid sets: sorted, no duplicates, delete of the absent is harmless */
static void test_pidset(void **state)
{
	struct ui_pidset s = { 0 };
	uint32_t i;

	(void)state;
	for (i = 100; i > 0; i--)
		assert_int_equal(ui_pidset_add(&s, i * 7 % 101), 0);
	assert_int_equal(ui_pidset_add(&s, 7), 0);
	assert_int_equal(s.n, 100);
	for (i = 1; i < s.n; i++)
		assert_true(s.pid[i - 1] < s.pid[i]);
	assert_true(ui_pidset_has(&s, 14));
	ui_pidset_del(&s, 14);
	ui_pidset_del(&s, 14);
	ui_pidset_del(&s, 5000);
	assert_false(ui_pidset_has(&s, 14));
	assert_int_equal(s.n, 99);
	ui_pidset_clear(&s);
	assert_false(ui_pidset_has(&s, 7));
	free(s.pid);
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
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_collapse_and_totals),
		cmocka_unit_test(test_exited_not_summed),
		cmocka_unit_test(test_orphan_under_ancestor),
		cmocka_unit_test(test_pidset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
