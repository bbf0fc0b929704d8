// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_workload: process trees that burn a known amount of CPU, for the
 * end-to-end exactness tests.
 *
 *   ptop_workload spin N                 N busy loops until killed
 *   ptop_workload normal MS              one waited child burns MS
 *   ptop_workload selfreap N MS          parent ignores SIGCHLD; N children
 *                                        burn MS each and reap themselves
 *   ptop_workload orphan N MS            N double-forked orphans burn MS
 *                                        each after their middle parent
 *                                        exited
 *   ptop_workload mixed                  normal 200 + selfreap 200 5 +
 *                                        orphan 4 100
 * Options (before the mode): -w SECS wait before starting, -l SECS linger
 * after the tree is gone (so a monitor sees the parent's c* grow while it
 * is alive), -t twins of the orphans (below).
 *
 * Every burner measures its own CPU time with CLOCK_PROCESS_CPUTIME_ID
 * right before _exit() and reports it over a pipe; the parent prints
 * "burned_ns=<sum> tasks=<n> parent=<pid> pids=<burner pids,...>
 * middles_ns=<ns> twins_ns=<ns> twins_self_ns=<ns>" on stdout when all
 * are gone. middles_ns: what the middle parents of orphan mode used,
 * which fork and exit without burning (the kernel's wait4 rusage of
 * them, exit paths included): not in burned_ns, but a monitor rightly
 * adds it to the parent's c*.
 * -t (orphan mode): as many twins of the orphans ("wl-twin"), burning
 * the same at the same time, but waited for: twins_ns is their wait4
 * rusage (exit paths included), twins_self_ns what they measured of
 * themselves before exiting, so the difference is what exit paths like
 * the orphans' cost now, which a burner cannot measure of itself and a
 * monitor that sees them rightly adds to the parent's c*.
 * Process names: the parent is "wl-parent", burners "wl-burn", middle
 * parents "wl-middle".
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "burn.h"

static int report_fd = -1;

#define TAG_TWIN 1	/* a report of a twin, not of a burner */

/* burn, report what this process used in total, exit */
static void burner(unsigned int ms)
{
	prctl(PR_SET_NAME, "wl-burn");
	burn_ms(CLOCK_PROCESS_CPUTIME_ID, ms);
	report_exit(report_fd);
}

static void run_normal(unsigned int ms)
{
	pid_t p = fork_or_die();

	if (!p)
		burner(ms);
	waitpid(p, NULL, 0);
}

static void run_selfreap(unsigned int n, unsigned int ms)
{
	pid_t *kids = calloc(n, sizeof(*kids));
	unsigned int i, alive;

	signal(SIGCHLD, SIG_IGN);	/* children reap themselves */
	for (i = 0; i < n; i++) {
		kids[i] = fork_or_die();
		if (!kids[i])
			burner(ms);
	}
	do {
		struct timespec ts = { 0, 5000000 };

		nanosleep(&ts, NULL);
		for (i = 0, alive = 0; i < n; i++)
			alive += kill(kids[i], 0) == 0;
	} while (alive);
	signal(SIGCHLD, SIG_DFL);
	free(kids);
}

static uint64_t middles_ns, twins_ns;
static int twins;	/* -t */

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ULL + tv.tv_usec * 1000ULL;
}

/* what the children waited for so far used (wait4 rusage) */
static uint64_t waited_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_CHILDREN, &ru);
	return tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
}

