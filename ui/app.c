// SPDX-License-Identifier: GPL-2.0
/* Snapshot -> interval stepping, and the wait for the next snapshot. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app.h"

/*
 * The stock sources walk every task, then read the tasks that may have
 * run again in a tight window (the library's rt_window): as root that window, and
 * only that, runs at SCHED_FIFO, for 5 ms at most.
 */
static int snap_update(struct ui_app *app)
{
	app->src->cfg.rt_window = app->rt_sampling;
	return ptop_snap_update(&app->snap);
}

/*
 * The module source failed after it worked: rmmod, most likely. Only
 * with --source=auto, and only for a source that gave a snapshot (a
 * fresh one that fails at once is an error, not a loop of reopenings).
 * The counters of the next source are another set: a new baseline.
 */
static int fall_back(struct ui_app *app, int err)
{
	const char *old = app->src->ops->name;
	char why[300], oerr[256];
	struct ptop_src *nsrc;
	int ret;

	if (!app->auto_source || strncmp(old, "kmod", 4) || app->snap.taken < 1)
		return err;
	snprintf(why, sizeof(why), "%s", app->src->err[0] ? app->src->err :
		 strerror(-err));
	ret = ptop_src_open_best(&nsrc, &app->src->cfg, oerr, sizeof(oerr));
	if (ret)
		return err;
	snprintf(app->notice, sizeof(app->notice),
		 "source %s failed (%s): continuing with %s, from a new first snapshot",
		 old, why, nsrc->ops->name);
	ptop_snapper_free(&app->snap);
	ptop_src_close(app->src);
	app->src = nsrc;
	app->view.source = nsrc->ops->name;
	ptop_snapper_init(&app->snap, nsrc);
	ret = snap_update(app);
	return ret;
}

int ui_app_step(struct ui_app *app)
{
	int ret = snap_update(app);

	if (ret)
		ret = fall_back(app, ret);
	if (ret) {
		snprintf(app->err, sizeof(app->err), "%s: %s", app->src->ops->name,
			 app->src->err[0] ? app->src->err : strerror(-ret));
		return ret;
	}
	if (app->snap.taken < 2)
		return 0;
	ret = ptop_interval_compute(&app->iv, ptop_snap_prev(&app->snap),
				    ptop_snap_cur(&app->snap), app->threads);
	if (ret) {
		snprintf(app->err, sizeof(app->err), "interval: %s",
			 strerror(-ret));
		return ret;
	}
	return 1;
}

void ui_app_wait(struct ui_app *app, uint64_t *deadline_ns)
{
	uint64_t step = (uint64_t)(app->delay_s * 1e9);
	struct timespec ts;

	/* the one schedule (ui/view.c): behind, it restarts from now */
	ui_sched_next(deadline_ns, step, ui_now_ns());
	ts.tv_sec = *deadline_ns / 1000000000ULL;
	ts.tv_nsec = *deadline_ns % 1000000000ULL;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}
