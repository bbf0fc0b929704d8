// SPDX-License-Identifier: GPL-2.0
/*
 * The batch loop: step, hand each interval to the emitter (ui/emit.h,
 * which writes it in the chosen format), wait, until -n or the reader
 * goes away.
 */
#include <errno.h>
#include <string.h>

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
		if (app->notice[0]) {	/* the source changed: say so */
			fprintf(stderr, "ptop: %s\n", app->notice);
			if (!app->view.format ||
			    !strcmp(app->view.format->name, "text"))
				fprintf(out, "# %s\n", app->notice);
			app->notice[0] = '\0';
		}
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
