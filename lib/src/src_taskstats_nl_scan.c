// SPDX-License-Identifier: GPL-2.0
/*
 * taskstats_nl: the /proc scan (live threads, their counters by
 * TASKSTATS_CMD_GET, the groups' kernel c), the tight window and the
 * kernel c read again after the last exit records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pidns.h"
#include "rt_window.h"
#include "src_taskstats_nl.h"
#include "../reserve.h"

/* --- the /proc scan ---------------------------------------------------- */

struct taskstats_nl_scan {
	struct taskstats_nl_priv *p;
	struct ptop_tsacct_group *g;
	int get;		/* query taskstats */
	int at_open;		/* the open's scan: x* of older groups */
	uint64_t ticks_u, ticks_s;	/* the group's live threads, stat */
	uint64_t ino;		/* of the group's /proc directory */
	int use_marks;
	char last_state;	/* of the last thread scanned */
};

/*
 * Phase one of the snapshot (the walk) notes the threads that may run
 * before the window: running or runnable when read, or their runtime
 * moved at this read or at one of the previous snapshot's
 * (ptop_tsacct_thread_ran_lately(): a task that ran lately is likely to
 * run again). A sleeping one's counter stays at its walk value unless it
 * wakes meanwhile (what it runs then goes to the next interval).
 */
static int taskstats_nl_note_hot(struct taskstats_nl_priv *p, uint32_t tid)
{
	if (ptop_reserve(&p->hot, &p->hot_cap, p->nhot + 1, sizeof(*p->hot),
			 256))
		return -ENOMEM;
	p->hot[p->nhot++] = tid;
	return 0;
}

static int taskstats_nl_scan_thread(void *arg, int tid, int dfd)
{
	struct taskstats_nl_scan *sc = arg;
	struct taskstats_nl_priv *p = sc->p;
	struct ptop_tsacct_counters c;
	struct ptop_tsacct_thread *t;
	struct ptop_tsnl_stats st;
	struct ptop_pfs_stat ps;
	int ret, unread;

	ret = ptop_pfs_read_stat(&p->pfs, dfd, &ps);
	if (ret <= 0)
		return ret;
	sc->last_state = ps.state;
	/*
	 * a leader whose record was taken, a zombie or still on its exit path
	 * (else read as before)
	 */
	t = ptop_tsacct_thread_find(&p->acct, tid);
	if (sc->get && t && t->dead && (uint32_t)tid == sc->g->tgid &&
	    (ps.state == 'Z' || (t->start_exact && t->start_ns ==
	     ptop_pfs_ticks_ns(&p->pfs, ps.starttime))))
		return taskstats_nl_zombie(p, tid, &ps);
	ret = ptop_tsacct_scan_thread(&p->acct, sc->g, tid,
				      ptop_pfs_ticks_ns(&p->pfs, ps.starttime),
				      ps.state, ps.comm, &t);
	if (ret || !t || !sc->get)
		return ret;
	sc->ticks_u += ps.utime;
	sc->ticks_s += ps.stime;
	ret = ptop_tsnl_get_pid(&p->ts, tid, &st);
	if (ret == -ESRCH || ret == -ENOENT)
		return 0;	/* died meanwhile: its exit record follows */
	if (ret)
		return ret;
	unread = t->seen_gen + 1 != p->acct.gen;
	taskstats_nl_counters(p, &st, &c);
	ptop_tsacct_scan_counters(&p->acct, t, &c);
	if (sc->at_open && ptop_pfs_busy_life(ptop_tsacct_thread_own(t),
					      t->start_ns, p->acct.now_ns))
		ptop_tsacct_thread_moved(&p->acct, t);
	/* a new sleeper moves no more than an old one: by state only */
	if (ps.state == 'R' ||
	    (!unread && ptop_tsacct_thread_ran_lately(&p->acct, t)))
		return taskstats_nl_note_hot(p, tid);
	return 0;
}

/*
 * A group's first kernel c reading (tsacct.h): which exit records came
 * before it. Called before its stat is read: the records sent so far
 * into the queue (applied with the next events); returns their count.
 */
int taskstats_nl_first_kernel_c_begin(struct taskstats_nl_priv *p, int tgid,
				      uint64_t *seq)
{
	struct ptop_tsacct_group *g = ptop_tsacct_group_find(&p->acct, tgid);
	int ret = 0;

	*seq = 0;
	if (g && g->paths.known)
		return 0;
	ret = taskstats_nl_drain_exits(p);
	*seq = p->exit_seq;
	return ret;
}

