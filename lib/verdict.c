// SPDX-License-Identifier: GPL-2.0
/* Is an interval exact, and if not why: see verdict.h. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "interval.h"

/*
 * A source that reads rounded counters (procfs: clock ticks) can be off
 * by one unit per counter and interval: it allows res_ns per CPU (procfs
 * two ticks, for its idle and for the task that kept it busy). Many small
 * tasks, each rounded down, are more than that: such an interval is
 * inexact, as it should be.
 */
static uint64_t tolerance_ns(const struct ptop_interval *iv, uint64_t cap)
{
	return (uint64_t)((double)cap * iv->tol_ppm / 1e6) +
	       (uint64_t)iv->ncpu * iv->res_ns;
}

static uint64_t exact_ns(const struct ptop_interval *iv, uint64_t cap)
{
	unsigned int ppm = iv->tol_ppm && iv->tol_ppm < PTOP_EXACT_PPM ?
			   iv->tol_ppm : PTOP_EXACT_PPM;

	return (uint64_t)((double)cap * ppm / 1e6);
}

void ptop_verdict_judge(struct ptop_interval *iv, uint64_t prev_window_ns,
			uint64_t cur_window_ns, bool first)
{
	struct ptop_verdict *v = &iv->verdict;
	uint64_t cap = ptop_interval_capacity_ns(iv);
	uint64_t acc = ptop_interval_accounted_ns(iv);
	uint64_t quiet = iv->idle_ns + iv->steal_ns + iv->irq_ns;
	uint64_t busy = cap > quiet ? cap - quiet : 0;
	uint64_t off_abs, total_abs, tail_max;
	bool sum_out;

	memset(v, 0, sizeof(*v));
	v->off_ns = acc >= cap ? (int64_t)(acc - cap) : -(int64_t)(cap - acc);
	off_abs = acc >= cap ? acc - cap : cap - acc;
	total_abs = off_abs;
	v->ntask_exits = iv->ntask_exits;
	if ((iv->caps & PTOP_CAP_EXIT_TAIL) && acc < cap) {
		tail_max = PTOP_EXIT_PATH_MAX_NS * iv->ntask_exits;
		v->exit_paths_ns = off_abs < tail_max ? off_abs : tail_max;
		off_abs -= v->exit_paths_ns;
	}
	v->tol_ns = tolerance_ns(iv, cap);
	v->exact_ns = exact_ns(iv, cap);
	v->window_ns = prev_window_ns > cur_window_ns ? prev_window_ns :
			cur_window_ns;
	if (iv->interval_ns)
		v->skew_ns = (uint64_t)((double)busy *
					((double)prev_window_ns + cur_window_ns) /
					(2.0 * iv->interval_ns));
	v->nlost = iv->nlost;

	if (first)
		v->why |= PTOP_WHY_FIRST;
	if (iv->nlost || (iv->flags & PTOP_IV_LOST))
		v->why |= PTOP_WHY_LOST;
	if (iv->clamped_ns)
		v->why |= PTOP_WHY_CLAMPED;
	if (iv->unfolded_ns)
		v->why |= PTOP_WHY_UNFOLDED;
	if (iv->nlate)
		v->why |= PTOP_WHY_LATE;
	if (v->skew_ns > v->tol_ns)
		v->why |= PTOP_WHY_SLOW;
	/*
	 * The exit paths are shown as their own part, but they are still
	 * time no row has: exact needs the whole sum within the tolerance
	 * (an interval 4% short with 2% of it exit paths is not exact).
	 * Either part beyond the tolerance is named; when only their sum
	 * is beyond it, both are.
	 */
	sum_out = total_abs > v->tol_ns && off_abs <= v->tol_ns &&
		  v->exit_paths_ns <= v->tol_ns;
	if (v->exit_paths_ns > v->tol_ns || (sum_out && v->exit_paths_ns))
		v->why |= PTOP_WHY_EXIT_PATHS;
	if (off_abs > v->tol_ns || !iv->interval_ns || sum_out)
		v->why |= PTOP_WHY_OFF;
	/* a pid namespace's rows against the machine's idle: nothing known */
	if (iv->caps & PTOP_CAP_PIDNS) {
		v->pidns = true;
		v->why &= ~(PTOP_WHY_OFF | PTOP_WHY_EXIT_PATHS);
		v->exit_paths_ns = 0;
	}
	v->within = !v->why && !v->pidns && v->tol_ns > v->exact_ns;
	v->exact = !v->why && !v->within && !v->pidns;
	if (v->exact)
		iv->flags &= ~PTOP_IV_INEXACT;
	else
		iv->flags |= PTOP_IV_INEXACT;
}

