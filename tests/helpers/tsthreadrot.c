// SPDX-License-Identifier: GPL-2.0
/*
 * tsthreadrot: one process whose threads die one by one and are
 * replaced, for the ptop_taskstats module tests (a thread walk that
 * loses its place when the thread it rests on is released).
 *
 *   tsthreadrot N SECS   N threads at all times for SECS seconds, named
 *                        ptop-threadrot; a thread exits when a SIGUSR1
 *                        is sent to it alone (tgkill, or the module's
 *                        test window) and another is started at once.
 *                        Prints "ready N" once N are live, then "done
 *                        CREATED" at the end (the others are then
 *                        left to exit with the process)
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static atomic_long alive;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* SIGUSR1 is blocked in every thread: it waits for one sent to it */
static void *until_usr1(void *arg)
{
	sigset_t s;
	int sig;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigwait(&s, &sig);
	atomic_fetch_sub(&alive, 1);
	return arg;
}

int main(int argc, char **argv)
{
	long n, created = 0;
	pthread_attr_t a;
	pthread_t t;
	sigset_t s;
	double end;
	int ready = 0;

	if (argc != 3 || (n = atol(argv[1])) < 1 || atol(argv[2]) < 1) {
		fprintf(stderr, "usage: tsthreadrot N SECS\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	prctl(PR_SET_NAME, "ptop-threadrot");
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 << 10);
	end = now_s() + atol(argv[2]);
	while (now_s() < end) {
		if (atomic_load(&alive) >= n) {
			if (!ready) {
				printf("ready %ld\n", n);
				ready = 1;
			}
			usleep(1000);
			continue;
		}
		atomic_fetch_add(&alive, 1);
		if (pthread_create(&t, &a, until_usr1, NULL)) {
			atomic_fetch_sub(&alive, 1);
			usleep(1000);
			continue;
		}
		created++;
	}
	printf("done %ld\n", created);
	return 0;
}