/*
 * After the reading: a child whose record came before it but that is
 * still in /proc was not reaped, so not in that reading: it counts.
 */
static void taskstats_nl_first_kernel_c_end(struct taskstats_nl_priv *p,
					    int tgid)
{
	char name[16];
	size_t i;

	for (i = 0; i < p->nexits; i++) {
		struct taskstats_nl_exit *e = &p->exits[i];

		if (e->done || e->st.ppid != (uint32_t)tgid)
			continue;
		snprintf(name, sizeof(name), "%u", e->st.pid);
		if (!faccessat(p->pfs.root_fd, name, F_OK, 0))
			e->live_for = tgid;
	}
}

static int taskstats_nl_scan_group(void *arg, int tgid, int dfd)
{
	struct taskstats_nl_scan *sc = arg;
	struct taskstats_nl_priv *p = sc->p;
	struct ptop_pfs_mark mk = { .tgid = tgid, .ino = sc->ino };
	struct ptop_tsacct_group *g;
	struct ptop_pfs_stat ps;
	uint64_t kc_seq = 0, kc_rseq = 0, kc = 0;
	int ret, have_mark = 0;

	/* the counter first: a run after it shows at the next walk */
	if (sc->use_marks) {
		have_mark = ptop_pfs_read_mark(&p->pfs, tgid, &mk.run_ns,
					       &mk.pcount);
		if (have_mark < 0)
			return have_mark;
	}
	if (sc->get) {
		ret = taskstats_nl_first_kernel_c_begin(p, tgid, &kc_seq);
		if (ret)
			return ret;
	}
	ret = ptop_pfs_read_stat(&p->pfs, dfd, &ps);
	if (ret <= 0)
		return ret;
	if (kc_seq)
		taskstats_nl_first_kernel_c_end(p, tgid);
	if (sc->get) {
		struct ptop_tsacct_group *was =
			ptop_tsacct_group_find(&p->acct, tgid);

		kc = ptop_pfs_ticks_ns(&p->pfs, ps.cutime) +
		     ptop_pfs_ticks_ns(&p->pfs, ps.cstime);
		/*
		 * a child reaped since the last reading: which records came
		 * before this one (a drain after it: every record of a child
		 * in it is queued by then; tsacct.h)
		 */
		if (!was || !was->paths.known || was->paths.kernel_c_ns != kc) {
			ret = taskstats_nl_drain_exits(p);
			if (ret)
				return ret;
			kc_rseq = p->exit_seq;
		}
	}
	ret = ptop_tsacct_scan_group(&p->acct, tgid,
				     ptop_pfs_ticks_ns(&p->pfs, ps.starttime),
				     ps.ppid, ps.state, ps.comm,
				     ps.rss_pages * p->pfs.page_kb, &sc->g);
	if (ret)
		return ret;
	/* what its waited children left, exit paths included (tsacct.h) */
	if (sc->get)
		ptop_tsacct_scan_kernel_c(&p->acct, sc->g, kc, kc_seq,
					  kc_rseq,
					  !ps.cminflt && !ps.cmajflt);
	sc->ticks_u = 0;
	sc->ticks_s = 0;
	sc->last_state = 0;
	g = sc->g;
	ret = ptop_pfs_for_each_thread(&p->pfs, dfd, taskstats_nl_scan_thread,
				       sc);
	/* the kernel's group sums have the threads that died before open */
	if (!ret && sc->at_open)
		ptop_tsacct_x_base(sc->g,
			ptop_pfs_ticks_ns(&p->pfs, ps.utime > sc->ticks_u ?
					  ps.utime - sc->ticks_u : 0),
			ptop_pfs_ticks_ns(&p->pfs, ps.stime > sc->ticks_s ?
					  ps.stime - sc->ticks_s : 0));
	if (!ret && have_mark) {
		/*
		 * one live thread, the leader, met by this scan, not running,
		 * its time not moved at this read (at the next, it ran lately)
		 */
		struct ptop_tsacct_thread *t =
			ptop_tsacct_thread_find(&p->acct, tgid);

		mk.quiet_ok = !g->dead && g->nlive == 1 && g->nseen == 1 &&
			      t && t->g == g && !t->dead &&
			      t->seen_gen == p->acct.gen &&
			      sc->last_state != 'R' && ps.state != 'R' &&
			      t->moved_gen != p->acct.gen;
		ret = ptop_pfs_marks_add(&p->marks, &mk);
	}
	ptop_tsacct_scan_group_end(&p->acct, sc->g);
	sc->g = NULL;
	return ret == -ENOENT ? 0 : ret;
}

