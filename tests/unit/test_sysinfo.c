// SPDX-License-Identifier: GPL-2.0
/*
 * The meters' reader (lib/sysinfo.h) and the one /proc/stat cpu-line
 * parser (lib/src/proc_stat.h) it shares with the stock sources: exact
 * values from fixture files, bad lines skipped, a bad file leaving the
 * values it cannot replace alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/src/proc_stat.h"
#include "lib/sysinfo.h"
#include "tests/unit/fixture_fs.h"

static void test_cpu_line(void **state)
{
	struct ptop_stat_cpu c;

	(void)state;
	assert_int_equal(ptop_stat_cpu_line("cpu  1 2 3 4 5 6 7 8 9 10\n", &c), 1);
	assert_int_equal(c.cpu, -1);
	assert_int_equal(c.n, 10);
	assert_int_equal(c.v[PTOP_STAT_STEAL], 8);
	assert_int_equal(c.v[PTOP_STAT_GUEST_NICE], 10);
	/* the line ends at its newline: the next line's numbers are not read */
	assert_int_equal(ptop_stat_cpu_line("cpu12 5 6 7\n8 9", &c), 1);
	assert_int_equal(c.cpu, 12);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.v[PTOP_STAT_IDLE], 0);
	/* a negative value reads 0, a word stops the counters */
	assert_int_equal(ptop_stat_cpu_line("cpu0 -4 3 x 9", &c), 1);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.v[0], 0);
	assert_int_equal(c.v[1], 3);
	/* an overflowing counter saturates */
	assert_int_equal(ptop_stat_cpu_line("cpu3 99999999999999999999999", &c), 1);
	assert_true(c.v[0] == UINT64_MAX);
	assert_int_equal(ptop_stat_cpu_line("cpux 1 2", &c), 0);
	assert_int_equal(ptop_stat_cpu_line("intr 1 2", &c), 0);
	assert_int_equal(ptop_stat_cpu_line("cpu", &c), 0);
	assert_null(ptop_stat_next_line("last\n"));
	assert_string_equal(ptop_stat_next_line("a\nb"), "b");
}

static void test_parse_stat(void **state)
{
	static struct ptop_sysinfo s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(ptop_sysinfo_parse_stat(&s,
		"cpu  9 9 9 9\ncpu0 1 2 3 4 5 6 7 8\ncpu1 10 20 30\n"
		"cpu1 10 20 30 40\nintr 5\n"), 0);
	/* cpu1's short line (3 counters) is not a CPU */
	assert_int_equal(s.ncpu, 2);
	assert_false(s.have_prev);
	assert_int_equal(s.cur[0].steal, 8);
	assert_int_equal(s.cur[1].idle, 40);
	assert_int_equal(s.cur[1].iowait, 0);
	assert_int_equal(ptop_sysinfo_parse_stat(&s,
		"cpu0 2 2 3 4 5 6 7 8\ncpu1 11 20 30 40\n"), 0);
	assert_true(s.have_prev);
	assert_int_equal(s.prev[0].user, 1);
	assert_int_equal(s.cur[0].user, 2);
	/* a CPU gone: no period */
	assert_int_equal(ptop_sysinfo_parse_stat(&s, "cpu0 3 2 3 4\n"), 0);
	assert_false(s.have_prev);
	assert_int_equal(ptop_sysinfo_parse_stat(&s, "intr 1\n"), -EINVAL);
	assert_int_equal(s.ncpu, 0);
}

static void test_parse_rest(void **state)
{
	static struct ptop_sysinfo s;

	(void)state;
	memset(&s, 0, sizeof(s));
	ptop_sysinfo_parse_meminfo(&s,
		"MemTotal:       24000000 kB\nMemFree:  1000 kB\n"
		"MemAvailable: 5000 kB\nBuffers: 7 kB\nCached: 8 kB\n"
		"SwapCached: 99 kB\nSwapTotal: 2048 kB\nSwapFree: 1024 kB\n"
		"SReclaimable: 9 kB\ngarbage\nHugePages_Total: 0\n");
	assert_int_equal(s.mem_total_kb, 24000000);
	assert_int_equal(s.mem_avail_kb, 5000);
	assert_int_equal(s.cached_kb, 8);	/* not SwapCached */
	assert_int_equal(s.sreclaimable_kb, 9);
	assert_int_equal(ptop_sysinfo_buff_cache_kb(&s), 7 + 8 + 9);
	assert_int_equal(ptop_sysinfo_used_kb(&s), 24000000 - 5000);
	assert_int_equal(s.swap_total_kb, 2048);
	assert_int_equal(s.swap_free_kb, 1024);
	assert_int_equal(ptop_sysinfo_parse_loadavg(&s, "0.50 1.25 2.00 3/400 99\n"), 0);
	assert_true(s.load[1] == 1.25);
	/* a torn loadavg changes nothing */
	assert_int_equal(ptop_sysinfo_parse_loadavg(&s, "7.00 x"), -EINVAL);
	assert_true(s.load[0] == 0.5);
	assert_int_equal(ptop_sysinfo_parse_uptime(&s, "123.45 200.00\n"), 0);
	assert_true(s.uptime_s == 123.45);
	assert_int_equal(ptop_sysinfo_parse_uptime(&s, ""), -EINVAL);
}

static void test_read(void **state)
{
	static struct ptop_sysinfo s;
	char root[] = "/tmp/ptop-sysinfo-XXXXXX", cmd[300];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_non_null(mkdtemp(root));
	/* no stat: -ENOENT, the rest still read */
	fx_put(root, "loadavg", "1.00 2.00 3.00 1/2 3\n");
	fx_put(root, "uptime", "90061.5 1.0\n");
	fx_put(root, "meminfo", "MemTotal: 100 kB\n");
	assert_int_equal(ptop_sysinfo_read(&s, root), -ENOENT);
	assert_true(s.load[2] == 3.0);
	assert_true(s.uptime_s == 90061.5);
	assert_int_equal(s.mem_total_kb, 100);
	fx_put(root, "stat", "cpu  1 1 1 1\ncpu0 1 1 1 1\n");
	fx_put(root, "loadavg", "bad\n");
	assert_int_equal(ptop_sysinfo_read(&s, root), 0);
	assert_int_equal(s.ncpu, 1);
	assert_true(s.load[0] == 0);	/* a bad file reads as 0, as before */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_line),
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_parse_rest),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
