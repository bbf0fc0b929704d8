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
#include "procfs_gx.h"
#include "procfs_read.h"
#include "rt_window.h"
#include "../src.h"
#include "../reserve.h"

/* A thread's own time as the previous read saw it. */
struct pfs_seen {
	uint32_t tid;
	uint64_t start_ns;
	uint64_t own_ns;
	int moved;	/* since the read before (at the open: a busy life) */
};

struct pfs_seen_set {
	struct pfs_seen *v;
	size_t n, cap;
};

/* A group with threads to read again: its records in the sample. */
struct pfs_hot {
	size_t first;		/* its first THREAD record */
	size_t group;		/* its GROUP record (after its threads) */
	int tgid;
	int one;		/* one record for its threads (procfs_gx.h) */
	uint64_t xu, xs;	/* then: its x* */
};

struct procfs_priv {
	struct ptop_pfs pfs;
	int has_schedstat;
	struct pfs_seen_set seen[2];	/* previous read, this read */
	int cur;
	int opening;		/* the open's walk: no previous read */
	uint64_t now_ns;	/* CLOCK_BOOTTIME at the open's walk */
	struct pfs_hot *hot;
	size_t nhot, hot_cap;
	uint8_t *hot_thread;	/* per sample record: PFS_* */
	size_t hot_thread_cap;
	size_t *cparents;	/* GROUP records whose c* the window reads */
	size_t ncparents, cparents_cap;
	size_t *remap;		/* scratch of drop_gone() */
	size_t remap_cap;
	struct ptop_pfs_marks marks;	/* who did not run (procfs_read.h) */
	struct ptop_pfs_marks tmarks;	/* the same of threads, by tid */
	struct ptop_rec *last;	/* the last read's records */
	size_t nlast, last_cap;
	uint32_t *met;		/* the groups this walk met, sorted */
	size_t nmet, met_cap;
	struct ptop_pfs_gxs gx;	/* processes as one record (procfs_gx.h) */
	int groups_only;	/* this read gives them so */
	int was_groups_only;	/* the last read did */
};

struct procfs_scan {
	struct ptop_src *src;
	struct procfs_priv *pp;
	struct ptop_sample *out;
	int tgid;
	uint32_t nthreads;
	uint64_t sum_u, sum_s;	/* ns, live threads */
	int any_hot;		/* a thread of this group may have run */
	int moved;		/* a thread of this group moved at this read */
	int use_marks;		/* skip the groups that did not run */
	uint64_t ino;		/* of the group's /proc directory */
	unsigned int nquiet;	/* groups not read again */
	int sum_only;		/* threads: only sum their times */
	int use_tmarks;		/* skip the threads that did not run */
	uint64_t tino;		/* of the thread's task/ directory */
};

static int seen_cmp(const void *a, const void *b)
{
	const struct pfs_seen *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return 0;
}

static int seen_add(struct pfs_seen_set *set, uint32_t tid, uint64_t start,
		    uint64_t own, int moved)
{
	if (ptop_reserve(&set->v, &set->cap, set->n + 1, sizeof(*set->v), 1024))
		return -ENOMEM;
	set->v[set->n++] = (struct pfs_seen){ tid, start, own, moved };
	return 0;
}

/*
 * Note the thread's time for the next read; may it run before the
 * window? Running or runnable now, or its time moved at this read or at
 * the previous one (it ran lately: one that wakes once per interval may
 * have been asleep at this read). A sleeping one, new or not, stays at
 * its walk value unless it wakes meanwhile (what it runs then goes to
 * the next interval).
 */
