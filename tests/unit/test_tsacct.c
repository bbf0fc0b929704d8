// SPDX-License-Identifier: GPL-2.0
/*
 * The taskstats_nl accounting hierarchy (lib/src/tsacct) with scripted events
 * and scans: x* and c* move by exactly what EXIT records say, orphans fold
 * through dead ancestors into the nearest live one, lost and reused pids
 * are closed with their last counters, zombies are never alive again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "lib/src/tsacct.h"
#include "lib/verdict.h"

#define TICK	10000000ULL

struct fx {
	struct ptop_tsacct a;
	struct ptop_sample s;
	uint32_t in_proc[8];	/* dead children still in /proc (0: none) */
};

/* /proc as a test scripts it: the children listed in f->in_proc */
static int in_proc(void *arg, uint32_t tgid)
{
	const struct fx *f = arg;
	size_t i;

	for (i = 0; i < sizeof(f->in_proc) / sizeof(f->in_proc[0]); i++)
		if (f->in_proc[i] == tgid)
			return 1;
	return 0;
}

/* one scripted task for a scan */
struct task {
	uint32_t tid, tgid, ppid;
	uint64_t start, runtime, ru, rs;
	char state;
};

/* a group's kernel cutime + cstime, read by a scan */
struct kcr {
	uint32_t tgid;
	uint64_t kc;
	uint64_t rseq;	/* records received by just after it (0: unknown) */
	int never_waited; /* no fault of a waited child in its stat */
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	ptop_tsacct_init(&f->a, TICK);
	ptop_sample_init(&f->s);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ptop_tsacct_free(&f->a);
	ptop_sample_free(&f->s);
	free(f);
	return 0;
}

static void gen(struct fx *f)
{
	f->a.gen++;
	f->a.lost = 0;
	f->a.now_ns = 1000 * TICK + f->a.gen;
	ptop_sample_reset(&f->s);
	f->a.out = &f->s;
}

static struct ptop_tsacct_counters cnt(uint64_t runtime, uint64_t ru,
				       uint64_t rs)
{
	struct ptop_tsacct_counters c;

	memset(&c, 0, sizeof(c));
	c.runtime_ns = runtime;
	c.raw_user = ru;
	c.raw_sys = rs;
	strcpy(c.comm, "x");
	return c;
}

static void scan_finish(struct fx *f);

/*
 * Scan these tasks (grouped by tgid, in order); a kernel c reading is
 * made after seq exit records. scan_finish() then sweeps, counts the
 * exit paths and emits (exit records between the two: those that came
 * during the walk or the window).
 */
static void scan_walk(struct fx *f, const struct task *t, int n,
		      const struct kcr *kc, int nkc, uint64_t seq)
{
	struct ptop_tsacct_group *g = NULL;
	struct ptop_tsacct_thread *th;
	uint32_t cur = 0;
	int i, k;

	for (i = 0; i < n; i++) {
		struct ptop_tsacct_counters c;

		if (t[i].tgid != cur) {
			if (g)
				ptop_tsacct_scan_group_end(&f->a, g);
			cur = t[i].tgid;
			assert_int_equal(ptop_tsacct_scan_group(&f->a, cur,
				t[i].start, t[i].ppid, t[i].state ? t[i].state : 'S',
				"grp", 4, &g), 0);
			for (k = 0; k < nkc; k++)
				if (kc[k].tgid == cur)
					ptop_tsacct_scan_kernel_c(&f->a, g,
						kc[k].kc, seq, kc[k].rseq,
						kc[k].never_waited);
		}
		assert_int_equal(ptop_tsacct_scan_thread(&f->a, g, t[i].tid,
			t[i].start, t[i].state ? t[i].state : 'S', "thr", &th),
			0);
		if (!th)
			continue;
		c = cnt(t[i].runtime, t[i].ru, t[i].rs);
		ptop_tsacct_scan_counters(&f->a, th, &c);
	}
	if (g)
		ptop_tsacct_scan_group_end(&f->a, g);
	ptop_tsacct_scan_end(&f->a);
}

static void scan_finish(struct fx *f)
{
	assert_int_equal(ptop_tsacct_sweep(&f->a), 0);
	f->a.tail_ns = 0;
	ptop_tsacct_tails(&f->a);
	assert_int_equal(ptop_tsacct_emit(&f->a), 0);
}

static void scan_kc(struct fx *f, const struct task *t, int n,
		    const struct kcr *kc, int nkc, uint64_t seq)
{
	scan_walk(f, t, n, kc, nkc, seq);
	scan_finish(f);
}

static void scan(struct fx *f, const struct task *t, int n)
{
	scan_kc(f, t, n, NULL, 0, 0);
}

static const struct ptop_rec *rec(struct fx *f, int kind, uint32_t pid,
					int exit)
{
	size_t i;

	for (i = 0; i < f->s.nrecs; i++) {
		const struct ptop_rec *r = &f->s.recs[i];

		if (r->kind == kind && r->pid == pid &&
		    !!(r->flags & PTOP_RECF_EXIT) == exit)
			return r;
	}
	return NULL;
}

static uint64_t own(const struct ptop_rec *r)
{
	return r->utime_ns + r->stime_ns;
}

static uint64_t xt(const struct ptop_rec *r)
{
	return r->xutime_ns + r->xstime_ns;
}

static uint64_t ct(const struct ptop_rec *r)
{
	return r->cutime_ns + r->cstime_ns;
}

static int do_exit(struct fx *f, uint32_t pid, uint32_t tgid, uint32_t ppid,
		   uint64_t runtime)
{
	struct ptop_tsacct_counters c = cnt(runtime, 1, 1);

	c.exit_code = 0x100;
	return ptop_tsacct_exit(&f->a, pid, tgid, ppid, 5 * TICK + 3, &c,
				f->a.now_ns);
}

/* init(1) -> sh(100) -> app(200, two threads) */
static const struct task base[] = {
	{ 1, 1, 0, 1 * TICK, 5000, 1, 1, 0 },
	{ 100, 100, 1, 2 * TICK, 4000, 1, 3, 0 },
	{ 200, 200, 100, 3 * TICK, 1000, 1, 3, 0 },
	{ 201, 200, 100, 4 * TICK, 2000, 1, 1, 0 },
};

static void open_and_first(struct fx *f)
{
	struct ptop_tsacct_group *g;

	/* the open: structure only (no counters), nothing emitted */
	gen(f);
	scan(f, base, 0);
	assert_int_equal(ptop_tsacct_scan_group(&f->a, 1, TICK, 0, 'S', "i",
						0, &g), 0);
	ptop_tsacct_scan_group_end(&f->a, g);	/* no thread: dropped */
	gen(f);
	scan(f, base, 4);
}

