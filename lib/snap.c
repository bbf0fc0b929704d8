// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot building: a full sample replaces the task set, an incremental
 * one (kmod "since N") is merged into the previous set (snap_merge.c):
 * tasks absent from the answer keep their values, EXIT records remove
 * theirs. Here: the lookups, the counters held monotonic, the update.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "snap_internal.h"

/* struct ptop_snap.id: unique over every snapshotter of the process */
static uint64_t snap_ids;

const struct ptop_rec *snap_find(const struct ptop_rec *v, size_t n,
				 uint32_t pid, uint64_t start_ns)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = snap_key_cmp(v[mid].pid, v[mid].start_ns, pid, start_ns);

		if (!c)
			return &v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct ptop_rec *ptop_snap_find_thread(const struct ptop_snap *sn,
						   uint32_t pid,
						   uint64_t start_ns)
{
	return snap_find(sn->threads, sn->nthreads, pid, start_ns);
}

static int same_exec(const struct ptop_rec *a,
		     const struct ptop_rec *b)
{
	return (a->flags & PTOP_RECF_EXEC) && (b->flags & PTOP_RECF_EXEC) &&
	       a->exec_old_pid == b->exec_old_pid &&
	       a->exec_old_start_ns == b->exec_old_start_ns;
}

const struct ptop_rec *ptop_snap_prev_thread(const struct ptop_snap *prev,
						   const struct ptop_rec *t)
{
	const struct ptop_rec *p;

	if (!prev)
		return NULL;
	p = ptop_snap_find_thread(prev, t->pid, t->start_ns);
	if (!(t->flags & PTOP_RECF_EXEC) || (p && same_exec(p, t)))
		return p;
	/* the interval of the exec: continue the exec'er's old record */
	return ptop_snap_find_thread(prev, t->exec_old_pid, t->exec_old_start_ns);
}

const struct ptop_rec *ptop_snap_find_group(const struct ptop_snap *sn,
						  uint32_t tgid,
						  uint64_t start_ns)
{
	return snap_find(sn->groups, sn->ngroups, tgid, start_ns);
}

const struct ptop_rec *ptop_snap_find_tgid(const struct ptop_snap *sn,
						 uint32_t tgid)
{
	size_t lo = 0, hi = sn->ngroups;

	/* first entry with pid >= tgid; a pid has at most a few incarnations */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sn->groups[mid].pid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sn->ngroups && sn->groups[lo].pid == tgid) {
		/* the newest incarnation is the live one */
		while (lo + 1 < sn->ngroups && sn->groups[lo + 1].pid == tgid)
			lo++;
		return &sn->groups[lo];
	}
	return NULL;
}

/*
 * The user/system split of a precise total may shift between samples
 * (it is scaled from tick samples); keep both parts monotonic as the
 * kernel's cputime_adjust() does. A total that went backwards is left
 * alone: the interval math treats it as a new incarnation.
 */
static void keep_monotonic(uint64_t *u, uint64_t *s, uint64_t pu, uint64_t ps)
{
	uint64_t total = *u + *s;

	if (total < pu + ps)
		return;
	if (*u < pu) {
		*u = pu;
		*s = total - pu;
	}
	if (*s < ps) {
		*s = ps;
		*u = total - ps;
	}
}

/*
 * A total of the same task (same pid and start time, no exec in between)
 * can dip a little: a reading torn by the scheduler updating it, or the
 * module leaving out what a thread ran after the instant of the pass.
 * Hold the previous value: shown as a new incarnation, the whole total
 * would be counted again.
 */
#define OWN_DIP_MAX_NS 100000000ULL

static void hold_own_dip(struct ptop_rec *r, const struct ptop_rec *p)
{
	uint64_t now = ptop_rec_own(r), before = ptop_rec_own(p);

	if ((r->flags & PTOP_RECF_EXEC) || now >= before ||
	    before - now > OWN_DIP_MAX_NS)
		return;
	r->utime_ns = p->utime_ns;
	r->stime_ns = p->stime_ns;
	r->steal_ns = p->steal_ns;
}

static void fix_split(struct ptop_rec *r, const struct ptop_rec *p)
{
	if (!p)
		return;
	hold_own_dip(r, p);
	keep_monotonic(&r->utime_ns, &r->stime_ns, p->utime_ns, p->stime_ns);
	if (r->kind != PTOP_REC_GROUP)
		return;
	/*
	 * x* and c* of the same group (same pid and start time) only grow.
	 * A source that derives them (procfs: group minus live threads, each
	 * rounded on its own) can dip by a tick; hold the previous value, so
	 * the dip is neither shown as a new incarnation nor counted twice
	 * when it comes back.
	 */
	if (ptop_rec_x(r) < ptop_rec_x(p)) {
		r->xutime_ns = p->xutime_ns;
		r->xstime_ns = p->xstime_ns;
		r->xsteal_ns = p->xsteal_ns;
	}
	if (ptop_rec_c(r) < ptop_rec_c(p)) {
		r->cutime_ns = p->cutime_ns;
		r->cstime_ns = p->cstime_ns;
		r->csteal_ns = p->csteal_ns;
	}
	keep_monotonic(&r->xutime_ns, &r->xstime_ns, p->xutime_ns,
		       p->xstime_ns);
	keep_monotonic(&r->cutime_ns, &r->cstime_ns, p->cutime_ns,
		       p->cstime_ns);
}

static int is_exit(const struct ptop_rec *r)
{
	return r->flags & PTOP_RECF_EXIT;
}

/* Collect the sample's live records of one kind, sorted. */
static int collect(const struct ptop_sample *sample, enum ptop_rec_kind kind,
		   struct ptop_rec **v, size_t *cap, size_t *n)
{
	size_t i, k = 0;

