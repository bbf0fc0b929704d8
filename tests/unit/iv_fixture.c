// SPDX-License-Identifier: GPL-2.0
/* The interval tests' fixture (iv_fixture.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "iv_fixture.h"

int iv_fixture_setup(void **state)
{
	struct iv_fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	ptop_interval_init(&f->iv);
	*state = f;
	return 0;
}

int iv_fixture_teardown(void **state)
{
	struct iv_fixture *f = *state;

	ptop_interval_free(&f->iv);
	ptop_snapper_free(&f->snap);
	ptop_src_close(f->src);
	fake_script_free(&f->fs);
	free(f);
	return 0;
}

void iv_fixture_open(struct iv_fixture *f, unsigned int caps)
{
	f->src = fake_src_open(&f->fs, caps);
	assert_non_null(f->src);
	ptop_snapper_init(&f->snap, f->src);
}

void iv_fixture_update(struct iv_fixture *f)
{
	assert_int_equal(ptop_snap_update(&f->snap), 0);
}

/* |off| once the exit paths (a part of their own) are taken out */
static uint64_t off_rest_abs(const struct ptop_interval *iv)
{
	int64_t off = iv->verdict.off_ns + (int64_t)iv->verdict.exit_paths_ns;

	return off < 0 ? (uint64_t)-off : (uint64_t)off;
}

static uint64_t off_total_abs(const struct ptop_interval *iv)
{
	int64_t off = iv->verdict.off_ns;

	return off < 0 ? (uint64_t)-off : (uint64_t)off;
}

/*
 * The exactness claim, on one interval: never exact outside the
 * tolerance (rows + idle, exit paths included), exact means no reason at
 * all, and the headline word and the old flag agree with the verdict.
 */
void iv_assert_judged(const struct ptop_interval *iv)
{
	const struct ptop_verdict *v = &iv->verdict;
	char buf[256];
	bool sum_out;

	if (v->exact) {
		/* the one meaning: 1% (0.5% module), whatever the source */
		assert_true(off_total_abs(iv) <= v->exact_ns);
		assert_true(v->tol_ns <= v->exact_ns);
		assert_true(v->exact_ns <= ptop_interval_capacity_ns(iv) / 100);
		assert_false(v->within);
		assert_true(off_total_abs(iv) <= v->tol_ns);
		assert_true(v->skew_ns <= v->tol_ns);
		assert_int_equal(iv->clamped_ns, 0);
		assert_int_equal(v->nlost, 0);
		assert_int_equal(v->why, 0);
		assert_false(iv->flags & PTOP_IV_INEXACT);
	} else if (v->pidns) {
		/* a pid namespace's rows: no sum judged, other reasons kept */
		assert_false(v->why & (PTOP_WHY_OFF | PTOP_WHY_EXIT_PATHS));
		assert_false(v->within);
		assert_true(iv->flags & PTOP_IV_INEXACT);
	} else if (v->within) {
		/* no reason, but a bound wider than exact's */
		assert_int_equal(v->why, 0);
		assert_true(v->tol_ns > v->exact_ns);
		assert_true(off_total_abs(iv) <= v->tol_ns);
		assert_true(iv->flags & PTOP_IV_INEXACT);
	} else {
		assert_int_not_equal(v->why, 0);
		assert_true(iv->flags & PTOP_IV_INEXACT);
	}
	ptop_verdict_str(iv, buf, sizeof(buf));
	if (v->pidns) {
		assert_memory_equal(buf, PTOP_VERDICT_PIDNS,
				    strlen(PTOP_VERDICT_PIDNS));
		return;
	}
	sum_out = off_total_abs(iv) > v->tol_ns &&
		  off_rest_abs(iv) <= v->tol_ns && v->exit_paths_ns <= v->tol_ns;
	assert_int_equal(!!(v->why & PTOP_WHY_OFF),
			 off_rest_abs(iv) > v->tol_ns || !iv->interval_ns ||
			 sum_out);
	assert_int_equal(!!(v->why & PTOP_WHY_EXIT_PATHS),
			 v->exit_paths_ns > v->tol_ns ||
			 (sum_out && v->exit_paths_ns));
	/* only what is missing, and only where exits leave a tail */
	assert_true(v->exit_paths_ns <= v->ntask_exits * PTOP_EXIT_PATH_MAX_NS);
	if (v->exit_paths_ns)
		assert_true(v->off_ns < 0 && (iv->caps & PTOP_CAP_EXIT_TAIL));
	ptop_verdict_str(iv, buf, sizeof(buf));
	if (v->exact)
		assert_string_equal(buf, "exact");
	else if (v->within)
		assert_memory_equal(buf, "within \u00b1", strlen("within \u00b1"));
	else
		assert_memory_equal(buf, "inexact: ", 9);
}

void iv_fixture_compute(struct iv_fixture *f, bool threads)
{
	assert_int_equal(ptop_interval_compute(&f->iv, ptop_snap_prev(&f->snap),
					       ptop_snap_cur(&f->snap), threads), 0);
	iv_assert_judged(&f->iv);
}