static void test_live_records(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	assert_int_equal(f->s.nrecs, 4 + 3);
	r = rec(f, PTOP_REC_THREAD, 200, 0);
	assert_non_null(r);
	assert_int_equal(r->utime_ns, 250);
	assert_int_equal(r->stime_ns, 750);
	assert_int_equal(r->start_ns, 3 * TICK);
	assert_int_equal(r->acct_ptgid, 100);
	r = rec(f, PTOP_REC_GROUP, 200, 0);
	assert_non_null(r);
	assert_int_equal(r->nthreads, 2);
	assert_int_equal(r->acct_ptgid, 100);
	assert_int_equal(r->flags, PTOP_RECF_HAS_X | PTOP_RECF_HAS_C);
	assert_int_equal(xt(r) + ct(r), 0);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(r->acct_ptgid, 1);
	assert_int_equal(f->a.lost, 0);
}

/*
 * Cheap reads: a single-threaded group that did not run is met by the scan
 * as the last scan left it (no counters read); a group with two threads,
 * or one the last scan did not meet, is not; one taken so and then gone
 * is closed with those counters, as any other.
 */
static void test_scan_same(void **state)
{
	static const struct task moved[] = {
		{ 200, 200, 100, 3 * TICK, 1500, 1, 3, 0 },
		{ 201, 200, 100, 4 * TICK, 2500, 1, 1, 0 },
	};
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_scan_same(&f->a, 1), 1);
	assert_int_equal(ptop_tsacct_scan_same(&f->a, 100), 1);
	assert_int_equal(ptop_tsacct_scan_same(&f->a, 200), 0);	/* 2 threads */
	assert_int_equal(ptop_tsacct_scan_same(&f->a, 201), 0);
	assert_int_equal(ptop_tsacct_scan_same(&f->a, 300), 0);	/* unknown */
	scan(f, moved, 2);
	assert_int_equal(f->s.nrecs, 4 + 3);
	assert_int_equal(f->a.lost, 0);
	r = rec(f, PTOP_REC_THREAD, 100, 0);
	assert_non_null(r);
	assert_int_equal(own(r), 4000);
	assert_int_equal(r->start_ns, 2 * TICK);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_non_null(r);
	assert_int_equal(r->nthreads, 1);
	assert_int_equal(r->acct_ptgid, 1);
	r = rec(f, PTOP_REC_THREAD, 200, 0);
	assert_int_equal(own(r), 1500);
	/* 100 gone (neither taken as it was nor scanned): lost, closed */
	gen(f);
	assert_int_equal(ptop_tsacct_scan_same(&f->a, 1), 1);
	scan(f, moved, 2);
	assert_int_equal(f->a.lost, 1);
	r = rec(f, PTOP_REC_THREAD, 100, 1);
	assert_non_null(r);
	assert_int_equal(own(r), 4000);
	/* not met by the last scan: scanned in full */
	gen(f);
	assert_int_equal(ptop_tsacct_scan_same(&f->a, 100), 0);
}

/*
 * The window reads again the threads that ran lately: a thread seen to
 * move at the previous snapshot's window but not since (asleep at this
 * walk's read: a 1 Hz timer beside `-d 1`) is one of them; its first
 * read is no move, and two quiet snapshots in a row drop it.
 */
static void test_ran_lately(void **state)
{
	static const struct task at[3][1] = {
		{ { 300, 300, 1, 5 * TICK, 7000, 1, 1, 0 } },
		{ { 300, 300, 1, 5 * TICK, 9000, 1, 1, 0 } },
		{ { 300, 300, 1, 5 * TICK, 9500, 1, 1, 0 } },
	};
	struct fx *f = *state;
	struct ptop_tsacct_counters c = cnt(9000, 1, 1);
	struct ptop_tsacct_thread *t;

	open_and_first(f);
	gen(f);
	scan(f, at[0], 1);	/* first read: no move */
	t = ptop_tsacct_thread_find(&f->a, 300);
	assert_non_null(t);
	assert_false(ptop_tsacct_thread_ran_lately(&f->a, t));
	gen(f);
	scan_walk(f, at[0], 1, NULL, 0, 0);
	assert_false(ptop_tsacct_thread_ran_lately(&f->a, t));
	ptop_tsacct_reread_counters(&f->a, t, &c);	/* ran before the window */
	assert_true(ptop_tsacct_thread_ran_lately(&f->a, t));
	scan_finish(f);
	gen(f);
	scan_walk(f, at[1], 1, NULL, 0, 0);	/* as the window left it */
	assert_true(ptop_tsacct_thread_ran_lately(&f->a, t));
	scan_finish(f);
	gen(f);
	scan(f, at[1], 1);
	assert_false(ptop_tsacct_thread_ran_lately(&f->a, t));
	gen(f);
	scan(f, at[2], 1);	/* moved at the walk's read */
	assert_true(ptop_tsacct_thread_ran_lately(&f->a, t));
	assert_int_equal(own(rec(f, PTOP_REC_THREAD, 300, 0)), 9500);
}

static void test_thread_exit_x(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	assert_int_equal(do_exit(f, 201, 200, 100, 2600), 0);
	scan(f, base, 3);
	r = rec(f, PTOP_REC_THREAD, 201, 1);
	assert_non_null(r);
	assert_int_equal(own(r), 2600);
	assert_int_equal(r->start_ns, 4 * TICK);	/* as reported alive */
	assert_true(r->utime_ns >= 1000 && r->stime_ns >= 1000);
	assert_null(rec(f, PTOP_REC_THREAD, 201, 0));
	r = rec(f, PTOP_REC_GROUP, 200, 0);
	assert_int_equal(xt(r), 2600);
	assert_int_equal(r->nthreads, 1);
	assert_null(rec(f, PTOP_REC_GROUP, 200, 1));
}

static void test_group_exit_folds(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r, *g;

	open_and_first(f);
	gen(f);
	assert_int_equal(do_exit(f, 201, 200, 100, 2500), 0);
	assert_int_equal(do_exit(f, 200, 200, 100, 1200), 0);
	scan(f, base, 2);
	g = rec(f, PTOP_REC_GROUP, 200, 1);
	assert_non_null(g);
	assert_int_equal(own(g), 0);
	assert_int_equal(xt(g), 3700);
	assert_int_equal(g->folded_into, 100);
	assert_int_equal(g->folded_start_ns, 2 * TICK);
	assert_int_equal(g->exit_code, 0x100);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 3700);
}

