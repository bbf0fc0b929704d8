// SPDX-License-Identifier: GPL-2.0
/*
 * tstime: one measured run of the command, for tstime's own command line
 * (tstime.c) and for GNU time's (tstime_gnu.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib/caps.h"
#include "tstime.h"

/*
 * Least privilege (lib/caps.h): once the source is open, tstime keeps only
 * what it goes on asking the kernel for: CAP_NET_ADMIN for taskstats (at
 * every request), CAP_SYS_ADMIN while it keeps kernel.task_delayacct set,
 * CAP_DAC_OVERRIDE to remove the run's cgroup where its parent is not
 * writable without it (a hierarchy's root)
 * (--drop-capabilities=strict, the default; basic also keeps CAP_KILL, as
 * ptop's; off keeps everything). The bounding set stays: the command gets
 * what the user has (as root, exec gives it every capability again).
 */
static int drop_caps(const struct tstime_how *o, const struct tstime_src *src)
{
	unsigned int needs = 0;
	char err[256];

	if (src->kind == TSTIME_SRC_TASKSTATS)
		needs |= PTOP_CAPS_NET_ADMIN;
	if (src->keep_delayacct)
		needs |= PTOP_CAPS_DELAYACCT;
	/*
	 * The run's cgroup is removed at the end (tstime_cg.c): from a
	 * hierarchy's root (r-x even for root) only with CAP_DAC_OVERRIDE.
	 */
	if (src->cg_ok && src->cg.need_override)
		needs |= PTOP_CAPS_CGROUP;
	if (ptop_caps_drop(o->caps, needs, false, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return -EPERM;
	}
	return 0;
}

/* tstime's own CPU time so far (its children's is not in it) */
static uint64_t own_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
		1000000000ULL +
		(uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

/*
 * One run of the command, measured: the source opened (and left open for
 * the report: res->comms points into it), the command started and waited
 * for. 0, or -errno with the message printed.
 */
int tstime_measure(const struct tstime_how *o, struct tstime_run *run,
		   struct tstime_src *src, struct tstime_result *res,
		   int explain, int first)
{
	uint64_t own0 = first ? 0 : own_cpu_ns();
	char err[512] = "";
	int ret;

	/* the first run's own time counts tstime's start too */
	ret = tstime_src_open(src, o->source, o->tree, o->no_cgroup, err,
			      sizeof(err));
	if (ret) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return ret;
	}
	if (explain)
		fprintf(stderr, "%s: source %s%s%s%s\n", o->prog,
			tstime_src_name(src), src->why[0] ? " (skipped " : "",
			src->why, src->why[0] ? ")" : "");
	ret = tstime_src_begin(src, run);
	if (ret) {
		fprintf(stderr, "%s: source %s: %s\n", o->prog,
			tstime_src_name(src), strerror(-ret));
		goto err_src;
	}
	ret = drop_caps(o, src);
	if (ret)
		goto err_src;
	ret = tstime_run_start(run);
	if (ret) {
		fprintf(stderr, "%s: cannot start %s: %s\n", o->prog, run->argv[0],
			strerror(-ret));
		goto err_src;
	}
	ret = tstime_run_wait(run);
	if (ret) {
		fprintf(stderr, "%s: waiting: %s\n", o->prog, strerror(-ret));
		goto err_src;
	}
	if (run->exec_errno)
		fprintf(stderr, "%s: cannot run %s: %s\n", o->prog, run->argv[0],
			strerror(run->exec_errno));

	memset(res, 0, sizeof(*res));
	res->real_ns = run->t1_ns - run->t0_ns;
	res->argv = run->argv;
	res->exit_status = tstime_run_exit_status(run, &res->signal);
	ret = tstime_src_end(src, run, res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s: source %s: %s\n", o->prog,
			tstime_src_name(src), err);
		goto err_src;
	}
	res->own_ns = own_cpu_ns() - own0;
	if (explain && src->info[0])
		fprintf(stderr, "%s: %s: %s\n", o->prog, tstime_src_name(src),
			src->info);
	if (explain && src->cg_ok)
		fprintf(stderr, "%s: total from the cgroup %s\n", o->prog,
			src->cg.path);
	if (src->cg_ok && src->cg.v1 && !o->quiet && first)
		fprintf(stderr, "%s: no cgroup2 of the run's own (%s): total from its cgroup v1 cpuacct\n",
			o->prog, src->cg_why);
	if (!src->cg_ok && !o->quiet && !o->no_cgroup && first)
		fprintf(stderr, "%s: no cgroup of the run's own (%s): total from wait4 and the records\n", o->prog,
			src->cg_why);
	return 0;

err_src:
	tstime_src_close(src);
	return ret;
}
