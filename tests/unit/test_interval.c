// SPDX-License-Identifier: GPL-2.0
/*
 * The interval math on scripted samples: dead children, chains of dead
 * ancestors, orphans, born-and-dead tasks, pid reuse, counters going
 * backwards, thread exits. Every case asserts exact per-row deltas and
 * that rows + idle = ncpu x interval.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "iv_fixture.h"

/* Replay the whole script; compute the interval of the last two samples. */
static void run(struct iv_fixture *f, unsigned int caps, bool threads)
{
	int i;

	iv_fixture_open(f, caps);
	for (i = 0; i < f->fs.nsamples; i++)
		iv_fixture_update(f);
	iv_fixture_compute(f, threads);
}

static const struct ptop_row *row(struct iv_fixture *f, uint32_t pid)
{
	size_t i;

	for (i = 0; i < f->iv.nrows; i++)
		if (f->iv.rows[i].pid == pid)
			return &f->iv.rows[i];
	return NULL;
}

#define assert_row(f, pid, u, s, cu, cs, xu, xs) do {			\
	const struct ptop_row *r_ = row(f, pid);			\
	assert_non_null(r_);						\
	assert_int_equal(r_->user, (u));				\
	assert_int_equal(r_->sys, (s));					\
	assert_int_equal(r_->cuser, (cu));				\
	assert_int_equal(r_->csys, (cs));				\
	assert_int_equal(r_->xuser, (xu));				\
	assert_int_equal(r_->xsys, (xs));				\
	assert_int_equal(r_->total, (u) + (s) + (cu) + (cs) + (xu) + (xs)); \
} while (0)

/*
 * rows + idle = ncpu x interval, exactly; and the verdict says so (the
 * script's source has no tolerance: any ns off is inexact).
 */
static void assert_balanced(struct iv_fixture *f)
{
	assert_int_equal(ptop_interval_accounted_ns(&f->iv),
			 ptop_interval_capacity_ns(&f->iv));
	assert_int_equal(f->iv.clamped_ns, 0);
	assert_int_equal(f->iv.verdict.off_ns, 0);
	assert_false(f->iv.verdict.why & (PTOP_WHY_OFF | PTOP_WHY_CLAMPED));
	assert_int_equal(f->iv.verdict.exact,
			 !(f->fs.samples[f->fs.nsamples - 1].flags &
			   PTOP_SAMPLE_INEXACT) && !f->iv.unfolded_ns);
}

/*
 * Two CPUs, 1 s interval: busy is what the script burns in the interval,
 * idle the rest. idle0 is the cumulative idle at the first sample.
 */
static struct ptop_sample *second(struct iv_fixture *f, uint64_t busy)
{
	return fake_sample(&f->fs, 2 * SEC, 2, 5 * SEC + 2 * SEC - busy);
}

static void init_pair(struct iv_fixture *f)
{
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 500 * MS, 100 * MS, "parent");
	fake_proc(s, 200, 100, 20, 300 * MS, 50 * MS, "child");
}

/* A waited child dies: its rest shows in the parent's c*, once. */
static void test_child_dies(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	init_pair(f);
	/* parent +100/+0 ms; child burned 200 ms user + 50 ms sys more */
	s = second(f, 100 * MS + 250 * MS);
	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 600 * MS, 100 * MS, "parent");
	fake_group(s, 100)->cutime_ns = 500 * MS;
	fake_group(s, 100)->cstime_ns = 100 * MS;
	fake_exit_group(s, 200, 20, 500 * MS, 100 * MS, 0, 0, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 100 * MS, 0, 200 * MS, 50 * MS, 0, 0);
	assert_null(row(f, 200));
	assert_row(f, 1, 0, 0, 0, 0, 0, 0);
	assert_int_equal(f->iv.nexited, 1);
	assert_balanced(f);
}

/*
 * The dead child's time comes back in the parent's c* with another
 * split (its record said mostly user, the fold mostly system: two
 * estimates of one runtime): the c* column is its rest, 200 ms, all of
 * it where the split still grew; nothing is clamped, rows + idle hold.
 */
