// SPDX-License-Identifier: GPL-2.0
/*
 * tstime's taskstats source, for a stock kernel: the exit listener sends
 * the final counters of every task that exits (lib/tsnl.h); the ones that
 * descend from tstime are told apart by tstime_tree_acct.c from proc
 * connector fork events (lib/cnproc.h), or by the kernel itself
 * (tstime_filter.c). Exact; without the filter it costs a message per
 * exiting task of the whole system; needs CAP_NET_ADMIN. The ns runtime needs
 * kernel.task_delayacct=1 on older kernels: set and left on, as the
 * taskstats_nl source of ptop does, since another reader may rely on it by
 * the time we end (newer kernels fill it regardless).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tstime.h"

#define TASKSTATS_RCVBUF	(8 << 20)

int tstime_taskstats_open(struct tstime_src *s, char *err, size_t errlen)
{
	int ret;

	s->filter_flag = -1;

	ret = ptop_tsnl_open(&s->taskstats);
	if (ret) {
		snprintf(err, errlen, ret == -ENOENT ?
			 "the kernel has no taskstats genetlink family" :
			 "taskstats netlink: %s", strerror(-ret));
		return ret;
	}
	s->taskstats_open = 1;
	ret = ptop_tsnl_probe_precise(&s->taskstats);
	if (ret == -EPERM || ret == -EACCES) {
		snprintf(err, errlen, "taskstats needs CAP_NET_ADMIN: give tstime the file capability (setcap cap_net_admin+ep, or make install-setcap), or run as root");
		return -EPERM;
	}
	if (ret < 0) {
		snprintf(err, errlen, "taskstats query: %s", strerror(-ret));
		return ret;
	}
	/*
	 * Newer kernels fill the runtime without delay accounting: then
	 * leave the sysctl alone. Set to 1 by someone else: it may be
	 * needed, keep it set (taskstats_keep_delayacct()).
	 */
	if (!ret && ptop_tsnl_delayacct_get() == 0 && !ptop_tsnl_delayacct_set(1)) {
		s->old_delayacct = 0;
		ret = ptop_tsnl_probe_precise(&s->taskstats);
		if (ret <= 0) {
			ptop_tsnl_delayacct_set(0);
			s->old_delayacct = -1;
		}
	}
	s->keep_delayacct = ret > 0 &&
		     (s->old_delayacct >= 0 || ptop_tsnl_delayacct_get() == 1);
	ret = ptop_tsnl_listen(&s->taskstats, NULL, TASKSTATS_RCVBUF);
	if (ret) {
		snprintf(err, errlen, "taskstats exit listener: %s",
			 strerror(-ret));
		return ret == -EACCES ? -EPERM : ret;
	}
	ret = ptop_cnproc_open(&s->connector, TASKSTATS_RCVBUF);
	if (ret) {
		snprintf(err, errlen, "proc connector: %s", strerror(-ret));
		return ret == -EACCES ? -EPERM : ret;
	}
	s->connector_open = 1;
	/* tstime reads only these: fewer messages, less of its own time */
	ptop_cnproc_only_procs(&s->connector);
	ret = ptop_tree_acct_init(&s->tree_acct, getpid());
	if (ret) {
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	s->tree_acct_open = 1;
	return 0;
}

/*
 * Does the live process tgid ignore SIGCHLD (its children reap themselves,
 * wait4 never sees them)? 1, 0, or -errno when it is gone. SA_NOCLDWAIT
 * does the same and is not visible: such children count as waited for.
 */
static int taskstats_sigchld_ignored(void *arg, uint32_t tgid)
{
	char path[64], line[256];
	unsigned long long ign;
	int ret = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", tgid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "SigIgn: %llx", &ign) == 1) {
			ret = !!(ign & (1ULL << (SIGCHLD - 1)));
			break;
		}
	}
	fclose(f);
	return ret;
}

void tstime_taskstats_begin(struct tstime_src *s)
{
	int filtered;

	/*
	 * Only the tree's messages, filtered in the kernel; with the run's
	 * cgroup only its records. Without a BPF filter, all of them.
	 */
	filtered = !tstime_filter_attach(s, !s->cg_ok, s->filter_why,
					 sizeof(s->filter_why));
	/*
	 * What happened before the fork is not ours: what was queued
	 * before the filter, too (read as without it)
	 */
	tstime_taskstats_drain(s);
	s->tree_acct.all_ours = filtered && s->cg_ok;
	if (!s->cg_ok)
		tstime_taskstats_no_cgroup(s);
}

void tstime_taskstats_no_cgroup(struct tstime_src *s)
{
	s->tree_acct.sigchld_ignored = taskstats_sigchld_ignored;
	s->tree_acct.sigchld_arg = NULL;
}

static int taskstats_on_exit(void *arg, const struct ptop_tsnl_stats *pid,
			     const struct ptop_tsnl_stats *tgid)
{
	return ptop_tree_acct_exit(arg, pid);
}

