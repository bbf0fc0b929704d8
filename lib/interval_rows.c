// SPDX-License-Identifier: GPL-2.0
/*
 * The interval math's arithmetic: (user, system, steal) triples whose
 * total stays exact, a task's row from its records, and the sum row.
 */
#include <errno.h>
#include <string.h>

#include "interval_internal.h"
#include "reserve.h"

static uint64_t count_delta(uint64_t cur, const uint64_t *prev)
{
	if (!prev || cur < *prev)
		return cur;	/* new task, or a new incarnation */
	return cur - *prev;
}

/*
 * a - b for triples whose total a holds at least b's. The total is what
 * the kernel measures (runtime); its split into user and system is an
 * estimate (cputime_adjust() scales the runtime by tick samples), made
 * one way for a live task and another for the same time in a parent's
 * c* or a group's x* after a death: a part can then fall while the
 * total grows (under emulation, by a whole dead child's user time seen
 * again as system time). The parts that would fall are 0, the others
 * give up what they exceed by, in proportion: the total stays exact.
 */
static struct tri tri_sub_keep_total(struct tri a, struct tri b)
{
	uint64_t want = tri_total(a) - tri_total(b), have, ignore = 0;
	struct tri d = { sat_sub(a.u, b.u, &ignore), sat_sub(a.s, b.s, &ignore),
			 sat_sub(a.st, b.st, &ignore) };

	have = tri_total(d);
	if (have == want || !have)
		return d;
	/* want < have: scale down; the system part takes the remainder */
	d.u = (uint64_t)((long double)d.u * want / have);
	if (d.u > want)		/* long double may be double: rounding */
		d.u = want;
	d.st = (uint64_t)((long double)d.st * want / have);
	if (d.u + d.st > want)
		d.st = want - d.u;
	d.s = want - d.u - d.st;
	return d;
}

/*
 * Delta of a (user, system, steal) triple. A total that went backwards is
 * a new incarnation: the whole current value is the delta.
 */
static struct tri tri_delta(struct tri cur, const struct tri *prev)
{
	if (!prev || tri_total(cur) < tri_total(*prev))
		return cur;
	return tri_sub_keep_total(cur, *prev);
}

/* a - b; only a total that falls below b's is clamped (at 0) */
static struct tri tri_sub(struct tri a, struct tri b, uint64_t *clamped)
{
	if (tri_total(a) < tri_total(b)) {
		*clamped += tri_total(b) - tri_total(a);
		return (struct tri){ 0 };
	}
	return tri_sub_keep_total(a, b);
}

int iv_grow(struct ptop_interval *iv, size_t n)
{
	return ptop_reserve(&iv->rows, &iv->cap, n, sizeof(*iv->rows), 256);
}

void iv_row_identity(struct ptop_row *row, const struct ptop_rec *r,
		     const struct ptop_rec *g)
{
	memset(row, 0, sizeof(*row));
	row->pid = r->pid;
	row->tgid = r->tgid;
	row->ppid = g ? g->ppid : r->ppid;
	row->acct_ppid = g ? g->acct_ptgid : r->acct_ptgid;
	row->uid = g ? g->uid : r->uid;
	row->nthreads = g ? g->nthreads : 1;
	row->state = r->state;
	memcpy(row->comm, r->comm, sizeof(row->comm));
	row->comm[sizeof(row->comm) - 1] = '\0';
	row->start_ns = r->start_ns;
	row->rss_kb = g ? g->rss_kb : 0;
}

void iv_row_add_own(struct ptop_row *row, const struct ptop_rec *t,
		    const struct ptop_rec *pt)
{
	struct tri ptri, d;

	if (pt)
		ptri = tri_own(pt);
	d = tri_delta(tri_own(t), pt ? &ptri : NULL);
	row->user += d.u;
	row->sys += d.s;
	row->ste += d.st;
	row->rdelay += count_delta(t->rdelay_ns, pt ? &pt->rdelay_ns : NULL);
	row->nvcsw += count_delta(t->nvcsw, pt ? &pt->nvcsw : NULL);
	row->nivcsw += count_delta(t->nivcsw, pt ? &pt->nivcsw : NULL);
	row->minflt += count_delta(t->minflt, pt ? &pt->minflt : NULL);
	row->majflt += count_delta(t->majflt, pt ? &pt->majflt : NULL);
	row->time_ns += ptop_rec_own(t);
	row->nrecs++;
	row->live_u += t->utime_ns;
	row->live_s += t->stime_ns;
	row->live_st += t->steal_ns;
}

