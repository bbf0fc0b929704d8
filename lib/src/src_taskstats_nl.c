// SPDX-License-Identifier: GPL-2.0
/*
 * taskstats_nl source: the stock kernel's taskstats over generic netlink,
 * plus its exit listener and the proc connector. Needs CAP_NET_ADMIN.
 *
 * Live threads: enumerated from /proc (identity (tid, start_ns) from the
 * stat starttime, as the procfs source does), counters from one
 * TASKSTATS_CMD_GET per thread. The precise runtime is
 * cpu_run_virtual_total (se.sum_exec_runtime, ns); ac_utime/ac_stime (us,
 * tick-sampled) only give the user/system split (ptop_cputime_adjust()).
 * (cpu_run_real_total is utime+stime: tick based.) On 6.18 (taskstats v16)
 * the delay accounting fields are filled with kernel.task_delayacct=0; the
 * open probes it, sets the sysctl to 1 only when the probe reads 0 (and
 * leaves it on: another ptop or tstime may rely on it by then, and turning
 * it off under them would make their runtimes read 0), and if that fails too uses ac_utime+ac_stime as runtime
 * for live and dead tasks alike (consistency over precision), without
 * PTOP_CAP_NS. A running task's sum_exec_runtime is as of its last tick or
 * switch (at most one tick behind).
 *
 * Dead threads: final stats from the exit listener (one message per dead
 * thread), fed to the accounting hierarchy (lib/src/tsacct.h): a group's
 * accounting parent is its parent at fork (proc connector FORK events; for
 * tasks running at open, their /proc ppid); x* and c* are synthetic
 * cumulative counters that start at 0 at open. Self-reaped children and
 * double-fork orphans thus land at their original ancestor, not at init.
 *
 * Events are merged in kernel order: the connector stream (fork, exit) is
 * the timeline, and each connector EXIT consumes the exit listener's record
 * of that pid (which the kernel sends first). Lost messages (ENOBUFS) make
 * the sample PTOP_SAMPLE_INEXACT; a task that vanished without an exit
 * record is closed with its last reported counters.
 *
 * Cost (no more than top's): a single-threaded group whose schedstat
 * counter did not move since its last full read (ptop_pfs_marks,
 * procfs_read.h) is neither read from /proc nor queried over netlink: it
 * did not run, so its counters are what that read gave
 * (ptop_tsacct_scan_same()).
 *
 * Cheap reads: no file whose generation walks something global beyond
 * the tasks, or holds interrupts off for long (never /proc/timer_list).
 * Per refresh: the /proc files of the procfs source's walk (procfs_read.h
 * has each one's cost), one TASKSTATS_CMD_GET per thread read (that
 * task's counters, O(1)), the exit listener's and the proc connector's
 * messages (one per event); at open, /sys/devices/system/cpu/online and
 * kernel.task_delayacct.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pidns.h"
#include "rt_window.h"
#include "src_taskstats_nl.h"
#include "../reserve.h"

#define TASKSTATS_NL_RCVBUF	(8 << 20)

void taskstats_nl_counters(const struct taskstats_nl_priv *p,
			   const struct ptop_tsnl_stats *st,
			   struct ptop_tsacct_counters *c)
{
	memset(c, 0, sizeof(*c));
	/* consistency over precision: one runtime for live and dead */
	c->runtime_ns = p->precise ? st->run_virtual_ns :
			(st->utime_us + st->stime_us) * 1000;
	c->raw_user = st->utime_us;
	c->raw_sys = st->stime_us;
	c->counts = (struct ptop_rec_counts){
		.rdelay_ns = p->precise ? st->cpu_delay_ns : 0,
		.nvcsw = st->nvcsw, .nivcsw = st->nivcsw,
		.minflt = st->minflt, .majflt = st->majflt,
	};
	c->hiwater_kb = st->hiwater_rss_kb;
	c->uid = st->uid;
	c->ppid = st->ppid;
	c->exit_code = st->exitcode;
	memcpy(c->comm, st->comm, sizeof(c->comm) - 1);
}