static void test_child_dies_split_moves(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	init_pair(f);
	s = second(f, 100 * MS + 200 * MS);
	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 600 * MS, 100 * MS, "parent");
	fake_group(s, 100)->cutime_ns = 100 * MS;
	fake_group(s, 100)->cstime_ns = 450 * MS;
	fake_exit_group(s, 200, 20, 100 * MS, 450 * MS, 0, 0, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 100 * MS, 0, 0, 200 * MS, 0, 0);
	assert_balanced(f);
}

/*
 * The parent's c* has less than what was shown of the child before its
 * death: that total went backwards, and only that is clamped (the
 * interval is then inexact for it).
 */
static void test_child_dies_c_short(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	init_pair(f);
	s = second(f, 100 * MS);
	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 600 * MS, 100 * MS, "parent");
	fake_group(s, 100)->cutime_ns = 200 * MS;
	fake_group(s, 100)->cstime_ns = 100 * MS;
	fake_exit_group(s, 200, 20, 200 * MS, 100 * MS, 0, 0, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 100 * MS, 0, 0, 0, 0, 0);
	assert_int_equal(f->iv.clamped_ns, 50 * MS);
	assert_true(f->iv.verdict.why & PTOP_WHY_CLAMPED);
	assert_false(f->iv.verdict.exact);
}

/* Child and grandchild both die: the chain folds into the parent. */
static void test_child_and_grandchild_die(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 0, 0, "parent");
	fake_proc(s, 200, 100, 20, 500 * MS, 0, "child");
	fake_proc(s, 300, 200, 30, 200 * MS, 0, "grandchild");
	/* child +300 ms, grandchild +200 ms, then both die */
	s = second(f, 500 * MS);
	fake_proc(s, 100, 1, 10, 0, 0, "parent");
	fake_group(s, 100)->cutime_ns = 800 * MS + 400 * MS;
	fake_exit_group(s, 300, 30, 400 * MS, 0, 0, 0, 200, 20);
	fake_exit_group(s, 200, 20, 800 * MS, 0, 400 * MS, 0, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 0, 0, 500 * MS, 0, 0, 0);
	assert_int_equal(f->iv.nexited, 2);
	assert_balanced(f);
}

/*
 * Double-fork orphan: the middle parent died in an earlier interval, the
 * orphan (reparented to init) dies now and is folded into the
 * grand-ancestor, not into init.
 */
static void test_orphan_to_grand_ancestor(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 1, 0, 1, 0, 0, "init");
	fake_proc(s, 100, 1, 10, 0, 0, "shell");
	fake_proc(s, 300, 1, 30, 100 * MS, 0, "orphan");	/* ppid: init */
	fake_group(s, 300)->acct_ptgid = 100;
	s = second(f, 900 * MS);
	fake_proc(s, 1, 0, 1, 0, 0, "init");
	fake_proc(s, 100, 1, 10, 0, 0, "shell");
	fake_group(s, 100)->cutime_ns = 1000 * MS;
	fake_exit_group(s, 300, 30, 1000 * MS, 0, 0, 0, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 0, 0, 900 * MS, 0, 0, 0);
	assert_row(f, 1, 0, 0, 0, 0, 0, 0);
	assert_balanced(f);
}

/* Without EXIT records (procfs), the previous accounting parent chain. */
static void test_vanished_chain_without_exits(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 0, 0, "parent");
	fake_proc(s, 200, 100, 20, 300 * MS, 0, "child");
	fake_proc(s, 300, 200, 30, 100 * MS, 0, "grandchild");
	s = second(f, 400 * MS);
	fake_proc(s, 100, 1, 10, 0, 0, "parent");
	/* both waited for: parent's cutime has child + grandchild */
	fake_group(s, 100)->cutime_ns = 500 * MS + 300 * MS;
	run(f, PTOP_DATA_X | PTOP_DATA_C, false);

	assert_row(f, 100, 0, 0, 400 * MS, 0, 0, 0);
	assert_int_equal(f->iv.nexited, 2);
	assert_balanced(f);
}

