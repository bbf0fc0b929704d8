// SPDX-License-Identifier: GPL-2.0
/* The view's filter: substring of COMMAND or USER, case insensitive. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ui/filter.h"

static struct ptop_row mk(uint32_t pid, uint32_t uid, const char *comm)
{
	struct ptop_row r;

	memset(&r, 0, sizeof(r));
	r.pid = r.tgid = pid;
	r.uid = uid;
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return r;
}

static void test_empty_keeps_all(void **state)
{
	struct ptop_row rows[] = { mk(1, 0, "init"), mk(2, 0, "bash") };

	(void)state;
	assert_int_equal(ui_filter_rows(rows, 2, ""), 2);
	assert_int_equal(ui_filter_rows(rows, 2, NULL), 2);
	assert_int_equal(ui_filter_rows(rows, 0, "x"), 0);
}

static void test_command_substring(void **state)
{
	struct ptop_row rows[] = {
		mk(1, 4000000001u, "systemd"), mk(2, 4000000001u, "bash"),
		mk(3, 4000000001u, "SystemD-journal"), mk(4, 4000000001u, "sshd"),
	};

	(void)state;
	/* order kept, case ignored */
	assert_int_equal(ui_filter_rows(rows, 4, "systemd"), 2);
	assert_int_equal(rows[0].pid, 1);
	assert_int_equal(rows[1].pid, 3);
	assert_true(ui_filter_match(&rows[1], "JOURNAL"));
	assert_false(ui_filter_match(&rows[0], "journal"));
}

static void test_user(void **state)
{
	struct passwd *pw = getpwuid(0);
	struct ptop_row rows[] = {
		mk(1, 0, "a"), mk(2, 4000000002u, "b"), mk(3, 0, "c"),
	};

	(void)state;
	/* a uid without a name is matched as its number */
	assert_true(ui_filter_match(&rows[1], "4000000002"));
	if (!pw)
		skip();
	assert_true(ui_filter_match(&rows[0], pw->pw_name));
	assert_int_equal(ui_filter_rows(rows, 3, pw->pw_name), 2);
	assert_int_equal(rows[0].pid, 1);
	assert_int_equal(rows[1].pid, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_keeps_all),
		cmocka_unit_test(test_command_substring),
		cmocka_unit_test(test_user),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