/* A group that did not run since its last full read: as it was. */
static int taskstats_nl_quiet(void *arg, int tgid, uint64_t ino)
{
	struct taskstats_nl_scan *sc = arg;
	struct taskstats_nl_priv *p = sc->p;
	const struct ptop_pfs_mark *was;
	int ret;

	sc->ino = ino;
	if (!sc->use_marks)
		return 0;
	was = ptop_pfs_marks_quiet(&p->pfs, &p->marks, tgid, ino);
	if (!was || !ptop_tsacct_scan_same(&p->acct, tgid))
		return 0;
	ret = ptop_pfs_marks_add(&p->marks, was);
	return ret ? ret : 1;
}

/*
 * At open, after the walk: every older group's first kernel c reading
 * again (ptop_tsacct_first_kernel_c_again()), so that an older child
 * that died during the walk before the walk met it is in that reading.
 */
int taskstats_nl_first_kernel_c_again(struct taskstats_nl_priv *p)
{
	size_t i, k;
	int ret;

	for (i = 0; i < PTOP_TSACCT_HASH; i++) {
		struct ptop_tsacct_group *g;

		for (g = p->acct.groups[i]; g; g = g->next) {
			struct ptop_pfs_stat ps;
			uint64_t seq;

			if (g->forked || !g->paths.known || g->dead)
				continue;
			ret = taskstats_nl_drain_exits(p);
			if (ret)
				return ret;
			seq = p->exit_seq;
			/* gone: its first reading stands */
			ret = taskstats_nl_read_stat_of(p, g->tgid, &ps);
			if (ret < 0)
				return ret;
			/* gone, or another process with that pid */
			if (!ret || ptop_pfs_ticks_ns(&p->pfs, ps.starttime) !=
				    g->start_ns)
				continue;
			/* a zombie at the first reading reaped since */
			for (k = 0; k < p->nexits; k++)
				if (p->exits[k].live_for == g->tgid)
					p->exits[k].live_for = 0;
			taskstats_nl_first_kernel_c_end(p, g->tgid);
			ptop_tsacct_first_kernel_c_again(&p->acct, g,
				ptop_pfs_ticks_ns(&p->pfs, ps.cutime) +
				ptop_pfs_ticks_ns(&p->pfs, ps.cstime), seq,
				!ps.cminflt && !ps.cmajflt);
		}
	}
	return 0;
}

/* The catch-up pass: a group this walk met (read or quiet) is skipped. */
static int taskstats_nl_met(void *arg, int tgid, uint64_t ino)
{
	struct taskstats_nl_scan *sc = arg;
	struct ptop_tsacct_group *g =
		ptop_tsacct_group_find(&sc->p->acct, tgid);

	sc->ino = ino;
	return g && !g->dead && g->seen_gen == sc->p->acct.gen;
}

int taskstats_nl_scan(struct taskstats_nl_priv *p, int get, int at_open)
{
	struct taskstats_nl_scan sc = {
		.p = p, .get = get, .at_open = at_open,
	};
	int ret;

	p->nhot = 0;
	p->acct.now_ns = ptop_pfs_boot_ns();
	/* a scan without counters must not vouch for them */
	sc.use_marks = get && p->has_schedstat;
	ptop_pfs_marks_begin(&p->marks);
	ret = ptop_pfs_for_each_group_q(&p->pfs, taskstats_nl_quiet,
					taskstats_nl_scan_group, &sc);
	/*
	 * Processes forked during the walk behind its place: the directory
	 * is read in chunks (getdents), so one forked after the last chunk
	 * was read is not in it, whatever its pid. Read now, not at the next
	 * walk, so that what it ran so far goes to this interval.
	 */
	sc.use_marks = 0;
	if (!ret)
		ret = ptop_pfs_for_each_group_q(&p->pfs, taskstats_nl_met,
						taskstats_nl_scan_group, &sc);
	ptop_pfs_marks_end(&p->marks);
	if (!ret)
		ptop_tsacct_scan_end(&p->acct);
	return ret;
}

