// SPDX-License-Identifier: GPL-2.0
/*
 * The followed tasks' history (taskhist.h): fixed rings, fed once per
 * interval. A task is found by its leader's row (pid and start time);
 * in thread mode its other threads' rows (same tgid) are added to it,
 * so the point is the process's either way.
 */
#include <string.h>

#include "taskhist.h"

void ui_taskhist_init(struct ui_taskhist *h)
{
	memset(h, 0, sizeof(*h));
}

struct ui_th_task *ui_taskhist_follow(struct ui_taskhist *h, uint32_t pid,
				      uint64_t start_ns)
{
	struct ui_th_task *t, *lru = &h->t[0];
	size_t i;

	h->tick++;
	for (i = 0; i < UI_TH_TASKS; i++) {
		t = &h->t[i];
		if (t->used && t->pid == pid && t->start_ns == start_ns) {
			t->last_use = h->tick;
			return t;
		}
		if (!t->used || (lru->used && t->last_use < lru->last_use))
			lru = t;
	}
	memset(lru, 0, sizeof(*lru));
	lru->used = true;
	lru->pid = pid;
	lru->start_ns = start_ns;
	lru->last_use = h->tick;
	return lru;
}

const struct ui_th_task *ui_taskhist_find(const struct ui_taskhist *h,
					  uint32_t pid, uint64_t start_ns)
{
	size_t i;

	for (i = 0; i < UI_TH_TASKS; i++)
		if (h->t[i].used && h->t[i].pid == pid &&
		    h->t[i].start_ns == start_ns)
			return &h->t[i];
	return NULL;
}

static void add_row(struct ui_th_point *p, const struct ptop_row *r)
{
	p->user += r->user;
	p->sys += r->sys;
	p->ste += r->ste;
	p->cuser += r->cuser;
	p->csys += r->csys;
	p->cste += r->cste;
	p->xuser += r->xuser;
	p->xsys += r->xsys;
	p->xste += r->xste;
}

/* The task's point of this interval; false: it has no row (gone). */
static bool task_point(const struct ui_th_task *t,
		       const struct ptop_interval *iv, struct ui_th_point *p)
{
	const struct ptop_row *lead = NULL;
	size_t i;

	memset(p, 0, sizeof(*p));
	p->end_ns = iv->time_ns;
	p->interval_ns = iv->interval_ns;
	p->ncpu = iv->ncpu;
	for (i = 0; i < iv->nrows; i++) {
		const struct ptop_row *r = &iv->rows[i];

		if (r->pid == t->pid && r->start_ns == t->start_ns) {
			lead = r;
			break;
		}
	}
	if (!lead)
		return false;
	p->present = true;
	p->has = lead->has;
	if (!iv->threads) {
		add_row(p, lead);
		return true;
	}
	/* thread mode: the leader's row has x* and c*, each thread its own */
	for (i = 0; i < iv->nrows; i++)
		if (iv->rows[i].tgid == t->pid)
			add_row(p, &iv->rows[i]);
	return true;
}

static void add_exit(struct ui_th_task *t, const struct ptop_rec *e,
		     uint64_t seen_ns)
{
	struct ui_th_exit *x = &t->ex[t->ex_next];

	memset(x, 0, sizeof(*x));
	x->pid = e->pid;
	x->start_ns = e->start_ns;
	memcpy(x->comm, e->comm, sizeof(x->comm));
	x->comm[sizeof(x->comm) - 1] = '\0';
	x->exit_code = e->exit_code;
	x->user_ns = e->utime_ns + e->xutime_ns;
	x->sys_ns = e->stime_ns + e->xstime_ns;
	x->seen_ns = seen_ns;
	t->ex_next = (t->ex_next + 1) % UI_TH_EXITS;
	if (t->nex < UI_TH_EXITS)
		t->nex++;
}

/* The EXIT records of groups: the task's own, and its children's. */
static void take_exits(struct ui_th_task *t, const struct ptop_snap *cur,
		       uint64_t seen_ns)
{
	size_t i;

	for (i = 0; cur && i < cur->nexits; i++) {
		const struct ptop_rec *e = &cur->exits[i];

		if (e->kind != PTOP_REC_GROUP)
			continue;
		if (e->pid == t->pid && e->start_ns == t->start_ns) {
			t->have_exit = true;
			t->exit_code = e->exit_code;
		} else if (e->ppid == t->pid && e->start_ns >= t->start_ns) {
			/* a child starts after its parent: not a reused pid's */
			add_exit(t, e, seen_ns);
		}
	}
}

void ui_taskhist_feed(struct ui_taskhist *h, const struct ptop_interval *iv,
		      const struct ptop_snap *cur)
{
	size_t i;

	for (i = 0; i < UI_TH_TASKS; i++) {
		struct ui_th_task *t = &h->t[i];

		if (!t->used)
			continue;
		t->gone = !task_point(t, iv, &t->pts[t->pt_next]);
		t->pt_next = (t->pt_next + 1) % UI_TH_DEPTH;
		if (t->npts < UI_TH_DEPTH)
			t->npts++;
		take_exits(t, cur, iv->time_ns);
	}
}

const struct ui_th_point *ui_th_point(const struct ui_th_task *t, size_t i)
{
	if (i >= t->npts)
		return NULL;
	return &t->pts[(t->pt_next + UI_TH_DEPTH - t->npts + i) % UI_TH_DEPTH];
}

const struct ui_th_exit *ui_th_exit(const struct ui_th_task *t, size_t i)
{
	if (i >= t->nex)
		return NULL;
	return &t->ex[(t->ex_next + UI_TH_EXITS - 1 - i) % UI_TH_EXITS];
}

void ui_th_sum(const struct ui_th_task *t, size_t n, struct ui_th_point *sum)
{
	size_t i;

	memset(sum, 0, sizeof(*sum));
	sum->has = ~0U;
	if (n > t->npts)
		n = t->npts;
	for (i = t->npts - n; i < t->npts; i++) {
		const struct ui_th_point *p = ui_th_point(t, i);

		if (!p->present)
			continue;
		sum->present = true;
		sum->has &= p->has;
		sum->interval_ns += p->interval_ns;
		sum->end_ns = p->end_ns;
		sum->ncpu = p->ncpu;
		sum->user += p->user;
		sum->sys += p->sys;
		sum->ste += p->ste;
		sum->cuser += p->cuser;
		sum->csys += p->csys;
		sum->cste += p->cste;
		sum->xuser += p->xuser;
		sum->xsys += p->xsys;
		sum->xste += p->xste;
	}
	if (!sum->present)
		sum->has = 0;
}
