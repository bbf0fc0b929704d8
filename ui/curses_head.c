// SPDX-License-Identifier: GPL-2.0
/*
 * The view's top line, made to fit the terminal's width: the verdict is
 * the point of it, so it comes whole, in its brief words
 * (ptop_verdict_brief); what the screen says elsewhere or matters less
 * gives way first: ncpu (the CPU bars show it), the interval, the
 * source. Without the All bar (a short terminal, # pressed) the line also
 * says "accounted X% of Y%", and at 80 columns the reasons of a bad
 * interval may need the room of "of Y%" (ncpu x 100%) and of the time.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/verdict.h"
#include "curses_table.h"

enum { H_TIME, H_INTERVAL, H_NCPU, H_SOURCE, H_ACCOUNTED, H_CAP, H__COUNT };

/* the pieces dropped first when the line is too wide */
static const int drop_order[] = { H_NCPU, H_INTERVAL, H_SOURCE, H_CAP, H_TIME };

void cv_headline(const struct cv *cv, bool with_bar, int width, char *buf,
		 size_t len)
{
	const struct ui_app *app = cv->app;
	const struct ptop_interval *iv = &app->iv;
	char piece[H__COUNT][96], verdict[256];
	bool keep[H__COUNT];
	time_t at = ui_wall_time(iv->time_ns);
	struct tm tm;
	size_t d = 0, pos;
	int i;

	if (!cv->have_iv) {
		snprintf(buf, len, "ptop  source %s  measuring... (a first short interval, then every %gs)",
			 app->view.source, app->delay_s);
		return;
	}
	localtime_r(&at, &tm);
	strftime(piece[H_TIME], sizeof(piece[0]), " %H:%M:%S", &tm);
	ptop_verdict_brief(iv, verdict, sizeof(verdict));
	snprintf(piece[H_INTERVAL], sizeof(piece[0]), "  interval %.3fs",
		 iv->interval_ns / 1e9);
	snprintf(piece[H_NCPU], sizeof(piece[0]), "  ncpu %u", iv->ncpu);
	snprintf(piece[H_SOURCE], sizeof(piece[0]), "  source %s",
		 app->view.source);
	snprintf(piece[H_ACCOUNTED], sizeof(piece[0]), "  accounted %.2f%%",
		 ptop_interval_pct(iv, ptop_interval_accounted_ns(iv)));
	snprintf(piece[H_CAP], sizeof(piece[0]), " of %.2f%%",
		 ptop_interval_pct(iv, ptop_interval_capacity_ns(iv)));
	for (i = 0; i < H__COUNT; i++)
		keep[i] = !with_bar || (i != H_ACCOUNTED && i != H_CAP);
	for (;;) {
		pos = (size_t)snprintf(buf, len, "ptop");
		for (i = 0; i < H__COUNT && pos < len; i++)
			if (keep[i])
				pos += (size_t)snprintf(buf + pos, len - pos,
							"%s", piece[i]);
		if (pos < len)
			pos += (size_t)snprintf(buf + pos, len - pos, "  %s",
						verdict);
		if ((int)pos <= width || d == sizeof(drop_order) / sizeof(drop_order[0]))
			return;
		keep[drop_order[d++]] = false;
	}
}
