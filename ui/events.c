// SPDX-License-Identifier: GPL-2.0
/*
 * ptop --events: one line per process event from the ptop_taskstats
 * module, as it comes:
 *
 *   <boottime s.ns> <type> pid=<pid> tgid=<tgid> <other> comm=<comm>
 *
 * where <other> is parent=<tgid> (fork), old=<tid> (exec: the tid before
 * a non-leader exec), code=<wait status> (exit), reaper=<tgid> (reparent)
 * (the fields: ui/evlog.h, shared with the view's event panel).
 * The timestamps are the kernel's CLOCK_BOOTTIME at the event.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lib/kmod_events.h"
#include "events.h"
#include "evlog.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void print_event(FILE *out, const struct ptop_ts_event *ev)
{
	char fields[160];

	ui_event_fields(ev, fields, sizeof(fields));
	fprintf(out, "%llu.%09llu %s\n",
		(unsigned long long)(ev->time_ns / 1000000000ULL),
		(unsigned long long)(ev->time_ns % 1000000000ULL), fields);
}

int ui_events_run(FILE *out, double delay_s, long count)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct ptop_kmod_events *h;
	struct ptop_ts_event ev;
	uint64_t end = 0;
	char err[256] = "";
	int ret;

	ret = ptop_kmod_events_open(&h, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "ptop: --events: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (count > 0)
		end = mono_ms() + (uint64_t)(delay_s * 1000.0 * count);
	setvbuf(out, NULL, _IOLBF, 0);
	while (!stop) {
		int wait_ms = 1000;

		if (end) {
			uint64_t now = mono_ms();

			if (now >= end)
				break;
			if (end - now < (uint64_t)wait_ms)
				wait_ms = (int)(end - now);
		}
		ret = ptop_kmod_events_next(h, &ev, wait_ms);
		if (ret == -EINTR || ret == 0)
			continue;
		if (ret == -ENOBUFS) {
			fprintf(out, "# events lost (socket buffer overflow)\n");
			continue;
		}
		if (ret < 0) {
			fprintf(stderr, "ptop: --events: %s\n", strerror(-ret));
			ptop_kmod_events_close(h);
			return 1;
		}
		print_event(out, &ev);
		if (ferror(out) && errno == EPIPE)
			break;
	}
	ptop_kmod_events_close(h);
	return 0;
}
