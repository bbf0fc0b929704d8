/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the workload helpers (ptop_workload, ptop_churn): burn a known
 * amount of CPU, report what a process used, fork or die. Header-only:
 * each helper is built as one standalone program.
 */
#ifndef TESTS_HELPERS_BURN_H
#define TESTS_HELPERS_BURN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* spin until the clock (thread or process CPU time) advanced by ms */
static inline void burn_ms(clockid_t id, unsigned int ms)
{
	uint64_t end = clock_ns(id) + (uint64_t)ms * 1000000ULL;
	volatile uint64_t x = 0;

	while (clock_ns(id) < end)
		for (int i = 0; i < 1000; i++)
			x += i;
}

/* what a burner writes to the report pipe right before it exits */
struct burn_report {
	uint64_t used_ns;	/* this whole process's CPU time */
	uint64_t pid;		/* so a test can tell its tasks from others' */
	uint64_t tag;		/* what kind of process, for the helper */
};

/* write this whole process's CPU time to fd, then _exit(0); one write of
 * less than PIPE_BUF bytes, so reports never interleave */
static inline void report_exit_tagged(int fd, uint64_t tag)
{
	struct burn_report r = { clock_ns(CLOCK_PROCESS_CPUTIME_ID), (uint64_t)getpid(), tag };

	if (write(fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

static inline void report_exit(int fd)
{
	report_exit_tagged(fd, 0);
}

static inline pid_t fork_or_die(void)
{
	pid_t p = fork();

	if (p < 0) {
		perror("fork");
		exit(1);
	}
	return p;
}

#endif