	for (i = 0; i < sample->nrecs; i++)
		if (sample->recs[i].kind == kind && !is_exit(&sample->recs[i]))
			k++;
	if (snap_reserve(v, cap, k))
		return -ENOMEM;
	k = 0;
	for (i = 0; i < sample->nrecs; i++)
		if (sample->recs[i].kind == kind && !is_exit(&sample->recs[i]))
			(*v)[k++] = sample->recs[i];
	if (k)
		qsort(*v, k, sizeof(**v), snap_rec_cmp);
	*n = k;
	return 0;
}

/* The sample's EXIT records of both kinds, as they came. */
static int collect_exits(const struct ptop_sample *sample,
			 struct ptop_snap *next)
{
	size_t i, k;

	for (i = 0, k = 0; i < sample->nrecs; i++)
		k += is_exit(&sample->recs[i]);
	if (snap_reserve(&next->exits, &next->cap_exits, k))
		return -ENOMEM;
	for (i = 0, k = 0; i < sample->nrecs; i++)
		if (is_exit(&sample->recs[i]))
			next->exits[k++] = sample->recs[i];
	next->nexits = k;
	return 0;
}

/*
 * Each record of next against its own in prev. A record that an
 * incremental answer did not bring is prev's own copy: nothing to fix.
 */
static void fix_splits(const struct ptop_snap *prev, struct ptop_snap *next,
		       bool incremental)
{
	size_t i, k;
	size_t nt = incremental ? next->nupd_threads : next->nthreads;
	size_t ng = incremental ? next->nupd_groups : next->ngroups;

	for (k = 0; k < nt; k++) {
		i = incremental ? next->upd_threads[k] : k;
		fix_split(&next->threads[i],
			  ptop_snap_prev_thread(prev, &next->threads[i]));
	}
	for (k = 0; k < ng; k++) {
		i = incremental ? next->upd_groups[k] : k;
		fix_split(&next->groups[i],
			  ptop_snap_find_group(prev, next->groups[i].pid,
					       next->groups[i].start_ns));
	}
}

int ptop_snap_apply(struct ptop_snapper *s, const struct ptop_sample *sample,
		    unsigned int caps)
{
	const struct ptop_snap *prev = ptop_snap_cur(s);
	struct ptop_snap *next = &s->snap[s->taken ? !s->cur : s->cur];
	int incremental = prev && (sample->flags & PTOP_SAMPLE_INCREMENTAL);
	bool base;
	int ret;

	/* next is rewritten: until it is complete, no merge builds on it */
	base = incremental && next->id && prev->merged_from == next->id;
	next->id = 0;
	/* an incremental answer aside; a full one is the new set itself */
	ret = collect(sample, PTOP_REC_THREAD,
		      incremental ? &s->ans_threads : &next->threads,
		      incremental ? &s->cap_ans_threads : &next->cap_threads,
		      incremental ? &s->nans_threads : &next->nthreads);
	if (!ret)
		ret = collect(sample, PTOP_REC_GROUP,
			      incremental ? &s->ans_groups : &next->groups,
			      incremental ? &s->cap_ans_groups : &next->cap_groups,
			      incremental ? &s->nans_groups : &next->ngroups);
	if (ret)
		return ret;

	ret = collect_exits(sample, next);
	if (ret)
		return ret;
	next->merged_from = 0;
	next->nupd_threads = next->nupd_groups = 0;
	next->ndropped = 0;
	next->ndropped_threads = next->ndropped_groups = 0;
	if (incremental) {
		ret = snap_merge(s, prev, next, base);
		if (ret)
			return ret;
		next->merged_from = prev->id;
		next->ndropped = next->ndropped_threads + next->ndropped_groups;
	}

	next->npending = 0;
	/* an incremental answer keeps the absent: only a full one loses */
	if (prev && !incremental && (caps & PTOP_CAP_EXITS)) {
		ret = snap_note_pending(prev, next);
		if (ret)
			return ret;
	}

	if (prev)
		fix_splits(prev, next, incremental);
	next->seq = s->taken + 1;
	next->id = __atomic_add_fetch(&snap_ids, 1, __ATOMIC_RELAXED);
	next->time_ns = sample->time_ns;
	next->ncpu = sample->ncpu;
	next->flags = sample->flags & ~PTOP_SAMPLE_INCREMENTAL;
	next->sys_apart = sample->sys_apart;
	next->caps = caps;
	next->cpu = sample->cpu;
	next->window_ns = sample->window_ns;
	next->nlost = sample->nlost;
	next->tol_ppm = sample->tol_ppm;
	next->res_ns = sample->res_ns;
	next->res_what = sample->res_what;

	if (s->taken)
		s->cur = !s->cur;
	s->taken++;
	return 0;
}

void ptop_snapper_init(struct ptop_snapper *s, struct ptop_src *src)
{
	memset(s, 0, sizeof(*s));
	s->src = src;
	ptop_sample_init(&s->sample);
}

void ptop_snapper_free(struct ptop_snapper *s)
{
	int i;

	for (i = 0; i < 2; i++) {
		free(s->snap[i].threads);
		free(s->snap[i].groups);
		free(s->snap[i].exits);
		free(s->snap[i].pending);
		free(s->snap[i].upd_threads);
		free(s->snap[i].upd_groups);
		free(s->snap[i].dropped_threads);
		free(s->snap[i].dropped_groups);
	}
	free(s->ans_threads);
	free(s->ans_groups);
	ptop_sample_free(&s->sample);
	memset(s, 0, sizeof(*s));
}

int ptop_snap_update(struct ptop_snapper *s)
{
	int ret = ptop_src_read(s->src, &s->sample);

	if (ret)
		return ret;
	return ptop_snap_apply(s, &s->sample, s->src->caps);
}
