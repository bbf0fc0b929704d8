// SPDX-License-Identifier: GPL-2.0
/*
 * The EXIT ring: the final counters of exited threads and groups, written
 * by the exit probe (exits.c) and, for a group, by acct_exit.c under its
 * lock together with the fold of the group's time (see acct.c for why
 * that makes the fold and the record one event for every pass).
 *
 * Every record has a position (head counts records ever written). An
 * answer "since N" returns the records written between the start of pass N
 * and the start of this pass; if the ring overwrote some of them, the
 * reader is told to RESYNC. pids are kept as struct pid references, so that
 * a reader in any pid namespace gets its own numbers even after the task is
 * gone.
 */
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/user_namespace.h>
#include "main.h"
#include "exit_ring.h"

#define DEDUP_SCAN	1024

/*
 * Taken with interrupts off: acct_exit.c takes it under acct_lock, which the
 * sched_process_free probe takes from RCU callbacks (softirq).
 */
static DEFINE_SPINLOCK(ring_lock);
static struct ptop_ts_exit_ent *ring;
static u32 ring_size;
static u64 head;			/* records ever written */

int ptop_ts_exits_init(void)
{
	ring_size = ptop_ts_exit_ring_size;
	ring = kvcalloc(ring_size, sizeof(*ring), GFP_KERNEL);
	return ring ? 0 : -ENOMEM;
}

static void put_refs(struct ptop_ts_exit_ent *e)
{
	put_pid(e->pid);
	put_pid(e->tgid);
	put_pid(e->parent);
	put_pid(e->fold);
}

void ptop_ts_exits_exit(void)
{
	u32 i;

	for (i = 0; i < ring_size; i++)
		put_refs(&ring[i]);
	kvfree(ring);
	ring = NULL;
}

u64 ptop_ts_exits_head(void)
{
	u64 h;
	unsigned long flags;

	spin_lock_irqsave(&ring_lock, flags);
	h = head;
	spin_unlock_irqrestore(&ring_lock, flags);
	return h;
}

u32 ptop_ts_exits_used(void)
{
	return min_t(u64, ptop_ts_exits_head(), ring_size);
}

/*
 * An exiting user task had its mm still set at the exit probe: records
 * are taken before exit_mm() on this kernel (ANSF_EXIT_BEFORE_MM).
 */
static bool exit_before_mm;

void ptop_ts_exits_saw_mm(void)
{
	if (!READ_ONCE(exit_before_mm))
		WRITE_ONCE(exit_before_mm, true);
}

bool ptop_ts_exit_before_mm(void)
{
	return READ_ONCE(exit_before_mm);
}

static bool same_group(const struct ptop_ts_exit_ent *a,
		       const struct ptop_ts_exit_ent *b)
{
	return a->rec.kind == PTOP_TS_KIND_GROUP && a->tgid == b->tgid &&
	       a->rec.start_ns == b->rec.start_ns;
}

/*
 * Append e (taking over its references); dedup: replace an earlier twin,
 * at position at - 1 when at is not 0 (the group's record, acct.c keeps
 * its position: O(1)), else found among the DEDUP_SCAN newest. Returns
 * the position e has.
 */
u64 ptop_ts_exits_push(struct ptop_ts_exit_ent *e, bool dedup, u64 at)
{
	struct ptop_ts_exit_ent old, *slot = NULL;
	u64 i, stop, pos = 0;
	unsigned long flags;

	spin_lock_irqsave(&ring_lock, flags);
	if (dedup && at) {
		/* still in the ring, and the twin (not overwritten) */
		if (head - (at - 1) <= ring_size &&
		    same_group(&ring[(at - 1) % ring_size], e)) {
			pos = at - 1;
			slot = &ring[pos % ring_size];
		}
	} else if (dedup) {
		stop = head > min_t(u64, ring_size, DEDUP_SCAN) ?
			head - min_t(u64, ring_size, DEDUP_SCAN) : 0;
		for (i = head; i > stop; i--) {
			if (same_group(&ring[(i - 1) % ring_size], e)) {
				pos = i - 1;
				slot = &ring[pos % ring_size];
				break;
			}
		}
	}
	if (!slot) {
		pos = head++;
		slot = &ring[pos % ring_size];
	}
	old = *slot;
	*slot = *e;
	spin_unlock_irqrestore(&ring_lock, flags);
	put_refs(&old);
	return pos;
}

/*
 * Is this thread, still linked to its group, one whose EXIT record was
 * written before position exit_head (0: only threads past exit_notify)?
 * Its time then belongs to x*, not to the live threads.
 *
 * A thread past exit_notify() counts as gone whatever its record's
 * position (its group's x* has it from then on; group_gone_locked() in
 * snapshot.c decides a whole group by the position). Deciding threads by
 * the position too (live until the next pass when the record came after
 * the pass began) was tried on 2026-12-01: test_kmod_exec_exit then saw
 * a group's total fall by 0.1 ms once in 2,736 passes, maybe not from
 * it (docs/reliability.md, "Exits during a pass"), so it stays.
 *
 * PTOP_TS_LINKED_LIVE (a group's exit report): never. The report reads
 * the group twice under its siglock (the threads' sum, then the module's
 * own x*, acct_exit.c) and each thread must be in exactly one of them;
 * exit_state is set by exit_notify() under tasklist_lock, not siglock, so
 * a thread could pass it between the two reads and be counted in both
 * (or, read the other way, in neither). Being linked changes only under
 * siglock (__exit_signal() unlinks the thread, adds its runtime to the
 * signal's sums and clears its sighand there), so the report decides by
 * that alone.
 */
