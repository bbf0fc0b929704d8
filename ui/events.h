/* SPDX-License-Identifier: GPL-2.0 */
/* ptop --events: the module's process events as a live log (batch). */
#ifndef UI_EVENTS_H
#define UI_EVENTS_H

#include <stdio.h>

/*
 * Print every event until SIGINT/SIGTERM, or for count x delay_s seconds
 * when count > 0. Returns the exit status (0, or 1 with a message on
 * stderr).
 */
int ui_events_run(FILE *out, double delay_s, long count);

#endif /* UI_EVENTS_H */
