// SPDX-License-Identifier: GPL-2.0
/*
 * tssubreaper DEPTH N: process exits under a child subreaper, as any user
 * can make them, for the module's exit probe cost (test_kmod_subreaper).
 *
 * The top process (comm sr-top) is a child subreaper. Under it:
 *   - a chain of DEPTH processes (sr-chain), each the child of the one
 *     before; the deepest forks N children one after another that exit
 *     at once (sr-dl): each of their deaths is under the subreaper,
 *     DEPTH ancestors below it;
 *   - then N such children of the top itself (sr-tl), one ancestor
 *     below it; then it prints "ready" and reads a line from stdin;
 *   - then N times: S (sr-s, a child subreaper) forks A (sr-a), A forks
 *     B (sr-b), B forks G (sr-g) and exits at once, so that G goes to S,
 *     which did not start it; A exits, then S exits while G lives on (G
 *     goes to the top).
 * Every process but the top sleeps until the top closes a pipe; the top
 * then reaps all of them and prints "done N". Prints "s PID" per S.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int hold[2];	/* every child waits for EOF on hold[0] */

static void child_start(const char *name)
{
	close(hold[1]);
	prctl(PR_SET_NAME, name, 0, 0, 0);
}

static void wait_hold(void)
{
	char c;

	while (read(hold[0], &c, 1) < 0 && errno == EINTR)
		;
}

static pid_t spawn(const char *name, void (*body)(void))
{
	pid_t p = fork();

	if (p < 0) {
		perror("fork");
		exit(1);
	}
	if (p == 0) {
		child_start(name);
		body();
		_exit(0);
	}
	return p;
}

static void nothing(void) { }

static void leaves(const char *name, long n)
{
	for (long i = 0; i < n; i++)
		waitpid(spawn(name, nothing), NULL, 0);
}

static long depth_left, loops;
static int deep_done[2];

#define CHAIN_STACK	(64 * 1024)

/*
 * One process of the chain (sr-chain). The next one shares this memory
 * (clone(CLONE_VM), a stack of its own) rather than copying it: a chain
 * of forks makes each fork's memory map cost what its depth is
 * (anon_vma chains), and thousands of copies would not fit a small VM.
 * Only system calls and fork() run in it.
 */
static int chain(void *unused)
{
	char *stack;

	(void)unused;
	close(hold[1]);
	prctl(PR_SET_NAME, "sr-chain", 0, 0, 0);
	if (--depth_left > 0) {
		stack = mmap(NULL, CHAIN_STACK, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		if (stack == MAP_FAILED ||
		    clone(chain, stack + CHAIN_STACK, CLONE_VM | SIGCHLD,
			  NULL) < 0)
			_exit(1);
	} else {
		leaves("sr-dl", loops);
		if (write(deep_done[1], "x", 1) != 1)
			_exit(1);
	}
	wait_hold();
	_exit(0);
}

static int g_named[2];

/* G tells B once it has its name: B's exit reports it as sr-g */
static void g_body(void)
{
	if (write(g_named[1], "x", 1) != 1)
		_exit(1);
	close(g_named[0]);
	close(g_named[1]);
	wait_hold();
}

static void b_body(void)
{
	char c;

	if (pipe(g_named))
		_exit(1);
	spawn("sr-g", g_body);
	if (read(g_named[0], &c, 1) != 1)
		_exit(1);
}
static void a_body(void) { waitpid(spawn("sr-b", b_body), NULL, 0); }

static void s_body(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	/* B dies, G comes here; then A dies; then S, with G alive */
	waitpid(spawn("sr-a", a_body), NULL, 0);
}

int main(int argc, char **argv)
{
	char c;

	if (argc != 3 || atol(argv[1]) < 1 || atol(argv[2]) < 1) {
		fprintf(stderr, "usage: tssubreaper DEPTH N\n");
		return 2;
	}
	depth_left = atol(argv[1]);
	loops = atol(argv[2]);
	if (pipe(hold) || pipe(deep_done)) {
		perror("pipe");
		return 1;
	}
	prctl(PR_SET_NAME, "sr-top", 0, 0, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	/* the chain's first process, a plain fork */
	if (fork() == 0)
		chain(NULL);
	if (read(deep_done[0], &c, 1) != 1)
		return 1;
	leaves("sr-tl", loops);
	printf("ready\n");
	fflush(stdout);
	if (read(0, &c, 1) < 0)
		return 1;
	for (long i = 0; i < loops; i++) {
		pid_t s = spawn("sr-s", s_body);

		printf("s %d\n", (int)s);
		waitpid(s, NULL, 0);
	}
	fflush(stdout);
	close(hold[1]);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	printf("done %ld\n", loops);
	return 0;
}
