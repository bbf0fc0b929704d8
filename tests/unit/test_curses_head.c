// SPDX-License-Identifier: GPL-2.0
/*
 * The view's top line (ui/curses_head.c): at 80 columns the verdict comes
 * whole, with every reason, and the line fits; what gives way is ncpu,
 * then the interval, then the source; a wide terminal gets everything.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/verdict.h"
#include "ui/curses_table.h"

static struct ui_app app;
static struct cv cv;

/* An inexact interval with three reasons, as taskstats under a build. */
static int setup(void **state)
{
	struct ptop_verdict *v = &app.iv.verdict;

	(void)state;
	memset(&app, 0, sizeof(app));
	memset(&cv, 0, sizeof(cv));
	app.view.source = "taskstats";
	app.delay_s = 2;
	app.iv.ncpu = 2;
	app.iv.interval_ns = 1000000000ULL;
	app.iv.idle_ns = 1000000000ULL;
	v->why = PTOP_WHY_SLOW | PTOP_WHY_EXIT_PATHS | PTOP_WHY_OFF;
	v->window_ns = 138900000ULL;
	v->exit_paths_ns = 30000000ULL;
	v->ntask_exits = 64;
	v->off_ns = -62000000LL;
	cv.app = &app;
	cv.have_iv = true;
	return 0;
}

static const char *const want_verdict = "inexact: slow 139 ms, exit paths 3.00%, off -3.20%";

static bool ends_with(const char *s, const char *end)
{
	size_t a = strlen(s), b = strlen(end);

	return a >= b && !strcmp(s + a - b, end);
}

/* 80 columns: the verdict whole at the end, the line within 80 */
static void test_fits_80(void **state)
{
	char line[512];

	(void)state;
	cv_headline(&cv, true, 80, line, sizeof(line));
	assert_true(strlen(line) <= 80);
	assert_true(ends_with(line, want_verdict));
	assert_memory_equal(line, "ptop ", 5);
	/* without the All bar it also says what was accounted */
	cv_headline(&cv, false, 80, line, sizeof(line));
	assert_true(strlen(line) <= 80);
	assert_true(ends_with(line, want_verdict));
	assert_non_null(strstr(line, "accounted "));
}

/* ncpu goes first, then the interval, then the source */
static void test_drop_order(void **state)
{
	char line[512];

	(void)state;
	cv_headline(&cv, true, 200, line, sizeof(line));
	assert_non_null(strstr(line, "  interval 1.000s  ncpu 2  source taskstats  inexact: "));
	/* one piece fewer: ncpu, which the CPU bars show */
	cv_headline(&cv, true, (int)strlen(line) - 1, line, sizeof(line));
	assert_null(strstr(line, "ncpu"));
	assert_non_null(strstr(line, "interval 1.000s  source taskstats"));
	cv_headline(&cv, true, (int)strlen(line) - 1, line, sizeof(line));
	assert_null(strstr(line, "interval"));
	assert_non_null(strstr(line, "source taskstats"));
	/* narrower than the time and the verdict: still the whole verdict */
	cv_headline(&cv, true, 20, line, sizeof(line));
	assert_null(strstr(line, "source"));
	assert_true(ends_with(line, want_verdict));
}

static void test_exact_and_measuring(void **state)
{
	char line[512];

	(void)state;
	app.iv.verdict.why = 0;
	app.iv.verdict.exact = true;
	cv_headline(&cv, true, 80, line, sizeof(line));
	assert_true(ends_with(line, "source taskstats  exact"));
	cv.have_iv = false;
	cv_headline(&cv, true, 80, line, sizeof(line));
	assert_non_null(strstr(line, "measuring..."));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_fits_80, setup),
		cmocka_unit_test_setup(test_drop_order, setup),
		cmocka_unit_test_setup(test_exact_and_measuring, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
