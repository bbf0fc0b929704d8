// SPDX-License-Identifier: GPL-2.0
/*
 * The exit paths of the taskstats_nl source: what a group's kernel
 * cutime + cstime has beyond its dead children's exit records, into its
 * c* as system time (struct ptop_exit_paths; the formula and why in
 * docs/design.md, "Exit paths on a stock kernel").
 */
#include <stdint.h>

#include "tsacct_internal.h"
#include "../verdict.h"
#include "../reserve.h"

typedef struct ptop_tsacct_group group_t;
typedef struct ptop_tsacct_thread thread_t;

/*
 * A kernel c reading is cutime + cstime, each floored to a tick: the
 * kernel's figure is below the reading + tsacct_floors_max() and, on
 * average, the reading + tsacct_floors_mean() (half a tick each).
 */
static uint64_t tsacct_floors_max(const struct ptop_tsacct *a)
{
	return 2 * a->tick_ns;
}

static uint64_t tsacct_floors_mean(const struct ptop_tsacct *a)
{
	return a->tick_ns;
}

/*
 * What the kernel adds to the c of dead group g's parent for it, less
 * the exit paths that are not in g's c* yet: expected (docs/design.md).
 */
static uint64_t tsacct_kernel_total(const struct ptop_tsacct *a,
				    const group_t *g)
{
	uint64_t t = g->xu + g->xs + g->paths.expected_ns +
		     g->paths.credited_ns;

	/*
	 * Older than us: base_ns is its own reading's expected figure;
	 * x_base (its threads that died before) was read in ticks too,
	 * the differences of floors: as often over as under
	 */
	(void)a;
	if (!g->forked)
		t += g->paths.base_ns;
	return t;
}

/* p's kernel c, read already, is to be read again (tsacct.h) */
static void tsacct_again_add(struct ptop_tsacct *a, group_t *p)
{
	if (ptop_reserve(&a->again, &a->again_cap, a->nagain + 1,
			 sizeof(*a->again), 64))
		return;	/* its reading stands: late, not wrong */
	a->again[a->nagain++] = p->tgid;
	p->paths.again = 1;
}

/* g, credited to p's expected_ns: not in p's kernel c until reaped */
static void tsacct_unreaped_add(struct ptop_tsacct *a, group_t *g, group_t *p,
				uint64_t exp, uint64_t max)
{
	if (ptop_reserve(&a->unreaped, &a->unreaped_cap, a->nunreaped + 1,
			 sizeof(*a->unreaped), 64))
		return;	/* held back until reaped: late, not wrong */
	a->unreaped[a->nunreaped++] = (struct ptop_tsacct_unreaped){
		g->tgid, p->tgid, exp, max, g->nexits, a->gen };
}

static struct ptop_tsacct_unreaped *
tsacct_unreaped_find(struct ptop_tsacct *a, uint32_t tgid)
{
	size_t i;

	/* the newest first: a zombie is read right after its record */
	for (i = a->nunreaped; i-- > 0;)
		if (a->unreaped[i].tgid == tgid)
			return &a->unreaped[i];
	return NULL;
}

/* g's record came after p's reading of this generation: not in it */
static int tsacct_after_reading(const struct ptop_tsacct *a, const group_t *p,
				const group_t *g)
{
	return p->paths.kernel_c_gen == a->gen && p->paths.reading_seq &&
	       g->die_seq > p->paths.reading_seq;
}

/* Dead g was a child of ppid (its parent at death): who waits for it. */
void ptop_tsacct_credit_parent(struct ptop_tsacct *a, group_t *g,
			       uint32_t ppid)
{
	group_t *p = ppid ? ptop_tsacct_group_find(a, ppid) : NULL;
	uint64_t exp, max;

	if (!p || p == g || p->tgid == 1)
		return;
	/* p is older than us: was g in p's kernel c at its first reading? */
	if (!p->forked && p->paths.known && g->die_seq &&
	    g->die_seq <= p->paths.base_seq && g->die_live_for != p->tgid)
		return;
	/* its final counters, or its kernel c, are not all known */
	if (g->lost_thread || g->paths.unusable ||
	    (!g->forked && !g->paths.known) ||
	    (!p->forked && !p->paths.known)) {
		p->paths.unusable = 1;
		return;
	}
	exp = tsacct_kernel_total(a, g);
	max = PTOP_EXIT_PATH_MAX_NS * g->nexits +
	      (g->paths.bound_ns - g->paths.credited_ns);
	g->paths.parent = p->tgid;
	tsacct_unreaped_add(a, g, p, exp, max);
	if (p->paths.known && !p->paths.again)
		tsacct_again_add(a, p);
	p->paths.expected_ns += exp;
	p->paths.bound_ns += max;
	p->paths.exits += g->nexits;
	a->tails_exits += g->nexits;
	if (tsacct_after_reading(a, p, g)) {
		p->paths.expected_late_ns += exp;
		p->paths.bound_late_ns += max;
		p->paths.exits_late += g->nexits;
	}
}

