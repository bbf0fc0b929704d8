// SPDX-License-Identifier: GPL-2.0
/*
 * taskstats_nl source: the stock kernel's taskstats over generic netlink,
 * plus its exit listener and the proc connector. Needs CAP_NET_ADMIN.
 *
 * Live threads: enumerated from /proc (identity (tid, start_ns) from the
 * stat starttime, as the procfs source does), counters from one
 * TASKSTATS_CMD_GET per thread. The precise runtime is
 * cpu_run_virtual_total (se.sum_exec_runtime, ns); ac_utime/ac_stime (us,
 * tick-sampled) only give the user/system split (ptop_cputime_adjust()).
 *
 * Dead threads: final stats from the exit listener (one message per dead
 * thread). The source keeps its own accounting hierarchy: a group's
 * accounting parent is its parent at fork (proc connector FORK events; for
 * tasks running at open, their /proc ppid), and per group synthetic
 * cumulative x* (dead threads) and c* (dead descendants) counters that
 * start at 0 at open. A dead thread adds its final own time to its group's
 * x*; a group dies with its last thread and adds its final x* + c* to the
 * c* of its nearest live accounting ancestor. Self-reaped children and
 * double-fork orphans thus land at their original ancestor, not at init.
 *
 * Events are merged in kernel order: the connector stream (fork, exit) is
 * the timeline, and each connector EXIT consumes the exit listener's record
 * of that pid (which the kernel sends first). Lost messages (ENOBUFS) make
 * the sample PTOP_SAMPLE_INEXACT; a task that vanished without an exit
 * record is closed with its last reported counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cnproc.h"
#include "cputime.h"
#include "procfs_read.h"
#include "src.h"
#include "tsnl.h"

#define TN_HASH		4096	/* buckets, power of two */
#define TN_RCVBUF	(8 << 20)
#define TN_TOMB_GENS	2	/* reads a dead thread is remembered */
#define TN_DELAYACCT	"/proc/sys/kernel/task_delayacct"

struct tn_group {
	struct tn_group *next;		/* live hash chain */
	struct tn_group *aparent;	/* accounting parent (may be dead) */
	unsigned int nref;		/* live-hash + threads + acct children */
	unsigned int nlive;		/* live threads */
	unsigned int nseen;		/* threads seen by this read's scan */
	uint32_t tgid, ppid, uid;
	uint64_t start_ns;
	uint64_t xu, xs, cu, cs;	/* synthetic cumulative, ns */
	uint64_t rss_kb, hwm_kb;
	uint64_t seen_gen;
	uint64_t scan_gen;		/* created by the scan of that read */
	char comm[PTOP_TS_COMM_LEN];
	char state;
	unsigned int dead : 1, start_exact : 1, want_parent : 1;
};

struct tn_thread {
	struct tn_thread *next;		/* hash chain (one entry per tid) */
	struct tn_group *g;
	uint32_t tid;
	uint64_t start_ns;
	struct ptop_cputime_prev split;	/* last reported own user/sys */
	uint64_t rdelay_ns, nvcsw, nivcsw, minflt, majflt;
	uint64_t seen_gen, dead_gen, born_gen;
	char comm[PTOP_TS_COMM_LEN];
	char state;
	unsigned int dead : 1, start_exact : 1, reported : 1;
};

/* A queued exit listener record, waiting for its connector EXIT. */
struct tn_exit {
	struct ptop_tsnl_stats st;
	int done;
};

struct tn_priv {
	struct ptop_tsnl ts;
	struct ptop_cnproc cn;
	struct ptop_pfs pfs;
	struct tn_thread *threads[TN_HASH];
	struct tn_group *groups[TN_HASH];
	struct tn_exit *exits;
	size_t nexits, exits_cap;
	uint64_t gen;
	uint64_t boot_off;	/* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
	int precise;		/* runtime = cpu_run_virtual_total */
	int old_delayacct;	/* -1: untouched, else the value to restore */
	int lost;		/* this read lost data */
	struct ptop_sample *out;
	struct ptop_src *src;
};

static unsigned int tn_hash(uint32_t id)
{
	return (id * 2654435761U) & (TN_HASH - 1);
}

/* --- groups ---------------------------------------------------------- */

static struct tn_group *tn_group_find(struct tn_priv *p, uint32_t tgid)
{
	struct tn_group *g;