/* Born and dead inside one interval: all of it is new in the parent. */
static void test_born_and_dead(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	init_pair(f);
	s = second(f, 700 * MS);
	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 500 * MS, 100 * MS, "parent");
	fake_proc(s, 200, 100, 20, 300 * MS, 50 * MS, "child");
	fake_group(s, 200)->cutime_ns = 600 * MS;
	fake_group(s, 200)->cstime_ns = 100 * MS;
	fake_exit_group(s, 400, 40, 600 * MS, 100 * MS, 0, 0, 200, 20);
	run(f, CAPS_KMOD, false);

	assert_row(f, 200, 0, 0, 600 * MS, 100 * MS, 0, 0);
	assert_row(f, 100, 0, 0, 0, 0, 0, 0);
	assert_balanced(f);
}

/* pid reuse: same pid, new start time: a new task, full value counts. */
static void test_pid_reuse(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	init_pair(f);
	s = second(f, 50 * MS + 80 * MS);
	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 500 * MS, 100 * MS, "parent");
	fake_group(s, 100)->cutime_ns = 300 * MS + 50 * MS;
	fake_group(s, 100)->cstime_ns = 50 * MS;
	fake_exit_group(s, 200, 20, 350 * MS, 50 * MS, 0, 0, 100, 10);
	fake_proc(s, 200, 100, 25, 80 * MS, 0, "new200");
	run(f, CAPS_KMOD, false);

	assert_row(f, 200, 80 * MS, 0, 0, 0, 0, 0);
	assert_true(row(f, 200)->is_new);
	assert_row(f, 100, 0, 0, 50 * MS, 0, 0, 0);
	assert_balanced(f);
}

/* A counter that goes backwards is a new incarnation, never negative. */
static void test_counter_backwards(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	init_pair(f);
	s = second(f, 120 * MS);
	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 500 * MS, 100 * MS, "parent");
	fake_proc(s, 200, 100, 20, 100 * MS, 20 * MS, "child");	/* was 350 */
	run(f, CAPS_KMOD, false);

	assert_row(f, 200, 100 * MS, 20 * MS, 0, 0, 0, 0);
	assert_balanced(f);
}

/* A thread exits: the rest of its time shows in x*, once. */
static void test_thread_exit(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 100 * MS, 0, "mt");
	fake_thread(s, 101, 100, 11, 300 * MS, 10 * MS);
	fake_thread(s, 102, 100, 12, 0, 0);
	fake_group(s, 100)->nthreads = 3;
	/* leader +100, 101 +200/+20 then exits, 102 +300 */
	s = second(f, 100 * MS + 220 * MS + 300 * MS);
	fake_proc(s, 100, 1, 10, 200 * MS, 0, "mt");
	fake_thread(s, 102, 100, 12, 300 * MS, 0);
	fake_group(s, 100)->xutime_ns = 500 * MS;
	fake_group(s, 100)->xstime_ns = 30 * MS;
	fake_exit_thread(s, 101, 100, 11, 500 * MS, 30 * MS);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 400 * MS, 0, 0, 0, 200 * MS, 20 * MS);
	assert_balanced(f);
}

/* Thread view: rows per thread; the leader carries the group's x and c. */
static void test_thread_rows(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 100 * MS, 0, "mt");
	fake_thread(s, 101, 100, 11, 300 * MS, 0);
	fake_thread(s, 102, 100, 12, 0, 0);
	s = second(f, 100 * MS + 200 * MS + 300 * MS);
	fake_proc(s, 100, 1, 10, 200 * MS, 0, "mt");
	fake_thread(s, 102, 100, 12, 300 * MS, 0);
	fake_group(s, 100)->xutime_ns = 500 * MS;
	fake_exit_thread(s, 101, 100, 11, 500 * MS, 0);
	run(f, CAPS_KMOD, true);

	assert_int_equal(f->iv.nrows, 2);
	assert_row(f, 100, 100 * MS, 0, 0, 0, 200 * MS, 0);
	assert_row(f, 102, 300 * MS, 0, 0, 0, 0, 0);
	assert_false(row(f, 102)->has & PTOP_DATA_X);
	assert_true(row(f, 100)->has & PTOP_DATA_X);
	assert_balanced(f);
}

