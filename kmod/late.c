// SPDX-License-Identifier: GPL-2.0
/*
 * Late groups: a group whose EXIT record came after the pass began is
 * live in this answer, but the walk may not have found it (all its
 * threads past exit_notify(), or released). Its record comes from the
 * exit ring instead, with its threads' in a thread answer. Under the pass
 * lock, out of RCU.
 */
#include <linux/kernel.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include "acct_exit.h"
#include "cpus.h"
#include "exit_ring.h"
#include "record.h"
#include "walk.h"
#include "late.h"

/* The first of recs[from, to) (in tgid order) with tgid or a greater one */
static u32 first_of_tgid(const struct ptop_ts_record *recs, u32 from, u32 to,
			 u32 tgid)
{
	u32 lo = from, hi = to, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (recs[mid].tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Is a GROUP record of (tgid, start) in recs[from, to) (in tgid order)? */
static bool reported(const struct ptop_ts_record *recs, u32 from, u32 to,
		     u32 tgid, u64 start)
{
	u32 j;

	for (j = first_of_tgid(recs, from, to, tgid);
	     j < to && recs[j].tgid == tgid; j++)
		if (recs[j].kind == PTOP_TS_KIND_GROUP &&
		    recs[j].start_ns == start)
			return true;
	return false;
}

/* Take part off a record's own time, system time first. */
static void own_less(struct ptop_ts_record *r, u64 part)
{
	u64 d = min(part, r->stime_ns);

	r->stime_ns -= d;
	r->utime_ns -= min(part - d, r->utime_ns);
}

/* The THREAD record of t's (pid, start) among recs[from, to), or NULL */
static const struct ptop_ts_record *
thread_walked(const struct ptop_ts_record *recs, u32 from, u32 to,
	      const struct ptop_ts_record *t)
{
	u32 j;

	for (j = first_of_tgid(recs, from, to, t->tgid);
	     j < to && recs[j].tgid == t->tgid; j++)
		if (recs[j].kind == PTOP_TS_KIND_THREAD &&
		    recs[j].pid == t->pid && recs[j].start_ns == t->start_ns)
			return &recs[j];
	return NULL;
}

/*
 * Is there a THREAD record of t's (pid, start) in recs(j, i), after t?
 * Only a leader's identity comes twice: a non-leader exec gives the
 * exec'er the old leader's pid and start (de_thread()), and both die as
 * threads of the group.
 */
static bool newer_twin(const struct ptop_ts_record *recs, u32 j, u32 i)
{
	const struct ptop_ts_record *t = &recs[j];

	if (t->pid != t->tgid)
		return false;
	while (++j < i)
		if (recs[j].kind == PTOP_TS_KIND_THREAD &&
		    recs[j].pid == t->pid && recs[j].start_ns == t->start_ns)
			return true;
	return false;
}

/*
 * How far back from a late GROUP record its threads' records are looked
 * for: they were pushed before it, the last one (the reporter's) right
 * before it but for other CPUs' pushes in between; this bounds the work
 * of an answer with thousands of late groups (an exit storm during a
 * long walk).
 */
#define LATE_THREADS_BACK	256

/*
 * Thread answers: the late group g (recs[i], live from its EXIT record)
 * and the THREAD records of its threads whose EXIT records also came
 * after the pass began (copied before it from the ring, as live records):
 * without them the group's own time since the reader's last answer was
 * on no thread row (the rows' own time comes from THREAD records). The
 * last of them is the thread that reported the group dead: it gives up
 * what the group record left out (its run after its CPU's instant) and
 * the difference of its probe's reading to the report's. Whatever the
 * group record has of threads without such a record (past their probe
 * before the pass began: EXIT in this answer) goes to x*, so that own +
 * x* stays the group's. Marks what it keeps (pad[0]).
 */
static void fit_late_threads(struct ptop_ts_record *recs, u32 from, u32 to,
			     u32 i)
{
	struct ptop_ts_record *g = &recs[i], *last = NULL;
	const struct ptop_ts_record *walked;
	u64 sum = 0, own = g->utime_ns + g->stime_ns;
	u32 j;

	for (j = i - min(i - to, (u32)LATE_THREADS_BACK); j < i; j++) {
		struct ptop_ts_record *t = &recs[j];

		if (t->kind != PTOP_TS_KIND_THREAD || t->pad[0] ||
		    t->tgid != g->tgid || t->start_ns < g->start_ns)
			continue;
		/*
		 * the walk read it a moment before its group was gone: the
		 * row the answer has is the walked one
		 */
		walked = thread_walked(recs, from, to, t);
		if (walked) {
			sum += walked->utime_ns + walked->stime_ns;
			continue;
		}
		/*
		 * the old leader of a non-leader exec, its identity now the
		 * exec'er's, whose record is later: one row per identity,
		 * the newest (the old leader's time is in the group's x*)
		 */
		if (newer_twin(recs, j, i))
			continue;
		t->pad[0] = 1;
		sum += t->utime_ns + t->stime_ns;
		last = t;
	}
	if (sum > own) {
		/*
		 * threads released before the report are in the record's
		 * x*, and have late THREAD records here too: their time
		 * moves from x* to own, where their rows are (else it would
		 * count twice, on the rows and in x*)
		 */
		u64 x = g->xutime_ns + g->xstime_ns, m = min(sum - own, x);
		u64 mu = ptop_ts_scale(m, g->xutime_ns, x);

		g->xutime_ns -= mu;
		g->xstime_ns -= m - mu;
		g->utime_ns += mu;
		g->stime_ns += m - mu;
		own += m;
	}
	if (last && sum > own) {
		own_less(last, sum - own);
		sum = own;
	}
	if (own > sum) {
		u64 x = g->xutime_ns + g->xstime_ns, more = own - sum;

		g->xstime_ns += ptop_ts_scale(more, g->stime_ns, own);
		g->xutime_ns = x + more - g->xstime_ns;
		own_less(g, more);
	}
}

/*
 * Late groups were left out for want of room: the answer says MORE. Its
 * walk was whole, so no page holds them; next_pid is past every tgid (a
 * pid is below pid_max, at most PID_MAX_LIMIT): the next page has no
 * walk, and the reader knows this answer is short.
 */
static void late_short(struct ptop_ts_walk *w)
{
	w->full = true;
	w->snap->ans->flags |= PTOP_TS_ANSF_MORE;
	if (w->cap < w->q->cmd.max_count)
		w->snap->ans->flags |= PTOP_TS_ANSF_ROOM;
	w->snap->ans->next_pid = PID_MAX_LIMIT;
}

/*
 * A group whose EXIT record comes after the pass began is live in this
 * answer (and EXIT in the next one), but the walk skips a group once all
 * its threads are past exit_notify(), and cannot find one already
 * released: such a group would be in neither answer (docs/design.md,
 * "Live or dead, once per task"). So the walk of recs[from, count) is
 * followed by those groups' records from the ring, as live records of
 * this pass: c* without the folds since the pass began, times without
 * the exiting thread's run after its CPU's instant (both are then in the
 * EXIT record), and in thread answers their threads' records
 * (fit_late_threads()). Not for paged answers. The answer grows to hold
 * every record written since the pass began (GROUP, THREAD, of any
 * namespace: a bound); where it cannot (max_count, the reader's budget)
 * and some are left, it says MORE (late_short()).
 */
void ptop_ts_add_late_groups(struct ptop_ts_walk *w, u32 from)
{
	struct ptop_ts_snap *snap = w->snap;
	struct ptop_ts_record *recs;
	u32 to = snap->ans->count, n = to, i;
	u64 late_head, stopped = 0;
	int got = 0;

	w->late_head = w->exit_head;
	if (w->full || w->q->cmd.start_pid > 1)
		return;
	late_head = ptop_ts_exits_head();
	w->late_head = late_head;
	if (late_head == w->exit_head)
		return;
	/* room for every record written since the pass began */
	if ((u64)to + (late_head - w->exit_head) > w->cap)
		ptop_ts_walk_room(w, min_t(u64, (u64)to +
					   (late_head - w->exit_head),
					   w->q->cmd.max_count));
	recs = snap->recs;
	if (to < w->cap)
		got = ptop_ts_exits_copy_live(w->exit_head, late_head,
					      w->threads, ptop_ts_acct_gen(),
					      ptop_ts_pass_gen(), w->q->pid_ns,
					      w->q->user_ns, &recs[to],
					      w->cap - to, &stopped);
	/*
	 * -ENOSPC: the ring overwrote records since the pass began; the
	 * next answer cannot start from this one's head and is a RESYNC
	 */
	if (got < 0)
		return;
	/* out of room (max_count, the budget): some may be left out */
	if (stopped < late_head)
		late_short(w);
	if (!got)
		return;
	for (i = to; i < to + got; i++) {
		struct ptop_ts_record *r = &recs[i];

		if ((i - to) % WALK_CHUNK == WALK_CHUNK - 1)
			cond_resched();
		if (r->kind != PTOP_TS_KIND_GROUP ||
		    reported(recs, from, to, r->tgid, r->start_ns))
			continue;
		r->pad[0] = 1;
		if (w->threads)
			fit_late_threads(recs, from, to, i);
	}
	/* in ring order, the kept ones: never over one not read yet */
	for (i = to; i < to + got; i++) {
		struct ptop_ts_record *r = &recs[i];

		if (!r->pad[0])
			continue;
		r->pad[0] = 0;
		r->flags |= w->recf;
		if (n != i)
			recs[n] = *r;
		n++;
	}
	snap->ans->count = n;
}