	for (g = p->groups[tn_hash(tgid)]; g; g = g->next)
		if (g->tgid == tgid)
			return g;
	return NULL;
}

static void tn_group_put(struct tn_group *g)
{
	while (g && !--g->nref) {
		struct tn_group *up = g->aparent;

		free(g);
		g = up;
	}
}

static struct tn_group *tn_live_ancestor(struct tn_group *g)
{
	while (g && g->dead)
		g = g->aparent;
	return g;
}

static struct tn_group *tn_group_new(struct tn_priv *p, uint32_t tgid,
				     struct tn_group *aparent)
{
	struct tn_group *g = calloc(1, sizeof(*g));
	unsigned int h = tn_hash(tgid);

	if (!g)
		return NULL;
	g->tgid = tgid;
	g->nref = 1;		/* the live hash */
	g->aparent = aparent;
	if (aparent)
		aparent->nref++;
	g->next = p->groups[h];
	p->groups[h] = g;
	return g;
}

static void tn_group_unhash(struct tn_priv *p, struct tn_group *g)
{
	struct tn_group **pp = &p->groups[tn_hash(g->tgid)];

	for (; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			g->next = NULL;
			return;
		}
}

/* --- threads --------------------------------------------------------- */

static struct tn_thread *tn_thread_find(struct tn_priv *p, uint32_t tid)
{
	struct tn_thread *t;

	for (t = p->threads[tn_hash(tid)]; t; t = t->next)
		if (t->tid == tid)
			return t;
	return NULL;
}

