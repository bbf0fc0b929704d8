// SPDX-License-Identifier: GPL-2.0
/* ptop_reserve: doubling growth, contents kept, failure leaves the array */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <errno.h>
#include <cmocka.h>

#include "lib/reserve.h"

static void test_grows_by_doubling_from_first(void **state)
{
	uint32_t *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(ptop_reserve(&v, &cap, 1, sizeof(*v), 16), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(ptop_reserve(&v, &cap, 16, sizeof(*v), 16), 0);
	assert_int_equal(cap, 16);          /* enough: untouched */
	assert_int_equal(ptop_reserve(&v, &cap, 17, sizeof(*v), 16), 0);
	assert_int_equal(cap, 32);
	assert_int_equal(ptop_reserve(&v, &cap, 200, sizeof(*v), 16), 0);
	assert_int_equal(cap, 256);
	free(v);
}

static void test_keeps_contents(void **state)
{
	uint64_t *v = NULL;
	size_t cap = 0, n = 0, i;

	(void)state;
	for (i = 0; i < 10000; i++) {
		assert_int_equal(ptop_reserve(&v, &cap, n + 1, sizeof(*v), 4), 0);
		assert_true(cap >= n + 1);
		v[n++] = i * 3;
	}
	for (i = 0; i < n; i++)
		assert_int_equal(v[i], i * 3);
	free(v);
}

static void test_overflow_fails_and_keeps(void **state)
{
	uint64_t *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(ptop_reserve(&v, &cap, 8, sizeof(*v), 8), 0);
	v[7] = 42;
	/* n * size would overflow size_t: refused, array and cap as they were */
	assert_int_equal(ptop_reserve(&v, &cap, (size_t)-1 / 4, sizeof(*v), 8),
			 -ENOMEM);
	assert_int_equal(cap, 8);
	assert_int_equal(v[7], 42);
	free(v);
}

static void test_zero_first_still_grows(void **state)
{
	char *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(ptop_reserve(&v, &cap, 3, 1, 0), 0);
	assert_true(cap >= 3);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_by_doubling_from_first),
		cmocka_unit_test(test_keeps_contents),
		cmocka_unit_test(test_overflow_fails_and_keeps),
		cmocka_unit_test(test_zero_first_still_grows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
