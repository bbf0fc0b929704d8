// SPDX-License-Identifier: GPL-2.0
/*
 * The taskstats_nl source's /proc scan into the accounting hierarchy
 * (tsacct.h), and the end of a generation: threads gone without an exit
 * record closed, the live ones emitted.
 */
#include <errno.h>
#include <stdint.h>

#include "tsacct_internal.h"

typedef struct ptop_tsacct_group group_t;
typedef struct ptop_tsacct_thread thread_t;

/* --- the /proc scan ------------------------------------------------------- */

int ptop_tsacct_scan_group(struct ptop_tsacct *a, uint32_t tgid,
			   uint64_t start_ns, uint32_t ppid, char state,
			   const char *comm, uint64_t rss_kb, group_t **out)
{
	group_t *g = ptop_tsacct_group_find(a, tgid);
	int ret;

	*out = NULL;
	if (g && g->start_exact && g->start_ns != start_ns) {
		ret = ptop_tsacct_group_flush(a, g);
		if (ret)
			return ret;
		g = NULL;
	}
	if (!g) {
		g = ptop_tsacct_group_new(a, tgid, NULL);
		if (!g)
			return -ENOMEM;
		g->want_parent = 1;	/* its parent may come later */
		g->scan_gen = a->gen;
	}
	g->start_ns = start_ns;
	g->start_exact = 1;
	g->ppid = ppid;
	g->state = state;
	ptop_tsacct_comm(g->comm, comm);
	g->rss_kb = rss_kb;
	g->seen_gen = a->gen;
	g->nseen = 0;
	g->nref++;	/* the scan's, until scan_group_end */
	*out = g;
	return 0;
}

void ptop_tsacct_x_base(group_t *g, uint64_t user_ns, uint64_t sys_ns)
{
	if (g->dead || g->xu || g->xs)
		return;
	g->xu = user_ns;
	g->xs = sys_ns;
}

int ptop_tsacct_scan_same(struct ptop_tsacct *a, uint32_t tgid)
{
	group_t *g = ptop_tsacct_group_find(a, tgid);
	thread_t *t = ptop_tsacct_thread_find(a, tgid);

	if (!g || g->dead || g->nlive != 1 || g->seen_gen + 1 != a->gen ||
	    !t || t->g != g || t->dead || t->seen_gen + 1 != a->gen)
		return 0;
	g->seen_gen = a->gen;
	g->nseen = 1;
	t->seen_gen = a->gen;
	return 1;
}

void ptop_tsacct_scan_group_end(struct ptop_tsacct *a, group_t *g)
{
	/* no thread to close it: drop the group nobody saw alive */
	if (!g->nlive && !g->dead)
		ptop_tsacct_group_drop(a, g);
	ptop_tsacct_group_put(g);
}

int ptop_tsacct_scan_thread(struct ptop_tsacct *a, group_t *g, uint32_t tid,
			    uint64_t start_ns, char state, const char *comm,
			    thread_t **out)
{
	thread_t *t = ptop_tsacct_thread_find(a, tid);
	int ret;

	*out = NULL;
	/* a zombie's exit record came already (it is sent before) */
	if ((state == 'Z' || state == 'X') && (!t || t->dead))
		return 0;
	if (t && t->dead) {
		/* a zombie leader, or not yet released */
		if (t->start_ns == start_ns || !t->start_exact)
			return 0;
		ptop_tsacct_thread_free(a, t);
		t = NULL;
	}
	/* another incarnation: another group or another start */
	if (t && (t->g != g || (t->start_exact && t->start_ns != start_ns))) {
		ret = ptop_tsacct_thread_die(a, t, NULL, a->now_ns);
		if (ret)
			return ret;
		ptop_tsacct_thread_free(a, t);
		t = NULL;
	}
	if (g->dead)
		return 0;	/* that closed the group: next read */
	if (!t) {
		t = ptop_tsacct_thread_new(a, tid, g);
		if (!t)
			return -ENOMEM;
	}
	t->start_ns = start_ns;
	t->start_exact = 1;
	t->state = state;
	ptop_tsacct_comm(t->comm, comm);
	*out = t;
	return 0;
}

