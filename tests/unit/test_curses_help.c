// SPDX-License-Identifier: GPL-2.0
/*
 * The help screen's lines (ui/curses_help.c): wrapped to any width, no
 * line is wider; from the narrowest the view draws (39 after its last
 * cell) no word is lost or cut (the words of all lines are those of the
 * help at a width where nothing wraps); each column's header stands
 * beside its name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/curses_help.h"
#include "ui/curses_table.h"

#define KEYS (&(struct cv_keys){ cv_bindings, cv_nbindings })

/* the help at width w as one string of words, one space apart */
static char *words_at(int w, int *nlines)
{
	size_t cap = 1 << 20, pos = 0;
	char *out = malloc(cap), line[4096];
	int i, n = cv_help_count(KEYS, w);

	assert_non_null(out);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		char *tok, *save;

		assert_int_equal(cv_help_wrapped(KEYS, i, w, line, sizeof(line)), 0);
		assert_true((int)strlen(line) <= w);
		for (tok = strtok_r(line, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save))
			pos += (size_t)snprintf(out + pos, cap - pos, "%s ", tok);
	}
	assert_int_equal(cv_help_wrapped(KEYS, n, w, line, sizeof(line)), -1);
	assert_int_equal(cv_help_wrapped(KEYS, -1, w, line, sizeof(line)), -1);
	*nlines = n;
	return out;
}

static void test_wrapped_whole(void **state)
{
	static const int widths[] = { 39, 40, 79, 100, 200 };
	int n_wide, n, i;
	char *wide = words_at(4000, &n_wide), *at;

	(void)state;
	for (i = 0; i < 5; i++) {
		at = words_at(widths[i], &n);
		assert_string_equal(at, wide);
		assert_true(n >= n_wide);
		free(at);
	}
	/* the long lines do wrap at 80 */
	free(words_at(79, &n));
	assert_true(n > n_wide);
	/* narrower than a word: words are cut, but no line is wider */
	free(words_at(9, &n));
	free(words_at(1, &n));
	free(wide);
}

static void test_headers_beside_names(void **state)
{
	char *all;
	int n;

	(void)state;
	all = words_at(4000, &n);
	assert_non_null(strstr(all, "cdead c* (%) cuser + csys + cste"));
	assert_non_null(strstr(all, "xdead x* (%) xuser + xsys + xste"));
	assert_non_null(strstr(all, "STATE S state:"));
	/* the labels the view draws that are not columns */
	assert_non_null(strstr(all, "unacc"));
	assert_non_null(strstr(all, "over X"));
	assert_non_null(strstr(all, "sum: the last line"));
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrapped_whole),
		cmocka_unit_test(test_headers_beside_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
