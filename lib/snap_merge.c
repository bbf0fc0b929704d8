// SPDX-License-Identifier: GPL-2.0
/*
 * An incremental answer (kmod "since N") merged into the previous
 * snapshot's sorted live sets: answer records win, records named by an
 * EXIT record (or continued by an exec) leave, each run of the rest
 * moves at most once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "snap_internal.h"

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

		if (snap_key_cmp(v[mid].pid, v[mid].start_ns, pid, start_ns) < 0)
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
		if (j && !snap_rec_cmp(&add[j - 1], &add[j]))
			goto out;
		pos[j] = lower_bound(*v, j ? pos[j - 1] : 0, *n, add[j].pid,
				     add[j].start_ns);
		rep[j] = pos[j] < *n && !snap_rec_cmp(&(*v)[pos[j]], &add[j]);
		m += !rep[j];
	}
	ret = -ENOMEM;
	if (snap_reserve(v, cap, *n + m))
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
	const struct ptop_rec *hit = snap_find(v, n, pid, start_ns);

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
/* the records of one kind on both sides of a merge */
struct merge_in {
	const struct ptop_rec *old;	/* the previous live set */
	size_t nold;
	const size_t *old_upd;		/* what old's own merge brought */
	size_t nold_upd;
	const struct ptop_snap_key *old_drop;	/* what it dropped */
	size_t nold_drop;
	const struct ptop_rec *upd;	/* the answer, sorted */
	size_t nupd;
	const struct ptop_rec *exits;	/* EXIT records of both kinds */
	size_t nexits;
	enum ptop_rec_kind kind;
};

/*
 * *o->v holds the snapshot old was merged from: catch up with what that
 * merge dropped and brought, then put the answer in. 1 when done, 0 when
 * *o->v was not that base after all, -ENOMEM.
 */
static int merge_catch_up(const struct merge_in *in,
			  const struct merge_out *o)
{
	struct ptop_rec *brought;
	size_t j;
	int ret;

	brought = malloc((in->nold_upd ? in->nold_upd : 1) * sizeof(*brought));
	if (!brought)
		return -ENOMEM;
	for (j = 0; j < in->nold_upd; j++)
		brought[j] = in->old[in->old_upd[j]];
	ret = drop_keys(*o->v, o->n, in->old_drop, in->nold_drop);
	if (!ret)
		ret = apply_sorted(o->v, o->cap, o->n, brought, in->nold_upd,
				   NULL);
	free(brought);
	if (!ret && *o->n != in->nold)
		ret = -EINVAL;	/* not the base after all */
	if (!ret)
		ret = apply_sorted(o->v, o->cap, o->n, in->upd, in->nupd,
				   *o->idx);
	if (ret == -ENOMEM)
		return ret;
	return !ret;
}

/* *o->v written afresh: the runs of old between the answer's records */
static int merge_copy(const struct merge_in *in, const struct merge_out *o,
		      size_t *k)
{
	const struct ptop_rec *old = in->old;
	struct ptop_rec **v = o->v;
	size_t i = 0, j;

	*k = 0;
	if (snap_reserve(v, o->cap, in->nold + in->nupd))
		return -ENOMEM;
	for (j = 0; j < in->nupd; j++) {
		const struct ptop_rec *u = &in->upd[j];
		size_t p = lower_bound(old, i, in->nold, u->pid, u->start_ns);

		if (p > i)
			memcpy(*v + *k, old + i, (p - i) * sizeof(*old));
		*k += p - i;
		i = p;
		(*o->idx)[j] = *k;
		(*v)[(*k)++] = *u;
		if (i < in->nold && !snap_rec_cmp(&old[i], u))
			i++;
	}
	if (in->nold > i)
		memcpy(*v + *k, old + i, (in->nold - i) * sizeof(*old));
	*k += in->nold - i;
	return 0;
}

/*
 * The places in v[0, k) of the dead, sorted, each once, into pos (room
 * for nexits + nupd): the count. A record of this answer is live even
 * when an EXIT record has its key: after a non-leader exec the exec'er
 * has the old leader's pid and start time (ptop_snap_prev_thread()).
 */
static size_t merge_dead(const struct merge_in *in, const struct ptop_rec *v,
			 size_t k, size_t *pos)
{
	size_t e, j, d, npos = 0;

	for (e = 0; e < in->nexits; e++) {
		const struct ptop_rec *x = &in->exits[e];

		if (x->kind == in->kind &&
		    !snap_find(in->upd, in->nupd, x->pid, x->start_ns))
			note_dead(v, k, x->pid, x->start_ns, pos, &npos);
	}
	/* an exec'er's old record is continued by its new one: not live */
	for (j = 0; j < in->nupd; j++) {
		const struct ptop_rec *x = &in->upd[j];

		if ((x->flags & PTOP_RECF_EXEC) &&
		    !snap_find(in->upd, in->nupd, x->exec_old_pid,
			       x->exec_old_start_ns))
			note_dead(v, k, x->exec_old_pid, x->exec_old_start_ns,
				  pos, &npos);
	}
	if (npos > 1)
		qsort(pos, npos, sizeof(*pos), idx_cmp);
	for (j = 0, d = 0; j < npos; j++)	/* named twice: once */
		if (!d || pos[d - 1] != pos[j])
			pos[d++] = pos[j];
	return d;
}

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
static int merge(const struct merge_in *in, bool base,
		 const struct merge_out *o)
{
	size_t j, k = 0, q, d, npos, *pos;
	int ret;

	if (reserve_idx(o->idx, o->cap_idx, in->nupd ? in->nupd : 1))
		return -ENOMEM;
	*o->nidx = in->nupd;
	if (base) {
		ret = merge_catch_up(in, o);
		if (ret < 0)
			return ret;
		base = ret;
		k = *o->n;
	}
	if (!base && merge_copy(in, o, &k))
		return -ENOMEM;
	pos = malloc((in->nexits + in->nupd ? in->nexits + in->nupd : 1) *
		     sizeof(*pos));
	if (!pos)
		return -ENOMEM;
	npos = merge_dead(in, *o->v, k, pos);
	if (reserve_keys(o->drop, o->cap_drop, npos ? npos : 1)) {
		free(pos);
		return -ENOMEM;
	}
	for (j = 0; j < npos; j++)
		(*o->drop)[j] = (struct ptop_snap_key){ (*o->v)[pos[j]].pid,
							(*o->v)[pos[j]].start_ns };
	*o->ndrop = npos;
	/* the answer's own records are never dropped: their places move */
	for (q = 0, d = 0; npos && q < *o->nidx; q++) {
		while (d < npos && pos[d] < (*o->idx)[q])
			d++;
		(*o->idx)[q] -= d;
	}
	remove_sorted(*o->v, &k, pos, npos);
	free(pos);
	*o->n = k;
	return 0;
}

int snap_merge(struct ptop_snapper *s, const struct ptop_snap *prev,
	       struct ptop_snap *next, bool base)
{
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
	const struct merge_in it = {
		prev->threads, prev->nthreads, prev->upd_threads,
		prev->nupd_threads, prev->dropped_threads,
		prev->ndropped_threads, s->ans_threads, s->nans_threads,
		next->exits, next->nexits, PTOP_REC_THREAD,
	};
	const struct merge_in ig = {
		prev->groups, prev->ngroups, prev->upd_groups,
		prev->nupd_groups, prev->dropped_groups,
		prev->ndropped_groups, s->ans_groups, s->nans_groups,
		next->exits, next->nexits, PTOP_REC_GROUP,
	};
	int ret = merge(&it, base, &ot);

	return ret ? ret : merge(&ig, base, &og);
}