void ptop_tsacct_scan_kernel_c(struct ptop_tsacct *a, group_t *g,
			       uint64_t kc_ns, uint64_t seq, uint64_t rseq,
			       int never_waited)
{
	g->paths.kernel_c_ns = kc_ns;
	g->paths.kernel_c_gen = a->gen;
	g->paths.reading_seq = rseq;
	g->paths.expected_late_ns = 0;
	g->paths.bound_late_ns = 0;
	g->paths.exits_late = 0;
	if (g->paths.known)
		return;
	g->paths.known = 1;
	g->paths.base_seq = seq;
	/*
	 * floored: the kernel had up to a tick more in each of the two,
	 * half a tick on average; none when it never waited for a child
	 * (no fault of one in its stat): an older leaf (a compiler under
	 * a build) that dies then hands its parent nothing of its base
	 */
	if (g->forked || (never_waited && !kc_ns))
		g->paths.base_ns = 0;
	else
		g->paths.base_ns = kc_ns + tsacct_floors_mean(a);
}

void ptop_tsacct_first_kernel_c_again(struct ptop_tsacct *a, group_t *g,
				      uint64_t kc_ns, uint64_t seq,
				      int never_waited)
{
	if (g->forked || g->dead)
		return;
	g->paths.known = 0;
	ptop_tsacct_scan_kernel_c(a, g, kc_ns, seq, 0, never_waited);
}

/*
 * What the exits credited to g since the last prediction add to its
 * credited_ns at tau each, at most hi (docs/design.md); they are
 * counted as done.
 */
static uint64_t tsacct_tail_predicted(group_t *g, uint64_t tau, uint64_t hi)
{
	uint64_t n = g->paths.exits - g->paths.exits_late, pred;

	if (n <= g->paths.exits_predicted)
		return 0;
	pred = g->paths.credited_ns + (n - g->paths.exits_predicted) * tau;
	g->paths.exits_predicted = n;
	return pred < hi ? pred : hi;
}

/* g's exit paths that its kernel c read this generation vouches for */
static void tsacct_tail(struct ptop_tsacct *a, group_t *g, uint64_t tau)
{
	struct ptop_exit_paths *ep = &g->paths;
	uint64_t want, known, cap, hi, pred, floors = tsacct_floors_max(a);

	if (ep->kernel_c_gen != a->gen || !ep->known || ep->unusable ||
	    g->tgid == 1)
		return;
	known = ep->base_ns + ep->expected_ns - ep->expected_late_ns;
	cap = ep->bound_ns - ep->bound_late_ns;
	want = ep->kernel_c_ns > known ? ep->kernel_c_ns - known : 0;
	if (want > cap)
		want = cap;
	/* the kernel's c is below its two floors + 2 ticks */
	hi = ep->kernel_c_ns + floors > known ?
	     ep->kernel_c_ns + floors - known : 0;
	pred = tsacct_tail_predicted(g, tau, hi < cap ? hi : cap);
	if (pred > want)
		want = pred;
	if (want <= ep->credited_ns)
		return;
	g->cs += want - ep->credited_ns;
	a->tail_ns += want - ep->credited_ns;
	a->tails_sum_ns += want - ep->credited_ns;
	ep->credited_ns = want;
}

void ptop_tsacct_tails(struct ptop_tsacct *a)
{
	uint64_t tau = 0;
	size_t i;

	/* the exits credited since the last pass have no paths here yet */
	if (a->tails_exits_before >= PTOP_TSACCT_TAU_EXITS)
		tau = a->tails_sum_ns / a->tails_exits_before;
	a->tails_exits_before = a->tails_exits;
	for (i = 0; i < PTOP_TSACCT_HASH; i++) {
		group_t *g;

		for (g = a->groups[i]; g; g = g->next)
			tsacct_tail(a, g, tau);
	}
}

