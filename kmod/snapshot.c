// SPDX-License-Identifier: GPL-2.0
/*
 * One answer: a single pass over the reader's pid namespace, in tgid order,
 * under rcu_read_lock(), filling records into a buffer allocated before.
 *
 * Record contents (see uapi/ptop_taskstats.h):
 *  - THREAD: utime + stime = the thread's sum_exec_runtime, split as the
 *    kernel's cputime_adjust() does (task_cputime_adjusted(), which also
 *    keeps the split from going backwards), run_delay, context switches
 *    and faults of the thread.
 *  - GROUP: the same times summed over the threads still linked to the
 *    group, x* = the group's dead threads (signal->sum_sched_runtime split
 *    by signal->utime/stime, plus linked threads whose EXIT record exists),
 *    both read under siglock so a thread moving from "linked" to "dead" is
 *    counted exactly once; neither part of x* goes backwards (acct.c keeps
 *    the last split). For a group born while the module is loaded, x* is
 *    the module's own count instead (thread_tail.c: with the exit path
 *    the kernel accounts to nobody); c* = dead descendants folded in, as
 *    of the moment the pass began (acct.c); nvcsw..majflt include dead
 *    threads (as /proc/PID/stat does); rss of the group's mm.
 * Runtimes are as of the instant the walk began (each CPU's own, read by
 * an IPI: struct pass_cpu), when the CPUs' counters are read too: a thread that ran during the
 * walk is read without its last stretch after that instant (see
 * runtime_at_t0()), so that a walk that takes long (thousands of tasks,
 * an emulated CPU) does not move time between intervals.
 * A thread inside do_exit() is reported as live until the EXIT record that
 * exits.c writes for it exists: a thread or group whose record was written
 * before this pass began is left out (that record is in this answer or an
 * earlier one); one whose record comes later is in this answer as live and
 * in the next one as EXIT. So every task a reader has seen ends with
 * exactly one EXIT record, and no answer has a task both live and dead.
 *
 * Which tasks a pass visits: "since N" answers walk the groups activity.c
 * marked after pass N, in tgid order; the first answer, RESYNC, and
 * answers activity.c cannot give (tracking was off, a mark was lost) walk
 * every group, in chunks of WALK_CHUNK groups under rcu_read_lock(),
 * resuming by pid, with a resched point and a fatal-signal check between
 * chunks. Passes are serialized by the pass lock (activity.c), taken
 * killable.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/cputime.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/sched/clock.h>
#include <linux/kernel_stat.h>
#include <linux/tick.h>
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include "compat.h"
#include "ptop_ts.h"

/*
 * The instant a walk begins, as each CPU reads it itself (an IPI): its
 * sched_clock (the clock of its runqueue, and of its threads' runtimes),
 * the time, and its counters. Remote reads of an unstable sched_clock can
 * lag by ticks, and an IPI to a vCPU the host has stopped comes late: each
 * CPU's counters go with its own instant. Except on nohz_full CPUs, which
 * are left alone (an IPI a pass would break their isolation): their
 * tasks' times come from vtime, which needs no instant of that CPU (see
 * runtime_at_t0()), and their counters are read from here, as vtime makes
 * them readable remotely. Under the pass lock.
 */
struct pass_cpu {
	u64 gen;		/* the pass that wrote it */
	u64 t0;			/* sched_clock_cpu() */
	u64 time_ns;		/* ktime_get_ns() */
	u64 boottime_ns;
	struct ptop_ts_cpu c;
};
static DEFINE_PER_CPU(struct pass_cpu, pass_cpu);
static u64 pass_gen;

static void read_cpu(struct ptop_ts_cpu *c, int cpu);

static void read_pass_cpu_at(int cpu)
{
	struct pass_cpu *pc = per_cpu_ptr(&pass_cpu, cpu);

	pc->t0 = sched_clock_cpu(cpu);
	pc->time_ns = ktime_get_ns();
	pc->boottime_ns = ktime_get_boottime_ns();
	read_cpu(&pc->c, cpu);
	pc->gen = READ_ONCE(pass_gen);
}

static void read_pass_cpu(void *unused)
{
	read_pass_cpu_at(smp_processor_id());
}

static bool pass_cpu_ipi(int cpu, void *unused)
{
	return !tick_nohz_full_cpu(cpu);
}

