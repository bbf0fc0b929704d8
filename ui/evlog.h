/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event log's model (the E panel of the curses view, and the lines
 * of ptop --events): the module's process events kept in a ring, newest
 * last, with a count of what was lost, and the one formatter of an
 * event's fields. Pure: no socket, no terminal.
 */
#ifndef UI_EVLOG_H
#define UI_EVLOG_H

#include <stddef.h>
#include <stdint.h>
#include "../kmod/uapi/ptop_taskstats.h"

/* the panel shows the last ones; older events fall off the ring */
#define UI_EVLOG_CAP 512

struct ui_evlog {
	struct ptop_ts_event ev[UI_EVLOG_CAP];
	size_t head;		/* the oldest kept */
	size_t n;		/* kept, at most UI_EVLOG_CAP */
	uint64_t seen;		/* every event pushed */
	uint64_t overflows;	/* times the socket buffer overflowed */
};

void ui_evlog_init(struct ui_evlog *l);
void ui_evlog_push(struct ui_evlog *l, const struct ptop_ts_event *ev);
/* The socket lost events (ENOBUFS): how many is not known, only when. */
void ui_evlog_overflow(struct ui_evlog *l);
/* The i-th kept event, 0 the oldest; NULL past the end. */
const struct ptop_ts_event *ui_evlog_at(const struct ui_evlog *l, size_t i);

/*
 * "<type> pid=<pid> tgid=<tgid> <other> comm=<comm>" with <other>
 * parent=<tgid> (fork), old=<tid> (exec), code=<wait status> (exit),
 * reaper=<tgid> (reparent); a control byte of comm shown as '?', so a
 * name cannot send escape sequences to the terminal.
 */
void ui_event_fields(const struct ptop_ts_event *ev, char *buf, size_t len);
/*
 * The panel's line: the wall-clock time of the event (its CLOCK_BOOTTIME
 * plus boot_to_wall_ns), "HH:MM:SS.mmm", then the fields.
 */
void ui_event_line(const struct ptop_ts_event *ev, int64_t boot_to_wall_ns,
		   char *buf, size_t len);
/* CLOCK_REALTIME - CLOCK_BOOTTIME now, ns. */
int64_t ui_boot_to_wall_ns(void);

#endif /* UI_EVLOG_H */