/* Missing data from a source is marked, never made up. */
static void test_missing_caps(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	init_pair(f);
	s = second(f, 0);
	fake_proc(s, 1, 0, 1, 10 * SEC, 0, "init");
	fake_proc(s, 100, 1, 10, 500 * MS, 100 * MS, "parent");
	fake_proc(s, 200, 100, 20, 300 * MS, 50 * MS, "child");
	s->flags |= PTOP_SAMPLE_INEXACT;
	run(f, PTOP_DATA_X, false);

	assert_false(row(f, 100)->has & PTOP_DATA_C);
	assert_false(row(f, 100)->has & PTOP_DATA_STEAL);
	assert_true(row(f, 100)->has & PTOP_DATA_X);
	assert_true(f->iv.flags & PTOP_IV_INEXACT);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_LOST);
	assert_balanced(f);
}


/*
 * Module fold order: the middle group died first (its child moved to the
 * grandparent then), the bottom one after it, in the same interval; each
 * EXIT record names the live receiver directly.
 */
static void test_chain_middle_dies_first(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 0, 0, "top");
	fake_proc(s, 200, 100, 20, 100 * MS, 0, "middle");
	fake_group(s, 200)->cutime_ns = 50 * MS;	/* an earlier child */
	fake_proc(s, 300, 200, 30, 200 * MS, 0, "bottom");
	/* middle +100 ms then dies, bottom +300 ms then dies */
	s = second(f, 400 * MS);
	fake_proc(s, 100, 1, 10, 0, 0, "top");
	fake_group(s, 100)->cutime_ns = 250 * MS + 500 * MS;
	fake_exit_group(s, 200, 20, 200 * MS, 0, 50 * MS, 0, 100, 10);
	fake_exit_group(s, 300, 30, 500 * MS, 0, 0, 0, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 0, 0, 400 * MS, 0, 0, 0);
	assert_int_equal(f->iv.nexited, 2);
	assert_balanced(f);
}

/*
 * Three dead generations in one interval, each folded into the next one
 * up (bottom first): the chain of EXIT records leads to the live top.
 */
static void test_chain_three_dead(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 0, 0, "top");
	fake_proc(s, 200, 100, 20, 10 * MS, 0, "a");
	fake_proc(s, 300, 200, 30, 20 * MS, 0, "b");
	fake_proc(s, 400, 300, 40, 30 * MS, 5 * MS, "c");
	/* a +10, b +20, c +30/+5; c dies into b, b into a, a into top */
	s = second(f, 65 * MS);
	fake_proc(s, 100, 1, 10, 0, 0, "top");
	fake_group(s, 100)->cutime_ns = 20 * MS + 40 * MS + 60 * MS;
	fake_group(s, 100)->cstime_ns = 10 * MS;
	fake_exit_group(s, 400, 40, 60 * MS, 10 * MS, 0, 0, 300, 30);
	fake_exit_group(s, 300, 30, 40 * MS, 0, 60 * MS, 10 * MS, 200, 20);
	fake_exit_group(s, 200, 20, 20 * MS, 0, 100 * MS, 10 * MS, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 0, 0, 60 * MS, 5 * MS, 0, 0);
	assert_int_equal(f->iv.nexited, 3);
	assert_balanced(f);
}

/*
 * A subreaper: the orphan's real parent is the subreaper (its ppid), its
 * accounting parent the shell that started the chain; a self-reaped child
 * of a SIGCHLD-ignoring parent dies too. Each goes where it came from.
 */
static void test_subreaper_and_selfreaped(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 1, 0, 1, 0, 0, "init");
	fake_proc(s, 50, 1, 5, 0, 0, "subreaper");
	fake_proc(s, 100, 50, 10, 0, 0, "shell");
	fake_proc(s, 300, 50, 30, 100 * MS, 0, "orphan");
	fake_group(s, 300)->acct_ptgid = 100;
	fake_proc(s, 400, 100, 40, 10 * MS, 0, "selfreap");
	/* orphan +200 ms, self-reaped +30 ms, both die */
	s = second(f, 230 * MS);
	fake_proc(s, 1, 0, 1, 0, 0, "init");
	fake_proc(s, 50, 1, 5, 0, 0, "subreaper");
	fake_proc(s, 100, 50, 10, 0, 0, "shell");
	fake_group(s, 100)->cutime_ns = 300 * MS + 40 * MS;
	fake_exit_group(s, 300, 30, 300 * MS, 0, 0, 0, 100, 10);
	fake_exit_group(s, 400, 40, 40 * MS, 0, 0, 0, 100, 10);
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 0, 0, 230 * MS, 0, 0, 0);
	assert_row(f, 50, 0, 0, 0, 0, 0, 0);
	assert_row(f, 1, 0, 0, 0, 0, 0, 0);
	assert_balanced(f);
}

