// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_family GO_FILE: a process with threads and children, for the
 * per-process screen's test. It waits (sleeping) until GO_FILE exists,
 * so the screen can be opened on it first, then:
 *   - a thread "fam-thr" burns 300 ms of its own CPU and exits (x*);
 *   - a thread "fam-live" sleeps for good (a live thread);
 *   - the process burns 400 ms itself;
 *   - three children "fam-kid" burn 200, 100, 50 ms and end with exit
 *     3, exit 7 and SIGTERM, each waited for with wait4;
 *   - a child "fam-sleep" sleeps for good (a live child).
 * On stdout: "sleeper PID", then "kid PID STATUS NS" per child (its wait
 * status and the CPU time wait4's rusage gives), then "quiet"; then it
 * sleeps until killed.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "burn.h"

static void *burn_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "fam-thr");
	burn_ms(CLOCK_THREAD_CPUTIME_ID, 300);
	return NULL;
}

static void *live_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "fam-live");
	for (;;)
		pause();
	return NULL;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL + (uint64_t)tv.tv_usec * 1000;
}

static void kid(unsigned int ms, int how)
{
	pid_t p = fork_or_die();
	struct rusage ru;
	int st;

	if (!p) {
		prctl(PR_SET_NAME, "fam-kid");
		burn_ms(CLOCK_PROCESS_CPUTIME_ID, ms);
		if (how < 0)
			raise(-how);
		_exit(how);
	}
	if (wait4(p, &st, 0, &ru) != p) {
		perror("wait4");
		exit(1);
	}
	printf("kid %d %d %llu\n", (int)p, st,
	       (unsigned long long)(tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime)));
	fflush(stdout);
}

int main(int argc, char **argv)
{
	pthread_t burner, live;
	pid_t sleeper;

	if (argc != 2) {
		fprintf(stderr, "usage: ptop_family GO_FILE\n");
		return 2;
	}
	prctl(PR_SET_NAME, "fam-parent");
	while (access(argv[1], F_OK))
		usleep(20000);
	if (pthread_create(&burner, NULL, burn_thread, NULL) ||
	    pthread_create(&live, NULL, live_thread, NULL)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	sleeper = fork_or_die();
	if (!sleeper) {
		/* a test that gives up early leaves nothing behind */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		prctl(PR_SET_NAME, "fam-sleep");
		for (;;)
			pause();
	}
	printf("sleeper %d\n", (int)sleeper);
	fflush(stdout);
	burn_ms(CLOCK_THREAD_CPUTIME_ID, 400);
	pthread_join(burner, NULL);
	kid(200, 3);
	kid(100, 7);
	kid(50, -SIGTERM);
	printf("quiet\n");
	fflush(stdout);
	for (;;)
		pause();
}
