// SPDX-License-Identifier: GPL-2.0
/*
 * Thread mode: the threads by group (struct ptop_interval.tidx), built by
 * the full path and kept up to date by the quick one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interval_internal.h"
#include "reserve.h"

static int tkey_cmp(const struct ptop_iv_tkey *a, const struct ptop_iv_tkey *b)
{
	if (a->tgid != b->tgid)
		return a->tgid < b->tgid ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns ? -1 : 1;
	return 0;
}

static int tkey_qcmp(const void *a, const void *b)
{
	return tkey_cmp(a, b);
}

static struct ptop_iv_tkey tkey_of(const struct ptop_rec *t)
{
	return (struct ptop_iv_tkey){ t->tgid, t->pid, t->start_ns };
}

/* The first place in tidx not below k. */
static size_t tidx_lower(const struct ptop_interval *iv,
			 const struct ptop_iv_tkey *k)
{
	size_t lo = 0, hi = iv->ntidx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tkey_cmp(&iv->tidx[mid], k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The threads of tgid: tidx[*from, return) */
size_t iv_tidx_group(const struct ptop_interval *iv, uint32_t tgid,
		     size_t *from)
{
	struct ptop_iv_tkey k = { tgid, 0, 0 };
	size_t end;

	*from = tidx_lower(iv, &k);
	for (end = *from; end < iv->ntidx && iv->tidx[end].tgid == tgid; end++)
		;
	return end;
}

static int tidx_reserve(struct ptop_interval *iv, size_t n)
{
	return ptop_reserve(&iv->tidx, &iv->cap_tidx, n, sizeof(*iv->tidx), 256);
}

/* Every thread of cur, sorted (the full path). */
int iv_tidx_build(struct ptop_interval *iv, const struct ptop_snap *cur)
{
	size_t i;

	iv->tidx_snap = 0;
	if (tidx_reserve(iv, cur->nthreads ? cur->nthreads : 1))
		return -ENOMEM;
	for (i = 0; i < cur->nthreads; i++)
		iv->tidx[i] = tkey_of(&cur->threads[i]);
	iv->ntidx = cur->nthreads;
	if (iv->ntidx > 1)
		qsort(iv->tidx, iv->ntidx, sizeof(*iv->tidx), tkey_qcmp);
	iv->tidx_snap = cur->id;
	return 0;
}

/*
 * From prev's threads to cur's (quick path): out with the dead (the
 * keys the merge dropped, each in prev: iv_quick_ok_threads()), in with
 * the new ones the answer brought.
 */
int iv_tidx_update(struct ptop_interval *iv, const struct ptop_snap *prev,
		   const struct ptop_snap *cur)
{
	size_t k, pos;

	iv->tidx_snap = 0;
	if (tidx_reserve(iv, iv->ntidx + cur->nupd_threads + 1))
		return -ENOMEM;
	for (k = 0; k < cur->ndropped_threads; k++) {
		const struct ptop_snap_key *d = &cur->dropped_threads[k];
		const struct ptop_rec *t = ptop_snap_find_thread(prev, d->pid,
								 d->start_ns);
		struct ptop_iv_tkey key;

		if (!t)
			return -ESRCH;
		key = tkey_of(t);
		pos = tidx_lower(iv, &key);
		if (pos >= iv->ntidx || tkey_cmp(&iv->tidx[pos], &key))
			return -ESRCH;
		memmove(&iv->tidx[pos], &iv->tidx[pos + 1],
			(iv->ntidx - pos - 1) * sizeof(*iv->tidx));
		iv->ntidx--;
	}
	for (k = 0; k < cur->nupd_threads; k++) {
		const struct ptop_rec *t = &cur->threads[cur->upd_threads[k]];
		struct ptop_iv_tkey key;

		if (ptop_snap_find_thread(prev, t->pid, t->start_ns))
			continue;
		key = tkey_of(t);
		pos = tidx_lower(iv, &key);
		memmove(&iv->tidx[pos + 1], &iv->tidx[pos],
			(iv->ntidx - pos) * sizeof(*iv->tidx));
		iv->tidx[pos] = key;
		iv->ntidx++;
	}
	if (iv->ntidx != cur->nthreads)
		return -ESRCH;
	iv->tidx_snap = cur->id;
	return 0;
}
