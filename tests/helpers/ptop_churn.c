// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_churn: a process tree that forks continually, for the "rows add up
 * to 100%" demonstration against top(1).
 *
 *   ptop_churn [-w SECS] [-l SECS] SECS
 *
 * After waiting -w seconds, the root ("ch-root") forks for SECS seconds,
 * in rounds:
 *   - a waited child that burns 20 ms                     ("ch-wait")
 *   - a long-lived parent that ignores SIGCHLD and starts
 *     children that burn 10 ms and reap themselves         ("ch-ign", "ch-selfreap")
 *   - a double-fork orphan: its middle parent exits first,
 *     then it burns 20 ms                                  ("ch-middle", "ch-orphan")
 *   - a process whose 8 threads start, burn 5 ms, exit     ("ch-threads")
 *   - a process whose non-leader thread execs this program,
 *     which then burns 10 ms                               ("ch-exec")
 * Then every descendant is gone; the root lingers -l seconds (so that a
 * monitor sees it alive after its descendants died) and prints
 *   burned_ns=<sum> tasks=<n> root=<pid>
 * where the sum is what every descendant measured of itself with
 * CLOCK_PROCESS_CPUTIME_ID right before it exited (its whole process,
 * threads included), sent over a pipe.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"

static int report_fd = -1;
static const char *self_exe;

static void burn_thread_ms(unsigned int ms)
{
	burn_ms(CLOCK_THREAD_CPUTIME_ID, ms);
}

static void name(const char *n)
{
	prctl(PR_SET_NAME, n);
}

static void *thread_burn(void *arg)
{
	burn_thread_ms((unsigned int)(uintptr_t)arg);
	return NULL;
}

static void run_threads(void)
{
	pthread_t t[8];
	int i;

	name("ch-threads");
	for (i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, thread_burn, (void *)(uintptr_t)5);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	report_exit(report_fd);
}

static void *thread_exec(void *arg)
{
	char fd[16];

	snprintf(fd, sizeof(fd), "%d", report_fd);
	execl(self_exe, self_exe, "--exec-tail", fd, (char *)NULL);
	perror("ptop_churn: exec");
	_exit(1);
}

/* a non-leader thread execs: the kernel makes it the leader (de_thread) */
static void run_exec(void)
{
	pthread_t t;

	name("ch-exec");
	burn_thread_ms(2);
	pthread_create(&t, NULL, thread_exec, NULL);
	pause();
	_exit(1);
}

/* the long-lived parent whose children reap themselves */
static void run_ignorer(int stop_fd)
{
	char c;

	name("ch-ign");
	signal(SIGCHLD, SIG_IGN);
	for (;;) {
		fd_set fds;
		struct timeval tv = { 0, 50000 };

		if (!fork_or_die()) {
			name("ch-selfreap");
			burn_thread_ms(10);
			report_exit(report_fd);
		}
		FD_ZERO(&fds);
		FD_SET(stop_fd, &fds);
		if (select(stop_fd + 1, &fds, NULL, NULL, &tv) > 0 &&
		    read(stop_fd, &c, 1) <= 0)
			break;
	}
	/* wait until every self-reaped child is gone, then go too */
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	report_exit(report_fd);
}

static void one_round(void)
{
	pid_t p;

	p = fork_or_die();
	if (!p) {
		name("ch-wait");
		burn_thread_ms(20);
		report_exit(report_fd);
	}
	waitpid(p, NULL, 0);

	p = fork_or_die();
	if (!p) {
		name("ch-middle");
		if (!fork_or_die()) {
			/* the middle parent exits at once: an orphan */
			usleep(20000);
			name("ch-orphan");
			burn_thread_ms(20);
			report_exit(report_fd);
		}
		report_exit(report_fd);
	}
	waitpid(p, NULL, 0);

	p = fork_or_die();
	if (!p)
		run_threads();
	waitpid(p, NULL, 0);

	p = fork_or_die();
	if (!p)
		run_exec();
	waitpid(p, NULL, 0);
}

int main(int argc, char **argv)
{
	double wait_s = 0, linger_s = 0, secs;
	struct burn_report r;
	uint64_t sum = 0, end;
	unsigned int tasks = 0;
	int fds[2], stop[2], opt;
	pid_t ign;

	self_exe = "/proc/self/exe";
	if (argc == 3 && !strcmp(argv[1], "--exec-tail")) {
		/* the image a non-leader thread exec'ed */
		report_fd = atoi(argv[2]);
		name("ch-exec");
		burn_thread_ms(10);
		report_exit(report_fd);
	}
	while ((opt = getopt(argc, argv, "w:l:")) != -1) {
		if (opt == 'w')
			wait_s = atof(optarg);
		else if (opt == 'l')
			linger_s = atof(optarg);
		else
			return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: ptop_churn [-w secs] [-l secs] secs\n");
		return 2;
	}
	secs = atof(argv[optind]);
	if (wait_s > 0)
		usleep((useconds_t)(wait_s * 1e6));
	name("ch-root");
	if (pipe(fds) || pipe(stop))
		return 1;
	report_fd = fds[1];

	ign = fork_or_die();
	if (!ign) {
		close(stop[1]);
		run_ignorer(stop[0]);
	}
	close(stop[0]);
	end = clock_ns(CLOCK_MONOTONIC) + (uint64_t)(secs * 1e9);
	while (clock_ns(CLOCK_MONOTONIC) < end)
		one_round();
	close(stop[1]);		/* the ignorer stops forking */
	waitpid(ign, NULL, 0);
	close(fds[1]);
	/* every descendant held the write end until it exited */
	while (read(fds[0], &r, sizeof(r)) == sizeof(r)) {
		sum += r.used_ns;
		tasks++;
	}
	printf("burned_ns=%llu tasks=%u root=%d\n", (unsigned long long)sum,
	       tasks, getpid());
	fflush(stdout);
	if (linger_s > 0)
		usleep((useconds_t)(linger_s * 1e6));
	return 0;
}
