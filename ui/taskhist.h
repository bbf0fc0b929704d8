/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-process screen's history: for a few followed tasks, keyed by
 * (pid, start time) so that a reused pid is another task, a ring of the
 * last intervals' CPU split (own, c*, x*, steal, each user and system)
 * and a ring of the children that exited in them, with their exit
 * status. Fed once per interval from the interval's rows and the current
 * snapshot's EXIT records; the drawing only reads it.
 *
 * It never prints and never allocates: the rings are fixed, the oldest
 * entry (or least recently followed task) gives way.
 */
#ifndef UI_TASKHIST_H
#define UI_TASKHIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/interval.h"
#include "lib/snap.h"

#define UI_TH_TASKS 4		/* tasks followed at once */
#define UI_TH_DEPTH 64		/* intervals kept per task */
#define UI_TH_EXITS 32		/* exited children kept per task */

/* One interval of a task: ns of CPU, as the interval's rows had them. */
struct ui_th_point {
	uint64_t end_ns;	/* the interval's end, CLOCK_MONOTONIC */
	uint64_t interval_ns;
	unsigned int ncpu;
	unsigned int has;	/* PTOP_DATA_* of the task's row */
	bool present;		/* false: the task had no row (gone) */
	uint64_t user, sys, ste;	/* own: its live threads */
	uint64_t cuser, csys, cste;	/* c*: dead descendants */
	uint64_t xuser, xsys, xste;	/* x*: dead threads */
};

/* A child that exited, from its EXIT record. */
struct ui_th_exit {
	uint32_t pid;
	uint64_t start_ns;
	char comm[PTOP_COMM_LEN];
	uint32_t exit_code;	/* as wait(2) reports it */
	uint64_t user_ns, sys_ns;	/* its own and dead threads', for life */
	uint64_t seen_ns;	/* end of the interval it came in */
};

struct ui_th_task {
	bool used;
	uint32_t pid;		/* the thread group's id */
	uint64_t start_ns;
	uint64_t last_use;	/* ui_taskhist's tick when last followed */
	struct ui_th_point pts[UI_TH_DEPTH];
	size_t pt_next, npts;
	struct ui_th_exit ex[UI_TH_EXITS];
	size_t ex_next, nex;
	/* gone: in no row of the last interval; its EXIT record, if seen */
	bool gone, have_exit;
	uint32_t exit_code;
};

struct ui_taskhist {
	struct ui_th_task t[UI_TH_TASKS];
	uint64_t tick;
};

void ui_taskhist_init(struct ui_taskhist *h);
/*
 * Follow the task (pid, start_ns) from the next feed on; returns its
 * entry (kept if it was followed already, else it takes the place of
 * the least recently followed one).
 */
struct ui_th_task *ui_taskhist_follow(struct ui_taskhist *h, uint32_t pid,
				      uint64_t start_ns);
/* The entry of the task; NULL when it is not followed. */
const struct ui_th_task *ui_taskhist_find(const struct ui_taskhist *h,
					  uint32_t pid, uint64_t start_ns);
/*
 * One interval: each followed task gets a point (the sum of its rows: a
 * process row, or in thread mode its threads' rows) and the exited
 * children of cur's EXIT records (cur may be NULL: none).
 */
void ui_taskhist_feed(struct ui_taskhist *h, const struct ptop_interval *iv,
		      const struct ptop_snap *cur);

/* Point i of t, 0 the oldest kept; NULL past the end. */
const struct ui_th_point *ui_th_point(const struct ui_th_task *t, size_t i);
/* Exited child i of t, 0 the most recent; NULL past the end. */
const struct ui_th_exit *ui_th_exit(const struct ui_th_task *t, size_t i);
/* The sum of the newest n points of t (all of them when n is larger). */
void ui_th_sum(const struct ui_th_task *t, size_t n, struct ui_th_point *sum);

static inline uint64_t ui_th_total(const struct ui_th_point *p)
{
	return p->user + p->sys + p->ste + p->cuser + p->csys + p->cste +
	       p->xuser + p->xsys + p->xste;
}

#endif /* UI_TASKHIST_H */
