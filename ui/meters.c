// SPDX-License-Identifier: GPL-2.0
/* Header meters: the arithmetic, and reading /proc for them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

static FILE *open_proc(const char *root, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root ? root : "/proc", name);
	return fopen(path, "re");
}

static int read_stat(struct ui_sysinfo *s, const char *root)
{
	char line[512];
	unsigned int n = 0;
	FILE *f = open_proc(root, "stat");

	if (!f)
		return -errno;
	if (s->ncpu) {
		memcpy(s->prev, s->cur, sizeof(s->cur[0]) * s->ncpu);
		s->have_prev = true;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ui_cpu_jif j = { 0 };
		unsigned int id;
		unsigned long long v[8] = { 0 };

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%u %llu %llu %llu %llu %llu %llu %llu %llu",
			   &id, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			   &v[6], &v[7]) < 5 || n >= UI_SYS_MAX_CPUS)
			continue;
		j.user = v[0];
		j.nice = v[1];
		j.sys = v[2];
		j.idle = v[3];
		j.iowait = v[4];
		j.irq = v[5];
		j.softirq = v[6];
		j.steal = v[7];
		s->cur[n++] = j;
	}
	fclose(f);
	if (n != s->ncpu)	/* CPUs came or went: no period to show */
		s->have_prev = false;
	s->ncpu = n;
	return n ? 0 : -EINVAL;
}

static void read_meminfo(struct ui_sysinfo *s, const char *root)
{
	char line[256], key[64];
	unsigned long long v;
	FILE *f = open_proc(root, "meminfo");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]: %llu", key, &v) != 2)
			continue;
		if (!strcmp(key, "MemTotal"))
			s->mem_total_kb = v;
		else if (!strcmp(key, "MemFree"))
			s->mem_free_kb = v;
		else if (!strcmp(key, "MemAvailable"))
			s->mem_avail_kb = v;
		else if (!strcmp(key, "Buffers"))
			s->buffers_kb = v;
		else if (!strcmp(key, "Cached"))
			s->cached_kb = v;
		else if (!strcmp(key, "SwapTotal"))
			s->swap_total_kb = v;
		else if (!strcmp(key, "SwapFree"))
			s->swap_free_kb = v;
	}
	fclose(f);
}

int ui_sysinfo_read(struct ui_sysinfo *s, const char *root)
{
	FILE *f;
	int ret = read_stat(s, root);

	read_meminfo(s, root);
	f = open_proc(root, "loadavg");
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &s->load[0], &s->load[1],
			   &s->load[2]) != 3)
			s->load[0] = s->load[1] = s->load[2] = 0;
		fclose(f);
	}
	f = open_proc(root, "uptime");
	if (f) {
		if (fscanf(f, "%lf", &s->uptime_s) != 1)
			s->uptime_s = 0;
		fclose(f);
	}
	return ret;
}

static uint64_t d(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ui_cpu_parts(const struct ui_sysinfo *s, unsigned int from,
		  unsigned int to, uint64_t parts[4], uint64_t *whole)
{
	unsigned int i;

	memset(parts, 0, 4 * sizeof(parts[0]));
	*whole = 0;
	if (!s->have_prev)
		return;
	for (i = from; i < to && i < s->ncpu; i++) {
		const struct ui_cpu_jif *c = &s->cur[i], *p = &s->prev[i];

		parts[0] += d(c->user, p->user) + d(c->nice, p->nice);
		parts[1] += d(c->sys, p->sys);
		parts[2] += d(c->irq, p->irq) + d(c->softirq, p->softirq) +
			    d(c->steal, p->steal);
		parts[3] += d(c->idle, p->idle) + d(c->iowait, p->iowait);
	}
	*whole = parts[0] + parts[1] + parts[2] + parts[3];
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
