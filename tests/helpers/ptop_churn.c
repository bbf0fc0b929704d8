// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_churn: a process tree that forks continually, for the "rows add up
 * to 100%" demonstration against top(1).
 *
 *   ptop_churn [-w SECS] [-l SECS] [-p PATTERNS] [-c CGROUP] SECS
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
 * -p picks some of them, a comma-separated list of wait, ign, orphan,
 * threads, exec (default: all), so that each can be measured alone.
 * Then every descendant is gone; the root lingers -l seconds (so that a
 * monitor sees it alive after its descendants died) and prints
 *   burned_ns=<sum> tasks=<n> root=<pid> rusage_ns=<ns>
 *   selfreap_ns=<ns> selfreap_tasks=<n> wait_overhead_ns=<ns>
 * burned_ns: what every descendant measured of itself with
 * CLOCK_PROCESS_CPUTIME_ID right before it exited (its whole process,
 * threads included, its exit path not), sent over a pipe.
 * rusage_ns: the kernel's own account of every descendant that was waited
 * for (getrusage(RUSAGE_CHILDREN); the root is a child subreaper, so the
 * orphans come back to it and are waited too): exit paths included, up to
 * the moment each was reaped. The self-reaped children are in no rusage:
 * selfreap_ns is what they measured of themselves. wait_overhead_ns: for
 * the plain waited children ("ch-wait", made like the self-reaped ones),
 * the mean of wait4() rusage minus what they measured of themselves: the
 * cost of a fork's child side and exit path, which self-measurement misses.
 * -c CGROUP (a cgroup v2 directory, empty): the root moves itself there
 * first, and the line ends with " cgroup_ns=<ns>": what every descendant
 * used, exit paths included, by the kernel's own count (cpu.stat
 * usage_usec of the cgroup, once every descendant is reaped, minus the
 * root's own time since it moved). That is exact where wait_overhead_ns
 * is an estimate: the exit paths of self-reaped children are in no
 * rusage, and a waited child's varies with what the host does to the VM.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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
static const char *self_exe;

#define TAG_SELFREAP 1		/* reaped by nobody: not in any rusage */
#define TAG_WAIT 2		/* a plain waited child, like a self-reaped one */

/* wait4() rusage of the waited plain children, by pid */
static struct { pid_t pid; uint64_t ns; } *waited;
static size_t nwaited, capwaited;

static uint64_t ru_ns(const struct rusage *ru)
{
	return ((uint64_t)ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000ULL +
	       ((uint64_t)ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000ULL;
}

static void remember_wait(pid_t pid, const struct rusage *ru)
{
	if (nwaited == capwaited) {
		capwaited = capwaited ? 2 * capwaited : 256;
		waited = realloc(waited, capwaited * sizeof(*waited));
		if (!waited)
			exit(1);
	}
	waited[nwaited].pid = pid;
	waited[nwaited++].ns = ru_ns(ru);
}

/* the root's own run time, ns */
static uint64_t self_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru_ns(&ru);
}

/* usage_usec of cgroup dir's cpu.stat, in ns; exits on error */
static uint64_t cgroup_usage_ns(const char *dir)
{
	char path[4096], key[64];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(1);
	}
	while (fscanf(f, "%63s %llu", key, &v) == 2) {
		if (!strcmp(key, "usage_usec")) {
			fclose(f);
			return v * 1000ULL;
		}
	}
	fclose(f);
	fprintf(stderr, "ptop_churn: no usage_usec in %s\n", path);
	exit(1);
}

/* the root joins cgroup dir */
static void join_cgroup(const char *dir)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

enum { P_WAIT = 1, P_IGN = 2, P_ORPHAN = 4, P_THREADS = 8, P_EXEC = 16 };
static unsigned int patterns = P_WAIT | P_IGN | P_ORPHAN | P_THREADS | P_EXEC;

static unsigned int parse_patterns(char *list)
{
	static const char *const names[] = { "wait", "ign", "orphan", "threads", "exec" };
	unsigned int m = 0, i;
	char *tok, *save = NULL;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < 5 && strcmp(tok, names[i]); i++)
			;
		if (i == 5) {
			fprintf(stderr, "ptop_churn: unknown pattern '%s'\n", tok);
			exit(2);
		}
		m |= 1u << i;
	}
	return m;
}

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
			report_exit_tagged(report_fd, TAG_SELFREAP);
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

/*
 * The reports, summed as they come: read during the run too (between
 * rounds, without blocking), not only at the end. A pipe holds a few
 * thousand of them; once it was full, every descendant blocked in its
 * last write, the root in its wait for one of them, and the ignorer went
 * on forking children that blocked too (the 10-minute attack,
 * 2026-12-02 11:07: "attackers still running" and a thousand of them).
 */
static int report_rd = -1;
static uint64_t sum, sr_sum, w_over;
static unsigned int tasks, sr_tasks, w_n;