#define WALK_CHUNK	256	/* groups per rcu_read_lock() section */

bool ptop_ts_crosscheck;

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

/* total * part / all, with all == 0 giving 0 */
u64 ptop_ts_scale(u64 total, u64 part, u64 all)
{
	if (!all || !part)
		return 0;
	if (part >= all)
		return total;
	return mul_u64_u64_div_u64(total, part, all);
}

/*
 * Runtime of a task that is on a CPU now, not yet in se.sum_exec_runtime:
 * the scheduler brings that up to date only at a tick or a switch, so a
 * running task's counter lags up to a tick, and much more when the host
 * stops a vCPU (the stopped time is charged to the task at the next
 * update, in a later answer). se.exec_start is in the clock of the task's
 * runqueue, which is that CPU's sched_clock_cpu() when no irq or steal
 * time is taken out of it (otherwise: 0, the counter as the kernel has
 * it). One CPU's clock against the same CPU's clock; read after the
 * runtime, so that a concurrent update_curr() can only make the sum a
 * little short (made up by the next answer), never count twice.
 */
u64 ptop_ts_running_extra(struct task_struct *t)
{
	u64 start, now;

	if (IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING) ||
	    IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING))
		return 0;
	/* vtime (nohz_full): task_cputime_adjusted() had it precise */
	if (tick_nohz_full_cpu(task_cpu(t)))
		return 0;
	if (!READ_ONCE(t->on_cpu))
		return 0;
	smp_rmb();	/* after the caller's read of sum_exec_runtime */
	start = READ_ONCE(t->se.exec_start);
	now = sched_clock_cpu(task_cpu(t));
	/* on_cpu and exec_start again, after the clock */
	smp_rmb();
	/* switched out meanwhile: exec_start is its switch-out time */
	if (!READ_ONCE(t->on_cpu) || READ_ONCE(t->se.exec_start) != start)
		return 0;
	if (now <= start || now - start >= NSEC_PER_SEC)
		return 0;
	return now - start;
}

/*
 * The thread's runtime as of the pass instant of its CPU, for a walk. The thread
 * ran without a break from max(t0, its last arrival on the CPU) to
 * se.exec_start (its last update, or its switch-out) and, if on the CPU,
 * on to now: all of that after t0 is left out. Earlier stretches after t0
 * (switched in and out more than once during the walk) stay in, rare.
 * se.exec_start and sched_info.last_arrival are in the runqueue's clock,
 * which is the CPU's sched_clock_cpu() without irq or steal time taken
 * out (otherwise: the counter plus the running extra, as before).
 * Returns false when the plain reading applies.
 */
static bool runtimes_at_t0(void)
{
	return !IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING) &&
	       !IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING) &&
	       IS_ENABLED(CONFIG_SCHED_INFO);
}

static bool runtime_at_t0(struct task_struct *t, u64 *rt)
{
	u64 sum, start, start2, t0, base;
	int cpu, tries = 3;
	bool on;

	if (!runtimes_at_t0())
		return false;
	cpu = task_cpu(t);
	if (tick_nohz_full_cpu(cpu))
		return false;
	do {		/* not torn by an update_curr() on the thread's CPU */
		start = READ_ONCE(t->se.exec_start);
		/* the runtime after the start it goes with */
		smp_rmb();
		sum = READ_ONCE(t->se.sum_exec_runtime);
		on = READ_ONCE(t->on_cpu);
		/* exec_start again after them: unchanged, they match */
		smp_rmb();
		start2 = READ_ONCE(t->se.exec_start);
	} while (start != start2 && --tries);
	if (start != start2)
		return false;
	if (per_cpu(pass_cpu, cpu).gen != pass_gen)
		return false;	/* came online during the pass */
	t0 = per_cpu(pass_cpu, cpu).t0;
	base = max(t0, READ_ONCE(t->sched_info.last_arrival));
	if (start > base && start - base <= sum)
		*rt = sum - (start - base);	/* ran after t0, up to start */
	else if (on && t0 > start && t0 - start < NSEC_PER_SEC)
		*rt = sum + (t0 - start);	/* on the CPU since before t0 */
	else
		*rt = sum;			/* did not run since t0 */
	return true;
}

