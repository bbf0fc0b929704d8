// SPDX-License-Identifier: GPL-2.0
/*
 * tstime/tstime_tree_acct: which dead tasks descend from the root, from synthetic
 * proc connector events and taskstats exit records: self-reaped children,
 * orphans whose middle parent died first, pid reuse, the two streams
 * interleaved either way, lost connector events (ppid chains), threads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tstime/tstime_tree_acct.h"

#define ROOT	100
#define MS	1000000ULL

static int setup(void **state)
{
	static struct ptop_tree_acct ta;

	if (ptop_tree_acct_init(&ta, ROOT))
		return -1;
	*state = &ta;
	return 0;
}

static int teardown(void **state)
{
	ptop_tree_acct_free(*state);
	return 0;
}

static void fork_ev(struct ptop_tree_acct *ta, uint32_t ptgid, uint32_t pid,
		    uint32_t tgid)
{
	struct ptop_cnproc_event ev = {
		.what = PTOP_CNPROC_FORK,
		.pid = pid, .tgid = tgid, .ppid = ptgid, .ptgid = ptgid,
	};

	assert_int_equal(ptop_tree_acct_event(ta, &ev), 0);
}

static void exit_ev(struct ptop_tree_acct *ta, uint32_t pid, uint32_t tgid)
{
	struct ptop_cnproc_event ev = {
		.what = PTOP_CNPROC_EXIT, .pid = pid, .tgid = tgid,
	};

	assert_int_equal(ptop_tree_acct_event(ta, &ev), 0);
}

/* an exit record: runtime ms, tick split 3:1 user:sys */
static void rec(struct ptop_tree_acct *ta, uint32_t pid, uint32_t tgid,
		uint32_t ppid, const char *comm, uint64_t ms)
{
	struct ptop_tsnl_stats st;

	memset(&st, 0, sizeof(st));
	st.pid = pid;
	st.tgid = tgid;
	st.ppid = ppid;
	strcpy(st.comm, comm);
	st.run_virtual_ns = ms * MS;
	st.utime_us = 3 * ms * 250;
	st.stime_us = ms * 250;
	st.hiwater_rss_kb = 1000 + pid;
	assert_int_equal(ptop_tree_acct_exit(ta, &st), 0);
}

/* a task's death as the kernel sends it: record first, then EXIT */
static void die(struct ptop_tree_acct *ta, uint32_t pid, uint32_t tgid,
		uint32_t ppid, const char *comm, uint64_t ms)
{
	rec(ta, pid, tgid, ppid, comm, ms);
	exit_ev(ta, pid, tgid);
}

static uint64_t total_ms(const struct ptop_tree_acct *ta)
{
	return (ta->user_ns + ta->sys_ns) / MS;
}

static void test_self_reaped(void **state)
{
	struct ptop_tree_acct *ta = *state;

	fork_ev(ta, ROOT, 101, 101);		/* the command */
	fork_ev(ta, 101, 102, 102);		/* SIGCHLD ignored: */
	fork_ev(ta, 101, 103, 103);		/* they reap themselves */
	fork_ev(ta, 50, 501, 501);		/* not ours */
	die(ta, 102, 102, 101, "burn", 10);
	die(ta, 501, 501, 50, "other", 1000);
	die(ta, 103, 103, 101, "burn", 20);
	die(ta, 101, 101, ROOT, "parent", 5);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 35);
	assert_int_equal(ta->user_ns, 35 * MS * 3 / 4);
	assert_int_equal(ta->procs, 3);
	assert_int_equal(ta->threads, 0);
	assert_int_equal(ta->paired, 4);
	assert_int_equal(ta->by_ppid, 0);
	assert_int_equal(ta->max_rss_kb, 1103);
	assert_false(ta->lost);
	/* comms sorted by CPU time, descending */
	assert_int_equal(ta->ncomms, 2);
	assert_string_equal(ta->comms[0].comm, "burn");
	assert_int_equal(ta->comms[0].procs, 2);
	assert_int_equal(ta->comms[0].cpu_ns, 30 * MS);
	assert_string_equal(ta->comms[1].comm, "parent");
}

/* pid 101 ignores SIGCHLD; 999 asked about is a test failure */
static int ignores(void *arg, uint32_t tgid)
{
	int *asked = arg;

	asked[tgid == 101 ? 0 : 1]++;
	assert_int_not_equal(tgid, 999);
	return tgid == 101;
}

