/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Batch mode: the intervals written to a stream in a format (ui/emit.h's
 * encoders), one after the other, for scripts.
 */
#ifndef UI_BATCH_H
#define UI_BATCH_H

#include <stdio.h>
#include "app.h"

/* Batch mode main loop; returns a process exit status. */
int ui_batch_run(struct ui_app *app, FILE *out);

#endif /* UI_BATCH_H */
