// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots: full samples replace the task set, incremental ones merge
 * (absent tasks keep their values, EXIT records remove theirs), the
 * user/system split never goes backwards, pid reuse is a new task.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <cmocka.h>

#include "fake_src.h"

struct fixture {
	struct fake_script fs;
	struct ptop_src *src;
	struct ptop_snapper snap;
};

static int setup(void **state)
{
	*state = calloc(1, sizeof(struct fixture));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ptop_snapper_free(&f->snap);
	ptop_src_close(f->src);
	fake_script_free(&f->fs);
	free(f);
	return 0;
}

static const struct ptop_snap *replay(struct fixture *f, unsigned int caps)
{
	int i;

	f->src = fake_src_open(&f->fs, caps);
	assert_non_null(f->src);
	ptop_snapper_init(&f->snap, f->src);
	for (i = 0; i < f->fs.nsamples; i++)
		assert_int_equal(ptop_snap_update(&f->snap), 0);
	assert_int_equal(f->snap.taken, f->fs.nsamples);
	return ptop_snap_cur(&f->snap);
}

static void first(struct fixture *f)
{
	struct ptop_sample *s = fake_sample(&f->fs, 1000 * MS, 2, 0);

	fake_proc(s, 300, 1, 30, 30 * MS, 0, "c");
	fake_proc(s, 100, 1, 10, 10 * MS, 0, "a");
	fake_proc(s, 200, 1, 20, 20 * MS, 0, "b");
}

static void test_incremental_merge(void **state)
{
	struct fixture *f = *state;
	const struct ptop_snap *cur;
	struct ptop_sample *s;

	first(f);
	s = fake_sample(&f->fs, 2000 * MS, 2, 0);
	s->flags = PTOP_SAMPLE_INCREMENTAL;
	fake_proc(s, 200, 1, 20, 25 * MS, 0, "b");
	fake_proc(s, 400, 1, 40, 1 * MS, 0, "d");
	fake_exit_thread(s, 300, 300, 30, 31 * MS, 0);
	fake_exit_group(s, 300, 30, 31 * MS, 0, 0, 0, 1, 0);
	cur = replay(f, PTOP_CAP_INCREMENTAL | PTOP_CAP_EXITS);

	assert_int_equal(cur->nthreads, 3);
	assert_int_equal(cur->ngroups, 3);
	/* sorted by pid */
	assert_int_equal(cur->threads[0].pid, 100);
	assert_int_equal(cur->threads[1].pid, 200);
	assert_int_equal(cur->threads[2].pid, 400);
	/* a kept its values, b was updated, c is gone, d is new */
	assert_int_equal(ptop_snap_find_thread(cur, 100, 10)->utime_ns, 10 * MS);
	assert_int_equal(ptop_snap_find_thread(cur, 200, 20)->utime_ns, 25 * MS);
	assert_null(ptop_snap_find_thread(cur, 300, 30));
	assert_null(ptop_snap_find_group(cur, 300, 30));
	assert_non_null(ptop_snap_find_group(cur, 400, 40));
	assert_int_equal(cur->nexits, 2);
	/* the snapshot no longer claims to be incremental */
	assert_false(cur->flags & PTOP_SAMPLE_INCREMENTAL);
}

static void test_full_replaces(void **state)
{
	struct fixture *f = *state;
	const struct ptop_snap *cur;
	struct ptop_sample *s;

	first(f);
	s = fake_sample(&f->fs, 2000 * MS, 2, 0);
	fake_proc(s, 200, 1, 20, 25 * MS, 0, "b");
	cur = replay(f, 0);

	assert_int_equal(cur->nthreads, 1);
	assert_int_equal(cur->ngroups, 1);
	assert_null(ptop_snap_find_thread(cur, 100, 10));
	assert_int_equal(ptop_snap_prev(&f->snap)->nthreads, 3);
}

static void test_split_monotonic(void **state)
{
	struct fixture *f = *state;
	const struct ptop_snap *cur;
	const struct ptop_rec *t;
	struct ptop_sample *s = fake_sample(&f->fs, 1000 * MS, 1, 0);

	fake_proc(s, 100, 1, 10, 100 * MS, 100 * MS, "a");
	s = fake_sample(&f->fs, 2000 * MS, 1, 0);
	/* total grew by 20, but the scaled user part shrank */
	fake_proc(s, 100, 1, 10, 90 * MS, 130 * MS, "a");
	cur = replay(f, 0);

	t = ptop_snap_find_thread(cur, 100, 10);
	assert_int_equal(t->utime_ns, 100 * MS);
	assert_int_equal(t->stime_ns, 120 * MS);
}

