// SPDX-License-Identifier: GPL-2.0
/*
 * The state of one walk (pass.c runs it, walk_groups.c and
 * walk_threads.c fill it): records added to the answer, the answer grown
 * when the walk outgrows it, the answer stopped where it is full. Under
 * the pass lock (seq.c).
 */
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include "activity_index.h"
#include "walk.h"

/* In threads mode, a thread's record: every one, or those marked */
bool ptop_ts_walk_wants(const struct ptop_ts_walk *w, struct task_struct *t)
{
	return !w->since_pass ||
	       ptop_ts_act_thread_changed(t, w->since_pass);
}

struct ptop_ts_record *ptop_ts_walk_add(struct ptop_ts_walk *w,
					const struct ptop_ts_record *r)
{
	struct ptop_ts_record *dst = &w->snap->recs[w->snap->ans->count++];

	*dst = *r;
	dst->flags |= w->recf;
	return dst;
}

/*
 * The answer stops before group tgid: MORE, next_pid tgid. Short of
 * max_count only when it could not grow (ANSF_ROOM).
 */
void ptop_ts_walk_stop_at(struct ptop_ts_walk *w, u32 tgid)
{
	struct ptop_ts_answer *ans = w->snap->ans;

	w->full = true;
	ans->flags |= PTOP_TS_ANSF_MORE;
	if (w->cap < w->q->cmd.max_count)
		ans->flags |= PTOP_TS_ANSF_ROOM;
	ans->next_pid = tgid;
}

/* Room for cap records (at most; fewer: as it was). Out of RCU. */
void ptop_ts_walk_room(struct ptop_ts_walk *w, u32 cap)
{
	ptop_ts_snap_grow(w->snap, cap);
	w->cap = w->snap->cap;
}

/*
 * walk_group() found the answer too small for the next group (WALK_GROW):
 * the tasks counted before the walk (count_all(), the selection) were
 * outgrown during it, by forks and new threads. The answer grows to hold
 * w->grow records, by half its size at least (a fork storm outgrows it
 * again and again: few copies), at most max_count, and the walk goes on
 * from that group; a reader who set no max_count gets the whole answer.
 * When even w->grow records cannot be had (the reader's budget, memory:
 * the old and the new buffer are both charged while the answer is
 * copied), the answer stops there: MORE with ANSF_ROOM. Out of RCU.
 */
void ptop_ts_walk_grow(struct ptop_ts_walk *w)
{
	u32 max = w->q->cmd.max_count;
	u32 want = min(w->grow, max), old = w->cap;

	w->grow = 0;
	ptop_ts_walk_room(w, min_t(u64, max_t(u64, (u64)want + want / 8 + 64,
					      (u64)w->cap + w->cap / 2), max));
	if (w->cap < want)
		ptop_ts_walk_room(w, want);
	/*
	 * Not grown at all is no room either: a group cut for threads
	 * that have gone since asks for no more than the answer has
	 * (want <= cap), and the walk would take the same group again
	 * and again while the allocation fails.
	 */
	if (w->cap < want || w->cap == old) {
		w->no_room = true;
		ptop_ts_snap_count_grow(false);
	} else {
		ptop_ts_snap_count_grow(true);
	}
}

/*
 * As __lock_task_sighand(), which is not exported. Under RCU. Returns with
 * sh->siglock held, or NULL; for sparse the lock is the caller's, taken
 * by the __cond_lock() of ptop_ts_lock_sighand(), as lock_task_sighand().
 */
struct sighand_struct *__ptop_ts_lock_sighand(struct task_struct *t,
					      unsigned long *flags)
{
	struct sighand_struct *sh;

	for (;;) {
		local_irq_save(*flags);
		sh = rcu_dereference(t->sighand);
		if (!sh) {
			local_irq_restore(*flags);
			return NULL;
		}
		spin_lock(&sh->siglock);
		if (likely(sh == rcu_access_pointer(t->sighand))) {
			__release(&sh->siglock);	/* sparse only */
			return sh;
		}
		spin_unlock(&sh->siglock);
		local_irq_restore(*flags);
	}
}
