/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tight window of a two-phase snapshot (stock sources): after a walk
 * over every task, the tasks that may have run are read again, with the
 * system counters, as close together in time as possible. Only that
 * window may run at real-time priority (SCHED_FIFO, when the caller asked
 * for it and is allowed), and for PTOP_RT_WINDOW_MAX_NS at most: a window
 * that takes longer goes on at normal priority, and reports its length.
 * A walk never runs real-time.
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

void ptop_rt_window_begin(struct ptop_rt_window *w, bool want_rt);
/* Between two readings: leaves SCHED_FIFO once the bound is reached. */
void ptop_rt_window_check(struct ptop_rt_window *w);
void ptop_rt_window_end(struct ptop_rt_window *w);

#endif /* PTOP_RT_WINDOW_H */
