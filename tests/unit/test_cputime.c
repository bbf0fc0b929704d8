// SPDX-License-Identifier: GPL-2.0
/* ptop_cputime_split / ptop_cputime_adjust: exact, proportional, no overflow */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "lib/cputime.h"

static void test_split_exact(void **state)
{
	uint64_t u, s, rt;

	for (rt = 0; rt < 5000; rt += 7) {
		ptop_cputime_split(rt, 3, 7, &u, &s);
		assert_int_equal(u + s, rt);
	}
	ptop_cputime_split(1000000007ULL, 1, 2, &u, &s);
	assert_int_equal(u + s, 1000000007ULL);
}

static void test_split_proportional(void **state)
{
	uint64_t u, s;

	ptop_cputime_split(1000, 1, 3, &u, &s);
	assert_int_equal(u, 250);
	assert_int_equal(s, 750);
	/* raw units do not matter, only the ratio */
	ptop_cputime_split(200000000ULL, 40000, 10000, &u, &s);
	assert_int_equal(u, 160000000ULL);
	assert_int_equal(s, 40000000ULL);
	/* rounding goes to sys, user is floor */
	ptop_cputime_split(10, 1, 2, &u, &s);
	assert_int_equal(u, 3);
	assert_int_equal(s, 7);
}

static void test_split_zero(void **state)
{
	uint64_t u = 1, s = 1;

	ptop_cputime_split(0, 0, 0, &u, &s);
	assert_int_equal(u, 0);
	assert_int_equal(s, 0);
	/* never sampled by a tick: all of it is user time (documented) */
	ptop_cputime_split(12345, 0, 0, &u, &s);
	assert_int_equal(u, 12345);
	assert_int_equal(s, 0);
	ptop_cputime_split(12345, 0, 9, &u, &s);
	assert_int_equal(u, 0);
	assert_int_equal(s, 12345);
	ptop_cputime_split(12345, 9, 0, &u, &s);
	assert_int_equal(u, 12345);
	assert_int_equal(s, 0);
	ptop_cputime_split(0, 5, 9, &u, &s);
	assert_int_equal(u, 0);
	assert_int_equal(s, 0);
}

static void test_split_huge(void **state)
{
	uint64_t u, s;

	ptop_cputime_split(UINT64_MAX, UINT64_MAX, UINT64_MAX, &u, &s);
	assert_int_equal(u, UINT64_MAX / 2);
	assert_int_equal(s, UINT64_MAX - UINT64_MAX / 2);
	ptop_cputime_split(UINT64_MAX, UINT64_MAX, 0, &u, &s);
	assert_int_equal(u, UINT64_MAX);
	assert_int_equal(s, 0);
	ptop_cputime_split(UINT64_MAX, 1, UINT64_MAX, &u, &s);
	assert_int_equal(u, 0);
	assert_int_equal(s, UINT64_MAX);
	ptop_cputime_split(UINT64_MAX - 1, UINT64_MAX, UINT64_MAX - 1, &u, &s);
	assert_true(u + s == UINT64_MAX - 1);
	assert_true(u >= s);
	/* 100 years of ns, split 1:1 in us */
	ptop_cputime_split(3155760000000000000ULL, 1577880000000000ULL,
			   1577880000000000ULL, &u, &s);
	assert_int_equal(u, 1577880000000000000ULL);
	assert_int_equal(s, 1577880000000000000ULL);
}

static void test_adjust_monotonic(void **state)
{
	struct ptop_cputime_prev p = { 0 };
	uint64_t u, s;

	ptop_cputime_adjust(&p, 1000, 1, 1, &u, &s);
	assert_int_equal(u, 500);
	assert_int_equal(s, 500);
	/* the raw split swings to all user: sys must not go back */
	ptop_cputime_adjust(&p, 1200, 10, 0, &u, &s);
	assert_int_equal(s, 500);
	assert_int_equal(u, 700);
	/* swings to all sys: user must not go back */
	ptop_cputime_adjust(&p, 1300, 0, 10, &u, &s);
	assert_int_equal(u, 700);
	assert_int_equal(s, 600);
	assert_int_equal(u + s, 1300);
	/* runtime going back is a new incarnation */
	ptop_cputime_adjust(&p, 100, 1, 3, &u, &s);
	assert_int_equal(u, 25);
	assert_int_equal(s, 75);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_exact),
		cmocka_unit_test(test_split_proportional),
		cmocka_unit_test(test_split_zero),
		cmocka_unit_test(test_split_huge),
		cmocka_unit_test(test_adjust_monotonic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
