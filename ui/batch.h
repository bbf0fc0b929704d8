/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the user asked to see (-p, sort, columns, --tree, --top, --format)
 * and the view helpers both outputs share; the batch writers are
 * ui/emit.h's encoders.
 */
#ifndef UI_BATCH_H
#define UI_BATCH_H

#include <stdio.h>
#include <time.h>
#include "lib/col.h"

struct ui_encoder;

struct ui_view_opts {
	const struct ui_encoder *format;	/* batch; NULL: text */
	size_t top;		/* batch: the first N rows (0: all) */
	const int *cols;	/* column ids to show */
	int ncols;
	int sort_id;		/* column to sort by */
	bool sort_asc;
	bool tree;		/* batch: rows in tree order, COMMAND indented */
	const uint32_t *pids;	/* show only these (pid or tgid); NULL: all */
	size_t npids;
	const char *source;	/* the source's name */
};

/*
 * The wall-clock time of a CLOCK_MONOTONIC instant (the snapshot's): the
 * headline shows when the interval ended, not when it was drawn.
 */
time_t ui_wall_time(uint64_t mono_ns);

/* The interval's one-line headline: accounted X% of Y%, exact/inexact. */
void ui_headline(const struct ptop_interval *iv, const char *source,
		 char *buf, size_t len);
/* The second line: idle, iowait, steal, irq, exits, clamped. */
void ui_sysline(const struct ptop_interval *iv, char *buf, size_t len);

#endif /* UI_BATCH_H */
