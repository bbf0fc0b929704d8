// SPDX-License-Identifier: GPL-2.0
/*
 * tstime: where the CPU time of the tree comes from. The total: the run's
 * cgroup where tstime can make one (tstime_cg.c), else wait4 and the
 * records (tstime_total.c). The per-task records, best first:
 *
 * kmod:      the module's accounting hierarchy (tstime_kmod.c). Exact and
 *            free.
 * taskstats: the stock kernel's exit listener + proc connector
 *            (tstime_taskstats.c). Exact, costlier, needs CAP_NET_ADMIN.
 * rusage:    wait4() of the command and, as child subreaper, of every
 *            orphan (tstime_run.c). Children that reaped themselves are
 *            lost.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tstime.h"

/*
 * How long the run's cgroup may go on holding exiting tasks after the
 * last one tstime waited for: self-reaped children on their exit paths.
 */
#define TSTIME_SETTLE_MS	30000
/* and how long their last exit steps may go on charging it */
#define TSTIME_TAIL_MS		10000

/*
 * How often the records are read while the command runs: each wakeup
 * costs a schedule; the 8 MiB socket buffers hold ~6,000 exits.
 */
#define TSTIME_BATCH_MS	200
/* without a cgroup: the parents of the tasks are asked how they reap */
#define TSTIME_BATCH_NOCG_MS	50

const char *tstime_src_name(const struct tstime_src *s)
{
	static const char *const names[] = {
		[TSTIME_SRC_KMOD] = "kmod",
		[TSTIME_SRC_TASKSTATS] = "taskstats",
		[TSTIME_SRC_RUSAGE] = "rusage",
	};

	return names[s->kind];
}

static void why_add(struct tstime_src *s, const char *name, const char *msg)
{
	size_t n = strlen(s->why);

	snprintf(s->why + n, sizeof(s->why) - n, "%s%s: %s", n ? "; " : "",
		 name, msg);
}

int tstime_src_open(struct tstime_src *s, const char *name, int tree,
		    int no_cgroup, char *err, size_t errlen)
{
	char msg[256];
	int ret;

	memset(s, 0, sizeof(*s));
	s->cg.fd = s->cg.procs_fd = -1;
	s->no_cgroup = no_cgroup;
	s->kfd = -1;
	s->taskstats.fd = s->taskstats.lfd = -1;
	s->connector.fd = -1;
	s->filter_flag = -1;
	s->old_delayacct = -1;
	s->tree = tree;
	if (name && strcmp(name, "kmod") && strcmp(name, "taskstats") &&
	    strcmp(name, "rusage")) {
		snprintf(err, errlen, "unknown source '%s' (kmod, taskstats, rusage)",
			 name);
		return -EINVAL;
	}
	if (!name || !strcmp(name, "kmod")) {
		s->kind = TSTIME_SRC_KMOD;
		ret = tstime_kmod_open(s, msg, sizeof(msg));
		if (!ret)
			return 0;
		if (name) {
			snprintf(err, errlen, "source kmod: %s", msg);
			return ret;
		}
		why_add(s, "kmod", msg);
	}
	if (!name || !strcmp(name, "taskstats")) {
		s->kind = TSTIME_SRC_TASKSTATS;
		ret = tstime_taskstats_open(s, msg, sizeof(msg));
		if (!ret)
			return 0;
		tstime_src_close(s);
		if (name) {
			snprintf(err, errlen, "source taskstats: %s", msg);
			return ret;
		}
		why_add(s, "taskstats", msg);
	}
	s->kind = TSTIME_SRC_RUSAGE;
	return 0;
}

int tstime_src_begin(struct tstime_src *s, struct tstime_run *r)
{
	r->cg_fd = r->cg_procs_fd = -1;
	s->cg_ok = 0;
	if (s->no_cgroup)
		snprintf(s->cg_why, sizeof(s->cg_why), "--no-cgroup");
	else if (!tstime_cg_open(&s->cg, s->cg_why, sizeof(s->cg_why))) {
		s->cg_ok = 1;
		/* CLONE_INTO_CGROUP takes a v2 cgroup only */
		r->cg_fd = s->cg.v1 ? -1 : s->cg.fd;
		r->cg_procs_fd = s->cg.procs_fd;
	}
	r->xfd[0] = r->xfd[1] = -1;
	r->drain = NULL;
	r->drain_arg = NULL;
	r->tick_ms = -1;
	switch (s->kind) {
	case TSTIME_SRC_KMOD:
		return tstime_kmod_begin(s);
	case TSTIME_SRC_TASKSTATS:
		tstime_taskstats_begin(s);
		/*
		 * Read the records in batches, every TSTIME_BATCH_MS (the
		 * 8 MiB socket buffers hold ~6,000 exits), not a wakeup per
		 * exit message: tstime's own time stays apart from the
		 * command's, and small.
		 */
		r->drain = tstime_taskstats_drain;
		r->drain_arg = s;
		r->tick_ms = s->keep_delayacct ? 10 : TSTIME_BATCH_MS;
		/* a parent's SIGCHLD disposition is read while it lives */
		if (!s->cg_ok && r->tick_ms > TSTIME_BATCH_NOCG_MS)
			r->tick_ms = TSTIME_BATCH_NOCG_MS;
		return 0;
	case TSTIME_SRC_RUSAGE:
		break;
	}
	return 0;
}