/* A thread record of the last interval leaves row (died, or moves on). */
void iv_row_drop_own(struct ptop_row *row, const struct ptop_rec *t)
{
	row->time_ns -= ptop_rec_own(t);
	row->nrecs--;
	row->live_u -= t->utime_ns;
	row->live_s -= t->stime_ns;
	row->live_st -= t->steal_ns;
}

/*
 * The x* and c* of group g's row: the growth since pg (its previous
 * record; NULL: born in the interval) less what was already shown of
 * the dead in them (xsub, csub).
 */
void iv_row_xc(struct ptop_row *row, const struct ptop_rec *g,
	       const struct ptop_rec *pg, struct tri xsub, struct tri csub,
	       uint64_t *clamped)
{
	struct tri px, pc, dx, dc;

	if (pg) {
		px = tri_x(pg);
		pc = tri_c(pg);
	}
	dx = tri_delta(tri_x(g), pg ? &px : NULL);
	dc = tri_delta(tri_c(g), pg ? &pc : NULL);
	dx = tri_sub(dx, xsub, clamped);
	dc = tri_sub(dc, csub, clamped);
	row->xuser = dx.u;
	row->xsys = dx.s;
	row->xste = dx.st;
	row->cuser = dc.u;
	row->csys = dc.s;
	row->cste = dc.st;
	row->time_ns += ptop_rec_x(g);
}

void iv_row_total(struct ptop_row *r)
{
	r->total = r->user + r->sys + r->ste + r->cuser + r->csys + r->cste +
		   r->xuser + r->xsys + r->xste;
}

/*
 * Add (sign 1) or take away (sign -1) a row's share of the sum row: in
 * unsigned arithmetic, what is taken away is exactly what was added.
 */
void iv_sum_add(struct ptop_interval *iv, const struct ptop_row *r, int sign)
{
	uint64_t m = sign < 0 ? (uint64_t)-1 : 1;
	struct ptop_row *s = &iv->sum;

	if (iv->threads) {
		iv->nthreads_all += (size_t)m;
		iv->nprocs += (size_t)m * (r->pid == r->tgid);
	} else {
		iv->nprocs += (size_t)m;
		iv->nthreads_all += (size_t)m * (r->nthreads ? r->nthreads : 1);
	}
	iv->nrunning += (size_t)m * (r->state == 'R');

	s->user += m * r->user;
	s->sys += m * r->sys;
	s->ste += m * r->ste;
	s->cuser += m * r->cuser;
	s->csys += m * r->csys;
	s->cste += m * r->cste;
	s->xuser += m * r->xuser;
	s->xsys += m * r->xsys;
	s->xste += m * r->xste;
	s->total += m * r->total;
	s->rdelay += m * r->rdelay;
	s->nvcsw += m * r->nvcsw;
	s->nivcsw += m * r->nivcsw;
	s->minflt += m * r->minflt;
	s->majflt += m * r->majflt;
	s->time_ns += m * r->time_ns;
	s->rss_kb += m * r->rss_kb;
	s->nthreads += (uint32_t)m * (r->is_thread ? 1 : r->nthreads);
}

void iv_sum_rows(struct ptop_interval *iv)
{
	struct ptop_row *s = &iv->sum;
	size_t i;

	memset(s, 0, sizeof(*s));
	strcpy(s->comm, "sum");
	s->has = iv->caps;
	iv->nprocs = iv->nthreads_all = iv->nrunning = 0;
	for (i = 0; i < iv->nrows; i++) {
		iv_row_total(&iv->rows[i]);
		iv_sum_add(iv, &iv->rows[i], 1);
	}
}

/* A row with figures this interval (or new): the next one recomputes it. */
bool iv_row_loud(const struct ptop_row *r)
{
	return r->is_new || r->total || r->rdelay || r->nvcsw || r->nivcsw ||
	       r->minflt || r->majflt;
}

int iv_add_loud(struct ptop_interval *iv, const struct ptop_row *r)
{
	if (ptop_reserve(&iv->loud, &iv->cap_loud, iv->nloud + 1,
			 sizeof(*iv->loud), 64))
		return -ENOMEM;
	iv->loud[iv->nloud++] = (struct ptop_iv_key){ r->pid, r->start_ns };
	return 0;
}