static int thread_seen(struct procfs_priv *pp, const struct ptop_rec *r,
		       int *hot, int *any_moved)
{
	const struct pfs_seen_set *prev = &pp->seen[!pp->cur];
	struct pfs_seen key = { r->pid, r->start_ns, 0, 0 };
	const struct pfs_seen *was;
	uint64_t own = r->utime_ns + r->stime_ns;
	int moved;

	was = prev->n ? bsearch(&key, prev->v, prev->n, sizeof(key), seen_cmp) :
			NULL;
	moved = was ? was->own_ns != own :
		pp->opening && ptop_pfs_busy_life(own, r->start_ns, pp->now_ns);
	*hot = r->state == 'R' || moved || (was && was->moved);
	*any_moved |= moved;
	return seen_add(&pp->seen[pp->cur], r->pid, r->start_ns, own, moved);
}

/* struct procfs_priv.hot_thread: per record */
#define PFS_HOT		1	/* a thread the window reads again */
#define PFS_CREAD	2	/* a group whose c* the window read first */
#define PFS_GONE	4	/* dropped: gone by the window */

static int mark_rec(struct procfs_priv *pp, size_t idx, uint8_t what)
{
	if (idx >= pp->hot_thread_cap) {
		size_t ncap = pp->hot_thread_cap ? pp->hot_thread_cap : 1024;
		uint8_t *n;

		while (ncap <= idx)
			ncap *= 2;
		n = realloc(pp->hot_thread, ncap);
		if (!n)
			return -ENOMEM;
		memset(n + pp->hot_thread_cap, 0, ncap - pp->hot_thread_cap);
		pp->hot_thread = n;
		pp->hot_thread_cap = ncap;
	}
	pp->hot_thread[idx] |= what;
	return 0;
}

static int mark_hot_thread(struct procfs_priv *pp, size_t idx)
{
	return mark_rec(pp, idx, PFS_HOT);
}

