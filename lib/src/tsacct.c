// SPDX-License-Identifier: GPL-2.0
/* Accounting hierarchy of the taskstats_nl source: x*, c*, folding, EXITs */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tsacct_internal.h"
#include "../verdict.h"
#include "../reserve.h"

typedef struct ptop_tsacct_group group_t;
typedef struct ptop_tsacct_thread thread_t;

static unsigned int tsacct_hash(uint32_t id)
{
	return (id * 2654435761U) & (PTOP_TSACCT_HASH - 1);
}

void ptop_tsacct_init(struct ptop_tsacct *a, uint64_t tick_ns)
{
	memset(a, 0, sizeof(*a));
	a->tick_ns = tick_ns ? tick_ns : 1;
}

/* comm: at most PTOP_COMM_LEN - 1 chars, NUL padded */
void ptop_tsacct_comm(char *dst, const char *src)
{
	size_t n = strnlen(src, PTOP_COMM_LEN - 1);

	memset(dst, 0, PTOP_COMM_LEN);
	memcpy(dst, src, n);
}

/* --- groups ------------------------------------------------------------ */

group_t *ptop_tsacct_group_find(struct ptop_tsacct *a, uint32_t tgid)
{
	group_t *g;

	for (g = a->groups[tsacct_hash(tgid)]; g; g = g->next)
		if (g->tgid == tgid)
			return g;
	return NULL;
}

/* Drop a reference; a freed group drops the one it held on its parent. */
void ptop_tsacct_group_put(group_t *g)
{
	while (g && !--g->nref) {
		group_t *up = g->aparent;

		free(g);
		g = up;
	}
}

static group_t *tsacct_live_ancestor(group_t *g)
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
group_t *ptop_tsacct_fold_target(group_t *g)
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

static uint32_t tsacct_acct_ptgid(group_t *g)
{
	group_t *ap = tsacct_live_ancestor(g->aparent);

	return ap ? ap->tgid : 0;
}

