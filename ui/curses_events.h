/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event panel (E): the module's process events as a live log under
 * the table, newest at the bottom; the table keeps its keys.
 */
#ifndef UI_CURSES_EVENTS_H
#define UI_CURSES_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "curses_screen.h"
#include "evlog.h"

struct ptop_kmod_events;

struct cv_events {
	struct ptop_kmod_events *evh;	/* NULL: not listening */
	struct ui_evlog evlog;
	char err[300];		/* why there are no events; "" if none */
	int64_t boot_wall;	/* CLOCK_BOOTTIME -> wall clock */
};

/* an event-only wake-up redraws at most this often */
#define CV_EV_REDRAW_NS 100000000ULL

extern const struct cv_screen_ops cv_events_ops;
/* E: open the panel (and listen), or close it. */
void cv_events_toggle(struct cv *cv);
/* The socket to poll, -1 when not listening. */
int cv_events_fd(const struct cv *cv);
/* Read what the socket has (bounded); returns how many were read. */
int cv_events_drain(struct cv *cv);
/* The panel's title, and its line i of nlines (1 for an error line). */
void cv_events_title(const struct cv_events *e, char *buf, size_t len);
int cv_events_line(const struct cv *cv, const struct cv_events *e, int i,
		   int nlines, char *buf, size_t len);

#endif /* UI_CURSES_EVENTS_H */
