// SPDX-License-Identifier: GPL-2.0
/*
 * The headline's verdict (lib/verdict.h) on scripted intervals: exact
 * only within the source's tolerance, with nothing lost or clamped and
 * fast snapshots; otherwise inexact with every reason, as text too. The
 * check runs on every interval computed (iv_assert_judged(), iv_fixture.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "iv_fixture.h"

#define TICK (10 * MS)

/* Replay the script; judge every interval; leave the last one in f->iv. */
static void run_caps(struct iv_fixture *f, unsigned int tol_ppm, uint64_t res_ns,
		     unsigned int caps)
{
	int i, judged = 0;

	f->fs.tol_ppm = tol_ppm;
	f->fs.res_ns = res_ns;
	iv_fixture_open(f, caps);
	for (i = 0; i < f->fs.nsamples; i++) {
		iv_fixture_update(f);
		if (!i)
			continue;
		iv_fixture_compute(f, false);	/* judges it too */
		judged++;
	}
	assert_int_equal(judged, f->fs.nsamples - 1);
}

static void run(struct iv_fixture *f, unsigned int tol_ppm, uint64_t res_ns)
{
	run_caps(f, tol_ppm, res_ns, CAPS_KMOD);
}

/*
 * Sample k (1 s apart, 2 CPUs) where "busy" burned busy_ns in total and
 * the idle counter moved by idle_step: accounted = busy + idle_step.
 */
static struct ptop_sample *at(struct iv_fixture *f, int k, uint64_t busy_ns,
			      uint64_t idle_ns)
{
	struct ptop_sample *s = fake_sample(&f->fs, (uint64_t)k * SEC, 2, idle_ns);

	fake_proc(s, 1, 0, 1, 0, 0, "init");
	fake_proc(s, 100, 1, 10, busy_ns, 0, "busy");
	return s;
}