static int taskstats_on_event(void *arg, const struct ptop_cnproc_event *ev)
{
	return ptop_tree_acct_event(arg, ev);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The kernel allocates a task's delay accounting at fork only while
 * kernel.task_delayacct is 1; without it the task's exit record has no
 * ns runtime. Another program that had set it (ptop, another tstime) may
 * restore 0 while our tree runs: set it again, and restore 0 at the end.
 */
static void taskstats_keep_delayacct(struct tstime_src *s)
{
	uint64_t now = mono_ns();

	if (!s->keep_delayacct || now - s->delayacct_checked < 5000000ULL)
		return;
	s->delayacct_checked = now;
	if (ptop_tsnl_delayacct_get() == 0 && !ptop_tsnl_delayacct_set(1) && s->old_delayacct < 0)
		s->old_delayacct = 0;
}

/*
 * Events first: the kernel sends a task's record before its EXIT, so the
 * records of the EXITs read are queued by then and pair with them as they
 * come (a small wait entry per EXIT, not a record copied and moved).
 */
void tstime_taskstats_drain(void *arg)
{
	struct tstime_src *s = arg;
	int lost = 0;

	taskstats_keep_delayacct(s);

	if (ptop_cnproc_drain(&s->connector, taskstats_on_event, &s->tree_acct,
			      &lost))
		lost = 1;
	if (ptop_tsnl_drain(&s->taskstats, taskstats_on_exit, &s->tree_acct,
			    &lost))
		lost = 1;
	if (lost)
		ptop_tree_acct_lost(&s->tree_acct);
}

int tstime_taskstats_end(struct tstime_src *s, const struct tstime_run *r,
			 struct tstime_result *res)
{
	struct pollfd pfd[2] = {
		{ .fd = s->taskstats.lfd, .events = POLLIN },
		{ .fd = s->connector.fd, .events = POLLIN },
	};
	int i, ret;

	/*
	 * The last EXIT events may be sent after the task was reaped: wait
	 * a little for our records to pair (records of unrelated tasks
	 * keep arriving, so do not wait for silence).
	 */
	for (i = 0; i < 20; i++) {
		tstime_taskstats_drain(s);
		if (!ptop_tree_acct_pending(&s->tree_acct))
			break;
		poll(pfd, 2, 10);
	}
	if (s->tree_acct.all_ours && tstime_filter_full(s)) {
		ptop_tree_acct_lost(&s->tree_acct);
		snprintf(s->filter_why, sizeof(s->filter_why),
			 "the tree outgrew the kernel filter's map");
	}
	ret = ptop_tree_acct_finish(&s->tree_acct);
	if (ret)
		return ret;
	res->user_ns = s->tree_acct.user_ns;
	res->sys_ns = s->tree_acct.sys_ns;
	res->has_unwaited = !!s->tree_acct.sigchld_ignored;
	res->unwaited_ns = s->tree_acct.unwaited_user_ns +
			   s->tree_acct.unwaited_sys_ns;
	res->unwaited_user_ns = s->tree_acct.unwaited_user_ns;
	res->procs = s->tree_acct.procs;
	res->threads = s->tree_acct.threads;
	res->max_rss_kb = s->tree_acct.max_rss_kb;
	res->exact = !s->tree_acct.lost && !s->tree_acct.tick_based;
	res->tree_avail = 1;
	res->comms = s->tree_acct.comms;
	res->ncomms = s->tree_acct.ncomms;
	if (s->tree_acct.all_ours)
		snprintf(s->info, sizeof(s->info),
			 "%llu exit records, the tree's only (filtered in the kernel), %llu tick-based%s%s",
			 (unsigned long long)(s->tree_acct.procs +
					      s->tree_acct.threads),
			 (unsigned long long)s->tree_acct.tick_based,
			 s->tree_acct.lost ? ", messages lost: " : "",
			 s->tree_acct.lost ? s->filter_why : "");
	else
		snprintf(s->info, sizeof(s->info),
			 "%llu exit records paired with their connector EXIT, %llu by ppid chains, %llu tick-based, %llu not reaped by wait4%s%s%s",
			 (unsigned long long)s->tree_acct.paired,
			 (unsigned long long)s->tree_acct.by_ppid,
			 (unsigned long long)s->tree_acct.tick_based,
			 (unsigned long long)s->tree_acct.unwaited,
			 s->tree_acct.lost ? ", messages lost" : "",
			 s->filter_why[0] ? "; no kernel filter: " : "",
			 s->filter_why);
	if (s->tree_acct.lost)
		snprintf(s->warn, sizeof(s->warn),
			 "netlink messages were lost (ENOBUFS): the total may miss tasks");
	else if (s->tree_acct.tick_based)
		snprintf(s->warn, sizeof(s->warn),
			 "%llu exit records had no ns runtime: tick-sampled times used",
			 (unsigned long long)s->tree_acct.tick_based);
	return 0;
}

void tstime_taskstats_close(struct tstime_src *s)
{
	tstime_filter_close(s);
	if (s->connector_open)
		ptop_cnproc_close(&s->connector);
	s->connector_open = 0;
	if (s->taskstats_open)
		ptop_tsnl_close(&s->taskstats);
	s->taskstats_open = 0;
	s->old_delayacct = -1;	/* left on: see the top of this file */
	if (s->tree_acct_open)
		ptop_tree_acct_free(&s->tree_acct);
	s->tree_acct_open = 0;
}
