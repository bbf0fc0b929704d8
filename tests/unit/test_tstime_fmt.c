// SPDX-License-Identifier: GPL-2.0
/*
 * tstime output formats: the -f parser (every directive, escapes, bad
 * input), POSIX -p, JSON, the default report, the --tree table, GNU
 * time's -v report and the --repeat statistics. tstime_fmt.c and
 * tstime_stats.c belong to the tstime program, not to a library: they are
 * compiled into this test directly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "tstime/tstime_fmt.c"
#include "tstime/tstime_stats.c"

static char *const cmd[] = { "make", "-j8", NULL };

static const struct ptop_tree_comm comms[] = {
	{ "cc1", 12, 0, 3000000000ULL, 2750000000ULL, 250000000ULL },
	{ "make", 2, 1, 1000000000ULL, 400000000ULL, 600000000ULL },
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
		.ru = { .minflt = 5001, .majflt = 7, .nvcsw = 42, .nivcsw = 13,
			.inblock = 800, .oublock = 1600, .nswap = 0,
			.nsignals = 0, .msgsnd = 0, .msgrcv = 0 },
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
	/* GNU time's rusage directives */
	expect("%c %w %F %R %I %O %W %k", &r, "13 42 7 5001 800 1600 0 0\n");
	expect("%r %s %D %p %X %K %t", &r, "0 0 0 0 0 0 0\n");
	{
		char want[32];

		snprintf(want, sizeof(want), "%ld\n", sysconf(_SC_PAGESIZE));
		expect("%Z", &r, want);
	}
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
	/* every one of GNU time's directives */
	assert_int_equal(tstime_fmt_check("%C %D %E %F %I %K %M %O %P %R %S %U %W %X %Z %c %e %k %p %r %s %t %w %x",
					  err, sizeof(err)), 0);
	assert_int_equal(tstime_fmt_check("%q", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "%q"));
	assert_int_equal(tstime_fmt_check("abc%", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "lone %"));
	assert_int_equal(tstime_fmt_check("\\x", err, sizeof(err)), -EINVAL);
	assert_int_equal(tstime_fmt_check("x\\", err, sizeof(err)), -EINVAL);
	assert_int_equal(tstime_fmt_check("%y", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "%y"));
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
			       "\"threads\":0,\"user_s\":2.750000,\"sys_s\":0.250000,"
			       "\"cpu_s\":3.000000,\"share_pct\":75.00}"));
	assert_non_null(strstr(buf, "\"minor_faults\":5001,\"major_faults\":7,"
			       "\"voluntary_ctxsw\":42,\"involuntary_ctxsw\":13,"
			       "\"fs_inputs\":800,\"fs_outputs\":1600,"));
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

/* tstime's JSON strings are ptop's: bytes that are not UTF-8 as \\xNN */
static void test_json_str_utf8(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	tstime_json_str(f, "a\377b \xc3\xa9 \xc3", (size_t)-1);
	fputc(' ', f);
	tstime_json_str(f, "cc1\xe2\x82", 4);	/* a comm cut mid-character */
	fclose(f);
	/* the text \xNN, its backslash escaped as JSON wants */
	assert_string_equal(buf, "\"a\\\\xffb \xc3\xa9 \\\\xc3\" \"cc1\\\\xe2\"");
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
	assert_non_null(strstr(s, "USER(s)"));
	assert_non_null(strstr(s, "SYS(s)"));
	/* cc1: user 2.75, sys 0.25, cpu 3 */
	assert_non_null(strstr(s, "2.750000       0.250000       3.000000"));
	free(s);
	r.tree_avail = 0;
	r.tree_note = "no data";
	s = render_with(tstime_print_tree, &r);
	assert_string_equal(s, "tree: not available (no data)\n");
	free(s);
}