static void reason(struct iv_fixture *f, unsigned int bit, const char *want)
{
	char buf[64];

	ptop_verdict_reason(&f->iv, bit, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void headline(struct iv_fixture *f, const char *want)
{
	char buf[256];

	ptop_verdict_str(&f->iv, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* Within tolerance on every interval: exact; 0.5% is the edge. */
static void test_exact_within_tolerance(void **state)
{
	struct iv_fixture *f = *state;

	/* 2 CPUs x 1 s; the task burns 1.5 s per interval, idle moves: */
	at(f, 1, 0, 0);
	at(f, 2, 1500 * MS, 500 * MS);			/* exact sum */
	at(f, 3, 3000 * MS, 1000 * MS - 10 * MS);	/* -10 ms: 0.5% */
	at(f, 4, 4500 * MS, 1500 * MS);			/* +10 ms */
	run(f, 5000, 0);
	assert_int_equal(f->iv.verdict.tol_ns, 10 * MS);
	assert_true(f->iv.verdict.exact);
	headline(f, "exact");
}

/* 1 ns past the tolerance is inexact, signed, in % of one CPU. */
static void test_off(void **state)
{
	struct iv_fixture *f = *state;

	at(f, 1, 0, 0);
	at(f, 2, 1500 * MS, 500 * MS - 10 * MS - 1);
	run(f, 5000, 0);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_OFF);
	assert_int_equal(f->iv.verdict.off_ns, -(int64_t)(10 * MS + 1));
	reason(f, PTOP_WHY_OFF, "off -1.00%");
	reason(f, PTOP_WHY_CLAMPED, "");
	headline(f, "inexact: off -1.00%");
}

/* The same 1.2% is within taskstats' 1% of 2 CPUs, not the module's. */
static void test_tolerance_per_source(void **state)
{
	struct iv_fixture *f = *state;

	at(f, 1, 0, 0);
	at(f, 2, 1500 * MS, 500 * MS - 12 * MS);
	run(f, 10000, 0);
	assert_int_equal(f->iv.verdict.tol_ns, 20 * MS);
	assert_true(f->iv.verdict.exact);
}

/* procfs: 1% plus two ticks per CPU, as its counters are rounded. */
static void test_tolerance_ticks(void **state)
{
	struct iv_fixture *f = *state;

	at(f, 1, 0, 0);
	at(f, 2, 1500 * MS, 500 * MS - 59 * MS);
	at(f, 3, 3000 * MS, 1000 * MS - 59 * MS - 62 * MS);
	run(f, 10000, 2 * TICK);
	assert_int_equal(f->iv.verdict.tol_ns, 20 * MS + 4 * TICK);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_OFF);
	reason(f, PTOP_WHY_OFF, "off -6.20%");
}

/* Sample k of a script 0.1 s apart on 2 CPUs (as at()). */
static struct ptop_sample *at_tenth(struct iv_fixture *f, int k,
				    uint64_t busy_ns, uint64_t idle_ns)
{
	struct ptop_sample *s = fake_sample(&f->fs, (uint64_t)k * 100 * MS, 2,
					    idle_ns);

	fake_proc(s, 1, 0, 1, 0, 0, "init");
	fake_proc(s, 100, 1, 10, busy_ns, 0, "busy");
	return s;
}

/*
 * One meaning of exact: procfs at 0.1 s may be off by 1% + two ticks per
 * CPU = 42 ms of 200, far more than exact's 1%: an interval inside that
 * bound says so, with the bound in the headline's percent and its cause,
 * even when its sum happens to be right; outside it, it is off.
 */
static void test_within_procfs_tenth(void **state)
{
	struct iv_fixture *f = *state;

	f->fs.res_what = "procfs ticks";
	at_tenth(f, 1, 0, 0);
	at_tenth(f, 2, 150 * MS, 50 * MS);		/* the sum is right */
	at_tenth(f, 3, 300 * MS, 100 * MS + 7 * MS);	/* +7% */
	run(f, 10000, 2 * TICK);
	assert_int_equal(f->iv.verdict.tol_ns, 2 * MS + 4 * TICK);
	assert_int_equal(f->iv.verdict.exact_ns, 2 * MS);
	assert_false(f->iv.verdict.exact);
	assert_true(f->iv.verdict.within);
	assert_int_equal(f->iv.verdict.why, 0);
	assert_string_equal(ptop_verdict_word(&f->iv), "within");
	headline(f, "within \u00b142.0% (procfs ticks at 0.1 s)");
}

static void test_within_then_off(void **state)
{
	struct iv_fixture *f = *state;

	f->fs.res_what = "procfs ticks";
	at_tenth(f, 1, 0, 0);
	at_tenth(f, 2, 150 * MS, 50 * MS + 43 * MS);	/* +43% > 42% */
	run(f, 10000, 2 * TICK);
	assert_false(f->iv.verdict.within);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_OFF);
	assert_string_equal(ptop_verdict_word(&f->iv), "inexact");
	headline(f, "inexact: off +43.00%");
}

/*
 * The taskstats source with ns runtimes and ns idle: its bound is exact's
 * 1%. A read whose idle fell back to /proc/stat's ticks (no cpuidle)
 * widens it by a tick per CPU, at either end of the interval, even for a
 * sum that is right to the ns.
 */
static void test_idle_ticks_widen(void **state)
{
	struct iv_fixture *f = *state;

	at(f, 1, 0, 0);
	at(f, 2, 1500 * MS, 500 * MS);
	run(f, 10000, 0);
	assert_true(f->iv.verdict.exact);
	headline(f, "exact");
	iv_fixture_teardown(state);
	assert_int_equal(iv_fixture_setup(state), 0);
	f = *state;

	f->fs.res_what = "idle in ticks";
	f->fs.res_at[0] = TICK;		/* the interval's start only */
	at(f, 1, 0, 0);
	at(f, 2, 1500 * MS, 500 * MS);
	run(f, 10000, 0);
	assert_int_equal(f->iv.verdict.tol_ns, 20 * MS + 2 * TICK);
	assert_true(f->iv.verdict.within);
	headline(f, "within \u00b14.0% (idle in ticks at 1.0 s)");
}

/*
 * A pid namespace's rows against the machine's idle and capacity: 5% of
 * 200% accounted is no "off" ptop can know; the headline says what it
 * sums, and the other reasons still show.
 */
static void test_pidns(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	at(f, 2, 100 * MS, 0);
	s = at(f, 3, 200 * MS, 0);
	s->nlost = 3;
	s->flags |= PTOP_SAMPLE_INEXACT;
	run_caps(f, 10000, 0, PTOP_CAP_PIDNS);
	assert_true(f->iv.verdict.pidns);
	assert_false(f->iv.verdict.exact);
	assert_false(f->iv.verdict.within);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_LOST);
	headline(f, PTOP_VERDICT_PIDNS "; inexact: lost 3 exits");
	iv_fixture_teardown(state);
	assert_int_equal(iv_fixture_setup(state), 0);
	f = *state;

	at(f, 1, 0, 0);
	at(f, 2, 100 * MS, 0);
	run_caps(f, 10000, 0, PTOP_CAP_PIDNS);
	assert_int_equal(f->iv.verdict.why, 0);
	assert_string_equal(ptop_verdict_word(&f->iv), "pid namespace only");
	headline(f, PTOP_VERDICT_PIDNS);
}

