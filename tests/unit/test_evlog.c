// SPDX-License-Identifier: GPL-2.0
/*
 * The event panel's model with crafted events: the ring keeps the last
 * UI_EVLOG_CAP in order and counts what it dropped and what the socket
 * lost; each event type's fields; control bytes of a name made harmless;
 * the panel's lines: newest at the bottom, the reason when there are no
 * events (no module, no permission); the live filter applies to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "ui/curses_events.h"
#include "ui/evlog.h"

static struct ptop_ts_event ev_of(unsigned int type, uint32_t pid,
				  uint32_t other, const char *comm)
{
	struct ptop_ts_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.pid = pid;
	ev.tgid = pid;
	ev.other_pid = other;
	ev.other_tgid = other;
	ev.exit_code = other;
	ev.time_ns = 1000000000ULL * pid;
	strncpy(ev.comm, comm, sizeof(ev.comm));
	return ev;
}

static void test_ring(void **state)
{
	static struct ui_evlog l;
	struct ptop_ts_event ev;
	uint32_t i;

	(void)state;
	ui_evlog_init(&l);
	assert_null(ui_evlog_at(&l, 0));
	for (i = 1; i <= 3; i++) {
		ev = ev_of(PTOP_TS_EV_FORK, i, 1, "sh");
		ui_evlog_push(&l, &ev);
	}
	assert_int_equal(l.n, 3);
	assert_int_equal(ui_evlog_at(&l, 0)->pid, 1);
	assert_int_equal(ui_evlog_at(&l, 2)->pid, 3);
	assert_null(ui_evlog_at(&l, 3));
	/* past the capacity: the oldest go, the order stays */
	for (i = 4; i <= UI_EVLOG_CAP + 10; i++) {
		ev = ev_of(PTOP_TS_EV_EXIT, i, 0, "sh");
		ui_evlog_push(&l, &ev);
	}
	assert_int_equal(l.n, UI_EVLOG_CAP);
	assert_int_equal(l.seen, UI_EVLOG_CAP + 10);
	assert_int_equal(ui_evlog_at(&l, 0)->pid, 11);
	assert_int_equal(ui_evlog_at(&l, UI_EVLOG_CAP - 1)->pid, UI_EVLOG_CAP + 10);
	for (i = 1; i < UI_EVLOG_CAP; i++)
		assert_int_equal(ui_evlog_at(&l, i)->pid,
				 ui_evlog_at(&l, i - 1)->pid + 1);
	ui_evlog_overflow(&l);
	ui_evlog_overflow(&l);
	assert_int_equal(l.overflows, 2);
	assert_int_equal(l.n, UI_EVLOG_CAP);
}

static void test_fields(void **state)
{
	struct ptop_ts_event ev;
	char buf[200];

	(void)state;
	ev = ev_of(PTOP_TS_EV_FORK, 42, 7, "make");
	ui_event_fields(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "fork     pid=42 tgid=42 parent=7 comm=make");
	ev = ev_of(PTOP_TS_EV_EXEC, 42, 43, "cc1");
	ui_event_fields(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "exec     pid=42 tgid=42 old=43 comm=cc1");
	ev = ev_of(PTOP_TS_EV_EXIT, 42, 256, "cc1");
	ui_event_fields(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "exit     pid=42 tgid=42 code=256 comm=cc1");
	ev = ev_of(PTOP_TS_EV_REPARENT, 42, 1, "orphan");
	ui_event_fields(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "reparent pid=42 tgid=42 reaper=1 comm=orphan");
	ev = ev_of(99, 42, 1, "x");
	ui_event_fields(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "?        pid=42 tgid=42  comm=x");
	/* an escape sequence in a name reaches no terminal */
	ev = ev_of(PTOP_TS_EV_EXEC, 5, 5, "\033[2Jevil\x7f");
	ui_event_fields(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "exec     pid=5 tgid=5 old=5 comm=?[2Jevil?");
	/* a full 16-byte comm without its NUL stays in bounds */
	ev = ev_of(PTOP_TS_EV_FORK, 5, 1, "");
	memset(ev.comm, 'a', sizeof(ev.comm));
	ui_event_fields(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "fork     pid=5 tgid=5 parent=1 comm=aaaaaaaaaaaaaaaa");
	/* a short buffer is cut, never overrun */
	ui_event_fields(&ev, buf, 8);
	assert_string_equal(buf, "fork   ");
}

