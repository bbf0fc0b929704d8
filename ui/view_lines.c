// SPDX-License-Identifier: GPL-2.0
/*
 * What both views print above the rows (the headline, the system line)
 * and their clock: the snapshot schedule and the wall time of a
 * snapshot (declared in ui/view.h).
 */
#include <stdio.h>
#include <time.h>

#include "lib/verdict.h"
#include "view.h"

uint64_t ui_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint64_t ui_sched_next(uint64_t *deadline_ns, uint64_t step_ns, uint64_t now_ns)
{
	if (!*deadline_ns)
		*deadline_ns = now_ns;
	*deadline_ns += step_ns;
	if (*deadline_ns < now_ns)
		*deadline_ns = now_ns + step_ns;
	return *deadline_ns;
}

time_t ui_wall_time(uint64_t mono_ns)
{
	struct timespec rt, mono;
	int64_t wall_ns;

	/* in ns, then seconds: stable from one call to the next */
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	wall_ns = (int64_t)rt.tv_sec * 1000000000LL + rt.tv_nsec -
		  ((int64_t)mono.tv_sec * 1000000000LL + mono.tv_nsec -
		   (int64_t)mono_ns);
	return (time_t)(wall_ns / 1000000000LL);
}

void ui_headline(const struct ptop_interval *iv, const char *source,
		 char *buf, size_t len)
{
	char when[32], verdict[256];
	time_t at = ui_wall_time(iv->time_ns);
	struct tm tm;

	localtime_r(&at, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	ptop_verdict_str(iv, verdict, sizeof(verdict));
	snprintf(buf, len,
		 "ptop %s  interval %.3fs  ncpu %u  source %s  accounted %.2f%% of %.2f%%  %s",
		 when, iv->interval_ns / 1e9, iv->ncpu, source,
		 ptop_interval_pct(iv, ptop_interval_accounted_ns(iv)),
		 ptop_interval_pct(iv, ptop_interval_capacity_ns(iv)), verdict);
}

void ui_sysline(const struct ptop_interval *iv, char *buf, size_t len)
{
	char steal[16], irq[16], tail[16];

	/* a system part the kernel already charged to tasks is not added */
	if (iv->sys_apart & PTOP_SYS_STEAL_APART)
		snprintf(steal, sizeof(steal), "%.2f%%",
			 ptop_interval_pct(iv, iv->steal_ns));
	else
		snprintf(steal, sizeof(steal), "in-tasks");
	if (iv->sys_apart & PTOP_SYS_IRQ_APART)
		snprintf(irq, sizeof(irq), "%.2f%%",
			 ptop_interval_pct(iv, iv->irq_ns));
	else
		snprintf(irq, sizeof(irq), "in-tasks");
	/* the stock kernel's exit paths: a part no row can get */
	if (iv->caps & PTOP_CAP_EXIT_TAIL)
		snprintf(tail, sizeof(tail), "%.2f%%",
			 ptop_interval_pct(iv, iv->verdict.exit_paths_ns));
	else
		snprintf(tail, sizeof(tail), "in-tasks");
	snprintf(buf, len,
		 "idle %.2f%%  iowait %.2f%%  steal %s  irq %s  exited %zu  clamped %.2f%%  unfolded %.2f%%  exit paths %s  snapshot %.1f ms",
		 ptop_interval_pct(iv, iv->idle_ns),
		 ptop_interval_pct(iv, iv->iowait_ns), steal, irq, iv->nexited,
		 ptop_interval_pct(iv, iv->clamped_ns),
		 ptop_interval_pct(iv, iv->unfolded_ns), tail,
		 iv->verdict.window_ns / 1e6);
}