static int note_hot_group(struct procfs_priv *pp, size_t first, size_t group,
			  int tgid, const struct ptop_pfs_gx *one)
{
	if (ptop_reserve(&pp->hot, &pp->hot_cap, pp->nhot + 1,
			 sizeof(*pp->hot), 256))
		return -ENOMEM;
	pp->hot[pp->nhot++] = (struct pfs_hot){ first, group, tgid, !!one,
						one ? one->xu : 0,
						one ? one->xs : 0 };
	return 0;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * A task's counter, before anything else of it: the one its quiet test
 * just read when there was one (no second read), else dfd/schedstat.
 */
static int take_mark(struct ptop_pfs *p, const struct ptop_pfs_marks *m,
		     uint32_t id, int dfd, uint64_t *run, uint64_t *delay,
		     uint64_t *pcount)
{
	if (m->read_id == id) {
		*run = m->read_run;
		*delay = m->read_delay;
		*pcount = m->read_pcount;
		return m->read_ok;
	}
	return ptop_pfs_read_mark_at(p, dfd, "schedstat", run, delay, pcount);
}

/*
 * Before a thread's directory is opened: if it did not run since its
 * last full read (its schedstat, relative to the task/ being walked),
 * its last record, as it was.
 */
static int procfs_thread_quiet(void *arg, int tid, uint64_t ino)
{
	struct procfs_scan *sc = arg;
	struct procfs_priv *pp = sc->pp;
	const struct ptop_pfs_mark *was;
	struct ptop_pfs_mark mk;
	struct ptop_rec *r;
	char name[32];
	int ret;

	sc->tino = ino;
	if (!sc->use_tmarks || sc->sum_only)
		return 0;
	snprintf(name, sizeof(name), "%d/schedstat", tid);
	was = ptop_pfs_marks_quiet_at(&pp->pfs, &pp->tmarks, pp->pfs.task_fd,
				      name, tid, ino);
	if (!was || was->data >= pp->nlast ||
	    pp->last[was->data].kind != PTOP_REC_THREAD ||
	    pp->last[was->data].pid != (uint32_t)tid ||
	    pp->last[was->data].tgid != (uint32_t)sc->tgid)
		return 0;
	r = ptop_sample_add(sc->out, PTOP_REC_THREAD);
	if (!r)
		return -ENOMEM;
	*r = pp->last[was->data];
	mk = *was;
	mk.data = sc->out->nrecs - 1;
	sc->sum_u += r->utime_ns;
	sc->sum_s += r->stime_ns;
	sc->nthreads++;
	ret = seen_add(&pp->seen[pp->cur], r->pid, r->start_ns,
		       r->utime_ns + r->stime_ns, 0);
	if (!ret)
		ret = ptop_pfs_marks_add(&pp->tmarks, &mk);
	return ret ? ret : 1;
}

static int procfs_thread(void *arg, int tid, int dfd)
{
	struct procfs_scan *sc = arg;
	struct ptop_pfs *p = &sc->pp->pfs;
	struct ptop_pfs_status status;
	struct ptop_pfs_stat st;
	struct ptop_pfs_mark mk = { .tgid = tid, .ino = sc->tino };
	struct ptop_rec *r;
	uint64_t run, delay = 0;
	int ret, hot, moved = 0, have_mark = 0;
	ssize_t n;

	/* the counter first: a run after it shows at the next walk */
	if (sc->use_tmarks && !sc->sum_only) {
		have_mark = take_mark(p, &sc->pp->tmarks, tid, dfd, &mk.run_ns,
				      &delay, &mk.pcount);
		if (have_mark < 0)
			return have_mark;
	}
	ret = ptop_pfs_read_stat(p, dfd, &st);
	if (ret <= 0)
		return ret;	/* gone or torn by an exit: skip it */
	if (sc->sum_only) {
		sc->sum_u += ptop_pfs_ticks_ns(p, st.utime);
		sc->sum_s += ptop_pfs_ticks_ns(p, st.stime);
		sc->nthreads++;
		return 0;
	}
	r = ptop_sample_add(sc->out, PTOP_REC_THREAD);
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
	ret = thread_seen(sc->pp, r, &hot, &moved);
	sc->moved |= moved;
	if (!ret && hot) {
		sc->any_hot = 1;
		ret = mark_hot_thread(sc->pp, sc->out->nrecs - 1);
	}
	if (!ret && have_mark) {
		/* not when it moved at this read: at the next, it ran lately */
		mk.quiet_ok = !moved && st.state != 'R';
		mk.data = sc->out->nrecs - 1;
		ret = ptop_pfs_marks_add(&sc->pp->tmarks, &mk);
		if (sc->src->cfg.need & PTOP_DATA_RDELAY) {
			r->rdelay_ns = delay;
			r->flags |= PTOP_RECF_HAS_RDELAY;
		}
	}
	if (ret)
		return ret;

	/* r may move with the next ptop_sample_add(): none below */
	n = ptop_pfs_read_at(p, dfd, "status");
	if (n >= 0 && !ptop_pfs_parse_status(p->buf, &status)) {
		r->uid = status.uid;
		r->nvcsw = status.nvcsw;
		r->nivcsw = status.nivcsw;
	}
	if (sc->pp->has_schedstat && !have_mark &&
	    (sc->src->cfg.need & PTOP_DATA_RDELAY)) {
		n = ptop_pfs_read_at(p, dfd, "schedstat");
		if (n >= 0 && !ptop_pfs_parse_schedstat(p->buf, &run, &delay)) {
			r->rdelay_ns = delay;
			r->flags |= PTOP_RECF_HAS_RDELAY;
		}
	}
	return 0;
}

/*
 * The threads of a process as one THREAD record, pid = tgid: its total
 * less x* (procfs_gx.h). Every thread is read (stat only) when the group
 * is new to the source or lost a thread since its last read.
 */
static int group_as_one(struct procfs_scan *sc, int dfd,
			const struct ptop_pfs_stat *st,
			const struct ptop_pfs_status *status,
			struct ptop_pfs_gx *one)
{
	struct procfs_priv *pp = sc->pp;
	struct ptop_pfs *p = &pp->pfs;
	const struct ptop_pfs_gx *was;
	uint64_t start = ptop_pfs_ticks_ns(p, st->starttime);
	uint64_t tu = ptop_pfs_ticks_ns(p, st->utime);
	uint64_t ts = ptop_pfs_ticks_ns(p, st->stime);
	struct ptop_rec *r;
	int measured = 0, ret, hot;

	was = ptop_pfs_gx_last(&pp->gx, sc->tgid, start);
	/* single-threaded as last time: no listing (procfs_gx.h) */
	ret = ptop_pfs_gx_single(&pp->gx, was, sc->tgid, st->nthreads,
				 st->state);
	if (!ret)
		ret = ptop_pfs_gx_list(p, &pp->gx, dfd);
	if (ret < 0)
		return ret;
	if (!was || ptop_pfs_gx_lost(&pp->gx, was)) {
		sc->sum_only = 1;
		ret = ptop_pfs_for_each_thread(p, dfd, procfs_thread, sc);
		sc->sum_only = 0;
		if (ret)
			return ret;
		if (!sc->nthreads)
			return -ENOENT;
		measured = 1;
	}
	ret = ptop_pfs_gx_add(&pp->gx, was, sc->tgid, start, tu, ts, measured,
			      sc->sum_u, sc->sum_s, one);
	if (ret)
		return ret;
	sc->nthreads = pp->gx.nscratch;
	r = ptop_sample_add(sc->out, PTOP_REC_THREAD);
	if (!r)
		return -ENOMEM;
	r->pid = sc->tgid;
	r->tgid = sc->tgid;
	r->ppid = st->ppid;
	r->acct_ptgid = st->ppid;
	r->uid = status->uid;
	r->state = st->state;
	memcpy(r->comm, st->comm, sizeof(r->comm));
	r->start_ns = start;
	r->utime_ns = sub0(tu, one->xu);
	r->stime_ns = sub0(ts, one->xs);
	r->minflt = st->minflt;
	r->majflt = st->majflt;
	ret = thread_seen(pp, r, &hot, &sc->moved);
	if (!ret && hot) {
		sc->any_hot = 1;
		ret = mark_hot_thread(pp, sc->out->nrecs - 1);
	}
	return ret;
}

static int procfs_group(void *arg, int tgid, int dfd)
{
	struct procfs_scan *sc = arg;
	struct ptop_pfs *p = &sc->pp->pfs;
	struct ptop_pfs_status status;
	struct ptop_pfs_stat st;
	struct ptop_rec *r;
	size_t mark = sc->out->nrecs;
	struct ptop_pfs_mark mk = { .tgid = tgid, .ino = sc->ino };
	struct ptop_pfs_gx one;
	int have_mark = 0;
	ssize_t n;
	int ret;

	/* the counter first: a run after it shows at the next walk */
	if (sc->use_marks) {
		uint64_t delay;

		have_mark = take_mark(p, &sc->pp->marks, tgid, dfd, &mk.run_ns,
				      &delay, &mk.pcount);
		if (have_mark < 0)
			return have_mark;
	}
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
	sc->any_hot = 0;
	sc->moved = 0;
	if (sc->pp->groups_only)
		ret = group_as_one(sc, dfd, &st, &status, &one);
	else
		ret = ptop_pfs_for_each_thread_q(p, dfd, procfs_thread_quiet,
						 procfs_thread, sc);
	if (ret == -ENOENT || (!ret && !sc->nthreads)) {
		sc->out->nrecs = mark;	/* the group died meanwhile */
		return 0;
	}
	if (ret)
		return ret;

	r = ptop_sample_add(sc->out, PTOP_REC_GROUP);
	if (!r)
		return -ENOMEM;
	r->flags = PTOP_RECF_HAS_X | PTOP_RECF_HAS_C |
		   PTOP_RECF_C_PARTIAL;
	r->pid = tgid;
	r->tgid = tgid;
	r->ppid = st.ppid;
	r->acct_ptgid = st.ppid;
	r->uid = status.uid;
	r->nthreads = sc->nthreads;
	r->state = st.state;
	memcpy(r->comm, st.comm, sizeof(r->comm));
	r->start_ns = ptop_pfs_ticks_ns(p, st.starttime);
	if (sc->pp->groups_only) {
		r->xutime_ns = one.xu;
		r->xstime_ns = one.xs;
	} else {
		r->xutime_ns = sub0(ptop_pfs_ticks_ns(p, st.utime), sc->sum_u);
		r->xstime_ns = sub0(ptop_pfs_ticks_ns(p, st.stime), sc->sum_s);
	}
	r->cutime_ns = ptop_pfs_ticks_ns(p, st.cutime);
	r->cstime_ns = ptop_pfs_ticks_ns(p, st.cstime);
	r->minflt = st.minflt;
	r->majflt = st.majflt;
	r->rss_kb = st.rss_pages * p->page_kb;
	r->hiwater_rss_kb = status.vmhwm_kb;
	if (have_mark) {
		/*
		 * single-threaded: [mark] its thread, [mark + 1] the group;
		 * not when its time moved at this read: at the next, it ran
		 * lately (thread_seen())
		 */
		mk.quiet_ok = sc->nthreads == 1 && sc->out->recs[mark].pid ==
			      (uint32_t)tgid && !sc->moved;
		mk.data = mark;
		ret = ptop_pfs_marks_add(&sc->pp->marks, &mk);
		if (ret)
			return ret;
	}
	if (sc->any_hot)
		return note_hot_group(sc->pp, mark, sc->out->nrecs - 1, tgid,
				      sc->pp->groups_only ? &one : NULL);
	return 0;
}

/*
 * Before a group's directory is opened: if it did not run since its last
 * full read, its last records, as they were, and no other read.
 */
static int procfs_quiet(void *arg, int tgid, uint64_t ino)
{
	struct procfs_scan *sc = arg;
	struct procfs_priv *pp = sc->pp;
	const struct ptop_pfs_mark *was;
	struct ptop_pfs_mark mk;
	struct ptop_rec *r;
	int ret, i;

	sc->ino = ino;
	if (!sc->use_marks)
		return 0;
	was = ptop_pfs_marks_quiet(&pp->pfs, &pp->marks, tgid, ino);
	if (!was || was->data + 1 >= pp->nlast ||
	    pp->last[was->data].kind != PTOP_REC_THREAD ||
	    pp->last[was->data + 1].kind != PTOP_REC_GROUP ||
	    pp->last[was->data + 1].pid != (uint32_t)tgid)
		return 0;
	mk = *was;
	mk.data = sc->out->nrecs;
	for (i = 0; i < 2; i++) {
		r = ptop_sample_add(sc->out, pp->last[was->data + i].kind);
		if (!r)
			return -ENOMEM;
		*r = pp->last[was->data + i];
	}
	r = &sc->out->recs[mk.data];
	if (pp->groups_only) {
		const struct ptop_pfs_gx *gx;

		gx = ptop_pfs_gx_last(&pp->gx, tgid, r->start_ns);
		if (!gx) {	/* its last read was before this mode */
			sc->out->nrecs -= 2;
			return 0;
		}
		ret = ptop_pfs_gx_keep(&pp->gx, gx);
		if (ret)
			return ret;
	}
	/* it did not run since its last read */
	ret = seen_add(&pp->seen[pp->cur], r->pid, r->start_ns,
		       r->utime_ns + r->stime_ns, 0);
	if (!ret)
		ret = ptop_pfs_marks_add(&pp->marks, &mk);
	sc->nquiet++;
	return ret ? ret : 1;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The groups the walk met (read or quiet), for the catch-up pass. */
static int note_met(struct procfs_priv *pp, const struct ptop_sample *out)
{
	size_t i;

	pp->nmet = 0;
	for (i = 0; i < out->nrecs; i++) {
		if (out->recs[i].kind != PTOP_REC_GROUP)
			continue;
		if (ptop_reserve(&pp->met, &pp->met_cap, pp->nmet + 1,
				 sizeof(*pp->met), 1024))
			return -ENOMEM;
		pp->met[pp->nmet++] = out->recs[i].pid;
	}
	if (pp->nmet > 1)
		qsort(pp->met, pp->nmet, sizeof(*pp->met), u32_cmp);
	return 0;
}

static int procfs_met(void *arg, int tgid, uint64_t ino)
{
	struct procfs_scan *sc = arg;
	uint32_t key = tgid;

	sc->ino = ino;
	return sc->pp->nmet && bsearch(&key, sc->pp->met, sc->pp->nmet,
				       sizeof(key), u32_cmp);
}

/* Read a task's stat by path (the walk's directory fds are closed). */
static int read_stat_path(struct ptop_pfs *p, const char *path,
			  struct ptop_pfs_stat *st)
{
	ssize_t n = ptop_pfs_read_at(p, p->root_fd, path);

	if (n < 0)
		return n == -ENOENT || n == -ESRCH ? 0 : (int)n;
	return ptop_pfs_parse_stat(p->buf, st) ? 0 : 1;
}

/*
 * Phase two for one group: its hot threads' times, then the group's own
 * stat for x* (group minus live threads, as in the walk) and c*. What
 * cannot be read again (died since the walk) keeps its walk values.
 */
static int reread_group(struct procfs_priv *pp, struct ptop_sample *out,
			const struct pfs_hot *h)
{
	struct ptop_pfs *p = &pp->pfs;
	struct ptop_rec *g = &out->recs[h->group];
	struct ptop_pfs_stat st;
	uint64_t sum_u = 0, sum_s = 0;
	char path[64];
	size_t i;
	int ret;

	for (i = h->first; i < h->group && !h->one; i++) {
		struct ptop_rec *r = &out->recs[i];

		if (i < pp->hot_thread_cap && (pp->hot_thread[i] & PFS_HOT)) {
			snprintf(path, sizeof(path), "%d/task/%u/stat", h->tgid,
				 r->pid);
			ret = read_stat_path(p, path, &st);
			if (ret < 0)
				return ret;
			if (ret && ptop_pfs_ticks_ns(p, st.starttime) == r->start_ns) {
				r->utime_ns = ptop_pfs_ticks_ns(p, st.utime);
				r->stime_ns = ptop_pfs_ticks_ns(p, st.stime);
				r->state = st.state;
			}
		}
		sum_u += r->utime_ns;
		sum_s += r->stime_ns;
	}
	snprintf(path, sizeof(path), "%d/stat", h->tgid);
	ret = read_stat_path(p, path, &st);
	if (ret < 0)
		return ret;
	if (!ret || ptop_pfs_ticks_ns(p, st.starttime) != g->start_ns ||
	    st.state == 'X') {
		/* died since the walk: dropped (see the top) */
		for (i = h->first; i <= h->group; i++)
			if (mark_rec(pp, i, PFS_GONE))
				return -ENOMEM;
		return 0;
	}
	if (h->one) {
		/* its threads as one: own = total - x* (procfs_gx.h) */
		out->recs[h->first].utime_ns =
			sub0(ptop_pfs_ticks_ns(p, st.utime), h->xu);
		out->recs[h->first].stime_ns =
			sub0(ptop_pfs_ticks_ns(p, st.stime), h->xs);
		out->recs[h->first].state = st.state;
	} else {
		g->xutime_ns = sub0(ptop_pfs_ticks_ns(p, st.utime), sum_u);
		g->xstime_ns = sub0(ptop_pfs_ticks_ns(p, st.stime), sum_s);
	}
	/* read already, before its children (see the top) */
	if (h->group >= pp->hot_thread_cap ||
	    !(pp->hot_thread[h->group] & PFS_CREAD)) {
		g->cutime_ns = ptop_pfs_ticks_ns(p, st.cutime);
		g->cstime_ns = ptop_pfs_ticks_ns(p, st.cstime);
	}
	g->state = st.state;
	return 0;
}

/* GROUP records, by tgid: where a parent's record is */
struct pfs_gref {
	uint32_t tgid;
	uint64_t start_ns;
	size_t idx;
};

static int gref_cmp(const void *a, const void *b)
{
	const struct pfs_gref *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return 0;
}

static struct pfs_gref *grefs(const struct ptop_rec *recs, size_t n,
			      size_t *count)
{
	struct pfs_gref *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i, k = 0;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++)
		if (recs[i].kind == PTOP_REC_GROUP)
			v[k++] = (struct pfs_gref){ recs[i].pid,
						    recs[i].start_ns, i };
	if (k > 1)
		qsort(v, k, sizeof(*v), gref_cmp);
	*count = k;
	return v;
}

/* by tgid alone (start 0: the first of that tgid), or tgid and start */
static const struct pfs_gref *gref_find(const struct pfs_gref *v, size_t n,
					uint32_t tgid, uint64_t start_ns,
					int by_start)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].tgid < tgid ||
		    (by_start && v[mid].tgid == tgid &&
		     v[mid].start_ns < start_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n || v[lo].tgid != tgid ||
	    (by_start && v[lo].start_ns != start_ns))
		return NULL;
	return &v[lo];
}

