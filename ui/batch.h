/* SPDX-License-Identifier: GPL-2.0 */
/* Batch writer: one text block per interval, for scripts and pipes. */
#ifndef UI_BATCH_H
#define UI_BATCH_H

#include <stdio.h>
#include "lib/col.h"

struct ui_view_opts {
	const int *cols;	/* column ids to show */
	int ncols;
	int sort_id;		/* column to sort by */
	bool sort_asc;
	const uint32_t *pids;	/* show only these (pid or tgid); NULL: all */
	size_t npids;
	const char *source;	/* the source's name */
};

/* Keep only the rows -p asked for, then sort; returns the rows kept. */
size_t ui_view_select(const struct ui_view_opts *o, struct ptop_interval *iv);

/* The interval's one-line headline: accounted X% of Y%, exact/inexact. */
void ui_headline(const struct ptop_interval *iv, const char *source,
		 char *buf, size_t len);
/* The second line: idle, iowait, steal, irq, exits, clamped. */
void ui_sysline(const struct ptop_interval *iv, char *buf, size_t len);

/* Print one interval; 0, or -errno when the output failed (EPIPE). */
int ui_batch_print(FILE *out, const struct ui_view_opts *o,
		   struct ptop_interval *iv);

#endif /* UI_BATCH_H */
