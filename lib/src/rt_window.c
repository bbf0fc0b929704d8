// SPDX-License-Identifier: GPL-2.0
/* The tight window's real-time priority, bounded: see rt_window.h. */
#include <errno.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>

#include "rt_window.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void normal(struct ptop_rt_window *w)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (w->rt)
		sched_setscheduler(0, SCHED_OTHER, &sp);
	w->rt = false;
}

void ptop_rt_window_begin(struct ptop_rt_window *w, bool want_rt)
{
	struct sched_param sp = { .sched_priority = 1 };

	/* not allowed (no CAP_SYS_NICE, RT throttled away): never mind */
	w->rt = want_rt && !sched_setscheduler(0, SCHED_FIFO, &sp);
	w->start_ns = mono_ns();
}

void ptop_rt_window_check(struct ptop_rt_window *w)
{
	if (w->rt && mono_ns() - w->start_ns >= PTOP_RT_WINDOW_MAX_NS)
		normal(w);
}

void ptop_rt_window_end(struct ptop_rt_window *w)
{
	normal(w);
}

int ptop_walk_nice_begin(bool want)
{
	int old;

	if (!want)
		return 0;
	errno = 0;
	old = getpriority(PRIO_PROCESS, 0);
	if (errno)
		return 0;
	if (old > PTOP_WALK_NICE)
		setpriority(PRIO_PROCESS, 0, PTOP_WALK_NICE);	/* may fail */
	return old;
}

void ptop_walk_nice_end(bool want, int old)
{
	if (want)
		setpriority(PRIO_PROCESS, 0, old);
}