void ptop_tsacct_kernel_c_again(struct ptop_tsacct *a, group_t *g,
				uint64_t kc_ns, uint64_t rseq,
				int (*in_proc)(void *arg, uint32_t tgid),
				void *arg)
{
	size_t i;

	if (g->dead || !g->paths.known || kc_ns < g->paths.kernel_c_ns)
		return;
	g->paths.kernel_c_ns = kc_ns;
	/* the walk may not have read it */
	g->paths.kernel_c_gen = a->gen;
	g->paths.reading_seq = rseq;
	/* every record taken so far came before this reading... */
	g->paths.expected_late_ns = 0;
	g->paths.bound_late_ns = 0;
	g->paths.exits_late = 0;
	/* ...but a child not reaped by then is not in it */
	for (i = 0; i < a->nunreaped; i++) {
		const struct ptop_tsacct_unreaped *u = &a->unreaped[i];

		if (u->parent != g->tgid || !in_proc(arg, u->tgid))
			continue;
		g->paths.expected_late_ns += u->exp_ns;
		g->paths.bound_late_ns += u->max_ns;
		g->paths.exits_late += u->nexits;
	}
}

void ptop_tsacct_again_done(struct ptop_tsacct *a,
			    int (*in_proc)(void *arg, uint32_t tgid),
			    void *arg)
{
	size_t i, n = 0;

	for (i = 0; i < a->nagain; i++) {
		group_t *g = ptop_tsacct_group_find(a, a->again[i]);

		if (g)
			g->paths.again = 0;
	}
	a->nagain = 0;
	for (i = 0; i < a->nunreaped; i++) {
		const struct ptop_tsacct_unreaped *u = &a->unreaped[i];
		group_t *p = ptop_tsacct_group_find(a, u->parent);

		if (p && !p->dead && u->gen + 1 >= a->gen &&
		    in_proc(arg, u->tgid))
			a->unreaped[n++] = *u;
	}
	a->nunreaped = n;
}

void ptop_tsacct_zombie(struct ptop_tsacct *a, thread_t *t,
			uint64_t runtime_ns, uint64_t kc_ns, int zombie)
{
	group_t *g = t->g, *to, *p;
	struct ptop_tsacct_unreaped *u;
	uint64_t own = ptop_tsacct_thread_own(t), add = 0, want, path;

	if (!t->dead || t->zombie_read || t->closed_lost || !g->dead ||
	    t->tid != g->tgid)
		return;
	t->zombie_read = zombie;
	if (runtime_ns > own) {
		path = runtime_ns - own < PTOP_EXIT_PATH_MAX_NS ?
		       runtime_ns - own : PTOP_EXIT_PATH_MAX_NS;
		if (path > t->exit_path_ns) {
			add = path - t->exit_path_ns;
			t->exit_path_ns = path;
		}
	}
	/* its children's exit paths, as ptop_tsacct_tails() takes them */
	if (g->paths.known && !g->paths.unusable && g->tgid != 1 &&
	    kc_ns > g->paths.base_ns + g->paths.expected_ns) {
		want = kc_ns - g->paths.base_ns - g->paths.expected_ns;
		if (want > g->paths.bound_ns)
			want = g->paths.bound_ns;
		if (want > g->paths.credited_ns) {
			add += want - g->paths.credited_ns;
			g->paths.credited_ns = want;
		}
	}
	if (!add)
		return;
	to = ptop_tsacct_fold_target(g);
	if (!to && g->ppid)
		to = ptop_tsacct_group_find(a, g->ppid);
	if (!to)
		return;
	to->cs += add;
	a->tail_ns += add;
	a->tails_sum_ns += add;
	p = g->paths.parent ? ptop_tsacct_group_find(a, g->paths.parent) : NULL;
	if (!p)
		return;
	p->paths.expected_ns += add;
	if (tsacct_after_reading(a, p, g))
		p->paths.expected_late_ns += add;
	u = tsacct_unreaped_find(a, g->tgid);
	if (u && u->parent == p->tgid)
		u->exp_ns += add;
}