bool ptop_ts_thread_gone(struct task_struct *t, u64 exit_head)
{
	if (exit_head == PTOP_TS_LINKED_LIVE)
		return false;
	if (t->exit_state)	/* past exit_notify(): the probe ran */
		return true;
	if (!exit_head || !(t->flags & PF_EXITING))
		return false;
	return ptop_ts_exits_recorded(task_pid(t), false, t->start_boottime,
				      t, exit_head);
}

/*
 * A record of this task (group) at a position in [lo, hi)? A THREAD record
 * must be of task itself, the same exec of it (see struct
 * ptop_ts_exit_ent). ring_lock held.
 */
static bool recorded_in(struct pid *pid, bool group, u64 start_ns,
			const struct task_struct *task, u64 lo, u64 hi)
{
	u16 kind = group ? PTOP_TS_KIND_GROUP : PTOP_TS_KIND_THREAD;
	u64 i;

	for (i = hi; i > lo; i--) {
		const struct ptop_ts_exit_ent *e = &ring[(i - 1) % ring_size];

		if (e->rec.kind == kind && e->rec.start_ns == start_ns &&
		    (group ? e->tgid : e->pid) == pid &&
		    (group || (e->task == task &&
			       e->exec_id == READ_ONCE(task->self_exec_id))))
			return true;
	}
	return false;
}

/* The oldest position of the DEDUP_SCAN newest before 'before' */
static u64 scan_stop(u64 before)
{
	u64 stop = before > DEDUP_SCAN ? before - DEDUP_SCAN : 0;

	if (head > ring_size && stop < head - ring_size)
		stop = head - ring_size;
	return stop;
}

/*
 * A record of this task (group) at a position in [from, before), among
 * the DEDUP_SCAN newest before 'before' (clamped to the head)
 */
static bool recorded_between(struct pid *pid, bool group, u64 start_ns,
			     const struct task_struct *task, u64 from,
			     u64 before)
{
	bool found;
	unsigned long flags;

	spin_lock_irqsave(&ring_lock, flags);
	if (before > head)
		before = head;
	found = recorded_in(pid, group, start_ns, task,
			    max(from, scan_stop(before)), before);
	spin_unlock_irqrestore(&ring_lock, flags);
	return found;
}

/*
 * Was an EXIT record of this task (group: of this thread group; a thread
 * is this task too, see struct ptop_ts_exit_ent) written at a position
 * before 'before'? Only the last DEDUP_SCAN records are looked
 * at: the caller asks for tasks that are inside do_exit() right now, whose
 * record, if any, is among the newest.
 */
bool ptop_ts_exits_recorded(struct pid *pid, bool group, u64 start_ns,
			    const struct task_struct *task, u64 before)
{
	return recorded_between(pid, group, start_ns, task, 0, before);
}

/*
 * ... at a position at or after 'from' (written since a pass began)?
 * Among the newest DEDUP_SCAN only: with more exits since 'from', one
 * older than those counts as not found.
 */
bool ptop_ts_exits_recorded_since(struct pid *pid, bool group, u64 start_ns,
				  const struct task_struct *task, u64 from)
{
	return recorded_between(pid, group, start_ns, task, from, U64_MAX);
}

#define COPY_BATCH	256	/* records copied per ring_lock hold */

/* e as the reader sees it; false: not visible in its namespace */
static bool copy_one(const struct ptop_ts_exit_ent *e, struct ptop_ts_record *r,
		     struct pid_namespace *ns, struct user_namespace *user_ns)
{
	*r = e->rec;
	r->pid = pid_nr_ns(e->pid, ns);
	r->tgid = pid_nr_ns(e->tgid, ns);
	if (!r->pid || !r->tgid)
		return false;
	r->ppid = pid_nr_ns(e->parent, ns);
	r->acct_ptgid = r->ppid;
	if (e->rec.kind == PTOP_TS_KIND_GROUP) {
		r->folded_into = pid_nr_ns(e->fold, ns);
		r->acct_ptgid = r->folded_into;
		if (!r->folded_into)
			r->folded_start_ns = 0;
	}
	r->uid = from_kuid_munged(user_ns, e->uid);
	return true;
}

/* what a copy of [from, to) takes and how (copy_range()) */
struct copy_how {
	struct pid_namespace *ns;
	struct user_namespace *user_ns;
	bool threads;		/* EXIT records: THREAD ones too */
	bool live;		/* GROUP records as live records of a pass: */
	u64 c_gen, t0_gen;	/* its acct generation, its instant's */
};