static void test_unwaited(void **state)
{
	struct ptop_tree_acct *ta = *state;
	int asked[2] = { 0, 0 };

	ta->sigchld_ignored = ignores;
	ta->sigchld_arg = asked;
	fork_ev(ta, ROOT, 101, 101);		/* the command, SIGCHLD ignored */
	fork_ev(ta, 101, 102, 102);
	fork_ev(ta, 101, 103, 103);
	fork_ev(ta, ROOT, 104, 104);		/* waits for its children */
	fork_ev(ta, 104, 105, 105);
	fork_ev(ta, 50, 999, 999);		/* not ours: never asked */
	die(ta, 102, 102, 101, "self", 10);
	die(ta, 103, 103, 101, "self", 20);
	die(ta, 105, 105, 104, "waited", 40);
	fork_ev(ta, 104, 106, 106);
	die(ta, 106, 106, 1, "moved", 8);	/* reparented elsewhere */
	die(ta, 999, 999, 50, "other", 1000);
	die(ta, 101, 101, ROOT, "cmd", 5);
	die(ta, 104, 104, ROOT, "cmd", 5);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 88);
	assert_int_equal((ta->unwaited_user_ns + ta->unwaited_sys_ns) / MS, 38);
	assert_int_equal(ta->unwaited, 3);
	/* each parent asked once, at its first fork */
	assert_int_equal(asked[0], 1);
	assert_int_equal(asked[1], 1);
}

/* the kernel filtered the records: each counts, but the root's own */
static void test_all_ours(void **state)
{
	struct ptop_tree_acct *ta = *state;

	ta->all_ours = 1;
	rec(ta, 101, 101, ROOT, "cmd", 10);
	rec(ta, 102, 101, 50, "thread", 5);
	rec(ta, 103, 103, 1, "orphan", 7);
	rec(ta, ROOT + 1, ROOT, 1, "tstime", 100);	/* a thread of the root */
	assert_int_equal(ptop_tree_acct_pending(ta), 0);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 22);
	assert_int_equal(ta->procs, 2);
	assert_int_equal(ta->threads, 1);
	assert_int_equal(ta->unwaited, 0);
	assert_false(ta->lost);
}

static void test_orphan_middle_first(void **state)
{
	struct ptop_tree_acct *ta = *state;

	fork_ev(ta, ROOT, 101, 101);
	fork_ev(ta, 101, 102, 102);		/* middle */
	fork_ev(ta, 102, 103, 103);		/* orphan to be */
	die(ta, 102, 102, 101, "middle", 1);
	/* reparented to the subreaper (the root), burns, dies */
	die(ta, 103, 103, ROOT, "orphan", 100);
	die(ta, 101, 101, ROOT, "cmd", 2);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 103);
	assert_int_equal(ta->procs, 3);
}

static void test_orphan_to_init(void **state)
{
	struct ptop_tree_acct *ta = *state;

	/* no subreaper: the orphan's ppid is 1, fork ancestry still says ours */
	fork_ev(ta, ROOT, 101, 101);
	fork_ev(ta, 101, 102, 102);
	fork_ev(ta, 102, 103, 103);
	die(ta, 102, 102, 101, "middle", 1);
	die(ta, 101, 101, ROOT, "cmd", 2);
	die(ta, 103, 103, 1, "orphan", 100);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 103);
}

static void test_pid_reuse(void **state)
{
	struct ptop_tree_acct *ta = *state;

	fork_ev(ta, 50, 200, 200);		/* not ours, pid 200 */
	fork_ev(ta, ROOT, 101, 101);
	fork_ev(ta, 101, 102, 102);
	die(ta, 102, 102, 101, "ours", 10);
	fork_ev(ta, 50, 102, 102);		/* 102 reused, not ours */
	die(ta, 200, 200, 50, "theirs", 1000);
	fork_ev(ta, 101, 200, 200);		/* 200 reused, ours */
	die(ta, 102, 102, 50, "theirs", 1000);
	die(ta, 200, 200, 101, "ours", 20);
	/* a not-ours process forked by a reused pid is not ours either */
	fork_ev(ta, 60, 101, 101);
	assert_false(ptop_tree_acct_is_desc(ta, 101));
	fork_ev(ta, 101, 300, 300);
	die(ta, 300, 300, 101, "theirs", 1000);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 30);
	assert_int_equal(ta->procs, 2);
}