/* sh forks a middle that forks an orphan and dies; the orphan dies later */
static void test_orphan_through_dead_middle(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;
	static const struct task later[] = {
		{ 1, 1, 0, 1 * TICK, 5000, 1, 1, 0 },
		{ 100, 100, 1, 2 * TICK, 4000, 1, 3, 0 },
		{ 301, 301, 1, 9 * TICK, 700, 1, 0, 0 },	/* ppid init now */
	};

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 8 * TICK), 0);
	assert_int_equal(ptop_tsacct_fork(&f->a, 301, 301, 300, 9 * TICK), 0);
	assert_int_equal(do_exit(f, 300, 300, 100, 50), 0);
	/* 200 dies too, the orphan lives on */
	assert_int_equal(do_exit(f, 201, 200, 100, 2000), 0);
	assert_int_equal(do_exit(f, 200, 200, 100, 1000), 0);
	scan(f, later, 3);
	r = rec(f, PTOP_REC_GROUP, 300, 1);
	assert_int_equal(r->folded_into, 100);
	r = rec(f, PTOP_REC_GROUP, 301, 0);
	assert_non_null(r);
	assert_int_equal(r->ppid, 1);
	assert_int_equal(r->acct_ptgid, 100);	/* nearest live, not init */
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 50 + 3000);

	gen(f);
	assert_int_equal(do_exit(f, 301, 301, 1, 900), 0);
	scan(f, later, 2);
	r = rec(f, PTOP_REC_GROUP, 301, 1);
	assert_int_equal(r->folded_into, 100);
	assert_int_equal(xt(r), 900);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 50 + 3000 + 900);
	assert_int_equal(r->acct_ptgid, 1);
	assert_int_equal(f->a.lost, 0);
}

/* A chain of dead groups: the c* of each travels up with it. */
static void test_dead_chain(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 400, 400, 100, 0), 0);
	assert_int_equal(ptop_tsacct_fork(&f->a, 401, 401, 400, 0), 0);
	assert_int_equal(ptop_tsacct_fork(&f->a, 402, 402, 401, 0), 0);
	assert_int_equal(do_exit(f, 402, 402, 401, 7), 0);	/* into 401 */
	assert_int_equal(do_exit(f, 400, 400, 100, 11), 0);	/* into 100 */
	assert_int_equal(do_exit(f, 401, 401, 1, 13), 0);	/* 400 dead */
	scan(f, base, 4);
	r = rec(f, PTOP_REC_GROUP, 402, 1);
	assert_int_equal(r->folded_into, 401);
	r = rec(f, PTOP_REC_GROUP, 401, 1);
	assert_int_equal(r->folded_into, 100);
	assert_int_equal(xt(r) + ct(r), 13 + 7);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 7 + 11 + 13);
}

/* Born and died between two reads: a new task with an estimated start. */
static void test_unknown_exit(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	assert_int_equal(do_exit(f, 700, 700, 100, 333), 0);
	scan(f, base, 4);
	r = rec(f, PTOP_REC_THREAD, 700, 1);
	assert_non_null(r);
	assert_int_equal(r->start_ns, 5 * TICK);	/* tick-truncated */
	assert_int_equal(own(r), 333);
	r = rec(f, PTOP_REC_GROUP, 700, 1);
	assert_int_equal(r->folded_into, 100);
	assert_int_equal(r->acct_ptgid, 100);
}

/* Gone without an exit record: closed with the last reported counters. */
static void test_lost_thread(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	scan(f, base, 3);	/* 201 vanished */
	assert_int_equal(f->a.lost, 1);
	r = rec(f, PTOP_REC_THREAD, 201, 1);
	assert_non_null(r);
	assert_int_equal(own(r), 2000);
	r = rec(f, PTOP_REC_GROUP, 200, 0);
	assert_int_equal(xt(r), 2000);
	/* the whole group vanishes: closed and folded */
	gen(f);
	scan(f, base, 2);
	r = rec(f, PTOP_REC_GROUP, 200, 1);
	assert_non_null(r);
	assert_int_equal(xt(r), 3000);
	assert_int_equal(r->folded_into, 100);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 3000);
}

/* The same pid with another start: the old one is closed, a new one born */
static void test_pid_reuse(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;
	struct task t[4];

	open_and_first(f);
	memcpy(t, base, sizeof(t));
	t[2].start = t[3].start = 50 * TICK;
	t[2].runtime = 10;
	t[3].runtime = 20;
	gen(f);
	scan(f, t, 4);
	assert_int_equal(f->a.lost, 1);
	r = rec(f, PTOP_REC_GROUP, 200, 1);
	assert_non_null(r);
	assert_int_equal(r->start_ns, 3 * TICK);
	assert_int_equal(xt(r), 3000);
	r = rec(f, PTOP_REC_GROUP, 200, 0);
	assert_non_null(r);
	assert_int_equal(r->start_ns, 50 * TICK);
	assert_int_equal(xt(r), 0);
	r = rec(f, PTOP_REC_THREAD, 200, 0);
	assert_int_equal(own(r), 10);
}

/* An exited, not yet reaped process stays in /proc as a zombie. */
static void test_zombie(void **state)
{
	struct fx *f = *state;
	struct task t[4];
	int i;

	open_and_first(f);
	memcpy(t, base, sizeof(t));
	gen(f);
	assert_int_equal(do_exit(f, 201, 200, 100, 2000), 0);
	assert_int_equal(do_exit(f, 200, 200, 100, 1000), 0);
	t[2].state = 'Z';
	scan(f, t, 3);
	assert_non_null(rec(f, PTOP_REC_GROUP, 200, 1));
	for (i = 0; i < 5; i++) {
		gen(f);
		scan(f, t, 3);
		assert_null(rec(f, PTOP_REC_THREAD, 200, 0));
		assert_null(rec(f, PTOP_REC_GROUP, 200, 0));
		assert_null(rec(f, PTOP_REC_GROUP, 200, 1));
	}
}

/* A leader that exited while its threads live: a zombie leader. */
static void test_zombie_leader(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;
	struct task t[4];
	int i;

	open_and_first(f);
	memcpy(t, base, sizeof(t));
	gen(f);
	assert_int_equal(do_exit(f, 200, 200, 100, 1500), 0);
	t[2].state = 'Z';
	scan(f, t, 4);
	for (i = 0; i < 4; i++) {
		assert_null(rec(f, PTOP_REC_THREAD, 200, 0));
		r = rec(f, PTOP_REC_GROUP, 200, 0);
		assert_non_null(r);
		assert_int_equal(xt(r), 1500);
		assert_int_equal(r->nthreads, 1);
		gen(f);
		scan(f, t, 4);
	}
}

