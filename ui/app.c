// SPDX-License-Identifier: GPL-2.0
/* Snapshot -> interval stepping and the batch loop. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "app.h"

/*
 * The stock sources walk every task, then read the tasks that may have
 * run again in a tight window (lib/rt_window.h): as root that window, and
 * only that, runs at SCHED_FIFO, for 5 ms at most.
 */
static int snap_update(struct ui_app *app)
{
	app->src->cfg.rt_window = app->rt_sampling;
	return ptop_snap_update(&app->snap);
}

int ui_app_step(struct ui_app *app)
{
	int ret = snap_update(app);

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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void ui_app_wait(struct ui_app *app, uint64_t *deadline_ns)
{
	uint64_t step = (uint64_t)(app->delay_s * 1e9);
	struct timespec ts;

	if (!*deadline_ns)
		*deadline_ns = now_ns();
	*deadline_ns += step;
	/* fell behind (suspended, slow terminal): restart from now */
	if (*deadline_ns < now_ns())
		*deadline_ns = now_ns() + step;
	ts.tv_sec = *deadline_ns / 1000000000ULL;
	ts.tv_nsec = *deadline_ns % 1000000000ULL;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int ui_batch_run(struct ui_app *app, FILE *out)
{
	uint64_t deadline = 0;
	long shown = 0;
	int ret;

	if (app->src->note[0] && app->view.format == UI_FMT_TEXT)
		fprintf(out, "# source %s: %s\n", app->src->ops->name,
			app->src->note);
	for (;;) {
		ret = ui_app_step(app);
		if (ret < 0)
			return 1;
		if (ret > 0) {
			ret = ui_batch_print(out, &app->view, &app->iv, shown == 0);
			if (ret == -EPIPE)
				return 0;	/* reader went away: quietly */
			if (ret) {
				snprintf(app->err, sizeof(app->err),
					 "writing output: %s", strerror(-ret));
				return 1;
			}
			if (app->count > 0 && ++shown >= app->count)
				return 0;
		}
		ui_app_wait(app, &deadline);
	}
}