/* --- ops ------------------------------------------------------------------ */

static void taskstats_nl_close(struct ptop_src *src)
{
	struct taskstats_nl_priv *p = src->priv;

	if (!p)
		return;
	ptop_cnproc_close(&p->cn);
	ptop_tsnl_close(&p->ts);
	ptop_pfs_close(&p->pfs);
	ptop_pfs_marks_free(&p->marks);
	ptop_tsacct_free(&p->acct);
	free(p->exits);
	free(p->hot);
	free(p);
	src->priv = NULL;
}

/*
 * The rounding of this read: none with ns runtimes and ns idle (cpuidle);
 * a tick per CPU when the idle is /proc/stat's ticks (no cpuidle here);
 * two without ns runtimes (tick-sampled utime+stime and the idle).
 */
static void taskstats_nl_bound(struct ptop_src *src)
{
	struct taskstats_nl_priv *p = src->priv;
	uint64_t tick = ptop_pfs_ticks_ns(&p->pfs, 1);

	if (!p->precise) {
		src->res_ns = 2 * tick;
		src->res_what = "taskstats ticks";
	} else if (p->pfs.idle_ticks) {
		src->res_ns = tick;
		src->res_what = "idle in ticks";
	} else {
		src->res_ns = 0;
		src->res_what = NULL;
	}
}

