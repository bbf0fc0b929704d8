// SPDX-License-Identifier: GPL-2.0
/*
 * procfs source: a scan of /proc, clock-tick granularity, unprivileged.
 *
 * Per thread group: /proc/<tgid>/stat (+ status for uid and VmHWM); per
 * thread: task/<tid>/stat, status (context switches) and schedstat (run
 * queue wait), each with one read into a reused buffer via openat() on the
 * directory fds. x* = group times - sum of live threads (clamped at 0);
 * c* = cutime/cstime (waited-for children only: C_PARTIAL).
 *
 * A snapshot has two phases: the walk reads every task; then, in a tight
 * window with the system counters (lib/src/rt_window.h), the threads that may
 * have run (running or runnable, or their times moved at this read or at
 * the previous one) are read again, with their groups' x* and c*. The open
 * walks once, so that the first read already knows who moved.
 *
 * A parent's c* is read in the walk at its place, but a child that dies
 * meanwhile is gone or still there at its own place: if the parent was
 * read before the reaping and the child after, the child is in neither
 * (clamped: its parent's c* did not grow by what it had shown), and the
 * next interval shows all of it in the parent's c* again (off +). So the
 * window reads again, first, the c* of the parents of the groups that
 * vanished since the previous read and of the groups that may have run,
 * then the groups that may have run; one of those that is gone by then is
 * dropped from the snapshot (it died: its parent's c* has it now, or will
 * be clamped, never counted twice).
 *
 * A single-threaded group whose schedstat counter did not move since its
 * last full read is not read again: its records are the last ones
 * (ptop_pfs_marks in procfs_read.h says why that is exact), so a walk over
 * sleeping tasks costs one small read each (so that ptop costs no more
 * than top). Not while memory is shown: reclaim moves RSS without the task.
 * The same per thread (keyed by tid): a thread whose schedstat did not
 * move keeps its last record. When only process rows are shown, a
 * process is one record and its threads are not read while none of
 * them dies (procfs_gx.h).
 *
 * The parts: the walk (procfs_walk.c), the window (procfs_window.c),
 * their state (procfs_src.h); here open, read and close.
 *
 * Cheap reads: no file whose generation walks something global beyond
 * the tasks, or holds interrupts off for long (never /proc/timer_list).
 * Per refresh: readdir of /proc and <pid>/task, <pid>/stat, status,
 * schedstat and the threads' (each one task's), /proc/stat twice (O(CPUs
 * x interrupts) sums) and cpuidle's per-CPU state times twice (one
 * counter each); at open, config.gz; procfs_read.h has each file's cost.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pidns.h"
#include "procfs_src.h"
#include "rt_window.h"

static int procfs_probe_schedstat(struct procfs_priv *pp)
{
	/* exists iff the per-thread task/<tid>/schedstat does */
	return ptop_pfs_read_at(&pp->pfs, pp->pfs.root_fd,
				"self/schedstat") >= 0;
}

static int procfs_read(struct ptop_src *src, struct ptop_sample *out);
static void procfs_close(struct ptop_src *src);

static int procfs_open(struct ptop_src *src)
{
	struct ptop_sample scratch;
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
	/* a first walk, so that the first read knows which threads moved */
	ptop_sample_init(&scratch);
	pp->opening = 1;
	pp->now_ns = ptop_pfs_boot_ns();
	ret = procfs_read(src, &scratch);
	pp->opening = 0;
	ptop_sample_free(&scratch);
	if (ret) {
		procfs_close(src);
		return ret;
	}
	src->caps = PTOP_DATA_X | PTOP_DATA_C | PTOP_DATA_CTXSW | PTOP_DATA_MEM;
	/*
	 * 1%, and every counter read rounded down to a clock tick: two per
	 * CPU, its idle and the task that kept it busy (ns idle or not)
	 */
	src->tol_ppm = 10000;
	src->res_ns = 2 * ptop_pfs_ticks_ns(&pp->pfs, 1);
	src->res_what = "procfs ticks";
	if (pp->has_schedstat)
		src->caps |= PTOP_DATA_RDELAY;
	ret = ptop_pfs_kconfig(src->cfg.proc_root, &apart);
	/* a container's /proc: its tasks against the machine's idle */
	if (ptop_pidns_child(src->cfg.proc_root))
		src->caps |= PTOP_CAP_PIDNS;
	snprintf(src->note, sizeof(src->note),
		 "clock-tick times (1/%ld s); c* has only waited-for children "
		 "(self-reaped children and orphans are lost)%s%s",
		 pp->pfs.hz, ret ? "; no kernel config: assuming steal is "
		 "kept apart from tasks" : "",
		 src->caps & PTOP_CAP_PIDNS ? "; pid namespace: its tasks "
		 "only, machine total not accounted (no taskstats here)" : "");
	return 0;
}

/*
 * After the window: the records the next walk may take again. A group
 * running or runnable as last read is read in full next time (it may be
 * on a CPU since before its counter was read).
 */
