/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Header meters: the machine's CPU time of the interval split the way
 * ptop accounts it (tasks' user, sys, steal; dead descendants c*; dead
 * threads x*; the system parts kept apart; idle; what was not
 * accounted), per-CPU bars from the kernel's per-CPU counters, memory,
 * swap, load, uptime, task counts. The arithmetic is pure (tested); the
 * machine's counters are read by lib/sysinfo.h.
 */
#ifndef UI_METERS_H
#define UI_METERS_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/interval.h"
#include "lib/sysinfo.h"

/* the categories of the machine bar, in drawing order */
enum ui_cat {
	UI_CAT_USER,	/* tasks' own user time */
	UI_CAT_SYS,	/* tasks' own system time */
	UI_CAT_STEAL,	/* steal: charged to tasks, or kept apart */
	UI_CAT_CDEAD,	/* descendants that died in the interval (c*) */
	UI_CAT_XDEAD,	/* threads that died in the interval (x*) */
	UI_CAT_IRQ,	/* irq/softirq kept apart from tasks */
	UI_CAT_UNACC,	/* capacity not accounted for by anything above */
	UI_CAT_IDLE,	/* idle + iowait */
	UI_CAT__COUNT
};

extern const char *const ui_cat_name[UI_CAT__COUNT];

/*
 * The interval's CPU time by category, ns. The parts add up to exactly
 * ptop_interval_capacity_ns() when accounted <= capacity (UNACC is the
 * rest); when more than the capacity was accounted (a source's jitter),
 * UNACC is 0 and *over_ns says by how much. Returns the sum of the parts.
 */
uint64_t ui_meter_split(const struct ptop_interval *iv,
			uint64_t parts[UI_CAT__COUNT], uint64_t *over_ns);

/*
 * Cells of a bar of width cells for parts of whole: proportional, by the
 * largest remainder, so the cells add up to exactly round(width * sum /
 * whole) (width when the parts make the whole). A part > 0 too small for
 * a cell gets none. Returns the cells used.
 */
int ui_bar_cells(const uint64_t *parts, int nparts, uint64_t whole,
		 int width, int *cells);

/* processes, threads and running tasks among the interval's rows */
void ui_task_counts(const struct ptop_interval *iv, unsigned long *procs,
		    unsigned long *threads, unsigned long *running);

/* "1.2G", "345M", "12K" from KiB */
void ui_fmt_kb(uint64_t kb, char *buf, size_t len);
/* "3 days, 04:05:06" or "04:05:06" */
void ui_fmt_uptime(double s, char *buf, size_t len);

#endif /* UI_METERS_H */