/* The scan met a child before its FORK event: the fork parent wins. */
static void test_fork_after_scan(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;
	struct task t[5];

	open_and_first(f);
	memcpy(t, base, sizeof(base));
	t[4] = (struct task){ 600, 600, 1, 60 * TICK, 10, 1, 1, 0 };
	gen(f);
	scan(f, t, 5);	/* ppid 1: its parent 300 died already */
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 200, 0), 0);
	assert_int_equal(ptop_tsacct_fork(&f->a, 600, 600, 300, 0), 0);
	assert_int_equal(do_exit(f, 300, 300, 200, 5), 0);
	gen(f);
	assert_int_equal(do_exit(f, 600, 600, 1, 40), 0);
	scan(f, base, 4);
	r = rec(f, PTOP_REC_GROUP, 600, 1);
	assert_int_equal(r->folded_into, 200);
	r = rec(f, PTOP_REC_GROUP, 200, 0);
	assert_int_equal(ct(r), 45);
}

/* The user/system split of a thread never goes backwards. */
static void test_split_monotonic(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;
	struct task t[4];
	uint64_t u, s;

	open_and_first(f);
	r = rec(f, PTOP_REC_THREAD, 100, 0);
	u = r->utime_ns;
	s = r->stime_ns;
	memcpy(t, base, sizeof(t));
	t[1].runtime = 4100;
	t[1].ru = 100;	/* the raw split swings to all user */
	t[1].rs = 0;
	gen(f);
	scan(f, t, 4);
	r = rec(f, PTOP_REC_THREAD, 100, 0);
	assert_int_equal(own(r), 4100);
	assert_true(r->stime_ns >= s && r->utime_ns >= u);
}

/*
 * Closed as lost, then the exit record came after all (one read late):
 * only what the thread ran since its last report is added, once.
 */
static void test_late_exit_record(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	scan(f, base, 3);	/* 201 gone, its record not read yet */
	assert_int_equal(f->a.nlost, 1);
	r = rec(f, PTOP_REC_GROUP, 200, 0);
	assert_int_equal(xt(r), 2000);
	gen(f);
	assert_int_equal(do_exit(f, 201, 200, 100, 2600), 0);
	scan(f, base, 3);
	assert_int_equal(f->a.lost, 0);
	assert_null(rec(f, PTOP_REC_THREAD, 201, 1));	/* not again */
	r = rec(f, PTOP_REC_GROUP, 200, 0);
	assert_int_equal(xt(r), 2600);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 0);
}

/* The same, for a whole group: the rest goes where the group was folded. */
static void test_late_group_records(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	scan(f, base, 2);	/* 200 and 201 gone, no records yet */
	r = rec(f, PTOP_REC_GROUP, 200, 1);
	assert_int_equal(r->folded_into, 100);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 3000);
	gen(f);
	assert_int_equal(do_exit(f, 201, 200, 100, 2600), 0);
	assert_int_equal(do_exit(f, 200, 200, 100, 1200), 0);
	scan(f, base, 2);
	assert_null(rec(f, PTOP_REC_GROUP, 200, 1));
	assert_null(rec(f, PTOP_REC_GROUP, 200, 0));
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 3800);
}

/*
 * A reported group whose parent no snapshot had yet (the walk missed it)
 * folds into the nearest reported ancestor; a never reported one into its
 * parent.
 */
static void test_fold_into_reported(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;
	struct task t[5];

	open_and_first(f);
	memcpy(t, base, sizeof(base));
	t[4] = (struct task){ 801, 801, 800, 60 * TICK, 10, 1, 1, 0 };
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 800, 800, 100, 0), 0);
	assert_int_equal(ptop_tsacct_fork(&f->a, 801, 801, 800, 0), 0);
	scan(f, t, 5);	/* 801 met, 800 not */
	assert_non_null(rec(f, PTOP_REC_GROUP, 801, 0));
	assert_null(rec(f, PTOP_REC_GROUP, 800, 0));
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 802, 802, 800, 0), 0);
	assert_int_equal(do_exit(f, 802, 802, 800, 3), 0);
	assert_int_equal(do_exit(f, 801, 801, 800, 40), 0);
	scan(f, base, 4);
	r = rec(f, PTOP_REC_GROUP, 801, 1);
	assert_int_equal(r->folded_into, 100);
	r = rec(f, PTOP_REC_GROUP, 802, 1);
	assert_int_equal(r->folded_into, 800);
	r = rec(f, PTOP_REC_GROUP, 100, 0);
	assert_int_equal(ct(r), 40);
}

/* --- exit paths from the kernel's cutime/cstime (tsacct.h) ------------ */

#define MS	1000000ULL

/* An exit record with the source's number and live_for. */
static int exit_seq(struct fx *f, uint32_t pid, uint32_t tgid, uint32_t ppid,
		    uint64_t runtime, uint64_t seq, uint32_t live_for)
{
	struct ptop_tsacct_counters c = cnt(runtime, 1, 1);

	c.ppid = ppid;
	c.seq = seq;
	c.live_for = live_for;
	return ptop_tsacct_exit(&f->a, pid, tgid, ppid, 5 * TICK, &c,
				f->a.now_ns);
}

/*
 * base[] with a shell 300 forked under us (its kernel c starts at 0),
 * child of 100; kc: 300's kernel c reading.
 */
static void scan_with_300(struct fx *f, uint64_t kc, uint64_t seq)
{
	struct task t[5];
	struct kcr r = { 300, kc, 0, 0 };

	memcpy(t, base, sizeof(base));
	t[4] = (struct task){ 300, 300, 100, 30 * TICK, 1 * MS, 1, 1, 0 };
	scan_kc(f, t, 5, &r, 1, seq);
}

static const struct ptop_rec *live_group(struct fx *f, uint32_t tgid)
{
	const struct ptop_rec *r = rec(f, PTOP_REC_GROUP, tgid, 0);

	assert_non_null(r);
	return r;
}

/*
 * A child of a group forked under us dies; the kernel's c of the parent
 * (floored to a tick) has what its record had and the exit path after
 * it: that goes into the parent's c* as system time, once, and never
 * more than PTOP_EXIT_PATH_MAX_NS per exit.
 */
