// SPDX-License-Identifier: GPL-2.0
/*
 * procfs source: a scan of /proc, clock-tick granularity, unprivileged.
 *
 * Per thread group: /proc/<tgid>/stat (+ status for uid and VmHWM); per
 * thread: task/<tid>/stat, status (context switches) and schedstat (run
 * queue wait), each with one read into a reused buffer via openat() on the
 * directory fds. x* = group times - sum of live threads (clamped at 0);
 * c* = cutime/cstime (waited-for children only: C_PARTIAL).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs_read.h"
#include "src.h"

struct procfs_priv {
	struct ptop_pfs pfs;
	int has_schedstat;
};

struct procfs_scan {
	struct ptop_src *src;
	struct procfs_priv *pp;
	struct ptop_sample *out;
	int tgid;
	uint32_t nthreads;
	uint64_t sum_u, sum_s;	/* ns, live threads */
};

static int procfs_thread(void *arg, int tid, int dfd)
{
	struct procfs_scan *sc = arg;
	struct ptop_pfs *p = &sc->pp->pfs;
	struct ptop_pfs_status status;
	struct ptop_pfs_stat st;
	struct ptop_ts_record *r;
	uint64_t run, delay;
	ssize_t n;
	int ret;

	ret = ptop_pfs_read_stat(p, dfd, &st);
	if (ret <= 0)
		return ret;	/* gone or torn by an exit: skip it */
	r = ptop_sample_add(sc->out, PTOP_TS_KIND_THREAD);
	if (!r)
		return -ENOMEM;
	r->pid = tid;
	r->tgid = sc->tgid;
	r->ppid = st.ppid;
	r->acct_ptgid = st.ppid;
	r->state = st.state;
	memcpy(r->comm, st.comm, sizeof(r->comm));
	r->start_ns = ptop_pfs_ticks_ns(p, st.starttime);
	r->utime_ns = ptop_pfs_ticks_ns(p, st.utime);
	r->stime_ns = ptop_pfs_ticks_ns(p, st.stime);
	r->minflt = st.minflt;
	r->majflt = st.majflt;
	sc->sum_u += r->utime_ns;
	sc->sum_s += r->stime_ns;
	sc->nthreads++;

	/* r may move with the next ptop_sample_add(): none below */
	n = ptop_pfs_read_at(p, dfd, "status");
	if (n >= 0 && !ptop_pfs_parse_status(p->buf, &status)) {
		r->uid = status.uid;
		r->nvcsw = status.nvcsw;
		r->nivcsw = status.nivcsw;
	}
	if (sc->pp->has_schedstat && (sc->src->cfg.need & PTOP_NEED_RDELAY)) {
		n = ptop_pfs_read_at(p, dfd, "schedstat");
		if (n >= 0 && !ptop_pfs_parse_schedstat(p->buf, &run, &delay)) {
			r->rdelay_ns = delay;
			r->flags |= PTOP_TS_RECF_HAS_RDELAY;
		}
	}
	return 0;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static int procfs_group(void *arg, int tgid, int dfd)
{
	struct procfs_scan *sc = arg;
	struct ptop_pfs *p = &sc->pp->pfs;
	struct ptop_pfs_status status;
	struct ptop_pfs_stat st;
	struct ptop_ts_record *r;
	size_t mark = sc->out->nrecs;
	ssize_t n;
	int ret;

	ret = ptop_pfs_read_stat(p, dfd, &st);
	if (ret <= 0)
		return ret;
	n = ptop_pfs_read_at(p, dfd, "status");
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	if (ptop_pfs_parse_status(p->buf, &status))
		return 0;

	sc->tgid = tgid;
	sc->nthreads = 0;
	sc->sum_u = 0;
	sc->sum_s = 0;
	ret = ptop_pfs_for_each_thread(p, dfd, procfs_thread, sc);
	if (ret == -ENOENT || (!ret && !sc->nthreads)) {
		sc->out->nrecs = mark;	/* the group died meanwhile */
		return 0;
	}
	if (ret)
		return ret;

	r = ptop_sample_add(sc->out, PTOP_TS_KIND_GROUP);
	if (!r)
		return -ENOMEM;
	r->flags = PTOP_TS_RECF_HAS_X | PTOP_TS_RECF_HAS_C |
		   PTOP_TS_RECF_C_PARTIAL;
	r->pid = tgid;
	r->tgid = tgid;
	r->ppid = st.ppid;
	r->acct_ptgid = st.ppid;
	r->uid = status.uid;
	r->nthreads = sc->nthreads;
	r->state = st.state;
	memcpy(r->comm, st.comm, sizeof(r->comm));
	r->start_ns = ptop_pfs_ticks_ns(p, st.starttime);
	r->xutime_ns = sub0(ptop_pfs_ticks_ns(p, st.utime), sc->sum_u);
	r->xstime_ns = sub0(ptop_pfs_ticks_ns(p, st.stime), sc->sum_s);
	r->cutime_ns = ptop_pfs_ticks_ns(p, st.cutime);
	r->cstime_ns = ptop_pfs_ticks_ns(p, st.cstime);
	r->minflt = st.minflt;
	r->majflt = st.majflt;
	r->rss_kb = st.rss_pages * p->page_kb;
	r->hiwater_rss_kb = status.vmhwm_kb;
	return 0;
}

static int procfs_probe_schedstat(struct procfs_priv *pp)
{
	/* exists iff the per-thread task/<tid>/schedstat does */
	return ptop_pfs_read_at(&pp->pfs, pp->pfs.root_fd,
				"self/schedstat") >= 0;
}

static int procfs_open(struct ptop_src *src)
{
	struct procfs_priv *pp;
	unsigned int apart;
	int ret;

	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return -ENOMEM;
	ret = ptop_pfs_open(&pp->pfs, src->cfg.proc_root);
	if (ret) {
		ptop_src_set_err(src, "cannot open %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		free(pp);
		return ret == -EACCES ? -EPERM : -ENOENT;
	}
	pp->has_schedstat = procfs_probe_schedstat(pp);
	src->priv = pp;
	src->caps = PTOP_CAP_X | PTOP_CAP_C | PTOP_CAP_CTXSW;
	/* 1%, and every counter read rounded down to a clock tick */
	src->tol_ppm = 10000;
	src->res_ns = ptop_pfs_ticks_ns(&pp->pfs, 1);
	if (pp->has_schedstat)
		src->caps |= PTOP_CAP_RDELAY;
	ret = ptop_pfs_kconfig(src->cfg.proc_root, &apart);
	snprintf(src->note, sizeof(src->note),
		 "clock-tick times (1/%ld s); c* has only waited-for children "
		 "(self-reaped children and orphans are lost)%s",
		 pp->pfs.hz, ret ? "; no kernel config: assuming steal is "
		 "kept apart from tasks" : "");
	return 0;
}

static int procfs_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct procfs_priv *pp = src->priv;
	struct procfs_scan sc = { .src = src, .pp = pp, .out = out };
	int ret;

	ptop_pfs_kconfig(src->cfg.proc_root, &out->sys_apart);
	ret = ptop_pfs_sample_begin(&pp->pfs, out);
	if (ret) {
		ptop_src_set_err(src, "%s/stat: %s", src->cfg.proc_root,
				 strerror(-ret));
		return ret;
	}
	ret = ptop_pfs_for_each_group(&pp->pfs, procfs_group, &sc);
	if (!ret)
		ret = ptop_pfs_sample_end(&pp->pfs, out);
	if (ret) {
		ptop_src_set_err(src, "scanning %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		return ret;
	}
	return 0;
}

static void procfs_close(struct ptop_src *src)
{
	struct procfs_priv *pp = src->priv;

	if (!pp)
		return;
	ptop_pfs_close(&pp->pfs);
	free(pp);
	src->priv = NULL;
}

const struct ptop_src_ops ptop_src_procfs_ops = {
	.name = "procfs",
	.desc = "/proc scan, clock ticks",
	.open = procfs_open,
	.read = procfs_read,
	.close = procfs_close,
};
