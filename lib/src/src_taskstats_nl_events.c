// SPDX-License-Identifier: GPL-2.0
/*
 * taskstats_nl: the exit listener's records and the proc connector's
 * events, merged in kernel order into the accounting hierarchy
 * (src_taskstats_nl.c has the whole story).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pidns.h"
#include "src_taskstats_nl.h"
#include "../reserve.h"

/* --- event merging ------------------------------------------------------ */

static int taskstats_nl_queue_exit(void *arg, const struct ptop_tsnl_stats *st,
				   const struct ptop_tsnl_stats *tgid)
{
	struct taskstats_nl_priv *p = arg;

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

int taskstats_nl_drain_exits(struct taskstats_nl_priv *p)
{
	return ptop_tsnl_drain(&p->ts, taskstats_nl_queue_exit, p,
			       &p->acct.lost);
}

/* /proc/<pid>/stat by pid: >0 read, 0 gone, <0 error */
int taskstats_nl_read_stat_of(struct taskstats_nl_priv *p, uint32_t pid,
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
int taskstats_nl_zombie(struct taskstats_nl_priv *p, uint32_t tid,
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
		ret = taskstats_nl_read_stat_of(p, tid, &own);
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
	taskstats_nl_counters(p, &st, &c);
	ptop_tsacct_zombie(&p->acct, t, c.runtime_ns,
			   ptop_pfs_ticks_ns(&p->pfs, ps->cutime) +
			   ptop_pfs_ticks_ns(&p->pfs, ps->cstime),
			   ps->state == 'Z');
	return 0;
}

/* One exit listener record: the thread's final counters. */
static int taskstats_nl_apply_exit(struct taskstats_nl_priv *p,
				   struct taskstats_nl_exit *e,
				   uint64_t exit_ns)
{
	const struct ptop_tsnl_stats *st = &e->st;
	struct ptop_tsacct_counters c;
	uint64_t el = st->etime_us * 1000, now = p->acct.now_ns;
	int ret;

	e->done = 1;
	taskstats_nl_counters(p, st, &c);
	c.seq = e->seq;
	c.live_for = e->live_for;
	/* if it was never seen alive: born ac_etime ago */
	ret = ptop_tsacct_exit(&p->acct, st->pid, st->tgid, st->ppid,
			       now > el ? now - el : 0, &c, exit_ns);
	if (!ret && st->pid == st->tgid)
		ret = taskstats_nl_zombie(p, st->pid, NULL);
	return ret;
}

static struct taskstats_nl_exit *
taskstats_nl_find_exit(struct taskstats_nl_priv *p, uint32_t pid)
{
	size_t i;

	/* oldest first; the queue holds one interval's exits */
	for (i = 0; i < p->nexits; i++)
		if (!p->exits[i].done && p->exits[i].st.pid == pid)
			return &p->exits[i];
	return NULL;
}

static int taskstats_nl_event(void *arg, const struct ptop_cnproc_event *ev)
{
	struct taskstats_nl_priv *p = arg;
	uint64_t bt = ev->time_ns + p->boot_off;
	struct taskstats_nl_exit *e;
	int ret;

	switch (ev->what) {
	case PTOP_CNPROC_FORK:
		return ptop_tsacct_fork(&p->acct, ev->pid, ev->tgid, ev->ptgid,
					bt);
	case PTOP_CNPROC_EXIT:
		e = taskstats_nl_find_exit(p, ev->pid);
		if (!e) {
			/* sent before the connector's: may be in the socket */
			ret = taskstats_nl_drain_exits(p);
			if (ret)
				return ret;
			e = taskstats_nl_find_exit(p, ev->pid);
		}
		if (e)
			return taskstats_nl_apply_exit(p, e, bt);
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
 * The queue may hold records drained during the walk
 * (taskstats_nl_first_kernel_c_begin()).
 */
int taskstats_nl_process_events(struct taskstats_nl_priv *p)
{
	size_t i;
	int ret;

	p->acct.now_ns = ptop_pfs_boot_ns();
	p->boot_off = p->acct.now_ns - ptop_pfs_mono_ns();
	ret = taskstats_nl_drain_exits(p);
	if (ret)
		return ret;
	ret = ptop_cnproc_drain(&p->cn, taskstats_nl_event, p, &p->acct.lost);
	if (ret)
		return ret;
	for (i = 0; i < p->nexits; i++) {
		if (p->exits[i].done)
			continue;
		ret = taskstats_nl_apply_exit(p, &p->exits[i], p->acct.now_ns);
		if (ret)
			return ret;
	}
	p->nexits = 0;
	return 0;
}