static int add_cparent(struct procfs_priv *pp, size_t idx)
{
	if (pp->hot_thread_cap > idx && (pp->hot_thread[idx] & PFS_CREAD))
		return 0;
	if (ptop_reserve(&pp->cparents, &pp->cparents_cap, pp->ncparents + 1,
			 sizeof(*pp->cparents), 64))
		return -ENOMEM;
	pp->cparents[pp->ncparents++] = idx;
	return mark_rec(pp, idx, PFS_CREAD);
}

/*
 * The parents whose c* the window reads first: of every group of the
 * last read that this walk did not meet (its parent as the last read
 * had it, or the nearest ancestor that is here), and of every group with
 * a thread to read again.
 */
static int plan_cparents(struct procfs_priv *pp, const struct ptop_sample *out)
{
	struct pfs_gref *cur, *last;
	size_t ncur, nlast, i;
	int ret = -ENOMEM;

	pp->ncparents = 0;
	cur = grefs(out->recs, out->nrecs, &ncur);
	last = grefs(pp->last, pp->nlast, &nlast);
	if (!cur || !last)
		goto out;
	ret = 0;
	for (i = 0; i < nlast && !ret; i++) {
		const struct ptop_rec *d = &pp->last[last[i].idx];
		const struct pfs_gref *to;
		unsigned int hops;
		uint32_t up;

		if (gref_find(cur, ncur, d->pid, d->start_ns, 1))
			continue;
		for (up = d->acct_ptgid, hops = 0; up && hops < 64; hops++) {
			const struct pfs_gref *was;

			to = gref_find(cur, ncur, up, 0, 0);
			if (to) {
				ret = add_cparent(pp, to->idx);
				break;
			}
			was = gref_find(last, nlast, up, 0, 0);
			up = was ? pp->last[was->idx].acct_ptgid : 0;
		}
	}
	for (i = 0; i < pp->nhot && !ret; i++) {
		const struct pfs_gref *to = gref_find(cur, ncur,
			out->recs[pp->hot[i].group].acct_ptgid, 0, 0);

		if (to)
			ret = add_cparent(pp, to->idx);
	}
out:
	free(cur);
	free(last);
	return ret;
}