static int taskstats_nl_open(struct ptop_src *src)
{
	struct ptop_sample scratch;
	struct taskstats_nl_priv *p;
	unsigned int apart;
	const char *how;
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->old_delayacct = -1;
	p->ts.fd = p->ts.lfd = -1;
	p->cn.fd = -1;
	p->pfs.root_fd = -1;
	src->priv = p;
	ptop_tsacct_init(&p->acct, 0);

	/* the kernel refuses the exit listener there: say why, not EINVAL */
	if (ptop_pidns_self_child(src->cfg.proc_root)) {
		ptop_src_set_err(src, "cannot run in a child pid namespace: the kernel's taskstats exit listener serves the initial one only");
		ret = -ENOENT;
		goto err;
	}
	ret = ptop_tsnl_open(&p->ts);
	if (ret) {
		ptop_src_set_err(src, ret == -ENOENT ?
				 "the kernel has no taskstats genetlink family" :
				 "taskstats netlink: %s", strerror(-ret));
		goto err;
	}
	ret = ptop_tsnl_probe_precise(&p->ts);
	if (ret == -EPERM || ret == -EACCES) {
		ptop_src_set_err(src, "taskstats needs CAP_NET_ADMIN: give the program the file capability (setcap cap_net_admin+ep PROGRAM, or make install-setcap), or run as root");
		ret = -EPERM;
		goto err;
	}
	if (ret < 0) {
		ptop_src_set_err(src, "taskstats query: %s", strerror(-ret));
		goto err;
	}
	p->precise = ret;
	how = "";
	if (!p->precise && ptop_tsnl_delayacct_get() == 0 && !ptop_tsnl_delayacct_set(1)) {
		p->old_delayacct = 0;
		ret = ptop_tsnl_probe_precise(&p->ts);
		p->precise = ret > 0;
		how = p->precise ? "; set kernel.task_delayacct=1 (left on)" :
			"";
		if (!p->precise) {
			ptop_tsnl_delayacct_set(0);
			p->old_delayacct = -1;
		}
	}
	ret = ptop_tsnl_listen(&p->ts, NULL, TASKSTATS_NL_RCVBUF);
	if (ret) {
		ptop_src_set_err(src, "taskstats exit listener: %s",
				 strerror(-ret));
		ret = ret == -EACCES ? -EPERM : ret;
		goto err;
	}
	ret = ptop_cnproc_open(&p->cn, TASKSTATS_NL_RCVBUF);
	if (ret) {
		ptop_src_set_err(src, "proc connector: %s", strerror(-ret));
		ret = ret == -EACCES ? -EPERM : ret;
		goto err;
	}
	ret = ptop_pfs_open(&p->pfs, src->cfg.proc_root);
	if (ret) {
		ptop_src_set_err(src, "cannot open %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		goto err;
	}
	p->has_schedstat = ptop_pfs_read_at(&p->pfs, p->pfs.root_fd,
					    "self/schedstat") >= 0;
	/* tasks running now: their accounting parent is their ppid */
	ptop_tsacct_init(&p->acct, ptop_pfs_ticks_ns(&p->pfs, 1));
	if (p->precise)
		p->acct.thread_flags = PTOP_RECF_HAS_RDELAY;
	ptop_sample_init(&scratch);
	p->acct.out = &scratch;
	p->acct.gen = 1;
	/* with counters: the first read then knows which threads moved */
	ret = taskstats_nl_scan(p, 1, 1);
	if (!ret)
		ret = taskstats_nl_first_kernel_c_again(p);
	ptop_sample_free(&scratch);
	p->acct.out = NULL;
	p->lost_at_open = p->acct.lost;
	if (ret) {
		ptop_src_set_err(src, "scanning %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		goto err;
	}

	src->caps = PTOP_DATA_X | PTOP_DATA_C | PTOP_CAP_C_COMPLETE |
		    PTOP_CAP_EXITS | PTOP_DATA_CTXSW | PTOP_DATA_MEM |
		    PTOP_CAP_EXIT_TAIL;
	if (p->precise)
		src->caps |= PTOP_CAP_NS | PTOP_DATA_RDELAY;
	/* 1%; with ticks somewhere, what taskstats_nl_bound() says */
	src->tol_ppm = 10000;
	taskstats_nl_bound(src);
	ret = ptop_pfs_kconfig(src->cfg.proc_root, &apart);
	snprintf(src->note, sizeof(src->note), "%s%s%s; c* counts from open",
		 p->precise ? "ns runtimes (cpu_run_virtual_total)" :
		 "no delay accounting: us runtimes from tick-sampled "
		 "utime+stime, no run-queue delay",
		 how, ret ? "; no kernel config: assuming steal is kept "
		 "apart from tasks" : "");
	return 0;

err:
	taskstats_nl_close(src);
	return ret;
}

static int taskstats_nl_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct taskstats_nl_priv *p = src->priv;
	int ret;

	p->acct.gen++;
	p->acct.lost = p->lost_at_open;
	p->lost_at_open = 0;
	p->acct.nlost = 0;
	p->acct.tail_ns = 0;
	p->acct.out = out;
	ptop_pfs_kconfig(src->cfg.proc_root, &out->sys_apart);
	/* dead tasks first (forks come before their exits), then the walk */
	ret = taskstats_nl_process_events(p);
	if (!ret) {
		int nice = ptop_walk_nice_begin(src->cfg.rt_window);

		ret = taskstats_nl_scan(p, 1, 0);
		ptop_walk_nice_end(src->cfg.rt_window, nice);
	}
	if (!ret)
		ret = taskstats_nl_window(src, out);
	/* tasks that died during the walk or the window: closed here too */
	if (!ret)
		ret = taskstats_nl_process_events(p);
	if (!ret)
		ret = taskstats_nl_kernel_c_again(p);
	if (!ret)
		ret = ptop_tsacct_sweep(&p->acct);
	/* after the last exit records: every reaped child's is in */
	if (!ret)
		ptop_tsacct_tails(&p->acct);
	if (!ret)
		ret = ptop_tsacct_emit(&p->acct);
	if (ret)
		ptop_src_set_err(src, "taskstats read: %s", strerror(-ret));
	if (p->acct.lost)
		out->flags |= PTOP_SAMPLE_INEXACT;
	out->nlost = p->acct.nlost;
	taskstats_nl_bound(src);
	p->acct.out = NULL;
	return ret;
}

const struct ptop_src_ops ptop_src_taskstats_nl_ops = {
	.name = "taskstats_nl",
	.desc = "stock taskstats netlink + exit listener",
	.open = taskstats_nl_open,
	.read = taskstats_nl_read,
	.close = taskstats_nl_close,
	.asks_net_admin = true,
};
