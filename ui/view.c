// SPDX-License-Identifier: GPL-2.0
/*
 * The view: select, filter, exited rows, sort, tree, from a const
 * interval into rows of its own (the tree itself is in ui/tree.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/reserve.h"
#include "filter.h"
#include "tree.h"
#include "view.h"

/* --- the view --------------------------------------------------------- */

void ui_view_init(struct ui_view *v)
{
	memset(v, 0, sizeof(*v));
}

void ui_view_free(struct ui_view *v)
{
	if (v->have_re)
		regfree(&v->re);
	free(v->rows);
	free(v->collapsed.pid);
	free(v->tagged.pid);
	free(v->built.tagged.pid);
	free(v->ins);
	free(v->rem);
	free(v->ipos);
	free(v->built.collapsed.pid);
	ui_tq_free(v->tq);
	free(v->chg);
	free(v->xrows);
	memset(v, 0, sizeof(*v));
}

int ui_view_set_filter(struct ui_view *v, const char *text, bool regex,
		       char *err, size_t errlen)
{
	regex_t re;
	int rc;

	if (regex && text[0]) {
		rc = regcomp(&re, text, REG_EXTENDED | REG_ICASE | REG_NOSUB);
		if (rc) {
			char why[200];

			regerror(rc, &re, why, sizeof(why));
			snprintf(err, errlen, "bad regex '%s': %s", text, why);
			return -EINVAL;
		}
		if (v->have_re)
			regfree(&v->re);
		v->re = re;
		v->have_re = true;
	} else if (v->have_re) {
		regfree(&v->re);
		v->have_re = false;
	}
	snprintf(v->filter, sizeof(v->filter), "%s", text);
	v->filter_regex = regex;
	return 0;
}

bool ui_view_is_kthread(const struct ptop_row *r)
{
	return r->tgid == 2 || r->ppid == 2;
}

bool ui_view_match(const struct ui_view *v, const struct ptop_row *r)
{
	char user[64];

	if (v->hide_kthreads && ui_view_is_kthread(r))
		return false;
	if (v->by_user && r->uid != v->uid)
		return false;
	if (!v->filter[0])
		return true;
	if (!v->filter_regex || !v->have_re)
		return ui_filter_match(r, v->filter);
	if (!regexec(&v->re, r->comm, 0, NULL, 0))
		return true;
	ptop_col_format(&ptop_cols[PTOP_COL_USER], r, NULL, user, sizeof(user));
	return !regexec(&v->re, user, 0, NULL, 0);
}

static bool pid_wanted(const struct ui_view_opts *o, const struct ptop_row *r)
{
	size_t i;

	if (!o || !o->npids)
		return true;
	for (i = 0; i < o->npids; i++)
		if (o->pids[i] == r->pid || o->pids[i] == r->tgid)
			return true;
	return false;
}

