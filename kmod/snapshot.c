// SPDX-License-Identifier: GPL-2.0
/*
 * One answer: a single pass over the reader's pid namespace, in tgid order,
 * under rcu_read_lock(), filling records into a buffer allocated before.
 *
 * Records are filled by record.c; runtimes are as of the instant the walk
 * began (cpus.c), so that a long walk does not move time between
 * intervals.
 * A thread inside do_exit() is reported as live until the EXIT record that
 * exits.c writes for it exists: a thread or group whose record was written
 * before this pass began is left out (that record is in this answer or an
 * earlier one); one whose record comes later is in this answer as live and
 * in the next one as EXIT, except a thread already past exit_notify(),
 * which is gone (its probe ran: ptop_ts_thread_gone()). So every task a reader has seen ends with
 * exactly one EXIT record, and no answer has a task both live and dead.
 * A group is live or gone by its EXIT record's position alone, fixed once
 * written, so that it holds for the whole pass (a group past
 * exit_notify() whose record came after the pass began is live in it:
 * group_gone_locked()). A group that dies after the pass began and that
 * the walk cannot read any more (released) is live in the answer from
 * its EXIT record (add_late_groups()); a group whose leader changed since
 * it was picked (a non-leader exec) is read from its leader now.
 *
 * Which tasks a pass visits: "since N" answers walk the groups activity.c
 * marked after pass N, in tgid order; the first answer, RESYNC, and
 * answers activity.c cannot give (tracking was off, a mark was lost) walk
 * every group, in chunks of WALK_CHUNK pids under rcu_read_lock(),
 * resuming by pid, with a resched point and a fatal-signal check between
 * chunks; a group with more threads than that is itself walked (and its
 * total summed) WALK_CHUNK threads a section. Passes are serialized by
 * the pass lock (seq.c), taken killable.
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/bsearch.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include "compat.h"
#include "acct.h"
#include "acct_exit.h"
#include "activity.h"
#include "activity_index.h"
#include "budget.h"
#include "cpus.h"
#include "exit_ring.h"
#include "exits.h"
#include "main.h"
#include "pass_ran.h"
#include "record.h"
#include "seq.h"
#include "steal.h"
#include "walk_window.h"
#include "snapshot.h"

#define WALK_CHUNK	256	/* groups per rcu_read_lock() section */
#define WALK_GROW	1	/* walk_group(): grow the answer, then again */

bool ptop_ts_crosscheck;

/*
 * The RCU read sections of a pass, timed: the longest of the last pass
 * and how long its walk took (the state file shows both, for the tests:
 * one section must stay a small part of a walk of many tasks).
 */
struct rcu_spans {
	u64 t0;
	u64 max;
};

static u64 walk_last_ns, walk_rcu_max_ns;	/* pass lock */

/*
 * Answers grown during their walk (walk_grow(): WALK_GROW), and growths
 * refused (the reader's budget, memory), since load: the state file, so
 * that a test can tell the path ran (test_kmod_answer_grow)
 */
static atomic_long_t walk_grows = ATOMIC_LONG_INIT(0);
static atomic_long_t walk_grows_refused = ATOMIC_LONG_INIT(0);

void ptop_ts_snap_grow_counts(long *grown, long *refused)
{
	*grown = atomic_long_read(&walk_grows);
	*refused = atomic_long_read(&walk_grows_refused);
}

static void span_begin(struct rcu_spans *sp)
	__acquires(RCU)
{
	rcu_read_lock();
	sp->t0 = ktime_get_ns();
}

static void span_end(struct rcu_spans *sp)
	__releases(RCU)
{
	u64 d = ktime_get_ns() - sp->t0;

	if (d > sp->max)
		sp->max = d;
	rcu_read_unlock();
}

void ptop_ts_snap_walk_times(u64 *walk_ns, u64 *rcu_max_ns)
{
	*walk_ns = READ_ONCE(walk_last_ns);
	*rcu_max_ns = READ_ONCE(walk_rcu_max_ns);
}

/*
 * The ring positions [from, to) whose GROUP records the last pass owed
 * its answer as live (add_late_groups()), and that answer's seq: a test
 * (test_kmod_late_groups) checks that each of them is in that answer
 * unless it says MORE. Pass lock; read by the state file.
 */
static u64 late_seq, late_from, late_to;

void ptop_ts_snap_late_span(u64 *seq, u64 *from, u64 *to)
{
	*seq = READ_ONCE(late_seq);
	*from = READ_ONCE(late_from);
	*to = READ_ONCE(late_to);
}

static void note_late_span(u64 seq, u64 from, u64 to)
{
	WRITE_ONCE(late_seq, seq);
	WRITE_ONCE(late_from, from);
	WRITE_ONCE(late_to, to);
}

int ptop_ts_cmd_check(struct ptop_ts_cmd *cmd)
{
	if (cmd->cmd != PTOP_TS_CMD_PIDS)
		return -EINVAL;
	if (cmd->flags & ~PTOP_TS_CMDF_ALL)
		return -EINVAL;
	if (cmd->start_pid > PID_MAX_LIMIT)
		return -EINVAL;
	if ((cmd->flags & PTOP_TS_CMDF_CROSSCHECK) && !ptop_ts_crosscheck)
		return -EOPNOTSUPP;
	if (!cmd->max_count || cmd->max_count > ptop_ts_max_records)
		cmd->max_count = ptop_ts_max_records;
	return 0;
}

/*
 * As __lock_task_sighand(), which is not exported. Under RCU. Returns with
 * sh->siglock held, or NULL; for sparse the lock is the caller's, taken
 * by the __cond_lock() of ptop_ts_lock_sighand(), as lock_task_sighand().
 */