static int procfs_keep_last(struct procfs_priv *pp,
			    const struct ptop_sample *out)
{
	struct ptop_pfs_marks *m = &pp->marks;
	size_t i;

	for (i = 0; i < m->n[m->cur]; i++) {
		struct ptop_pfs_mark *mk = &m->v[m->cur][i];

		if (mk->quiet_ok && (out->recs[mk->data].state == 'R' ||
				     out->recs[mk->data + 1].state == 'R'))
			mk->quiet_ok = 0;
	}
	ptop_pfs_marks_end(m);
	m = &pp->tmarks;
	for (i = 0; i < m->n[m->cur]; i++) {
		struct ptop_pfs_mark *mk = &m->v[m->cur][i];

		if (out->recs[mk->data].state == 'R')
			mk->quiet_ok = 0;
	}
	ptop_pfs_marks_end(m);
	if (out->nrecs > pp->last_cap) {
		struct ptop_rec *n = realloc(pp->last, out->nrecs *
						   sizeof(*n));

		if (!n)
			return -ENOMEM;
		pp->last = n;
		pp->last_cap = out->nrecs;
	}
	if (out->nrecs)
		memcpy(pp->last, out->recs, out->nrecs * sizeof(*out->recs));
	pp->nlast = out->nrecs;
	return 0;
}

static int procfs_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct procfs_priv *pp = src->priv;
	struct procfs_scan sc = { .src = src, .pp = pp, .out = out };
	int ret, nice;

	sc.use_marks = pp->has_schedstat && !(src->cfg.need & PTOP_DATA_MEM);
	/* a group as one record: unless a thread's own counters are shown */
	pp->groups_only = (src->cfg.need & PTOP_DATA_GROUPS_ONLY) &&
		!(src->cfg.need & (PTOP_DATA_CTXSW | PTOP_DATA_RDELAY));
	if (!pp->groups_only)
		ptop_pfs_gx_reset(&pp->gx);
	/* records change kind: one interval cannot pair them up */
	if (pp->groups_only != pp->was_groups_only && !pp->opening)
		out->flags |= PTOP_SAMPLE_INEXACT;
	pp->was_groups_only = pp->groups_only;
	ptop_pfs_gx_begin(&pp->gx);
	ptop_pfs_marks_begin(&pp->marks);
	ptop_pfs_marks_begin(&pp->tmarks);
	sc.use_tmarks = pp->has_schedstat && !pp->groups_only;
	ptop_pfs_kconfig(src->cfg.proc_root, &out->sys_apart);
	pp->cur = !pp->cur;
	pp->seen[pp->cur].n = 0;
	pp->nhot = 0;
	if (pp->hot_thread)
		memset(pp->hot_thread, 0, pp->hot_thread_cap);
	/* phase one: the walk */
	nice = ptop_walk_nice_begin(src->cfg.rt_window);
	ret = ptop_pfs_for_each_group_q(&pp->pfs, ptop_procfs_quiet,
					ptop_procfs_group, &sc);
	/*
	 * The catch-up pass: processes forked during the walk behind its
	 * place (the directory is read in chunks: one forked after the last
	 * chunk was read is not in it, whatever its pid), read now so that
	 * what they ran so far goes to this interval.
	 */
	if (!ret && src->cfg.after_walk)
		src->cfg.after_walk(src->cfg.arg);
	if (!ret)
		ret = ptop_procfs_note_met(pp, out);
	sc.use_marks = 0;
	if (!ret)
		ret = ptop_pfs_for_each_group_q(&pp->pfs, ptop_procfs_met,
						ptop_procfs_group, &sc);
	ptop_walk_nice_end(src->cfg.rt_window, nice);
	if (!ret)
		ret = ptop_procfs_window(src, out);
	if (!ret)
		ret = procfs_keep_last(pp, out);
	ptop_pfs_gx_end(&pp->gx);
	if (ret) {
		ptop_src_set_err(src, "scanning %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		return ret;
	}
	/* walk order is not (tid, start) order; an empty walk has no array */
	if (pp->seen[pp->cur].n > 1)
		qsort(pp->seen[pp->cur].v, pp->seen[pp->cur].n,
		      sizeof(*pp->seen[pp->cur].v), ptop_procfs_seen_cmp);
	return 0;
}

static void procfs_close(struct ptop_src *src)
{
	struct procfs_priv *pp = src->priv;

	if (!pp)
		return;
	ptop_pfs_close(&pp->pfs);
	free(pp->seen[0].v);
	free(pp->seen[1].v);
	free(pp->met);
	free(pp->hot);
	free(pp->hot_thread);
	free(pp->cparents);
	free(pp->remap);
	ptop_pfs_marks_free(&pp->marks);
	ptop_pfs_marks_free(&pp->tmarks);
	ptop_pfs_gx_free(&pp->gx);
	free(pp->last);
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
