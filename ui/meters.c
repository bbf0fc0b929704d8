// SPDX-License-Identifier: GPL-2.0
/* Header meters: the arithmetic of the bars (the reading: lib/sysinfo.h). */
#include <stdio.h>
#include <string.h>

#include "meters.h"

const char *const ui_cat_name[UI_CAT__COUNT] = {
	[UI_CAT_USER] = "user",
	[UI_CAT_SYS] = "sys",
	[UI_CAT_STEAL] = "steal",
	[UI_CAT_CDEAD] = "c*",
	[UI_CAT_XDEAD] = "x*",
	[UI_CAT_IRQ] = "irq",
	[UI_CAT_UNACC] = "unacc",
	[UI_CAT_IDLE] = "idle",
};

uint64_t ui_meter_split(const struct ptop_interval *iv,
			uint64_t parts[UI_CAT__COUNT], uint64_t *over_ns)
{
	const struct ptop_row *s = &iv->sum;
	uint64_t cap = ptop_interval_capacity_ns(iv), sum = 0;
	int i;

	parts[UI_CAT_USER] = s->user;
	parts[UI_CAT_SYS] = s->sys;
	/* a system part the kernel already charged to tasks is not added */
	parts[UI_CAT_STEAL] = s->ste +
		(iv->sys_apart & PTOP_SYS_STEAL_APART ? iv->steal_ns : 0);
	parts[UI_CAT_CDEAD] = s->cuser + s->csys + s->cste;
	parts[UI_CAT_XDEAD] = s->xuser + s->xsys + s->xste;
	parts[UI_CAT_IRQ] = iv->sys_apart & PTOP_SYS_IRQ_APART ? iv->irq_ns : 0;
	parts[UI_CAT_IDLE] = iv->idle_ns;
	parts[UI_CAT_UNACC] = 0;
	for (i = 0; i < UI_CAT__COUNT; i++)
		sum += parts[i];
	*over_ns = sum > cap ? sum - cap : 0;
	if (sum < cap) {
		parts[UI_CAT_UNACC] = cap - sum;
		sum = cap;
	}
	return sum;
}

int ui_bar_cells(const uint64_t *parts, int nparts, uint64_t whole,
		 int width, int *cells)
{
	long double sum = 0, exact[16], frac[16];
	int i, used = 0, target;

	if (nparts > 16)
		nparts = 16;
	for (i = 0; i < nparts; i++) {
		cells[i] = 0;
		sum += parts[i];
	}
	if (!whole || width <= 0)
		return 0;
	if (sum > whole)
		sum = whole;	/* a full bar, never more */
	target = (int)(sum * width / whole + 0.5L);
	for (i = 0; i < nparts; i++) {
		exact[i] = (long double)parts[i] * width / whole;
		cells[i] = (int)exact[i];
		frac[i] = exact[i] - cells[i];
		used += cells[i];
	}
	/* rounding down can overshoot only when sum was clipped */
	while (used > target) {
		int big = 0;

		for (i = 1; i < nparts; i++)
			if (cells[i] > cells[big])
				big = i;
		cells[big]--;
		used--;
	}
	/* the largest remainders get the cells still missing */
	while (used < target) {
		int best = -1;

		for (i = 0; i < nparts; i++)
			if (parts[i] && (best < 0 || frac[i] > frac[best]))
				best = i;
		if (best < 0)
			break;
		cells[best]++;
		frac[best] = -1;
		used++;
	}
	return used;
}

void ui_task_counts(const struct ptop_interval *iv, unsigned long *procs,
		    unsigned long *threads, unsigned long *running)
{
	/* counted by the interval math with its sums (not per draw) */
	*procs = iv->nprocs;
	*threads = iv->nthreads_all;
	*running = iv->nrunning;
}

void ui_fmt_kb(uint64_t kb, char *buf, size_t len)
{
	if (kb >= 1024ULL * 1024 * 10)
		snprintf(buf, len, "%.1fG", kb / (1024.0 * 1024));
	else if (kb >= 1024ULL * 1024)
		snprintf(buf, len, "%.2fG", kb / (1024.0 * 1024));
	else if (kb >= 1024)
		snprintf(buf, len, "%.0fM", kb / 1024.0);
	else
		snprintf(buf, len, "%lluK", (unsigned long long)kb);
}

void ui_fmt_uptime(double s, char *buf, size_t len)
{
	unsigned long t = s > 0 ? (unsigned long)s : 0;
	unsigned long days = t / 86400;

	t %= 86400;
	if (days)
		snprintf(buf, len, "%lu day%s, %02lu:%02lu:%02lu", days,
			 days == 1 ? "" : "s", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%02lu:%02lu:%02lu", t / 3600, t / 60 % 60,
			 t % 60);
}
