// SPDX-License-Identifier: GPL-2.0
/*
 * The procfs source's process-as-one-record reading (lib/src/procfs_gx.h)
 * on a fixture proc tree: one THREAD record per process with own = total
 * - x*, x* kept while no thread dies (the threads' files are not read:
 * they are garbage here), x* grown at most by the total's growth when
 * one dies; and the per-thread marks of thread mode (a thread whose
 * schedstat did not move keeps its last record).
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
#include <unistd.h>

#include "lib/src/procfs_gx.h"
#include "lib/src/procfs_read.h"
#include "lib/src.h"
#include "tests/unit/fixture_fs.h"

struct fx {
	char root[256];
	uint64_t tick;
};

static void stat_at(struct fx *f, const char *rel, int pid, char state,
		    unsigned ut, unsigned st, unsigned nthr)
{
	char line[1024];

	snprintf(line, sizeof(line),
		 "%d (pool) %c 1 %d %d 0 -1 4194304 10 0 0 0 %u %u 0 0 "
		 "20 0 %u 0 1000 1234567 10 18446744073709551615 1 1 0 0 0 "
		 "0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
		 pid, state, pid, pid, ut, st, nthr);
	fx_put(f->root, rel, line);
}

static const char status_text[] =
	"Name:\tpool\nUid:\t7\t7\t7\t7\nvoluntary_ctxt_switches:\t1\n"
	"nonvoluntary_ctxt_switches:\t2\n";

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/ptop-gx-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	f->tick = 1000000000ULL / sysconf(_SC_CLK_TCK);
	fx_put(f->root, "stat", "cpu  100 5 50 1000 20 3 2 7 0 0\n"
	       "cpu0 50 5 25 500 10 3 1 4 0 0\n"
	       "cpu1 50 0 25 500 10 0 1 3 0 0\n");
	fx_put(f->root, "config.gz", "");
	/* 100: threads 100 (20+10 ticks) and 101 (10+5); total 50+30 */
	fx_mkdirs(f->root, "100/task/100");
	fx_mkdirs(f->root, "100/task/101");
	stat_at(f, "100/stat", 100, 'S', 50, 30, 2);
	fx_put(f->root, "100/status", status_text);
	stat_at(f, "100/task/100/stat", 100, 'S', 20, 10, 2);
	stat_at(f, "100/task/101/stat", 101, 'S', 10, 5, 2);
	fx_put(f->root, "100/task/100/status", status_text);
	fx_put(f->root, "100/task/101/status", status_text);
	fx_put(f->root, "100/task/100/schedstat", "5 6 7\n");
	fx_put(f->root, "100/task/101/schedstat", "8 9 10\n");
	fx_put(f->root, "100/schedstat", "5 6 7\n");
	fx_mkdirs(f->root, "self");
	fx_put(f->root, "self/schedstat", "1 1 1\n");
	*state = f;
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

static struct ptop_src *open_need(struct fx *f, unsigned int need)
{
	struct ptop_src_cfg cfg = { .proc_root = f->root, .need = need };
	struct ptop_src *src = NULL;
	char err[300];

	assert_int_equal(ptop_src_open(&src, "procfs", &cfg, err,
				       sizeof(err)), 0);
	return src;
}

/* read once: the records of 100, in ticks */
struct got {
	size_t nthread_recs;
	uint64_t own_u, own_s, x_u, x_s;
	uint32_t nthreads;
};

static struct got read_100(struct fx *f, struct ptop_src *src)
{
	struct got g = { 0 };
	struct ptop_sample s;
	size_t i;

	ptop_sample_init(&s);
	assert_int_equal(ptop_src_read(src, &s), 0);
	for (i = 0; i < s.nrecs; i++) {
		const struct ptop_rec *r = &s.recs[i];

		if (r->tgid != 100)
			continue;
		if (r->kind == PTOP_REC_THREAD) {
			g.nthread_recs++;
			g.own_u += r->utime_ns / f->tick;
			g.own_s += r->stime_ns / f->tick;
		} else {
			g.x_u = r->xutime_ns / f->tick;
			g.x_s = r->xstime_ns / f->tick;
			g.nthreads = r->nthreads;
		}
	}
	ptop_sample_free(&s);
	return g;
}