static void test_tail_forked_parent(void **state)
{
	struct fx *f = *state;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	scan_with_300(f, 0, 0);
	assert_int_equal(f->a.tail_ns, 0);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 400, 400, 300, 31 * TICK), 0);
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	/* not reaped yet: the kernel's c is 0 */
	scan_with_300(f, 0, 1);
	r = live_group(f, 300);
	assert_int_equal(ct(r), 26 * MS);
	assert_int_equal(f->a.tail_ns, 0);
	/* reaped: the floor of 26 ms + its exit path can be 20 ms */
	gen(f);
	scan_with_300(f, 2 * TICK, 1);
	assert_int_equal(f->a.tail_ns, 0);
	gen(f);
	scan_with_300(f, 3 * TICK, 1);		/* 30 - 26: 4 ms at least */
	assert_int_equal(f->a.tail_ns, 4 * MS);
	r = live_group(f, 300);
	assert_int_equal(ct(r), 30 * MS);
	assert_int_equal(r->cstime_ns, 13 * MS + 4 * MS);
	/* the same reading again: nothing twice */
	gen(f);
	scan_with_300(f, 3 * TICK, 1);
	assert_int_equal(f->a.tail_ns, 0);
	assert_int_equal(ct(live_group(f, 300)), 30 * MS);
	/* a reading the exits cannot explain: 5 ms per exit at most */
	gen(f);
	scan_with_300(f, 5 * TICK, 1);
	assert_int_equal(f->a.tail_ns, PTOP_EXIT_PATH_MAX_NS - 4 * MS);
	assert_int_equal(ct(live_group(f, 300)), 26 * MS +
			 PTOP_EXIT_PATH_MAX_NS);
	assert_int_equal(f->a.lost, 0);
}

/* n children of 300, forked and dead, each with a record of 1 ms */
static void children_of_300(struct fx *f, uint32_t *pid, int n,
			    uint64_t *seq)
{
	for (; n > 0; n--, (*pid)++) {
		assert_int_equal(ptop_tsacct_fork(&f->a, *pid, *pid, 300,
						  31 * TICK), 0);
		assert_int_equal(exit_seq(f, *pid, *pid, 300, 1 * MS, ++*seq,
					  0), 0);
	}
}

/*
 * Once PTOP_TSACCT_TAU_EXITS exits were credited, each new one advances
 * its parent's exit paths by the mean so far, though the floored
 * reading has not moved; never past that reading + 2 ticks. Children of
 * 1 ms records, each 1.25 ms in the kernel.
 */
static void test_tail_predicted(void **state)
{
	struct fx *f = *state;
	uint32_t pid = 400;
	uint64_t seq = 0;

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	scan_with_300(f, 0, 0);
	/* 64 children: 80 ms in the kernel, read as 80: 16 ms of paths */
	gen(f);
	children_of_300(f, &pid, PTOP_TSACCT_TAU_EXITS, &seq);
	scan_with_300(f, 8 * TICK, seq);
	assert_int_equal(f->a.tail_ns, 16 * MS);
	/* 8 more: 90 ms in the kernel, its floors read 80: 8 x 0.25 ms */
	gen(f);
	children_of_300(f, &pid, 8, &seq);
	scan_with_300(f, 8 * TICK, seq);
	assert_int_equal(f->a.tail_ns, 2 * MS);
	assert_int_equal(ct(live_group(f, 300)), 72 * MS + 18 * MS);
	/*
	 * 40 more, read as 110 ms: 112 ms of records, so the kernel's c
	 * (under 130) leaves at most 18 ms of paths: the 10 ms predicted
	 * would be past it; nothing is added
	 */
	gen(f);
	children_of_300(f, &pid, 40, &seq);
	scan_with_300(f, 11 * TICK, seq);
	assert_int_equal(f->a.tail_ns, 0);
	assert_int_equal(ct(live_group(f, 300)), 112 * MS + 18 * MS);
	/* the floors catch up: 140 ms read, 28 ms of paths */
	gen(f);
	scan_with_300(f, 14 * TICK, seq);
	assert_int_equal(f->a.tail_ns, 10 * MS);
	assert_int_equal(f->a.lost, 0);
}

/*
 * A parent older than us: its first reading has the children the kernel
 * had reaped by then; a child whose record came before that reading
 * counts only if it was still in /proc after it (not reaped: live_for).
 */
static void old_parent_of(struct fx *f, uint32_t live_for, int leaf)
{
	struct kcr kc[2] = { { 100, 10 * TICK, 0, 0 }, { 200, 0, 0, leaf } };

	/* the open: sh (100) has 100 ms of children, 2 records received */
	gen(f);
	scan_kc(f, base, 4, kc, 2, 2);
	/* app (200) died before that reading: records 1 and 2 */
	gen(f);
	assert_int_equal(exit_seq(f, 201, 200, 100, 2 * MS, 1, 0), 0);
	assert_int_equal(exit_seq(f, 200, 200, 100, 3 * MS, 2, live_for), 0);
	kc[0].kc = 11 * TICK;
	scan_kc(f, base, 2, kc, 1, 2);
}

static void old_parent(struct fx *f, uint32_t live_for)
{
	old_parent_of(f, live_for, 0);
}

static void test_tail_old_parent_reaped_before(void **state)
{
	struct fx *f = *state;

	struct kcr kc = { 100, 30 * TICK, 0, 0 };

	old_parent(f, 0);
	/* in the first reading already: no exit path to show for it */
	assert_int_equal(f->a.tail_ns, 0);
	assert_int_equal(ct(live_group(f, 100)), 5 * MS);
	/* and growth that no exit counted for explains is not one either */
	gen(f);
	scan_kc(f, base, 2, &kc, 1, 2);
	assert_int_equal(f->a.tail_ns, 0);
}

/*
 * sh (100) older than ptop, app (its child, older too) has died: with
 * sh's kernel c at 10 ticks + the mean of its floors (a tick) + e (what
 * app is expected to add), no exit path shows; 3 ms more are the exit
 * paths of app's 2 threads. leaf: app's stat showed no waited child.
 */
static void check_tail_old_parent(struct fx *f, uint64_t e, int leaf)
{
	struct kcr kc = { 100, 10 * TICK + TICK + e, 0, 0 };

	if (leaf)
		old_parent_of(f, 100, 1);
	else
		old_parent(f, 100);
	/* 110 ms < 100 + 1 tick + e: nothing */
	assert_int_equal(f->a.tail_ns, 0);
	gen(f);
	scan_kc(f, base, 2, &kc, 1, 2);
	assert_int_equal(f->a.tail_ns, 0);
	kc.kc += 3 * MS;
	gen(f);
	scan_kc(f, base, 2, &kc, 1, 2);
	assert_int_equal(f->a.tail_ns, 3 * MS);
	assert_int_equal(ct(live_group(f, 100)), 5 * MS + 3 * MS);
}

static void test_tail_old_parent_reaped_after(void **state)
{
	/* app: 5 ms of records, its kc (0, + the mean of its floors) */
	check_tail_old_parent(*state, 5 * MS + TICK, 0);
}

/*
 * The same when app's stat showed no fault of a waited child (cminflt
 * and cmajflt 0, c 0): it never reaped one, its c was 0 when we started,
 * not a tick on average, so its death hands sh nothing of its base.
 * Under a parallel build the compilers older than ptop are such leaves:
 * a tick each would keep sh's (make's, the loop's) exit paths from
 * showing until later exits had made up for them.
 */
static void test_tail_old_parent_leaf_child(void **state)
{
	check_tail_old_parent(*state, 5 * MS, 1);
}