/*
 * Exits whose final counters were lost: inexact even when the sum is
 * right (their rest may sit on a wrong row), with the count.
 */
static void test_lost_exits(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	s = at(f, 2, 1500 * MS, 500 * MS);
	s->nlost = 3;
	s->flags |= PTOP_SAMPLE_INEXACT;
	run(f, 5000, 0);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_LOST);
	assert_int_equal(f->iv.verdict.nlost, 3);
	headline(f, "inexact: lost 3 exits");
}

/* An overrun (the kernel dropped messages, count unknown). */
static void test_lost_events(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	s = at(f, 2, 1500 * MS, 500 * MS);
	s->flags |= PTOP_SAMPLE_INEXACT;
	run(f, 5000, 0);
	headline(f, "inexact: lost events");
}

/* The interval after a lost one is judged on its own: exact again. */
static void test_lost_then_exact(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	s = at(f, 2, 1500 * MS, 500 * MS);
	s->nlost = 1;
	s->flags |= PTOP_SAMPLE_INEXACT;
	at(f, 3, 3000 * MS, 1000 * MS);
	run(f, 5000, 0);
	assert_true(f->iv.verdict.exact);
}

/* A counter held to keep a delta >= 0 (clamped): never exact. */
static void test_clamped(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_rec *g;
	struct ptop_sample *s;

	s = at(f, 1, 0, 0);
	fake_group(s, 100)->cutime_ns = 800 * MS;
	s = at(f, 2, 1500 * MS, 500 * MS);
	g = fake_group(s, 100);
	g->cutime_ns = 800 * MS;
	s = at(f, 3, 3000 * MS, 1000 * MS);
	g = fake_group(s, 100);
	g->cutime_ns = 800 * MS;
	/* a dead child folded in, whose shown time the c* does not have */
	fake_proc(&f->fs.samples[1], 300, 100, 30, 200 * MS, 0, "kid");
	fake_exit_group(s, 300, 30, 0, 0, 0, 0, 100, 10);
	fake_exit_thread(s, 300, 300, 30, 200 * MS, 0);
	/* the kid's 200 ms are in sample 2's sum: take them from idle */
	f->fs.samples[1].cpu.idle_ns -= 200 * MS;
	run(f, 5000, 0);
	assert_true(f->iv.clamped_ns > 0);
	assert_true(f->iv.verdict.why & PTOP_WHY_CLAMPED);
	assert_false(f->iv.verdict.exact);
	reason(f, PTOP_WHY_CLAMPED, "clamped 20.00%");
}

