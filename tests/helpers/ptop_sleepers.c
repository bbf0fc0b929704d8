// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_sleepers: many sleeping processes, for the "thousands of tasks"
 * cases of the exactness checks (docs/precision.md).
 *
 *   ptop_sleepers [-w SECS] [-k SECS] N
 *
 * After waiting -w seconds, forks N children that sleep ("sl-sleep");
 * after -k more seconds (default: until SIGTERM) kills them all at once
 * and reaps them, then exits. Prints "started N" when all are up and
 * "killed N" when all are gone (stdout, flushed), so a test can tell
 * which interval they fall in.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR && !stop)
		;
}

int main(int argc, char **argv)
{
	double wait_s = 0, kill_s = -1;
	pid_t *kids;
	long n, i;
	int opt;

	while ((opt = getopt(argc, argv, "w:k:")) != -1) {
		if (opt == 'w')
			wait_s = atof(optarg);
		else if (opt == 'k')
			kill_s = atof(optarg);
		else
			goto usage;
	}
	if (optind + 1 != argc)
		goto usage;
	n = atol(argv[optind]);
	if (n <= 0 || n > 100000)
		goto usage;
	kids = calloc(n, sizeof(*kids));
	if (!kids)
		return 1;
	signal(SIGTERM, on_term);
	nap(wait_s);
	for (i = 0; i < n && !stop; i++) {
		kids[i] = fork();
		if (kids[i] < 0) {
			perror("fork");
			break;
		}
		if (!kids[i]) {
			prctl(PR_SET_NAME, "sl-sleep");
			signal(SIGTERM, SIG_DFL);
			for (;;)
				pause();
		}
	}
	n = i;
	printf("started %ld\n", n);
	fflush(stdout);
	if (kill_s >= 0)
		nap(kill_s);
	else
		while (!stop)
			pause();
	for (i = 0; i < n; i++)
		if (kids[i] > 0)
			kill(kids[i], SIGKILL);
	for (i = 0; i < n; i++)
		if (kids[i] > 0)
			waitpid(kids[i], NULL, 0);
	printf("killed %ld\n", n);
	fflush(stdout);
	free(kids);
	return 0;
usage:
	fprintf(stderr, "usage: ptop_sleepers [-w SECS] [-k SECS] N\n");
	return 2;
}