static void run_orphan(unsigned int n, unsigned int ms)
{
	uint64_t before = waited_ns();
	int go[2];
	unsigned int i;

	/* the orphans start burning only once their middle parent is gone */
	if (pipe(go))
		exit(1);
	for (i = 0; i < n; i++) {
		pid_t mid = fork_or_die();

		if (!mid) {
			prctl(PR_SET_NAME, "wl-middle");
			if (!fork_or_die()) {
				char c;

				close(go[1]);
				if (read(go[0], &c, 1) < 0)
					_exit(1);
				burner(ms);
			}
			_exit(0);
		}
		waitpid(mid, NULL, 0);
	}
	middles_ns += waited_ns() - before;
	close(go[0]);
	close(go[1]);	/* EOF: every orphan starts */
	if (!twins)
		return;
	before = waited_ns();
	for (i = 0; i < n; i++) {
		if (!fork_or_die()) {
			prctl(PR_SET_NAME, "wl-twin");
			burn_ms(CLOCK_PROCESS_CPUTIME_ID, ms);
			report_exit_tagged(report_fd, TAG_TWIN);
		}
	}
	while (wait(NULL) > 0)
		;
	twins_ns += waited_ns() - before;
}

int main(int argc, char **argv)
{
	double wait_s = 0, linger_s = 0;
	unsigned int tasks = 0;
	struct burn_report r;
	uint64_t sum = 0, twins_self_ns = 0;
	char *pids = NULL;
	size_t pids_len = 0;
	FILE *pids_f = open_memstream(&pids, &pids_len);
	int fds[2], opt;
	const char *mode;

	while ((opt = getopt(argc, argv, "+w:l:t")) != -1) {
		if (opt == 'w')
			wait_s = atof(optarg);
		else if (opt == 'l')
			linger_s = atof(optarg);
		else if (opt == 't')
			twins = 1;
		else
			return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: ptop_workload [-w s] [-l s] [-t] spin|normal|selfreap|orphan|mixed ...\n");
		return 2;
	}
	mode = argv[optind];
	if (!strcmp(mode, "spin")) {
		int n = optind + 1 < argc ? atoi(argv[optind + 1]) : 1;

		prctl(PR_SET_NAME, "wl-spin");
		for (int i = 1; i < n; i++)
			if (!fork_or_die())
				break;
		for (;;)
			burn_ms(CLOCK_PROCESS_CPUTIME_ID, 1000);
	}
	if (wait_s > 0)
		usleep((useconds_t)(wait_s * 1e6));
	prctl(PR_SET_NAME, "wl-parent");
	if (pipe(fds))
		return 1;
	report_fd = fds[1];
	if (!strcmp(mode, "normal") && optind + 1 < argc) {
		run_normal(atoi(argv[optind + 1]));
	} else if (!strcmp(mode, "selfreap") && optind + 2 < argc) {
		run_selfreap(atoi(argv[optind + 1]), atoi(argv[optind + 2]));
	} else if (!strcmp(mode, "orphan") && optind + 2 < argc) {
		run_orphan(atoi(argv[optind + 1]), atoi(argv[optind + 2]));
	} else if (!strcmp(mode, "mixed")) {
		run_normal(200);
		run_selfreap(200, 5);
		run_orphan(4, 100);
	} else {
		fprintf(stderr, "ptop_workload: bad mode or arguments\n");
		return 2;
	}
	close(fds[1]);
	/* every burner wrote before exiting: read until all writers closed */
	while (read(fds[0], &r, sizeof(r)) == sizeof(r)) {
		if (r.tag == TAG_TWIN) {
			twins_self_ns += r.used_ns;
			continue;
		}
		sum += r.used_ns;
		fprintf(pids_f, "%s%llu", tasks ? "," : "", (unsigned long long)r.pid);
		tasks++;
	}
	fclose(pids_f);
	/* orphans still exiting hold no write end; give them a moment */
	usleep(50000);
	printf("burned_ns=%llu tasks=%u parent=%d pids=%s middles_ns=%llu twins_ns=%llu twins_self_ns=%llu\n",
	       (unsigned long long)sum, tasks, getpid(), pids,
	       (unsigned long long)middles_ns, (unsigned long long)twins_ns,
	       (unsigned long long)twins_self_ns);
	free(pids);
	fflush(stdout);
	if (linger_s > 0)
		usleep((useconds_t)(linger_s * 1e6));
	return 0;
}