/*
 * A slow snapshot: two CPUs busy, windows of 8 and 14 ms put busy tasks'
 * readings up to 2 x (8 + 14) / 2 = 22 ms away: more than the 10 ms the
 * module's tolerance allows, though the sum happens to be right.
 */
static void test_slow_snapshot(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	s = at(f, 1, 0, 0);
	s->window_ns = 8 * MS;
	s = at(f, 2, 2000 * MS, 0);
	s->window_ns = 14 * MS;
	run(f, 5000, 0);
	assert_int_equal(f->iv.verdict.skew_ns, 22 * MS);
	assert_int_equal(f->iv.verdict.window_ns, 14 * MS);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_SLOW);
	headline(f, "inexact: slow snapshot 14.0 ms");
}

/* The same windows on an idle machine cannot move anything: exact. */
static void test_slow_but_idle(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	s = at(f, 1, 0, 0);
	s->window_ns = 8 * MS;
	s = at(f, 2, 100 * MS, 1900 * MS);
	s->window_ns = 14 * MS;
	run(f, 5000, 0);
	/* 0.1 CPUs busy x 11 ms */
	assert_int_equal(f->iv.verdict.skew_ns, 1100000);
	assert_true(f->iv.verdict.exact);
}

/* A first reading the source cannot vouch for, and all reasons at once. */
static void test_first_and_all(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	s = at(f, 1, 0, 0);
	s->flags |= PTOP_SAMPLE_UNSETTLED;
	s->window_ns = 300 * MS;
	s = at(f, 2, 1900 * MS, 0);
	s->nlost = 1;
	s->flags |= PTOP_SAMPLE_INEXACT;
	run(f, 5000, 0);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_FIRST | PTOP_WHY_LOST |
			 PTOP_WHY_SLOW | PTOP_WHY_OFF);
	headline(f, "inexact: first interval, lost 1 exit, slow snapshot 300.0 ms, off -10.00%");
	/* a short buffer gets a terminated prefix, and the whole length */
	{
		char small[12];
		int n = ptop_verdict_str(&f->iv, small, sizeof(small));

		assert_string_equal(small, "inexact: fi");
		assert_int_equal(n, strlen("inexact: first interval, lost 1 exit, slow snapshot 300.0 ms, off -10.00%"));
	}
	/* the view's words: the same reasons and figures, fewer words */
	{
		char buf[256];

		ptop_verdict_brief(&f->iv, buf, sizeof(buf));
		assert_string_equal(buf, "inexact: first, lost 1, slow 300 ms, off -10.00%");
	}
}

/* The interval after the first is not "first" any more. */
static void test_second_not_first(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	s = at(f, 1, 0, 0);
	s->flags |= PTOP_SAMPLE_UNSETTLED;
	at(f, 2, 1500 * MS, 500 * MS);
	at(f, 3, 3000 * MS, 1000 * MS);
	run(f, 5000, 0);
	assert_true(f->iv.verdict.exact);
}

/* A zero-length interval is never exact (nothing to compare with). */
static void test_empty_interval(void **state)
{
	struct iv_fixture *f = *state;

	at(f, 1, 0, 0);
	at(f, 1, 0, 0);
	run(f, 5000, 0);
	assert_false(f->iv.verdict.exact);
	headline(f, "inexact: no interval");
}

/*
 * A stock taskstats source with 4 dead short tasks: what is missing is
 * their exit paths, a part of its own, up to 5 ms each; past the
 * tolerance it makes the interval inexact, named as such; more missing
 * than exit paths can be is "off" for the rest.
 */
static void add_dead(struct ptop_sample *s, uint32_t first, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fake_exit_group(s, first + i, 100 + i, 0, 0, 0, 0, 1, 1);
		fake_exit_thread(s, first + i, first + i, 100 + i, 0, 0);
	}
}

