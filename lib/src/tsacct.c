// SPDX-License-Identifier: GPL-2.0
/* Accounting hierarchy of the taskstats_nl source: x*, c*, folding, EXITs */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tsacct.h"
#include "../verdict.h"
#include "../reserve.h"

typedef struct ptop_tsacct_group group_t;
typedef struct ptop_tsacct_thread thread_t;

static unsigned int ta_hash(uint32_t id)
{
	return (id * 2654435761U) & (PTOP_TSACCT_HASH - 1);
}

void ptop_tsacct_init(struct ptop_tsacct *a, uint64_t tick_ns)
{
	memset(a, 0, sizeof(*a));
	a->tick_ns = tick_ns ? tick_ns : 1;
}

/* comm: at most PTOP_COMM_LEN - 1 chars, NUL padded */
static void ta_comm(char *dst, const char *src)
{
	size_t n = strnlen(src, PTOP_COMM_LEN - 1);

	memset(dst, 0, PTOP_COMM_LEN);
	memcpy(dst, src, n);
}

/* --- groups ------------------------------------------------------------ */

group_t *ptop_tsacct_group_find(struct ptop_tsacct *a, uint32_t tgid)
{
	group_t *g;

	for (g = a->groups[ta_hash(tgid)]; g; g = g->next)
		if (g->tgid == tgid)
			return g;
	return NULL;
}

/* Drop a reference; a freed group drops the one it held on its parent. */
static void ta_group_put(group_t *g)
{
	while (g && !--g->nref) {
		group_t *up = g->aparent;

		free(g);
		g = up;
	}
}

static group_t *ta_live_ancestor(group_t *g)
{
	while (g && g->dead)
		g = g->aparent;
	return g;
}

/*
 * Where dead group g's time goes: its nearest live accounting ancestor;
 * for a g that was in a snapshot, the nearest that was in one too (see
 * tsacct.h), else any live one rather than none.
 */
static group_t *ta_fold_target(group_t *g)
{
	group_t *up, *any = NULL;

	for (up = g->aparent; up; up = up->aparent) {
		if (up->dead)
			continue;
		if (up->reported || !g->reported)
			return up;
		if (!any)
			any = up;
	}
	return any;
}

static uint32_t ta_acct_ptgid(group_t *g)
{
	group_t *ap = ta_live_ancestor(g->aparent);

	return ap ? ap->tgid : 0;
}

static group_t *ta_group_new(struct ptop_tsacct *a, uint32_t tgid,
			     group_t *aparent)
{
	group_t *g = calloc(1, sizeof(*g));
	unsigned int h = ta_hash(tgid);

	if (!g)
		return NULL;
	g->tgid = tgid;
	g->nref = 1;		/* the live hash */
	g->aparent = aparent;
	if (aparent)
		aparent->nref++;
	g->next = a->groups[h];
	a->groups[h] = g;
	return g;
}

static void ta_group_unhash(struct ptop_tsacct *a, group_t *g)
{
	group_t **pp = &a->groups[ta_hash(g->tgid)];

	for (; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			g->next = NULL;
			return;
		}
}

/* A group that never had a thread: forget it without an EXIT record. */
static void ta_group_drop(struct ptop_tsacct *a, group_t *g)
{
	g->dead = 1;
	ta_group_unhash(a, g);
	ta_group_put(g);
}

/* --- threads ------------------------------------------------------------ */