static void test_verbose(void **state)
{
	/* GNU time -v's labels, in its order */
	static const char *const gnu[] = {
		"\tCommand being timed: \"make -j8\"\n",
		"\tUser time (seconds): 2.500001\n",
		"\tSystem time (seconds): 1.500000\n",
		"\tPercent of CPU this job got: ",
		"\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.456789\n",
		"\tAverage shared text size (kbytes): 0\n",
		"\tAverage unshared data size (kbytes): 0\n",
		"\tAverage stack size (kbytes): 0\n",
		"\tAverage total size (kbytes): 0\n",
		"\tMaximum resident set size (kbytes): 20480\n",
		"\tAverage resident set size (kbytes): 0\n",
		"\tMajor (requiring I/O) page faults: 7\n",
		"\tMinor (reclaiming a frame) page faults: 5001\n",
		"\tVoluntary context switches: 42\n",
		"\tInvoluntary context switches: 13\n",
		"\tSwaps: 0\n",
		"\tFile system inputs: 800\n",
		"\tFile system outputs: 1600\n",
		"\tSocket messages sent: 0\n",
		"\tSocket messages received: 0\n",
		"\tSignals delivered: 0\n",
		"\tPage size (bytes): ",
		"\tExit status: 0\n",
		"\tSteal time (seconds): not measured\n",
		"\tProcesses started: 14\n",
		"\tSource: taskstats (exact)\n",
	};
	struct tstime_result r = sample();
	char *s = render_with(tstime_print_verbose, &r);
	const char *at = s;
	size_t i;

	for (i = 0; i < sizeof(gnu) / sizeof(gnu[0]); i++) {
		const char *p = strstr(at, gnu[i]);

		if (!p)
			fail_msg("-v lacks (or misorders) '%s' in:\n%s", gnu[i], s);
		at = p;
	}
	free(s);
	r.signal = 9;
	r.exit_status = 137;
	s = render_with(tstime_print_verbose, &r);
	assert_true(!strncmp(s, "Command terminated by signal 9\n", 31));
	assert_non_null(strstr(s, "\tExit status: 0\n"));	/* as GNU time */
	free(s);
	r.signal = 0;
	r.exit_status = 3;
	s = render_with(tstime_print_verbose, &r);
	assert_true(!strncmp(s, "Command exited with non-zero status 3\n", 38));
	assert_non_null(strstr(s, "\tExit status: 3\n"));
	free(s);
}

static void test_stat_of(void **state)
{
	double odd[] = { 5, 1, 3 };
	double even[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double one[] = { 0.25 };
	double bad[] = { 1, NAN };
	struct tstime_stat st;

	assert_int_equal(tstime_stat_of(odd, 3, &st), 0);
	assert_true(st.min == 1 && st.max == 5 && st.median == 3 && st.mean == 3);
	assert_true(fabs(st.stddev - 2.0) < 1e-12);
	assert_int_equal(st.n, 3);
	assert_int_equal(tstime_stat_of(even, 8, &st), 0);
	assert_true(st.median == 4.5 && st.mean == 5);
	/* sample standard deviation: sqrt(32 / 7) */
	assert_true(fabs(st.stddev - sqrt(32.0 / 7)) < 1e-12);
	assert_int_equal(tstime_stat_of(one, 1, &st), 0);
	assert_true(st.min == 0.25 && st.max == 0.25 && st.median == 0.25 &&
		    st.mean == 0.25 && st.stddev == 0);
	assert_int_equal(tstime_stat_of(one, 0, &st), -EINVAL);
	assert_int_equal(tstime_stat_of(bad, 2, &st), -EINVAL);
}

static void test_repeat(void **state)
{
	struct tstime_result res[3];
	struct tstime_runs rs = { .res = res, .n = 3, .want = 5, .warmup = 1 };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	for (i = 0; i < 3; i++) {
		res[i] = sample();
		res[i].real_ns = (i + 1) * 1000000000ULL;	/* 1, 2, 3 s */
		res[i].user_ns = 500000000ULL;
		res[i].sys_ns = 0;
	}
	res[2].procs = -1;	/* one run could not count: not measured */
	f = open_memstream(&buf, &len);
	tstime_print_repeat_json(f, &rs);
	fclose(f);
	assert_non_null(strstr(buf, "{\"runs\":3,\"requested_runs\":5,\"warmup\":1,"));
	assert_non_null(strstr(buf, "\"real_s\":{\"min\":1,\"mean\":2,\"median\":2,"
			       "\"max\":3,\"stddev\":1,\"values\":[1,2,3]}"));
	assert_non_null(strstr(buf, "\"user_s\":{\"min\":0.5,\"mean\":0.5,"));
	assert_non_null(strstr(buf, "\"steal_s\":null"));
	assert_non_null(strstr(buf, "\"processes\":null"));
	assert_non_null(strstr(buf, "\"threads\":{\"min\":3,"));
	assert_non_null(strstr(buf, "}}\n"));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	tstime_print_repeat(f, &rs);
	fclose(f);
	assert_non_null(strstr(buf, "3 runs of 5 (1 warmup) of: make -j8\n"));
	assert_non_null(strstr(buf, "min"));
	assert_non_null(strstr(buf, "stddev"));
	assert_non_null(strstr(buf, "real s"));
	assert_non_null(strstr(buf, "1.000000       2.000000       2.000000       3.000000       1.000000\n"));
	assert_non_null(strstr(buf, "processes      not measured\n"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directives),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_posix),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_str_utf8),
		cmocka_unit_test(test_default_and_tree),
		cmocka_unit_test(test_verbose),
		cmocka_unit_test(test_stat_of),
		cmocka_unit_test(test_repeat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