int ptop_verdict_reason(const struct ptop_interval *iv, unsigned int bit,
			char *buf, size_t len)
{
	const struct ptop_verdict *v = &iv->verdict;

	if (!(v->why & bit))
		return snprintf(buf, len, "%s", "");
	switch (bit) {
	case PTOP_WHY_FIRST:
		return snprintf(buf, len, "first interval");
	case PTOP_WHY_LOST:
		if (v->nlost)
			return snprintf(buf, len, "lost %u exit%s", v->nlost,
					v->nlost == 1 ? "" : "s");
		return snprintf(buf, len, "lost events");
	case PTOP_WHY_CLAMPED:
		return snprintf(buf, len, "clamped %.2f%%",
				ptop_interval_pct(iv, iv->clamped_ns));
	case PTOP_WHY_UNFOLDED:
		return snprintf(buf, len, "unfolded %.2f%%",
				ptop_interval_pct(iv, iv->unfolded_ns));
	case PTOP_WHY_SLOW:
		return snprintf(buf, len, "slow snapshot %.1f ms",
				v->window_ns / 1e6);
	case PTOP_WHY_EXIT_PATHS:
		return snprintf(buf, len,
				"exit paths %.2f%% (%u exit%s, not attributable on this kernel)",
				ptop_interval_pct(iv, v->exit_paths_ns),
				v->ntask_exits, v->ntask_exits == 1 ? "" : "s");
	case PTOP_WHY_LATE:
		return snprintf(buf, len, "late %zu exit%s", iv->nlate,
				iv->nlate == 1 ? "" : "s");
	case PTOP_WHY_OFF:
		if (!iv->interval_ns)
			return snprintf(buf, len, "no interval");
		/* what is left once the exit paths have their part */
		return snprintf(buf, len, "off %+.2f%%",
				(double)(v->off_ns + (int64_t)v->exit_paths_ns) *
				100.0 / iv->interval_ns);
	}
	return snprintf(buf, len, "%s", "");
}

int ptop_verdict_within_why(const struct ptop_interval *iv, char *buf,
			    size_t len)
{
	if (!iv->verdict.within)
		return snprintf(buf, len, "%s", "");
	return snprintf(buf, len, "%s at %.*f s",
			iv->res_what ? iv->res_what : "the source's rounding",
			iv->interval_ns < 10000000000ULL ? 1 : 0,
			iv->interval_ns / 1e9);
}

const char *ptop_verdict_word(const struct ptop_interval *iv)
{
	if (iv->verdict.exact)
		return "exact";
	if (iv->verdict.pidns && !iv->verdict.why)
		return "pid namespace only";
	return iv->verdict.within ? "within" : "inexact";
}

/*
 * The same reasons in the fewest words, for a headline that must fit 80
 * columns beside the time and the source (the view's): the figures stay,
 * the nouns the help explains go.
 */
static int reason_brief(const struct ptop_interval *iv, unsigned int bit,
			char *buf, size_t len)
{
	const struct ptop_verdict *v = &iv->verdict;

	switch (bit) {
	case PTOP_WHY_FIRST:
		return snprintf(buf, len, "first");
	case PTOP_WHY_LOST:
		if (v->nlost)
			return snprintf(buf, len, "lost %u", v->nlost);
		return snprintf(buf, len, "lost events");
	case PTOP_WHY_SLOW:
		return snprintf(buf, len, "slow %.0f ms", v->window_ns / 1e6);
	case PTOP_WHY_EXIT_PATHS:
		return snprintf(buf, len, "exit paths %.2f%%",
				ptop_interval_pct(iv, v->exit_paths_ns));
	case PTOP_WHY_LATE:
		return snprintf(buf, len, "late %zu", iv->nlate);
	}
	return ptop_verdict_reason(iv, bit, buf, len);
}

static int verdict_join(const struct ptop_interval *iv, char *buf, size_t len,
			int (*reason)(const struct ptop_interval *, unsigned int,
				      char *, size_t))
{
	size_t used, start;
	unsigned int i;
	int n;

	if (iv->verdict.exact)
		return snprintf(buf, len, "exact");
	if (iv->verdict.within) {
		char why[96];

		ptop_verdict_within_why(iv, why, sizeof(why));
		return snprintf(buf, len, "within \u00b1%.1f%% (%s)",
				ptop_interval_pct(iv, iv->verdict.tol_ns), why);
	}
	if (iv->verdict.pidns && !iv->verdict.why)
		return snprintf(buf, len, "%s", PTOP_VERDICT_PIDNS);
	n = snprintf(buf, len, "%sinexact:",
		     iv->verdict.pidns ? PTOP_VERDICT_PIDNS "; " : "");
	used = start = n > 0 ? (size_t)n : 0;
	for (i = 0; i < PTOP_WHY__COUNT; i++) {
		char one[96];

		if (!(iv->verdict.why & (1U << i)))
			continue;
		reason(iv, 1U << i, one, sizeof(one));
		n = snprintf(used < len ? buf + used : NULL,
			     used < len ? len - used : 0, "%s %s",
			     used > start ? "," : "", one);
		if (n > 0)
			used += n;
	}
	return (int)used;
}

int ptop_verdict_str(const struct ptop_interval *iv, char *buf, size_t len)
{
	return verdict_join(iv, buf, len, ptop_verdict_reason);
}

int ptop_verdict_brief(const struct ptop_interval *iv, char *buf, size_t len)
{
	return verdict_join(iv, buf, len, reason_brief);
}
