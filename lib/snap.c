// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot building: a full sample replaces the task set, an incremental
 * one (kmod "since N") is merged into the previous set: tasks absent from
 * the answer keep their values, EXIT records remove theirs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reserve.h"
#include "snap.h"

/* struct ptop_snap.id: unique over every snapshotter of the process */
static uint64_t snap_ids;

static int key_cmp(uint32_t a_pid, uint64_t a_start, uint32_t b_pid,
		   uint64_t b_start)
{
	if (a_pid != b_pid)
		return a_pid < b_pid ? -1 : 1;
	if (a_start != b_start)
		return a_start < b_start ? -1 : 1;
	return 0;
}

static int rec_cmp(const void *a, const void *b)
{
	const struct ptop_rec *x = a, *y = b;

	return key_cmp(x->pid, x->start_ns, y->pid, y->start_ns);
}

static const struct ptop_rec *find(const struct ptop_rec *v,
					 size_t n, uint32_t pid,
					 uint64_t start_ns)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = key_cmp(v[mid].pid, v[mid].start_ns, pid, start_ns);

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
	return find(sn->threads, sn->nthreads, pid, start_ns);
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
	return find(sn->groups, sn->ngroups, tgid, start_ns);
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
 * Room for n elements of size bytes in the array *vp (a pointer to the
 * array's pointer) of capacity *cap, doubling from first.
 */

static int reserve(struct ptop_rec **v, size_t *cap, size_t n)
{
	return ptop_reserve(v, cap, n, sizeof(**v), 256);
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
	if (reserve(v, cap, k))
		return -ENOMEM;
	k = 0;
	for (i = 0; i < sample->nrecs; i++)
		if (sample->recs[i].kind == kind && !is_exit(&sample->recs[i]))
			(*v)[k++] = sample->recs[i];
	if (k)
		qsort(*v, k, sizeof(**v), rec_cmp);
	*n = k;
	return 0;
}

static int reserve_idx(size_t **v, size_t *cap, size_t n)
{
	return ptop_reserve(v, cap, n, sizeof(**v), 64);
}

static int idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The first index in v[lo, n) whose key is not below (pid, start_ns). */
static size_t lower_bound(const struct ptop_rec *v, size_t lo, size_t n,
			  uint32_t pid, uint64_t start_ns)
{
	size_t hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(v[mid].pid, v[mid].start_ns, pid, start_ns) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Put the sorted records add[0, na) into the sorted array *v (of *n): a
 * record with the key of one there replaces it, the others go in their
 * places, and what follows them moves once, from the end (nothing moves
 * when no record is new). idx (may be NULL): where each went.
 * -EINVAL when add has a key twice (the caller merges by copying).
 */
static int apply_sorted(struct ptop_rec **v, size_t *cap, size_t *n,
			const struct ptop_rec *add, size_t na, size_t *idx)
{
	size_t *pos, j, m = 0, dst, src, len, from;
	bool *rep;
	int ret = -ENOMEM;

	pos = malloc((na ? na : 1) * sizeof(*pos));
	rep = malloc((na ? na : 1) * sizeof(*rep));
	if (!pos || !rep)
		goto out;
	for (j = 0; j < na; j++) {
		ret = -EINVAL;
		if (j && !rec_cmp(&add[j - 1], &add[j]))
			goto out;
		pos[j] = lower_bound(*v, j ? pos[j - 1] : 0, *n, add[j].pid,
				     add[j].start_ns);
		rep[j] = pos[j] < *n && !rec_cmp(&(*v)[pos[j]], &add[j]);
		m += !rep[j];
	}
	ret = -ENOMEM;
	if (reserve(v, cap, *n + m))
		goto out;
	for (j = na, dst = *n + m, src = *n; j-- > 0;) {
		from = rep[j] ? pos[j] + 1 : pos[j];
		len = src - from;
		if (len && dst - len != from)
			memmove(*v + dst - len, *v + from, len * sizeof(**v));
		dst -= len + 1;
		(*v)[dst] = add[j];
		if (idx)
			idx[j] = dst;
		src = pos[j];
	}
	*n += m;
	ret = 0;
out:
	free(pos);
	free(rep);
	return ret;
}

static int reserve_keys(struct ptop_snap_key **v, size_t *cap, size_t n)
{
	return ptop_reserve(v, cap, n, sizeof(**v), 16);
}

/*
 * Take the records at the sorted, distinct places pos[0, np) out of
 * v[0, *n): each run between them moves once, towards the front.
 */
static void remove_sorted(struct ptop_rec *v, size_t *n, const size_t *pos,
			  size_t np)
{
	size_t j, dst, from, len;

	if (!np)
		return;
	for (j = 0, dst = pos[0]; j < np; j++) {
		from = pos[j] + 1;
		len = (j + 1 < np ? pos[j + 1] : *n) - from;
		if (len)
			memmove(v + dst, v + from, len * sizeof(*v));
		dst += len;
	}
	*n -= np;
}

/*
 * Drop the records with the keys drop[0, nd) (sorted) from v[0, *n):
 * the base buffer of a merge losing what the merge it catches up with
 * dropped. -EINVAL when one is not there (not that base after all).
 */
static int drop_keys(struct ptop_rec *v, size_t *n,
		     const struct ptop_snap_key *drop, size_t nd)
{
	size_t *pos, j;

	if (!nd)
		return 0;
	pos = malloc(nd * sizeof(*pos));
	if (!pos)
		return -ENOMEM;
	for (j = 0; j < nd; j++) {
		pos[j] = lower_bound(v, j ? pos[j - 1] : 0, *n, drop[j].pid,
				     drop[j].start_ns);
		if (pos[j] >= *n || v[pos[j]].pid != drop[j].pid ||
		    v[pos[j]].start_ns != drop[j].start_ns ||
		    (j && pos[j] == pos[j - 1])) {
			free(pos);
			return -EINVAL;
		}
	}
	remove_sorted(v, n, pos, nd);
	free(pos);
	return 0;
}

/* The place of a record of v[0, n) with this key, if any, into pos[*np]. */
static void note_dead(const struct ptop_rec *v, size_t n, uint32_t pid,
		      uint64_t start_ns, size_t *pos, size_t *np)
{
	const struct ptop_rec *hit = find(v, n, pid, start_ns);

	if (hit)
		pos[(*np)++] = (size_t)(hit - v);
}

/* The side of a merge: one kind's arrays of the snapshot written. */
struct merge_out {
	struct ptop_rec **v;
	size_t *cap, *n;
	size_t **idx, *cap_idx, *nidx;	/* the answer's records' places */
	struct ptop_snap_key **drop;	/* keys dropped, sorted */
	size_t *cap_drop, *ndrop;
};

/*
 * *o->v becomes the previous live set (old) merged with the answer (upd,
 * sorted): answer records win, records named by an EXIT record are
 * dropped; *o->idx gets the answer records' places. When *o->v holds
 * the snapshot that old was itself merged from (base), it catches up:
 * what that merge dropped (old_drop) goes, what it brought (old_upd)
 * comes in, then the answer; otherwise the runs of old between the
 * answer's records are copied whole. The dead leave by runs that move
 * once; their keys go to *o->drop.
 */
static int merge(const struct ptop_rec *old, size_t nold,
		 const size_t *old_upd, size_t nold_upd,
		 const struct ptop_snap_key *old_drop, size_t nold_drop,
		 bool base, const struct ptop_rec *upd, size_t nupd,
		 const struct ptop_rec *exits, size_t nexits,
		 enum ptop_rec_kind kind, const struct merge_out *o)
{
	size_t i = 0, j, k = 0, e, q, d, npos = 0, *pos;
	struct ptop_rec **v = o->v;

	if (reserve_idx(o->idx, o->cap_idx, nupd ? nupd : 1))
		return -ENOMEM;
	*o->nidx = nupd;
	if (base) {
		struct ptop_rec *brought;
		int ret;

		brought = malloc((nold_upd ? nold_upd : 1) * sizeof(*brought));
		if (!brought)
			return -ENOMEM;
		for (j = 0; j < nold_upd; j++)
			brought[j] = old[old_upd[j]];
		ret = drop_keys(*v, o->n, old_drop, nold_drop);
		if (!ret)
			ret = apply_sorted(v, o->cap, o->n, brought, nold_upd,
					   NULL);
		free(brought);
		if (!ret && *o->n != nold)
			ret = -EINVAL;	/* not the base after all */
		if (!ret)
			ret = apply_sorted(v, o->cap, o->n, upd, nupd, *o->idx);
		if (ret == -ENOMEM)
			return ret;
		base = !ret;
		k = *o->n;
	}
	if (!base) {
		k = 0;	/* a base that was not one: written afresh */
		if (reserve(v, o->cap, nold + nupd))
			return -ENOMEM;
		for (j = 0; j < nupd; j++) {
			size_t p = lower_bound(old, i, nold, upd[j].pid,
					       upd[j].start_ns);

			if (p > i)
				memcpy(*v + k, old + i, (p - i) * sizeof(*old));
			k += p - i;
			i = p;
			(*o->idx)[j] = k;
			(*v)[k++] = upd[j];
			if (i < nold && !rec_cmp(&old[i], &upd[j]))
				i++;
		}
		if (nold > i)
			memcpy(*v + k, old + i, (nold - i) * sizeof(*old));
		k += nold - i;
	}
	/*
	 * The dead. A record of this answer is live even when an EXIT
	 * record has its key: after a non-leader exec the exec'er has the
	 * old leader's pid and start time (see ptop_snap_prev_thread()).
	 */
	pos = malloc((nexits + nupd ? nexits + nupd : 1) * sizeof(*pos));
	if (!pos)
		return -ENOMEM;
	for (e = 0; e < nexits; e++) {
		const struct ptop_rec *x = &exits[e];

		if (x->kind == kind && !find(upd, nupd, x->pid, x->start_ns))
			note_dead(*v, k, x->pid, x->start_ns, pos, &npos);
	}
	/* an exec'er's old record is continued by its new one: not live */
	for (j = 0; j < nupd; j++) {
		const struct ptop_rec *x = &upd[j];

		if ((x->flags & PTOP_RECF_EXEC) &&
		    !find(upd, nupd, x->exec_old_pid, x->exec_old_start_ns))
			note_dead(*v, k, x->exec_old_pid, x->exec_old_start_ns,
				  pos, &npos);
	}
	if (npos > 1)
		qsort(pos, npos, sizeof(*pos), idx_cmp);
	for (j = 0, d = 0; j < npos; j++)	/* named twice: once */
		if (!d || pos[d - 1] != pos[j])
			pos[d++] = pos[j];
	npos = d;
	if (reserve_keys(o->drop, o->cap_drop, npos ? npos : 1)) {
		free(pos);
		return -ENOMEM;
	}
	for (j = 0; j < npos; j++)
		(*o->drop)[j] = (struct ptop_snap_key){ (*v)[pos[j]].pid,
							(*v)[pos[j]].start_ns };
	*o->ndrop = npos;
	/* the answer's own records are never dropped: their places move */
	for (q = 0, d = 0; npos && q < *o->nidx; q++) {
		while (d < npos && pos[d] < (*o->idx)[q])
			d++;
		(*o->idx)[q] -= d;
	}
	remove_sorted(*v, &k, pos, npos);
	free(pos);
	*o->n = k;
	return 0;
}

const struct ptop_snap_pending *ptop_snap_find_pending(const struct ptop_snap *sn,
						       enum ptop_rec_kind kind,
						       uint32_t pid,
						       uint64_t start_ns)
{
	size_t i;

	for (i = 0; sn && i < sn->npending; i++) {
		const struct ptop_rec *r = &sn->pending[i].rec;

		if (r->kind == kind && r->pid == pid && r->start_ns == start_ns)
			return &sn->pending[i];
	}
	return NULL;
}

static const struct ptop_rec *find_exit(const struct ptop_snap *sn,
					      enum ptop_rec_kind kind,
					      uint32_t pid, uint64_t start_ns)
{
	size_t i;

	for (i = 0; i < sn->nexits; i++)
		if (sn->exits[i].kind == kind && sn->exits[i].pid == pid &&
		    sn->exits[i].start_ns == start_ns)
			return &sn->exits[i];
	return NULL;
}

static int add_pending(struct ptop_snap *next, const struct ptop_snap_pending *p)
{
	if (next->npending == next->cap_pending) {
		size_t ncap = next->cap_pending ? 2 * next->cap_pending : 16;
		struct ptop_snap_pending *n = realloc(next->pending,
						      ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		next->pending = n;
		next->cap_pending = ncap;
	}
	next->pending[next->npending++] = *p;
	return 0;
}

/* Was thread t of prev continued by a non-leader exec in next? */
static int exec_continued(const struct ptop_snap *next,
			  const struct ptop_rec *t)
{
	size_t i;

	for (i = 0; i < next->nthreads; i++)
		if ((next->threads[i].flags & PTOP_RECF_EXEC) &&
		    next->threads[i].exec_old_pid == t->pid &&
		    next->threads[i].exec_old_start_ns == t->start_ns)
			return 1;
	return 0;
}

/*
 * The tasks of prev that next lost without an EXIT record, and prev's
 * pending ones whose EXIT record has still not come (see snap.h).
 */
static int note_pending(const struct ptop_snap *prev, struct ptop_snap *next)
{
	struct ptop_snap_pending p;
	size_t i, j;
	int ret;

	next->npending = 0;
	for (i = 0; i < prev->npending; i++) {
		const struct ptop_rec *r = &prev->pending[i].rec;

		if (prev->pending[i].age + 1 >= PTOP_SNAP_PENDING_GENS ||
		    find_exit(next, r->kind, r->pid, r->start_ns) ||
		    find(r->kind == PTOP_REC_GROUP ? next->groups :
			 next->threads, r->kind == PTOP_REC_GROUP ?
			 next->ngroups : next->nthreads, r->pid, r->start_ns))
			continue;
		p = prev->pending[i];
		p.age++;
		ret = add_pending(next, &p);
		if (ret)
			return ret;
	}
	for (i = 0; i < prev->nthreads; i++) {
		const struct ptop_rec *t = &prev->threads[i];

		if (find(next->threads, next->nthreads, t->pid, t->start_ns) ||
		    find_exit(next, PTOP_REC_THREAD, t->pid, t->start_ns) ||
		    exec_continued(next, t))
			continue;
		memset(&p, 0, sizeof(p));
		p.rec = *t;
		p.shown_u = t->utime_ns;
		p.shown_s = t->stime_ns;
		p.shown_st = t->steal_ns;
		ret = add_pending(next, &p);
		if (ret)
			return ret;
	}
	for (i = 0; i < prev->ngroups; i++) {
		const struct ptop_rec *g = &prev->groups[i];

		if (find(next->groups, next->ngroups, g->pid, g->start_ns) ||
		    find_exit(next, PTOP_REC_GROUP, g->pid, g->start_ns))
			continue;
		memset(&p, 0, sizeof(p));
		p.rec = *g;
		p.rec.utime_ns = p.rec.stime_ns = p.rec.steal_ns = 0;
		for (j = 0; j < prev->nthreads; j++) {
			const struct ptop_rec *t = &prev->threads[j];

			if (t->tgid != g->pid ||
			    ptop_snap_find_tgid(prev, t->tgid) != g)
				continue;
			p.rec.utime_ns += t->utime_ns;
			p.rec.stime_ns += t->stime_ns;
			p.rec.steal_ns += t->steal_ns;
		}
		p.shown_u = p.rec.utime_ns + g->xutime_ns + g->cutime_ns;
		p.shown_s = p.rec.stime_ns + g->xstime_ns + g->cstime_ns;
		p.shown_st = p.rec.steal_ns + g->xsteal_ns + g->csteal_ns;
		ret = add_pending(next, &p);
		if (ret)
			return ret;
	}
	return 0;
}

int ptop_snap_apply(struct ptop_snapper *s, const struct ptop_sample *sample,
		    unsigned int caps)
{
	const struct ptop_snap *prev = ptop_snap_cur(s);
	struct ptop_snap *next = &s->snap[s->taken ? !s->cur : s->cur];
	int incremental = prev && (sample->flags & PTOP_SAMPLE_INCREMENTAL);
	bool base;
	size_t i, k;
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

	/* EXIT records of both kinds, as they came */
	for (i = 0, k = 0; i < sample->nrecs; i++)
		k += is_exit(&sample->recs[i]);
	if (reserve(&next->exits, &next->cap_exits, k))
		return -ENOMEM;
	for (i = 0, k = 0; i < sample->nrecs; i++)
		if (is_exit(&sample->recs[i]))
			next->exits[k++] = sample->recs[i];
	next->nexits = k;

	next->merged_from = 0;
	next->nupd_threads = next->nupd_groups = 0;
	next->ndropped = 0;
	next->ndropped_threads = next->ndropped_groups = 0;
	if (incremental) {
		const struct merge_out ot = {
			&next->threads, &next->cap_threads, &next->nthreads,
			&next->upd_threads, &next->cap_upd_threads,
			&next->nupd_threads, &next->dropped_threads,
			&next->cap_dropped_threads, &next->ndropped_threads,
		};
		const struct merge_out og = {
			&next->groups, &next->cap_groups, &next->ngroups,
			&next->upd_groups, &next->cap_upd_groups,
			&next->nupd_groups, &next->dropped_groups,
			&next->cap_dropped_groups, &next->ndropped_groups,
		};

		ret = merge(prev->threads, prev->nthreads, prev->upd_threads,
			    prev->nupd_threads, prev->dropped_threads,
			    prev->ndropped_threads, base, s->ans_threads,
			    s->nans_threads, next->exits, next->nexits,
			    PTOP_REC_THREAD, &ot);
		if (!ret)
			ret = merge(prev->groups, prev->ngroups, prev->upd_groups,
				    prev->nupd_groups, prev->dropped_groups,
				    prev->ndropped_groups, base, s->ans_groups,
				    s->nans_groups, next->exits, next->nexits,
				    PTOP_REC_GROUP, &og);
		if (ret)
			return ret;
		next->merged_from = prev->id;
		next->ndropped = next->ndropped_threads + next->ndropped_groups;
	}

	next->npending = 0;
	/* an incremental answer keeps the absent: only a full one loses */
	if (prev && !incremental && (caps & PTOP_CAP_EXITS)) {
		ret = note_pending(prev, next);
		if (ret)
			return ret;
	}

	/*
	 * A record that an incremental answer did not bring is prev's own
	 * copy: nothing to fix in it.
	 */
	if (prev && incremental) {
		for (k = 0; k < next->nupd_threads; k++) {
			i = next->upd_threads[k];
			fix_split(&next->threads[i],
				  ptop_snap_prev_thread(prev, &next->threads[i]));
		}
		for (k = 0; k < next->nupd_groups; k++) {
			i = next->upd_groups[k];
			fix_split(&next->groups[i],
				  ptop_snap_find_group(prev, next->groups[i].pid,
						       next->groups[i].start_ns));
		}
	} else if (prev) {
		for (i = 0; i < next->nthreads; i++)
			fix_split(&next->threads[i],
				  ptop_snap_prev_thread(prev, &next->threads[i]));
		for (i = 0; i < next->ngroups; i++)
			fix_split(&next->groups[i],
				  ptop_snap_find_group(prev, next->groups[i].pid,
						       next->groups[i].start_ns));
	}

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
