// SPDX-License-Identifier: GPL-2.0
/*
 * The event panel (E): the module's process events (lib/kmod_events.h)
 * as a live log below the table, newest at the bottom. Listening is on
 * only while the panel is open: the module produces events only while
 * someone listens. Without the module, or without CAP_NET_ADMIN, the
 * panel says which, and why.
 */
#include <curses.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curses_events.h"
#include "curses_paint.h"
#include "lib/kmod_events.h"

/* at most this many events per wake-up: keys stay answered in a storm */
#define CV_EV_DRAIN_MAX 4096

static void start_listening(struct cv_events *e)
{
	char err[256] = "";
	int ret;

	ui_evlog_init(&e->evlog);
	e->boot_wall = ui_boot_to_wall_ns();
	ret = ptop_kmod_events_open(&e->evh, err, sizeof(err));
	if (!ret) {
		e->err[0] = '\0';
		return;
	}
	e->evh = NULL;
	if (ret == -ENOENT)
		snprintf(e->err, sizeof(e->err),
			 "No events: the ptop_taskstats kernel module is not loaded (or too old); the event log comes from it.");
	else if (ret == -EPERM || ret == -EACCES)
		snprintf(e->err, sizeof(e->err),
			 "No events: not allowed. Listening to the module's events needs CAP_NET_ADMIN (run ptop as root, or setcap cap_net_admin+ep on it).");
	else
		snprintf(e->err, sizeof(e->err), "No events: %s",
			 err[0] ? err : strerror(-ret));
}

static void events_close(struct cv *cv, void *st)
{
	struct cv_events *e = st;

	(void)cv;
	ptop_kmod_events_close(e->evh);
	free(e);
}

int cv_events_fd(const struct cv *cv)
{
	const struct cv_events *e = cv_screen_find(cv, &cv_events_ops);

	return e && e->evh ? ptop_kmod_events_fd(e->evh) : -1;
}

int cv_events_drain(struct cv *cv)
{
	struct cv_events *e = cv_screen_find(cv, &cv_events_ops);
	struct ptop_ts_event ev;
	int i, ret;

	for (i = 0; e && e->evh && i < CV_EV_DRAIN_MAX; i++) {
		ret = ptop_kmod_events_next(e->evh, &ev, 0);
		if (ret == 1) {
			ui_evlog_push(&e->evlog, &ev);
		} else if (ret == -ENOBUFS) {
			ui_evlog_overflow(&e->evlog);
		} else if (ret == -EINTR) {
			continue;
		} else if (ret < 0) {
			snprintf(e->err, sizeof(e->err),
				 "Events stopped: %s (E twice to listen again)",
				 strerror(-ret));
			ptop_kmod_events_close(e->evh);
			e->evh = NULL;
		} else {
			break;
		}
	}
	return i;
}

void cv_events_title(const struct cv_events *e, char *buf, size_t len)
{
	const struct ui_evlog *l = &e->evlog;
	size_t pos;

	if (!e->evh && e->err[0]) {
		snprintf(buf, len, "Events (E: close)");
		return;
	}
	pos = snprintf(buf, len, "Events from ptop_taskstats: %llu seen",
		       (unsigned long long)l->seen);
	if (pos < len && l->overflows)
		pos += snprintf(buf + pos, len - pos,
				", some lost (the socket overflowed %llu times)",
				(unsigned long long)l->overflows);
	if (pos < len)
		snprintf(buf + pos, len - pos, "  (E: close)");
}

/* the live filter (F4) applies to the panel too: by COMMAND */
static bool shown(const struct cv *cv, const struct ptop_ts_event *ev)
{
	struct ptop_row r = { .uid = (uint32_t)-1 };

	if (!cv->v.filter[0])
		return true;
	memcpy(r.comm, ev->comm, sizeof(ev->comm));
	r.comm[sizeof(r.comm) - 1] = '\0';
	if (cv->v.filter_regex && cv->v.have_re)
		return !regexec(&cv->v.re, r.comm, 0, NULL, 0);
	return strcasestr(r.comm, cv->v.filter) != NULL;
}

int cv_events_line(const struct cv *cv, const struct cv_events *e, int i,
		   int nlines, char *buf, size_t len)
{
	const struct ui_evlog *l = &e->evlog;
	const struct ptop_ts_event *ev = NULL;
	size_t k, nshown = 0, want;

	buf[0] = '\0';
	if (!e->evh && e->err[0]) {
		if (i == 0)
			snprintf(buf, len, "%s", e->err);
		return i == 0;
	}
	/* the newest at the bottom: the last nlines of what is shown */
	for (k = l->n; k-- > 0 && nshown < (size_t)nlines;)
		nshown += shown(cv, ui_evlog_at(l, k));
	if (!nshown) {
		if (i == 0 && cv->v.filter[0])
			snprintf(buf, len, "listening: no events of '%s' kept",
				 cv->v.filter);
		else if (i == 0)
			snprintf(buf, len, "listening: no events yet (fork, exec, exit, reparent)");
		return 0;
	}
	if ((size_t)i >= nshown)
		return 0;
	/* k + 1 is the oldest shown; the i-th shown from there */
	want = (size_t)i;
	for (k = k + 1; k < l->n; k++) {
		if (!shown(cv, ui_evlog_at(l, k)))
			continue;
		if (!want--) {
			ev = ui_evlog_at(l, k);
			break;
		}
	}
	if (ev)
		ui_event_line(ev, e->boot_wall, buf, len);
	return 0;
}

/* The panel: a title line, then the log's last lines, under the table. */
static void events_draw(struct cv *cv, void *st)
{
	struct cv_events *e = st;
	char line[CV_LINE_MAX];
	int i, y0, h;

	/* the bottom third; the table keeps at least 3 lines */
	cv->panel_h = LINES / 3 > 4 ? LINES / 3 : 4;
	cv_screen_draw_below(cv);
	y0 = cv->panel_y;
	h = cv->panel_h;
	cv->panel_h = 0;
	if (!h)
		return;
	cv_events_title(e, line, sizeof(line));
	cv_put(y0, line, 0, cv_attr_header());
	for (i = 0; i < h - 1; i++) {
		bool err = cv_events_line(cv, e, i, h - 1, line, sizeof(line));

		cv_put(y0 + 1 + i, line, 0, err ? cv_attr_msg() : A_NORMAL);
	}
}

/* E closes the panel; the other keys are the table's */
static bool events_key(struct cv *cv, void *st, int ch)
{
	(void)st;
	if (ch != 'E')
		return false;
	cv_screen_close(cv, &cv_events_ops);
	return true;
}

const struct cv_screen_ops cv_events_ops = {
	.name = "events",
	.draw = events_draw,
	.key = events_key,
	.close = events_close,
};

void cv_events_toggle(struct cv *cv)
{
	struct cv_events *e;

	if (cv_screen_find(cv, &cv_events_ops)) {
		cv_screen_close(cv, &cv_events_ops);
		return;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	start_listening(e);
	cv_screen_push(cv, &cv_events_ops, e);
}
