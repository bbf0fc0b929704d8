// SPDX-License-Identifier: GPL-2.0
/*
 * tsload: task loads for the ptop_taskstats module tests.
 *
 *   tsload sleepers N      N children sleeping in pause(); prints "ready N"
 *                          and sleeps until killed: SIGTERM kills and
 *                          reaps the children first, SIGKILL leaves them
 *                          to die with it (PR_SET_PDEATHSIG)
 *   tsload busy N          N busy children until killed (the same)
 *   tsload threads N       one process with N threads sleeping in pause();
 *                          prints "ready N" and sleeps until killed
 *   tsload shortlived N MS N children one after another, each burns MS ms
 *                          of CPU then exits; prints "child PID CPU_NS
 *                          RUSAGE_NS" per child (its own
 *                          CLOCK_PROCESS_CPUTIME_ID right before _exit, and
 *                          the wait4() rusage total, which includes the
 *                          exit path) and "done N"; with a 4th argument
 *                          "thread", each child first runs a thread;
 *                          with a 5th, a cgroup v2 directory, each child
 *                          is born into a cgroup of its own under it
 *                          (clone3() CLONE_INTO_CGROUP), and after the
 *                          last one "cg PID USAGE_NS" per child: the
 *                          cgroup's cpu.stat usage_usec once every child
 *                          has made its last switch, the kernel's count
 *                          of all its threads ran, their exit paths after
 *                          wait4()'s reading and a dead thread's run after
 *                          its release included
 *   tsload forkstorm SECS  fork+exit and thread create+join in a loop
 *   tsload deadthreads N MS N threads at once, each burns MS ms of its own
 *                          CPU (CLOCK_THREAD_CPUTIME_ID) and exits; once
 *                          all are joined, prints "ready N" and sleeps in
 *                          pause() with its main thread only until killed
 *   tsload groupstorm SECS T  for SECS s, children one after another that
 *                          each start T threads (sleeping in pause()) and
 *                          _exit() at once: T+1 thread exits and a group
 *                          exit in a burst; prints "groups N"
 *   tsload burst SECS T    for SECS s, bursts: T threads created as fast
 *                          as possible (each waits at once), all woken
 *                          together, joined; a burst every 20 ms. The
 *                          task count jumps by T within milliseconds (a
 *                          pass sized before it is outgrown during its
 *                          walk), and T threads run at once; prints
 *                          "bursts N"
 *   tsload threadchurn N   N threads one after another, each created and
 *                          joined (it exits at once); prints "done N"
 *   tsload execexit N MB   N children one after another; in each a
 *                          non-leader thread execs tsload again, which
 *                          touches MB MiB and exits: a long exit_mm()
 *                          of the exec'er, now the leader; prints "done N"
 *   tsload orphans N       N times: fork A, A forks B, A exits while B
 *                          sleeps (B is reparented to tsload, a
 *                          subreaper, and killed by its alarm a second
 *                          later without having run); prints "done N"
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t clk(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void child_setup(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGTERM, SIG_DFL);	/* the parent's handler is not theirs */
}