/* Add a thread record that a non-leader exec made the leader. */
static void fake_execer(struct ptop_sample *s, uint32_t tgid, uint64_t start,
			uint64_t u, uint32_t old_pid, uint64_t old_start)
{
	struct ptop_rec *t;

	fake_thread(s, tgid, tgid, start, u, 0);
	t = &s->recs[s->nrecs - 1];
	t->flags |= PTOP_RECF_EXEC;
	t->exec_old_pid = old_pid;
	t->exec_old_start_ns = old_start;
}

/*
 * Non-leader exec: thread 101 execs, takes over pid 100 and its start
 * time; the old leader's time moves to x*. The exec'er (now "100") has
 * less time than the old leader had: still no new incarnation, and no
 * time lost or counted twice.
 */
static void test_nonleader_exec(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 100 * MS, 0, "mt");
	fake_thread(s, 101, 100, 11, 50 * MS, 0);
	fake_group(s, 100)->nthreads = 2;
	/* leader +50 then exits (final 150); 101 +30 then execs */
	s = second(f, 80 * MS);
	fake_proc(s, 100, 1, 10, 0, 0, "new");
	s->nrecs--;			/* the group only: the thread follows */
	fake_execer(s, 100, 10, 80 * MS, 101, 11);
	fake_group(s, 100)->xutime_ns = 150 * MS;
	fake_exit_thread(s, 100, 100, 10, 150 * MS, 0);
	s->flags |= PTOP_SAMPLE_INCREMENTAL;
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 30 * MS, 0, 0, 0, 50 * MS, 0);
	/* the exec'er's old record is gone from the merged set, no ghost */
	assert_null(ptop_snap_find_thread(ptop_snap_cur(&f->snap), 101, 11));
	assert_non_null(ptop_snap_find_thread(ptop_snap_cur(&f->snap), 100, 10));
	assert_balanced(f);
}

/* The interval after the exec: the exec'er continues from its own value. */
static void test_nonleader_exec_after(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s = fake_sample(&f->fs, 1 * SEC, 2, 5 * SEC);

	fake_proc(s, 100, 1, 10, 0, 0, "new");
	s->nrecs--;
	fake_execer(s, 100, 10, 80 * MS, 101, 11);
	fake_group(s, 100)->xutime_ns = 150 * MS;
	s = second(f, 20 * MS);
	fake_proc(s, 100, 1, 10, 0, 0, "new");
	s->nrecs--;
	fake_execer(s, 100, 10, 100 * MS, 101, 11);
	fake_group(s, 100)->xutime_ns = 150 * MS;
	run(f, CAPS_KMOD, false);

	assert_row(f, 100, 20 * MS, 0, 0, 0, 0, 0);
	assert_balanced(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		iv_test(test_child_dies),
		iv_test(test_child_dies_split_moves),
		iv_test(test_child_dies_c_short),
		iv_test(test_child_and_grandchild_die),
		iv_test(test_orphan_to_grand_ancestor),
		iv_test(test_vanished_chain_without_exits),
		iv_test(test_born_and_dead),
		iv_test(test_pid_reuse),
		iv_test(test_counter_backwards),
		iv_test(test_thread_exit),
		iv_test(test_thread_rows),
		iv_test(test_missing_caps),
		iv_test(test_chain_middle_dies_first),
		iv_test(test_chain_three_dead),
		iv_test(test_subreaper_and_selfreaped),
		iv_test(test_nonleader_exec),
		iv_test(test_nonleader_exec_after),
	};

	return cmocka_run_group_tests_name("interval", tests, NULL, NULL);
}
