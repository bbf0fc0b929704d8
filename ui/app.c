// SPDX-License-Identifier: GPL-2.0
/* Snapshot -> interval stepping and the batch loop. */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "emit.h"

/*
 * The stock sources read every task one after the other: on a machine
 * with hundreds of runnable tasks a normal-priority reader is preempted
 * midway, tasks born meanwhile are missed until their exit, and the
 * snapshot smears over hundreds of ms. As root, the read runs at
 * SCHED_FIFO (a few ms per interval; RT throttling bounds it anyway).
 */
static int snap_update(struct ui_app *app)
{
	struct sched_param rt = { .sched_priority = 1 }, normal = { 0 };
	int ret;

	if (app->rt_sampling && sched_setscheduler(0, SCHED_FIFO, &rt))
		app->rt_sampling = false;	/* not allowed: never mind */
	ret = ptop_snap_update(&app->snap);
	if (app->rt_sampling)
		sched_setscheduler(0, SCHED_OTHER, &normal);
	return ret;
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

/* 0 when written, 1 (message in app->err) when not; EPIPE is not an error */
static int batch_status(struct ui_app *app, int ret, bool *done)
{
	if (ret == -EPIPE) {
		*done = true;	/* reader went away: quietly */
		return 0;
	}
	if (ret) {
		*done = true;
		snprintf(app->err, sizeof(app->err), "writing output: %s",
			 strerror(-ret));
		return 1;
	}
	return 0;
}

int ui_batch_run(struct ui_app *app, FILE *out)
{
	struct ui_emit e;
	uint64_t deadline = 0;
	long shown = 0;
	bool done = false;
	int ret, status = 0;

	/* the text format says what the source cannot measure, as a comment */
	if (app->src->note[0] && (!app->view.format ||
				  !strcmp(app->view.format->name, "text")))
		fprintf(out, "# source %s: %s\n", app->src->ops->name,
			app->src->note);
	ui_emit_init(&e, out, app->view.format, &app->view);
	while (!done) {
		ret = ui_app_step(app);
		if (ret < 0) {
			status = 1;
			break;
		}
		if (ret > 0) {
			status = batch_status(app, ui_emit_interval(&e, &app->iv),
					      &done);
			if (app->count > 0 && ++shown >= app->count)
				done = true;
		}
		if (!done)
			ui_app_wait(app, &deadline);
	}
	ret = ui_emit_end(&e);
	if (!status)
		status = batch_status(app, ret, &done);
	return status;
}