static void test_line_time(void **state)
{
	struct ptop_ts_event ev = ev_of(PTOP_TS_EV_EXIT, 3, 0, "true");
	char buf[200];

	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	/* booted at 2026-12-01 12:00:00 UTC; the event 3.25 s later */
	ev.time_ns = 3250000000ULL;
	ui_event_line(&ev, 1796126400LL * 1000000000LL, buf, sizeof(buf));
	assert_string_equal(buf, "12:00:03.250 exit     pid=3 tgid=3 code=0 comm=true");
}

static void test_panel_lines(void **state)
{
	static struct cv cv;
	static struct cv_events e;
	struct ptop_ts_event ev;
	char buf[300];
	uint32_t i;

	(void)state;
	memset(&cv, 0, sizeof(cv));
	setenv("TZ", "UTC", 1);
	tzset();
	ui_evlog_init(&e.evlog);
	/* listening, nothing yet */
	e.evh = (struct ptop_kmod_events *)&cv;	/* not used: a marker */
	assert_int_equal(cv_events_line(&cv, &e, 0, 5, buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "no events yet"));
	cv_events_title(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "0 seen"));
	/* 10 events in a panel of 4 lines: the last 4, newest at the bottom */
	for (i = 1; i <= 10; i++) {
		ev = ev_of(PTOP_TS_EV_FORK, 100 + i, 1, "sh");
		ui_evlog_push(&e.evlog, &ev);
	}
	cv_events_line(&cv, &e, 0, 4, buf, sizeof(buf));
	assert_non_null(strstr(buf, " pid=107 "));
	cv_events_line(&cv, &e, 3, 4, buf, sizeof(buf));
	assert_non_null(strstr(buf, " pid=110 "));
	/* fewer events than lines: from the top */
	cv_events_line(&cv, &e, 0, 20, buf, sizeof(buf));
	assert_non_null(strstr(buf, " pid=101 "));
	cv_events_line(&cv, &e, 10, 20, buf, sizeof(buf));
	assert_string_equal(buf, "");
	ui_evlog_overflow(&e.evlog);
	cv_events_title(&e, buf, sizeof(buf));
	assert_non_null(strstr(buf, "10 seen, some lost"));
	/* the live filter applies: only cc1's events, still newest last */
	for (i = 1; i <= 6; i++) {
		ev = ev_of(PTOP_TS_EV_EXEC, 200 + i, 200 + i, i % 2 ? "cc1" : "make");
		ui_evlog_push(&e.evlog, &ev);
	}
	assert_int_equal(ui_view_set_filter(&cv.v, "CC1", false, buf, sizeof(buf)), 0);
	cv_events_line(&cv, &e, 0, 2, buf, sizeof(buf));
	assert_non_null(strstr(buf, " pid=203 "));
	cv_events_line(&cv, &e, 1, 2, buf, sizeof(buf));
	assert_non_null(strstr(buf, " pid=205 "));
	cv_events_line(&cv, &e, 0, 10, buf, sizeof(buf));
	assert_non_null(strstr(buf, " pid=201 "));
	cv_events_line(&cv, &e, 3, 10, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(ui_view_set_filter(&cv.v, "^ma", true, buf, sizeof(buf)), 0);
	cv_events_line(&cv, &e, 0, 1, buf, sizeof(buf));
	assert_non_null(strstr(buf, " pid=206 "));
	assert_int_equal(ui_view_set_filter(&cv.v, "nosuch", false, buf, sizeof(buf)), 0);
	cv_events_line(&cv, &e, 0, 4, buf, sizeof(buf));
	assert_string_equal(buf, "listening: no events of 'nosuch' kept");
	ui_view_set_filter(&cv.v, "", false, buf, sizeof(buf));
	/* not listening, with the reason: the first line says it */
	e.evh = NULL;
	snprintf(e.err, sizeof(e.err), "No events: the module is not loaded");
	assert_int_equal(cv_events_line(&cv, &e, 0, 4, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "No events: the module is not loaded");
	assert_int_equal(cv_events_line(&cv, &e, 1, 4, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	ui_view_free(&cv.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_line_time),
		cmocka_unit_test(test_panel_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
