// SPDX-License-Identifier: GPL-2.0
/*
 * tstime output formats: the -f parser (every directive, escapes, bad
 * input), POSIX -p, JSON, the default report and the --tree table.
 * tstime_fmt.c belongs to the tstime program, not to a library: it is
 * compiled into this test directly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptop/tstime_fmt.c"

static char *const cmd[] = { "make", "-j8", NULL };

static const struct ptop_tree_comm comms[] = {
	{ "cc1", 12, 0, 3000000000ULL },
	{ "make", 2, 1, 1000000000ULL },
};

static struct tstime_result sample(void)
{
	struct tstime_result r = {
		.real_ns = 3723456789012ULL,	/* 1:02:03.456789 */
		.user_ns = 2500000999ULL,
		.sys_ns = 1500000000ULL,
		.procs = 14,
		.threads = 3,
		.max_rss_kb = 20480,
		.exit_status = 0,
		.source = "taskstats",
		.exact = 1,
		.argv = cmd,
		.tree_avail = 1,
		.comms = comms,
		.ncomms = 2,
	};

	return r;
}

/* render with fn into a string the test frees */
static char *render(const char *fmt, const struct tstime_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	tstime_fmt_print(f, fmt, r);
	fclose(f);
	return buf;
}

static void expect(const char *fmt, const struct tstime_result *r,
		   const char *want)
{
	char *got = render(fmt, r);

	assert_string_equal(got, want);
	free(got);
}

static void test_directives(void **state)
{
	struct tstime_result r = sample();

	expect("%e", &r, "3723.456789\n");
	expect("%E", &r, "1:02:03.456789\n");
	expect("%U", &r, "2.500001\n");
	expect("%S", &r, "1.500000\n");
	expect("%G", &r, "4.000001\n");
	expect("%M", &r, "20480\n");
	expect("%x", &r, "0\n");
	expect("%C", &r, "make -j8\n");
	expect("%n", &r, "14\n");
	expect("%N", &r, "3\n");
	expect("%T", &r, "-\n");
	expect("100%%", &r, "100%\n");
	expect("a\\tb\\nc\\\\", &r, "a\tb\nc\\\n");
	expect("plain", &r, "plain\n");
	expect("", &r, "\n");
	r.real_ns = 8000000000ULL;
	expect("%P", &r, "50.00%\n");
	expect("%E", &r, "0:08.000000\n");
	r.real_ns = 0;
	expect("%P", &r, "0.00%\n");
	r.has_steal = 1;
	r.steal_ns = 1234567;
	expect("%T %G", &r, "0.001235 4.001236\n");
	r.procs = r.threads = r.max_rss_kb = -1;
	expect("%n %N %M", &r, "- - -\n");
	r.exit_status = 143;
	r.signal = 15;
	expect("%x", &r, "143\n");
}

static void test_check(void **state)
{
	char err[128];

	assert_int_equal(tstime_fmt_check("%e %E %U %S %P %M %x %C %T %G %n %N %%\\n\\t\\\\",
					  err, sizeof(err)), 0);
	assert_int_equal(tstime_fmt_check("%q", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "%q"));
	assert_int_equal(tstime_fmt_check("abc%", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "lone %"));
	assert_int_equal(tstime_fmt_check("\\x", err, sizeof(err)), -EINVAL);
	assert_int_equal(tstime_fmt_check("x\\", err, sizeof(err)), -EINVAL);
	/* GNU time's %c (context switches) is not ours: refused, not wrong */
	assert_int_equal(tstime_fmt_check("%c", err, sizeof(err)), -EINVAL);
}

static char *render_with(void (*fn)(FILE *, const struct tstime_result *),
			 const struct tstime_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, r);
	fclose(f);
	return buf;
}

static void test_posix(void **state)
{
	struct tstime_result r = sample();
	char *s = render_with(tstime_print_posix, &r);

	assert_string_equal(s, "real 3723.456789\nuser 2.500001\nsys 1.500000\n");
	free(s);
}

static void test_json(void **state)
{
	struct tstime_result r = sample();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static char *const odd[] = { "a\"b\\c\n", NULL };

	r.argv = odd;
	tstime_print_json(f, &r, 1);
	fclose(f);
	assert_non_null(strstr(buf, "\"real_s\":3723.456789,"));
	assert_non_null(strstr(buf, "\"steal_s\":null,"));
	assert_non_null(strstr(buf, "\"cpu_s\":4.000001,"));
	assert_non_null(strstr(buf, "\"processes\":14,\"threads\":3,"));
	assert_non_null(strstr(buf, "\"signal\":null,"));
	assert_non_null(strstr(buf, "\"source\":\"taskstats\",\"exact\":true,"));
	assert_non_null(strstr(buf, "\"command\":[\"a\\\"b\\\\c\\u000a\"]"));
	assert_non_null(strstr(buf, "\"tree\":[{\"comm\":\"cc1\",\"processes\":12,"
			       "\"threads\":0,\"cpu_s\":3.000000,\"share_pct\":75.00}"));
	assert_int_equal(buf[strlen(buf) - 1], '\n');
	free(buf);

	/* no tree asked: no key; not available: null */
	r = sample();
	r.tree_avail = 0;
	r.has_steal = 1;
	r.signal = 9;
	buf = NULL;
	f = open_memstream(&buf, &len);
	tstime_print_json(f, &r, 0);
	fclose(f);
	assert_null(strstr(buf, "\"tree\""));
	assert_non_null(strstr(buf, "\"steal_s\":0.000000,"));
	assert_non_null(strstr(buf, "\"signal\":9,"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	tstime_print_json(f, &r, 1);
	fclose(f);
	assert_non_null(strstr(buf, "\"tree\":null}"));
	free(buf);
}

static void test_default_and_tree(void **state)
{
	struct tstime_result r = sample();
	char *s = render_with(tstime_print_default, &r);

	assert_non_null(strstr(s, "real     3723.456789 s\n"));
	assert_non_null(strstr(s, "steal    not measured\n"));
	assert_non_null(strstr(s, "procs    14 processes, 3 threads\n"));
	assert_non_null(strstr(s, "source   taskstats (exact)\n"));
	free(s);
	s = render_with(tstime_print_tree, &r);
	assert_non_null(strstr(s, "cc1"));
	assert_true(strstr(s, "cc1") < strstr(s, "make"));
	assert_non_null(strstr(s, "75.00%"));
	free(s);
	r.tree_avail = 0;
	r.tree_note = "no data";
	s = render_with(tstime_print_tree, &r);
	assert_string_equal(s, "tree: not available (no data)\n");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directives),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_posix),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_default_and_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