static void take_report(const struct burn_report *r)
{
	sum += r->used_ns;
	tasks++;
	if (r->tag == TAG_SELFREAP) {
		sr_sum += r->used_ns;
		sr_tasks++;
	}
	for (size_t i = 0; r->tag == TAG_WAIT && i < nwaited; i++) {
		if (waited[i].pid == (pid_t)r->pid && waited[i].ns >= r->used_ns) {
			w_over += waited[i].ns - r->used_ns;
			w_n++;
		}
	}
}

/* what the pipe holds now (report_rd is non-blocking) */
static void drain_reports(void)
{
	struct burn_report r;

	while (read(report_rd, &r, sizeof(r)) == sizeof(r))
		take_report(&r);
}

static void one_round(void)
{
	pid_t p;

	if (!(patterns & (P_WAIT | P_ORPHAN | P_THREADS | P_EXEC)))
		usleep(20000);	/* only the ignorer, which forks on its own */

	if (patterns & P_WAIT) {
		struct rusage ru;

		p = fork_or_die();
		if (!p) {
			name("ch-wait");
			burn_thread_ms(20);
			report_exit_tagged(report_fd, TAG_WAIT);
		}
		if (wait4(p, NULL, 0, &ru) == p)
			remember_wait(p, &ru);
	}

	if (patterns & P_ORPHAN) {
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
	}

	if (patterns & P_THREADS) {
		p = fork_or_die();
		if (!p)
			run_threads();
		waitpid(p, NULL, 0);
	}

	if (patterns & P_EXEC) {
		p = fork_or_die();
		if (!p)
			run_exec();
		waitpid(p, NULL, 0);
	}
}

int main(int argc, char **argv)
{
	double wait_s = 0, linger_s = 0, secs;
	struct burn_report r;
	uint64_t end, ru_all, self0 = 0, cg0 = 0;
	const char *cg = NULL;
	struct rusage ru;
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
	while ((opt = getopt(argc, argv, "w:l:p:c:")) != -1) {
		if (opt == 'w')
			wait_s = atof(optarg);
		else if (opt == 'l')
			linger_s = atof(optarg);
		else if (opt == 'p')
			patterns = parse_patterns(optarg);
		else if (opt == 'c')
			cg = optarg;
		else
			return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: ptop_churn [-w secs] [-l secs] [-p wait,ign,orphan,threads,exec] [-c cgroup] secs\n");
		return 2;
	}
	secs = atof(argv[optind]);
	if (cg) {
		join_cgroup(cg);
		/* only what runs in the cgroup from here on counts */
		cg0 = cgroup_usage_ns(cg);
		self0 = self_ns();
	}
	if (wait_s > 0)
		usleep((useconds_t)(wait_s * 1e6));
	name("ch-root");
	/* orphans come back here, to be waited for and be in our rusage */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || pipe(fds) || pipe(stop))
		return 1;
	report_fd = fds[1];
	report_rd = fds[0];
	fcntl(report_rd, F_SETFL, O_NONBLOCK);

	ign = patterns & P_IGN ? fork_or_die() : -1;
	if (!ign) {
		close(stop[1]);
		run_ignorer(stop[0]);
	}
	close(stop[0]);
	end = clock_ns(CLOCK_MONOTONIC) + (uint64_t)(secs * 1e9);
	while (clock_ns(CLOCK_MONOTONIC) < end) {
		one_round();
		drain_reports();
	}
	close(stop[1]);		/* the ignorer stops forking */
	/* its last children report while it waits for them */
	while (ign > 0 && waitpid(ign, NULL, WNOHANG) == 0) {
		drain_reports();
		usleep(10000);
	}
	close(fds[1]);
	/* every descendant held the write end until it exited */
	fcntl(report_rd, F_SETFL, 0);
	while (read(fds[0], &r, sizeof(r)) == sizeof(r))
		take_report(&r);
	/* the orphans that came back: reap them all */
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	getrusage(RUSAGE_CHILDREN, &ru);
	ru_all = ru_ns(&ru);
	printf("burned_ns=%llu tasks=%u root=%d rusage_ns=%llu selfreap_ns=%llu selfreap_tasks=%u wait_overhead_ns=%llu",
	       (unsigned long long)sum, tasks, getpid(), (unsigned long long)ru_all,
	       (unsigned long long)sr_sum, sr_tasks,
	       (unsigned long long)(w_n ? w_over / w_n : 0));
	if (cg) {
		/* the cgroup's count first: the root runs on meanwhile */
		uint64_t used = cgroup_usage_ns(cg) - cg0;
		uint64_t own = self_ns() - self0;

		printf(" cgroup_ns=%llu", (unsigned long long)(used > own ? used - own : 0));
	}
	printf("\n");
	fflush(stdout);
	if (linger_s > 0)
		usleep((useconds_t)(linger_s * 1e6));
	return 0;
}