static struct sighand_struct *__ptop_ts_lock_sighand(struct task_struct *t,
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

#define ptop_ts_lock_sighand(t, flags)					\
({	struct sighand_struct *__ss;					\
	__cond_lock(&(t)->sighand->siglock,				\
		    (__ss = __ptop_ts_lock_sighand(t, flags)));		\
	__ss;								\
})

struct walk {
	const struct ptop_ts_query *q;
	struct ptop_ts_snap *snap;
	u64 seq;
	u64 exit_head;		/* EXIT records written before this pass */
	u64 since_pass;		/* 0: report every task */
	u32 cap;		/* records the walk may use */
	u32 grow;		/* WALK_GROW: records the answer must hold */
	bool threads;
	bool full;
	bool no_room;		/* the answer could not grow (budget, memory) */
	u16 recf;		/* flags every record gets (HAS_STEAL) */
	struct rcu_spans spans;
	/* the group being walked: exiting threads given a live row */
	const struct task_struct *live[PTOP_GONE_KEPT];
	u32 nlive;
};

/* In threads mode, a thread's record: every one, or those marked */
static bool want_thread(const struct walk *w, struct task_struct *t)
{
	return !w->since_pass ||
	       ptop_ts_act_thread_changed(t, w->since_pass);
}

static struct ptop_ts_record *add(struct walk *w,
				  const struct ptop_ts_record *r)
{
	struct ptop_ts_record *dst = &w->snap->recs[w->snap->ans->count++];

	*dst = *r;
	dst->flags |= w->recf;
	return dst;
}

/*
 * Is this thread gone for the pass: its EXIT record written before the
 * pass began, or the thread past exit_notify()?
 */
static bool thread_gone(const struct walk *w, struct task_struct *t)
{
	return ptop_ts_thread_gone(t, w->exit_head);
}

/*
 * The same for the group; siglock held. By the record's position: a
 * group whose threads all passed exit_notify() during the pass is still
 * live in it, read by the walk while its threads are linked
 * (add_late_groups() has it once they are not); deciding by exit_state
 * made it live for the part of the walk before and gone after. The
 * position is the one its accounting record keeps (O(1), any distance
 * from the head); until 2026-12-02 it was looked for among the ring's
 * 1,024 newest records only, each look-up a scan under ring_lock here
 * (test_kmod_exit_pos). A group without a record (none could be made)
 * is still looked for in the ring.
 */
static bool group_gone_locked(const struct walk *w, struct task_struct *leader)
{
	struct signal_struct *sig = leader->signal;
	struct task_struct *t;
	bool linked = false;	/* a thread not past exit_notify() */
	u64 pos = 0;
	int known;

	if (atomic_read(&sig->live))
		return false;
	__for_each_thread(sig, t)
		if (!READ_ONCE(t->exit_state)) {
			linked = true;
			break;
		}
	known = ptop_ts_acct_exit_pos(leader, &pos);
	if (known >= 0) {
		/*
		 * a thread not past exit_notify() yet: gone only by a
		 * record before the pass; every thread past it: by a
		 * record before the pass, or none
		 */
		if (linked)
			return known && pos < w->exit_head;
		return !known || pos < w->exit_head;
	}
	if (linked)
		return ptop_ts_exits_recorded(task_tgid(leader), true,
					      leader->start_boottime,
					      NULL, w->exit_head);
	/* every thread is past its probe: the record is before or after */
	return !ptop_ts_exits_recorded_since(task_tgid(leader), true,
					     leader->start_boottime, NULL,
					     w->exit_head);
}

/*
 * The leader now of the group whose leader was picked (under RCU): after a
 * non-leader exec the tgid belongs to the exec'er. NULL: the group is gone.
 */
static struct task_struct *current_leader(const struct walk *w,
					  struct task_struct *picked, u32 tgid)
{
	struct pid *pid = find_pid_ns(tgid, w->q->pid_ns);
	struct task_struct *t = pid ? pid_task(pid, PIDTYPE_TGID) : NULL;

	return t && t != picked && t->signal == picked->signal ? t : NULL;
}

#ifdef PTOP_TS_TEST_LEADER_WINDOW
#include <linux/delay.h>
#include <linux/kprobes.h>
/*
 * Test builds only (KCFLAGS=-DPTOP_TS_TEST_LEADER_WINDOW, make
 * vm-leader-window): the walk waits 20 ms under RCU right after it took
 * the leader's record of a "tsload" group of two threads or more (tsload
 * execexit's children before the exec), so that the non-leader exec it
 * races with (de_thread()) happens between the leader's read and the
 * other threads' in most passes, as a host that stops the walking vCPU
 * there makes it now and then.
 */
static bool test_tsload(struct task_struct *t)
{
	char comm[TASK_COMM_LEN];

	get_task_comm(comm, t);
	return !strcmp(comm, "tsload");
}

static void test_leader_window(struct task_struct *t)
{
	if (test_tsload(t) && get_nr_threads(t) > 1)
		mdelay(20);
}

/*
 * And inside de_thread(): 20 ms with tasklist_lock held right after
 * exchange_tids() gave a "tsload" exec'er the leader's pid, before it
 * becomes the leader (a kretprobe), as a host that stops the exec'ing
 * vCPU there makes it now and then: the walk, which takes no
 * tasklist_lock, reads the exec'er with the leader's identity while it
 * is not the leader yet (leader_row()).
 */
static int test_exchange_ret(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	if (test_tsload(current))
		mdelay(20);
	return 0;
}

static struct kretprobe test_exchange_probe = {
	.kp.symbol_name = "exchange_tids",
	.handler = test_exchange_ret,
};
/* a kretprobe whose registration failed must not be unregistered */
static bool test_exchange_on;

void ptop_ts_snap_test_init(void)
{
	int ret = register_kretprobe(&test_exchange_probe);

	test_exchange_on = !ret;
	if (ret)
		pr_warn("test build: no kretprobe on exchange_tids: %d\n", ret);
	else
		pr_info("test build: 20 ms after a tsload exec'er's exchange_tids()\n");
}

void ptop_ts_snap_test_exit(void)
{
	if (test_exchange_on)
		unregister_kretprobe(&test_exchange_probe);
}

/*
 * And between a dying "tsload" leader's identity read and the decision
 * whether it is the leader's row: 50 ms in which the exec'er it dies for
 * finishes de_thread() (the old leader read with the leader's pid, then
 * found not to be the leader any more), its 20 ms above included.
 */
static void test_ident_window(struct task_struct *t)
{
	if (test_tsload(t) && thread_group_leader(t) &&
	    (READ_ONCE(t->flags) & PF_EXITING))
		mdelay(50);
}
#else
static inline void test_leader_window(struct task_struct *t) { }
static inline void test_ident_window(struct task_struct *t) { }
#endif

#ifdef PTOP_TS_TEST_EXIT_WINDOW
#include <linux/delay.h>
/*
 * Test builds only (make vm-report-window): after the live row of an
 * exiting thread named ptop-thrwin (held in its exit probe by exits.c's
 * thread window), wait past that window, so that the thread finishes its
 * exit and is released before its group's sum (tests/vm/thread_window.sh).
 */
static void test_thread_window(struct task_struct *t)
{
	char comm[TASK_COMM_LEN];
	uint ms = min(READ_ONCE(ptop_ts_test_thread_ms), 2000U);

	get_task_comm(comm, t);
	if (ms && !strcmp(comm, "ptop-thrwin"))
		mdelay(ms + 100);
}
#else
static inline void test_thread_window(struct task_struct *t) { }
#endif

/*
 * Is r, just read from t, the group leader's row (pid = tgid, the
 * leader's start)? The leader's, and a non-leader exec'er's from the
 * moment de_thread() gives it the leader's start: then the leader's pid
 * (exchange_tids()), then the leadership, all under tasklist_lock, which
 * the walk does not take; the old leader, dead (exit_state), gets the
 * exec'er's old pid and loses the leadership. So decided on what r has,
 * read before: a record with the leader's pid is the leader's row,
 * whatever t is now. Until 2026-12-06 the walk asked t, later than it
 * read r: an exec'er read inside de_thread() was added as a thread of its
 * own next to the old leader's record, and an old leader read with the
 * leader's pid just before the exchange, then found not to be the leader,
 * next to the exec'er's: two live THREAD records of one (pid, start)
 * (test_kmod_late_exec, CI on a quiet host; test builds:
 * test_exchange_ret(), test_ident_window()).
 */
static bool leader_row(struct task_struct *t, const struct ptop_ts_record *r)
{
	const struct task_struct *leader = READ_ONCE(t->group_leader);

	/*
	 * else the leader's start: the leader (an exec'er that became it
	 * after r was read has its old start in r: its own row), or an
	 * exec'er on its way to it, alive
	 */
	return r->pid == r->tgid ||
	       (r->start_ns == leader->start_boottime &&
		(leader == t || !READ_ONCE(t->exit_state)));
}

/* In threads mode, thread t's record, unless it is not wanted. */
static void walk_thread(struct walk *w, struct task_struct *leader,
			struct task_struct *t, struct ptop_ts_record **lrec,
			bool *truncated)
{
	struct ptop_ts_record r;

	if (thread_gone(w, t) || !want_thread(w, t))
		return;
	/* one slot stays free for the group record */
	if (w->snap->ans->count + 1 >= w->cap) {
		*truncated = true;
		return;
	}
	memset(&r, 0, sizeof(r));
	ptop_ts_fill_ident(&r, t, w->q->pid_ns, w->q->user_ns);
	/* released since thread_gone(): its EXIT record is next */
	if (!r.pid || !r.tgid)
		return;
	ptop_ts_fill_thread(&r, t, true);
	/* its group reported dead before the instant: as the report has it */
	if (READ_ONCE(t->flags) & PF_EXITING)
		ptop_ts_acct_thread_at_report(t, &r);
	test_ident_window(t);	/* test builds only */
	if (!leader_row(t, &r)) {
		add(w, &r);
		/*
		 * the group's sum and x* count it live, as its row (beyond
		 * PTOP_GONE_KEPT of them they decide again)
		 */
		if ((READ_ONCE(t->flags) & PF_EXITING) &&
		    w->nlive < PTOP_GONE_KEPT) {
			w->live[w->nlive++] = t;
			test_thread_window(t);	/* test builds only */
		}
		return;
	}
	/*
	 * The leader now (an exec'er may have become it). A leader's
	 * record already taken in this walk of the group: a non-leader
	 * exec happened between the two reads (the old leader read live,
	 * then killed by de_thread(), which gives the exec'er its pid and
	 * start: exchange_tids()). Both have the leader's (pid, start):
	 * one row per identity, the newest, in the older one's place (the
	 * old leader's time is in the group's x*, as fit_late_threads()
	 * keeps it). Until 2026-12-03 both were added: two live THREAD
	 * records of one (pid, start) in a full thread answer when the
	 * walking vCPU stalled there (test_kmod_late_exec, CI on a busy
	 * host; the window of test builds: test_leader_window()).
	 */
	r.pid = r.tgid;		/* an exec'er taking it over: its pid next */
	if (*lrec) {
		r.flags |= w->recf;
		**lrec = r;
	} else {
		*lrec = add(w, &r);
	}
	test_leader_window(t);	/* test builds only */
}

static int pid_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * The thread walk cannot resume (the thread it was to resume after was
 * released meanwhile): the threads already in the answer, from record
 * first on, by pid, sorted, to skip them. Process context, out of RCU.
 */
static u32 *walked_pids(const struct walk *w, u32 first, u32 *n)
{
	u32 i, *pids;

	*n = w->snap->ans->count - first;
	pids = kvmalloc_array(max(*n, 1U), sizeof(*pids), GFP_KERNEL);
	if (!pids)
		return NULL;
	for (i = 0; i < *n; i++)
		pids[i] = w->snap->recs[first + i].pid;
	sort(pids, *n, sizeof(*pids), pid_cmp, NULL);
	return pids;
}

/*
 * The thread after t, the n-th of the group's list head: after every
 * WALK_CHUNK threads out of RCU for a moment (cond_resched()) with t
 * pinned, *ret -EINTR on a fatal signal. *alive false: t was unlinked
 * meanwhile, its successor unknown (NULL returned); else true.
 */
static struct task_struct *next_thread_chunked(struct walk *w,
					       struct list_head *head,
					       struct task_struct *t, u32 n,
					       bool *alive, int *ret)
	__must_hold(RCU)
{
	struct task_struct *next;

	*alive = true;
	*ret = 0;
	if (n % WALK_CHUNK)
		return list_next_or_null_rcu(head, &t->thread_node,
					     struct task_struct, thread_node);
	get_task_struct(t);
	span_end(&w->spans);
	if (fatal_signal_pending(current))
		*ret = -EINTR;
	test_chunk_window(t);	/* test builds only */
	cond_resched();
	span_begin(&w->spans);
	*alive = pid_alive(t);
	/* not the last reference while still linked */
	next = *alive ? list_next_or_null_rcu(head, &t->thread_node,
					      struct task_struct,
					      thread_node) : NULL;
	put_task_struct(t);
	return next;
}

/*
 * The threads of leader's group, WALK_CHUNK at a time: a group can have
 * tens of thousands, and between chunks the RCU read section ends, with
 * a resched point. The walk resumes after the last thread visited when
 * that is still linked (pid_alive() under RCU, as proc's next_tid()):
 * new threads go to the tail of the list, so none is missed. When it was
 * released meanwhile, the rest of the group is walked at once under its
 * siglock (the list cannot change then), skipping those already in the
 * answer (by pid): none is doubled. Starting over in chunks instead
 * could start over for as long as the group's threads came and went
 * (tests/vm/test_kmod_thread_restart.sh). Under RCU (left and taken
 * again between chunks), a reference on leader held.
 */
static int walk_threads(struct walk *w, struct task_struct *leader,
			struct ptop_ts_record **lrec, bool *truncated)
	__must_hold(RCU)
{
	struct list_head *head = &leader->signal->thread_head;
	u32 first = w->snap->ans->count, n = 0, nseen, nr, *seen;
	struct sighand_struct *sh;
	struct task_struct *t;
	unsigned long flags;
	bool alive = true;
	int ret = 0;

	t = list_first_or_null_rcu(head, struct task_struct, thread_node);
	while (t) {
		walk_thread(w, leader, t, lrec, truncated);
		t = next_thread_chunked(w, head, t, ++n, &alive, &ret);
		if (ret)
			return ret;
	}
	if (alive)
		return 0;
	span_end(&w->spans);
	seen = walked_pids(w, first, &nseen);
	span_begin(&w->spans);
	if (!seen)
		return -ENOMEM;
	sh = ptop_ts_lock_sighand(leader, &flags);
	if (sh) {
		for_each_thread(leader, t) {
			nr = task_pid_nr_ns(t, w->q->pid_ns);
			if (!bsearch(&nr, seen, nseen, sizeof(*seen), pid_cmp))
				walk_thread(w, leader, t, lrec, truncated);
		}
		spin_unlock_irqrestore(&sh->siglock, flags);
	}
	kvfree(seen);
	return 0;
}

/*
 * The counters of a group of more than WALK_CHUNK threads, read without
 * its siglock and WALK_CHUNK threads at a time, out of RCU between
 * chunks, as the kernel's thread_group_cputime() reads them: valid when
 * no thread of the group was released meanwhile, which the caller tells
 * under siglock from sig->stats_lock's count (__exit_signal() moves a
 * thread's counters to the signal's sums and unlinks it inside that
 * seqlock, under siglock). *n: the threads read. -EAGAIN: a thread was
 * released during the sum; the caller sums under siglock instead. Under
 * RCU, leader pinned.
 */
static int group_sum_chunked(struct walk *w, struct task_struct *leader,
			     struct ptop_ts_record *r, struct ptop_gone *gone,
			     u32 *n)
	__must_hold(RCU)
{
	struct signal_struct *sig = leader->signal;
	struct list_head *head = &sig->thread_head;
	struct task_struct *t;
	bool alive;
	int ret;

	*n = 0;
	ptop_ts_group_begin(r, gone, sig);
	t = list_first_or_null_rcu(head, struct task_struct, thread_node);
	while (t) {
		ptop_ts_group_add(r, gone, t, w->exit_head, NULL, NULL, true);
		t = next_thread_chunked(w, head, t, ++*n, &alive, &ret);
		if (ret)
			return ret;
		if (!alive)
			return -EAGAIN;
	}
	ptop_ts_group_end(r, sig, gone);
	return 0;
}

/*
 * In a thread answer, the group record g says a non-leader exec took over
 * (EXEC) but the walk did not report the leader's thread: the exec'er's
 * record (as the leader it is now, the pid and start it had before the
 * exec in exec_old_*, RECF_EXEC), unless it is in the answer
 * already, under either identity (records from first on). The exec'er's marks before
 * de_thread() are under its old pid and start; after it, under the old
 * leader's, which de_thread() gives it: an exchange after the pass's
 * drain and before the walk left its thread in neither identity (a
 * cross-check miss: "thread 10768/10765 ch-exec: not reported"), its run
 * since the reader's last answer moved to the next one, or, when it died
 * meanwhile, its old identity never left. Under RCU.
 */
static void add_execer(struct walk *w, struct task_struct *leader, u32 first,
		       const struct ptop_ts_record *g, bool *truncated)
{
	struct ptop_ts_answer *ans = w->snap->ans;
	struct ptop_ts_record r;
	u32 i;

	if (thread_gone(w, leader))
		return;
	memset(&r, 0, sizeof(r));
	ptop_ts_fill_ident(&r, leader, w->q->pid_ns, w->q->user_ns);
	if (!r.pid || !r.tgid)
		return;
	/* in the answer already, as the leader or as itself before */
	for (i = first; i < ans->count; i++) {
		const struct ptop_ts_record *t = &w->snap->recs[i];

		if (t->kind == PTOP_TS_KIND_THREAD &&
		    ((t->pid == r.pid && t->start_ns == r.start_ns) ||
		     (t->pid == g->exec_old_pid &&
		      t->start_ns == g->exec_old_start_ns)))
			return;
	}
	/* one slot stays free for the group record; none: the answer is short */
	if (ans->count + 1 >= w->cap) {
		*truncated = true;
		return;
	}
	ptop_ts_fill_thread(&r, leader, true);
	r.flags |= PTOP_TS_RECF_EXEC;
	r.exec_old_pid = g->exec_old_pid;
	r.exec_old_start_ns = g->exec_old_start_ns;
	add(w, &r);
}

/*
 * The record of leader's group, after its threads' (lrec: the leader's;
 * first: the group's first record in the answer)
 */
static int group_record(struct walk *w, struct task_struct *leader, u32 tgid,
			struct ptop_ts_record *lrec, u32 first,
			bool *truncated)
	__must_hold(RCU)
{
	struct signal_struct *sig = leader->signal;
	struct ptop_ts_answer *ans = w->snap->ans;
	struct sighand_struct *sh;
	struct ptop_ts_record r;
	struct ptop_gone gone;
	unsigned long flags;
	unsigned int seq = 0;
	u32 summed = 0;
	int ret = -EAGAIN;

	gone.live = w->live;
	gone.nlive = w->nlive;
	if (get_nr_threads(leader) > WALK_CHUNK) {
		seq = read_seqbegin(&sig->stats_lock);
		memset(&r, 0, sizeof(r));
		ret = group_sum_chunked(w, leader, &r, &gone, &summed);
		if (ret == -EINTR)
			return ret;
	}
	sh = ptop_ts_lock_sighand(leader, &flags);
	if (!sh) {
		/*
		 * Released: a group gone for good, or a non-leader exec
		 * (de_thread()) made another thread the leader since this
		 * leader was picked (walk_marked(): before the walk); the
		 * group is then read from its leader now.
		 */
		leader = current_leader(w, leader, tgid);
		sh = leader ? ptop_ts_lock_sighand(leader, &flags) : NULL;
		if (!sh)
			return 0;
		ret = -EAGAIN;	/* summed under this leader's siglock */
	}
	if (group_gone_locked(w, leader)) {
		spin_unlock_irqrestore(&sh->siglock, flags);
		return 0;
	}
	if (ret || read_seqretry(&sig->stats_lock, seq)) {
		/* a small group, or a thread of a big one released meanwhile */
		memset(&r, 0, sizeof(r));
		ptop_ts_fill_group_locked(&r, leader, w->exit_head, NULL,
					  NULL, true, &gone);
	} else if (summed != (u32)sig->nr_threads) {
		/*
		 * threads added after the chunked sum passed the list's
		 * tail (nr_threads and the list change under siglock): the
		 * sum did not read them, x* decides them itself
		 */
		gone.whole = false;
	}
	/* the dead threads the sum counted, not decided again (acct_exit.c) */
	ptop_ts_acct_own_x_locked(leader, w->exit_head, &gone, &r);
	spin_unlock_irqrestore(&sh->siglock, flags);

	ptop_ts_fill_ident(&r, leader, w->q->pid_ns, w->q->user_ns);
	if (!r.pid || !r.tgid) {
		/* released since its siglock: as above */
		leader = current_leader(w, leader, tgid);
		if (!leader)
			return 0;	/* its EXIT record is after the head */
		ptop_ts_fill_ident(&r, leader, w->q->pid_ns, w->q->user_ns);
		if (!r.pid || !r.tgid)
			return 0;
	}
	/*
	 * A non-leader exec since the leader was picked: de_thread()'s
	 * exchange_tids() gave the leader's pid to the exec'er, and the
	 * old leader has the exec'er's old tid until it is released. The
	 * record is the group's: under its tgid (the exec'er takes over the
	 * leader's start_ns too), not another process's.
	 */
	r.pid = r.tgid;
	ptop_ts_fill_mem(&r, leader);
	ptop_ts_acct_read(leader, &r, w->q->pid_ns);
	if (lrec && (r.flags & PTOP_TS_RECF_EXEC)) {
		/* the exec'er, now the leader: its identity before the exec */
		lrec->flags |= PTOP_TS_RECF_EXEC;
		lrec->exec_old_pid = r.exec_old_pid;
		lrec->exec_old_start_ns = r.exec_old_start_ns;
	} else if (w->threads && (r.flags & PTOP_TS_RECF_EXEC)) {
		add_execer(w, leader, first, &r, truncated);
	}
	if (ans->count < w->cap)
		add(w, &r);
	else
		*truncated = true;
	return 0;
}

/*
 * The answer stops before group tgid: MORE, next_pid tgid. Short of
 * max_count only when it could not grow (ANSF_ROOM).
 */
static void stop_at(struct walk *w, u32 tgid)
{
	struct ptop_ts_answer *ans = w->snap->ans;

	w->full = true;
	ans->flags |= PTOP_TS_ANSF_MORE;
	if (w->cap < w->q->cmd.max_count)
		ans->flags |= PTOP_TS_ANSF_ROOM;
	ans->next_pid = tgid;
}

static int walk_group(struct walk *w, struct task_struct *leader, u32 tgid)
	__must_hold(RCU)
{
	struct ptop_ts_answer *ans = w->snap->ans;
	struct ptop_ts_record *lrec = NULL;
	struct task_struct *t;
	bool truncated = false;
	u32 first = ans->count, need = 1;
	int ret = 0;

	if (w->full || tgid < w->q->cmd.start_pid)
		return 0;
	if (w->threads && !w->since_pass)
		need += get_nr_threads(leader);
	else if (w->threads)
		for_each_thread(leader, t)
			need += want_thread(w, t);
	if (ans->count + need > w->cap) {
		/* outgrown during the pass (forks since it was sized) */
		if (w->cap < w->q->cmd.max_count && !w->no_room) {
			w->grow = ans->count + need;
			return WALK_GROW;
		}
		if (ans->count || !w->cap) {
			stop_at(w, tgid);
			return 0;
		}
		/* alone more than the answer may hold: truncated, below */
	}

	/* the walk of a big group leaves RCU between chunks: keep leader */
	get_task_struct(leader);
	w->nlive = 0;
	if (w->threads)
		ret = walk_threads(w, leader, &lrec, &truncated);
	if (!ret)
		ret = group_record(w, leader, tgid, lrec, first, &truncated);
	if (truncated && !w->full && !ret) {
		/*
		 * The group gained threads during its walk, past the room
		 * left: it is read again, whole, in a larger answer, or on
		 * the next page. Only a group with more threads than the
		 * whole answer may hold is cut: it cannot be paged by
		 * tgid, so say where to go on.
		 */
		if (w->cap < w->q->cmd.max_count && !w->no_room) {
			ans->count = first;
			w->grow = first + get_nr_threads(leader) + 1;
			ret = WALK_GROW;
		} else if (first) {
			ans->count = first;
			stop_at(w, tgid);
		} else {
			stop_at(w, tgid + 1);
			pr_warn_once("a thread group has more threads than max_records: answers for it are truncated\n");
		}
	}
	put_task_struct(leader);
	return ret;
}

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
		 * moves from x* to own, where their rows are (until
		 * 2026-12-06 the reporter's row alone gave the excess up,
		 * down to 0, and the rest was counted twice, on the rows
		 * and in x*: ch-threads' x* equal to its own in the "+"
		 * interval of test_exact_vs_top's pairs, tests/vm/pass_pairs.sh)
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
 * Make room for cap records in the answer (at most; fewer: as it was),
 * which holds w->snap->ans->count of them: a larger buffer, the
 * answer so far copied into it. Under the pass lock, out of RCU.
 */
static void grow_answer(struct walk *w, u32 cap)
{
	struct ptop_ts_snap *snap = w->snap;
	size_t hdr = (void *)snap->recs - snap->buf, size;
	void *buf;
	int ret;

	if (cap <= snap->cap)
		return;
	size = hdr + (size_t)cap * sizeof(struct ptop_ts_record);
	buf = ptop_ts_answer_alloc(snap->uid, size, &ret);
	if (!buf)
		return;
	memcpy(buf, snap->buf,
	       hdr + (size_t)snap->ans->count * sizeof(struct ptop_ts_record));
	ptop_ts_answer_free(snap->uid, snap->buf, snap->alloc);
	snap->buf = buf;
	snap->alloc = size;
	snap->ans = buf;
	snap->cpus = buf + sizeof(struct ptop_ts_answer);
	snap->recs = buf + hdr;
	snap->cap = cap;
	w->cap = cap;
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
static void walk_grow(struct walk *w)
{
	u32 max = w->q->cmd.max_count;
	u32 want = min(w->grow, max), old = w->cap;

	w->grow = 0;
	grow_answer(w, min_t(u64, max_t(u64, (u64)want + want / 8 + 64,
					(u64)w->cap + w->cap / 2), max));
	if (w->cap < want)
		grow_answer(w, want);
	/*
	 * Not grown at all is no room either: a group cut for threads
	 * that have gone since asks for no more than the answer has
	 * (want <= cap), and the walk would take the same group again
	 * and again while the allocation fails.
	 */
	if (w->cap < want || w->cap == old) {
		w->no_room = true;
		atomic_long_inc(&walk_grows_refused);
	} else {
		atomic_long_inc(&walk_grows);
	}
}

/*
 * Late groups were left out for want of room: the answer says MORE. Its
 * walk was whole, so no page holds them; next_pid is past every tgid (a
 * pid is below pid_max, at most PID_MAX_LIMIT): the next page has no
 * walk, and the reader knows this answer is short.
 */
static void late_short(struct walk *w)
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
 * released (reaped, or self-reaped): such a group would be in neither,
 * its time since the reader's last answer moved to the next interval
 * (when a vCPU stalls between the pass's start and the walk: whole
 * children's lives). So the walk of recs[from, count) is followed by
 * those groups' records from the ring, as live records of this pass:
 * c* without the folds since the pass began, times without the exiting
 * thread's run after its CPU's instant (both are then in the EXIT
 * record). Thread answers get the THREAD records of such a group's
 * threads too (fit_late_threads()): until 2026-12-01 they had none of
 * this, and test_exact_vs_top's intervals (ptop reads thread answers)
 * moved whole children's lives in pairs (a ch-exec of 249 ms, -238.8 ms
 * then +246.9 ms). Not for paged answers. The answer grows to hold every
 * record written since the pass began (GROUP, THREAD, of any namespace:
 * a bound); until 2026-12-02 they were copied into the room left by the
 * walk (n/8 + 64), where in an exit storm the THREAD records crowded out
 * the GROUP records after them, left out without a word
 * (test_kmod_late_groups). Where the answer cannot grow (max_count, the
 * reader's budget) and some are left, it says MORE (late_short()).
 */
static void add_late_groups(struct walk *w, u32 from)
{
	struct ptop_ts_snap *snap = w->snap;
	struct ptop_ts_record *recs;
	u32 to = snap->ans->count, n = to, i;
	u64 late_head, stopped = 0;
	int got = 0;

	if (w->full || w->q->cmd.start_pid > 1) {
		note_late_span(w->seq, w->exit_head, w->exit_head);
		return;
	}
	late_head = ptop_ts_exits_head();
	note_late_span(w->seq, w->exit_head, late_head);
	if (late_head == w->exit_head)
		return;
	/* room for every record written since the pass began */
	if ((u64)to + (late_head - w->exit_head) > w->cap)
		grow_answer(w, min_t(u64, (u64)to + (late_head - w->exit_head),
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

/* Every group of the reader's namespace, in tgid order, in chunks. */
static int walk_all(struct walk *w)
{
	struct pid_namespace *ns = w->q->pid_ns;
	struct task_struct *leader;
	struct pid *pid = NULL;
	u32 nr = 1, i;
	int ret = 0;

	do {
		span_begin(&w->spans);
		for (i = 0; i < WALK_CHUNK && !w->full; i++, nr++) {
			pid = ptop_find_ge_pid(nr, ns);
			if (!pid)
				break;
			nr = pid_nr_ns(pid, ns);
			leader = pid_task(pid, PIDTYPE_TGID);
			if (leader)
				ret = walk_group(w, leader, nr);
			if (ret)
				break;
		}
		span_end(&w->spans);
		if (ret == WALK_GROW) {
			/* and from the same pid on: the group is not in it */
			walk_grow(w);
			ret = 0;
		}
		if (ret)
			return ret;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	} while (pid && !w->full);
	return 0;
}

/* The groups activity.c marked since the reader's answer (tgid order). */
static int walk_marked(struct walk *w, const struct ptop_ts_act_sel *sel)
{
	u32 i;
	int ret;

	for (i = 0; i < sel->n && !w->full; i++) {
		span_begin(&w->spans);
		ret = walk_group(w, sel->pick[i].leader, sel->pick[i].nr);
		span_end(&w->spans);
		if (ret == WALK_GROW) {
			walk_grow(w);
			/* killable and preemptible as walk_all() */
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
			i--;	/* the same group again */
			continue;
		}
		if (ret)
			return ret;
		if (i % WALK_CHUNK == WALK_CHUNK - 1) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return 0;
}

void ptop_ts_snap_free(struct ptop_ts_snap *snap)
{
	ptop_ts_answer_free(snap->uid, snap->buf, snap->alloc);
	memset(snap, 0, sizeof(*snap));
}

/*
 * Tasks of the namespace now: records a full walk needs, with a margin
 * for forks. By pid in chunks, as walk_all().
 */
static u32 count_all(struct pid_namespace *ns, bool threads,
		     struct rcu_spans *sp)
{
	u32 groups = 0, tasks = 0, nr = 1, i, n;
	struct pid *pid;

	do {
		span_begin(sp);
		for (i = 0; i < WALK_CHUNK; i++, nr++) {
			pid = ptop_find_ge_pid(nr, ns);
			if (!pid)
				break;
			nr = pid_nr_ns(pid, ns);
			groups += !!pid_task(pid, PIDTYPE_TGID);
			tasks += !!pid_task(pid, PIDTYPE_PID);
		}
		span_end(sp);
		cond_resched();
	} while (pid);
	n = (threads ? tasks : 0) + groups;
	return n + n / 8 + 64;
}

static int alloc_answer(const struct ptop_ts_query *q,
			struct ptop_ts_snap *snap, u32 ncpu, u32 cap)
{
	size_t hdr, size;
	int ret;

	hdr = sizeof(struct ptop_ts_answer) + ncpu * sizeof(struct ptop_ts_cpu);
	size = hdr + (size_t)cap * sizeof(struct ptop_ts_record);
	snap->buf = ptop_ts_answer_alloc(q->uid, size, &ret);
	if (!snap->buf)
		return ret;
	snap->alloc = size;
	snap->uid = q->uid;
	snap->ans = snap->buf;
	snap->cpus = snap->buf + sizeof(struct ptop_ts_answer);
	snap->recs = snap->buf + hdr;
	snap->cap = cap;
	return 0;
}

#ifdef PTOP_TS_TEST_PASS_WINDOW
#include <linux/delay.h>
#include <linux/moduleparam.h>
/*
 * Test builds only (make vm-pass-pairs): every pass sleeps
 * test_pass_delay_ms (at most 200) right after its instant, before the
 * selection and the walk, so that exits, releases and frees happen
 * between the instant and the walk in every pass, as a host that stops
 * the reader's vCPU there makes them now and then
 * (tests/vm/pass_pairs.sh).
 */
static uint test_pass_delay_ms;
module_param(test_pass_delay_ms, uint, 0644);

static void test_pass_window(void)
{
	uint ms = min(READ_ONCE(test_pass_delay_ms), 200U);

	if (ms)
		msleep(ms);
}
#else
static inline void test_pass_window(void) { }
#endif

int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap)
{
	u64 since = q->cmd.since_seq, since_pass = 0, from_head = 0;
	u64 head, pass, t0, b0, w0 = ktime_get_ns();
	u32 nexits = 0, want_recs, cap;
	u32 ncpu = nr_cpu_ids;
	struct ptop_ts_act_sel sel = { 0 };
	struct walk w = {
		.q = q,
		.snap = snap,
		.threads = q->cmd.flags & PTOP_TS_CMDF_THREADS,
	};
	bool xcheck = q->cmd.flags & PTOP_TS_CMDF_CROSSCHECK;
	bool resync = false, marked, idle_irq = false;
	struct ptop_ts_cpu *cpus;
	u32 walk_from;
	int ret, n;

	ptop_ts_snap_free(snap);
	/* zeroed: the slots of CPUs not possible are copied out unwritten */
	cpus = kvcalloc(ncpu, sizeof(*cpus), GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;
	ret = ptop_ts_pass_lock_killable();
	if (ret)
		goto err_cpus;

	/* the marks first, then the generation of c* (activity.c) */
	pass = ptop_ts_act_pass();
	head = ptop_ts_acct_pass_begin();
	/*
	 * The instant right after: the exit tails folded, the c*
	 * generation and the EXIT ring head are as of the pass's start,
	 * and what ran from there to the instant (tails of exit paths, a
	 * group's last run) would be in the next answer. The selection and
	 * the answer's allocation come after it (the walk's marks are
	 * drained again after the instant: below).
	 */
	t0 = ktime_get_ns();
	b0 = ktime_get_boottime_ns();
	ptop_ts_cpus_read(cpus, ncpu, false);
	if (ptop_ts_runtimes_at_t0())
		idle_irq = ptop_ts_pass_instant(cpus, ncpu, &t0, &b0);
	test_pass_window();	/* test builds only */
	if (since) {
		if (!ptop_ts_seq_lookup(since, head, &since_pass, &from_head) ||
		    head - from_head > ptop_ts_exit_ring_size ||
		    head - from_head >= q->cmd.max_count)
			resync = true;
		else
			nexits = head - from_head;
	}
again:
	if (resync) {
		since = 0;
		since_pass = 0;
		nexits = 0;
	}
	/* otherwise a full walk: every live task is a correct "since N" */
	marked = since && ptop_ts_act_complete(since_pass);
	if (marked && !xcheck) {
		ret = ptop_ts_act_select(since_pass, q->pid_ns,
					 q->cmd.start_pid, &sel);
		if (ret)
			goto err_unlock;
		want_recs = sel.n + (w.threads ? sel.threads : 0);
		want_recs += want_recs / 8 + 64;
	} else {
		want_recs = count_all(q->pid_ns, w.threads, &w.spans);
		if (marked)
			want_recs *= 2;		/* cross-check: both walks */
	}
	cap = min_t(u64, (u64)want_recs + nexits, q->cmd.max_count);
	ret = alloc_answer(q, snap, ncpu, cap);
	if (ret)
		goto err_sel;

	w.seq = ptop_ts_seq_of(pass, head);
	w.cap = cap;
	w.exit_head = head;

	snap->ans->version = PTOP_TS_ANSWER_VERSION;
	snap->ans->size = sizeof(struct ptop_ts_answer);
	snap->ans->seq_now = w.seq;
	snap->ans->ncpu = ncpu;
	snap->ans->rec_size = sizeof(struct ptop_ts_record);
	snap->ans->flags |= PTOP_TS_ANSF_CHILDREN;
	if (q->cmd.flags & PTOP_TS_CMDF_STEAL) {
		/* the reader is a listener (proc.c, netlink.c) by now */
		if (!ptop_ts_steal_clock())
			snap->ans->flags |= PTOP_TS_ANSF_NO_STEAL_CLOCK;
		else if (ptop_ts_steal_attached())
			snap->ans->flags |= PTOP_TS_ANSF_STEAL;
	}
	if (snap->ans->flags & PTOP_TS_ANSF_STEAL)
		w.recf = PTOP_TS_RECF_HAS_STEAL;
	if (IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING))
		snap->ans->flags |= PTOP_TS_ANSF_STEAL_APART;
	if (IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING))
		snap->ans->flags |= PTOP_TS_ANSF_IRQ_APART;
	if (idle_irq)
		snap->ans->flags |= PTOP_TS_ANSF_IDLE_IRQ;
	if (ptop_ts_exit_before_mm())
		snap->ans->flags |= PTOP_TS_ANSF_EXIT_BEFORE_MM;

	/*
	 * Exits recorded after answer since_seq began and before this pass
	 * begins; a task exiting during the walk is in the next answer.
	 */
	if (nexits) {
		n = ptop_ts_exits_copy(from_head, head, w.threads, q->pid_ns,
				       q->user_ns, snap->recs, nexits);
		if (n < 0) {
			/* overwritten meanwhile: a full answer, RESYNC */
			ptop_ts_act_sel_free(&sel);
			ptop_ts_snap_free(snap);
			resync = true;
			goto again;
		}
		snap->ans->count = n;
		while (n--)
			snap->recs[n].flags |= w.recf;
	}

	if (resync)
		snap->ans->flags |= PTOP_TS_ANSF_RESYNC;
	memcpy(snap->cpus, cpus, ncpu * sizeof(*cpus));
	if (marked && !xcheck) {
		/*
		 * A task that came on a CPU after the drain (the pass's start)
		 * and ran until the instant changed before it, yet its mark
		 * is for the next drain: the marks again, after the instant
		 * (numbered for the next pass, which must see them too), and
		 * the groups to walk again. Without it that run moved to the
		 * next interval: a new child forked in the window was missing
		 * until then, all of its first run with it, and the window is
		 * as long as the host stops the vCPU (132 ms seen, 54 ms
		 * moved). More groups than the answer was sized for: it is
		 * paged (ANSF_MORE).
		 */
		ptop_ts_act_drain_late(pass);
		marked = ptop_ts_act_complete(since_pass);
		ptop_ts_act_sel_free(&sel);
		if (marked)
			ret = ptop_ts_act_select(since_pass, q->pid_ns,
						 q->cmd.start_pid, &sel);
		if (ret)
			goto err_free;
	}
	if (marked && xcheck) {
		/*
		 * Every task as the full walk sees it, then the incremental
		 * answer: marks made meanwhile are in it (a task not in it has
		 * not changed since the reader's last answer read it).
		 */
		w.recf |= PTOP_TS_RECF_CROSSCHECK;
		walk_from = snap->ans->count;
		ret = walk_all(&w);
		if (!ret)
			add_late_groups(&w, walk_from);
		w.recf &= ~PTOP_TS_RECF_CROSSCHECK;
		if (ret)
			goto err_free;
		ptop_ts_act_drain_late(pass);
		/* a mark lost meanwhile: the answer walks every task */
		marked = ptop_ts_act_complete(since_pass);
		if (marked)
			ret = ptop_ts_act_select(since_pass, q->pid_ns,
						 q->cmd.start_pid, &sel);
		if (ret)
			goto err_free;
	}
	if (!ptop_ts_runtimes_at_t0()) {
		/*
		 * No per-CPU instant here: the answer is as of the middle of
		 * the walk (below), so its first readings are taken right
		 * before it, not before the selection and the allocation.
		 */
		t0 = ktime_get_ns();
		b0 = ktime_get_boottime_ns();
		ptop_ts_cpus_read(snap->cpus, ncpu, false);
	}
	w.since_pass = marked ? since_pass : 0;
	walk_from = snap->ans->count;
	ret = marked ? walk_marked(&w, &sel) : walk_all(&w);
	if (ret)
		goto err_free;
	add_late_groups(&w, walk_from);
	ptop_ts_ran_end();
	ptop_ts_act_walked(!marked);
	ptop_ts_act_sel_free(&sel);
	WRITE_ONCE(walk_last_ns, ktime_get_ns() - w0);
	WRITE_ONCE(walk_rcu_max_ns, w.spans.max);
	if (ptop_ts_runtimes_at_t0()) {
		/* every runtime is as of its CPU's t0: so are the counters */
		snap->ans->time_ns = t0;
		snap->ans->boottime_ns = b0;
	} else {
		snap->ans->time_ns = ptop_ts_mid(t0, ktime_get_ns());
		snap->ans->boottime_ns = ptop_ts_mid(b0,
						     ktime_get_boottime_ns());
		ptop_ts_cpus_read(snap->cpus, ncpu, true);
	}
	ptop_ts_pass_unlock();
	kvfree(cpus);

	snap->len = sizeof(struct ptop_ts_answer) +
		    ncpu * sizeof(struct ptop_ts_cpu) +
		    (size_t)snap->ans->count * sizeof(struct ptop_ts_record);
	atomic_long_inc(&ptop_ts_answers);
	return 0;

err_free:
	ptop_ts_snap_free(snap);
err_sel:
	ptop_ts_act_sel_free(&sel);
err_unlock:
	ptop_ts_ran_end();
	ptop_ts_pass_unlock();
err_cpus:
	kvfree(cpus);
	return ret;
}