/* The run's cgroup counter, or NULL with the reason in s->cg_why. */
static const struct tstime_cg_stat *src_counter(struct tstime_src *s,
						const struct tstime_run *r,
						struct tstime_cg_stat *cs,
						int *unsettled)
{
	int ret;

	if (!s->cg_ok)
		return NULL;
	s->cg_ok = 0;
	if (r->cg_errno) {
		snprintf(s->cg_why, sizeof(s->cg_why),
			 "the command could not move into %.200s: %s", s->cg.path,
			 strerror(r->cg_errno));
		return NULL;
	}
	/* what we did not wait for may run on: then no waiting here */
	*unsettled = !tstime_cg_settle(&s->cg, r->left ? 0 : TSTIME_SETTLE_MS);
	ret = tstime_cg_read_final(&s->cg, cs, r->left || *unsettled ? 0 :
				   TSTIME_TAIL_MS);
	if (ret) {
		snprintf(s->cg_why, sizeof(s->cg_why), "%.200s/cpu.stat: %s",
			 s->cg.path, strerror(-ret));
		return NULL;
	}
	s->cg_ok = 1;
	return cs;
}

/*
 * --tree: what the total has beyond its rows is the exit-path line (the
 * module's EXIT records lack the exit paths its c* folds in, too).
 */
static void tree_rest(struct tstime_result *res)
{
	uint64_t rows = 0, total = res->user_ns + res->sys_ns;
	size_t i;

	if (!res->tree_avail)
		return;
	for (i = 0; i < res->ncomms; i++)
		rows += res->comms[i].cpu_ns;
	res->exit_paths_ns = total > rows ? total - rows : 0;
}

int tstime_src_end(struct tstime_src *s, const struct tstime_run *r,
		   struct tstime_result *res, char *err, size_t errlen)
{
	const struct tstime_cg_stat *counter;
	struct tstime_cg_stat cs;
	int ret = 0, lost = 0, unsettled = 0;

	res->source = tstime_src_name(s);
	res->procs = res->threads = -1;
	res->max_rss_kb = r->ru_maxrss_kb;
	res->ru = r->ru;
	res->ru_user_ns = r->ru_user_ns;
	res->ru_sys_ns = r->ru_sys_ns;
	res->tree_note = NULL;
	switch (s->kind) {
	case TSTIME_SRC_KMOD:
		ret = tstime_kmod_end(s, res, err, errlen);
		res->has_records = 1;
		break;
	case TSTIME_SRC_TASKSTATS:
		ret = tstime_taskstats_end(s, r, res);
		if (ret)
			snprintf(err, errlen, "%s", strerror(-ret));
		if (r->ru_maxrss_kb > res->max_rss_kb)
			res->max_rss_kb = r->ru_maxrss_kb;
		res->ru = r->ru;
		res->has_records = 1;
		lost = s->tree_acct.lost;
		break;
	case TSTIME_SRC_RUSAGE:
		res->exact = 0;
		res->tree_note = "the rusage source has no per-task data";
		break;
	}
	if (ret)
		return ret;
	counter = src_counter(s, r, &cs, &unsettled);
	tstime_total(res, counter, s->kind == TSTIME_SRC_KMOD && res->exact,
		     lost, r->left || unsettled);
	tree_rest(res);
	if (unsettled && !r->left)
		snprintf(s->warn, sizeof(s->warn),
			 "tasks of the run were still exiting %d s after the last was reaped",
			 TSTIME_SETTLE_MS / 1000);
	if (r->left) {
		if (r->stop_signal)
			snprintf(s->warn, sizeof(s->warn),
				 "descendants still running were not waited for: SIG%s came after the command exited",
				 sigabbrev_np(r->stop_signal) ?
				 sigabbrev_np(r->stop_signal) : "?");
		else
			snprintf(s->warn, sizeof(s->warn),
				 "descendants still running were not waited for (--no-wait)");
	}
	return 0;
}

void tstime_src_close(struct tstime_src *s)
{
	char why[PATH_MAX + 64] = "";

	tstime_cg_close(&s->cg, why, sizeof(why));
	if (why[0])
		fprintf(stderr, "tstime: %s\n", why);
	tstime_kmod_close(s);
	tstime_taskstats_close(s);
}
