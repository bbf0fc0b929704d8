// SPDX-License-Identifier: GPL-2.0
/*
 * "Active since answer N": which tasks changed since a pass, learnt from
 * events the kernel already reports (a switch out, the task on a CPU at
 * a drain, a fork, a fold into c* or a new accounting parent, a
 * reparenting), so that a "since N" pass visits those tasks only (plus
 * the EXIT ring). Each event marks its task in its CPU's table
 * (activity_marks.c, activity_orphans.c); each pass drains the tables
 * into the index (activity_index.c), where an entry keeps the number of
 * the pass that drained its last mark. docs/design.md ("Which tasks
 * changed since answer N") argues why no changed task is missed, and
 * what the walk decides without a mark (a group past exit_notify(), a
 * non-leader exec). A mark that cannot be kept, or tracking off after
 * N, makes the pass walk every task (complete_from).
 *
 * Marks are kept only while someone reads (track_linger seconds after
 * the last reader): the switch probe stays attached for the module's
 * life (hooks.c says why) and, with nobody reading, only notes each
 * CPU's task.
 *
 * Locking: the pass lock (seq.c, a mutex, taken killable by passes)
 * serializes passes and protects the index; act_mutex the reader count
 * and attaching; order act_mutex -> pass lock.
 */
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include "activity_index.h"
#include "activity_marks.h"
#include "activity_orphans.h"
#include "seq.h"
#include "activity.h"

#define ACT_PRUNE	64		/* entries checked for death per pass */

static DEFINE_MUTEX(act_mutex);
static struct ptop_ts_mark *drain_buf;
static u64 complete_from = U64_MAX;	/* since passes below: full walk */
static long act_readers;
static bool act_on;
static u64 act_full_walks, act_inc_walks, act_lost;

unsigned int ptop_ts_track_linger = 60;

static void act_linger_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(act_linger_work, act_linger_fn);

int ptop_ts_act_init(void)
{
	ptop_ts_seq_init();
	return ptop_ts_act_index_init();
}

/*
 * Every CPU's marks so far into the index, with pass number pass; false
 * when some were lost (complete_from moves to pass). Pass lock held.
 */
static bool drain(u64 pass)
{
	bool ok = true, lost;
	u32 touched = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		u32 i, n = ptop_ts_marks_take(cpu, drain_buf, &lost);

		if (lost)
			ok = false;
		for (i = 0; i < n; i++)
			if (!ptop_ts_act_touch_mark(&drain_buf[i], pass))
				ok = false;
		touched += n;
		cond_resched();
	}
	if (!ptop_ts_orphans_drain(pass))
		ok = false;
	if (!ok) {
		act_lost++;
		complete_from = pass;
	}
	ptop_ts_act_prune(ACT_PRUNE + 2 * touched);
	return ok;
}

/* A pass begins: its number; the marks so far get it. Pass lock held. */
u64 ptop_ts_act_pass(void)
{
	u64 pass = ptop_ts_seq_next_pass();

	if (act_on)
		drain(pass);
	return pass;
}

/*
 * The marks made since the pass's drain: after an incremental pass's
 * instant (what ran before it must be walked too), after a cross-check
 * pass's full walk (pass.c). They belong after this pass as well:
 * pass + 1 is the number the next pass gets.
 */
void ptop_ts_act_drain_late(u64 pass)
{
	if (act_on)
		drain(pass + 1);
}

/* Can the index answer "since pass"? Otherwise: walk every task. */
bool ptop_ts_act_complete(u64 since_pass)
{
	return act_on && since_pass >= complete_from;
}

/* --- attaching while someone reads -------------------------------------- */

/* act_mutex held */
static int act_attach(void)
{
	int ret;

	/*
	 * Here and in the tables and the index: charged to the reader whose
	 * open turns tracking on (26.6 KB a possible CPU), as answers are
	 */
	drain_buf = kvmalloc_array(PTOP_TS_MARK_SLOTS + 1, sizeof(*drain_buf),
				   GFP_KERNEL_ACCOUNT);
	if (!drain_buf)
		return -ENOMEM;
	ptop_ts_pass_lock();
	ret = ptop_ts_act_index_alloc();
	if (ret)
		goto err_unlock;
	ret = ptop_ts_marks_start();
	if (ret)
		goto err_index;
	/* a pass before this one could not see what ran in between */
	complete_from = ptop_ts_seq_now() + 1;
	act_on = true;
	ptop_ts_pass_unlock();
	return 0;

err_index:
	ptop_ts_act_index_free();
err_unlock:
	ptop_ts_pass_unlock();
	kvfree(drain_buf);
	drain_buf = NULL;
	return ret;
}

/* act_mutex held */
static void act_detach(void)
{
	ptop_ts_pass_lock();
	act_on = false;
	complete_from = U64_MAX;
	ptop_ts_marks_stop();
	kvfree(drain_buf);
	drain_buf = NULL;
	ptop_ts_orphans_free();
	ptop_ts_act_index_free();
	ptop_ts_pass_unlock();
}

static void act_linger_fn(struct work_struct *w)
{
	mutex_lock(&act_mutex);
	if (!act_readers && act_on)
		act_detach();
	mutex_unlock(&act_mutex);
}

/*
 * A reader comes (/proc/taskstats open, a netlink dump): tracking on. Its
 * failure only costs full walks.
 */
void ptop_ts_act_reader_get(void)
{
	int ret;

	mutex_lock(&act_mutex);
	cancel_delayed_work(&act_linger_work);
	act_readers++;
	if (!act_on) {
		ret = act_attach();
		if (ret)
			pr_warn_ratelimited("no activity tracking (%d): every answer walks all tasks\n",
					    ret);
	}
	mutex_unlock(&act_mutex);
}

/* ... and goes: tracking stays track_linger seconds for the next one. */
void ptop_ts_act_reader_put(void)
{
	mutex_lock(&act_mutex);
	if (!--act_readers && act_on) {
		if (ptop_ts_track_linger)
			schedule_delayed_work(&act_linger_work,
					      ptop_ts_track_linger * HZ);
		else
			act_detach();
	}
	mutex_unlock(&act_mutex);
}

void ptop_ts_act_exit(void)
{
	cancel_delayed_work_sync(&act_linger_work);
	mutex_lock(&act_mutex);
	if (act_on)
		act_detach();
	mutex_unlock(&act_mutex);
	/* the exit probe is detached: nothing can add one any more */
	ptop_ts_orphans_free();
	ptop_ts_act_index_exit();
}

void ptop_ts_act_counts(struct ptop_ts_act_counts *c)
{
	/* for the state file: a pass in progress need not be waited for */
	c->readers = READ_ONCE(act_readers);
	c->attached = READ_ONCE(act_on);
	c->entries = ptop_ts_act_entries();
	c->full_walks = READ_ONCE(act_full_walks);
	c->inc_walks = READ_ONCE(act_inc_walks);
	c->lost = READ_ONCE(act_lost);
}

/* Pass lock held: what kind of walk the pass made. */
void ptop_ts_act_walked(bool full)
{
	if (full)
		act_full_walks++;
	else
		act_inc_walks++;
}
