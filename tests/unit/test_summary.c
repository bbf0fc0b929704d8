// SPDX-License-Identifier: GPL-2.0
/*
 * The text batch summary (ui/summary.h): tasks by state as top counts
 * them, and top's own line formats for uptime and load, memory and swap,
 * from a made-up interval and machine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ui/summary.h"

static void test_states(void **state)
{
	struct ptop_row rows[8];
	struct ptop_interval iv;
	struct ui_task_states t;
	const char *st = "RSDITtZX";
	int i;

	(void)state;
	memset(&iv, 0, sizeof(iv));
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < 8; i++)
		rows[i].state = st[i];
	iv.rows = rows;
	iv.nrows = 8;
	ui_task_states(&iv, &t);
	assert_int_equal(t.total, 8);
	assert_int_equal(t.running, 1);
	assert_int_equal(t.sleeping, 3);	/* S, D, I */
	assert_int_equal(t.stopped, 2);		/* T, t */
	assert_int_equal(t.zombie, 1);		/* X only in total */
}

static void test_lines(void **state)
{
	static struct ptop_sysinfo s;
	struct ptop_row rows[2] = { { .state = 'R' }, { .state = 'S' } };
	struct ptop_interval iv = { .rows = rows, .nrows = 2 };
	char buf[256];

	(void)state;
	memset(&s, 0, sizeof(s));
	s.uptime_s = 2 * 86400 + 3600 + 61;
	s.load[0] = 0.5;
	s.load[1] = 1.25;
	s.load[2] = 12;
	s.mem_total_kb = 1024 * 1000;
	s.mem_free_kb = 1024 * 100;
	s.mem_avail_kb = 1024 * 600;
	s.buffers_kb = 1024 * 10;
	s.cached_kb = 1024 * 300;
	s.sreclaimable_kb = 1024 * 20;
	s.swap_total_kb = 2048;
	s.swap_free_kb = 1024;
	assert_true(ui_summary_line(&iv, &s, 0, buf, sizeof(buf)));
	assert_string_equal(buf,
		"up 2 days, 01:01:01,  load average: 0.50, 1.25, 12.00");
	assert_true(ui_summary_line(&iv, &s, 1, buf, sizeof(buf)));
	assert_string_equal(buf,
		"Tasks: 2 total, 1 running, 1 sleeping, 0 stopped, 0 zombie");
	assert_true(ui_summary_line(&iv, &s, 2, buf, sizeof(buf)));
	/* used = total - available; buff/cache with SReclaimable */
	assert_string_equal(buf,
		"MiB Mem :   1000.0 total,    100.0 free,    400.0 used,    330.0 buff/cache");
	assert_true(ui_summary_line(&iv, &s, 3, buf, sizeof(buf)));
	assert_string_equal(buf,
		"MiB Swap:      2.0 total,      1.0 free,      1.0 used.    600.0 avail Mem");
	assert_false(ui_summary_line(&iv, &s, 4, buf, sizeof(buf)));
	/* no MemAvailable (old kernels): total - free - buff/cache */
	s.mem_avail_kb = 0;
	assert_int_equal(ptop_sysinfo_used_kb(&s), 1024 * 570);
	/* never below 0 */
	s.mem_free_kb = s.mem_total_kb;
	assert_int_equal(ptop_sysinfo_used_kb(&s), 0);
	iv.threads = true;
	assert_true(ui_summary_line(&iv, &s, 1, buf, sizeof(buf)));
	assert_string_equal(buf,
		"Threads: 2 total, 1 running, 1 sleeping, 0 stopped, 0 zombie");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
