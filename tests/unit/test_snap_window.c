// SPDX-License-Identifier: GPL-2.0
/*
 * Two-phase snapshots of the stock sources against this machine's kernel:
 * a busy process must be read in the sample's tight window, not during
 * the walk over every task before it.
 *
 * A spinner is forked first, then a process with NSLEEP sleeping threads
 * (a higher pid: the walk reads the spinner, then the sleepers). After
 * each read, the spinner's own time is read again at t_after. Between
 * its reading in the window (no earlier than time_ns - window_ns / 2) and
 * t_after it can have run at most that long: the test asserts
 *     after - reading <= t_after - (time_ns - window_ns / 2) + slack
 * with slack one clock tick for a tick-rounded source and one kernel
 * tick for a running task's runtime (it is updated at ticks). A reading
 * taken during the walk would be older by the walk's length, which the
 * sleepers make long. The bound is physical: a busy machine makes the
 * spinner run less, never more. The window itself holds the spinner and
 * the system counters, not the sleepers: it is shorter than the walk.
 * procfs runs as any user; taskstats needs root (skipped visibly).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/src/procfs_read.h"
#include "lib/src.h"

#define NSLEEP	1500
#define SLACK_NS 10000000ULL	/* a clock tick; >= a kernel tick */

static uint64_t mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static pid_t start_sleepers(void)
{
	pid_t p = fork();
	pthread_attr_t a;
	pthread_t t;
	int i;

	if (p)
		return p;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	for (i = 0; i < NSLEEP; i++)
		if (pthread_create(&t, &a, sleeper, NULL))
			break;
	for (;;)
		pause();
}

static pid_t start_spinner(void)
{
	pid_t p = fork();
	volatile uint64_t x = 0;

	if (p)
		return p;
	for (;;)
		x++;
}

/* the spinner's own time now: schedstat's ns runtime, or stat's ticks */
static uint64_t own_now(pid_t pid, int ticks)
{
	char path[64], buf[1024];
	unsigned long long run = 0;
	unsigned long ut = 0, st = 0;
	FILE *f;
	char *p;

	snprintf(path, sizeof(path), "/proc/%d/%s", pid,
		 ticks ? "stat" : "schedstat");
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	if (!ticks) {
		assert_int_equal(sscanf(buf, "%llu", &run), 1);
		return run;
	}
	p = strrchr(buf, ')');
	assert_non_null(p);
	/* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	assert_int_equal(sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
				&ut, &st), 2);
	return (uint64_t)(ut + st) * (1000000000ULL / sysconf(_SC_CLK_TCK));
}

static const struct ptop_rec *find_thread(const struct ptop_sample *s,
						pid_t pid)
{
	size_t i;

	for (i = 0; i < s->nrecs; i++)
		if (s->recs[i].kind == PTOP_REC_THREAD &&
		    !(s->recs[i].flags & PTOP_RECF_EXIT) &&
		    s->recs[i].pid == (uint32_t)pid)
			return &s->recs[i];
	return NULL;
}

static void check_source(const char *name, int ticks)
{
	struct ptop_src_cfg cfg = { .proc_root = "/proc" };
	pid_t spin, sleepers;
	struct ptop_sample s;
	struct ptop_src *src;
	char err[300];
	int i, judged = 0;

	spin = start_spinner();
	sleepers = start_sleepers();
	usleep(300000);	/* the threads are up */
	assert_int_equal(ptop_src_open(&src, name, &cfg, err, sizeof(err)), 0);
	src->cfg.rt_window = geteuid() == 0;
	ptop_sample_init(&s);
	for (i = 0; i < 5; i++) {
		const struct ptop_rec *r;
		uint64_t t0, t_after, after, reading, since;

		usleep(100000);
		t0 = mono();
		assert_int_equal(ptop_src_read(src, &s), 0);
		after = own_now(spin, ticks);
		t_after = mono();
		r = find_thread(&s, spin);
		assert_non_null(r);
		reading = r->utime_ns + r->stime_ns;
		since = t_after - (s.time_ns - s.window_ns / 2);
		print_message("%s: read %.1f ms, window %.2f ms; spinner moved %.2f ms after its reading, %.2f ms allowed\n",
			      name, (t_after - t0) / 1e6, s.window_ns / 1e6,
			      after > reading ? (after - reading) / 1e6 : 0.0,
			      (since + SLACK_NS) / 1e6);
		assert_true(s.time_ns >= t0 && s.time_ns <= t_after);
		assert_true(after <= reading + since + SLACK_NS);
		/* the sleepers were read in the walk, not in the window */
		assert_true(s.window_ns < t_after - t0);
		judged++;
	}
	assert_int_equal(judged, 5);
	ptop_sample_free(&s);
	ptop_src_close(src);
	kill(spin, SIGKILL);
	kill(sleepers, SIGKILL);
	waitpid(spin, NULL, 0);
	waitpid(sleepers, NULL, 0);
}

static void test_procfs_window(void **state)
{
	(void)state;
	check_source("procfs", 1);
}

static void test_taskstats_window(void **state)
{
	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: taskstats needs root\n");
		skip();
	}
	check_source("taskstats", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_procfs_window),
		cmocka_unit_test(test_taskstats_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