/*
 * A thread's user, system and steal ns. user + system = sum_exec_runtime
 * split as cputime_adjust() does (as of the pass instant: at_t0); with
 * the steal probe attached and without PARAVIRT_TIME_ACCOUNTING (stolen
 * time is then inside the runtime), the steal measured for the thread is
 * taken out of that total, in proportion, so that user + system + steal
 * is still the runtime.
 */
static void thread_times(struct task_struct *t, struct ptop_tri *v,
			 bool at_t0)
{
	u64 total, want;

	task_cputime_adjusted(t, &v->u, &v->s);
	total = v->u + v->s;
	if (!at_t0 || !runtime_at_t0(t, &want))
		want = total + ptop_ts_running_extra(t);
	if (want != total) {
		v->u = ptop_ts_scale(want, v->u, total);
		v->s = want - v->u;
	}
	v->st = ptop_ts_steal_of(t);
	if (!v->st || IS_ENABLED(CONFIG_PARAVIRT_TIME_ACCOUNTING))
		return;
	total = v->u + v->s;
	if (v->st > total)
		v->st = total;
	v->u = ptop_ts_scale(total - v->st, v->u, total);
	v->s = total - v->st - v->u;
}

/* The thread's own counters; identity is filled by the caller. */
static void fill_thread(struct ptop_ts_record *r, struct task_struct *t,
			bool at_t0)
{
	struct ptop_tri v;

	r->version = PTOP_TS_RECORD_VERSION;
	r->size = sizeof(*r);
	r->kind = PTOP_TS_KIND_THREAD;
	r->flags |= PTOP_TS_RECF_HAS_RDELAY;
	thread_times(t, &v, at_t0);
	r->utime_ns = v.u;
	r->stime_ns = v.s;
	r->steal_ns = v.st;
	r->rdelay_ns = t->sched_info.run_delay;
	r->nvcsw = t->nvcsw;
	r->nivcsw = t->nivcsw;
	r->minflt = t->min_flt;
	r->majflt = t->maj_flt;
}

void ptop_ts_fill_thread(struct ptop_ts_record *r, struct task_struct *t)
{
	fill_thread(r, t, false);
}

/*
 * Group counters; the caller holds leader->sighand->siglock. Threads still
 * linked whose EXIT record was written before exit_head (see
 * ptop_ts_thread_gone()) count as dead threads (x*), as a pass leaves
 * their THREAD records out: the group's T is the same either way, and the
 * time of a thread moves to x* at the moment its own record stops.
 */
void ptop_ts_fill_group_locked(struct ptop_ts_record *r,
			       struct task_struct *leader, u64 exit_head,
			       struct task_struct *who, u64 *who_rt, bool at_t0)
{
	struct ptop_tri gone = { 0 }, v;
	struct signal_struct *sig = leader->signal;
	struct task_struct *t;