static int reread_c(struct procfs_priv *pp, struct ptop_sample *out,
		    size_t idx)
{
	struct ptop_pfs *p = &pp->pfs;
	struct ptop_rec *g = &out->recs[idx];
	struct ptop_pfs_stat st;
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "%u/stat", g->pid);
	ret = read_stat_path(p, path, &st);
	if (ret <= 0 || ptop_pfs_ticks_ns(p, st.starttime) != g->start_ns)
		return ret < 0 ? ret : 0;
	g->cutime_ns = ptop_pfs_ticks_ns(p, st.cutime);
	g->cstime_ns = ptop_pfs_ticks_ns(p, st.cstime);
	return 0;
}

/*
 * Take the records of the groups gone by the window out of the sample;
 * the marks of this walk point at records: they move with them (a gone
 * group's goes).
 */
static void remap_marks(struct procfs_priv *pp, struct ptop_pfs_marks *m)
{
	size_t i, j;

	for (i = 0, j = 0; i < m->n[m->cur]; i++) {
		struct ptop_pfs_mark mk = m->v[m->cur][i];

		if (mk.data >= pp->remap_cap || pp->remap[mk.data] == (size_t)-1)
			continue;
		mk.data = pp->remap[mk.data];
		m->v[m->cur][j++] = mk;
	}
	m->n[m->cur] = j;
}