static void test_group_as_one(void **state)
{
	struct fx *f = *state;
	struct ptop_src *src = open_need(f, PTOP_DATA_GROUPS_ONLY |
					 PTOP_DATA_X | PTOP_DATA_C);
	struct got g = read_100(f, src);

	/* one record: own = total - x*, x* = total - live threads */
	assert_int_equal(g.nthread_recs, 1);
	assert_int_equal(g.nthreads, 2);
	assert_int_equal(g.own_u, 30);
	assert_int_equal(g.own_s, 15);
	assert_int_equal(g.x_u, 20);
	assert_int_equal(g.x_s, 15);

	/* no thread died: the threads are not read (garbage), x* kept */
	fx_put(f->root, "100/task/100/stat", "garbage");
	fx_put(f->root, "100/task/101/stat", "garbage");
	stat_at(f, "100/stat", 100, 'S', 60, 30, 2);
	g = read_100(f, src);
	assert_int_equal(g.own_u, 40);
	assert_int_equal(g.x_u, 20);
	/* a new thread: still none read */
	fx_mkdirs(f->root, "100/task/102");
	stat_at(f, "100/stat", 100, 'S', 62, 30, 3);
	g = read_100(f, src);
	assert_int_equal(g.own_u, 42);
	assert_int_equal(g.nthreads, 3);

	/*
	 * 101 died: every thread is read; measured x* = 70 - 25 - 1 = 44
	 * grew by 24, the total by 8: x* grows by 8, own does not go back
	 */
	assert_int_equal(rename(strcat(strcpy((char[300]){ 0 }, f->root),
				       "/100/task/101"),
				strcat(strcpy((char[300]){ 0 }, f->root),
				       "/gone101")), 0);
	stat_at(f, "100/task/100/stat", 100, 'S', 25, 10, 2);
	stat_at(f, "100/task/102/stat", 102, 'S', 1, 0, 2);
	stat_at(f, "100/stat", 100, 'S', 70, 30, 2);
	g = read_100(f, src);
	assert_int_equal(g.nthread_recs, 1);
	assert_int_equal(g.x_u, 28);
	assert_int_equal(g.own_u, 42);
	assert_int_equal(g.own_u + g.x_u, 70);
	ptop_src_close(src);
}

/* thread mode: a thread whose counter did not move keeps its record */
static void test_thread_marks(void **state)
{
	struct fx *f = *state;
	struct ptop_src *src = open_need(f, PTOP_DATA_X | PTOP_DATA_C);
	struct got g = read_100(f, src);

	assert_int_equal(g.nthread_recs, 2);
	assert_int_equal(g.own_u, 30);
	g = read_100(f, src);	/* the marks of a read that saw no move */
	/* 101 did not run: its stat is not read again */
	stat_at(f, "100/task/101/stat", 101, 'S', 99, 5, 2);
	stat_at(f, "100/stat", 100, 'S', 50, 30, 2);
	g = read_100(f, src);
	assert_int_equal(g.own_u, 30);
	/* it ran (pcount moved): read */
	fx_put(f->root, "100/task/101/schedstat", "8 9 11\n");
	stat_at(f, "100/stat", 100, 'S', 140, 30, 2);
	g = read_100(f, src);
	assert_int_equal(g.own_u, 119);
	assert_int_equal(g.x_u, 21);
	ptop_src_close(src);
}

static void test_gx_lost(void **state)
{
	struct ptop_pfs_gxs gx = { 0 };
	struct ptop_pfs_gx out;
	const struct ptop_pfs_gx *was;
	uint32_t a[] = { 5, 7, 9 }, b[] = { 5, 9, 11 };

	(void)state;
	ptop_pfs_gx_begin(&gx);
	gx.scratch = malloc(sizeof(a));
	gx.scap = 3;
	memcpy(gx.scratch, a, sizeof(a));
	gx.nscratch = 3;
	assert_int_equal(ptop_pfs_gx_add(&gx, NULL, 5, 1, 100, 50, 1, 80, 40,
					 &out), 0);
	assert_int_equal(out.xu, 20);
	ptop_pfs_gx_end(&gx);
	ptop_pfs_gx_begin(&gx);
	was = ptop_pfs_gx_last(&gx, 5, 1);
	assert_non_null(was);
	assert_null(ptop_pfs_gx_last(&gx, 5, 2));	/* another incarnation */
	assert_int_equal(ptop_pfs_gx_lost(&gx, was), 0);
	memcpy(gx.scratch, b, sizeof(b));
	assert_int_equal(ptop_pfs_gx_lost(&gx, was), 1);	/* 7 died */
	/* measured x* 20 -> 60, the total grew by 10: x* by 10 */
	assert_int_equal(ptop_pfs_gx_add(&gx, was, 5, 1, 110, 50, 1, 50, 10,
					 &out), 0);
	assert_int_equal(out.xu, 30);
	assert_int_equal(out.xs, 10);	/* the total's sys did not grow */
	ptop_pfs_gx_free(&gx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_group_as_one, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_thread_marks, setup,
						teardown),
		cmocka_unit_test(test_gx_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
