/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the interval math's tests (test_interval, test_verdict):
 * a scripted fake source, the snapshotter over it and the interval
 * computed from its snapshots. A test builds f->fs, opens it with the
 * source's caps, then steps and computes.
 */
#ifndef TESTS_IV_FIXTURE_H
#define TESTS_IV_FIXTURE_H

#include <stdbool.h>
#include "fake_src.h"
#include "lib/interval.h"

/* what the module has: ns times, x*, complete c*, EXIT records */
#define CAPS_KMOD (PTOP_CAP_NS | PTOP_DATA_X | PTOP_DATA_C | PTOP_CAP_EXITS | \
		   PTOP_CAP_C_COMPLETE)
#define SEC (1000 * MS)

struct iv_fixture {
	struct fake_script fs;
	struct ptop_src *src;
	struct ptop_snapper snap;
	struct ptop_interval iv;
};

/* cmocka setup/teardown: *state is a zeroed struct iv_fixture */
int iv_fixture_setup(void **state);
int iv_fixture_teardown(void **state);
#define iv_test(fn) \
	cmocka_unit_test_setup_teardown(fn, iv_fixture_setup, iv_fixture_teardown)

/* Open the script as a source with these caps, and a snapshotter on it. */
void iv_fixture_open(struct iv_fixture *f, unsigned int caps);
/* The next snapshot (asserted to succeed). */
void iv_fixture_update(struct iv_fixture *f);
/*
 * f->iv = the interval between the last two snapshots (asserted), judged
 * by iv_assert_judged(): every interval a test computes is.
 */
void iv_fixture_compute(struct iv_fixture *f, bool threads);
/* Never exact outside the tolerance; the reasons match the numbers. */
void iv_assert_judged(const struct ptop_interval *iv);

#endif