static int grow(struct ui_view *v, size_t n)
{
	struct ui_vrow *r;

	if (n <= v->cap)
		return 0;
	r = realloc(v->rows, n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	v->rows = r;
	v->cap = n;
	return 0;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * A task that died in the interval, as a row: its share of the interval
 * (the final counters less what the previous snapshot had of it; all of
 * them when it was born in the interval), its exit status.
 */
static void exited_row(struct ui_vrow *vr, const struct ptop_rec *e,
		       const struct ptop_rec *p,
		       const struct ptop_interval *iv)
{
	struct ptop_row *r = &vr->r;

	memset(vr, 0, sizeof(*vr));
	r->pid = e->pid;
	r->tgid = e->tgid;
	r->ppid = e->ppid;
	r->acct_ppid = e->acct_ptgid;
	r->uid = e->uid;
	r->state = 'X';
	memcpy(r->comm, e->comm, sizeof(r->comm));
	r->comm[sizeof(r->comm) - 1] = '\0';
	r->start_ns = e->start_ns;
	r->is_thread = iv->threads;
	r->is_new = !p;
	r->has = iv->sum.has;
	r->user = sub0(e->utime_ns, p ? p->utime_ns : 0);
	r->sys = sub0(e->stime_ns, p ? p->stime_ns : 0);
	r->ste = sub0(e->steal_ns, p ? p->steal_ns : 0);
	if (e->kind == PTOP_REC_GROUP) {
		/*
		 * A dead group's threads are all dead: its time is its own
		 * (live threads then, x* at the end), shown as own, T(k) -
		 * T(k-1) with T = own + x as in the interval math.
		 */
		r->user = sub0(e->utime_ns + e->xutime_ns,
			       p ? p->utime_ns + p->xutime_ns : 0);
		r->sys = sub0(e->stime_ns + e->xstime_ns,
			      p ? p->stime_ns + p->xstime_ns : 0);
		r->ste = sub0(e->steal_ns + e->xsteal_ns,
			      p ? p->steal_ns + p->xsteal_ns : 0);
		r->cuser = sub0(e->cutime_ns, p ? p->cutime_ns : 0);
		r->csys = sub0(e->cstime_ns, p ? p->cstime_ns : 0);
		r->cste = sub0(e->csteal_ns, p ? p->csteal_ns : 0);
	} else {
		r->has &= ~(PTOP_DATA_X | PTOP_DATA_C);
	}
	r->total = r->user + r->sys + r->ste + r->xuser + r->xsys + r->xste +
		   r->cuser + r->csys + r->cste;
	r->time_ns = ptop_rec_own(e) +
		     (e->kind == PTOP_REC_GROUP ? ptop_rec_x(e) : 0);
	r->nthreads = 0;
	vr->exited = true;
	vr->exit_code = (int)e->exit_code;
}

static size_t add_exited(struct ui_view *v, const struct ui_view_opts *o,
			 const struct ptop_interval *iv,
			 const struct ptop_snap *prev,
			 const struct ptop_snap *cur, struct ui_vrow *out,
			 size_t k)
{
	uint16_t kind = iv->threads ? PTOP_REC_THREAD : PTOP_REC_GROUP;
	size_t i;

	v->nexited_shown = v->nexited_tiny = 0;
	for (i = 0; cur && i < cur->nexits; i++) {
		const struct ptop_rec *e = &cur->exits[i], *p = NULL;

		if (e->kind != kind)
			continue;
		if (prev)
			p = kind == PTOP_REC_GROUP ?
				ptop_snap_find_group(prev, e->pid, e->start_ns) :
				ptop_snap_find_thread(prev, e->pid, e->start_ns);
		exited_row(&out[k], e, p, iv);
		if (!pid_wanted(o, &out[k].r) || !ui_view_match(v, &out[k].r))
			continue;
		/*
		 * What shows as 0.00 says nothing and a fork storm has
		 * thousands of them: counted, not listed.
		 */
		if (ptop_interval_pct(iv, out[k].r.total) < UI_EXITED_MIN_PCT) {
			v->nexited_tiny++;
			continue;
		}
		out[k].tagged = ui_pidset_has(&v->tagged, out[k].r.pid);
		k++;
		v->nexited_shown++;
	}
	return k;
}

/* --- the quick build: few rows changed -------------------------------- */

/* to = from (NULL: empty); 0 or -ENOMEM */
static int pidset_copy(struct ui_pidset *to, const struct ui_pidset *from)
{
	size_t n = from ? from->n : 0;

	if (n > to->cap) {
		uint32_t *p = realloc(to->pid, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		to->pid = p;
		to->cap = n;
	}
	if (n)
		memcpy(to->pid, from->pid, n * sizeof(*to->pid));
	to->n = n;
	return 0;
}

static bool pidset_same(const struct ui_pidset *a, const struct ui_pidset *b)
{
	return a->n == b->n &&
	       (!a->n || !memcmp(a->pid, b->pid, a->n * sizeof(*a->pid)));
}

/* What this build used, for the next one to compare (struct ui_view_built). */
static void remember(struct ui_view *v, const struct ui_view_opts *o,
		     const struct ptop_interval *iv)
{
	struct ui_view_built *b = &v->built;

	v->built_end = 0;
	if ((v->tree ? !ui_tq_valid(v) : v->nexited_shown || v->nexited_tiny) ||
	    o->npids > sizeof(b->pids) / sizeof(b->pids[0]))
		return;
	if (pidset_copy(&b->collapsed, v->tree ? &v->collapsed : NULL))
		return;
	if (pidset_copy(&b->tagged, &v->tagged))
		return;
	b->tree = v->tree;
	b->show_exited = v->show_exited;
	b->hide_kthreads = v->hide_kthreads;
	b->by_user = v->by_user;
	b->uid = v->uid;
	b->filter_regex = v->filter_regex;
	memcpy(b->filter, v->filter, sizeof(b->filter));
	b->sort_id = o->sort_id;
	b->sort_asc = o->sort_asc;
	b->npids = o->npids;
	if (o->npids)
		memcpy(b->pids, o->pids, o->npids * sizeof(*o->pids));
	v->built_end = iv->end_snap_id;
}

static bool same_settings(const struct ui_view *v, const struct ui_view_opts *o)
{
	const struct ui_view_built *b = &v->built;

	if (b->tree != v->tree || b->show_exited != v->show_exited ||
	    (v->tree && !pidset_same(&b->collapsed, &v->collapsed)))
		return false;
	return b->hide_kthreads == v->hide_kthreads &&
	       b->by_user == v->by_user && b->uid == v->uid &&
	       b->filter_regex == v->filter_regex &&
	       !strcmp(b->filter, v->filter) && b->sort_id == o->sort_id &&
	       b->sort_asc == o->sort_asc && b->npids == o->npids &&
	       (!o->npids || !memcmp(b->pids, o->pids,
				     o->npids * sizeof(*o->pids))) &&
	       pidset_same(&b->tagged, &v->tagged);
}

static void live_vrow(const struct ui_view *v, struct ui_vrow *vr,
		      const struct ptop_row *r)
{
	memset(vr, 0, sizeof(*vr));
	vr->r = *r;
	vr->exit_code = -1;
	vr->tagged = ui_pidset_has(&v->tagged, r->pid);
}

static int reserve_vrows(struct ui_vrow **p, size_t *cap, size_t n)
{
	struct ui_vrow *nv;

	if (n <= *cap)
		return 0;
	nv = realloc(*p, n * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*p = nv;
	*cap = n;
	return 0;
}

static int pos_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The first place in rows[0, n) not before vr in the sort order. */
static size_t lower_bound(const struct ui_view *v, const struct ui_view_opts *o,
			  const struct ui_vrow *vr, size_t n)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ui_vrow_cmp(&v->rows[mid], vr, o->sort_id, o->sort_asc) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The last build's sorted rows, with the interval's changed rows taken
 * out (found by what they were) and put back where they go now. The
 * rows between two places touched keep their order and move as one run
 * straight to where they go (most runs: not at all), so a row is never
 * copied one by one nor moved twice.
 * 0; -ENOMEM or -ESRCH (a row not where it should be) before anything
 * changed: the caller builds in full.
 */
static int quick_build(struct ui_view *v, const struct ui_view_opts *o,
		       const struct ptop_interval *iv)
{
	size_t n = v->nrows, nrem = 0, nins = 0, nseg, k, i, j, r, from;
	struct run {
		size_t from, to;	/* rows[from, to) of the last build */
		ssize_t by;		/* moves by this many places */
	} *seg;
	struct ui_vrow old;

	if (reserve_vrows(&v->ins, &v->cap_ins, iv->nchanges ? iv->nchanges : 1))
		return -ENOMEM;
	if (iv->nchanges > v->cap_pos) {
		size_t *a = realloc(v->rem, iv->nchanges * sizeof(*a));

		if (!a)
			return -ENOMEM;
		v->rem = a;
		a = realloc(v->ipos, iv->nchanges * sizeof(*a));
		if (!a)
			return -ENOMEM;
		v->ipos = a;
		v->cap_pos = iv->nchanges;
	}
	for (k = 0; k < iv->nchanges; k++) {
		const struct ptop_iv_change *c = &iv->changes[k];
		const struct ptop_row *now = c->row == PTOP_IV_GONE ? NULL :
					     &iv->rows[c->row];

		if (c->was && pid_wanted(o, &c->old) && ui_view_match(v, &c->old)) {
			live_vrow(v, &old, &c->old);
			i = lower_bound(v, o, &old, n);
			if (i >= n || ui_vrow_cmp(&v->rows[i], &old, o->sort_id,
						  o->sort_asc))
				return -ESRCH;
			v->rem[nrem++] = i;
		}
		if (now && pid_wanted(o, now) && ui_view_match(v, now))
			live_vrow(v, &v->ins[nins++], now);
	}
	if (!nrem && !nins)
		return 0;
	if (nrem > 1)
		qsort(v->rem, nrem, sizeof(*v->rem), pos_cmp);
	for (k = 1; k < nrem; k++)
		if (v->rem[k] == v->rem[k - 1])
			return -ESRCH;	/* two changes, one row */
	ui_vrows_sort(v->ins, nins, o->sort_id, o->sort_asc);
	for (j = 0; j < nins; j++)
		v->ipos[j] = lower_bound(v, o, &v->ins[j], n);
	seg = malloc((nrem + nins + 1) * sizeof(*seg));
	if (!seg || grow(v, n + nins ? n + nins : 1)) {
		free(seg);
		return -ENOMEM;
	}
	/*
	 * The runs of rows that stay, between the places touched, and how
	 * far each moves; a new row's final place (into ipos).
	 */
	for (j = 0, r = 0, from = 0, nseg = 0;;) {
		bool rem_here;

		i = n;		/* the next place touched */
		if (r < nrem && v->rem[r] < i)
			i = v->rem[r];
		if (j < nins && v->ipos[j] < i)
			i = v->ipos[j];
		if (i > from)
			seg[nseg++] = (struct run){ from, i, (ssize_t)j - (ssize_t)r };
		while (j < nins && v->ipos[j] == i) {
			v->ipos[j] = i - r + j;
			j++;
		}
		rem_here = r < nrem && v->rem[r] == i;
		r += rem_here;
		from = rem_here ? i + 1 : i;
		if (i == n)
			break;
	}
	/*
	 * Those that move towards the front, first to last, then those that
	 * move towards the end, last to first: a run never lands on one
	 * that has not moved yet. The new rows last, in their gaps.
	 */
	for (k = 0; k < nseg; k++)
		if (seg[k].by < 0)
			memmove(&v->rows[seg[k].from + seg[k].by],
				&v->rows[seg[k].from],
				(seg[k].to - seg[k].from) * sizeof(*v->rows));
	for (k = nseg; k-- > 0;)
		if (seg[k].by > 0)
			memmove(&v->rows[seg[k].from + seg[k].by],
				&v->rows[seg[k].from],
				(seg[k].to - seg[k].from) * sizeof(*v->rows));
	for (j = 0; j < nins; j++)
		v->rows[v->ipos[j]] = v->ins[j];
	free(seg);
	n -= nrem;
	v->nrows = n + nins;
	return 0;
}

/*
 * The tree's quick build: the interval's changed rows (as the view
 * selects them, before and now) and the dead of the interval go to the
 * kept tree (ui/tree_quick.c). 0, or <0: the caller builds in full.
 */
static int tree_quick(struct ui_view *v, const struct ui_view_opts *o,
		      const struct ptop_interval *iv,
		      const struct ptop_snap *prev, const struct ptop_snap *cur)
{
	size_t k, nchg = 0, nins = 0, nx = 0;

	if (reserve_vrows(&v->ins, &v->cap_ins, iv->nchanges ? iv->nchanges : 1))
		return -ENOMEM;
	if (iv->nchanges > v->cap_chg) {
		struct ui_tq_chg *c = realloc(v->chg, iv->nchanges * sizeof(*c));

		if (!c)
			return -ENOMEM;
		v->chg = c;
		v->cap_chg = iv->nchanges;
	}
	for (k = 0; k < iv->nchanges; k++) {
		const struct ptop_iv_change *c = &iv->changes[k];
		const struct ptop_row *now = c->row == PTOP_IV_GONE ? NULL :
					     &iv->rows[c->row];
		struct ui_tq_chg *t = &v->chg[nchg];

		t->old = c->was && pid_wanted(o, &c->old) &&
			 ui_view_match(v, &c->old) ? &c->old : NULL;
		t->nv = NULL;
		if (now && pid_wanted(o, now) && ui_view_match(v, now)) {
			live_vrow(v, &v->ins[nins], now);
			t->nv = &v->ins[nins++];
		}
		nchg += t->old || t->nv;
	}
	v->nexited_shown = v->nexited_tiny = 0;
	if (v->show_exited && cur && cur->nexits) {
		if (reserve_vrows(&v->xrows, &v->cap_xrows, cur->nexits))
			return -ENOMEM;
		nx = add_exited(v, o, iv, prev, cur, v->xrows, 0);
	}
	return ui_tq_update(v, v->chg, nchg, v->xrows, nx);
}

int ui_view_build(struct ui_view *v, const struct ui_view_opts *o,
		  const struct ptop_interval *iv, const struct ptop_snap *prev,
		  const struct ptop_snap *cur)
{
	size_t n = iv->nrows, k = 0, i;
	long t;

	/* an interval made from the one this view was built from */
	v->quick = false;
	if (iv->quick && v->built_end && v->built_end == iv->from_snap_id &&
	    same_settings(v, o) &&
	    (v->tree ? !tree_quick(v, o, iv, prev, cur) :
	     /* the flat quick build adds no dead rows */
	     !(v->show_exited && cur && cur->nexits) && !quick_build(v, o, iv))) {
		v->quick = true;
		v->ntree_quick += v->tree;
		v->built_end = iv->end_snap_id;
		return 0;
	}
	v->built_end = 0;
	if (v->show_exited && cur)
		n += cur->nexits;
	if (grow(v, n ? n : 1))
		return -ENOMEM;
	for (i = 0; i < iv->nrows; i++) {
		const struct ptop_row *r = &iv->rows[i];

		if (!pid_wanted(o, r) || !ui_view_match(v, r))
			continue;
		live_vrow(v, &v->rows[k], r);
		k++;
	}
	v->nexited_shown = v->nexited_tiny = 0;
	if (v->show_exited) {
		i = k;
		k = add_exited(v, o, iv, prev, cur, v->rows, k);
	}
	if (v->tree) {
		/* the tree kept only for a source whose intervals can be quick */
		t = ui_tq_full(v, k, o->sort_id, o->sort_asc,
			       iv->caps & PTOP_CAP_INCREMENTAL);
		if (t < 0) {
			v->nrows = k;
			return (int)t;
		}
		k = (size_t)t;
	} else {
		ui_vrows_sort(v->rows, k, o->sort_id, o->sort_asc);
	}
	v->nrows = k;
	remember(v, o, iv);
	return 0;
}