static void test_exit_paths(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	s = at(f, 2, 1500 * MS, 500 * MS - 8 * MS);	/* 8 ms missing */
	add_dead(s, 500, 4);
	s = at(f, 3, 3000 * MS, 1000 * MS - 8 * MS - 19 * MS); /* 19 ms */
	add_dead(s, 600, 4);
	run_caps(f, 5000, 0, CAPS_KMOD | PTOP_CAP_EXIT_TAIL);
	assert_int_equal(f->iv.verdict.exit_paths_ns, 19 * MS);
	assert_int_equal(f->iv.verdict.ntask_exits, 4);
	assert_int_equal(f->iv.verdict.why, PTOP_WHY_EXIT_PATHS);
	headline(f, "inexact: exit paths 1.90% (4 exits, not attributable on this kernel)");
}

static void test_exit_paths_and_off(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	s = at(f, 2, 1500 * MS, 500 * MS - 40 * MS);	/* 40 ms missing */
	add_dead(s, 500, 4);
	run_caps(f, 5000, 0, CAPS_KMOD | PTOP_CAP_EXIT_TAIL);
	assert_int_equal(f->iv.verdict.exit_paths_ns, 20 * MS);
	headline(f, "inexact: exit paths 2.00% (4 exits, not attributable on this kernel), off -2.00%");
	{
		char buf[256];

		ptop_verdict_brief(&f->iv, buf, sizeof(buf));
		assert_string_equal(buf, "inexact: exit paths 2.00%, off -2.00%");
	}
}

/*
 * Exit paths within the tolerance and the rest within it, but not their
 * sum: 12 ms missing of 2 s with one exit (5 ms at most) and a 10 ms
 * tolerance is not exact, and both parts are named.
 */
static void test_exit_paths_sum(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	s = at(f, 2, 1500 * MS, 500 * MS - 12 * MS);
	add_dead(s, 500, 1);
	run_caps(f, 5000, 0, CAPS_KMOD | PTOP_CAP_EXIT_TAIL);
	assert_int_equal(f->iv.verdict.exit_paths_ns, 5 * MS);
	assert_false(f->iv.verdict.exact);
	headline(f, "inexact: exit paths 0.50% (1 exit, not attributable on this kernel), off -0.70%");
}

/* Without the tail cap (the module) missing time is only "off". */
static void test_no_exit_tail(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	at(f, 1, 0, 0);
	s = at(f, 2, 1500 * MS, 500 * MS - 19 * MS);
	add_dead(s, 500, 4);
	run(f, 5000, 0);
	assert_int_equal(f->iv.verdict.exit_paths_ns, 0);
	headline(f, "inexact: off -1.90%");
}

/*
 * A late EXIT record: the child D (shown at 500 ms) is gone from sample
 * 3, its record comes with sample 4. Interval 3 misses what D ran before
 * it died (300 ms) and says why, without clamping; interval 4 shows
 * those 300 ms on the parent's c*, not D's whole 800 ms again; the two
 * add up exactly.
 */
static struct ptop_sample *late_at(struct iv_fixture *f, int k, uint64_t p_ns,
				   uint64_t idle_ns)
{
	struct ptop_sample *s = fake_sample(&f->fs, (uint64_t)k * SEC, 2, idle_ns);

	fake_proc(s, 1, 0, 1, 0, 0, "init");
	fake_proc(s, 100, 1, 10, p_ns, 0, "parent");
	return s;
}

