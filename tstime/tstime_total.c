// SPDX-License-Identifier: GPL-2.0
/*
 * tstime: which counter gives the run's total, and how exact it is. No I/O.
 *
 * The kernel's own sums first: the run's cgroup (cpu.stat usage_usec, every
 * task of the tree while it was in the cgroup, exit paths included). Then
 * wait4's rusage of what tstime reaped (the command and, as child
 * subreaper, the orphans, with what each waited for: exit paths included,
 * children that reaped themselves missing). The per-task records
 * (taskstats, the module) see every task, but a stock kernel sends a
 * task's record before its exit path, so they serve for what the two
 * others cannot see, and for the breakdown: without a cgroup the total is
 * wait4's plus the records of the tasks wait4 did not reap.
 *
 * "exact" means within TSTIME_EXACT_PCT of the run's cgroup counter or,
 * without one, that nothing can be missing; else the bound and why, the
 * words of ptop's headline ("inexact: ...").
 */
#include <stdio.h>
#include <string.h>

#include "tstime.h"

/* tolerance of "exact": 0.5%, plus 1 ms for the counters' usec rounding */
#define TSTIME_EXACT_PCT	0.5
#define TSTIME_SLACK_NS		1000000ULL

static int beyond(uint64_t a, uint64_t b)
{
	return a > b && a - b > (uint64_t)(b * TSTIME_EXACT_PCT / 100.0) +
		TSTIME_SLACK_NS;
}

static double pct(uint64_t part, uint64_t all)
{
	return all ? 100.0 * (double)part / (double)all : 100.0;
}

/* user/sys of the chosen total, split as the source that gave it splits */
static void set_total(struct tstime_result *res, uint64_t total,
		      uint64_t user, uint64_t sys)
{
	uint64_t u = user + sys ? (uint64_t)((double)total * user /
					     (double)(user + sys)) : 0;

	res->user_ns = u;
	res->sys_ns = total - u;
}

static void with_counter(struct tstime_result *res,
			 const struct tstime_cg_stat *cs,
			 uint64_t rec_user, uint64_t rec_sys)
{
	uint64_t c = cs->usage_ns, best = res->rusage_ns;

	res->total_from = cs->v1 ? "cgroup v1" : "cgroup";
	set_total(res, c, cs->user_ns, cs->sys_ns);
	if (res->has_records && res->records_ns > best)
		best = res->records_ns;
	if (res->has_records && c > res->records_ns)
		res->exit_paths_ns = c - res->records_ns;
	if (best <= c) {
		snprintf(res->verdict, sizeof(res->verdict), "exact");
		res->exact = 1;
		return;
	}
	/*
	 * Another counter saw more: a task left the cgroup, or rounding.
	 * Never less than wait4's (time(1)'s) total.
	 */
	if (best == res->rusage_ns) {
		res->total_from = "rusage";
		set_total(res, best, res->ru_user_ns, res->ru_sys_ns);
	} else {
		res->total_from = "records";
		set_total(res, best, rec_user, rec_sys);
	}
	res->exit_paths_ns = res->has_records && best > res->records_ns ?
		best - res->records_ns : 0;
	if (!beyond(best, c)) {
		/* the counter's, within its rounding */
		res->total_from = cs->v1 ? "cgroup v1" : "cgroup";
		snprintf(res->verdict, sizeof(res->verdict), "exact");
		res->exact = 1;
		return;
	}
	snprintf(res->verdict, sizeof(res->verdict),
		 "inexact: within ±%.2f%% (a task left the run's cgroup, which counted %.2f%% of the total)",
		 pct(best - c, best), pct(c, best));
}

/*
 * wait4's rusage plus the records of the tasks it did not reap: each task
 * once. Taskstats records lack the exit paths of those tasks.
 */
static void with_union(struct tstime_result *res)
{
	uint64_t r = res->rusage_ns, un = res->unwaited_ns;

	res->total_from = un ? "rusage + records" : "rusage";
	res->user_ns = res->ru_user_ns + res->unwaited_user_ns;
	res->sys_ns = r + un - res->user_ns;
	res->exit_paths_ns = 0;
	if (!un || !beyond(r + un, r)) {
		snprintf(res->verdict, sizeof(res->verdict), "exact");
		res->exact = 1;
		return;
	}
	snprintf(res->verdict, sizeof(res->verdict),
		 "inexact: within ±%.2f%% (%.2f%% of the total from per-task records of tasks wait4 did not reap, which miss exit paths)",
		 pct(un, r + un), pct(un, r + un));
}

static void without_counter(struct tstime_result *res, int kmod_exact,
			    uint64_t rec_user, uint64_t rec_sys)
{
	uint64_t r = res->rusage_ns, rec = res->records_ns;

	res->total_from = "rusage";
	set_total(res, r, res->ru_user_ns, res->ru_sys_ns);
	if (!res->has_records) {
		snprintf(res->verdict, sizeof(res->verdict),
			 "inexact: no bound (no cgroup, no per-task records: children that reaped themselves would be missing)");
		return;
	}
	if (r > rec)
		res->exit_paths_ns = r - rec;
	/* the union, unless the records alone saw more */
	if (res->has_unwaited && r + res->unwaited_ns >= rec) {
		with_union(res);
		return;
	}
	if (kmod_exact || !beyond(rec, r)) {
		/* the records, which see every task, add nothing */
		if (kmod_exact && rec > r) {
			res->total_from = "records";
			set_total(res, rec, rec_user, rec_sys);
		}
		snprintf(res->verdict, sizeof(res->verdict), "exact");
		res->exact = 1;
		return;
	}
	res->total_from = "records";
	set_total(res, rec, rec_user, rec_sys);
	res->exit_paths_ns = 0;
	snprintf(res->verdict, sizeof(res->verdict),
		 "inexact: within ±%.2f%% (%.2f%% of the total only in per-task records, which miss exit paths)",
		 pct(rec - r, rec), pct(rec - r, rec));
}

/*
 * res->user_ns/sys_ns hold the records (when has_records), ru_* wait4's
 * sums; cs is the run's cgroup counter or NULL. Fills the total, where it
 * came from and the verdict; lost records or descendants left running make
 * it inexact whatever the counters say.
 */
void tstime_total(struct tstime_result *res, const struct tstime_cg_stat *cs,
		  int kmod_exact, int lost, int left)
{
	uint64_t rec_user = res->user_ns, rec_sys = res->sys_ns;
	size_t n;

	res->exact = 0;
	res->rusage_ns = res->ru_user_ns + res->ru_sys_ns;
	res->records_ns = res->has_records ? rec_user + rec_sys : 0;
	res->exit_paths_ns = 0;
	res->has_counter = !!cs;
	res->counter_ns = cs ? cs->usage_ns : 0;
	if (cs)
		with_counter(res, cs, rec_user, rec_sys);
	else
		without_counter(res, kmod_exact, rec_user, rec_sys);
	if (!left && !(lost && !cs))
		return;
	/* the total may miss what we did not wait for, or lost records */
	res->exact = 0;
	if (!strncmp(res->verdict, "exact", 5))
		snprintf(res->verdict, sizeof(res->verdict), "inexact:");
	n = strlen(res->verdict);
	snprintf(res->verdict + n, sizeof(res->verdict) - n, "%s%s",
		 strcmp(res->verdict, "inexact:") ? ", " : " ",
		 left ? "not bounded: descendants still running were not waited for" :
		 "not bounded: exit records were lost");
}
