// SPDX-License-Identifier: GPL-2.0
/*
 * The event panel (E): the module's process events (lib/kmod_events.h)
 * as a live log below the table, newest at the bottom. Listening is on
 * only while the panel is open: the module produces events only while
 * someone listens. Without the module, or without CAP_NET_ADMIN, the
 * panel says which, and why.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "curses_view.h"
#include "lib/kmod_events.h"

/* at most this many events per wake-up: keys stay answered in a storm */
#define CV_EV_DRAIN_MAX 4096

static void open_events(struct cv *cv)
{
	char err[256] = "";
	int ret;

	ui_evlog_init(&cv->evlog);
	cv->ev_boot_wall = ui_boot_to_wall_ns();
	ret = ptop_kmod_events_open(&cv->evh, err, sizeof(err));
	if (!ret) {
		cv->ev_err[0] = '\0';
		return;
	}
	cv->evh = NULL;
	if (ret == -ENOENT)
		snprintf(cv->ev_err, sizeof(cv->ev_err),
			 "No events: the ptop_taskstats kernel module is not loaded (or too old); the event log comes from it.");
	else if (ret == -EPERM || ret == -EACCES)
		snprintf(cv->ev_err, sizeof(cv->ev_err),
			 "No events: not allowed. Listening to the module's events needs CAP_NET_ADMIN (run ptop as root, or setcap cap_net_admin+ep on it).");
	else
		snprintf(cv->ev_err, sizeof(cv->ev_err), "No events: %s",
			 err[0] ? err : strerror(-ret));
}

void cv_events_close(struct cv *cv)
{
	ptop_kmod_events_close(cv->evh);
	cv->evh = NULL;
}

void cv_events_toggle(struct cv *cv)
{
	cv->ev_on = !cv->ev_on;
	if (cv->ev_on)
		open_events(cv);
	else
		cv_events_close(cv);
}

int cv_events_fd(const struct cv *cv)
{
	return cv->evh ? ptop_kmod_events_fd(cv->evh) : -1;
}

int cv_events_drain(struct cv *cv)
{
	struct ptop_ts_event ev;
	int i, ret;

	for (i = 0; cv->evh && i < CV_EV_DRAIN_MAX; i++) {
		ret = ptop_kmod_events_next(cv->evh, &ev, 0);
		if (ret == 1) {
			ui_evlog_push(&cv->evlog, &ev);
		} else if (ret == -ENOBUFS) {
			ui_evlog_overflow(&cv->evlog);
		} else if (ret == -EINTR) {
			continue;
		} else if (ret < 0) {
			snprintf(cv->ev_err, sizeof(cv->ev_err),
				 "Events stopped: %s (E twice to listen again)",
				 strerror(-ret));
			cv_events_close(cv);
		} else {
			break;
		}
	}
	return i;
}

void cv_events_title(const struct cv *cv, char *buf, size_t len)
{
	const struct ui_evlog *l = &cv->evlog;
	size_t pos;

	if (!cv->evh && cv->ev_err[0]) {
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

int cv_events_line(const struct cv *cv, int i, int nlines, char *buf,
		   size_t len)
{
	const struct ui_evlog *l = &cv->evlog;
	const struct ptop_ts_event *ev = NULL;
	size_t k, nshown = 0, want;

	buf[0] = '\0';
	if (!cv->evh && cv->ev_err[0]) {
		if (i == 0)
			snprintf(buf, len, "%s", cv->ev_err);
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
		ui_event_line(ev, cv->ev_boot_wall, buf, len);
	return 0;
}