static pid_t spawn(void (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (!pid) {
		child_setup();
		fn(arg);
		_exit(0);
	}
	return pid;
}

static void do_pause(long arg)
{
	for (;;)
		pause();
}

static void do_busy(long arg)
{
	volatile uint64_t x = 0;

	for (;;)
		x++;
}

static void *thr(void *arg);
static int with_thread;

#define CLONE_INTO_CGROUP_FLAG	0x200000000ULL
struct clone3_args {		/* struct clone_args of <linux/sched.h>, v2 */
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

/* fork() into cgroup directory fd cgfd: the child runs nowhere else */
static pid_t fork_into(int cgfd)
{
	struct clone3_args a = {
		.flags = CLONE_INTO_CGROUP_FLAG,
		.exit_signal = SIGCHLD,
		.cgroup = (uint64_t)cgfd,
	};

	return syscall(SYS_clone3, &a, sizeof(a));
}

/* usage_usec of cgroup directory dir's cpu.stat, in ns; exits on error */
static uint64_t cg_usage_ns(const char *dir)
{
	char path[4096 + 16];
	unsigned long long us;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(1);
	}
	ok = fscanf(f, "usage_usec %llu", &us) == 1;
	fclose(f);
	if (!ok) {
		fprintf(stderr, "tsload: %s: no usage_usec\n", path);
		exit(1);
	}
	return us * 1000ULL;
}

static void do_burn(long ms)
{
	uint64_t end = clk(CLOCK_PROCESS_CPUTIME_ID) + ms * 1000000ULL;
	volatile uint64_t x = 0;
	int fd = 3;
	char line[64];
	int n;

	if (with_thread) {
		pthread_t t;

		if (!pthread_create(&t, NULL, thr, NULL))
			pthread_join(t, NULL);
	}
	while (clk(CLOCK_PROCESS_CPUTIME_ID) < end)
		for (int i = 0; i < 1000; i++)
			x += i;
	n = snprintf(line, sizeof(line), "child %d %llu\n", getpid(),
		     (unsigned long long)clk(CLOCK_PROCESS_CPUTIME_ID));
	if (write(fd, line, n) < 0)
		_exit(1);
	_exit(0);
}

static void *thr(void *arg)
{
	return arg;
}

/* execexit: the non-leader thread's exec; the image touches argv[3] MiB */
static char *const *exec_argv;

static void *thread_exec(void *arg)
{
	execv("/proc/self/exe", exec_argv);
	perror("tsload: exec");
	_exit(1);
	return arg;
}

static int exec_tail(long mb)
{
	size_t len = (size_t)mb << 20, i;
	char *p = malloc(len ? len : 1);
	uint64_t end;

	if (!p)
		return 1;
	end = clk(CLOCK_PROCESS_CPUTIME_ID) + 5000000ULL;
	for (i = 0; i < len; i += 4096)
		p[i] = 1;
	while (clk(CLOCK_PROCESS_CPUTIME_ID) < end)
		;
	_exit(0);
}

/* deadthreads: a thread that burns its own CPU, then exits */
static long burn_thread_ms;

static void *burner(void *arg)
{
	uint64_t end = clk(CLOCK_THREAD_CPUTIME_ID) + burn_thread_ms * 1000000ULL;
	volatile uint64_t x = 0;

	while (clk(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 1000; i++)
			x += i;
	return arg;
}

/* tsload burst: threads wait for the generation to move on */
static int burst_gen;

static void *burst_thr(void *arg)
{
	int gen = (int)(intptr_t)arg;

	while (__atomic_load_n(&burst_gen, __ATOMIC_ACQUIRE) == gen)
		syscall(SYS_futex, &burst_gen, 0 /* FUTEX_WAIT */, gen,
			NULL, NULL, 0);
	return NULL;
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	got_term = sig;
}

/*
 * SIGTERM: the children die while their parent lives. Orphaned by its
 * death instead, every child's exit would check its whole process group
 * (will_become_orphaned_pgrp(), under the tasklist lock with interrupts
 * off): thousands of children make that quadratic, and an emulated CPU
 * stalls RCU for a minute (test_kmod_incremental at host load 30).
 */
static void run_children(long n, int busy)
{
	struct sigaction sa = { .sa_handler = on_term };
	pid_t *pids = calloc(n > 0 ? n : 1, sizeof(*pids));
	long i, j;

	if (!pids) {
		perror("calloc");
		exit(1);
	}
	sigaction(SIGTERM, &sa, NULL);
	for (i = 0; i < n && !got_term; i++)
		pids[i] = spawn(busy ? do_busy : do_pause, 0);
	n = i;
	printf("ready %ld\n", n);
	while (!got_term)
		pause();
	for (i = 0; i < n; i += 256) {
		for (j = i; j < n && j < i + 256; j++)
			kill(pids[j], SIGKILL);
		for (j = i; j < n && j < i + 256; j++)
			while (waitpid(pids[j], NULL, 0) < 0 && errno == EINTR)
				;
	}
	exit(0);
}

/*
 * orphans: A's child B outlives A; B is asleep before A exits (it told A
 * through the pipe) and does not run again until its alarm kills it, so
 * that only the module's marks can tell its new parent
 */
static void orphan_pair(void)
{
	int p[2];
	char c = 0;

	if (pipe(p))
		_exit(1);
	if (fork() == 0) {
		alarm(1);
		if (write(p[1], &c, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	if (read(p[0], &c, 1) != 1)
		_exit(1);
	_exit(0);
}

static int orphans(long n)
{
	long i;
	pid_t pid;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		perror("tsload: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	for (i = 0; i < n; i++) {
		pid = fork();
		if (!pid)
			orphan_pair();
		if (pid < 0) {
			perror("tsload: fork");
			return 1;
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	printf("done %ld\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	long i, n;

	if (argc < 3) {
		fprintf(stderr, "usage: tsload sleepers|busy|threads|deadthreads|shortlived|forkstorm|groupstorm|threadchurn|execexit|orphans ARG...\n");
		return 2;
	}
	n = atol(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "sleepers") || !strcmp(argv[1], "busy")) {
		run_children(n, argv[1][0] == 'b');
	}
	if (!strcmp(argv[1], "threads")) {
		pthread_attr_t a;
		pthread_t t;

		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 64 * 1024);
		for (i = 0; i < n; i++)
			if (pthread_create(&t, &a, sleeper, NULL)) {
				perror("pthread_create");
				return 1;
			}
		printf("ready %ld\n", n);
		for (;;)
			pause();
	}
	if (!strcmp(argv[1], "shortlived") && argc > 3) {
		long ms = atol(argv[3]);

		with_thread = argc > 4 && !strcmp(argv[4], "thread");
		const char *cg = argc > 5 ? argv[5] : NULL;
		pid_t *pids = calloc(n > 0 ? n : 1, sizeof(*pids));
		char dir[4096];
		int pfd[2];
		char buf[128];
		struct rusage ru;
		ssize_t k;

		for (i = 0; i < n; i++) {
			pid_t pid;

			if (pipe(pfd) || !pids)
				return 1;
			if (cg) {
				int cgfd;

				snprintf(dir, sizeof(dir), "%s/c%ld", cg, i);
				if (mkdir(dir, 0755) && errno != EEXIST) {
					perror(dir);
					return 1;
				}
				cgfd = open(dir, O_RDONLY | O_DIRECTORY);
				if (cgfd < 0) {
					perror(dir);
					return 1;
				}
				pid = fork_into(cgfd);
				close(cgfd);
			} else {
				pid = fork();
			}
			if (pid < 0) {
				perror("fork");
				return 1;
			}
			pids[i] = pid;
			if (!pid) {
				close(pfd[0]);
				if (dup2(pfd[1], 3) < 0)
					_exit(1);
				do_burn(ms);
			}
			close(pfd[1]);
			k = read(pfd[0], buf, sizeof(buf) - 1);
			close(pfd[0]);
			if (wait4(pid, NULL, 0, &ru) < 0)
				return 1;
			if (k > 1) {
				buf[k - 1] = 0;	/* drop the newline */
				printf("%s %llu\n", buf, (unsigned long long)
				       ((ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
					(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL));
			}
		}
		if (cg) {
			/* every child's last switch is behind it (RCU, rq) */
			usleep(300000);
			for (i = 0; i < n; i++) {
				snprintf(dir, sizeof(dir), "%s/c%ld", cg, i);
				printf("cg %d %llu\n", pids[i],
				       (unsigned long long)cg_usage_ns(dir));
				rmdir(dir);
			}
		}
		free(pids);
		printf("done %ld\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "deadthreads") && argc > 3) {
		pthread_t *t = calloc(n ? n : 1, sizeof(*t));

		burn_thread_ms = atol(argv[3]);
		for (i = 0; t && i < n; i++)
			if (pthread_create(&t[i], NULL, burner, NULL)) {
				perror("pthread_create");
				return 1;
			}
		for (i = 0; t && i < n; i++)
			pthread_join(t[i], NULL);
		free(t);
		printf("ready %ld\n", n);
		for (;;)
			pause();
	}
	if (!strcmp(argv[1], "burst") && argc > 3) {
		uint64_t end = clk(CLOCK_MONOTONIC) + n * 1000000000ULL;
		long nt = atol(argv[3]), bursts = 0, k, made;
		pthread_t *t = calloc(nt, sizeof(*t));
		pthread_attr_t at;

		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, 64 << 10);
		while (t && clk(CLOCK_MONOTONIC) < end) {
			int gen = burst_gen;

			for (made = 0; made < nt; made++)
				if (pthread_create(&t[made], &at, burst_thr,
						   (void *)(intptr_t)gen))
					break;
			__atomic_store_n(&burst_gen, gen + 1, __ATOMIC_RELEASE);
			syscall(SYS_futex, &burst_gen, 1 /* FUTEX_WAKE */,
				0x7fffffff, NULL, NULL, 0);
			for (k = 0; k < made; k++)
				pthread_join(t[k], NULL);
			bursts++;
			usleep(20000);
		}
		printf("bursts %ld\n", bursts);
		return 0;
	}
	if (!strcmp(argv[1], "threadchurn")) {
		pthread_t t;

		for (i = 0; i < n; i++) {
			int e = pthread_create(&t, NULL, thr, NULL);

			if (e) {
				fprintf(stderr, "pthread_create: %s\n", strerror(e));
				return 1;
			}
			pthread_join(t, NULL);
		}
		printf("done %ld\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "execexit-tail") && argc > 3)
		return exec_tail(atol(argv[3]));
	if (!strcmp(argv[1], "execexit") && argc > 3) {
		char *args[] = { argv[0], "execexit-tail", "1", argv[3], NULL };
		pthread_t t;

		exec_argv = args;
		for (i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (!pid) {
				child_setup();
				if (pthread_create(&t, NULL, thread_exec, NULL))
					_exit(1);
				for (;;)
					pause();
			}
			if (waitpid(pid, NULL, 0) < 0)
				return 1;
		}
		printf("done %ld\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "forkstorm")) {
		uint64_t end = clk(CLOCK_MONOTONIC) + n * 1000000000ULL;
		unsigned long forks = 0;

		while (clk(CLOCK_MONOTONIC) < end) {
			pthread_t t;
			pid_t pid = fork();

			if (!pid) {
				if (!pthread_create(&t, NULL, thr, NULL))
					pthread_join(t, NULL);
				_exit(0);
			}
			if (pid > 0)
				waitpid(pid, NULL, 0);
			forks++;
		}
		printf("forks %lu\n", forks);
		return 0;
	}
	if (!strcmp(argv[1], "groupstorm") && argc > 3) {
		uint64_t end = clk(CLOCK_MONOTONIC) + n * 1000000000ULL;
		long nt = atol(argv[3]), groups = 0, k;

		while (clk(CLOCK_MONOTONIC) < end) {
			pid_t pid = fork();

			if (!pid) {
				pthread_t t;

				child_setup();
				for (k = 0; k < nt; k++)
					if (pthread_create(&t, NULL, sleeper, NULL))
						break;
				_exit(0);
			}
			if (pid > 0)
				while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
					;
			groups += pid > 0;
		}
		printf("groups %ld\n", groups);
		return 0;
	}
	if (!strcmp(argv[1], "orphans"))
		return orphans(n);
	fprintf(stderr, "tsload: unknown mode %s\n", argv[1]);
	return 2;
}
