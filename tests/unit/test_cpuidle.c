// SPDX-License-Identifier: GPL-2.0
/*
 * The stock sources' ns idle (lib/src/cpuidle.h) on a fixture proc root
 * with its own sys/devices/system/cpu: per CPU the larger of cpuidle's
 * ended periods and /proc/stat's ticks; and every bad input (the cpu dir
 * or a state's time missing, empty, not a number, too large, every state
 * at 0) falls back to the ticks for all CPUs, and says so (idle_ticks).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/src/procfs_read.h"
#include "lib/src/cpuidle.h"
#include "tests/unit/fixture_fs.h"

struct fx {
	char root[256];
	uint64_t tick;
};

/* cpu0: state0, state1; cpu1: state0 (us), as a driver shows them */
static void states(struct fx *f, const char *c0s0, const char *c0s1,
		   const char *c1s0)
{
	const char *d = "sys/devices/system/cpu";
	char rel[256];

	snprintf(rel, sizeof(rel), "%s/cpu0/cpuidle/state0", d);
	fx_mkdirs(f->root, rel);
	snprintf(rel, sizeof(rel), "%s/cpu0/cpuidle/state1", d);
	fx_mkdirs(f->root, rel);
	snprintf(rel, sizeof(rel), "%s/cpu1/cpuidle/state0", d);
	fx_mkdirs(f->root, rel);
	if (c0s0)
		fx_put(f->root, "sys/devices/system/cpu/cpu0/cpuidle/state0/time",
		    c0s0);
	if (c0s1)
		fx_put(f->root, "sys/devices/system/cpu/cpu0/cpuidle/state1/time",
		    c0s1);
	if (c1s0)
		fx_put(f->root, "sys/devices/system/cpu/cpu1/cpuidle/state0/time",
		    c1s0);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/ptop-cpuidle-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	f->tick = 1000000000ULL / sysconf(_SC_CLK_TCK);
	/* idle + iowait: cpu0 500 + 10, cpu1 500 + 10 ticks */
	fx_put(f->root, "stat",
	    "cpu  100 5 50 1000 20 3 2 7 0 0\n"
	    "cpu0 50 5 25 500 10 3 1 4 0 0\n"
	    "cpu1 50 0 25 500 10 0 1 3 0 0\n"
	    "intr 1 2 3\nctxt 99\nbtime 1700000000\n");
	*state = f;
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(p);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* ptop_pfs_read_cpu() on the fixture: the idle, and whether in ticks */
static uint64_t idle_of(struct fx *f, int *ticks)
{
	struct ptop_pfs p;
	struct ptop_cpu_sum sum;
	struct ptop_sample s;
	unsigned int ncpu;

	assert_int_equal(ptop_pfs_open(&p, f->root), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(ptop_pfs_sample_begin(&p, &s), 0);
	assert_int_equal(ptop_pfs_read_cpu(&p, &sum, &ncpu), 0);
	assert_int_equal(ncpu, 2);
	/* iowait stays /proc/stat's ticks either way */
	assert_int_equal(sum.iowait_ns, 20 * f->tick);
	*ticks = p.idle_ticks;
	ptop_pfs_close(&p);
	return sum.idle_ns;
}

/* cpu0's ended periods pass its ticks (busy now); cpu1 idle now: ticks */
static void test_ns_idle(void **state)
{
	struct fx *f = *state;
	int ticks;

	states(f, "6000000\n", "1000\n", "4000000\n");
	assert_int_equal(idle_of(f, &ticks),
			 6001000000ULL + 510 * f->tick);
	assert_int_equal(ticks, 0);
}

static void expect_ticks(struct fx *f)
{
	int ticks;

	assert_int_equal(idle_of(f, &ticks), 1020 * f->tick);
	assert_int_equal(ticks, 1);
}

static void test_no_cpu_dir(void **state)
{
	expect_ticks(*state);
}

static void test_missing_time(void **state)
{
	states(*state, "6000000\n", NULL, "4000000\n");
	expect_ticks(*state);
}

static void test_empty(void **state)
{
	states(*state, "6000000\n", "", "4000000\n");
	expect_ticks(*state);
}

static void test_garbage(void **state)
{
	states(*state, "6000000\n", "12abc\n", "4000000\n");
	expect_ticks(*state);
}

static void test_negative(void **state)
{
	states(*state, "-5\n", "1000\n", "4000000\n");
	expect_ticks(*state);
}

static void test_too_large(void **state)
{
	/* fits a u64 in us, not in ns */
	states(*state, "18446744073709552\n", "1000\n", "4000000\n");
	expect_ticks(*state);
}

/* a driver that never counts: no ns idle to take */
static void test_all_zero(void **state)
{
	states(*state, "0\n", "0\n", "0\n");
	expect_ticks(*state);
}

/* a CPU without cpuidle states beside one with them */
static void test_cpu_without_states(void **state)
{
	struct fx *f = *state;

	fx_mkdirs(f->root, "sys/devices/system/cpu/cpu0/cpuidle/state0");
	fx_put(f->root, "sys/devices/system/cpu/cpu0/cpuidle/state0/time",
	    "6000000\n");
	fx_mkdirs(f->root, "sys/devices/system/cpu/cpu1/cpuidle");
	expect_ticks(f);
}

static void test_parse(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(ptop_cpuidle_parse_u64("123\n", &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(ptop_cpuidle_parse_u64("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ptop_cpuidle_parse_u64("18446744073709551615", &v),
			 0);
	assert_true(v == UINT64_MAX);
	v = 7;
	assert_int_equal(ptop_cpuidle_parse_u64("18446744073709551616", &v),
			 -EINVAL);
	assert_int_equal(ptop_cpuidle_parse_u64("", &v), -EINVAL);
	assert_int_equal(ptop_cpuidle_parse_u64("\n", &v), -EINVAL);
	assert_int_equal(ptop_cpuidle_parse_u64(" 1", &v), -EINVAL);
	assert_int_equal(ptop_cpuidle_parse_u64("1 2", &v), -EINVAL);
	assert_int_equal(ptop_cpuidle_parse_u64("1\n\n", &v), -EINVAL);
	assert_int_equal(ptop_cpuidle_parse_u64("0x10", &v), -EINVAL);
	assert_int_equal(v, 7);		/* bad input changes nothing */
}

#define fx_test(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		fx_test(test_ns_idle),
		fx_test(test_no_cpu_dir),
		fx_test(test_missing_time),
		fx_test(test_empty),
		fx_test(test_garbage),
		fx_test(test_negative),
		fx_test(test_too_large),
		fx_test(test_all_zero),
		fx_test(test_cpu_without_states),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
