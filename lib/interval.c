// SPDX-License-Identifier: GPL-2.0
/*
 * The interval math (docs/design.md). For a thread group g and (k-1, k]:
 *   own   = sum over its live threads of T_t(k) - T_t(k-1)  (new: T_t(k))
 *   x col = x_g(k) - x_g(k-1) - sum of T_t(k-1) of its threads that died
 *   c col = c_g(k) - c_g(k-1) - sum of [T_d(k-1) + C_d(k-1)] of every group
 *           d that died in the interval and was folded into g, directly
 *           or through a chain of other dead groups
 * so a dead task's time is shown exactly once: up to k-1 on its own row,
 * after that on the row that received it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"
#include "reserve.h"

struct tri {
	uint64_t u, s, st;
};

struct work {
	const struct ptop_snap *prev, *cur;
	struct ptop_interval *iv;
	struct tri *xsub;	/* per cur group: prev own of its dead threads */
	struct tri *csub;	/* per cur group: prev T+C of groups folded in */
	struct tri *prev_own;	/* per prev group: own of its live threads */
	ssize_t *group_row;	/* per cur group: its row (or leader's row) */
	struct ptop_rec *gexits;	/* GROUP EXIT records, sorted */
	size_t ngexits;
	const struct ptop_rec **execs; /* cur threads with RECF_EXEC */
	size_t nexecs;
};

static uint64_t sat_sub(uint64_t a, uint64_t b, uint64_t *clamped)
{
	if (a >= b)
		return a - b;
	*clamped += b - a;
	return 0;
}

static uint64_t count_delta(uint64_t cur, const uint64_t *prev)
{
	if (!prev || cur < *prev)
		return cur;	/* new task, or a new incarnation */
	return cur - *prev;
}

