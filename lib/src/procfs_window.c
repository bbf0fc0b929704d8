// SPDX-License-Identifier: GPL-2.0
/*
 * The procfs source's tight window: the parents whose c* may have
 * grown, then the threads that may have run, read again between two
 * reads of the system counters (src_procfs.c, procfs_src.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs_src.h"
#include "rt_window.h"
#include "../reserve.h"

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
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
			if (ptop_procfs_mark_rec(pp, i, PFS_GONE))
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
	return ptop_procfs_mark_rec(pp, idx, PFS_CREAD);
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
int ptop_procfs_window(struct ptop_src *src, struct ptop_sample *out)
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
