// SPDX-License-Identifier: GPL-2.0
/*
 * Is a proc root a child pid namespace's (lib/src/pidns.h), on fixture
 * roots: a regular file stands for an ns/pid link (its inode is never the
 * initial namespace's). No files: the machine. Our own namespace a child:
 * the proc root is its own when self/status's NSpid has one pid, an
 * ancestor's when more; a missing, empty or garbage NSpid is the machine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/src/pidns.h"
#include "tests/unit/fixture_fs.h"

static char root[256];

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/ptop-pidns-XXXXXX");
	assert_non_null(mkdtemp(root));
	dir("self");
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(p);
}

static int teardown(void **state)
{
	(void)state;
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static void test_no_files(void **state)
{
	(void)state;
	assert_int_equal(ptop_pidns_child(root), 0);
	assert_int_equal(ptop_pidns_self_child(root), 0);
}

/* init's namespace, when it may be looked at, decides */
static void test_init_child(void **state)
{
	(void)state;
	dir("1");
	dir("1/ns");
	fx_put(root, "1/ns/pid", "");
	assert_int_equal(ptop_pidns_child(root), 1);
	assert_int_equal(ptop_pidns_self_child(root), 0);
}

static void self_child(const char *status)
{
	dir("self/ns");
	fx_put(root, "self/ns/pid", "");
	if (status)
		fx_put(root, "self/status", status);
	assert_int_equal(ptop_pidns_self_child(root), 1);
}

static void test_own_proc(void **state)
{
	(void)state;
	self_child("Name:\tptop\nNSpid:\t1\nNSpgid:\t1\n");
	assert_int_equal(ptop_pidns_child(root), 1);
}

static void test_ancestors_proc(void **state)
{
	(void)state;
	self_child("Name:\tptop\nNSpid:\t4321\t1\n");
	assert_int_equal(ptop_pidns_child(root), 0);
}

static void test_bad_status(void **state)
{
	(void)state;
	self_child(NULL);			/* missing */
	assert_int_equal(ptop_pidns_child(root), 0);
	fx_put(root, "self/status", "");			/* empty */
	assert_int_equal(ptop_pidns_child(root), 0);
	fx_put(root, "self/status", "NSpid:\tx y\n");	/* garbage */
	assert_int_equal(ptop_pidns_child(root), 0);
}

#define t(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		t(test_no_files),
		t(test_init_child),
		t(test_own_proc),
		t(test_ancestors_proc),
		t(test_bad_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