/*
 * At open the walk reads sh (100) before app (200), older too, which dies
 * before the walk meets it: its record names sh, and ptop has neither a
 * kernel c nor an x base of app. Had sh's first reading stood, sh would
 * be k_bad for good (under a build: make, then the loop's shell above
 * it, every exit path of the run unshown). Read again after the walk,
 * sh's first reading has app in it: app counts for nothing, and a later
 * child's exit path shows.
 */
static void test_tail_old_child_dies_in_open_walk(void **state)
{
	struct fx *f = *state;
	struct kcr kc = { 100, 10 * TICK, 0, 0 };
	struct ptop_tsacct_group *sh;

	gen(f);
	scan_kc(f, base, 2, &kc, 1, 0);
	/* app's record (1) comes; sh read again after the walk */
	sh = ptop_tsacct_group_find(&f->a, 100);
	assert_non_null(sh);
	ptop_tsacct_first_kernel_c_again(&f->a, sh, 11 * TICK, 1, 0);
	gen(f);
	assert_int_equal(exit_seq(f, 200, 200, 100, 3 * MS, 1, 0), 0);
	kc.kc = 11 * TICK;
	scan_kc(f, base, 2, &kc, 1, 1);
	assert_int_equal(f->a.tail_ns, 0);
	/* a child forked under us: 5 ms in its record, 3 ms after it */
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	assert_int_equal(exit_seq(f, 300, 300, 100, 5 * MS, 2, 0), 0);
	kc.kc = 11 * TICK + TICK + 5 * MS + 3 * MS;
	scan_kc(f, base, 2, &kc, 1, 2);
	assert_int_equal(f->a.tail_ns, 3 * MS);
	assert_int_equal(ct(live_group(f, 100)), 3 * MS + 5 * MS + 3 * MS);
}

/* A child closed without its final record: its parent shows none. */
static void test_tail_lost_child(void **state)
{
	struct fx *f = *state;

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	assert_int_equal(ptop_tsacct_fork(&f->a, 400, 400, 300, 31 * TICK), 0);
	scan_with_300(f, 0, 0);
	gen(f);
	assert_int_equal(ptop_tsacct_lost(&f->a, 400, f->a.now_ns), 0);
	scan_with_300(f, 5 * TICK, 0);
	assert_int_equal(f->a.tail_ns, 0);
	assert_int_equal(ct(live_group(f, 300)), 0);
}

/* init reaps orphans whose records named a parent that died: none. */
static void test_tail_not_init(void **state)
{
	struct fx *f = *state;
	struct kcr kc = { 1, 0, 0, 0 };

	gen(f);
	scan_kc(f, base, 4, &kc, 1, 0);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 500, 500, 1, 50 * TICK), 0);
	assert_int_equal(exit_seq(f, 500, 500, 1, 1 * MS, 1, 0), 0);
	kc.kc = 10 * TICK;
	scan_kc(f, base, 4, &kc, 1, 1);
	assert_int_equal(f->a.tail_ns, 0);
}

/*
 * The parent dies in turn: what was shown of its exit paths is in what
 * its own parent (forked under us too) is expected to get, so only the
 * rest shows there.
 */
static void test_tail_parent_dies(void **state)
{
	struct fx *f = *state;
	struct task t[6];
	struct kcr kc[2] = { { 300, 0, 0, 0 }, { 400, 0, 0, 0 } };

	open_and_first(f);
	memcpy(t, base, sizeof(base));
	t[4] = (struct task){ 300, 300, 100, 30 * TICK, 1 * MS, 1, 1, 0 };
	t[5] = (struct task){ 400, 400, 300, 31 * TICK, 0, 1, 1, 0 };
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	assert_int_equal(ptop_tsacct_fork(&f->a, 400, 400, 300, 31 * TICK), 0);
	scan_kc(f, t, 6, kc, 2, 0);
	/* 400's child 500 dies: 16 ms in its record, 20 in 400's c */
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 500, 500, 400, 32 * TICK), 0);
	assert_int_equal(exit_seq(f, 500, 500, 400, 16 * MS, 1, 0), 0);
	kc[1].kc = 2 * TICK;
	scan_kc(f, t, 6, kc, 2, 1);
	assert_int_equal(f->a.tail_ns, 4 * MS);
	/*
	 * 400 dies (2 ms in its record; 1 ms after it), 500 had 1.5 ms
	 * more than its 4 ms shown: 300's kernel c is 16 + 4 + 1.5 + 2 + 1
	 */
	gen(f);
	assert_int_equal(exit_seq(f, 400, 400, 300, 2 * MS, 2, 0), 0);
	kc[0].kc = 24 * MS + 5 * MS / 10;
	scan_kc(f, t, 5, kc, 1, 2);
	assert_int_equal(f->a.tail_ns, 2 * MS + 5 * MS / 10);
	assert_int_equal(ct(live_group(f, 300)), 16 * MS + 4 * MS + 2 * MS +
			 2 * MS + 5 * MS / 10);
}

/*
 * A parallel build: the parent's kernel c is read during the walk, and
 * another child dies (its record comes) before the read ends. That child
 * is not in the reading (its record is after the reading's rseq), so its
 * runtime must not be taken off what the reading says of the children
 * reaped before it: the exit path of the one reaped shows in this
 * interval (before rseq, it waited for a reading with no child dying
 * after it).
 */
/*
 * Parent 300 (the walk's fifth task, t[4]) forks nkids children 400,
 * 401, ... and is read with no kernel c yet.
 */
static void parent_of(struct fx *f, struct task t[5], int nkids)
{
	int i;

	open_and_first(f);
	memcpy(t, base, sizeof(base));
	t[4] = (struct task){ 300, 300, 100, 30 * TICK, 1 * MS, 1, 1, 0 };
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	for (i = 0; i < nkids; i++)
		assert_int_equal(ptop_tsacct_fork(&f->a, 400 + i, 400 + i, 300,
						  31 * TICK), 0);
	scan_with_300(f, 0, 0);
}

static void late_child(struct fx *f, uint64_t rseq)
{
	struct task t[5];
	struct kcr r = { 300, 3 * TICK, rseq, 0 };

	parent_of(f, t, 2);
	/* 400 died and was reaped: 26 ms in its record, 30 in 300's c */
	gen(f);
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	scan_walk(f, t, 5, &r, 1, 0);
	/* during the rest of the walk: 401 dies, 200 ms in its record */
	assert_int_equal(exit_seq(f, 401, 401, 300, 200 * MS, 2, 0), 0);
	scan_finish(f);
}

