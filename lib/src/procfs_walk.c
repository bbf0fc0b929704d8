// SPDX-License-Identifier: GPL-2.0
/*
 * The procfs source's walk: every group and thread of /proc, or the last
 * records of those that did not run (src_procfs.c, procfs_src.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs_src.h"
#include "../reserve.h"

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

int ptop_procfs_seen_cmp(const void *a, const void *b)
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

	was = prev->n ? bsearch(&key, prev->v, prev->n, sizeof(key),
				ptop_procfs_seen_cmp) :
			NULL;
	moved = was ? was->own_ns != own :
		pp->opening && ptop_pfs_busy_life(own, r->start_ns, pp->now_ns);
	*hot = r->state == 'R' || moved || (was && was->moved);
	*any_moved |= moved;
	return seen_add(&pp->seen[pp->cur], r->pid, r->start_ns, own, moved);
}

int ptop_procfs_mark_rec(struct procfs_priv *pp, size_t idx, uint8_t what)
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
	return ptop_procfs_mark_rec(pp, idx, PFS_HOT);
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

int ptop_procfs_group(void *arg, int tgid, int dfd)
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
int ptop_procfs_quiet(void *arg, int tgid, uint64_t ino)
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
int ptop_procfs_note_met(struct procfs_priv *pp,
			 const struct ptop_sample *out)
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

int ptop_procfs_met(void *arg, int tgid, uint64_t ino)
{
	struct procfs_scan *sc = arg;
	uint32_t key = tgid;

	sc->ino = ino;
	return sc->pp->nmet && bsearch(&key, sc->pp->met, sc->pp->nmet,
				       sizeof(key), u32_cmp);
}