group_t *ptop_tsacct_group_new(struct ptop_tsacct *a, uint32_t tgid,
			       group_t *aparent)
{
	group_t *g = calloc(1, sizeof(*g));
	unsigned int h = tsacct_hash(tgid);

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

static void tsacct_group_unhash(struct ptop_tsacct *a, group_t *g)
{
	group_t **pp = &a->groups[tsacct_hash(g->tgid)];

	for (; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			g->next = NULL;
			return;
		}
}

/* A group that never had a thread: forget it without an EXIT record. */
void ptop_tsacct_group_drop(struct ptop_tsacct *a, group_t *g)
{
	g->dead = 1;
	tsacct_group_unhash(a, g);
	ptop_tsacct_group_put(g);
}

/* --- threads ------------------------------------------------------------ */

thread_t *ptop_tsacct_thread_find(struct ptop_tsacct *a, uint32_t tid)
{
	thread_t *t;

	for (t = a->threads[tsacct_hash(tid)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

void ptop_tsacct_thread_free(struct ptop_tsacct *a, thread_t *t)
{
	thread_t **pp = &a->threads[tsacct_hash(t->tid)];

	for (; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	ptop_tsacct_group_put(t->g);
	free(t);
}

thread_t *ptop_tsacct_thread_new(struct ptop_tsacct *a, uint32_t tid,
				 group_t *g)
{
	thread_t *t = calloc(1, sizeof(*t));
	unsigned int h = tsacct_hash(tid);

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
			ptop_tsacct_thread_free(a, a->threads[i]);
	for (i = 0; i < PTOP_TSACCT_HASH; i++)
		while (a->groups[i])
			ptop_tsacct_group_drop(a, a->groups[i]);
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
struct ptop_rec *ptop_tsacct_group_rec(struct ptop_tsacct *a, group_t *g,
				       unsigned int flags)
{
	struct ptop_rec *r = ptop_sample_add(a->out, PTOP_REC_GROUP);

	if (!r)
		return NULL;
	r->flags = flags | PTOP_RECF_HAS_X | PTOP_RECF_HAS_C;
	r->pid = g->tgid;
	r->tgid = g->tgid;
	r->ppid = g->ppid;
	r->acct_ptgid = tsacct_acct_ptgid(g);
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
struct ptop_rec *ptop_tsacct_thread_rec(struct ptop_tsacct *a, thread_t *t,
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
	r->acct_ptgid = tsacct_acct_ptgid(g);
	r->uid = g->uid;
	memcpy(r->comm, t->comm, sizeof(r->comm));
	r->start_ns = t->start_ns;
	r->utime_ns = user_ns;
	r->stime_ns = sys_ns;
	r->counts = t->counts;
	return r;
}

/* --- deaths and folding ------------------------------------------------- */

static int tsacct_group_die(struct ptop_tsacct *a, group_t *g, uint32_t code,
			    uint64_t exit_ns, uint32_t ppid)
{
	struct ptop_rec *r;
	group_t *to;

	g->dead = 1;
	tsacct_group_unhash(a, g);
	ptop_tsacct_credit_parent(a, g, ppid ? ppid : g->ppid);
	to = ptop_tsacct_fold_target(g);
	if (!to && g->ppid)	/* accounting parent unknown: real parent */
		to = ptop_tsacct_group_find(a, g->ppid);
	if (to) {
		to->cu += g->xu + g->cu;
		to->cs += g->xs + g->cs;
	}
	r = ptop_tsacct_group_rec(a, g, PTOP_RECF_EXIT);
	if (r) {
		r->state = 'X';
		r->exit_ns = exit_ns;
		r->exit_code = code;
		if (to) {
			r->folded_into = to->tgid;
			r->folded_start_ns = to->start_ns;
		}
	}
	ptop_tsacct_group_put(g);	/* the live hash's reference */
	return r ? 0 : -ENOMEM;
}

void ptop_tsacct_take_counters(thread_t *t,
			       const struct ptop_tsacct_counters *c)
{
	t->counts = c->counts;
	if (c->hiwater_kb > t->g->hwm_kb)
		t->g->hwm_kb = c->hiwater_kb;
}

/*
 * Thread t died with final counters c (NULL: lost, closed with what was
 * last reported, which keeps x* consistent but loses its last bit).
 */
int ptop_tsacct_thread_die(struct ptop_tsacct *a, thread_t *t,
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
		ptop_tsacct_take_counters(t, c);
		code = c->exit_code;
		if (!g->comm[0])
			ptop_tsacct_comm(g->comm, c->comm);
		if (!t->comm[0])
			ptop_tsacct_comm(t->comm, c->comm);
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
	r = ptop_tsacct_thread_rec(a, t, PTOP_RECF_EXIT, u, s);
	if (!r)
		return -ENOMEM;
	r->state = 'X';
	r->exit_ns = exit_ns;
	r->exit_code = code;
	if (!--g->nlive)
		return tsacct_group_die(a, g, code, exit_ns, ppid);
	return 0;
}

/* Close every live thread of g: it is a stale incarnation. */
int ptop_tsacct_group_flush(struct ptop_tsacct *a, group_t *g)
{
	size_t i;
	int ret = 0;

	a->lost = 1;
	g->nref++;	/* keep g while its threads go */
	for (i = 0; i < PTOP_TSACCT_HASH && !g->dead && !ret; i++) {
		thread_t *t;

		for (t = a->threads[i]; t && !ret; t = t->next)
			if (t->g == g && !t->dead)
				ret = ptop_tsacct_thread_die(a, t, NULL,
							     a->now_ns);
	}
	if (!ret && !g->dead)	/* it had no thread at all */
		ptop_tsacct_group_drop(a, g);
	ptop_tsacct_group_put(g);
	return ret;
}

/* A live group for a new thread; created (with its parent) if unknown. */
static group_t *tsacct_group_get(struct ptop_tsacct *a, uint32_t tgid,
				 uint32_t ptgid, uint64_t start_ns)
{
	group_t *g = ptop_tsacct_group_find(a, tgid);

	if (g)
		return g;
	g = ptop_tsacct_group_new(a, tgid,
			 ptgid ? ptop_tsacct_group_find(a, ptgid) : NULL);
	if (g) {
		g->ppid = ptgid;
		g->start_ns = start_ns;
	}
	return g;
}

/* A thread an event talks about: find it, or create it. */
static int tsacct_thread_get(struct ptop_tsacct *a, uint32_t tid, uint32_t tgid,
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
		ret = ptop_tsacct_thread_die(a, t, NULL, a->now_ns);
		if (ret)
			return ret;
	}
	if (t)
		ptop_tsacct_thread_free(a, t);
	g = ptop_tsacct_group_find(a, tgid);
	if (tid == tgid && g) {
		/* a new group reusing a live tgid: the old one is gone */
		ret = ptop_tsacct_group_flush(a, g);
		if (ret)
			return ret;
	}
	g = tsacct_group_get(a, tgid, ptgid, start_ns);
	if (!g)
		return -ENOMEM;
	t = ptop_tsacct_thread_new(a, tid, g);
	if (!t) {
		if (!g->nlive)
			ptop_tsacct_group_drop(a, g);
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
static void tsacct_group_reparent(struct ptop_tsacct *a, group_t *g,
				  uint32_t ptgid)
{
	group_t *pg = ptop_tsacct_group_find(a, ptgid);

	if (!pg || pg == g || pg == g->aparent)
		return;
	pg->nref++;
	ptop_tsacct_group_put(g->aparent);
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
		tsacct_group_reparent(a, t->g, ptgid);
	ret = tsacct_thread_get(a, pid, tgid, ptgid, start_ns, &t);
	/* a new process: its kernel cutime/cstime start at 0 */
	if (!ret && pid == tgid) {
		t->g->forked = 1;
		/* a scan may have met it first */
		t->g->paths.base_ns = 0;
	}
	return ret;
}

/*
 * The final counters of a thread closed as lost came after all: what it
 * ran since its last report goes where its time went (tsacct.h).
 */
static void tsacct_thread_late(struct ptop_tsacct *a, thread_t *t,
			       const struct ptop_tsacct_counters *c)
{
	uint64_t u0 = t->split.user_ns, s0 = t->split.sys_ns, u, s;
	group_t *g = t->g, *to;

	ptop_cputime_adjust(&t->split, c->runtime_ns, c->raw_user, c->raw_sys,
			    &u, &s);
	ptop_tsacct_take_counters(t, c);
	t->closed_lost = 0;
	u = u > u0 ? u - u0 : 0;
	s = s > s0 ? s - s0 : 0;
	if (!g->dead) {
		g->xu += u;
		g->xs += s;
		return;
	}
	/* as tsacct_group_die folded it (its target may have died since) */
	to = ptop_tsacct_fold_target(g);
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
	if (t && t->dead && t->closed_lost &&
	    t->g->tgid == (tgid ? tgid : pid)) {
		tsacct_thread_late(a, t, c);
		return 0;
	}

	ret = tsacct_thread_get(a, pid, tgid ? tgid : pid, ptgid, start_ns, &t);
	if (ret)
		return ret;
	return ptop_tsacct_thread_die(a, t, c, exit_ns);
}

int ptop_tsacct_lost(struct ptop_tsacct *a, uint32_t pid, uint64_t exit_ns)
{
	thread_t *t = ptop_tsacct_thread_find(a, pid);

	if (!t || t->dead)
		return 0;
	return ptop_tsacct_thread_die(a, t, NULL, exit_ns);
}

void ptop_tsacct_exec(struct ptop_tsacct *a, uint32_t tgid)
{
	thread_t *t = ptop_tsacct_thread_find(a, tgid);

	if (t && t->dead)
		ptop_tsacct_thread_free(a, t);
}