	r->version = PTOP_TS_RECORD_VERSION;
	r->size = sizeof(*r);
	r->kind = PTOP_TS_KIND_GROUP;
	r->flags |= PTOP_TS_RECF_HAS_RDELAY | PTOP_TS_RECF_HAS_X;
	r->nvcsw = sig->nvcsw;
	r->nivcsw = sig->nivcsw;
	r->minflt = sig->min_flt;
	r->majflt = sig->maj_flt;
	__for_each_thread(sig, t) {
		thread_times(t, &v, at_t0);
		if (t == who)
			*who_rt = v.u + v.s + v.st;
		r->rdelay_ns += t->sched_info.run_delay;
		if (ptop_ts_thread_gone(t, exit_head)) {
			gone.u += v.u;
			gone.s += v.s;
			gone.st += v.st;
		} else {
			r->utime_ns += v.u;
			r->stime_ns += v.s;
			r->steal_ns += v.st;
		}
		r->nvcsw += t->nvcsw;
		r->nivcsw += t->nivcsw;
		r->minflt += t->min_flt;
		r->majflt += t->maj_flt;
	}
	r->xstime_ns = ptop_ts_scale(sig->sum_sched_runtime, sig->stime,
				     sig->utime + sig->stime);
	r->xutime_ns = sig->sum_sched_runtime - r->xstime_ns + gone.u;
	r->xstime_ns += gone.s;
	r->xsteal_ns = gone.st;
	r->nthreads = atomic_read(&sig->live);
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

static void fill_ident(struct ptop_ts_record *r, struct task_struct *t,
		       const struct ptop_ts_query *q)
{
	struct task_struct *parent = rcu_dereference(t->real_parent);

	r->pid = task_pid_nr_ns(t, q->pid_ns);
	r->tgid = task_tgid_nr_ns(t, q->pid_ns);
	r->ppid = parent ? task_tgid_nr_ns(parent, q->pid_ns) : 0;
	r->acct_ptgid = r->ppid;
	r->uid = from_kuid_munged(q->user_ns, task_uid(t));
	r->state = task_state_to_char(t);
	get_task_comm(r->comm, t);
	r->start_ns = t->start_boottime;
}

static void fill_mem(struct ptop_ts_record *r, struct task_struct *leader)
{
	struct task_struct *t;

	for_each_thread(leader, t) {
		struct mm_struct *mm;

		task_lock(t);
		mm = t->mm;
		if (mm) {
			r->rss_kb = get_mm_rss(mm) << (PAGE_SHIFT - 10);
			r->hiwater_rss_kb =
				get_mm_hiwater_rss(mm) << (PAGE_SHIFT - 10);
		}
		task_unlock(t);
		if (mm)
			return;
	}
}

/* a + (b - a) / 2 of two readings of a counter that only grows */
static u64 mid(u64 a, u64 b)
{
	return b >= a ? a + (b - a) / 2 : b;
}

/*
 * The CPUs' counters; called before the walk (again = false) and after it
 * (again = true), which leaves the midpoint of the two readings: the
 * tasks are read during the walk, so the answer's clock and the CPUs'
 * counters are both taken as of the middle of it.
 */
static void read_cpu(struct ptop_ts_cpu *v, int cpu)
{
	struct kernel_cpustat kcs;
	u64 us;

	kcpustat_cpu_fetch(&kcs, cpu);
	us = get_cpu_idle_time_us(cpu, NULL);
	v->idle_ns = us == (u64)-1 ? kcs.cpustat[CPUTIME_IDLE] :
				      us * NSEC_PER_USEC;
	us = get_cpu_iowait_time_us(cpu, NULL);
	v->iowait_ns = us == (u64)-1 ? kcs.cpustat[CPUTIME_IOWAIT] :
					us * NSEC_PER_USEC;
	v->steal_ns = kcs.cpustat[CPUTIME_STEAL];
	v->irq_ns = kcs.cpustat[CPUTIME_IRQ];
	v->softirq_ns = kcs.cpustat[CPUTIME_SOFTIRQ];
}

static void fill_cpus(struct ptop_ts_cpu *c, u32 n, bool again)
{
	struct ptop_ts_cpu v;
	u32 cpu;

	for (cpu = 0; cpu < n; cpu++, c++) {
		if (!cpu_possible(cpu))
			continue;
		read_cpu(&v, cpu);
		if (again) {
			c->idle_ns = mid(c->idle_ns, v.idle_ns);
			c->iowait_ns = mid(c->iowait_ns, v.iowait_ns);
			c->steal_ns = mid(c->steal_ns, v.steal_ns);
			c->irq_ns = mid(c->irq_ns, v.irq_ns);
			c->softirq_ns = mid(c->softirq_ns, v.softirq_ns);
		} else {
			*c = v;
		}
		c->online = cpu_online(cpu);
	}
}

struct walk {
	const struct ptop_ts_query *q;
	struct ptop_ts_snap *snap;
	u64 seq;
	u64 exit_head;		/* EXIT records written before this pass */
	u64 since_pass;		/* 0: report every task */
	u32 cap;		/* records the walk may use */
	bool threads;
	bool full;
	u16 recf;		/* flags every record gets (HAS_STEAL) */
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

/* Has this thread's EXIT record been written before the pass began? */
static bool thread_gone(const struct walk *w, struct task_struct *t)
{
	return ptop_ts_thread_gone(t, w->exit_head);
}

/* The same for the group; siglock held. */
static bool group_gone_locked(const struct walk *w, struct task_struct *leader)
{
	struct signal_struct *sig = leader->signal;
	struct task_struct *t;

	if (atomic_read(&sig->live))
		return false;
	__for_each_thread(sig, t)
		if (!t->exit_state)
			return ptop_ts_exits_recorded(task_tgid(leader), true,
						      leader->start_boottime,
						      w->exit_head);
	return true;		/* every thread is past its probe */
}

static void walk_group(struct walk *w, struct task_struct *leader, u32 tgid)
{
	struct ptop_ts_answer *ans = w->snap->ans;
	struct sighand_struct *sh;
	struct ptop_ts_record r;
	struct task_struct *t;
	unsigned long flags;
	struct ptop_ts_record *lrec = NULL;
	bool truncated = false;
	u32 need = 1;

	if (w->full || tgid < w->q->cmd.start_pid)
		return;
	if (w->threads && !w->since_pass)
		need += get_nr_threads(leader);
	else if (w->threads)
		for_each_thread(leader, t)
			need += want_thread(w, t);
	if (ans->count + need > w->cap && (ans->count || !w->cap)) {
		w->full = true;
		ans->flags |= PTOP_TS_ANSF_MORE;
		ans->next_pid = tgid;
		return;
	}

	for_each_thread(leader, t) {
		if (!w->threads || thread_gone(w, t) || !want_thread(w, t))
			continue;
		/* one slot stays free for the group record */
		if (ans->count + 1 >= w->cap) {
			truncated = true;
			continue;
		}
		memset(&r, 0, sizeof(r));
		fill_ident(&r, t, w->q);
		fill_thread(&r, t, true);
		if (t == leader)
			lrec = add(w, &r);
		else
			add(w, &r);
	}

	sh = ptop_ts_lock_sighand(leader, &flags);
	if (!sh)
		goto out;
	if (group_gone_locked(w, leader)) {
		spin_unlock_irqrestore(&sh->siglock, flags);
		goto out;
	}
	memset(&r, 0, sizeof(r));
	ptop_ts_fill_group_locked(&r, leader, w->exit_head, NULL, NULL, true);
	ptop_ts_acct_own_x_locked(leader, w->exit_head, &r);
	spin_unlock_irqrestore(&sh->siglock, flags);

	fill_ident(&r, leader, w->q);
	fill_mem(&r, leader);
	ptop_ts_acct_read(leader, &r, w->q->pid_ns);
	if (lrec && (r.flags & PTOP_TS_RECF_EXEC)) {
		/* the exec'er, now the leader: its identity before the exec */
		lrec->flags |= PTOP_TS_RECF_EXEC;
		lrec->exec_old_pid = r.exec_old_pid;
		lrec->exec_old_start_ns = r.exec_old_start_ns;
	}
	if (ans->count < w->cap)
		add(w, &r);
	else
		truncated = true;
out:
	/*
	 * Only a group with more threads than the whole answer may hold
	 * gets here: it cannot be paged by tgid, so say where to go on.
	 */
	if (truncated && !w->full) {
		w->full = true;
		ans->flags |= PTOP_TS_ANSF_MORE;
		ans->next_pid = tgid + 1;
		pr_warn_once("a thread group has more threads than max_records: answers for it are truncated\n");
	}
}

/* Every group of the reader's namespace, in tgid order, in chunks. */
static int walk_all(struct walk *w)
{
	struct pid_namespace *ns = w->q->pid_ns;
	struct task_struct *leader;
	struct pid *pid = NULL;
	u32 nr = 1, i;

	do {
		rcu_read_lock();
		for (i = 0; i < WALK_CHUNK && !w->full; i++, nr++) {
			pid = ptop_find_ge_pid(nr, ns);
			if (!pid)
				break;
			nr = pid_nr_ns(pid, ns);
			leader = pid_task(pid, PIDTYPE_TGID);
			if (leader)
				walk_group(w, leader, nr);
		}
		rcu_read_unlock();
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

	for (i = 0; i < sel->n && !w->full; i++) {
		rcu_read_lock();
		walk_group(w, sel->pick[i].leader, sel->pick[i].nr);
		rcu_read_unlock();
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
 * Each online CPU reads its instant (read_pass_cpu()); the answer's clock
 * is the mean of their times, so that the rows plus idle of all CPUs
 * cover ncpu times the interval. A CPU that did not answer keeps the
 * reading fill_cpus() made.
 */
static void pass_instant(struct ptop_ts_snap *snap, u32 ncpu, u64 *t0,
			 u64 *b0)
{
	s64 sum_t = 0, sum_b = 0;	/* from the first CPU's: no overflow */
	u64 base_t = 0, base_b = 0, n = 0;
	u32 cpu;
	int c;

	WRITE_ONCE(pass_gen, pass_gen + 1);
	on_each_cpu_cond(pass_cpu_ipi, read_pass_cpu, NULL, true);
	if (tick_nohz_full_enabled()) {
		for_each_online_cpu(c)
			if (tick_nohz_full_cpu(c))
				read_pass_cpu_at(c);
	}
	for (cpu = 0; cpu < ncpu; cpu++) {
		const struct pass_cpu *pc;

		if (!cpu_possible(cpu))
			continue;
		pc = per_cpu_ptr(&pass_cpu, cpu);
		if (pc->gen != pass_gen)
			continue;
		snap->cpus[cpu] = pc->c;
		snap->cpus[cpu].online = true;
		if (!n++) {
			base_t = pc->time_ns;
			base_b = pc->boottime_ns;
		}
		sum_t += (s64)(pc->time_ns - base_t);
		sum_b += (s64)(pc->boottime_ns - base_b);
	}
	if (n) {
		*t0 = base_t + div64_s64(sum_t, n);
		*b0 = base_b + div64_s64(sum_b, n);
	}
}

/* Tasks now: records a full walk needs, with a margin for forks. */
static u32 count_all(bool threads)
{
	u32 groups = 0, nthreads = 0, n;
	struct task_struct *p;

	rcu_read_lock();
	for_each_process(p) {
		groups++;
		nthreads += get_nr_threads(p);
	}
	rcu_read_unlock();
	n = (threads ? nthreads : 0) + groups;
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

int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap)
{
	u64 since = q->cmd.since_seq, since_pass = 0, from_head = 0;
	u64 head, pass, t0, b0;
	u32 nexits = 0, want_recs, cap;
	u32 ncpu = nr_cpu_ids;
	struct ptop_ts_act_sel sel = { 0 };
	struct walk w = {
		.q = q,
		.snap = snap,
		.threads = q->cmd.flags & PTOP_TS_CMDF_THREADS,
	};
	bool xcheck = q->cmd.flags & PTOP_TS_CMDF_CROSSCHECK;
	bool resync = false, marked;
	int ret, n;

	ptop_ts_snap_free(snap);
	ret = ptop_ts_pass_lock();
	if (ret)
		return ret;

	/* the marks first, then the generation of c* (activity.c) */
	pass = ptop_ts_act_pass();
	head = ptop_ts_acct_pass_begin();
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
		want_recs = count_all(w.threads);
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
	if (ptop_ts_exit_before_mm())
		snap->ans->flags |= PTOP_TS_ANSF_EXIT_BEFORE_MM;

	/*
	 * Exits recorded after answer since_seq began and before this pass
	 * begins; a task exiting during the walk is in the next answer.
	 */
	if (nexits) {
		n = ptop_ts_exits_copy(from_head, head, w.threads, q,
				       snap->recs, nexits);
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
	t0 = ktime_get_ns();
	b0 = ktime_get_boottime_ns();
	fill_cpus(snap->cpus, ncpu, false);
	if (runtimes_at_t0())
		pass_instant(snap, ncpu, &t0, &b0);
	if (marked && xcheck) {
		/*
		 * Every task as the full walk sees it, then the incremental
		 * answer: marks made meanwhile are in it (a task not in it has
		 * not changed since the reader's last answer read it).
		 */
		w.recf |= PTOP_TS_RECF_CROSSCHECK;
		ret = walk_all(&w);
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
	w.since_pass = marked ? since_pass : 0;
	ret = marked ? walk_marked(&w, &sel) : walk_all(&w);
	if (ret)
		goto err_free;
	ptop_ts_act_walked(!marked);
	ptop_ts_act_sel_free(&sel);
	if (runtimes_at_t0()) {
		/* every runtime is as of its CPU's t0: so are the counters */
		snap->ans->time_ns = t0;
		snap->ans->boottime_ns = b0;
	} else {
		snap->ans->time_ns = mid(t0, ktime_get_ns());
		snap->ans->boottime_ns = mid(b0, ktime_get_boottime_ns());
		fill_cpus(snap->cpus, ncpu, true);
	}
	ptop_ts_pass_unlock();

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
	ptop_ts_pass_unlock();
	return ret;
}
