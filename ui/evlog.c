// SPDX-License-Identifier: GPL-2.0
/* The event log's ring and its formatting (see evlog.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "evlog.h"
#include "lib/kmod_events.h"

void ui_evlog_init(struct ui_evlog *l)
{
	memset(l, 0, sizeof(*l));
}

void ui_evlog_push(struct ui_evlog *l, const struct ptop_ts_event *ev)
{
	l->seen++;
	if (l->n < UI_EVLOG_CAP) {
		l->ev[(l->head + l->n++) % UI_EVLOG_CAP] = *ev;
		return;
	}
	/* full: the oldest makes room */
	l->ev[l->head] = *ev;
	l->head = (l->head + 1) % UI_EVLOG_CAP;
}

void ui_evlog_overflow(struct ui_evlog *l)
{
	l->overflows++;
}

const struct ptop_ts_event *ui_evlog_at(const struct ui_evlog *l, size_t i)
{
	if (i >= l->n)
		return NULL;
	return &l->ev[(l->head + i) % UI_EVLOG_CAP];
}

void ui_event_fields(const struct ptop_ts_event *ev, char *buf, size_t len)
{
	char comm[PTOP_TS_COMM_LEN + 1], other[32] = "";
	size_t i;

	for (i = 0; i < PTOP_TS_COMM_LEN && ev->comm[i]; i++) {
		unsigned char c = ev->comm[i];

		comm[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	comm[i] = '\0';
	switch (ev->type) {
	case PTOP_TS_EV_FORK:
		snprintf(other, sizeof(other), "parent=%u", ev->other_tgid);
		break;
	case PTOP_TS_EV_EXEC:
		snprintf(other, sizeof(other), "old=%u", ev->other_pid);
		break;
	case PTOP_TS_EV_EXIT:
		snprintf(other, sizeof(other), "code=%u", ev->exit_code);
		break;
	case PTOP_TS_EV_REPARENT:
		snprintf(other, sizeof(other), "reaper=%u", ev->other_tgid);
		break;
	}
	snprintf(buf, len, "%-8s pid=%u tgid=%u %s comm=%s",
		 ptop_kmod_event_name(ev->type), ev->pid, ev->tgid, other, comm);
}

void ui_event_line(const struct ptop_ts_event *ev, int64_t boot_to_wall_ns,
		   char *buf, size_t len)
{
	int64_t wall = (int64_t)ev->time_ns + boot_to_wall_ns;
	time_t s = (time_t)(wall / 1000000000LL);
	char when[16], fields[160];
	struct tm tm;

	localtime_r(&s, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	ui_event_fields(ev, fields, sizeof(fields));
	snprintf(buf, len, "%s.%03d %s", when,
		 (int)(wall % 1000000000LL / 1000000), fields);
}

int64_t ui_boot_to_wall_ns(void)
{
	struct timespec rt, bt;

	clock_gettime(CLOCK_BOOTTIME, &bt);
	clock_gettime(CLOCK_REALTIME, &rt);
	return ((int64_t)rt.tv_sec - bt.tv_sec) * 1000000000LL +
	       (rt.tv_nsec - bt.tv_nsec);
}
