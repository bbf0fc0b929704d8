// SPDX-License-Identifier: GPL-2.0
/*
 * Header meter arithmetic: the All bar's parts make exactly ncpu x 100%,
 * bar cells add up to the bar's width with no part lost to rounding,
 * the per-CPU period from /proc/stat counters, task counts, formats.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_src.h"
#include "ui/meters.h"

#define MS 1000000ULL

static struct ptop_interval iv_of(uint64_t interval_ns, unsigned int ncpu)
{
	struct ptop_interval iv;

	memset(&iv, 0, sizeof(iv));
	iv.interval_ns = interval_ns;
	iv.ncpu = ncpu;
	return iv;
}

static uint64_t total(const uint64_t *p, int n)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < n; i++)
		s += p[i];
	return s;
}

static void test_split_sums_to_capacity(void **state)
{
	struct ptop_interval iv = iv_of(1000 * MS, 4);
	uint64_t parts[UI_CAT__COUNT], over;

	(void)state;
	iv.sum.user = 700 * MS;
	iv.sum.sys = 200 * MS;
	iv.sum.ste = 10 * MS;
	iv.sum.cuser = 30 * MS;
	iv.sum.csys = 20 * MS;
	iv.sum.xuser = 5 * MS;
	iv.sum.total = 965 * MS;
	iv.idle_ns = 3000 * MS;
	iv.irq_ns = 15 * MS;
	iv.steal_ns = 7 * MS;
	iv.sys_apart = PTOP_SYS_IRQ_APART;	/* steal is in the tasks */
	assert_int_equal(ui_meter_split(&iv, parts, &over), 4000 * MS);
	assert_int_equal(total(parts, UI_CAT__COUNT), 4000 * MS);
	assert_int_equal(over, 0);
	assert_int_equal(parts[UI_CAT_USER], 700 * MS);
	assert_int_equal(parts[UI_CAT_STEAL], 10 * MS);	/* not + 7 */
	assert_int_equal(parts[UI_CAT_CDEAD], 50 * MS);
	assert_int_equal(parts[UI_CAT_XDEAD], 5 * MS);
	assert_int_equal(parts[UI_CAT_IRQ], 15 * MS);
	assert_int_equal(parts[UI_CAT_UNACC], 20 * MS);
	/* steal kept apart is added */
	iv.sys_apart |= PTOP_SYS_STEAL_APART;
	ui_meter_split(&iv, parts, &over);
	assert_int_equal(parts[UI_CAT_STEAL], 17 * MS);
	assert_int_equal(parts[UI_CAT_UNACC], 13 * MS);
	assert_int_equal(total(parts, UI_CAT__COUNT), 4000 * MS);
	/* more than the capacity accounted: no unacc, the excess said */
	iv.idle_ns = 3100 * MS;
	assert_int_equal(ui_meter_split(&iv, parts, &over), 4087 * MS);
	assert_int_equal(parts[UI_CAT_UNACC], 0);
	assert_int_equal(over, 87 * MS);
}

static void test_bar_cells_exact(void **state)
{
	uint64_t parts[8];
	int cells[8], w, i, sum;
	unsigned int seed = 1;

	(void)state;
	/* parts that make the whole fill the bar exactly, any width */
	for (w = 1; w < 200; w++) {
		uint64_t whole = 0;

		for (i = 0; i < 8; i++) {
			seed = seed * 1103515245 + 12345;
			parts[i] = (seed >> 8) % 1000;
			whole += parts[i];
		}
		if (!whole)
			continue;
		assert_int_equal(ui_bar_cells(parts, 8, whole, w, cells), w);
		for (sum = 0, i = 0; i < 8; i++) {
			assert_true(cells[i] >= 0);
			/* within one cell of the exact share */
			assert_true(cells[i] <= (double)parts[i] * w / whole + 1);
			assert_true(cells[i] >= (double)parts[i] * w / whole - 1);
			sum += cells[i];
		}
		assert_int_equal(sum, w);
	}
	/* three thirds of 10 cells: 4 + 3 + 3, never 9 or 11 */
	parts[0] = parts[1] = parts[2] = 1;
	assert_int_equal(ui_bar_cells(parts, 3, 3, 10, cells), 10);
	assert_int_equal(cells[0] + cells[1] + cells[2], 10);
	/* half the whole: half the bar */
	parts[0] = 25;
	parts[1] = 25;
	assert_int_equal(ui_bar_cells(parts, 2, 100, 40, cells), 20);
	/* more than the whole: a full bar, not more */
	parts[0] = 300;
	parts[1] = 100;
	assert_int_equal(ui_bar_cells(parts, 2, 100, 40, cells), 40);
	assert_int_equal(cells[0] + cells[1], 40);
	/* no whole or no width: nothing, no division by zero */
	assert_int_equal(ui_bar_cells(parts, 2, 0, 40, cells), 0);
	assert_int_equal(ui_bar_cells(parts, 2, 100, 0, cells), 0);
}

