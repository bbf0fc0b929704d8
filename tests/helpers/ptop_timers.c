// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_timers: tasks that wait the way real services do, each holding an
 * hrtimer, so that the kernel's timer queues are as long as the tasks
 * (the pause()-like sleepers of ptop_sleepers hold none).
 *
 *   ptop_timers [-T | -P PROCS] N
 *
 * Default: N processes ("tm-sleep"), each waiting with a long timeout
 * (an hour) in one of, round robin: nanosleep, epoll_wait, poll, a timed
 * futex wait, a read of an armed timerfd.
 * -T: one process with N such threads ("tm-thread").
 * -P PROCS: a thread-pool service: PROCS processes ("tm-pool") with N /
 *   PROCS threads each; every thread waits a timed condition (10 ms to 2 s,
 *   at random), then works for 1 ms of its own CPU time (5 ms of wall time
 *   at most), and again: most of them are active in every second, and N
 *   threads want about N / 1000 CPUs.
 * Prints "started N" (stdout, flushed) when every task is up, and on
 * SIGTERM kills them all, reaps them, prints "killed N" and exits. The
 * tasks die with this process (PR_SET_PDEATHSIG), threads with theirs.
 */
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LONG_S		3600
#define STACK		(64 * 1024)

static volatile sig_atomic_t stop;
static int up_pipe[2];

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* One wait of kind k with a long timeout; returns when it times out. */
static void wait_once(unsigned int k)
{
	struct timespec ts = { LONG_S, 0 };
	uint32_t word = 0;
	uint64_t ticks;
	int fd;

	switch (k % 5) {
	case 0:
		nanosleep(&ts, NULL);
		break;
	case 1:
		fd = epoll_create1(EPOLL_CLOEXEC);
		if (fd >= 0) {
			struct epoll_event ev;

			epoll_wait(fd, &ev, 1, LONG_S * 1000);
			close(fd);
		}
		break;
	case 2:
		poll(NULL, 0, LONG_S * 1000);
		break;
	case 3:
		syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
		break;
	default:
		fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
		if (fd >= 0) {
			struct itimerspec it = { .it_value = ts };

			if (!timerfd_settime(fd, 0, &it, NULL) &&
			    read(fd, &ticks, sizeof(ticks)) < 0)
				ticks = 0;
			close(fd);
		}
		break;
	}
}

static void say_up(void)
{
	char c = 1;

	if (write(up_pipe[1], &c, 1) != 1)
		_exit(1);
}

static void *sleeper_thread(void *arg)
{
	unsigned int k = (unsigned int)(uintptr_t)arg;

	prctl(PR_SET_NAME, "tm-thread");
	say_up();
	for (;;)
		wait_once(k);
	return NULL;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t thread_cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond;

/* a pool worker: a timed wait of 10 ms to 2 s, then 1 ms of work */
static void *pool_thread(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg * 2654435761U;

	prctl(PR_SET_NAME, "tm-pool");
	say_up();
	for (;;) {
		long ms = 10 + rand_r(&seed) % 1991;
		struct timespec until;
		uint64_t t0, w0;

		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += ms / 1000;
		until.tv_nsec += (ms % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&pool_lock);
		while (pthread_cond_timedwait(&pool_cond, &pool_lock,
					      &until) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&pool_lock);
		/*
		 * 1 ms of its own CPU, but no longer than 5 ms of wall time:
		 * on a machine already busy, a pool that waits for its CPU
		 * would only pile up runnable threads
		 */
		t0 = thread_cpu_ns();
		w0 = mono_ns();
		while (thread_cpu_ns() - t0 < 1000000ULL &&
		       mono_ns() - w0 < 5000000ULL)
			;
	}
	return NULL;
}

/* A process of nthr threads running fn (index base + i), never returns. */
static void threads_process(long nthr, long base, void *(*fn)(void *))
{
	pthread_condattr_t ca;
	pthread_attr_t a;
	pthread_t t;
	long i;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&pool_cond, &ca);
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, STACK);
	for (i = 0; i < nthr; i++)
		if (pthread_create(&t, &a, fn, (void *)(uintptr_t)(base + i))) {
			perror("pthread_create");
			_exit(1);
		}
	for (;;)
		pause();
}

static pid_t child(const char *name, long nthr, long base,
		   void *(*fn)(void *))
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, name);
	signal(SIGTERM, SIG_DFL);
	close(up_pipe[0]);
	if (fn)
		threads_process(nthr, base, fn);
	say_up();
	for (;;)
		wait_once((unsigned int)base);
}

int main(int argc, char **argv)
{
	long n, procs = 0, i, got = 0, nkids;
	int opt, threads = 0;
	pid_t *kids;
	char buf[256];

	while ((opt = getopt(argc, argv, "TP:")) != -1) {
		if (opt == 'T')
			threads = 1;
		else if (opt == 'P')
			procs = atol(optarg);
		else
			goto usage;
	}
	if (optind + 1 != argc || (threads && procs) || procs < 0)
		goto usage;
	n = atol(argv[optind]);
	if (n <= 0 || n > 100000 || procs > n)
		goto usage;
	nkids = threads ? 1 : procs ? procs : n;
	kids = calloc(nkids, sizeof(*kids));
	if (!kids || pipe(up_pipe))
		return 1;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	for (i = 0; i < nkids && !stop; i++) {
		if (threads)
			kids[i] = child("tm-threads", n, 0, sleeper_thread);
		else if (procs)
			kids[i] = child("tm-pool", n / procs +
					(i < n % procs), i * n, pool_thread);
		else
			kids[i] = child("tm-sleep", 0, i, NULL);
		if (kids[i] < 0) {
			perror("fork");
			break;
		}
	}
	nkids = i;
	close(up_pipe[1]);
	while (got < n && !stop) {
		ssize_t r = read(up_pipe[0], buf, sizeof(buf));

		if (!r || (r < 0 && errno != EINTR))
			break;
		if (r > 0)
			got += r;
	}
	printf("started %ld\n", got);
	fflush(stdout);
	while (!stop)
		pause();
	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	printf("killed %ld\n", got);
	fflush(stdout);
	return 0;
usage:
	fprintf(stderr, "usage: ptop_timers [-T | -P PROCS] N\n");
	return 2;
}