static void test_tail_late_child(void **state)
{
	struct fx *f = *state;
	struct kcr r = { 300, 23 * TICK, 2, 0 };

	late_child(f, 1);
	assert_int_equal(f->a.tail_ns, 4 * MS);
	assert_int_equal(ct(live_group(f, 300)), 226 * MS + 4 * MS);
	/* 401 reaped: 1 ms of exit path beyond its record, once */
	r.kc = 23 * TICK + 1 * MS;
	gen(f);
	scan_with_300(f, 3 * TICK, 0);	/* the same kernel c, no rseq */
	assert_int_equal(f->a.tail_ns, 0);
	gen(f);
	{
		struct task t[5];

		memcpy(t, base, sizeof(base));
		t[4] = (struct task){ 300, 300, 100, 30 * TICK, 1 * MS, 1, 1, 0 };
		scan_kc(f, t, 5, &r, 1, 0);
	}
	assert_int_equal(f->a.tail_ns, 1 * MS);
	assert_int_equal(ct(live_group(f, 300)), 226 * MS + 5 * MS);
	assert_int_equal(f->a.lost, 0);
}

/* The same without the reading's rseq (unknown): every record counts. */
static void test_tail_late_child_unknown(void **state)
{
	struct fx *f = *state;

	late_child(f, 0);
	assert_int_equal(f->a.tail_ns, 0);
	assert_int_equal(ct(live_group(f, 300)), 226 * MS);
}

/*
 * A record before the reading's rseq whose child the parent had not
 * reaped yet still counts (a lower bound): nothing shows until it is.
 */
static void test_tail_before_rseq_unreaped(void **state)
{
	struct fx *f = *state;
	struct task t[5];
	struct kcr r = { 300, 3 * TICK, 2, 0 };

	parent_of(f, t, 2);
	gen(f);
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	/* 401's record came before the drain; 401 is not reaped yet */
	assert_int_equal(exit_seq(f, 401, 401, 300, 200 * MS, 2, 0), 0);
	scan_kc(f, t, 5, &r, 1, 0);
	assert_int_equal(f->a.tail_ns, 0);
	/* reaped: both exit paths (4 + 1 ms) */
	r.kc = 23 * TICK + 1 * MS;
	r.rseq = 3;
	gen(f);
	scan_kc(f, t, 5, &r, 1, 0);
	assert_int_equal(f->a.tail_ns, 5 * MS);
}

/*
 * A parent read by the walk before it reaped a child whose record came
 * later in the read: its kernel c read again at the end has that exit
 * path in this interval (not the next); in the again list once.
 */
static void test_tail_kc_again(void **state)
{
	struct fx *f = *state;
	struct task t[5];
	struct kcr r = { 300, 3 * TICK, 1, 0 };
	struct ptop_tsacct_group *g;

	parent_of(f, t, 3);
	assert_int_equal(f->a.nagain, 0);
	gen(f);
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	assert_int_equal(f->a.nagain, 1);	/* its kernel c is known */
	scan_walk(f, t, 5, &r, 1, 0);
	/* after it: 401 and 402 die, 200 + 3 ms in their records */
	assert_int_equal(exit_seq(f, 401, 401, 300, 200 * MS, 2, 0), 0);
	assert_int_equal(exit_seq(f, 402, 402, 300, 3 * MS, 3, 0), 0);
	assert_int_equal(f->a.nagain, 1);
	assert_int_equal(f->a.again[0], 300);
	/* both reaped by then: 229 ms of records, 236 in the kernel's c */
	g = ptop_tsacct_group_find(&f->a, 300);
	ptop_tsacct_kernel_c_again(&f->a, g, 23 * TICK + 6 * MS, 3, in_proc, f);
	ptop_tsacct_again_done(&f->a, in_proc, f);
	assert_int_equal(f->a.nagain, 0);
	scan_finish(f);
	assert_int_equal(f->a.tail_ns, 7 * MS);
	assert_int_equal(ct(live_group(f, 300)), 229 * MS + 7 * MS);
	/* the same again at the next walk: nothing twice */
	r.kc = 23 * TICK + 6 * MS;
	r.rseq = 3;
	gen(f);
	scan_kc(f, t, 5, &r, 1, 0);
	assert_int_equal(f->a.tail_ns, 0);
	assert_int_equal(ct(live_group(f, 300)), 236 * MS);
	assert_int_equal(f->a.lost, 0);
}

/*
 * A parent the walk met but did not read (quiet: asleep until it killed
 * and reaped its children after the walk): the reading at the end is
 * its reading of this generation, so the exit path is in this interval.
 */
static void test_tail_kc_again_unread(void **state)
{
	struct fx *f = *state;
	struct task t[5];
	struct ptop_tsacct_group *g;

	parent_of(f, t, 1);
	gen(f);
	scan_walk(f, t, 5, NULL, 0, 0);	/* 300 met, its kernel c not read */
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	assert_int_equal(f->a.nagain, 1);
	g = ptop_tsacct_group_find(&f->a, 300);
	ptop_tsacct_kernel_c_again(&f->a, g, 3 * TICK, 1, in_proc, f);
	ptop_tsacct_again_done(&f->a, in_proc, f);
	scan_finish(f);
	assert_int_equal(f->a.tail_ns, 4 * MS);
	assert_int_equal(ct(live_group(f, 300)), 30 * MS);
	assert_int_equal(f->a.lost, 0);
}

/*
 * 2,000 children killed at once, reaped one by one: at the parent's last
 * reading some are reaped (in its kernel c), some still zombies (not in
 * it). Those still in /proc count as late, so the exit paths of those
 * reaped are in this interval; the zombies' come from themselves, and
 * once reaped they are not counted again.
 */
static void test_tail_kc_again_unreaped(void **state)
{
	struct fx *f = *state;
	struct task t[5];
	struct ptop_tsacct_group *g;
	struct ptop_tsacct_thread *z;

	parent_of(f, t, 2);
	gen(f);
	scan_walk(f, t, 5, NULL, 0, 0);
	/* 400 reaped (26 ms + 4 ms of exit path), 401 a zombie (50 ms + 1) */
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	assert_int_equal(exit_seq(f, 401, 401, 300, 50 * MS, 2, 0), 0);
	z = ptop_tsacct_thread_find(&f->a, 401);
	assert_non_null(z);
	ptop_tsacct_zombie(&f->a, z, 51 * MS, 0, 1);
	f->in_proc[0] = 401;
	g = ptop_tsacct_group_find(&f->a, 300);
	ptop_tsacct_kernel_c_again(&f->a, g, 3 * TICK, 2, in_proc, f);
	ptop_tsacct_again_done(&f->a, in_proc, f);
	assert_int_equal(f->a.nunreaped, 1);	/* 400 is in the kernel c */
	scan_finish(f);
	assert_int_equal(f->a.tail_ns, 4 * MS);
	assert_int_equal(ct(live_group(f, 300)), 26 * MS + 4 * MS + 51 * MS);
	/* kept while still there, for two generations at most */
	gen(f);
	ptop_tsacct_again_done(&f->a, in_proc, f);
	assert_int_equal(f->a.nunreaped, 1);
	gen(f);
	ptop_tsacct_again_done(&f->a, in_proc, f);
	assert_int_equal(f->a.nunreaped, 0);
	/* 401 reaped: 300's kernel c reads 80 ms, nothing more to add */
	f->in_proc[0] = 0;
	gen(f);
	{
		struct kcr r = { 300, 8 * TICK, 2, 0 };

		scan_kc(f, t, 5, &r, 1, 0);
	}
	assert_int_equal(f->a.tail_ns, 0);
	assert_int_equal(ct(live_group(f, 300)), 81 * MS);
	assert_int_equal(f->a.lost, 0);
}