static void tn_thread_free(struct tn_priv *p, struct tn_thread *t)
{
	struct tn_thread **pp = &p->threads[tn_hash(t->tid)];

	for (; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	tn_group_put(t->g);
	free(t);
}

static struct tn_thread *tn_thread_new(struct tn_priv *p, uint32_t tid,
				       struct tn_group *g)
{
	struct tn_thread *t = calloc(1, sizeof(*t));
	unsigned int h = tn_hash(tid);

	if (!t)
		return NULL;
	t->tid = tid;
	t->g = g;
	t->born_gen = p->gen;
	g->nref++;
	g->nlive++;
	t->next = p->threads[h];
	p->threads[h] = t;
	return t;
}

/* --- exits and folding --------------------------------------------------- */

static uint64_t tn_runtime(const struct tn_priv *p,
			   const struct ptop_tsnl_stats *st)
{
	if (p->precise)
		return st->run_virtual_ns;
	return (st->utime_us + st->stime_us) * 1000;
}

static int tn_group_die(struct tn_priv *p, struct tn_group *g,
			uint32_t exit_code, uint64_t exit_ns)
{
	struct tn_group *to;
	struct ptop_ts_record *r;

	g->dead = 1;
	tn_group_unhash(p, g);
	to = tn_live_ancestor(g->aparent);
	if (!to && g->ppid)	/* acct parent unknown: the real parent */
		to = tn_group_find(p, g->ppid);
	if (to) {
		to->cu += g->xu + g->cu;
		to->cs += g->xs + g->cs;
	}
	r = ptop_sample_add(p->out, PTOP_TS_KIND_GROUP);
	if (r) {
		struct tn_group *ap = tn_live_ancestor(g->aparent);

		r->flags = PTOP_TS_RECF_EXIT | PTOP_TS_RECF_HAS_X |
			   PTOP_TS_RECF_HAS_C;
		r->pid = g->tgid;
		r->tgid = g->tgid;
		r->ppid = g->ppid;
		r->acct_ptgid = ap ? ap->tgid : 0;
		r->uid = g->uid;
		r->state = 'X';
		memcpy(r->comm, g->comm, sizeof(r->comm));
		r->start_ns = g->start_ns;
		r->exit_ns = exit_ns;
		r->exit_code = exit_code;
		r->xutime_ns = g->xu;
		r->xstime_ns = g->xs;
		r->cutime_ns = g->cu;
		r->cstime_ns = g->cs;
		r->rss_kb = 0;
		r->hiwater_rss_kb = g->hwm_kb;
		if (to) {
			r->folded_into = to->tgid;
			r->folded_start_ns = to->start_ns;
		}
	}
	tn_group_put(g);	/* the live hash's reference */
	return r ? 0 : -ENOMEM;
}

/*
 * Thread t died with final stats st (NULL: lost, close it with its last
 * reported counters).
 */
static int tn_thread_die(struct tn_priv *p, struct tn_thread *t,
			 const struct ptop_tsnl_stats *st, uint64_t exit_ns)
{
	struct tn_group *g = t->g;
	struct ptop_ts_record *r;
	uint64_t u = t->split.user_ns, s = t->split.sys_ns;
	uint32_t code = 0;

	if (st) {
		ptop_cputime_adjust(&t->split, tn_runtime(p, st),
				    st->utime_us, st->stime_us, &u, &s);
		t->nvcsw = st->nvcsw;
		t->nivcsw = st->nivcsw;
		t->minflt = st->minflt;
		t->majflt = st->majflt;
		if (p->precise)
			t->rdelay_ns = st->cpu_delay_ns;
		code = st->exitcode;
		if (st->hiwater_rss_kb > g->hwm_kb)
			g->hwm_kb = st->hiwater_rss_kb;
		if (!g->comm[0])
			memcpy(g->comm, st->comm, sizeof(g->comm) - 1);
		if (!t->comm[0])
			memcpy(t->comm, st->comm, sizeof(t->comm) - 1);
		if (!g->ppid)
			g->ppid = st->ppid;
		if (!g->uid)
			g->uid = st->uid;
	}
	t->dead = 1;
	t->dead_gen = p->gen;
	g->xu += u;
	g->xs += s;
	r = ptop_sample_add(p->out, PTOP_TS_KIND_THREAD);
	if (!r)
		return -ENOMEM;
	r->flags = PTOP_TS_RECF_EXIT;
	if (p->precise)
		r->flags |= PTOP_TS_RECF_HAS_RDELAY;
	r->pid = t->tid;
	r->tgid = g->tgid;
	r->ppid = g->ppid;
	r->acct_ptgid = g->aparent ? g->aparent->tgid : 0;
	r->uid = g->uid;
	r->state = 'X';
	memcpy(r->comm, t->comm, sizeof(r->comm));
	r->start_ns = t->start_ns;
	r->exit_ns = exit_ns;
	r->exit_code = code;
	r->utime_ns = u;
	r->stime_ns = s;
	r->rdelay_ns = t->rdelay_ns;
	r->nvcsw = t->nvcsw;
	r->nivcsw = t->nivcsw;
	r->minflt = t->minflt;
	r->majflt = t->majflt;
	if (!--g->nlive)
		return tn_group_die(p, g, code, exit_ns);
	return 0;
}

/* A live group (tgid) to attach a new thread to; created when unknown. */
static struct tn_group *tn_group_get(struct tn_priv *p, uint32_t tgid,
				     uint32_t ptgid)
{
	struct tn_group *g = tn_group_find(p, tgid);

	if (g)
		return g;
	g = tn_group_new(p, tgid, ptgid ? tn_group_find(p, ptgid) : NULL);
	if (g)
		g->ppid = ptgid;
	return g;
}

/*
 * The scan met a group before its FORK event was processed (it was forked
 * during the scan): its parent at fork is the accounting parent, not its
 * ppid now (which is init if the parent already died).
 */
static void tn_group_reparent(struct tn_priv *p, struct tn_group *g,
			      uint32_t ptgid)
{
	struct tn_group *pg = tn_group_find(p, ptgid);

	if (!pg || pg == g || pg == g->aparent)
		return;
	pg->nref++;
	tn_group_put(g->aparent);
	g->aparent = pg;
	g->want_parent = 0;
}

/* Close every live thread of g: it is a stale incarnation. */
static int tn_group_flush(struct tn_priv *p, struct tn_group *g)
{
	size_t i;
	int ret;

	p->lost = 1;
	g->nref++;	/* keep g while its threads go */
	for (i = 0; i < TN_HASH && !g->dead; i++) {
		struct tn_thread *t, *n;

		for (t = p->threads[i]; t; t = n) {
			n = t->next;
			if (t->g == g && !t->dead) {
				ret = tn_thread_die(p, t, NULL,
						    ptop_pfs_boot_ns());
				if (ret) {
					tn_group_put(g);
					return ret;
				}
			}
		}
	}
	tn_group_put(g);
	return 0;
}

/* Estimated start of a task never seen in /proc: tick-truncated. */
static uint64_t tn_tick_trunc(const struct tn_priv *p, uint64_t ns)
{
	uint64_t tick = ptop_pfs_ticks_ns(&p->pfs, 1);

	return ns - ns % tick;
}

/* A thread (from an event) that we must know: find or create it. */
static struct tn_thread *tn_thread_get(struct tn_priv *p, uint32_t tid,
				       uint32_t tgid, uint32_t ptgid,
				       uint64_t start_ns, int *err)
{
	struct tn_thread *t = tn_thread_find(p, tid);
	struct tn_group *g;

	*err = 0;
	if (t && !t->dead && t->g->tgid == tgid)
		return t;
	if (t && !t->dead) {	/* a stale incarnation */
		p->lost = 1;
		*err = tn_thread_die(p, t, NULL, ptop_pfs_boot_ns());
		if (*err)
			return NULL;
	}
	if (t)
		tn_thread_free(p, t);
	g = tn_group_find(p, tgid);
	if (tid == tgid && g) {
		/* a new group reusing a live tgid: the old one is gone */
		*err = tn_group_flush(p, g);
		if (*err)
			return NULL;
		g = NULL;
	}
	if (!g) {
		g = tn_group_get(p, tgid, ptgid);
		if (!g) {
			*err = -ENOMEM;
			return NULL;
		}
		g->start_ns = start_ns;
	}
	t = tn_thread_new(p, tid, g);
	if (!t) {
		if (!g->nlive && !g->dead) {
			tn_group_unhash(p, g);
			tn_group_put(g);
		}
		*err = -ENOMEM;
		return NULL;
	}
	t->start_ns = start_ns;
	return t;
}

/* --- event merging ------------------------------------------------------ */

static int tn_queue_exit(void *arg, const struct ptop_tsnl_stats *st,
			 const struct ptop_tsnl_stats *tgid)
{
	struct tn_priv *p = arg;

	if (p->nexits == p->exits_cap) {
		size_t ncap = p->exits_cap ? p->exits_cap * 2 : 256;
		struct tn_exit *n = realloc(p->exits, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->exits = n;
		p->exits_cap = ncap;
	}
	p->exits[p->nexits].st = *st;
	p->exits[p->nexits].done = 0;
	p->nexits++;
	return 0;
}

static int tn_drain_exits(struct tn_priv *p)
{
	return ptop_tsnl_drain(&p->ts, tn_queue_exit, p, &p->lost);
}

/* One exit listener record: the thread's final counters. */
static int tn_apply_exit(struct tn_priv *p, struct tn_exit *e,
			 uint64_t exit_ns)
{
	const struct ptop_tsnl_stats *st = &e->st;
	uint64_t now = ptop_pfs_boot_ns(), start, el = st->etime_us * 1000;
	struct tn_thread *t;
	int err;

	e->done = 1;
	start = tn_tick_trunc(p, now > el ? now - el : 0);
	t = tn_thread_get(p, st->pid, st->tgid ? st->tgid : st->pid,
			  st->ppid, start, &err);
	if (!t)
		return err;
	return tn_thread_die(p, t, st, exit_ns);
}

static struct tn_exit *tn_find_exit(struct tn_priv *p, uint32_t pid)
{
	size_t i;

	/* oldest first; the queue holds one interval's exits */
	for (i = 0; i < p->nexits; i++)
		if (!p->exits[i].done && p->exits[i].st.pid == pid)
			return &p->exits[i];
	return NULL;
}

static int tn_event(void *arg, const struct ptop_cnproc_event *ev)
{
	struct tn_priv *p = arg;
	uint64_t bt = ev->time_ns + p->boot_off;
	struct tn_thread *t;
	struct tn_exit *e;
	int err = 0;

	switch (ev->what) {
	case PTOP_CNPROC_FORK:
		t = tn_thread_find(p, ev->pid);
		if (t && !t->dead && t->g->tgid == ev->tgid &&
		    t->born_gen == p->gen && !t->reported)
			return 0;	/* the scan met it first */
		if (ev->pid == ev->tgid && t && !t->dead &&
		    t->g->tgid == ev->tgid && t->g->scan_gen == p->gen)
			tn_group_reparent(p, t->g, ev->ptgid);
		t = tn_thread_get(p, ev->pid, ev->tgid, ev->ptgid,
				  tn_tick_trunc(p, bt), &err);
		return t ? 0 : err;
	case PTOP_CNPROC_EXIT:
		e = tn_find_exit(p, ev->pid);
		if (!e) {
			/* sent before the connector's: may be in the socket */
			err = tn_drain_exits(p);
			if (err)
				return err;
			e = tn_find_exit(p, ev->pid);
		}
		if (e)
			return tn_apply_exit(p, e, bt);
		t = tn_thread_find(p, ev->pid);
		if (t && !t->dead) {
			p->lost = 1;
			return tn_thread_die(p, t, NULL, bt);
		}
		return 0;
	case PTOP_CNPROC_EXEC:
		/* a non-leader exec takes over the leader's pid and start */
		t = tn_thread_find(p, ev->tgid);
		if (t && t->dead)
			tn_thread_free(p, t);
		return 0;
	}
	return 0;
}

/* Exit records, then connector events in order, then exits left over. */
static int tn_process_events(struct tn_priv *p)
{
	size_t i;
	int ret;

	p->boot_off = ptop_pfs_boot_ns() - ptop_pfs_mono_ns();
	p->nexits = 0;
	ret = tn_drain_exits(p);
	if (ret)
		return ret;
	ret = ptop_cnproc_drain(&p->cn, tn_event, p, &p->lost);
	if (ret)
		return ret;
	for (i = 0; i < p->nexits; i++) {
		if (p->exits[i].done)
			continue;
		ret = tn_apply_exit(p, &p->exits[i], ptop_pfs_boot_ns());
		if (ret)
			return ret;
	}
	p->nexits = 0;
	return 0;
}

/* --- the /proc scan ---------------------------------------------------- */

struct tn_scan {
	struct tn_priv *p;
	struct tn_group *g;
	int get;		/* query taskstats (not at open) */
};

static int tn_scan_thread(void *arg, int tid, int dfd)
{
	struct tn_scan *sc = arg;
	struct tn_priv *p = sc->p;
	struct ptop_tsnl_stats st;
	struct ptop_pfs_stat ps;
	struct tn_thread *t;
	uint64_t start, u, s;
	ssize_t n;
	int ret;

	n = ptop_pfs_read_at(&p->pfs, dfd, "stat");
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	if (ptop_pfs_parse_stat(p->pfs.buf, &ps))
		return 0;
	start = ptop_pfs_ticks_ns(&p->pfs, ps.starttime);
	t = tn_thread_find(p, tid);
	/* a zombie's exit record came already (it is sent before) */
	if ((ps.state == 'Z' || ps.state == 'X') && (!t || t->dead))
		return 0;
	if (t && t->dead) {
		/* its exit is known: a zombie leader or not yet released */
		if (t->start_ns == start || !t->start_exact)
			return 0;
		tn_thread_free(p, t);
		t = NULL;
	}
	if (t && t->g != sc->g) {	/* a stale incarnation */
		p->lost = 1;
		ret = tn_thread_die(p, t, NULL, ptop_pfs_boot_ns());
		if (ret)
			return ret;
		tn_thread_free(p, t);
		t = NULL;
	}
	if (t && t->start_exact && t->start_ns != start) {
		p->lost = 1;
		ret = tn_thread_die(p, t, NULL, ptop_pfs_boot_ns());
		if (ret)
			return ret;
		tn_thread_free(p, t);
		t = NULL;
	}
	if (sc->g->dead)
		return 0;	/* the group just closed: next read */
	if (!t) {
		t = tn_thread_new(p, tid, sc->g);
		if (!t)
			return -ENOMEM;
	}
	t->start_ns = start;
	t->start_exact = 1;
	t->state = ps.state;
	memcpy(t->comm, ps.comm, sizeof(t->comm));
	if (!sc->get)
		return 0;
	ret = ptop_tsnl_get_pid(&p->ts, tid, &st);
	if (ret == -ESRCH || ret == -ENOENT)
		return 0;	/* died meanwhile: its exit record follows */
	if (ret)
		return ret;
	ptop_cputime_adjust(&t->split, tn_runtime(p, &st), st.utime_us,
			    st.stime_us, &u, &s);
	t->nvcsw = st.nvcsw;
	t->nivcsw = st.nivcsw;
	t->minflt = st.minflt;
	t->majflt = st.majflt;
	t->rdelay_ns = st.cpu_delay_ns;
	t->seen_gen = p->gen;
	sc->g->nseen++;
	sc->g->uid = st.uid;
	if (st.hiwater_rss_kb > sc->g->hwm_kb)
		sc->g->hwm_kb = st.hiwater_rss_kb;
	return 0;
}

static int tn_scan_group(void *arg, int tgid, int dfd)
{
	struct tn_scan *sc = arg;
	struct tn_priv *p = sc->p;
	struct ptop_pfs_stat ps;
	struct tn_group *g;
	uint64_t start;
	ssize_t n;
	int ret;

	n = ptop_pfs_read_at(&p->pfs, dfd, "stat");
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	if (ptop_pfs_parse_stat(p->pfs.buf, &ps))
		return 0;
	start = ptop_pfs_ticks_ns(&p->pfs, ps.starttime);
	g = tn_group_find(p, tgid);
	if (g && g->start_exact && g->start_ns != start) {
		ret = tn_group_flush(p, g);
		if (ret)
			return ret;
		g = NULL;
	}
	if (!g) {
		g = tn_group_new(p, tgid, NULL);
		if (!g)
			return -ENOMEM;
		g->want_parent = 1;	/* its parent may come later */
		g->scan_gen = p->gen;
	}
	g->start_ns = start;
	g->start_exact = 1;
	g->ppid = ps.ppid;
	g->state = ps.state;
	memcpy(g->comm, ps.comm, sizeof(g->comm));
	g->rss_kb = ps.rss_pages * p->pfs.page_kb;
	g->seen_gen = p->gen;
	g->nseen = 0;
	sc->g = g;
	g->nref++;
	ret = ptop_pfs_for_each_thread(&p->pfs, dfd, tn_scan_thread, sc);
	if (ret == -ENOENT)
		ret = 0;
	if (!ret && !g->nlive && !g->dead) {
		/* no thread left to close it: drop the empty group */
		g->dead = 1;
		tn_group_unhash(p, g);
		tn_group_put(g);
	}
	tn_group_put(g);
	return ret;
}

static int tn_scan(struct tn_priv *p, int get)
{
	struct tn_scan sc = { .p = p, .get = get };
	size_t i;
	int ret;

	ret = ptop_pfs_for_each_group(&p->pfs, tn_scan_group, &sc);
	if (ret)
		return ret;
	/* groups found by the scan: their accounting parent is the ppid */
	for (i = 0; i < TN_HASH; i++) {
		struct tn_group *g;

		for (g = p->groups[i]; g; g = g->next) {
			struct tn_group *pg;

			if (!g->want_parent)
				continue;
			g->want_parent = 0;
			pg = g->ppid ? tn_group_find(p, g->ppid) : NULL;
			if (pg && pg != g && !g->aparent) {
				g->aparent = pg;
				pg->nref++;
			}
		}
	}
	return 0;
}

/* Threads that vanished without an exit record; old tombstones. */
static int tn_sweep(struct tn_priv *p)
{
	size_t i;
	int ret;

	for (i = 0; i < TN_HASH; i++) {
		struct tn_thread *t, *n;

		for (t = p->threads[i]; t; t = n) {
			n = t->next;
			if (!t->dead && t->seen_gen != p->gen &&
			    (t->reported || t->born_gen + TN_TOMB_GENS < p->gen)) {
				p->lost = 1;
				ret = tn_thread_die(p, t, NULL,
						    ptop_pfs_boot_ns());
				if (ret)
					return ret;
				n = t->next;	/* the chain may have changed */
			}
			if (t->dead && t->dead_gen + TN_TOMB_GENS <= p->gen &&
			    (t->tid != t->g->tgid || t->g->dead))
				tn_thread_free(p, t);
		}
	}
	return 0;
}

static int tn_emit(struct tn_priv *p)
{
	struct ptop_ts_record *r;
	size_t i;

	for (i = 0; i < TN_HASH; i++) {
		struct tn_thread *t;

		for (t = p->threads[i]; t; t = t->next) {
			struct tn_group *g = t->g;
			struct tn_group *ap = tn_live_ancestor(g->aparent);

			if (t->dead || t->seen_gen != p->gen)
				continue;
			r = ptop_sample_add(p->out, PTOP_TS_KIND_THREAD);
			if (!r)
				return -ENOMEM;
			t->reported = 1;
			if (p->precise)
				r->flags = PTOP_TS_RECF_HAS_RDELAY;
			r->pid = t->tid;
			r->tgid = g->tgid;
			r->ppid = g->ppid;
			r->acct_ptgid = ap ? ap->tgid : 0;
			r->uid = g->uid;
			r->state = t->state;
			memcpy(r->comm, t->comm, sizeof(r->comm));
			r->start_ns = t->start_ns;
			r->utime_ns = t->split.user_ns;
			r->stime_ns = t->split.sys_ns;
			r->rdelay_ns = t->rdelay_ns;
			r->nvcsw = t->nvcsw;
			r->nivcsw = t->nivcsw;
			r->minflt = t->minflt;
			r->majflt = t->majflt;
		}
	}
	for (i = 0; i < TN_HASH; i++) {
		struct tn_group *g;

		for (g = p->groups[i]; g; g = g->next) {
			struct tn_group *ap = tn_live_ancestor(g->aparent);

			if (g->dead || g->seen_gen != p->gen || !g->nseen)
				continue;
			r = ptop_sample_add(p->out, PTOP_TS_KIND_GROUP);
			if (!r)
				return -ENOMEM;
			r->flags = PTOP_TS_RECF_HAS_X | PTOP_TS_RECF_HAS_C;
			r->pid = g->tgid;
			r->tgid = g->tgid;
			r->ppid = g->ppid;
			r->acct_ptgid = ap ? ap->tgid : 0;
			r->uid = g->uid;
			r->nthreads = g->nseen;
			r->state = g->state;
			memcpy(r->comm, g->comm, sizeof(r->comm));
			r->start_ns = g->start_ns;
			r->xutime_ns = g->xu;
			r->xstime_ns = g->xs;
			r->cutime_ns = g->cu;
			r->cstime_ns = g->cs;
			r->rss_kb = g->rss_kb;
			r->hiwater_rss_kb = g->hwm_kb;
		}
	}
	return 0;
}

/* --- delay accounting ------------------------------------------------ */

static int tn_sysctl_get(void)
{
	char b[16] = "";
	int fd = open(TN_DELAYACCT, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	return n > 0 ? atoi(b) : -EIO;
}

static int tn_sysctl_set(int v)
{
	char b[16];
	int fd = open(TN_DELAYACCT, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	snprintf(b, sizeof(b), "%d\n", v);
	if (write(fd, b, strlen(b)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Does the kernel fill cpu_run_virtual_total? Ask about ourselves. */
static int tn_probe_precise(struct tn_priv *p)
{
	struct ptop_tsnl_stats st;
	int ret;

	/*
	 * sum_exec_runtime is only brought up to date when a task is
	 * switched out or ticked: sleep once so ours surely is.
	 */
	usleep(1000);
	ret = ptop_tsnl_get_pid(&p->ts, gettid(), &st);
	if (ret)
		return ret;
	return st.run_virtual_ns > 0;
}

static void tn_free_state(struct tn_priv *p)
{
	size_t i;

	for (i = 0; i < TN_HASH; i++) {
		while (p->threads[i])
			tn_thread_free(p, p->threads[i]);
	}
	for (i = 0; i < TN_HASH; i++) {
		while (p->groups[i]) {
			struct tn_group *g = p->groups[i];

			g->dead = 1;
			tn_group_unhash(p, g);
			tn_group_put(g);
		}
	}
	free(p->exits);
	p->exits = NULL;
}

/* --- ops ------------------------------------------------------------------ */

static void taskstats_nl_close(struct ptop_src *src)
{
	struct tn_priv *p = src->priv;

	if (!p)
		return;
	ptop_cnproc_close(&p->cn);
	ptop_tsnl_close(&p->ts);
	ptop_pfs_close(&p->pfs);
	if (p->old_delayacct >= 0)
		tn_sysctl_set(p->old_delayacct);
	tn_free_state(p);
	free(p);
	src->priv = NULL;
}

static int taskstats_nl_open(struct ptop_src *src)
{
	struct ptop_sample scratch;
	struct tn_priv *p;
	unsigned int apart;
	const char *how;
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->old_delayacct = -1;
	p->ts.fd = p->ts.lfd = -1;
	p->cn.fd = -1;
	p->pfs.root_fd = -1;
	src->priv = p;

	ret = ptop_tsnl_open(&p->ts);
	if (ret) {
		ptop_src_set_err(src, ret == -ENOENT ?
				 "the kernel has no taskstats genetlink family" :
				 "taskstats netlink: %s", strerror(-ret));
		goto err;
	}
	ret = tn_probe_precise(p);
	if (ret == -EPERM || ret == -EACCES) {
		ptop_src_set_err(src, "taskstats needs CAP_NET_ADMIN (run as root)");
		ret = -EPERM;
		goto err;
	}
	if (ret < 0) {
		ptop_src_set_err(src, "taskstats query: %s", strerror(-ret));
		goto err;
	}
	p->precise = ret;
	how = "";
	if (!p->precise && tn_sysctl_get() == 0 && !tn_sysctl_set(1)) {
		p->old_delayacct = 0;
		ret = tn_probe_precise(p);
		p->precise = ret > 0;
		how = p->precise ? "; kernel.task_delayacct set to 1 while open" :
			"";
		if (!p->precise) {
			tn_sysctl_set(0);
			p->old_delayacct = -1;
		}
	}
	ret = ptop_tsnl_listen(&p->ts, NULL, TN_RCVBUF);
	if (ret) {
		ptop_src_set_err(src, "taskstats exit listener: %s",
				 strerror(-ret));
		ret = ret == -EACCES ? -EPERM : ret;
		goto err;
	}
	ret = ptop_cnproc_open(&p->cn, TN_RCVBUF);
	if (ret) {
		ptop_src_set_err(src, "proc connector: %s", strerror(-ret));
		ret = ret == -EACCES ? -EPERM : ret;
		goto err;
	}
	ret = ptop_pfs_open(&p->pfs, src->cfg.proc_root);
	if (ret) {
		ptop_src_set_err(src, "cannot open %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		goto err;
	}
	/* tasks running now: their accounting parent is their ppid */
	ptop_sample_init(&scratch);
	p->out = &scratch;
	p->gen = 1;
	ret = tn_scan(p, 0);
	ptop_sample_free(&scratch);
	p->out = NULL;
	if (ret) {
		ptop_src_set_err(src, "scanning %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		goto err;
	}
	p->src = src;

	src->caps = PTOP_CAP_X | PTOP_CAP_C | PTOP_CAP_C_COMPLETE |
		    PTOP_CAP_EXITS | PTOP_CAP_CTXSW;
	if (p->precise)
		src->caps |= PTOP_CAP_NS | PTOP_CAP_RDELAY;
	ret = ptop_pfs_kconfig(src->cfg.proc_root, &apart);
	snprintf(src->note, sizeof(src->note), "%s%s%s; c* counts from open",
		 p->precise ? "ns runtimes (cpu_run_virtual_total)" :
		 "no delay accounting: us runtimes from tick-sampled "
		 "utime+stime, no run-queue delay",
		 how, ret ? "; no kernel config: assuming steal is kept "
		 "apart from tasks" : "");
	return 0;

err:
	taskstats_nl_close(src);
	return ret;
}

static int taskstats_nl_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct tn_priv *p = src->priv;
	int ret;

	p->gen++;
	p->lost = 0;
	p->out = out;
	out->time_ns = ptop_pfs_mono_ns();
	ptop_pfs_kconfig(src->cfg.proc_root, &out->sys_apart);
	ret = ptop_pfs_read_cpu(&p->pfs, &out->cpu, &out->ncpu);
	if (ret) {
		ptop_src_set_err(src, "%s/stat: %s", src->cfg.proc_root,
				 strerror(-ret));
		goto out;
	}
	/* dead tasks first (forks come before their exits), then the scan */
	ret = tn_process_events(p);
	if (!ret)
		ret = tn_scan(p, 1);
	/* tasks that died during the scan: closed in this sample too */
	if (!ret)
		ret = tn_process_events(p);
	if (!ret)
		ret = tn_sweep(p);
	if (!ret)
		ret = tn_emit(p);
	if (ret)
		ptop_src_set_err(src, "taskstats read: %s", strerror(-ret));
out:
	if (p->lost)
		out->flags |= PTOP_SAMPLE_INEXACT;
	p->out = NULL;
	return ret;
}

const struct ptop_src_ops ptop_src_taskstats_nl_ops = {
	.name = "taskstats_nl",
	.desc = "stock taskstats netlink + exit listener",
	.open = taskstats_nl_open,
	.read = taskstats_nl_read,
	.close = taskstats_nl_close,
};