/* A derived x* that dips by a tick is held, not a new incarnation. */
static void test_x_dip_held(void **state)
{
	struct fixture *f = *state;
	const struct ptop_snap *cur;
	struct ptop_sample *s = fake_sample(&f->fs, 1000 * MS, 1, 0);

	fake_proc(s, 100, 1, 10, 0, 0, "a");
	fake_group(s, 100)->xstime_ns = 670 * MS;
	fake_group(s, 100)->cutime_ns = 50 * MS;
	s = fake_sample(&f->fs, 2000 * MS, 1, 0);
	fake_proc(s, 100, 1, 10, 0, 0, "a");
	fake_group(s, 100)->xstime_ns = 660 * MS;
	fake_group(s, 100)->cutime_ns = 40 * MS;
	cur = replay(f, PTOP_DATA_X | PTOP_DATA_C);

	assert_int_equal(ptop_snap_find_group(cur, 100, 10)->xstime_ns, 670 * MS);
	assert_int_equal(ptop_snap_find_group(cur, 100, 10)->cutime_ns, 50 * MS);
}

/*
 * A live task's total that dips a little (a torn kernel reading) is held;
 * a big drop, or one after a non-leader exec (the task took over the
 * leader's pid and start time), is left for the interval math to treat
 * as a new incarnation.
 */
static void test_own_dip_held(void **state)
{
	struct fixture *f = *state;
	const struct ptop_snap *cur;
	const struct ptop_rec *t;
	struct ptop_sample *s = fake_sample(&f->fs, 1000 * MS, 1, 0);

	fake_proc(s, 100, 1, 10, 500 * MS, 100 * MS, "dip");
	fake_proc(s, 200, 1, 20, 500 * MS, 100 * MS, "drop");
	fake_proc(s, 300, 1, 30, 500 * MS, 100 * MS, "exec");
	s = fake_sample(&f->fs, 2000 * MS, 1, 0);
	fake_proc(s, 100, 1, 10, 499 * MS, 100 * MS, "dip");
	fake_proc(s, 200, 1, 20, 200 * MS, 100 * MS, "drop");
	fake_proc(s, 300, 1, 30, 499 * MS, 100 * MS, "exec");
	s->recs[s->nrecs - 1].flags |= PTOP_RECF_EXEC;	/* its thread */
	cur = replay(f, 0);

	t = ptop_snap_find_thread(cur, 100, 10);
	assert_int_equal(t->utime_ns + t->stime_ns, 600 * MS);
	t = ptop_snap_find_thread(cur, 200, 20);
	assert_int_equal(t->utime_ns + t->stime_ns, 300 * MS);
	t = ptop_snap_find_thread(cur, 300, 30);
	assert_int_equal(t->utime_ns + t->stime_ns, 599 * MS);
}

static void test_pid_reuse_incremental(void **state)
{
	struct fixture *f = *state;
	const struct ptop_snap *cur;
	struct ptop_sample *s;

	first(f);
	s = fake_sample(&f->fs, 2000 * MS, 2, 0);
	s->flags = PTOP_SAMPLE_INCREMENTAL;
	fake_exit_thread(s, 200, 200, 20, 22 * MS, 0);
	fake_exit_group(s, 200, 20, 22 * MS, 0, 0, 0, 1, 0);
	fake_proc(s, 200, 1, 25, 3 * MS, 0, "b2");
	cur = replay(f, PTOP_CAP_INCREMENTAL | PTOP_CAP_EXITS);

	assert_null(ptop_snap_find_thread(cur, 200, 20));
	assert_int_equal(ptop_snap_find_thread(cur, 200, 25)->utime_ns, 3 * MS);
	assert_int_equal(ptop_snap_find_tgid(cur, 200)->start_ns, 25);
	assert_int_equal(cur->nthreads, 3);
}

static void test_empty_and_first(void **state)
{
	struct fixture *f = *state;
	const struct ptop_snap *cur;

	fake_sample(&f->fs, 1000 * MS, 1, 0);
	cur = replay(f, 0);
	assert_int_equal(cur->nthreads, 0);
	assert_null(ptop_snap_prev(&f->snap));
	assert_null(ptop_snap_find_tgid(cur, 1));
	/* the source ran dry: an error, the snapshot stays */
	assert_int_equal(ptop_snap_update(&f->snap), -ENODATA);
	assert_ptr_equal(ptop_snap_cur(&f->snap), cur);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_incremental_merge, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_replaces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_monotonic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x_dip_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_dip_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_reuse_incremental, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_and_first, setup, teardown),
	};

	return cmocka_run_group_tests_name("snap", tests, NULL, NULL);
}