static void test_late_exit(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;
	uint64_t acc3 = 0, acc4 = 0;
	int i;

	s = late_at(f, 1, 0, 0);
	fake_proc(s, 200, 100, 20, 0, 0, "child");
	s = late_at(f, 2, 1000 * MS, 500 * MS);
	fake_proc(s, 200, 100, 20, 500 * MS, 0, "child");
	late_at(f, 3, 2000 * MS, 1200 * MS);	/* D ran 300 ms, died */
	s = late_at(f, 4, 3000 * MS, 2200 * MS);
	fake_group(s, 100)->cutime_ns = 800 * MS;
	fake_exit_group(s, 200, 20, 800 * MS, 0, 0, 0, 100, 10);
	fake_exit_thread(s, 200, 200, 20, 800 * MS, 0);

	f->fs.tol_ppm = 10000;
	iv_fixture_open(f, CAPS_KMOD);
	for (i = 0; i < 4; i++) {
		iv_fixture_update(f);
		if (!i)
			continue;
		iv_fixture_compute(f, false);
		assert_int_equal(f->iv.clamped_ns, 0);
		assert_int_equal(f->iv.unfolded_ns, 0);
		if (i == 1) {
			assert_true(f->iv.verdict.exact);
		} else if (i == 2) {
			acc3 = ptop_interval_accounted_ns(&f->iv);
			assert_int_equal(acc3, 1700 * MS);
			assert_int_equal(f->iv.nlate, 1);
			headline(f, "inexact: off -30.00%, late 1 exit");
		} else {
			acc4 = ptop_interval_accounted_ns(&f->iv);
			assert_int_equal(acc4, 2300 * MS);
			assert_int_equal(f->iv.rows[1].pid, 100);
			assert_int_equal(f->iv.rows[1].cuser, 300 * MS);
			assert_int_equal(f->iv.nlate, 1);
			assert_true(f->iv.verdict.why & PTOP_WHY_LATE);
		}
	}
	assert_int_equal(acc3 + acc4, 2 * 2 * SEC);
}

/* A late thread EXIT: the rest of the dead thread goes to its group's x*. */
static void test_late_thread_exit(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;

	s = at(f, 1, 0, 0);
	fake_thread(s, 101, 100, 30, 0, 0);
	s = at(f, 2, 600 * MS, 1000 * MS);
	fake_thread(s, 101, 100, 30, 400 * MS, 0);
	at(f, 3, 1200 * MS, 1000 * MS + 1300 * MS);	/* 101 ran 100 ms */
	s = at(f, 4, 1800 * MS, 2300 * MS + 1400 * MS);
	fake_group(s, 100)->xutime_ns = 500 * MS;
	fake_exit_thread(s, 101, 100, 30, 500 * MS, 0);
	run_caps(f, 10000, 0, CAPS_KMOD);
	assert_int_equal(f->iv.rows[1].xuser, 100 * MS);
	assert_int_equal(f->iv.clamped_ns, 0);
	assert_int_equal(f->iv.nlate, 1);
	assert_int_equal(ptop_interval_accounted_ns(&f->iv), 2100 * MS);
}

/* Never come: after PTOP_SNAP_PENDING_GENS snapshots it is forgotten. */
static void test_late_never(void **state)
{
	struct iv_fixture *f = *state;
	struct ptop_sample *s;
	int k;

	s = late_at(f, 1, 0, 0);
	fake_proc(s, 200, 100, 20, 0, 0, "child");
	for (k = 2; k <= 6; k++)
		late_at(f, k, (uint64_t)(k - 1) * 1000 * MS,
			(uint64_t)(k - 1) * 1000 * MS);
	run(f, 10000, 0);
	assert_true(f->iv.verdict.exact);
	assert_int_equal(ptop_snap_cur(&f->snap)->npending, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		iv_test(test_exact_within_tolerance),
		iv_test(test_off),
		iv_test(test_tolerance_per_source),
		iv_test(test_tolerance_ticks),
		iv_test(test_within_procfs_tenth),
		iv_test(test_within_then_off),
		iv_test(test_idle_ticks_widen),
		iv_test(test_pidns),
		iv_test(test_lost_exits),
		iv_test(test_lost_events),
		iv_test(test_lost_then_exact),
		iv_test(test_clamped),
		iv_test(test_slow_snapshot),
		iv_test(test_slow_but_idle),
		iv_test(test_first_and_all),
		iv_test(test_second_not_first),
		iv_test(test_empty_interval),
		iv_test(test_exit_paths),
		iv_test(test_exit_paths_and_off),
		iv_test(test_exit_paths_sum),
		iv_test(test_no_exit_tail),
		iv_test(test_late_exit),
		iv_test(test_late_thread_exit),
		iv_test(test_late_never),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