static int drop_gone(struct procfs_priv *pp, struct ptop_sample *out)
{
	size_t i, j = 0, any = 0;

	for (i = 0; i < out->nrecs && i < pp->hot_thread_cap; i++)
		any |= pp->hot_thread[i] & PFS_GONE;
	if (!any)
		return 0;
	if (out->nrecs > pp->remap_cap) {
		size_t *n = realloc(pp->remap, out->nrecs * sizeof(*n));

		if (!n)
			return -ENOMEM;
		pp->remap = n;
		pp->remap_cap = out->nrecs;
	}
	for (i = 0; i < out->nrecs; i++) {
		pp->remap[i] = (size_t)-1;
		if (i < pp->hot_thread_cap && (pp->hot_thread[i] & PFS_GONE))
			continue;
		pp->remap[i] = j;
		out->recs[j++] = out->recs[i];
	}
	out->nrecs = j;
	remap_marks(pp, &pp->marks);
	remap_marks(pp, &pp->tmarks);
	return 0;
}

/* Phase two: the tight window, between two reads of the system counters. */
static int procfs_window(struct ptop_src *src, struct ptop_sample *out)
{
	struct procfs_priv *pp = src->priv;
	struct ptop_rt_window w;
	size_t i;
	int ret;

	ret = plan_cparents(pp, out);
	if (ret)
		return ret;
	if (src->cfg.between_phases)
		src->cfg.between_phases(src->cfg.arg);
	ptop_rt_window_begin(&w, src->cfg.rt_window);
	ret = ptop_pfs_sample_begin(&pp->pfs, out);
	/* the parents first: a child reaped after is still in the sample */
	for (i = 0; !ret && i < pp->ncparents; i++) {
		ret = reread_c(pp, out, pp->cparents[i]);
		ptop_rt_window_check(&w);
	}
	for (i = 0; !ret && i < pp->nhot; i++) {
		ret = reread_group(pp, out, &pp->hot[i]);
		ptop_rt_window_check(&w);
	}
	if (!ret)
		ret = ptop_pfs_sample_end(&pp->pfs, out);
	ptop_rt_window_end(&w);
	if (!ret)
		ret = drop_gone(pp, out);
	return ret;
}

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
	ret = ptop_pfs_for_each_group_q(&pp->pfs, procfs_quiet, procfs_group,
					&sc);
	/*
	 * The catch-up pass: processes forked during the walk behind its
	 * place (the directory is read in chunks: one forked after the last
	 * chunk was read is not in it, whatever its pid), read now so that
	 * what they ran so far goes to this interval.
	 */
	if (!ret && src->cfg.after_walk)
		src->cfg.after_walk(src->cfg.arg);
	if (!ret)
		ret = note_met(pp, out);
	sc.use_marks = 0;
	if (!ret)
		ret = ptop_pfs_for_each_group_q(&pp->pfs, procfs_met,
						procfs_group, &sc);
	ptop_walk_nice_end(src->cfg.rt_window, nice);
	if (!ret)
		ret = procfs_window(src, out);
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
		      sizeof(*pp->seen[pp->cur].v), seen_cmp);
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
