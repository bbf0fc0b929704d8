// SPDX-License-Identifier: GPL-2.0
/* The view's rows: their sort order, and the pid sets. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/reserve.h"
#include "vrow.h"

struct sort_ctx {
	const struct ptop_col *col;
	bool asc;
};

static int vrow_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct ui_vrow *a = pa, *b = pb;
	int c = ptop_col_compare(ctx->col, &a->r, &b->r);

	if (!ctx->asc)
		c = -c;
	if (!c)	/* ties: by pid, so the order is stable */
		c = a->r.pid < b->r.pid ? -1 : a->r.pid > b->r.pid;
	if (!c)	/* a live row before a dead one of the same pid */
		c = a->exited - b->exited;
	return c;
}

int ui_vrow_cmp(const struct ui_vrow *a, const struct ui_vrow *b, int sort_id,
		bool asc)
{
	struct sort_ctx ctx = { &ptop_cols[sort_id], asc };

	return vrow_cmp(a, b, &ctx);
}

void ui_vrows_sort(struct ui_vrow *rows, size_t n, int sort_id, bool asc)
{
	struct sort_ctx ctx = { &ptop_cols[sort_id], asc };

	if (n > 1)
		qsort_r(rows, n, sizeof(*rows), vrow_cmp, &ctx);
}

/* --- pid sets --- */

static size_t pidset_pos(const struct ui_pidset *s, uint32_t pid)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->pid[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool ui_pidset_has(const struct ui_pidset *s, uint32_t pid)
{
	size_t i = pidset_pos(s, pid);

	return i < s->n && s->pid[i] == pid;
}

int ui_pidset_add(struct ui_pidset *s, uint32_t pid)
{
	size_t i = pidset_pos(s, pid);

	if (i < s->n && s->pid[i] == pid)
		return 0;
	if (ptop_reserve(&s->pid, &s->cap, s->n + 1, sizeof(*s->pid), 16))
		return -ENOMEM;
	memmove(s->pid + i + 1, s->pid + i, (s->n - i) * sizeof(*s->pid));
	s->pid[i] = pid;
	s->n++;
	return 0;
}

void ui_pidset_del(struct ui_pidset *s, uint32_t pid)
{
	size_t i = pidset_pos(s, pid);

	if (i >= s->n || s->pid[i] != pid)
		return;
	memmove(s->pid + i, s->pid + i + 1, (s->n - i - 1) * sizeof(*s->pid));
	s->n--;
}

void ui_pidset_clear(struct ui_pidset *s)
{
	s->n = 0;
}
