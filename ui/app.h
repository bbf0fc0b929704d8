/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state both views share: the source, the snapshotter, the last
 * interval and what the user asked to see. ptop/ptop.c fills it from argv
 * and the config file; the batch loop (ui/batch.h) and the curses view
 * drive it, one ui_app_step() at a time.
 */
#ifndef UI_APP_H
#define UI_APP_H

#include <stdbool.h>
#include "lib/col.h"
#include "lib/snap.h"
#include "view.h"

struct ui_app {
	struct ptop_src *src;
	struct ptop_snapper snap;
	struct ptop_interval iv;
	struct ui_view_opts view;
	int cols[PTOP_COL__COUNT * 2];
	int ncols;
	bool cols_default;	/* not chosen: the view hides what cannot be filled */
	uint32_t pids[256];
	double delay_s;		/* seconds between snapshots */
	long count;		/* intervals to show; <= 0: forever */
	bool threads;
	bool rt_sampling;	/* snapshot windows at SCHED_FIFO (root) */
	bool auto_source;	/* --source=auto: fall back when the module goes */
	char err[512];
	char warn[512];	/* shown by the view (the terminal is curses') */
	char notice[512];	/* a source switch to tell the user; "" if none */
};

/*
 * Take the next snapshot and, from the second one on, compute the
 * interval into app->iv. Returns 1 when an interval is ready, 0 after the
 * first snapshot, -errno on failure (message in app->err).
 * With auto_source, a module source that fails after it worked (the
 * module was unloaded) is replaced by the best source still there: the
 * snapshots start again (0), app->notice says what happened.
 */
int ui_app_step(struct ui_app *app);
/* Sleep until the next snapshot is due (absolute, no drift). */
void ui_app_wait(struct ui_app *app, uint64_t *deadline_ns);

/* Interactive curses view; returns a process exit status. */
int ui_curses_run(struct ui_app *app);

#endif /* UI_APP_H */
