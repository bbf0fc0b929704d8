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
 * (cpu_run_real_total is utime+stime: tick based.) On 6.18 (taskstats v16)
 * the delay accounting fields are filled with kernel.task_delayacct=0; the
 * open probes it, sets the sysctl to 1 only when the probe reads 0 (and
 * leaves it on: another ptop or tstime may rely on it by then, and turning
 * it off under them would make their runtimes read 0), and if that fails too uses ac_utime+ac_stime as runtime
 * for live and dead tasks alike (consistency over precision), without
 * PTOP_CAP_NS. A running task's sum_exec_runtime is as of its last tick or
 * switch (at most one tick behind).
 *
 * Dead threads: final stats from the exit listener (one message per dead
 * thread), fed to the accounting hierarchy (lib/src/tsacct.h): a group's
 * accounting parent is its parent at fork (proc connector FORK events; for
 * tasks running at open, their /proc ppid); x* and c* are synthetic
 * cumulative counters that start at 0 at open. Self-reaped children and
 * double-fork orphans thus land at their original ancestor, not at init.
 *
 * Events are merged in kernel order: the connector stream (fork, exit) is
 * the timeline, and each connector EXIT consumes the exit listener's record
 * of that pid (which the kernel sends first). Lost messages (ENOBUFS) make
 * the sample PTOP_SAMPLE_INEXACT; a task that vanished without an exit
 * record is closed with its last reported counters.
 *
 * Cost (no more than top's): a single-threaded group whose schedstat
 * counter did not move since its last full read (ptop_pfs_marks,
 * procfs_read.h) is neither read from /proc nor queried over netlink: it
 * did not run, so its counters are what that read gave
 * (ptop_tsacct_scan_same()).
 *
 * Cheap reads: no file whose generation walks something global beyond
 * the tasks, or holds interrupts off for long (never /proc/timer_list).
 * Per refresh: the /proc files of the procfs source's walk (procfs_read.h
 * has each one's cost), one TASKSTATS_CMD_GET per thread read (that
 * task's counters, O(1)), the exit listener's and the proc connector's
 * messages (one per event); at open, /sys/devices/system/cpu/online and
 * kernel.task_delayacct.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cnproc.h"
#include "pidns.h"
#include "procfs_read.h"
#include "rt_window.h"
#include "../src.h"
#include "tsacct.h"
#include "../tsnl.h"
#include "../reserve.h"

#define TN_RCVBUF	(8 << 20)

/* A queued exit listener record, waiting for its connector EXIT. */
struct tn_exit {
	struct ptop_tsnl_stats st;
	uint64_t seq;		/* 1, 2, ... as received (tsacct.h) */
	uint32_t live_for;	/* see struct ptop_tsacct_counters */
	int done;
};


struct tn_priv {
	struct ptop_tsnl ts;
	struct ptop_cnproc cn;
	struct ptop_pfs pfs;
	struct ptop_tsacct acct;
	struct tn_exit *exits;
	size_t nexits, exits_cap;
	uint64_t exit_seq;	/* exit records received so far */
	int lost_at_open;	/* the open's walk drained a loss: first read's */
	uint32_t *hot;		/* tids to read again in the tight window */
	size_t nhot, hot_cap;
	struct ptop_pfs_marks marks;	/* who did not run */
	int has_schedstat;
	uint64_t boot_off;	/* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
	int precise;		/* runtime = cpu_run_virtual_total */
	int old_delayacct;	/* -1: untouched, 0: we turned it on (left on) */
};

/* The kernel's counters in the hierarchy's terms. */
static void tn_counters(const struct tn_priv *p,
			const struct ptop_tsnl_stats *st,
			struct ptop_tsacct_counters *c)
{
	memset(c, 0, sizeof(*c));
	/* consistency over precision: one runtime for live and dead */
	c->runtime_ns = p->precise ? st->run_virtual_ns :
			(st->utime_us + st->stime_us) * 1000;
	c->raw_user = st->utime_us;
	c->raw_sys = st->stime_us;
	c->counts = (struct ptop_rec_counts){
		.rdelay_ns = p->precise ? st->cpu_delay_ns : 0,
		.nvcsw = st->nvcsw, .nivcsw = st->nivcsw,
		.minflt = st->minflt, .majflt = st->majflt,
	};
	c->hiwater_kb = st->hiwater_rss_kb;
	c->uid = st->uid;
	c->ppid = st->ppid;
	c->exit_code = st->exitcode;
	memcpy(c->comm, st->comm, sizeof(c->comm) - 1);
}

/* --- event merging ------------------------------------------------------ */

static int tn_queue_exit(void *arg, const struct ptop_tsnl_stats *st,
			 const struct ptop_tsnl_stats *tgid)
{
	struct tn_priv *p = arg;

	if (ptop_reserve(&p->exits, &p->exits_cap, p->nexits + 1,
			 sizeof(*p->exits), 256))
		return -ENOMEM;
	p->exits[p->nexits].st = *st;
	p->exits[p->nexits].seq = ++p->exit_seq;
	p->exits[p->nexits].live_for = 0;
	p->exits[p->nexits].done = 0;
	p->nexits++;
	return 0;
}

static int tn_drain_exits(struct tn_priv *p)
{
	return ptop_tsnl_drain(&p->ts, tn_queue_exit, p, &p->acct.lost);
}

/* /proc/<pid>/stat by pid: >0 read, 0 gone, <0 error */
static int tn_read_stat_of(struct tn_priv *p, uint32_t pid,
			   struct ptop_pfs_stat *ps)
{
	char name[16];
	int ret, dfd;

	snprintf(name, sizeof(name), "%u", pid);
	dfd = openat(p->pfs.root_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	ret = ptop_pfs_read_stat(&p->pfs, dfd, ps);
	close(dfd);
	return ret;
}

/*
 * A dead group's leader, its exit record taken: its exit path and what
 * its reaped children left, from the task itself (ptop_tsacct_zombie()):
 * all of it once it is a zombie (not reaped yet); while it is still on
 * its exit path (its record is sent before: 2,000 children killed at once
 * are in state D for a while), what it ran so far, and a later reading
 * takes the rest. ps: its stat as the walk read it, or NULL to read it
 * now.
 */
static int tn_zombie(struct tn_priv *p, uint32_t tid,
		     const struct ptop_pfs_stat *ps)
{
	struct ptop_tsacct_thread *t = ptop_tsacct_thread_find(&p->acct, tid);
	struct ptop_tsacct_counters c;
	struct ptop_tsnl_stats st;
	struct ptop_pfs_stat own;
	int ret;

	if (!t || !t->dead || t->zombie_read || !t->g->dead ||
	    t->g->tgid != tid)
		return 0;
	if (!ps) {
		/* gone: reaped, its parent's c has it */
		ret = tn_read_stat_of(p, tid, &own);
		if (ret <= 0)
			return ret;
		ps = &own;
	}
	if (t->start_exact &&
	    t->start_ns != ptop_pfs_ticks_ns(&p->pfs, ps->starttime))
		return 0;	/* the pid is another task's now */
	ret = ptop_tsnl_get_pid(&p->ts, tid, &st);
	if (ret == -ESRCH || ret == -ENOENT)
		return 0;	/* reaped meanwhile */
	if (ret)
		return ret;
	tn_counters(p, &st, &c);
	ptop_tsacct_zombie(&p->acct, t, c.runtime_ns,
			   ptop_pfs_ticks_ns(&p->pfs, ps->cutime) +
			   ptop_pfs_ticks_ns(&p->pfs, ps->cstime),
			   ps->state == 'Z');
	return 0;
}

/* One exit listener record: the thread's final counters. */
static int tn_apply_exit(struct tn_priv *p, struct tn_exit *e,
			 uint64_t exit_ns)
{
	const struct ptop_tsnl_stats *st = &e->st;
	struct ptop_tsacct_counters c;
	uint64_t el = st->etime_us * 1000, now = p->acct.now_ns;
	int ret;

	e->done = 1;
	tn_counters(p, st, &c);
	c.seq = e->seq;
	c.live_for = e->live_for;
	/* if it was never seen alive: born ac_etime ago */
	ret = ptop_tsacct_exit(&p->acct, st->pid, st->tgid, st->ppid,
			       now > el ? now - el : 0, &c, exit_ns);
	if (!ret && st->pid == st->tgid)
		ret = tn_zombie(p, st->pid, NULL);
	return ret;
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
	struct tn_exit *e;
	int ret;

	switch (ev->what) {
	case PTOP_CNPROC_FORK:
		return ptop_tsacct_fork(&p->acct, ev->pid, ev->tgid, ev->ptgid,
					bt);
	case PTOP_CNPROC_EXIT:
		e = tn_find_exit(p, ev->pid);
		if (!e) {
			/* sent before the connector's: may be in the socket */
			ret = tn_drain_exits(p);
			if (ret)
				return ret;
			e = tn_find_exit(p, ev->pid);
		}
		if (e)
			return tn_apply_exit(p, e, bt);
		/* no record (lost, or applied already): close it if alive */
		return ptop_tsacct_lost(&p->acct, ev->pid, bt);
	case PTOP_CNPROC_EXEC:
		ptop_tsacct_exec(&p->acct, ev->tgid);
		return 0;
	}
	return 0;
}

/*
 * Exit records, then connector events in order, then exits left over.
 * The queue may hold records drained during the walk (tn_first_kc_begin()).
 */
static int tn_process_events(struct tn_priv *p)
{
	size_t i;
	int ret;

	p->acct.now_ns = ptop_pfs_boot_ns();
	p->boot_off = p->acct.now_ns - ptop_pfs_mono_ns();
	ret = tn_drain_exits(p);
	if (ret)
		return ret;
	ret = ptop_cnproc_drain(&p->cn, tn_event, p, &p->acct.lost);
	if (ret)
		return ret;
	for (i = 0; i < p->nexits; i++) {
		if (p->exits[i].done)
			continue;
		ret = tn_apply_exit(p, &p->exits[i], p->acct.now_ns);
		if (ret)
			return ret;
	}
	p->nexits = 0;
	return 0;
}

/* --- the /proc scan ---------------------------------------------------- */

struct tn_scan {
	struct tn_priv *p;
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
static int tn_note_hot(struct tn_priv *p, uint32_t tid)
{
	if (ptop_reserve(&p->hot, &p->hot_cap, p->nhot + 1, sizeof(*p->hot),
			 256))
		return -ENOMEM;
	p->hot[p->nhot++] = tid;
	return 0;
}

static int tn_scan_thread(void *arg, int tid, int dfd)
{
	struct tn_scan *sc = arg;
	struct tn_priv *p = sc->p;
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
		return tn_zombie(p, tid, &ps);
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
	tn_counters(p, &st, &c);
	ptop_tsacct_scan_counters(&p->acct, t, &c);
	if (sc->at_open && ptop_pfs_busy_life(ptop_tsacct_thread_own(t),
					      t->start_ns, p->acct.now_ns))
		ptop_tsacct_thread_moved(&p->acct, t);
	/* a new sleeper moves no more than an old one: by state only */
	if (ps.state == 'R' ||
	    (!unread && ptop_tsacct_thread_ran_lately(&p->acct, t)))
		return tn_note_hot(p, tid);
	return 0;
}

/*
 * A group's first kernel c reading (tsacct.h): which exit records came
 * before it. Called before its stat is read: the records sent so far
 * into the queue (applied with the next events); returns their count.
 */
static int tn_first_kc_begin(struct tn_priv *p, int tgid, uint64_t *seq)
{
	struct ptop_tsacct_group *g = ptop_tsacct_group_find(&p->acct, tgid);
	int ret = 0;

	*seq = 0;
	if (g && g->paths.known)
		return 0;
	ret = tn_drain_exits(p);
	*seq = p->exit_seq;
	return ret;
}

/*
 * After the reading: a child whose record came before it but that is
 * still in /proc was not reaped, so not in that reading: it counts.
 */
static void tn_first_kc_end(struct tn_priv *p, int tgid)
{
	char name[16];
	size_t i;

	for (i = 0; i < p->nexits; i++) {
		struct tn_exit *e = &p->exits[i];

		if (e->done || e->st.ppid != (uint32_t)tgid)
			continue;
		snprintf(name, sizeof(name), "%u", e->st.pid);
		if (!faccessat(p->pfs.root_fd, name, F_OK, 0))
			e->live_for = tgid;
	}
}

static int tn_scan_group(void *arg, int tgid, int dfd)
{
	struct tn_scan *sc = arg;
	struct tn_priv *p = sc->p;
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
		ret = tn_first_kc_begin(p, tgid, &kc_seq);
		if (ret)
			return ret;
	}
	ret = ptop_pfs_read_stat(&p->pfs, dfd, &ps);
	if (ret <= 0)
		return ret;
	if (kc_seq)
		tn_first_kc_end(p, tgid);
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
			ret = tn_drain_exits(p);
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
	ret = ptop_pfs_for_each_thread(&p->pfs, dfd, tn_scan_thread, sc);
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
static int tn_quiet(void *arg, int tgid, uint64_t ino)
{
	struct tn_scan *sc = arg;
	struct tn_priv *p = sc->p;
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
static int tn_first_kc_again(struct tn_priv *p)
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
			ret = tn_drain_exits(p);
			if (ret)
				return ret;
			seq = p->exit_seq;
			/* gone: its first reading stands */
			ret = tn_read_stat_of(p, g->tgid, &ps);
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
			tn_first_kc_end(p, g->tgid);
			ptop_tsacct_first_kernel_c_again(&p->acct, g,
				ptop_pfs_ticks_ns(&p->pfs, ps.cutime) +
				ptop_pfs_ticks_ns(&p->pfs, ps.cstime), seq,
				!ps.cminflt && !ps.cmajflt);
		}
	}
	return 0;
}

/* The catch-up pass: a group this walk met (read or quiet) is skipped. */
static int tn_met(void *arg, int tgid, uint64_t ino)
{
	struct tn_scan *sc = arg;
	struct ptop_tsacct_group *g =
		ptop_tsacct_group_find(&sc->p->acct, tgid);

	sc->ino = ino;
	return g && !g->dead && g->seen_gen == sc->p->acct.gen;
}

static int tn_scan(struct tn_priv *p, int get, int at_open)
{
	struct tn_scan sc = { .p = p, .get = get, .at_open = at_open };
	int ret;

	p->nhot = 0;
	p->acct.now_ns = ptop_pfs_boot_ns();
	/* a scan without counters must not vouch for them */
	sc.use_marks = get && p->has_schedstat;
	ptop_pfs_marks_begin(&p->marks);
	ret = ptop_pfs_for_each_group_q(&p->pfs, tn_quiet, tn_scan_group, &sc);
	/*
	 * Processes forked during the walk behind its place: the directory
	 * is read in chunks (getdents), so one forked after the last chunk
	 * was read is not in it, whatever its pid. Read now, not at the next
	 * walk, so that what it ran so far goes to this interval.
	 */
	sc.use_marks = 0;
	if (!ret)
		ret = ptop_pfs_for_each_group_q(&p->pfs, tn_met, tn_scan_group,
						&sc);
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
static int tn_window(struct ptop_src *src, struct ptop_sample *out)
{
	struct tn_priv *p = src->priv;
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
		tn_counters(p, &st, &c);
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
static int tn_in_proc(void *arg, uint32_t tgid)
{
	const struct tn_priv *p = arg;
	char name[16];

	snprintf(name, sizeof(name), "%u", tgid);
	return !faccessat(p->pfs.root_fd, name, F_OK, 0);
}

/*
 * A child of tgid whose record is queued (not in this read) and that is
 * gone from /proc, so may be in tgid's kernel c as read before: one
 * still there (on its exit path, or a zombie) was not reaped then.
 */
static int tn_child_reaped_queued(struct tn_priv *p, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < p->nexits; i++) {
		const struct ptop_tsnl_stats *st = &p->exits[i].st;

		if (!p->exits[i].done && st->ppid == tgid &&
		    !tn_in_proc(p, st->tgid))
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
static int tn_kc_again(struct tn_priv *p)
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
		ret = tn_read_stat_of(p, g->tgid, &ps);
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
		 * is not in expected_ns: then this reading would count all of it
		 * (a kill storm always has children on their exit paths, with
		 * records in the socket: those still in /proc are not in it)
		 */
		ret = tn_drain_exits(p);
		if (!ret && !tn_child_reaped_queued(p, g->tgid))
			ptop_tsacct_kernel_c_again(a, g,
				ptop_pfs_ticks_ns(&p->pfs, ps.cutime) +
				ptop_pfs_ticks_ns(&p->pfs, ps.cstime),
				p->exit_seq, tn_in_proc, p);
	}
	ptop_tsacct_again_done(a, tn_in_proc, p);
	return ret;
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
	ptop_pfs_marks_free(&p->marks);
	ptop_tsacct_free(&p->acct);
	free(p->exits);
	free(p->hot);
	free(p);
	src->priv = NULL;
}

/*
 * The rounding of this read: none with ns runtimes and ns idle (cpuidle);
 * a tick per CPU when the idle is /proc/stat's ticks (no cpuidle here);
 * two without ns runtimes (tick-sampled utime+stime and the idle).
 */
static void tn_bound(struct ptop_src *src)
{
	struct tn_priv *p = src->priv;
	uint64_t tick = ptop_pfs_ticks_ns(&p->pfs, 1);

	if (!p->precise) {
		src->res_ns = 2 * tick;
		src->res_what = "taskstats ticks";
	} else if (p->pfs.idle_ticks) {
		src->res_ns = tick;
		src->res_what = "idle in ticks";
	} else {
		src->res_ns = 0;
		src->res_what = NULL;
	}
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
	ptop_tsacct_init(&p->acct, 0);

	/* the kernel refuses the exit listener there: say why, not EINVAL */
	if (ptop_pidns_self_child(src->cfg.proc_root)) {
		ptop_src_set_err(src, "cannot run in a child pid namespace: the kernel's taskstats exit listener serves the initial one only");
		ret = -ENOENT;
		goto err;
	}
	ret = ptop_tsnl_open(&p->ts);
	if (ret) {
		ptop_src_set_err(src, ret == -ENOENT ?
				 "the kernel has no taskstats genetlink family" :
				 "taskstats netlink: %s", strerror(-ret));
		goto err;
	}
	ret = ptop_tsnl_probe_precise(&p->ts);
	if (ret == -EPERM || ret == -EACCES) {
		ptop_src_set_err(src, "taskstats needs CAP_NET_ADMIN: give the program the file capability (setcap cap_net_admin+ep PROGRAM, or make install-setcap), or run as root");
		ret = -EPERM;
		goto err;
	}
	if (ret < 0) {
		ptop_src_set_err(src, "taskstats query: %s", strerror(-ret));
		goto err;
	}
	p->precise = ret;
	how = "";
	if (!p->precise && ptop_tsnl_delayacct_get() == 0 && !ptop_tsnl_delayacct_set(1)) {
		p->old_delayacct = 0;
		ret = ptop_tsnl_probe_precise(&p->ts);
		p->precise = ret > 0;
		how = p->precise ? "; set kernel.task_delayacct=1 (left on)" :
			"";
		if (!p->precise) {
			ptop_tsnl_delayacct_set(0);
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
	p->has_schedstat = ptop_pfs_read_at(&p->pfs, p->pfs.root_fd,
					    "self/schedstat") >= 0;
	/* tasks running now: their accounting parent is their ppid */
	ptop_tsacct_init(&p->acct, ptop_pfs_ticks_ns(&p->pfs, 1));
	if (p->precise)
		p->acct.thread_flags = PTOP_RECF_HAS_RDELAY;
	ptop_sample_init(&scratch);
	p->acct.out = &scratch;
	p->acct.gen = 1;
	/* with counters: the first read then knows which threads moved */
	ret = tn_scan(p, 1, 1);
	if (!ret)
		ret = tn_first_kc_again(p);
	ptop_sample_free(&scratch);
	p->acct.out = NULL;
	p->lost_at_open = p->acct.lost;
	if (ret) {
		ptop_src_set_err(src, "scanning %s: %s", src->cfg.proc_root,
				 strerror(-ret));
		goto err;
	}

	src->caps = PTOP_DATA_X | PTOP_DATA_C | PTOP_CAP_C_COMPLETE |
		    PTOP_CAP_EXITS | PTOP_DATA_CTXSW | PTOP_DATA_MEM |
		    PTOP_CAP_EXIT_TAIL;
	if (p->precise)
		src->caps |= PTOP_CAP_NS | PTOP_DATA_RDELAY;
	/* 1%; with ticks somewhere, what tn_bound() says */
	src->tol_ppm = 10000;
	tn_bound(src);
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

	p->acct.gen++;
	p->acct.lost = p->lost_at_open;
	p->lost_at_open = 0;
	p->acct.nlost = 0;
	p->acct.tail_ns = 0;
	p->acct.out = out;
	ptop_pfs_kconfig(src->cfg.proc_root, &out->sys_apart);
	/* dead tasks first (forks come before their exits), then the walk */
	ret = tn_process_events(p);
	if (!ret) {
		int nice = ptop_walk_nice_begin(src->cfg.rt_window);

		ret = tn_scan(p, 1, 0);
		ptop_walk_nice_end(src->cfg.rt_window, nice);
	}
	if (!ret)
		ret = tn_window(src, out);
	/* tasks that died during the walk or the window: closed here too */
	if (!ret)
		ret = tn_process_events(p);
	if (!ret)
		ret = tn_kc_again(p);
	if (!ret)
		ret = ptop_tsacct_sweep(&p->acct);
	/* after the last exit records: every reaped child's is in */
	if (!ret)
		ptop_tsacct_tails(&p->acct);
	if (!ret)
		ret = ptop_tsacct_emit(&p->acct);
	if (ret)
		ptop_src_set_err(src, "taskstats read: %s", strerror(-ret));
	if (p->acct.lost)
		out->flags |= PTOP_SAMPLE_INEXACT;
	out->nlost = p->acct.nlost;
	tn_bound(src);
	p->acct.out = NULL;
	return ret;
}

const struct ptop_src_ops ptop_src_taskstats_nl_ops = {
	.name = "taskstats_nl",
	.desc = "stock taskstats netlink + exit listener",
	.open = taskstats_nl_open,
	.read = taskstats_nl_read,
	.close = taskstats_nl_close,
	.asks_net_admin = true,
};