/* A live thread's counters; was_read: not its first read */
static void tsacct_read_counters(struct ptop_tsacct *a, thread_t *t,
				 const struct ptop_tsacct_counters *c,
				 int was_read)
{
	uint64_t before = ptop_tsacct_thread_own(t), u, s;

	ptop_cputime_adjust(&t->split, c->runtime_ns, c->raw_user, c->raw_sys,
			    &u, &s);
	ptop_tsacct_take_counters(t, c);
	if (was_read && ptop_tsacct_thread_own(t) != before)
		t->moved_gen = a->gen;
}

void ptop_tsacct_scan_counters(struct ptop_tsacct *a, thread_t *t,
			       const struct ptop_tsacct_counters *c)
{
	tsacct_read_counters(a, t, c, t->seen_gen != 0);
	t->g->uid = c->uid;
	t->seen_gen = a->gen;
	t->g->nseen++;
}

void ptop_tsacct_reread_counters(struct ptop_tsacct *a, thread_t *t,
				 const struct ptop_tsacct_counters *c)
{
	tsacct_read_counters(a, t, c, 1);
}

void ptop_tsacct_scan_end(struct ptop_tsacct *a)
{
	size_t i;

	/* groups first met by a scan: their accounting parent is the ppid */
	for (i = 0; i < PTOP_TSACCT_HASH; i++) {
		group_t *g, *pg;

		for (g = a->groups[i]; g; g = g->next) {
			if (!g->want_parent)
				continue;
			g->want_parent = 0;
			pg = g->ppid ? ptop_tsacct_group_find(a, g->ppid) :
				       NULL;
			if (pg && pg != g && !g->aparent) {
				g->aparent = pg;
				pg->nref++;
			}
		}
	}
}

/* --- end of a generation ---------------------------------------------- */

int ptop_tsacct_sweep(struct ptop_tsacct *a)
{
	size_t i;
	int ret;

	for (i = 0; i < PTOP_TSACCT_HASH; i++) {
		thread_t *t, *n;

		for (t = a->threads[i]; t; t = n) {
			/* reported before and now gone without an exit */
			if (!t->dead && t->seen_gen != a->gen &&
			    (t->reported ||
			     t->born_gen + PTOP_TSACCT_TOMB_GENS < a->gen)) {
				ret = ptop_tsacct_thread_die(a, t, NULL,
							     a->now_ns);
				if (ret)
					return ret;
			}
			n = t->next;
			/* leaders of live groups: zombies until the end */
			if (t->dead &&
			    t->dead_gen + PTOP_TSACCT_TOMB_GENS <= a->gen &&
			    (t->tid != t->g->tgid || t->g->dead))
				ptop_tsacct_thread_free(a, t);
		}
	}
	return 0;
}

int ptop_tsacct_emit(struct ptop_tsacct *a)
{
	struct ptop_rec *r;
	size_t i;

	for (i = 0; i < PTOP_TSACCT_HASH; i++) {
		thread_t *t;

		for (t = a->threads[i]; t; t = t->next) {
			if (t->dead || t->seen_gen != a->gen)
				continue;
			r = ptop_tsacct_thread_rec(a, t, 0, t->split.user_ns,
					  t->split.sys_ns);
			if (!r)
				return -ENOMEM;
			t->reported = 1;
			r->state = t->state;
		}
	}
	for (i = 0; i < PTOP_TSACCT_HASH; i++) {
		group_t *g;

		for (g = a->groups[i]; g; g = g->next) {
			if (g->dead || g->seen_gen != a->gen || !g->nseen)
				continue;
			r = ptop_tsacct_group_rec(a, g, 0);
			if (!r)
				return -ENOMEM;
			g->reported = 1;
			r->nthreads = g->nseen;
			r->state = g->state;
			r->rss_kb = g->rss_kb;
		}
	}
	return 0;
}