/* e as a live record of the pass how describes (ptop_ts_exits_copy_live()) */
static bool copy_live_one(const struct ptop_ts_exit_ent *e,
			  struct ptop_ts_record *r, const struct copy_how *how)
{
	u64 own, post;

	if ((e->rec.kind != PTOP_TS_KIND_GROUP && !how->threads) ||
	    !copy_one(e, r, how->ns, how->user_ns))
		return false;
	r->flags &= ~PTOP_TS_RECF_EXIT;
	r->folded_into = 0;
	r->folded_start_ns = 0;
	r->exit_code = 0;
	r->exit_ns = 0;
	/*
	 * what the record has after the pass's instant (exits.c) is for
	 * the next answer, the EXIT record's: own first, then x*
	 */
	post = e->t0_gen == how->t0_gen ? e->post_t0 : 0;
	own = r->utime_ns + r->stime_ns;
	if (post) {
		u64 part = min(post, own);

		r->utime_ns = ptop_ts_scale(own - part, r->utime_ns, own);
		r->stime_ns = own - part - r->utime_ns;
		post -= part;
	}
	if (e->rec.kind != PTOP_TS_KIND_GROUP)
		return true;	/* its group's record says the rest */
	if (e->c_gen == how->c_gen) {
		r->cutime_ns = e->c_pass.u;
		r->cstime_ns = e->c_pass.s;
		r->csteal_ns = e->c_pass.st;
	}
	if (post) {
		u64 x = r->xutime_ns + r->xstime_ns, part = min(post, x);

		r->xutime_ns = ptop_ts_scale(x - part, r->xutime_ns, x);
		r->xstime_ns = x - part - r->xutime_ns;
	}
	return true;
}

/*
 * The records at positions [from, to) that how takes, at most max into
 * out[]; their number, or -ENOSPC when the ring has overwritten some of
 * them; *stopped (unless NULL): the position the copy stopped at, below
 * to when out[] was full first. ring_lock is held for COPY_BATCH records at a time (tens of
 * thousands at once kept interrupts off for milliseconds); a record is
 * never changed once written but by a twin's replacement (push()), which
 * a single hold did not order against the copy either. Process context
 * (the pass lock held).
 */
static int copy_range(u64 from, u64 to, const struct copy_how *how,
		      struct ptop_ts_record *out, u32 max, u64 *stopped)
{
	u64 pos = from, stop;
	unsigned long flags;
	u32 n = 0;

	do {
		spin_lock_irqsave(&ring_lock, flags);
		/* the oldest record still wanted is overwritten */
		if (head - pos > ring_size) {
			spin_unlock_irqrestore(&ring_lock, flags);
			return -ENOSPC;
		}
		stop = min(to, pos + COPY_BATCH);
		for (; pos < stop && n < max; pos++) {
			const struct ptop_ts_exit_ent *e = &ring[pos % ring_size];
			bool taken;

			if (how->live)
				taken = copy_live_one(e, &out[n], how);
			else
				taken = (how->threads ||
					 e->rec.kind != PTOP_TS_KIND_THREAD) &&
					copy_one(e, &out[n], how->ns,
						 how->user_ns);
			n += taken;
		}
		spin_unlock_irqrestore(&ring_lock, flags);
		cond_resched();
	} while (pos < to && n < max);
	if (stopped)
		*stopped = pos;
	return n;
}

/*
 * Copy the records at positions [from, to) visible to the reader (GROUP
 * ones only unless threads); their number, or -ENOSPC (copy_range()).
 */
int ptop_ts_exits_copy(u64 from, u64 to, bool threads,
		       struct pid_namespace *ns, struct user_namespace *user_ns,
		       struct ptop_ts_record *out, u32 max)
{
	const struct copy_how how = {
		.ns = ns, .user_ns = user_ns, .threads = threads,
	};

	return copy_range(from, to, &how, out, max, NULL);
}

/*
 * The GROUP records at positions [from, to) as live records of the pass
 * whose acct generation is c_gen and whose instant has generation t0_gen
 * (snapshot.c, add_late_groups()): c* as that pass reports it, and
 * without the exiting thread's run after its CPU's instant of that pass
 * (that part is in the EXIT record, in the next answer); threads: the
 * THREAD records too, as they are (the caller fits them to their
 * group's). Returns their number, or -ENOSPC as above; *stopped as
 * copy_range() says.
 */
int ptop_ts_exits_copy_live(u64 from, u64 to, bool threads, u64 c_gen,
			    u64 t0_gen, struct pid_namespace *ns,
			    struct user_namespace *user_ns,
			    struct ptop_ts_record *out, u32 max, u64 *stopped)
{
	const struct copy_how how = {
		.ns = ns, .user_ns = user_ns, .live = true,
		.threads = threads, .c_gen = c_gen, .t0_gen = t0_gen,
	};

	return copy_range(from, to, &how, out, max, stopped);
}