thread_t *ptop_tsacct_thread_find(struct ptop_tsacct *a, uint32_t tid)
{
	thread_t *t;

	for (t = a->threads[ta_hash(tid)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void ta_thread_free(struct ptop_tsacct *a, thread_t *t)
{
	thread_t **pp = &a->threads[ta_hash(t->tid)];

	for (; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	ta_group_put(t->g);
	free(t);
}

static thread_t *ta_thread_new(struct ptop_tsacct *a, uint32_t tid,
			       group_t *g)
{
	thread_t *t = calloc(1, sizeof(*t));
	unsigned int h = ta_hash(tid);

	if (!t)
		return NULL;
	t->tid = tid;
	t->g = g;
	t->born_gen = a->gen;
	g->nref++;
	g->nlive++;
	t->next = a->threads[h];
	a->threads[h] = t;
	return t;
}

void ptop_tsacct_free(struct ptop_tsacct *a)
{
	size_t i;

	for (i = 0; i < PTOP_TSACCT_HASH; i++)
		while (a->threads[i])
			ta_thread_free(a, a->threads[i]);
	for (i = 0; i < PTOP_TSACCT_HASH; i++)
		while (a->groups[i])
			ta_group_drop(a, a->groups[i]);
	free(a->again);
	a->again = NULL;
	a->nagain = a->again_cap = 0;
	free(a->unreaped);
	a->unreaped = NULL;
	a->nunreaped = a->unreaped_cap = 0;
}

/* --- records ----------------------------------------------------------- */

/*
 * A GROUP record of g with what a live and a dead one both say (identity,
 * x*, c*, peak RSS); the caller adds state and what only its kind has.
 */
static struct ptop_rec *ta_group_rec(struct ptop_tsacct *a, group_t *g,
					   unsigned int flags)
{
	struct ptop_rec *r = ptop_sample_add(a->out, PTOP_REC_GROUP);

	if (!r)
		return NULL;
	r->flags = flags | PTOP_RECF_HAS_X | PTOP_RECF_HAS_C;
	r->pid = g->tgid;
	r->tgid = g->tgid;
	r->ppid = g->ppid;
	r->acct_ptgid = ta_acct_ptgid(g);
	r->uid = g->uid;
	memcpy(r->comm, g->comm, sizeof(r->comm));
	r->start_ns = g->start_ns;
	r->xutime_ns = g->xu;
	r->xstime_ns = g->xs;
	r->cutime_ns = g->cu;
	r->cstime_ns = g->cs;
	r->hiwater_rss_kb = g->hwm_kb;
	return r;
}

/* A THREAD record of t, own times user_ns/sys_ns; the caller adds state. */
static struct ptop_rec *ta_thread_rec(struct ptop_tsacct *a, thread_t *t,
					    unsigned int flags, uint64_t user_ns,
					    uint64_t sys_ns)
{
	struct ptop_rec *r = ptop_sample_add(a->out, PTOP_REC_THREAD);
	group_t *g = t->g;

	if (!r)
		return NULL;
	r->flags = flags | a->thread_flags;
	r->pid = t->tid;
	r->tgid = g->tgid;
	r->ppid = g->ppid;
	r->acct_ptgid = ta_acct_ptgid(g);
	r->uid = g->uid;
	memcpy(r->comm, t->comm, sizeof(r->comm));
	r->start_ns = t->start_ns;
	r->utime_ns = user_ns;
	r->stime_ns = sys_ns;
	r->counts = t->counts;
	return r;
}

/* --- deaths and folding --------------------------------------------------- */

/*
 * A kernel c reading is cutime + cstime, each floored to a tick: the
 * kernel's figure is below the reading + ta_floors_max() and, on
 * average, the reading + ta_floors_mean() (half a tick each).
 */
static uint64_t ta_floors_max(const struct ptop_tsacct *a)
{
	return 2 * a->tick_ns;
}

static uint64_t ta_floors_mean(const struct ptop_tsacct *a)
{
	return a->tick_ns;
}

/*
 * What the kernel adds to the c of dead group g's parent for it, less
 * the exit paths that are not in g's c* yet: expected (tsacct.h).
 */
static uint64_t ta_kernel_total(const struct ptop_tsacct *a, const group_t *g)
{
	uint64_t t = g->xu + g->xs + g->kexp + g->ktail;

	/*
	 * Older than us: kc_base is its own reading's expected figure;
	 * x_base (its threads that died before) was read in ticks too,
	 * the differences of floors: as often over as under
	 */
	(void)a;
	if (!g->forked)
		t += g->kc_base;
	return t;
}

/* p's kernel c, read already, is to be read again (tsacct.h) */
static void ta_again_add(struct ptop_tsacct *a, group_t *p)
{
	if (ptop_reserve(&a->again, &a->again_cap, a->nagain + 1,
			 sizeof(*a->again), 64))
		return;	/* its reading stands: late, not wrong */
	a->again[a->nagain++] = p->tgid;
	p->kc_again = 1;
}

/* g, credited to p's kexp: not in p's kernel c until reaped */
static void ta_unreaped_add(struct ptop_tsacct *a, group_t *g, group_t *p,
			    uint64_t exp, uint64_t max)
{
	if (ptop_reserve(&a->unreaped, &a->unreaped_cap, a->nunreaped + 1,
			 sizeof(*a->unreaped), 64))
		return;	/* held back until reaped: late, not wrong */
	a->unreaped[a->nunreaped++] = (struct ptop_tsacct_unreaped){
		g->tgid, p->tgid, exp, max, g->nexits, a->gen };
}

static struct ptop_tsacct_unreaped *ta_unreaped_find(struct ptop_tsacct *a,
						     uint32_t tgid)
{
	size_t i;

	/* the newest first: a zombie is read right after its record */
	for (i = a->nunreaped; i-- > 0;)
		if (a->unreaped[i].tgid == tgid)
			return &a->unreaped[i];
	return NULL;
}

/* Dead g was a child of ppid (its parent at death): who waits for it. */
static void ta_credit_parent(struct ptop_tsacct *a, group_t *g, uint32_t ppid)
{
	group_t *p = ppid ? ptop_tsacct_group_find(a, ppid) : NULL;
	uint64_t exp, max;

	if (!p || p == g || p->tgid == 1)
		return;
	/* p is older than us: was g in p's kernel c at its first reading? */
	if (!p->forked && p->kc_known && g->die_seq &&
	    g->die_seq <= p->kc_seq && g->die_live_for != p->tgid)
		return;
	/* its final counters, or its kernel c, are not all known */
	if (g->lost_thread || g->k_bad || (!g->forked && !g->kc_known) ||
	    (!p->forked && !p->kc_known)) {
		p->k_bad = 1;
		return;
	}
	exp = ta_kernel_total(a, g);
	max = PTOP_EXIT_PATH_MAX_NS * g->nexits + (g->kmax - g->ktail);
	g->kparent = p->tgid;
	ta_unreaped_add(a, g, p, exp, max);
	if (p->kc_known && !p->kc_again)
		ta_again_add(a, p);
	p->kexp += exp;
	p->kmax += max;
	p->kn += g->nexits;
	a->tails_exits += g->nexits;
	/* after p's reading of this generation: not in it (tsacct.h) */
	if (p->kc_gen == a->gen && p->kc_rseq && g->die_seq > p->kc_rseq) {
		p->kexp_late += exp;
		p->kmax_late += max;
		p->kn_late += g->nexits;
	}
}

static int ta_group_die(struct ptop_tsacct *a, group_t *g, uint32_t code,
			uint64_t exit_ns, uint32_t ppid)
{
	struct ptop_rec *r;
	group_t *to;

	g->dead = 1;
	ta_group_unhash(a, g);
	ta_credit_parent(a, g, ppid ? ppid : g->ppid);
	to = ta_fold_target(g);
	if (!to && g->ppid)	/* accounting parent unknown: real parent */
		to = ptop_tsacct_group_find(a, g->ppid);
	if (to) {
		to->cu += g->xu + g->cu;
		to->cs += g->xs + g->cs;
	}
	r = ta_group_rec(a, g, PTOP_RECF_EXIT);
	if (r) {
		r->state = 'X';
		r->exit_ns = exit_ns;
		r->exit_code = code;
		if (to) {
			r->folded_into = to->tgid;
			r->folded_start_ns = to->start_ns;
		}
	}
	ta_group_put(g);	/* the live hash's reference */
	return r ? 0 : -ENOMEM;
}

static void ta_take_counters(thread_t *t, const struct ptop_tsacct_counters *c)
{
	t->counts = c->counts;
	if (c->hiwater_kb > t->g->hwm_kb)
		t->g->hwm_kb = c->hiwater_kb;
}

/*
 * Thread t died with final counters c (NULL: lost, closed with what was
 * last reported, which keeps x* consistent but loses its last bit).
 */
static int ta_thread_die(struct ptop_tsacct *a, thread_t *t,
			 const struct ptop_tsacct_counters *c,
			 uint64_t exit_ns)
{
	group_t *g = t->g;
	struct ptop_rec *r;
	uint64_t u = t->split.user_ns, s = t->split.sys_ns;
	uint32_t code = 0, ppid = 0;

	if (c) {
		ptop_cputime_adjust(&t->split, c->runtime_ns, c->raw_user,
				    c->raw_sys, &u, &s);
		ta_take_counters(t, c);
		code = c->exit_code;
		if (!g->comm[0])
			ta_comm(g->comm, c->comm);
		if (!t->comm[0])
			ta_comm(t->comm, c->comm);
		if (!g->ppid)
			g->ppid = c->ppid;
		if (!g->uid)
			g->uid = c->uid;
		ppid = c->ppid;	/* its real parent when it died */
		g->nexits++;
		g->die_seq = c->seq;
		g->die_live_for = c->live_for;
	} else {
		a->lost = 1;
		a->nlost++;
		t->closed_lost = 1;
		g->lost_thread = 1;
	}
	t->dead = 1;
	t->dead_gen = a->gen;
	g->xu += u;
	g->xs += s;
	r = ta_thread_rec(a, t, PTOP_RECF_EXIT, u, s);
	if (!r)
		return -ENOMEM;
	r->state = 'X';
	r->exit_ns = exit_ns;
	r->exit_code = code;
	if (!--g->nlive)
		return ta_group_die(a, g, code, exit_ns, ppid);
	return 0;
}

/* Close every live thread of g: it is a stale incarnation. */
static int ta_group_flush(struct ptop_tsacct *a, group_t *g)
{
	size_t i;
	int ret = 0;

	a->lost = 1;
	g->nref++;	/* keep g while its threads go */
	for (i = 0; i < PTOP_TSACCT_HASH && !g->dead && !ret; i++) {
		thread_t *t;

		for (t = a->threads[i]; t && !ret; t = t->next)
			if (t->g == g && !t->dead)
				ret = ta_thread_die(a, t, NULL, a->now_ns);
	}
	if (!ret && !g->dead)	/* it had no thread at all */
		ta_group_drop(a, g);
	ta_group_put(g);
	return ret;
}

/* A live group for a new thread; created (with its parent) if unknown. */
static group_t *ta_group_get(struct ptop_tsacct *a, uint32_t tgid,
			     uint32_t ptgid, uint64_t start_ns)
{
	group_t *g = ptop_tsacct_group_find(a, tgid);

	if (g)
		return g;
	g = ta_group_new(a, tgid,
			 ptgid ? ptop_tsacct_group_find(a, ptgid) : NULL);
	if (g) {
		g->ppid = ptgid;
		g->start_ns = start_ns;
	}
	return g;
}

/* A thread an event talks about: find it, or create it. */
static int ta_thread_get(struct ptop_tsacct *a, uint32_t tid, uint32_t tgid,
			 uint32_t ptgid, uint64_t start_ns, thread_t **out)
{
	thread_t *t = ptop_tsacct_thread_find(a, tid);
	group_t *g;
	int ret;

	*out = NULL;
	start_ns -= start_ns % a->tick_ns;	/* as /proc would show it */
	if (t && !t->dead && t->g->tgid == tgid) {
		*out = t;
		return 0;
	}
	if (t && !t->dead) {	/* a stale incarnation */
		ret = ta_thread_die(a, t, NULL, a->now_ns);
		if (ret)
			return ret;
	}
	if (t)
		ta_thread_free(a, t);
	g = ptop_tsacct_group_find(a, tgid);
	if (tid == tgid && g) {
		/* a new group reusing a live tgid: the old one is gone */
		ret = ta_group_flush(a, g);
		if (ret)
			return ret;
	}
	g = ta_group_get(a, tgid, ptgid, start_ns);
	if (!g)
		return -ENOMEM;
	t = ta_thread_new(a, tid, g);
	if (!t) {
		if (!g->nlive)
			ta_group_drop(a, g);
		return -ENOMEM;
	}
	t->start_ns = start_ns;
	*out = t;
	return 0;
}

/*
 * The scan met a group before its FORK event was seen (forked during the
 * scan): its parent at fork is the accounting parent, not its ppid now
 * (init, if that parent already died).
 */
static void ta_group_reparent(struct ptop_tsacct *a, group_t *g,
			      uint32_t ptgid)
{
	group_t *pg = ptop_tsacct_group_find(a, ptgid);

	if (!pg || pg == g || pg == g->aparent)
		return;
	pg->nref++;
	ta_group_put(g->aparent);
	g->aparent = pg;
	g->want_parent = 0;
}

/* --- events ------------------------------------------------------------- */

int ptop_tsacct_fork(struct ptop_tsacct *a, uint32_t pid, uint32_t tgid,
		     uint32_t ptgid, uint64_t start_ns)
{
	thread_t *t = ptop_tsacct_thread_find(a, pid);
	int ret;

	if (pid == tgid && t && !t->dead && t->g->tgid == tgid &&
	    t->g->scan_gen == a->gen)
		ta_group_reparent(a, t->g, ptgid);
	ret = ta_thread_get(a, pid, tgid, ptgid, start_ns, &t);
	/* a new process: its kernel cutime/cstime start at 0 */
	if (!ret && pid == tgid) {
		t->g->forked = 1;
		t->g->kc_base = 0;	/* a scan may have met it first */
	}
	return ret;
}

/*
 * The final counters of a thread closed as lost came after all: what it
 * ran since its last report goes where its time went (tsacct.h).
 */
static void ta_thread_late(struct ptop_tsacct *a, thread_t *t,
			   const struct ptop_tsacct_counters *c)
{
	uint64_t u0 = t->split.user_ns, s0 = t->split.sys_ns, u, s;
	group_t *g = t->g, *to;

	ptop_cputime_adjust(&t->split, c->runtime_ns, c->raw_user, c->raw_sys,
			    &u, &s);
	ta_take_counters(t, c);
	t->closed_lost = 0;
	u = u > u0 ? u - u0 : 0;
	s = s > s0 ? s - s0 : 0;
	if (!g->dead) {
		g->xu += u;
		g->xs += s;
		return;
	}
	/* as ta_group_die folded it (its target may have died since) */
	to = ta_fold_target(g);
	if (!to && g->ppid)
		to = ptop_tsacct_group_find(a, g->ppid);
	if (to) {
		to->cu += u;
		to->cs += s;
	}
}

int ptop_tsacct_exit(struct ptop_tsacct *a, uint32_t pid, uint32_t tgid,
		     uint32_t ptgid, uint64_t start_ns,
		     const struct ptop_tsacct_counters *c, uint64_t exit_ns)
{
	thread_t *t;
	int ret;

	t = ptop_tsacct_thread_find(a, pid);
	if (t && t->dead && t->closed_lost && t->g->tgid == (tgid ? tgid : pid)) {
		ta_thread_late(a, t, c);
		return 0;
	}

	ret = ta_thread_get(a, pid, tgid ? tgid : pid, ptgid, start_ns, &t);
	if (ret)
		return ret;
	return ta_thread_die(a, t, c, exit_ns);
}

int ptop_tsacct_lost(struct ptop_tsacct *a, uint32_t pid, uint64_t exit_ns)
{
	thread_t *t = ptop_tsacct_thread_find(a, pid);

	if (!t || t->dead)
		return 0;
	return ta_thread_die(a, t, NULL, exit_ns);
}

void ptop_tsacct_exec(struct ptop_tsacct *a, uint32_t tgid)
{
	thread_t *t = ptop_tsacct_thread_find(a, tgid);

	if (t && t->dead)
		ta_thread_free(a, t);
}

/* --- the /proc scan ------------------------------------------------------- */

int ptop_tsacct_scan_group(struct ptop_tsacct *a, uint32_t tgid,
			   uint64_t start_ns, uint32_t ppid, char state,
			   const char *comm, uint64_t rss_kb, group_t **out)
{
	group_t *g = ptop_tsacct_group_find(a, tgid);
	int ret;

	*out = NULL;
	if (g && g->start_exact && g->start_ns != start_ns) {
		ret = ta_group_flush(a, g);
		if (ret)
			return ret;
		g = NULL;
	}
	if (!g) {
		g = ta_group_new(a, tgid, NULL);
		if (!g)
			return -ENOMEM;
		g->want_parent = 1;	/* its parent may come later */
		g->scan_gen = a->gen;
	}
	g->start_ns = start_ns;
	g->start_exact = 1;
	g->ppid = ppid;
	g->state = state;
	ta_comm(g->comm, comm);
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
		ta_group_drop(a, g);
	ta_group_put(g);
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
		ta_thread_free(a, t);
		t = NULL;
	}
	/* another incarnation: another group or another start */
	if (t && (t->g != g || (t->start_exact && t->start_ns != start_ns))) {
		ret = ta_thread_die(a, t, NULL, a->now_ns);
		if (ret)
			return ret;
		ta_thread_free(a, t);
		t = NULL;
	}
	if (g->dead)
		return 0;	/* that closed the group: next read */
	if (!t) {
		t = ta_thread_new(a, tid, g);
		if (!t)
			return -ENOMEM;
	}
	t->start_ns = start_ns;
	t->start_exact = 1;
	t->state = state;
	ta_comm(t->comm, comm);
	*out = t;
	return 0;
}

/* A live thread's counters; was_read: not its first read */
static void ta_read_counters(struct ptop_tsacct *a, thread_t *t,
			     const struct ptop_tsacct_counters *c, int was_read)
{
	uint64_t before = ptop_tsacct_thread_own(t), u, s;

	ptop_cputime_adjust(&t->split, c->runtime_ns, c->raw_user, c->raw_sys,
			    &u, &s);
	ta_take_counters(t, c);
	if (was_read && ptop_tsacct_thread_own(t) != before)
		t->moved_gen = a->gen;
}

void ptop_tsacct_scan_counters(struct ptop_tsacct *a, thread_t *t,
			       const struct ptop_tsacct_counters *c)
{
	ta_read_counters(a, t, c, t->seen_gen != 0);
	t->g->uid = c->uid;
	t->seen_gen = a->gen;
	t->g->nseen++;
}

void ptop_tsacct_reread_counters(struct ptop_tsacct *a, thread_t *t,
				 const struct ptop_tsacct_counters *c)
{
	ta_read_counters(a, t, c, 1);
}

void ptop_tsacct_scan_kernel_c(struct ptop_tsacct *a, group_t *g,
			       uint64_t kc_ns, uint64_t seq, uint64_t rseq,
			       int never_waited)
{
	g->kc_ns = kc_ns;
	g->kc_gen = a->gen;
	g->kc_rseq = rseq;
	g->kexp_late = 0;
	g->kmax_late = 0;
	g->kn_late = 0;
	if (g->kc_known)
		return;
	g->kc_known = 1;
	g->kc_seq = seq;
	/*
	 * floored: the kernel had up to a tick more in each of the two,
	 * half a tick on average; none when it never waited for a child
	 * (no fault of one in its stat): an older leaf (a compiler under
	 * a build) that dies then hands its parent nothing of its base
	 */
	if (g->forked || (never_waited && !kc_ns))
		g->kc_base = 0;
	else
		g->kc_base = kc_ns + ta_floors_mean(a);
}

void ptop_tsacct_first_kernel_c_again(struct ptop_tsacct *a, group_t *g,
				      uint64_t kc_ns, uint64_t seq,
				      int never_waited)
{
	if (g->forked || g->dead)
		return;
	g->kc_known = 0;
	ptop_tsacct_scan_kernel_c(a, g, kc_ns, seq, 0, never_waited);
}

/*
 * What the exits credited to g since the last prediction add to its
 * ktail at tau each, at most hi (tsacct.h); they are counted as done.
 */
static uint64_t ta_tail_predicted(group_t *g, uint64_t tau, uint64_t hi)
{
	uint64_t n = g->kn - g->kn_late, pred;

	if (n <= g->kpred_n)
		return 0;
	pred = g->ktail + (n - g->kpred_n) * tau;
	g->kpred_n = n;
	return pred < hi ? pred : hi;
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

		for (g = a->groups[i]; g; g = g->next) {
			uint64_t want, known, cap, hi, pred;

			if (g->kc_gen != a->gen || !g->kc_known || g->k_bad ||
			    g->tgid == 1)
				continue;
			known = g->kc_base + g->kexp - g->kexp_late;
			cap = g->kmax - g->kmax_late;
			want = g->kc_ns > known ? g->kc_ns - known : 0;
			if (want > cap)
				want = cap;
			/* the kernel's c is below its two floors + 2 ticks */
			hi = g->kc_ns + ta_floors_max(a) > known ?
				g->kc_ns + ta_floors_max(a) - known : 0;
			pred = ta_tail_predicted(g, tau, hi < cap ? hi : cap);
			if (pred > want)
				want = pred;
			if (want <= g->ktail)
				continue;
			g->cs += want - g->ktail;
			a->tail_ns += want - g->ktail;
			a->tails_sum_ns += want - g->ktail;
			g->ktail = want;
		}
	}
}

void ptop_tsacct_kernel_c_again(struct ptop_tsacct *a, group_t *g,
				uint64_t kc_ns, uint64_t rseq,
				int (*in_proc)(void *arg, uint32_t tgid),
				void *arg)
{
	size_t i;

	if (g->dead || !g->kc_known || kc_ns < g->kc_ns)
		return;
	g->kc_ns = kc_ns;
	g->kc_gen = a->gen;	/* the walk may not have read it */
	g->kc_rseq = rseq;
	/* every record taken so far came before this reading... */
	g->kexp_late = 0;
	g->kmax_late = 0;
	g->kn_late = 0;
	/* ...but a child not reaped by then is not in it */
	for (i = 0; i < a->nunreaped; i++) {
		const struct ptop_tsacct_unreaped *u = &a->unreaped[i];

		if (u->parent != g->tgid || !in_proc(arg, u->tgid))
			continue;
		g->kexp_late += u->exp_ns;
		g->kmax_late += u->max_ns;
		g->kn_late += u->nexits;
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
			g->kc_again = 0;
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
	if (g->kc_known && !g->k_bad && g->tgid != 1 &&
	    kc_ns > g->kc_base + g->kexp) {
		want = kc_ns - g->kc_base - g->kexp;
		if (want > g->kmax)
			want = g->kmax;
		if (want > g->ktail) {
			add += want - g->ktail;
			g->ktail = want;
		}
	}
	if (!add)
		return;
	to = ta_fold_target(g);
	if (!to && g->ppid)
		to = ptop_tsacct_group_find(a, g->ppid);
	if (!to)
		return;
	to->cs += add;
	a->tail_ns += add;
	a->tails_sum_ns += add;
	p = g->kparent ? ptop_tsacct_group_find(a, g->kparent) : NULL;
	if (!p)
		return;
	p->kexp += add;
	if (p->kc_gen == a->gen && p->kc_rseq && g->die_seq > p->kc_rseq)
		p->kexp_late += add;
	u = ta_unreaped_find(a, g->tgid);
	if (u && u->parent == p->tgid)
		u->exp_ns += add;
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
			pg = g->ppid ? ptop_tsacct_group_find(a, g->ppid) : NULL;
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
				ret = ta_thread_die(a, t, NULL, a->now_ns);
				if (ret)
					return ret;
			}
			n = t->next;
			/* leaders of live groups: zombies until the end */
			if (t->dead &&
			    t->dead_gen + PTOP_TSACCT_TOMB_GENS <= a->gen &&
			    (t->tid != t->g->tgid || t->g->dead))
				ta_thread_free(a, t);
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
			r = ta_thread_rec(a, t, 0, t->split.user_ns,
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
			r = ta_group_rec(a, g, 0);
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
