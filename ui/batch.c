// SPDX-License-Identifier: GPL-2.0
/*
 * The batch loop: step, hand each interval to the emitter (ui/emit.h,
 * which writes it in the chosen format), wait, until -n or the reader
 * goes away.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sysinfo.h"
#include "batch.h"
#include "emit.h"

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

static bool is_text(const struct ui_app *app)
{
	return !app->view.format || !strcmp(app->view.format->name, "text");
}

/*
 * The default columns of the text output leave out what the source in
 * use cannot fill (a column of "-" only); the machine formats keep
 * every field (null), so their schema does not depend on the source.
 */
static void drop_unfillable(struct ui_app *app)
{
	int i, n = 0;

	if (!app->cols_default || !is_text(app))
		return;
	for (i = 0; i < app->ncols; i++)
		if (!(ptop_cols[app->cols[i]].needs & ~app->src->caps))
			app->cols[n++] = app->cols[i];
	if (n) {
		app->ncols = n;
		app->view.ncols = n;
	}
}

/* One interval out; the text summary's machine state read just before */
static int emit(struct ui_app *app, struct ui_emit *e,
		struct ptop_sysinfo *sys)
{
	if (sys) {
		ptop_sysinfo_read_mem(sys, app->src->cfg.proc_root);
		e->sys = sys;
	}
	return ui_emit_interval(e, &app->iv);
}

int ui_batch_run(struct ui_app *app, FILE *out)
{
	struct ptop_sysinfo *sys = NULL;
	struct ui_emit e;
	uint64_t deadline = 0;
	long shown = 0;
	bool done = false;
	int ret, status = 0;

	/* the text format says what the source cannot measure, as a comment */
	if (app->src->note[0] && is_text(app))
		fprintf(out, "# source %s: %s\n", app->src->ops->name,
			app->src->note);
	drop_unfillable(app);
	ui_emit_init(&e, out, app->view.format, &app->view);
	/* the text summary: memory, swap, load, uptime (no summary without) */
	if (is_text(app))
		sys = calloc(1, sizeof(*sys));
	while (!done) {
		ret = ui_app_step(app);
		if (app->notice[0]) {	/* the source changed: say so */
			fprintf(stderr, "ptop: %s\n", app->notice);
			if (is_text(app))
				fprintf(out, "# %s\n", app->notice);
			app->notice[0] = '\0';
		}
		if (ret < 0) {
			status = 1;
			break;
		}
		if (ret > 0) {
			status = batch_status(app, emit(app, &e, sys), &done);
			if (app->count > 0 && ++shown >= app->count)
				done = true;
		}
		if (!done)
			ui_app_wait(app, &deadline);
	}
	ret = ui_emit_end(&e);
	free(sys);
	if (!status)
		status = batch_status(app, ret, &done);
	return status;
}