static void test_out_of_order(void **state)
{
	struct ptop_tree_acct *ta = *state;

	fork_ev(ta, ROOT, 101, 101);
	fork_ev(ta, 101, 102, 102);
	fork_ev(ta, 7, 700, 700);
	/* connector read first: EXIT events before their records */
	exit_ev(ta, 102, 102);
	exit_ev(ta, 700, 700);
	assert_int_equal(ta->nwaits, 2);
	assert_int_equal(ptop_tree_acct_pending(ta), 1);
	rec(ta, 700, 700, 7, "theirs", 1000);
	rec(ta, 102, 102, 101, "ours", 10);
	assert_int_equal(ta->nwaits, 0);
	/* records read ahead: the parent's waits while its child goes on */
	rec(ta, 101, 101, ROOT, "ours", 1);
	assert_int_equal(ptop_tree_acct_pending(ta), 1);
	fork_ev(ta, 101, 103, 103);
	rec(ta, 103, 103, 101, "ours", 3);
	exit_ev(ta, 103, 103);
	exit_ev(ta, 101, 101);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 14);
	assert_int_equal(ta->paired, 4);
	assert_false(ta->lost);
}

static void test_lost_events_ppid_chain(void **state)
{
	struct ptop_tree_acct *ta = *state;

	/* the connector lost everything: records only, children first */
	ptop_tree_acct_lost(ta);
	rec(ta, 104, 103, 102, "thr", 4);	/* a thread of 103 */
	rec(ta, 103, 103, 102, "leaf", 30);
	rec(ta, 600, 600, 1, "theirs", 1000);
	rec(ta, 601, 601, 600, "theirs", 1000);
	rec(ta, 102, 102, 101, "mid", 2);
	rec(ta, 105, 105, ROOT, "orphan", 50);	/* reparented to us */
	rec(ta, 101, 101, ROOT, "cmd", 1);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 87);
	assert_int_equal(ta->by_ppid, 5);
	assert_int_equal(ta->unresolved, 2);
	assert_int_equal(ta->procs, 4);
	assert_int_equal(ta->threads, 1);
	assert_true(ta->lost);
}

static void test_threads_and_ticks(void **state)
{
	struct ptop_tree_acct *ta = *state;
	struct ptop_tsnl_stats st;

	fork_ev(ta, ROOT, 101, 101);
	fork_ev(ta, 101, 102, 101);		/* a thread */
	die(ta, 102, 101, ROOT, "worker", 7);
	/* without task_delayacct: tick-based utime + stime */
	memset(&st, 0, sizeof(st));
	st.pid = st.tgid = 101;
	st.ppid = ROOT;
	strcpy(st.comm, "cmd");
	st.utime_us = 3000;
	st.stime_us = 1000;
	assert_int_equal(ptop_tree_acct_exit(ta, &st), 0);
	exit_ev(ta, 101, 101);
	/* the root's own threads are not its descendants */
	fork_ev(ta, ROOT, 150, ROOT);
	die(ta, 150, ROOT, 1, "tstime", 1000);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(total_ms(ta), 11);
	assert_int_equal(ta->user_ns, 7 * MS * 3 / 4 + 3 * MS);
	assert_int_equal(ta->threads, 1);
	assert_int_equal(ta->procs, 1);
	assert_int_equal(ta->tick_based, 1);
	assert_int_equal(ta->ncomms, 2);
	assert_string_equal(ta->comms[0].comm, "worker");
	assert_int_equal(ta->comms[0].threads, 1);
}

static void test_one_slice(void **state)
{
	struct ptop_tree_acct *ta = *state;
	struct ptop_tsnl_stats st;

	/* ran once, never switched out: sum_exec_runtime still 0 at exit */
	fork_ev(ta, ROOT, 101, 101);
	memset(&st, 0, sizeof(st));
	st.pid = st.tgid = 101;
	st.ppid = ROOT;
	strcpy(st.comm, "sh");
	st.cpu_count = 1;
	st.etime_us = 900;
	st.cpu_delay_ns = 100000;
	assert_int_equal(ptop_tree_acct_exit(ta, &st), 0);
	exit_ev(ta, 101, 101);
	/* several slices: the runtime as given */
	fork_ev(ta, ROOT, 102, 102);
	st.pid = st.tgid = 102;
	st.cpu_count = 3;
	st.run_virtual_ns = 5 * MS;
	st.etime_us = 90000;
	assert_int_equal(ptop_tree_acct_exit(ta, &st), 0);
	exit_ev(ta, 102, 102);
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_int_equal(ta->user_ns + ta->sys_ns, 800000 + 5 * MS);
	assert_int_equal(ta->tick_based, 0);
}

static void test_lost_record(void **state)
{
	struct ptop_tree_acct *ta = *state;

	fork_ev(ta, ROOT, 101, 101);
	exit_ev(ta, 101, 101);		/* its record never came */
	assert_int_equal(ptop_tree_acct_finish(ta), 0);
	assert_true(ta->lost);
	assert_int_equal(total_ms(ta), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_self_reaped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwaited, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orphan_middle_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orphan_to_init, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_of_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_events_ppid_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads_and_ticks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_slice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_record, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
