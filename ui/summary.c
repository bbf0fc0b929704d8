// SPDX-License-Identifier: GPL-2.0
/* The text batch output's summary block, as top -b's (summary.h). */
#include <stdio.h>

#include "meters.h"
#include "summary.h"

void ui_task_states(const struct ptop_interval *iv, struct ui_task_states *t)
{
	size_t i;

	*t = (struct ui_task_states){ .total = iv->nrows };
	for (i = 0; i < iv->nrows; i++) {
		switch (iv->rows[i].state) {
		case 'R':
			t->running++;
			break;
		case 'S':
		case 'D':
		case 'I':
			t->sleeping++;
			break;
		case 'T':
		case 't':
			t->stopped++;
			break;
		case 'Z':
			t->zombie++;
			break;
		}
	}
}

static double mib(uint64_t kb)
{
	return kb / 1024.0;
}

bool ui_summary_line(const struct ptop_interval *iv,
		     const struct ptop_sysinfo *s, int i, char *buf,
		     size_t len)
{
	struct ui_task_states t;
	char up[64];
	uint64_t swap_used;

	switch (i) {
	case 0:
		ui_fmt_uptime(s->uptime_s, up, sizeof(up));
		snprintf(buf, len, "up %s,  load average: %.2f, %.2f, %.2f",
			 up, s->load[0], s->load[1], s->load[2]);
		return true;
	case 1:
		ui_task_states(iv, &t);
		snprintf(buf, len,
			 "%s %lu total, %lu running, %lu sleeping, %lu stopped, %lu zombie",
			 iv->threads ? "Threads:" : "Tasks:", t.total,
			 t.running, t.sleeping, t.stopped, t.zombie);
		return true;
	case 2:
		snprintf(buf, len,
			 "MiB Mem : %8.1f total, %8.1f free, %8.1f used, %8.1f buff/cache",
			 mib(s->mem_total_kb), mib(s->mem_free_kb),
			 mib(ptop_sysinfo_used_kb(s)),
			 mib(ptop_sysinfo_buff_cache_kb(s)));
		return true;
	case 3:
		swap_used = s->swap_free_kb < s->swap_total_kb ?
			    s->swap_total_kb - s->swap_free_kb : 0;
		snprintf(buf, len,
			 "MiB Swap: %8.1f total, %8.1f free, %8.1f used. %8.1f avail Mem",
			 mib(s->swap_total_kb), mib(s->swap_free_kb),
			 mib(swap_used), mib(s->mem_avail_kb));
		return true;
	}
	return false;
}