/*
 * A child that is a zombie at the read (its parent has not reaped it):
 * its exit path, from its runtime now less its record's, goes into its
 * parent's c* in this interval; what the parent's kernel c shows of it
 * once reaped is not counted again. A zombie parent that reaped its own
 * children: what its kernel c has beyond their records, likewise.
 */
static void test_tail_zombie(void **state)
{
	struct fx *f = *state;
	struct ptop_tsacct_thread *z;
	const struct ptop_rec *r;

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	scan_with_300(f, 0, 0);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 400, 400, 300, 31 * TICK), 0);
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	z = ptop_tsacct_thread_find(&f->a, 400);
	assert_non_null(z);
	/* its exit path so far: 1.5 ms */
	ptop_tsacct_zombie(&f->a, z, 27 * MS + MS / 2, 0, 1);
	ptop_tsacct_zombie(&f->a, z, 28 * MS, 0, 1);	/* once */
	scan_with_300(f, 0, 1);
	r = live_group(f, 300);
	assert_int_equal(ct(r), 27 * MS + MS / 2);
	assert_int_equal(f->a.tail_ns, 0);	/* the zombie's is apart */
	/* reaped: 300's kernel c reads 30 ms: 2.5 ms more, not 4 */
	gen(f);
	scan_with_300(f, 3 * TICK, 1);
	assert_int_equal(f->a.tail_ns, 2 * MS + MS / 2);
	assert_int_equal(ct(live_group(f, 300)), 30 * MS);

	/* 300 reaps 401 (9 ms + its exit path 1 ms), dies, is a zombie */
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 401, 401, 300, 32 * TICK), 0);
	assert_int_equal(exit_seq(f, 401, 401, 300, 9 * MS, 2, 0), 0);
	assert_int_equal(exit_seq(f, 300, 300, 100, 1 * MS, 3, 0), 0);
	z = ptop_tsacct_thread_find(&f->a, 300);
	assert_non_null(z);
	/* 40 ms in its kernel c (30 + 10), 0.5 ms of its own exit path */
	ptop_tsacct_zombie(&f->a, z, 1 * MS + MS / 2, 4 * TICK, 1);
	scan(f, base, 4);
	/* 100 got 300's 1 + 39 ms + its paths: 1 + 0.5 ms */
	r = live_group(f, 100);
	assert_int_equal(ct(r), 1 * MS + 30 * MS + 9 * MS + 1 * MS + MS / 2);
	assert_int_equal(f->a.lost, 0);
}

/*
 * A child still on its exit path when its record is taken (2,000 killed
 * at once wait in state D for their turn): what it ran so far goes into
 * its parent's c* now, the rest when it is a zombie, and its parent's
 * kernel c once reaped adds only what is beyond both.
 */
static void test_tail_exiting(void **state)
{
	struct fx *f = *state;
	struct ptop_tsacct_thread *z;

	open_and_first(f);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 300, 300, 100, 30 * TICK), 0);
	scan_with_300(f, 0, 0);
	gen(f);
	assert_int_equal(ptop_tsacct_fork(&f->a, 400, 400, 300, 31 * TICK), 0);
	assert_int_equal(exit_seq(f, 400, 400, 300, 26 * MS, 1, 0), 0);
	z = ptop_tsacct_thread_find(&f->a, 400);
	assert_non_null(z);
	/* on its exit path: 0.5 ms so far, then 0.5 ms again (no more) */
	ptop_tsacct_zombie(&f->a, z, 26 * MS + MS / 2, 0, 0);
	ptop_tsacct_zombie(&f->a, z, 26 * MS + MS / 2, 0, 0);
	assert_false(z->zombie_read);
	scan_with_300(f, 0, 1);
	assert_int_equal(ct(live_group(f, 300)), 26 * MS + MS / 2);
	/* a zombie at the next read: 1.5 ms in all, 1 ms more; then once */
	gen(f);
	ptop_tsacct_zombie(&f->a, z, 27 * MS + MS / 2, 0, 1);
	assert_true(z->zombie_read);
	ptop_tsacct_zombie(&f->a, z, 29 * MS, 0, 1);
	scan_with_300(f, 0, 1);
	assert_int_equal(ct(live_group(f, 300)), 27 * MS + MS / 2);
	/* reaped: 300's kernel c reads 30 ms: 2.5 ms more, not 4 */
	gen(f);
	scan_with_300(f, 3 * TICK, 1);
	assert_int_equal(f->a.tail_ns, 2 * MS + MS / 2);
	assert_int_equal(ct(live_group(f, 300)), 30 * MS);
	assert_int_equal(f->a.lost, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_live_records),
		T(test_scan_same),
		T(test_ran_lately),
		T(test_thread_exit_x),
		T(test_group_exit_folds),
		T(test_orphan_through_dead_middle),
		T(test_dead_chain),
		T(test_unknown_exit),
		T(test_lost_thread),
		T(test_pid_reuse),
		T(test_zombie),
		T(test_zombie_leader),
		T(test_fork_after_scan),
		T(test_split_monotonic),
		T(test_late_exit_record),
		T(test_late_group_records),
		T(test_fold_into_reported),
		T(test_tail_forked_parent),
		T(test_tail_kc_again),
		T(test_tail_kc_again_unread),
		T(test_tail_kc_again_unreaped),
		T(test_tail_zombie),
		T(test_tail_exiting),
		T(test_tail_predicted),
		T(test_tail_old_parent_reaped_before),
		T(test_tail_old_parent_reaped_after),
		T(test_tail_lost_child),
		T(test_tail_not_init),
		T(test_tail_parent_dies),
		T(test_tail_late_child),
		T(test_tail_old_parent_leaf_child),
		T(test_tail_old_child_dies_in_open_walk),
		T(test_tail_late_child_unknown),
		T(test_tail_before_rseq_unreaped),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