static uint64_t tri_total(struct tri t)
{
	return t.u + t.s + t.st;
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

static struct tri tri_own(const struct ptop_rec *r)
{
	return (struct tri){ r->utime_ns, r->stime_ns, r->steal_ns };
}

static struct tri tri_x(const struct ptop_rec *r)
{
	return (struct tri){ r->xutime_ns, r->xstime_ns, r->xsteal_ns };
}

static struct tri tri_c(const struct ptop_rec *r)
{
	return (struct tri){ r->cutime_ns, r->cstime_ns, r->csteal_ns };
}

static void tri_add(struct tri *a, struct tri b)
{
	a->u += b.u;
	a->s += b.s;
	a->st += b.st;
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

static ssize_t index_of(const struct ptop_rec *base,
			const struct ptop_rec *r)
{
	return r ? r - base : -1;
}

static ssize_t cur_group_index(const struct work *w, uint32_t tgid,
			       uint64_t start_ns, bool start_known)
{
	const struct ptop_rec *g;

	g = start_known ? ptop_snap_find_group(w->cur, tgid, start_ns) :
			  ptop_snap_find_tgid(w->cur, tgid);
	return index_of(w->cur->groups, g);
}

static int gexit_cmp(const void *a, const void *b)
{
	const struct ptop_rec *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return 0;
}

static const struct ptop_rec *find_gexit(const struct work *w,
					       uint32_t tgid, uint64_t start_ns)
{
	struct ptop_rec key = { .pid = tgid, .start_ns = start_ns };

	if (!w->ngexits)
		return NULL;
	return bsearch(&key, w->gexits, w->ngexits, sizeof(key), gexit_cmp);
}

/*
 * Where did the time of dead group d go? Follow EXIT records' folded_into
 * (module, taskstats) or the accounting parent of the previous snapshot
 * (procfs) until a group that is alive now. -1: nowhere we can see.
 */
static ssize_t fold_target(const struct work *w, const struct ptop_rec *d)
{
	uint32_t tgid = d->pid;
	uint64_t start = d->start_ns;
	unsigned int hops;

	for (hops = 0; hops < 4096; hops++) {
		const struct ptop_rec *e = find_gexit(w, tgid, start);
		const struct ptop_rec *p;
		uint32_t to;
		uint64_t to_start;
		bool known;
		ssize_t gi;

		if (e) {
			to = e->folded_into;
			to_start = e->folded_start_ns;
			known = to_start != 0;
		} else {
			p = ptop_snap_find_group(w->prev, tgid, start);
			if (!p)
				return -1;
			to = p->acct_ptgid;
			p = ptop_snap_find_tgid(w->prev, to);
			to_start = p ? p->start_ns : 0;
			known = p != NULL;
		}
		if (!to || (to == tgid && to_start == start))
			return -1;
		gi = cur_group_index(w, to, to_start, known);
		if (gi >= 0)
			return gi;
		/* the target died too: continue from it */
		if (!known) {
			p = ptop_snap_find_tgid(w->prev, to);
			if (!p)
				return -1;
			to_start = p->start_ns;
		}
		tgid = to;
		start = to_start;
	}
	return -1;
}

static int grow(struct ptop_interval *iv, size_t n)
{
	return ptop_reserve(&iv->rows, &iv->cap, n, sizeof(*iv->rows), 256);
}

static void row_identity(struct ptop_row *row, const struct ptop_rec *r,
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

static void row_add_own(struct ptop_row *row, const struct ptop_rec *t,
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
static void row_drop_own(struct ptop_row *row, const struct ptop_rec *t)
{
	row->time_ns -= ptop_rec_own(t);
	row->nrecs--;
	row->live_u -= t->utime_ns;
	row->live_s -= t->stime_ns;
	row->live_st -= t->steal_ns;
}

/* One row per live group; or, in thread mode, one per live thread. */
static int make_rows(struct work *w)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	struct ptop_interval *iv = w->iv;
	unsigned int has = cur->caps;
	size_t i;

	if (grow(iv, cur->nthreads + cur->ngroups))
		return -ENOMEM;
	for (i = 0; i < cur->ngroups; i++) {
		w->group_row[i] = -1;
		if (iv->threads)
			continue;
		row_identity(&iv->rows[i], &cur->groups[i], &cur->groups[i]);
		iv->rows[i].has = has;
		iv->rows[i].is_new = !ptop_snap_find_group(prev, cur->groups[i].pid,
							   cur->groups[i].start_ns);
		w->group_row[i] = i;
	}
	iv->nrows = iv->threads ? 0 : cur->ngroups;

	for (i = 0; i < cur->nthreads; i++) {
		const struct ptop_rec *t = &cur->threads[i];
		const struct ptop_rec *pt = ptop_snap_prev_thread(prev, t);
		const struct ptop_rec *g = ptop_snap_find_tgid(cur, t->tgid);
		ssize_t gi = index_of(cur->groups, g);
		struct ptop_row *row;

		if (iv->threads || gi < 0) {
			/* a thread row, or a thread whose group is unknown */
			row = &iv->rows[iv->nrows];
			row_identity(row, t, g);
			row->is_thread = iv->threads;
			row->is_new = !pt;
			row->has = has & ~(PTOP_DATA_X | PTOP_DATA_C);
			if (gi >= 0 && (w->group_row[gi] < 0 || t->pid == t->tgid))
				w->group_row[gi] = iv->nrows;
			iv->nrows++;
		} else {
			row = &iv->rows[w->group_row[gi]];
		}
		row_add_own(row, t, pt);
	}
	/* thread mode: the leader's row carries the group's x* and c* */
	for (i = 0; i < cur->ngroups; i++)
		if (iv->threads && w->group_row[i] >= 0)
			iv->rows[w->group_row[i]].has |=
				has & (PTOP_DATA_X | PTOP_DATA_C);
	return 0;
}

/*
 * Does thread t of the previous snapshot live on in the current one? As
 * the record that ptop_snap_prev_thread() maps back to t: after a
 * non-leader exec, the exec'er (with the old leader's key) continues its
 * own old record, and the old leader is dead.
 */
static bool thread_lives_on(const struct work *w, const struct ptop_rec *t)
{
	const struct ptop_rec *c;
	size_t i;

	c = ptop_snap_find_thread(w->cur, t->pid, t->start_ns);
	if (c && ptop_snap_prev_thread(w->prev, c) == t)
		return true;
	for (i = 0; i < w->nexecs; i++)
		if (w->execs[i]->exec_old_pid == t->pid &&
		    w->execs[i]->exec_old_start_ns == t->start_ns &&
		    ptop_snap_prev_thread(w->prev, w->execs[i]) == t)
			return true;
	return false;
}

/*
 * EXIT records that came late: their task was gone from an earlier
 * snapshot already (struct ptop_snap_pending). What intervals showed of
 * it then is not new in the receiver's x* or c* now.
 */
static int late_exits(struct work *w)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	size_t i;

	for (i = 0; i < cur->nexits && prev->npending; i++) {
		const struct ptop_rec *x = &cur->exits[i];
		const struct ptop_snap_pending *p;
		struct tri shown;
		ssize_t gi;

		p = ptop_snap_find_pending(prev, x->kind, x->pid, x->start_ns);
		if (!p)
			continue;
		shown = (struct tri){ p->shown_u, p->shown_s, p->shown_st };
		if (x->kind == PTOP_REC_THREAD) {
			/* one late exit per process: its group's, if gone */
			gi = index_of(cur->groups,
				      ptop_snap_find_tgid(cur, x->tgid));
			if (gi >= 0) {
				tri_add(&w->xsub[gi], shown);
				w->iv->nlate++;
			}
			continue;
		}
		w->iv->nlate++;
		gi = fold_target(w, &p->rec);
		if (gi >= 0)
			tri_add(&w->csub[gi], shown);
		else
			w->iv->unfolded_ns += shown.u + shown.s + shown.st;
	}
	return 0;
}

static int dead_work(struct work *w)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	size_t i, k;

	for (i = 0, k = 0; i < cur->nthreads; i++)
		k += !!(cur->threads[i].flags & PTOP_RECF_EXEC);
	w->execs = malloc((k ? k : 1) * sizeof(*w->execs));
	if (!w->execs)
		return -ENOMEM;
	for (i = 0; i < cur->nthreads; i++)
		if (cur->threads[i].flags & PTOP_RECF_EXEC)
			w->execs[w->nexecs++] = &cur->threads[i];

	/* own time of each previous group's live threads, for T_d(k-1) */
	for (i = 0; i < prev->nthreads; i++) {
		const struct ptop_rec *t = &prev->threads[i];
		ssize_t pgi = index_of(prev->groups, ptop_snap_find_tgid(prev, t->tgid));
		const struct ptop_rec *pg;
		ssize_t gi;

		if (pgi < 0)
			continue;
		tri_add(&w->prev_own[pgi], tri_own(t));
		if (thread_lives_on(w, t))
			continue;
		/* gone, its EXIT record not here yet: x* has not moved */
		if (ptop_snap_find_pending(cur, PTOP_REC_THREAD, t->pid,
					   t->start_ns)) {
			/* one late exit per process: its group's, if gone */
			if (cur_group_index(w, prev->groups[pgi].pid,
					    prev->groups[pgi].start_ns, true) >= 0)
				w->iv->nlate++;
			continue;
		}
		/* thread died: its group, if alive, shows the rest in x */
		pg = &prev->groups[pgi];
		gi = cur_group_index(w, pg->pid, pg->start_ns, true);
		if (gi >= 0)
			tri_add(&w->xsub[gi], tri_own(t));
	}

	for (i = 0, k = 0; i < cur->nexits; i++)
		k += cur->exits[i].kind == PTOP_REC_GROUP;
	w->gexits = malloc((k ? k : 1) * sizeof(*w->gexits));
	if (!w->gexits)
		return -ENOMEM;
	for (i = 0, k = 0; i < cur->nexits; i++)
		if (cur->exits[i].kind == PTOP_REC_GROUP)
			w->gexits[k++] = cur->exits[i];
	w->ngexits = k;
	w->iv->ntask_exits = cur->nexits - k;
	if (k)
		qsort(w->gexits, k, sizeof(*w->gexits), gexit_cmp);
	w->iv->nexited = k;

	/* dead groups: what k-1 showed of them is not new in the target's c */
	for (i = 0; i < prev->ngroups; i++) {
		const struct ptop_rec *d = &prev->groups[i];
		struct tri shown = w->prev_own[i];
		ssize_t gi;

		if (ptop_snap_find_group(cur, d->pid, d->start_ns))
			continue;
		/* its EXIT record is late: nothing was folded yet */
		if (ptop_snap_find_pending(cur, PTOP_REC_GROUP, d->pid,
					   d->start_ns)) {
			w->iv->nlate++;
			continue;
		}
		if (!find_gexit(w, d->pid, d->start_ns))
			w->iv->nexited++;	/* vanished without an EXIT */
		tri_add(&shown, tri_x(d));
		tri_add(&shown, tri_c(d));
		gi = fold_target(w, d);
		if (gi >= 0)
			tri_add(&w->csub[gi], shown);
		else
			w->iv->unfolded_ns += shown.u + shown.s + shown.st;
	}
	return late_exits(w);
}

/*
 * The x* and c* of group g's row: the growth since pg (its previous
 * record; NULL: born in the interval) less what was already shown of
 * the dead in them (xsub, csub).
 */
static void row_xc(struct ptop_row *row, const struct ptop_rec *g,
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

static void apply_xc(struct work *w)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	size_t i;

	for (i = 0; i < cur->ngroups; i++) {
		const struct ptop_rec *g = &cur->groups[i];

		if (w->group_row[i] < 0)
			continue;
		row_xc(&w->iv->rows[w->group_row[i]], g,
		       ptop_snap_find_group(prev, g->pid, g->start_ns),
		       w->xsub[i], w->csub[i], &w->iv->clamped_ns);
	}
}

static void row_total(struct ptop_row *r)
{
	r->total = r->user + r->sys + r->ste + r->cuser + r->csys + r->cste +
		   r->xuser + r->xsys + r->xste;
}

/*
 * Add (sign 1) or take away (sign -1) a row's share of the sum row: in
 * unsigned arithmetic, what is taken away is exactly what was added.
 */
static void sum_add(struct ptop_interval *iv, const struct ptop_row *r, int sign)
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

static void sum_rows(struct ptop_interval *iv)
{
	struct ptop_row *s = &iv->sum;
	size_t i;

	memset(s, 0, sizeof(*s));
	strcpy(s->comm, "sum");
	s->has = iv->caps;
	iv->nprocs = iv->nthreads_all = iv->nrunning = 0;
	for (i = 0; i < iv->nrows; i++) {
		row_total(&iv->rows[i]);
		sum_add(iv, &iv->rows[i], 1);
	}
}

/* A row with figures this interval (or new): the next one recomputes it. */
static bool row_loud(const struct ptop_row *r)
{
	return r->is_new || r->total || r->rdelay || r->nvcsw || r->nivcsw ||
	       r->minflt || r->majflt;
}

static int add_loud(struct ptop_interval *iv, const struct ptop_row *r)
{
	if (ptop_reserve(&iv->loud, &iv->cap_loud, iv->nloud + 1,
			 sizeof(*iv->loud), 64))
		return -ENOMEM;
	iv->loud[iv->nloud++] = (struct ptop_iv_key){ r->pid, r->start_ns };
	return 0;
}

static void system_parts(struct ptop_interval *iv, const struct ptop_snap *prev,
			 const struct ptop_snap *cur)
{
	uint64_t ignore = 0;

	iv->interval_ns = sat_sub(cur->time_ns, prev->time_ns, &ignore);
	iv->time_ns = cur->time_ns;
	iv->ncpu = cur->ncpu;
	iv->caps = cur->caps;
	iv->sys_apart = cur->sys_apart;
	iv->idle_ns = sat_sub(cur->cpu.idle_ns, prev->cpu.idle_ns, &ignore);
	iv->iowait_ns = sat_sub(cur->cpu.iowait_ns, prev->cpu.iowait_ns, &ignore);
	if (cur->sys_apart & PTOP_SYS_STEAL_APART)
		iv->steal_ns = sat_sub(cur->cpu.steal_ns, prev->cpu.steal_ns,
				       &ignore);
	if (cur->sys_apart & PTOP_SYS_IRQ_APART)
		iv->irq_ns = sat_sub(cur->cpu.irq_ns, prev->cpu.irq_ns, &ignore);
	if (cur->flags & PTOP_SAMPLE_INEXACT)
		iv->flags |= PTOP_IV_LOST;
	iv->nlost = cur->nlost;
	iv->tol_ppm = cur->tol_ppm;
	iv->res_ns = cur->res_ns;
	iv->res_what = cur->res_what;
	/* a reading in ticks at either end rounds the interval's deltas */
	if (prev->res_ns > cur->res_ns) {
		iv->res_ns = prev->res_ns;
		iv->res_what = prev->res_what;
	}
}

/* --- the quick path: few tasks changed -------------------------------- */

/* The first place in the sorted a[0, n) whose value is not below v. */
static size_t first_not_below(const size_t *a, size_t n, size_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int idx_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* --- thread mode: the threads by group (struct ptop_interval.tidx) --- */

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
static size_t tidx_group(const struct ptop_interval *iv, uint32_t tgid,
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
static int tidx_build(struct ptop_interval *iv, const struct ptop_snap *cur)
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
 * keys the merge dropped, each in prev: quick_ok_threads()), in with
 * the new ones the answer brought.
 */
static int tidx_update(struct ptop_interval *iv, const struct ptop_snap *prev,
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

static bool key_dropped(const struct ptop_snap_key *keys, size_t n,
			uint32_t pid, uint64_t start_ns)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (keys[mid].pid < pid ||
		    (keys[mid].pid == pid && keys[mid].start_ns < start_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && keys[lo].pid == pid && keys[lo].start_ns == start_ns;
}

/*
 * Thread mode, the dead: every dead thread had a row of prev; a dead
 * group is the only one of its tgid in prev and took every thread of
 * prev in it along (else a thread would be left without its group, a
 * case for the full math).
 */
static bool quick_ok_threads(const struct ptop_interval *iv,
			     const struct ptop_snap *prev,
			     const struct ptop_snap *cur)
{
	size_t k, i, from, end;

	for (k = 0; k < cur->ndropped_threads; k++)
		if (!ptop_snap_find_thread(prev, cur->dropped_threads[k].pid,
					   cur->dropped_threads[k].start_ns))
			return false;
	for (k = 0; k < cur->ndropped_groups; k++) {
		const struct ptop_snap_key *d = &cur->dropped_groups[k];
		const struct ptop_rec *g = ptop_snap_find_group(prev, d->pid,
								d->start_ns);

		if (!g || ptop_snap_find_tgid(prev, g->pid) != g)
			return false;
		end = tidx_group(iv, g->pid, &from);
		for (i = from; i < end; i++)
			if (!key_dropped(cur->dropped_threads,
					 cur->ndropped_threads, iv->tidx[i].pid,
					 iv->tidx[i].start_ns))
				return false;
	}
	return true;
}

/*
 * Can the interval (prev, cur] be made from iv, the interval that ended
 * at prev? When cur is prev with an incremental answer merged in, iv is
 * in process mode with one row per group of prev, no EXIT record is
 * late (pending), and nothing exec'ed, moved to another group, came
 * back as another incarnation of a pid, or is left without its group
 * (a dead group's thread records are all dead too): the other cases
 * take the full math. Tasks that died are the keys the merge dropped.
 */
static bool quick_ok(const struct ptop_interval *iv,
		     const struct ptop_snap *prev, const struct ptop_snap *cur,
		     bool threads)
{
	size_t k, *of = NULL, nof = 0;
	bool ok = false;

	if (threads != iv->threads || !iv->end_snap_id ||
	    iv->end_snap_id != prev->id || cur->merged_from != prev->id ||
	    iv->nrows != (threads ? prev->nthreads : prev->ngroups) ||
	    cur->caps != prev->caps || cur->npending || prev->npending ||
	    (threads && iv->tidx_snap != prev->id))
		return false;
	for (k = 0; k < cur->nupd_threads; k++) {
		const struct ptop_rec *t = &cur->threads[cur->upd_threads[k]];
		const struct ptop_rec *pt;

		if ((t->flags & PTOP_RECF_EXEC) ||
		    !ptop_snap_find_tgid(cur, t->tgid))
			return false;
		pt = ptop_snap_find_thread(prev, t->pid, t->start_ns);
		if (pt && pt->tgid != t->tgid)
			return false;
	}
	for (k = 0; k < cur->nupd_groups; k++) {
		const struct ptop_rec *g = &cur->groups[cur->upd_groups[k]];

		if (g->flags & PTOP_RECF_EXEC)
			return false;
		if (!ptop_snap_find_group(prev, g->pid, g->start_ns) &&
		    ptop_snap_find_tgid(prev, g->pid))
			return false;	/* a second incarnation of the tgid */
	}
	if (threads)
		return quick_ok_threads(iv, prev, cur);
	if (!cur->ndropped_groups)
		return true;
	/* the groups of prev that the dead threads were in, sorted */
	of = malloc(cur->ndropped_threads * sizeof(*of) + 1);
	if (!of)
		return false;
	for (k = 0; k < cur->ndropped_threads; k++) {
		const struct ptop_snap_key *d = &cur->dropped_threads[k];
		const struct ptop_rec *t, *pg;

		t = ptop_snap_find_thread(prev, d->pid, d->start_ns);
		pg = t ? ptop_snap_find_tgid(prev, t->tgid) : NULL;
		if (pg)
			of[nof++] = (size_t)(pg - prev->groups);
	}
	if (nof > 1)
		qsort(of, nof, sizeof(*of), idx_cmp);
	/* a dead group's row held as many thread records as died with it */
	for (k = 0; k < cur->ndropped_groups; k++) {
		const struct ptop_snap_key *d = &cur->dropped_groups[k];
		const struct ptop_rec *g = ptop_snap_find_group(prev, d->pid,
								d->start_ns);
		size_t gi, lo, first;

		if (!g)
			goto out;
		gi = (size_t)(g - prev->groups);
		lo = first_not_below(of, nof, gi);
		for (first = lo; lo < nof && of[lo] == gi; lo++)
			;
		if (lo - first != iv->rows[gi].nrecs)
			goto out;
	}
	ok = true;
out:
	free(of);
	return ok;
}

/* Room for n changes in iv->changes (kept as it is): 0 or -ENOMEM. */
static int changes_reserve(struct ptop_interval *iv, size_t n)
{
	return ptop_reserve(&iv->changes, &iv->cap_changes, n,
			    sizeof(*iv->changes), 64);
}

/*
 * The groups whose rows change: those the answer brought, those of the
 * threads it brought, those that had figures in the last interval, and
 * more[0, nmore) (where the dead were and went; -1: none).
 * Sorted and unique, in iv->dirty; returns the count or -ENOMEM.
 */
static ssize_t quick_dirty(struct ptop_interval *iv, const struct ptop_snap *cur,
			   const ssize_t *more, size_t nmore)
{
	size_t n = cur->nupd_groups + cur->nupd_threads + iv->nloud + nmore, k,
	       m = 0;

	if (ptop_reserve(&iv->dirty, &iv->cap_dirty, n, sizeof(*iv->dirty), 64))
		return -ENOMEM;
	for (k = 0; k < cur->nupd_groups; k++)
		iv->dirty[m++] = cur->upd_groups[k];
	for (k = 0; k < cur->nupd_threads; k++)
		iv->dirty[m++] = index_of(cur->groups, ptop_snap_find_tgid(cur,
				 cur->threads[cur->upd_threads[k]].tgid));
	for (k = 0; k < iv->nloud; k++) {
		ssize_t gi = index_of(cur->groups,
				      ptop_snap_find_group(cur, iv->loud[k].pid,
							   iv->loud[k].start_ns));

		if (gi >= 0)	/* else it died */
			iv->dirty[m++] = gi;
	}
	for (k = 0; k < nmore; k++)
		if (more[k] >= 0)
			iv->dirty[m++] = (size_t)more[k];
	if (m)	/* iv->dirty may be NULL then: qsort(NULL, 0) is UB */
		qsort(iv->dirty, m, sizeof(*iv->dirty), idx_cmp);
	for (k = 0, n = 0; k < m; k++)
		if (!n || iv->dirty[n - 1] != iv->dirty[k])
			iv->dirty[n++] = iv->dirty[k];
	return (ssize_t)n;
}

/*
 * Open the places of the groups that are new in cur: rows[] was prev's,
 * one per group in the same order, and cur is prev plus the new groups.
 * The runs between them move once, from the end.
 */
static void quick_insert(struct ptop_interval *iv, const struct ptop_snap *prev,
			 const struct ptop_snap *cur)
{
	size_t dst = cur->ngroups, src = iv->nrows, k = cur->nupd_groups;

	while (k-- > 0) {
		size_t pos = cur->upd_groups[k], len;
		const struct ptop_rec *g = &cur->groups[pos];

		if (ptop_snap_find_group(prev, g->pid, g->start_ns))
			continue;
		len = dst - (pos + 1);
		memmove(&iv->rows[pos + 1], &iv->rows[src - len],
			len * sizeof(*iv->rows));
		src -= len;
		dst = pos;
		memset(&iv->rows[pos], 0, sizeof(iv->rows[pos]));
	}
	iv->nrows = cur->ngroups;
}

/*
 * Row gi again, first part: the row as it was (the own time of its
 * unchanged threads included) without its figures. pg: the group's
 * previous record (NULL: new).
 */
static void quick_reset(struct ptop_interval *iv, const struct ptop_snap *cur,
			size_t gi, const struct ptop_rec *pg)
{
	struct ptop_row *row = &iv->rows[gi], was = *row;

	row_identity(row, &cur->groups[gi], &cur->groups[gi]);
	row->has = cur->caps;
	row->is_new = !pg;
	if (!pg)
		return;
	row->time_ns = was.time_ns - ptop_rec_x(pg);
	row->nrecs = was.nrecs;
	row->live_u = was.live_u;
	row->live_s = was.live_s;
	row->live_st = was.live_st;
}

/* Take the rows at the sorted places pos[0, np) out (dead groups'). */
static void quick_remove(struct ptop_interval *iv, const size_t *pos, size_t np)
{
	size_t j, dst, from, len;

	for (j = 0, dst = np ? pos[0] : 0; j < np; j++) {
		from = pos[j] + 1;
		len = (j + 1 < np ? pos[j + 1] : iv->nrows) - from;
		if (len)
			memmove(&iv->rows[dst], &iv->rows[from],
				len * sizeof(*iv->rows));
		dst += len;
	}
	iv->nrows -= np;
}


/*
 * The dead of a quick interval, found from the keys the merge dropped:
 * prev's index of each dead group and where its time went (cur's group,
 * -1: nowhere), each dead thread's record in prev and its group in cur
 * (-1: it died too). The GROUP EXIT records go to w->gexits, sorted.
 */
struct quick_dead {
	size_t *group;		/* prev index, ascending */
	ssize_t *target;	/* cur index of the receiver */
	const struct ptop_rec **thread;
	ssize_t *in;		/* cur index of the dead thread's group */
	ssize_t *more;		/* target[] and in[]: rows to recompute */
	size_t ngroups, nthreads;
};

static int quick_find_dead(struct work *w, struct quick_dead *d)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	size_t ng = cur->ndropped_groups, nt = cur->ndropped_threads, i, k;

	for (i = 0, k = 0; i < cur->nexits; i++)
		k += cur->exits[i].kind == PTOP_REC_GROUP;
	w->gexits = malloc((k ? k : 1) * sizeof(*w->gexits));
	d->group = malloc((ng ? ng : 1) * sizeof(*d->group));
	d->thread = malloc((nt ? nt : 1) * sizeof(*d->thread));
	d->more = malloc((ng + nt ? ng + nt : 1) * sizeof(*d->more));
	if (!w->gexits || !d->group || !d->thread || !d->more)
		return -ENOMEM;
	d->target = d->more;
	d->in = d->more + ng;
	for (i = 0, k = 0; i < cur->nexits; i++)
		if (cur->exits[i].kind == PTOP_REC_GROUP)
			w->gexits[k++] = cur->exits[i];
	w->ngexits = k;
	if (k)
		qsort(w->gexits, k, sizeof(*w->gexits), gexit_cmp);
	w->iv->nexited = k;
	w->iv->ntask_exits = cur->nexits - k;
	/* quick_ok() found each of them in prev */
	for (i = 0; i < ng; i++) {
		const struct ptop_snap_key *key = &cur->dropped_groups[i];
		const struct ptop_rec *g = ptop_snap_find_group(prev, key->pid,
								key->start_ns);

		d->group[i] = (size_t)(g - prev->groups);
		d->target[i] = fold_target(w, g);
		if (!find_gexit(w, g->pid, g->start_ns))
			w->iv->nexited++;	/* vanished without an EXIT */
	}
	d->ngroups = ng;
	for (i = 0, k = 0; i < nt; i++) {
		const struct ptop_snap_key *key = &cur->dropped_threads[i];
		const struct ptop_rec *t, *pg;

		t = ptop_snap_find_thread(prev, key->pid, key->start_ns);
		pg = t ? ptop_snap_find_tgid(prev, t->tgid) : NULL;
		if (!pg)
			continue;	/* not in prev's rows: not in any sum */
		d->thread[k] = t;
		d->in[k++] = cur_group_index(w, pg->pid, pg->start_ns, true);
	}
	d->nthreads = k;
	return 0;
}

static int quick_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
			 const struct ptop_snap *cur)
{
	struct work w = { .prev = prev, .cur = cur, .iv = iv };
	struct quick_dead d = { 0 };
	struct tri *xsub = NULL, *csub = NULL;
	ssize_t nd;
	size_t k, nc;
	int ret;

	if (grow(iv, cur->ngroups + cur->ndropped_groups))
		return -ENOMEM;
	ret = quick_find_dead(&w, &d);
	if (ret)
		goto out;
	nd = quick_dirty(iv, cur, d.more, d.ngroups + d.nthreads);
	ret = (int)nd;
	if (nd < 0)
		goto out;
	ret = -ENOMEM;
	nc = (size_t)nd + d.ngroups;
	if (changes_reserve(iv, nc))
		goto out;
	/* what the dead take from x* and c*, per dirty row */
	xsub = calloc(nd ? (size_t)nd : 1, sizeof(*xsub));
	csub = calloc(nd ? (size_t)nd : 1, sizeof(*csub));
	if (!xsub || !csub)
		goto out;
	/* the sum without the rows that change or go, before they move */
	for (k = 0; k < (size_t)nd; k++) {
		const struct ptop_rec *g = &cur->groups[iv->dirty[k]];
		const struct ptop_rec *pg =
			ptop_snap_find_group(prev, g->pid, g->start_ns);
		struct ptop_iv_change *c = &iv->changes[k];

		c->row = iv->dirty[k];
		c->was = pg != NULL;
		if (pg) {
			c->old = iv->rows[pg - prev->groups];
			sum_add(iv, &c->old, -1);
		}
	}
	/*
	 * A dead group: what the last interval showed of it (its threads'
	 * own then, x*, c*) is not new in its receiver's c*.
	 */
	for (k = 0; k < d.ngroups; k++) {
		const struct ptop_rec *g = &prev->groups[d.group[k]];
		struct ptop_iv_change *c = &iv->changes[(size_t)nd + k];
		struct tri shown;

		c->row = PTOP_IV_GONE;
		c->was = true;
		c->old = iv->rows[d.group[k]];
		sum_add(iv, &c->old, -1);
		shown = (struct tri){ c->old.live_u, c->old.live_s,
				      c->old.live_st };
		tri_add(&shown, tri_x(g));
		tri_add(&shown, tri_c(g));
		if (d.target[k] >= 0)
			tri_add(&csub[first_not_below(iv->dirty, (size_t)nd,
						      (size_t)d.target[k])], shown);
		else
			iv->unfolded_ns += tri_total(shown);
	}
	iv->nchanges = nc;
	quick_remove(iv, d.group, d.ngroups);
	quick_insert(iv, prev, cur);
	for (k = 0; k < (size_t)nd; k++) {
		const struct ptop_rec *g = &cur->groups[iv->dirty[k]];

		quick_reset(iv, cur, iv->dirty[k],
			    ptop_snap_find_group(prev, g->pid, g->start_ns));
	}
	/* a dead thread of a live group: its group shows the rest in x */
	for (k = 0; k < d.nthreads; k++) {
		if (d.in[k] < 0)
			continue;
		row_drop_own(&iv->rows[d.in[k]], d.thread[k]);
		tri_add(&xsub[first_not_below(iv->dirty, (size_t)nd,
					      (size_t)d.in[k])],
			tri_own(d.thread[k]));
	}
	/* the answer's threads, as make_rows() adds them */
	for (k = 0; k < cur->nupd_threads; k++) {
		const struct ptop_rec *t = &cur->threads[cur->upd_threads[k]];
		const struct ptop_rec *pt = ptop_snap_prev_thread(prev, t);
		struct ptop_row *row = &iv->rows[ptop_snap_find_tgid(cur, t->tgid) -
						 cur->groups];

		if (pt)
			row_drop_own(row, pt);
		row_add_own(row, t, pt);
	}
	iv->nloud = 0;
	for (k = 0; k < (size_t)nd; k++) {
		struct ptop_row *row = &iv->rows[iv->dirty[k]];
		const struct ptop_rec *g = &cur->groups[iv->dirty[k]];

		row_xc(row, g, ptop_snap_find_group(prev, g->pid, g->start_ns),
		       xsub[k], csub[k], &iv->clamped_ns);
		row_total(row);
		sum_add(iv, row, 1);
		if (row_loud(row) && add_loud(iv, row))
			goto out;
	}
	ret = 0;
out:
	free(xsub);
	free(csub);
	free(d.group);
	free(d.thread);
	free(d.more);
	free(w.gexits);
	return ret;
}

/*
 * Thread mode: the rows to compute again, by cur thread index; gslot:
 * the place in the dirty groups of the group whose x* and c* the row
 * carries (its leader's row, or its first thread's), -1: none.
 */
struct tdirty {
	size_t ci;
	ssize_t gslot;
};

static int tdirty_cmp(const void *a, const void *b)
{
	const struct tdirty *x = a, *y = b;

	if (x->ci != y->ci)
		return x->ci < y->ci ? -1 : 1;
	/* the one that carries a group's x* and c* first */
	return (y->gslot >= 0) - (x->gslot >= 0);
}

/* Open the places pos[0, np) (ascending, of the nrows rows to be). */
static void open_places(struct ptop_interval *iv, const size_t *pos, size_t np,
			size_t nrows)
{
	size_t dst = nrows, src = iv->nrows, k = np;

	while (k-- > 0) {
		size_t len = dst - (pos[k] + 1);

		memmove(&iv->rows[pos[k] + 1], &iv->rows[src - len],
			len * sizeof(*iv->rows));
		src -= len;
		dst = pos[k];
		memset(&iv->rows[pos[k]], 0, sizeof(iv->rows[pos[k]]));
	}
	iv->nrows = nrows;
}

/* Thread ci's row of cur from scratch, as make_rows() and apply_xc() make it. */
static void thread_row(struct ptop_interval *iv, const struct ptop_snap *prev,
		       const struct ptop_snap *cur, size_t ci,
		       const struct ptop_rec *xg, struct tri xsub, struct tri csub)
{
	const struct ptop_rec *t = &cur->threads[ci];
	const struct ptop_rec *pt = ptop_snap_prev_thread(prev, t);
	const struct ptop_rec *g = ptop_snap_find_tgid(cur, t->tgid);
	struct ptop_row *row = &iv->rows[ci];

	row_identity(row, t, g);
	row->is_thread = true;
	row->is_new = !pt;
	row->has = cur->caps & ~(PTOP_DATA_X | PTOP_DATA_C);
	row_add_own(row, t, pt);
	if (xg) {
		row->has |= cur->caps & (PTOP_DATA_X | PTOP_DATA_C);
		row_xc(row, xg, ptop_snap_find_group(prev, xg->pid, xg->start_ns),
		       xsub, csub, &iv->clamped_ns);
	}
	row_total(row);
}

static ssize_t slot_of(const size_t *a, size_t n, ssize_t v)
{
	size_t i;

	if (v < 0)
		return -1;
	i = first_not_below(a, n, (size_t)v);
	return i < n && a[i] == (size_t)v ? (ssize_t)i : -1;
}

/*
 * The quick path in thread mode: rows[] is prev's threads, one row per
 * thread in the same order. Computed again: every thread of each group
 * that the answer brought, that has a new or a dead thread, that
 * receives a dead group's time, or that had a row with figures (the
 * group's identity is on each of its thread rows, its x* and c* on one
 * of them), found in tidx; the dead threads' rows go, the new ones'
 * places open.
 */
static int quick_compute_threads(struct ptop_interval *iv,
				 const struct ptop_snap *prev,
				 const struct ptop_snap *cur)
{
	struct work w = { .prev = prev, .cur = cur, .iv = iv };
	struct quick_dead d = { 0 };
	size_t nt = cur->ndropped_threads, ndg = 0, nrow = 0, nnew = 0, k, i;
	size_t *dg = NULL, *dpos = NULL, *newpos = NULL, from, end, cap;
	struct tdirty *rows = NULL;
	struct tri *xsub = NULL, *csub = NULL;
	int ret;

	if (grow(iv, cur->nthreads + nt))
		return -ENOMEM;
	ret = quick_find_dead(&w, &d);
	if (!ret)
		ret = tidx_update(iv, prev, cur);
	if (ret)
		goto out;
	ret = -ENOMEM;
	/* the groups whose rows change (cur indices) */
	cap = cur->nupd_groups + cur->nupd_threads + d.ngroups + d.nthreads +
	      iv->nloud + 1;
	dg = malloc(cap * sizeof(*dg));
	dpos = malloc((nt ? nt : 1) * sizeof(*dpos));
	newpos = malloc((cur->nupd_threads ? cur->nupd_threads : 1) *
			sizeof(*newpos));
	if (!dg || !dpos || !newpos)
		goto out;
	for (k = 0; k < cur->nupd_groups; k++)
		dg[ndg++] = cur->upd_groups[k];
	for (k = 0; k < cur->nupd_threads; k++)
		dg[ndg++] = (size_t)index_of(cur->groups,
			ptop_snap_find_tgid(cur, cur->threads[cur->upd_threads[k]].tgid));
	for (k = 0; k < d.ngroups + d.nthreads; k++)
		if (d.more[k] >= 0)
			dg[ndg++] = (size_t)d.more[k];
	for (k = 0; k < iv->nloud; k++) {
		const struct ptop_rec *t = ptop_snap_find_thread(cur,
				iv->loud[k].pid, iv->loud[k].start_ns);
		ssize_t gi = t ? index_of(cur->groups,
					  ptop_snap_find_tgid(cur, t->tgid)) : -1;

		if (gi >= 0)
			dg[ndg++] = (size_t)gi;
	}
	if (ndg > 1)
		qsort(dg, ndg, sizeof(*dg), idx_cmp);
	for (k = 0, i = 0; k < ndg; k++)
		if (!i || dg[i - 1] != dg[k])
			dg[i++] = dg[k];
	ndg = i;
	/* their threads, and loud rows of threads without a group */
	for (k = 0, cap = iv->nloud + 1; k < ndg; k++) {
		end = tidx_group(iv, cur->groups[dg[k]].pid, &from);
		cap += end - from;
	}
	rows = malloc(cap * sizeof(*rows));
	xsub = calloc(ndg ? ndg : 1, sizeof(*xsub));
	csub = calloc(ndg ? ndg : 1, sizeof(*csub));
	if (!rows || !xsub || !csub)
		goto out;
	for (k = 0; k < ndg; k++) {
		const struct ptop_rec *g = &cur->groups[dg[k]];
		ssize_t carrier = -1;

		end = tidx_group(iv, g->pid, &from);
		for (i = from; i < end; i++) {
			const struct ptop_rec *t = ptop_snap_find_thread(cur,
					iv->tidx[i].pid, iv->tidx[i].start_ns);

			rows[nrow].ci = (size_t)(t - cur->threads);
			rows[nrow].gslot = -1;
			/* the leader's row (the last), else the first thread's */
			if (carrier < 0 || t->pid == t->tgid)
				carrier = (ssize_t)nrow;
			nrow++;
		}
		/* a group that is not its tgid's (another incarnation): no row */
		if (carrier >= 0 && ptop_snap_find_tgid(cur, g->pid) == g)
			rows[carrier].gslot = (ssize_t)k;
	}
	for (k = 0; k < iv->nloud; k++) {
		const struct ptop_rec *t = ptop_snap_find_thread(cur,
				iv->loud[k].pid, iv->loud[k].start_ns);

		if (t && !ptop_snap_find_tgid(cur, t->tgid))
			rows[nrow++] = (struct tdirty){ (size_t)(t - cur->threads), -1 };
	}
	if (nrow > 1)
		qsort(rows, nrow, sizeof(*rows), tdirty_cmp);
	for (k = 0, i = 0; k < nrow; k++)
		if (!i || rows[i - 1].ci != rows[k].ci)
			rows[i++] = rows[k];
	nrow = i;
	/* a dead thread of a live group: its group shows the rest in x */
	for (k = 0; k < d.nthreads; k++) {
		ssize_t s = slot_of(dg, ndg, d.in[k]);

		if (s >= 0)
			tri_add(&xsub[s], tri_own(d.thread[k]));
	}
	/*
	 * A dead group: its threads' own then (all died with it), x*, c*
	 * are not new in its receiver's c*.
	 */
	for (k = 0; k < d.ngroups; k++) {
		const struct ptop_rec *g = &prev->groups[d.group[k]];
		struct tri shown = tri_x(g);
		ssize_t s = slot_of(dg, ndg, d.target[k]);

		tri_add(&shown, tri_c(g));
		for (i = 0; i < d.nthreads; i++)
			if (d.thread[i]->tgid == g->pid)
				tri_add(&shown, tri_own(d.thread[i]));
		if (s >= 0)
			tri_add(&csub[s], shown);
		else
			iv->unfolded_ns += tri_total(shown);
	}
	/* what changes: the rows computed again, the dead threads' rows */
	k = nrow + nt;
	if (changes_reserve(iv, k))
		goto out;
	for (k = 0; k < nrow; k++) {
		const struct ptop_rec *t = &cur->threads[rows[k].ci];
		const struct ptop_rec *pt = ptop_snap_find_thread(prev, t->pid,
								  t->start_ns);
		struct ptop_iv_change *c = &iv->changes[k];

		c->row = rows[k].ci;
		c->was = pt != NULL;
		if (pt) {
			c->old = iv->rows[pt - prev->threads];
			sum_add(iv, &c->old, -1);
		}
	}
	for (k = 0; k < nt; k++) {
		const struct ptop_snap_key *key = &cur->dropped_threads[k];
		struct ptop_iv_change *c = &iv->changes[nrow + k];

		/* sorted keys: ascending places in prev */
		dpos[k] = (size_t)(ptop_snap_find_thread(prev, key->pid,
							 key->start_ns) -
				   prev->threads);
		c->row = PTOP_IV_GONE;
		c->was = true;
		c->old = iv->rows[dpos[k]];
		sum_add(iv, &c->old, -1);
	}
	iv->nchanges = nrow + nt;
	for (k = 0; k < cur->nupd_threads; k++) {
		const struct ptop_rec *t = &cur->threads[cur->upd_threads[k]];

		if (!ptop_snap_find_thread(prev, t->pid, t->start_ns))
			newpos[nnew++] = cur->upd_threads[k];
	}
	quick_remove(iv, dpos, nt);
	open_places(iv, newpos, nnew, cur->nthreads);
	iv->nloud = 0;
	for (k = 0; k < nrow; k++) {
		ssize_t s = rows[k].gslot;
		struct ptop_row *row = &iv->rows[rows[k].ci];

		thread_row(iv, prev, cur, rows[k].ci,
			   s >= 0 ? &cur->groups[dg[s]] : NULL,
			   s >= 0 ? xsub[s] : (struct tri){ 0 },
			   s >= 0 ? csub[s] : (struct tri){ 0 });
		sum_add(iv, row, 1);
		if (row_loud(row) && add_loud(iv, row))
			goto out;
	}
	ret = 0;
out:
	if (ret)
		iv->tidx_snap = 0;
	free(dg);
	free(dpos);
	free(newpos);
	free(rows);
	free(xsub);
	free(csub);
	free(d.group);
	free(d.thread);
	free(d.more);
	free(w.gexits);
	return ret;
}

/* The full math: every row from the two snapshots. */
static int full_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
			const struct ptop_snap *cur)
{
	struct work w = { .prev = prev, .cur = cur, .iv = iv };
	size_t ng = cur->ngroups ? cur->ngroups : 1, i;
	int ret = -ENOMEM;

	memset(&iv->sum, 0, sizeof(iv->sum));
	w.xsub = calloc(ng, sizeof(*w.xsub));
	w.csub = calloc(ng, sizeof(*w.csub));
	w.group_row = calloc(ng, sizeof(*w.group_row));
	w.prev_own = calloc(prev->ngroups ? prev->ngroups : 1, sizeof(*w.prev_own));
	if (!w.xsub || !w.csub || !w.group_row || !w.prev_own)
		goto out;
	ret = make_rows(&w);
	if (!ret)
		ret = dead_work(&w);
	if (ret)
		goto out;
	apply_xc(&w);
	sum_rows(iv);
	iv->nloud = 0;
	for (i = 0; i < iv->nrows; i++)
		if (row_loud(&iv->rows[i]) && add_loud(iv, &iv->rows[i])) {
			ret = -ENOMEM;
			goto out;
		}
out:
	free(w.xsub);
	free(w.csub);
	free(w.group_row);
	free(w.prev_own);
	free(w.gexits);
	free(w.execs);
	return ret;
}

int ptop_interval_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
			  const struct ptop_snap *cur, bool threads)
{
	int ret;

	if (!prev || !cur)
		return -EINVAL;
	iv->quick = quick_ok(iv, prev, cur, threads);
	iv->end_snap_id = 0;	/* until this one is complete */
	iv->from_snap_id = prev->id;
	iv->nchanges = 0;
	iv->threads = threads;
	iv->flags = 0;
	iv->clamped_ns = 0;
	iv->unfolded_ns = 0;
	iv->nexited = 0;
	iv->ntask_exits = 0;
	iv->nlate = 0;
	if (iv->quick && threads) {
		ret = quick_compute_threads(iv, prev, cur);
	} else if (iv->quick) {
		ret = quick_compute(iv, prev, cur);
	} else {
		iv->nrows = 0;
		iv->tidx_snap = 0;
		ret = full_compute(iv, prev, cur);
		/* only a source of incremental answers makes quick ones */
		if (!ret && threads && (cur->caps & PTOP_CAP_INCREMENTAL))
			ret = tidx_build(iv, cur);
	}
	if (ret)
		return ret;
	system_parts(iv, prev, cur);
	iv->sum.has = iv->caps;
	ptop_verdict_judge(iv, prev->window_ns, cur->window_ns,
			   prev->flags & PTOP_SAMPLE_UNSETTLED);
	iv->end_snap_id = cur->id;
	return 0;
}

void ptop_interval_init(struct ptop_interval *iv)
{
	memset(iv, 0, sizeof(*iv));
}

void ptop_interval_free(struct ptop_interval *iv)
{
	free(iv->rows);
	free(iv->loud);
	free(iv->dirty);
	free(iv->changes);
	free(iv->tidx);
	memset(iv, 0, sizeof(*iv));
}

uint64_t ptop_interval_accounted_ns(const struct ptop_interval *iv)
{
	return iv->sum.total + iv->idle_ns + iv->steal_ns + iv->irq_ns;
}

uint64_t ptop_interval_capacity_ns(const struct ptop_interval *iv)
{
	return (uint64_t)iv->ncpu * iv->interval_ns;
}

double ptop_interval_pct(const struct ptop_interval *iv, uint64_t ns)
{
	if (!iv->interval_ns)
		return 0.0;
	return (double)ns * 100.0 / (double)iv->interval_ns;
}