/*
 * Phase two: the tight window. The system counters, the threads that may
 * have run (again), the system counters: the sample's instant is the
 * window's middle, and its length says how far apart the readings that
 * count lie (lib/verdict.h). A thread that died since the walk keeps its
 * walk values here; its exit record brings the final ones.
 */
int taskstats_nl_window(struct ptop_src *src, struct ptop_sample *out)
{
	struct taskstats_nl_priv *p = src->priv;
	struct ptop_rt_window w;
	size_t i;
	int ret;

	ptop_rt_window_begin(&w, src->cfg.rt_window);
	ret = ptop_pfs_sample_begin(&p->pfs, out);
	for (i = 0; !ret && i < p->nhot; i++) {
		struct ptop_tsacct_thread *t;
		struct ptop_tsacct_counters c;
		struct ptop_tsnl_stats st;

		/* by tid: a pid reused during the walk may have freed it */
		t = ptop_tsacct_thread_find(&p->acct, p->hot[i]);
		if (!t || t->dead || t->seen_gen != p->acct.gen)
			continue;
		ret = ptop_tsnl_get_pid(&p->ts, p->hot[i], &st);
		if (ret == -ESRCH || ret == -ENOENT) {
			ret = 0;
			continue;
		}
		if (ret)
			break;
		taskstats_nl_counters(p, &st, &c);
		ptop_tsacct_reread_counters(&p->acct, t, &c);
		ptop_rt_window_check(&w);
	}
	if (!ret)
		ret = ptop_pfs_sample_end(&p->pfs, out);
	ptop_rt_window_end(&w);
	return ret;
}

/*
 * Is tgid in /proc? (Its pid is not another process's yet: the unreaped
 * list keeps a child two generations at most, ptop_tsacct_again_done().)
 */
static int taskstats_nl_in_proc(void *arg, uint32_t tgid)
{
	const struct taskstats_nl_priv *p = arg;
	char name[16];

	snprintf(name, sizeof(name), "%u", tgid);
	return !faccessat(p->pfs.root_fd, name, F_OK, 0);
}

/*
 * A child of tgid whose record is queued (not in this read) and that is
 * gone from /proc, so may be in tgid's kernel c as read before: one
 * still there (on its exit path, or a zombie) was not reaped then.
 */
static int taskstats_nl_child_reaped_queued(struct taskstats_nl_priv *p,
					    uint32_t tgid)
{
	size_t i;

	for (i = 0; i < p->nexits; i++) {
		const struct ptop_tsnl_stats *st = &p->exits[i].st;

		if (!p->exits[i].done && st->ppid == tgid &&
		    !taskstats_nl_in_proc(p, st->tgid))
			return 1;
	}
	return 0;
}

/*
 * After the read's last exit records: the kernel c of the parents
 * credited with a child whose record is in this read, the walk having
 * read them before they reaped it, or not at all
 * (ptop_tsacct_kernel_c_again()).
 */
int taskstats_nl_kernel_c_again(struct taskstats_nl_priv *p)
{
	struct ptop_tsacct *a = &p->acct;
	struct ptop_pfs_stat ps;
	size_t i;
	int ret = 0;

	for (i = 0; i < a->nagain && !ret; i++) {
		struct ptop_tsacct_group *g =
			ptop_tsacct_group_find(a, a->again[i]);

		if (!g || g->dead)
			continue;
		ret = taskstats_nl_read_stat_of(p, g->tgid, &ps);
		if (ret < 0)
			break;
		/* gone (died meanwhile: next read), or another process */
		if (!ret || ptop_pfs_ticks_ns(&p->pfs, ps.starttime) !=
			    g->start_ns) {
			ret = 0;
			continue;
		}
		/*
		 * a child reaped by then has its record in the socket, and
		 * is not in expected_ns: then this reading would count all
		 * of it (a kill storm always has children on their exit
		 * paths, with records in the socket: those still in /proc
		 * are not in it)
		 */
		ret = taskstats_nl_drain_exits(p);
		if (!ret && !taskstats_nl_child_reaped_queued(p, g->tgid))
			ptop_tsacct_kernel_c_again(a, g,
				ptop_pfs_ticks_ns(&p->pfs, ps.cutime) +
				ptop_pfs_ticks_ns(&p->pfs, ps.cstime),
				p->exit_seq, taskstats_nl_in_proc, p);
	}
	ptop_tsacct_again_done(a, taskstats_nl_in_proc, p);
	return ret;
}