static void test_cpu_parts(void **state)
{
	static struct ptop_sysinfo s;
	uint64_t parts[4], whole;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.ncpu = 2;
	ptop_sysinfo_cpu_parts(&s, 0, 2, parts, &whole);
	assert_int_equal(whole, 0);	/* one reading: no period yet */
	s.have_prev = true;
	s.prev[0] = (struct ptop_cpu_jif){ .user = 100, .idle = 100 };
	s.cur[0] = (struct ptop_cpu_jif){ .user = 130, .nice = 10, .sys = 20,
					.idle = 130, .irq = 5, .steal = 5 };
	s.prev[1] = (struct ptop_cpu_jif){ .idle = 50, .iowait = 50 };
	s.cur[1] = (struct ptop_cpu_jif){ .idle = 140, .iowait = 60 };
	ptop_sysinfo_cpu_parts(&s, 0, 1, parts, &whole);
	assert_int_equal(parts[0], 40);	/* user + nice */
	assert_int_equal(parts[1], 20);
	assert_int_equal(parts[2], 10);	/* irq + softirq + steal */
	assert_int_equal(parts[3], 30);
	assert_int_equal(whole, 100);
	ptop_sysinfo_cpu_parts(&s, 0, 2, parts, &whole);
	assert_int_equal(parts[3], 130);
	assert_int_equal(whole, 200);
	/* a counter that went backwards (CPU hotplug) counts as 0 */
	s.cur[1].idle = 10;
	ptop_sysinfo_cpu_parts(&s, 1, 2, parts, &whole);
	assert_int_equal(whole, 10);
}

/*
 * What the meters count, as the interval math counts it: processes,
 * threads (a group's live ones), rows in state R; in thread mode a row
 * per thread, a process per leader.
 */
static void task_counts_script(struct fake_script *fs, uint64_t t)
{
	struct ptop_sample *s = fake_sample(fs, t, 2, 0);

	fake_proc(s, 1, 0, 1, 10 * MS, 0, "a");
	fake_thread(s, 11, 1, 2, MS, 0);
	fake_thread(s, 12, 1, 3, MS, 0);
	fake_group(s, 1)->nthreads = 3;
	fake_proc(s, 2, 1, 4, MS, 0, "b");
	fake_group(s, 2)->state = 'S';
	fake_proc(s, 3, 1, 5, MS, 0, "c");
	fake_thread(s, 31, 3, 6, MS, 0);
	fake_group(s, 3)->nthreads = 2;
}

static void test_task_counts(void **state)
{
	struct fake_script fs = { 0 };
	struct ptop_src *src;
	struct ptop_snapper sn;
	struct ptop_interval iv;
	unsigned long p, t, r;

	(void)state;
	task_counts_script(&fs, 1000 * MS);
	task_counts_script(&fs, 2000 * MS);
	src = fake_src_open(&fs, PTOP_CAP_NS);
	assert_non_null(src);
	ptop_snapper_init(&sn, src);
	ptop_interval_init(&iv);
	assert_int_equal(ptop_snap_update(&sn), 0);
	assert_int_equal(ptop_snap_update(&sn), 0);
	assert_int_equal(ptop_interval_compute(&iv, ptop_snap_prev(&sn),
					       ptop_snap_cur(&sn), false), 0);
	ui_task_counts(&iv, &p, &t, &r);
	assert_int_equal(p, 3);
	assert_int_equal(t, 6);
	assert_int_equal(r, 2);	/* the groups' states */
	assert_int_equal(ptop_interval_compute(&iv, ptop_snap_prev(&sn),
					       ptop_snap_cur(&sn), true), 0);
	ui_task_counts(&iv, &p, &t, &r);
	assert_int_equal(p, 3);
	assert_int_equal(t, 6);
	assert_int_equal(r, 6);	/* every thread record says R */
	ptop_interval_free(&iv);
	ptop_snapper_free(&sn);
	ptop_src_close(src);
	fake_script_free(&fs);
}

static void test_formats(void **state)
{
	char b[64];

	(void)state;
	ui_fmt_kb(512, b, sizeof(b));
	assert_string_equal(b, "512K");
	ui_fmt_kb(2048, b, sizeof(b));
	assert_string_equal(b, "2M");
	ui_fmt_kb(1536 * 1024, b, sizeof(b));
	assert_string_equal(b, "1.50G");
	ui_fmt_kb(24ULL * 1024 * 1024, b, sizeof(b));
	assert_string_equal(b, "24.0G");
	ui_fmt_uptime(3725, b, sizeof(b));
	assert_string_equal(b, "01:02:05");
	ui_fmt_uptime(86400 * 2 + 61, b, sizeof(b));
	assert_string_equal(b, "2 days, 00:01:01");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_sums_to_capacity),
		cmocka_unit_test(test_bar_cells_exact),
		cmocka_unit_test(test_cpu_parts),
		cmocka_unit_test(test_task_counts),
		cmocka_unit_test(test_formats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
