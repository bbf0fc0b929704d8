// SPDX-License-Identifier: GPL-2.0
/* The interval tests' fixture (iv_fixture.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
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

void iv_fixture_compute(struct iv_fixture *f, bool threads)
{
	assert_int_equal(ptop_interval_compute(&f->iv, ptop_snap_prev(&f->snap),
					       ptop_snap_cur(&f->snap), threads), 0);
}
