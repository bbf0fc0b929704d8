/* SPDX-License-Identifier: GPL-2.0 */
/* Batch writer: one text block per interval, for scripts and pipes. */
#ifndef UI_BATCH_H
#define UI_BATCH_H

#include <stdio.h>
#include <time.h>
#include "lib/col.h"

enum ui_format {
	UI_FMT_TEXT,	/* aligned columns, for people */
	UI_FMT_CSV,	/* one header line, then a line per row per interval */
	UI_FMT_JSON,	/* one JSON object per interval, one per line */
};

struct ui_view_opts {
	enum ui_format format;
	const int *cols;	/* column ids to show */
	int ncols;
	int sort_id;		/* column to sort by */
	bool sort_asc;
	bool tree;		/* batch: rows in tree order, COMMAND indented */
	const uint32_t *pids;	/* show only these (pid or tgid); NULL: all */
	size_t npids;
	const char *source;	/* the source's name */
};

/* Keep only the rows -p asked for, then sort; returns the rows kept. */
size_t ui_view_select(const struct ui_view_opts *o, struct ptop_interval *iv);

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

/* "text", "csv", "json" -> format; -1 if unknown */
int ui_format_parse(const char *name);

/* Print one interval; 0, or -errno when the output failed (EPIPE). */
/* first: the first interval printed (CSV writes its header then) */
int ui_batch_print(FILE *out, const struct ui_view_opts *o,
		   struct ptop_interval *iv, bool first);

#endif /* UI_BATCH_H */
