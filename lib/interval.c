// SPDX-License-Identifier: GPL-2.0
/*
 * The interval math (docs/design.md). For a thread group g and (k-1, k]:
 *   own   = sum over its live threads of T_t(k) - T_t(k-1)  (new: T_t(k))
 *   x col = x_g(k) - x_g(k-1) - sum of T_t(k-1) of its threads that died
 *   c col = c_g(k) - c_g(k-1) - sum of [T_d(k-1) + C_d(k-1)] of every group
 *           d that died in the interval and was folded into g, directly
 *           or through a chain of other dead groups
 * so a dead task's time is shown exactly once: up to k-1 on its own row,
 * after that on the row that received it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interval_internal.h"

static void system_parts(struct ptop_interval *iv, const struct ptop_snap *prev,
			 const struct ptop_snap *cur)
{
	uint64_t ignore = 0;

	iv->interval_ns = sat_sub(cur->time_ns, prev->time_ns, &ignore);
	iv->time_ns = cur->time_ns;
	iv->ncpu = cur->ncpu;
	iv->caps = cur->caps;
	iv->sys_apart = cur->sys_apart;
	iv->idle_ns = sat_sub(cur->cpu.idle_ns, prev->cpu.idle_ns, &ignore);
	iv->iowait_ns = sat_sub(cur->cpu.iowait_ns, prev->cpu.iowait_ns, &ignore);
	if (cur->sys_apart & PTOP_SYS_STEAL_APART)
		iv->steal_ns = sat_sub(cur->cpu.steal_ns, prev->cpu.steal_ns,
				       &ignore);
	if (cur->sys_apart & PTOP_SYS_IRQ_APART)
		iv->irq_ns = sat_sub(cur->cpu.irq_ns, prev->cpu.irq_ns, &ignore);
	if (cur->flags & PTOP_SAMPLE_INEXACT)
		iv->flags |= PTOP_IV_LOST;
	iv->nlost = cur->nlost;
	iv->tol_ppm = cur->tol_ppm;
	iv->res_ns = cur->res_ns;
	iv->res_what = cur->res_what;
	/* a reading in ticks at either end rounds the interval's deltas */
	if (prev->res_ns > cur->res_ns) {
		iv->res_ns = prev->res_ns;
		iv->res_what = prev->res_what;
	}
}

int ptop_interval_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
			  const struct ptop_snap *cur, bool threads)
{
	int ret;

	if (!prev || !cur)
		return -EINVAL;
	iv->quick = iv_quick_ok(iv, prev, cur, threads);
	iv->end_snap_id = 0;	/* until this one is complete */
	iv->from_snap_id = prev->id;
	iv->nchanges = 0;
	iv->threads = threads;
	iv->flags = 0;
	iv->clamped_ns = 0;
	iv->unfolded_ns = 0;
	iv->nexited = 0;
	iv->ntask_exits = 0;
	iv->nlate = 0;
	if (iv->quick && threads) {
		ret = iv_quick_compute_threads(iv, prev, cur);
	} else if (iv->quick) {
		ret = iv_quick_compute(iv, prev, cur);
	} else {
		iv->nrows = 0;
		iv->tidx_snap = 0;
		ret = iv_full_compute(iv, prev, cur);
		/* only a source of incremental answers makes quick ones */
		if (!ret && threads && (cur->caps & PTOP_CAP_INCREMENTAL))
			ret = iv_tidx_build(iv, cur);
	}
	if (ret)
		return ret;
	system_parts(iv, prev, cur);
	iv->sum.has = iv->caps;
	ptop_verdict_judge(iv, prev->window_ns, cur->window_ns,
			   prev->flags & PTOP_SAMPLE_UNSETTLED);
	iv->end_snap_id = cur->id;
	return 0;
}

void ptop_interval_init(struct ptop_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
}

void ptop_interval_free(struct ptop_interval *iv)
{
	free(iv->rows);
	free(iv->loud);
	free(iv->dirty);
	free(iv->changes);
	free(iv->tidx);
	memset(iv, 0, sizeof(*iv));
}

uint64_t ptop_interval_accounted_ns(const struct ptop_interval *iv)
{
	return iv->sum.total + iv->idle_ns + iv->steal_ns + iv->irq_ns;
}

uint64_t ptop_interval_capacity_ns(const struct ptop_interval *iv)
{
	return (uint64_t)iv->ncpu * iv->interval_ns;
}

double ptop_interval_pct(const struct ptop_interval *iv, uint64_t ns)
{
	if (!iv->interval_ns)
		return 0.0;
	return (double)ns * 100.0 / (double)iv->interval_ns;
}
