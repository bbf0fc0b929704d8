/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the snapshot building share (lib/snap*.c): the key
 * order, the lookup in a sorted record array, the merge of an
 * incremental answer and the tasks gone without an EXIT record. Private
 * to lib/: the public API is snap.h.
 */
#ifndef PTOP_SNAP_INTERNAL_H
#define PTOP_SNAP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reserve.h"
#include "snap.h"

static inline int snap_key_cmp(uint32_t a_pid, uint64_t a_start,
			       uint32_t b_pid, uint64_t b_start)
{
	if (a_pid != b_pid)
		return a_pid < b_pid ? -1 : 1;
	if (a_start != b_start)
		return a_start < b_start ? -1 : 1;
	return 0;
}

static inline int snap_rec_cmp(const void *a, const void *b)
{
	const struct ptop_rec *x = a, *y = b;

	return snap_key_cmp(x->pid, x->start_ns, y->pid, y->start_ns);
}

/* Room for n records in *v (of capacity *cap): 0 or -ENOMEM. */
static inline int snap_reserve(struct ptop_rec **v, size_t *cap, size_t n)
{
	return ptop_reserve(v, cap, n, sizeof(**v), 256);
}

/* The record of v[0, n) (sorted) with this key, or NULL. */
const struct ptop_rec *snap_find(const struct ptop_rec *v, size_t n,
				 uint32_t pid, uint64_t start_ns);

/*
 * Merge the incremental answer (s->ans_*) into prev's live sets, into
 * next's (snap_merge.c); base: next holds the snapshot prev was itself
 * merged from.
 */
int snap_merge(struct ptop_snapper *s, const struct ptop_snap *prev,
	       struct ptop_snap *next, bool base);
/* The tasks of prev that next lost without an EXIT record (snap_pending.c). */
int snap_note_pending(const struct ptop_snap *prev, struct ptop_snap *next);

#endif /* PTOP_SNAP_INTERNAL_H */
