/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tight window of a two-phase snapshot (stock sources): after a walk
 * over every task, the tasks that may have run are read again, with the
 * system counters, as close together in time as possible. Only that
 * window may run at real-time priority (SCHED_FIFO, when the caller asked
 * for it and is allowed), and for PTOP_RT_WINDOW_MAX_NS at most: a window
 * that takes longer goes on at normal priority, and reports its length.
 * A walk never runs real-time; with the same permission it runs at nice
 * PTOP_WALK_NICE (as atop does), so that on a machine with dozens of
 * runnable tasks it still gets a fair share instead of 1/40 of a CPU.
 */
#ifndef PTOP_RT_WINDOW_H
#define PTOP_RT_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#define PTOP_RT_WINDOW_MAX_NS	5000000ULL	/* 5 ms */

struct ptop_rt_window {
	uint64_t start_ns;	/* CLOCK_MONOTONIC at begin */
	bool rt;		/* at SCHED_FIFO now */
};

#define PTOP_WALK_NICE		(-10)

/* Around the walk: nice PTOP_WALK_NICE when asked and allowed, restored. */
int ptop_walk_nice_begin(bool want);	/* returns the nice to restore */
void ptop_walk_nice_end(bool want, int old);

void ptop_rt_window_begin(struct ptop_rt_window *w, bool want_rt);
/* Between two readings: leaves SCHED_FIFO once the bound is reached. */
void ptop_rt_window_check(struct ptop_rt_window *w);
void ptop_rt_window_end(struct ptop_rt_window *w);

#endif /* PTOP_RT_WINDOW_H */
