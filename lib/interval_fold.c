// SPDX-License-Identifier: GPL-2.0
/*
 * The full path: every row from the two snapshots, and the time of the
 * tasks that died in the interval folded into the rows that received it
 * (the formulas are at the top of interval.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interval_internal.h"

ssize_t iv_cur_group_index(const struct work *w, uint32_t tgid,
			   uint64_t start_ns, bool start_known)
{
	const struct ptop_rec *g;

	g = start_known ? ptop_snap_find_group(w->cur, tgid, start_ns) :
			  ptop_snap_find_tgid(w->cur, tgid);
	return index_of(w->cur->groups, g);
}

int iv_gexit_cmp(const void *a, const void *b)
{
	const struct ptop_rec *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return 0;
}

const struct ptop_rec *iv_find_gexit(const struct work *w, uint32_t tgid,
				     uint64_t start_ns)
{
	struct ptop_rec key = { .pid = tgid, .start_ns = start_ns };

	if (!w->ngexits)
		return NULL;
	return bsearch(&key, w->gexits, w->ngexits, sizeof(key), iv_gexit_cmp);
}

/*
 * Where did the time of dead group d go? Follow EXIT records' folded_into
 * (module, taskstats) or the accounting parent of the previous snapshot
 * (procfs) until a group that is alive now. -1: nowhere we can see.
 */
ssize_t iv_fold_target(const struct work *w, const struct ptop_rec *d)
{
	uint32_t tgid = d->pid;
	uint64_t start = d->start_ns;
	unsigned int hops;

	for (hops = 0; hops < 4096; hops++) {
		const struct ptop_rec *e = iv_find_gexit(w, tgid, start);
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
		gi = iv_cur_group_index(w, to, to_start, known);
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

/* One row per live group; or, in thread mode, one per live thread. */
static int make_rows(struct work *w)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	struct ptop_interval *iv = w->iv;
	unsigned int has = cur->caps;
	size_t i;

	if (iv_grow(iv, cur->nthreads + cur->ngroups))
		return -ENOMEM;
	for (i = 0; i < cur->ngroups; i++) {
		w->group_row[i] = -1;
		if (iv->threads)
			continue;
		iv_row_identity(&iv->rows[i], &cur->groups[i], &cur->groups[i]);
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
			iv_row_identity(row, t, g);
			row->is_thread = iv->threads;
			row->is_new = !pt;
			row->has = has & ~(PTOP_DATA_X | PTOP_DATA_C);
			if (gi >= 0 && (w->group_row[gi] < 0 || t->pid == t->tgid))
				w->group_row[gi] = iv->nrows;
			iv->nrows++;
		} else {
			row = &iv->rows[w->group_row[gi]];
		}
		iv_row_add_own(row, t, pt);
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
		gi = iv_fold_target(w, &p->rec);
		if (gi >= 0)
			tri_add(&w->csub[gi], shown);
		else
			w->iv->unfolded_ns += shown.u + shown.s + shown.st;
	}
	return 0;
}

/* The threads of cur that exec'ed (w->execs): 0 or -ENOMEM. */
static int find_execs(struct work *w)
{
	const struct ptop_snap *cur = w->cur;
	size_t i, k;

	for (i = 0, k = 0; i < cur->nthreads; i++)
		k += !!(cur->threads[i].flags & PTOP_RECF_EXEC);
	w->execs = malloc((k ? k : 1) * sizeof(*w->execs));
	if (!w->execs)
		return -ENOMEM;
	for (i = 0; i < cur->nthreads; i++)
		if (cur->threads[i].flags & PTOP_RECF_EXEC)
			w->execs[w->nexecs++] = &cur->threads[i];
	return 0;
}

static int dead_work(struct work *w)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	size_t i, k;

	if (find_execs(w))
		return -ENOMEM;

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
			if (iv_cur_group_index(w, prev->groups[pgi].pid,
					       prev->groups[pgi].start_ns, true) >= 0)
				w->iv->nlate++;
			continue;
		}
		/* thread died: its group, if alive, shows the rest in x */
		pg = &prev->groups[pgi];
		gi = iv_cur_group_index(w, pg->pid, pg->start_ns, true);
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
		qsort(w->gexits, k, sizeof(*w->gexits), iv_gexit_cmp);
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
		if (!iv_find_gexit(w, d->pid, d->start_ns))
			w->iv->nexited++;	/* vanished without an EXIT */
		tri_add(&shown, tri_x(d));
		tri_add(&shown, tri_c(d));
		gi = iv_fold_target(w, d);
		if (gi >= 0)
			tri_add(&w->csub[gi], shown);
		else
			w->iv->unfolded_ns += shown.u + shown.s + shown.st;
	}
	return late_exits(w);
}

static void apply_xc(struct work *w)
{
	const struct ptop_snap *cur = w->cur, *prev = w->prev;
	size_t i;

	for (i = 0; i < cur->ngroups; i++) {
		const struct ptop_rec *g = &cur->groups[i];

		if (w->group_row[i] < 0)
			continue;
		iv_row_xc(&w->iv->rows[w->group_row[i]], g,
			  ptop_snap_find_group(prev, g->pid, g->start_ns),
			  w->xsub[i], w->csub[i], &w->iv->clamped_ns);
	}
}

/* The full math: every row from the two snapshots. */
int iv_full_compute(struct ptop_interval *iv, const struct ptop_snap *prev,
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
	iv_sum_rows(iv);
	iv->nloud = 0;
	for (i = 0; i < iv->nrows; i++)
		if (iv_row_loud(&iv->rows[i]) && iv_add_loud(iv, &iv->rows[i])) {
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
