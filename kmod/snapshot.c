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
 * CPU's counters go with its own instant. Under the pass lock.
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

static void read_pass_cpu(void *unused)
{
	struct pass_cpu *pc = this_cpu_ptr(&pass_cpu);
	int cpu = smp_processor_id();

	pc->t0 = sched_clock_cpu(cpu);
	pc->time_ns = ktime_get_ns();
	pc->boottime_ns = ktime_get_boottime_ns();
	read_cpu(&pc->c, cpu);
	pc->gen = READ_ONCE(pass_gen);
}

/* Serializes passes: the tracking table and the sequence numbers. */
static DEFINE_MUTEX(ptop_ts_pass_lock);

int ptop_ts_cmd_check(struct ptop_ts_cmd *cmd)
{
	if (cmd->cmd != PTOP_TS_CMD_PIDS)
		return -EINVAL;
	if (cmd->flags & ~PTOP_TS_CMDF_ALL)
		return -EINVAL;
	if (cmd->start_pid > PID_MAX_LIMIT)
		return -EINVAL;
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
		smp_rmb();
		sum = READ_ONCE(t->se.sum_exec_runtime);
		on = READ_ONCE(t->on_cpu);
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

/* As __lock_task_sighand(), which is not exported. Under RCU. */
static struct sighand_struct *ptop_ts_lock_sighand(struct task_struct *t,
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
		if (likely(sh == rcu_access_pointer(t->sighand)))
			return sh;
		spin_unlock(&sh->siglock);
		local_irq_restore(*flags);
	}
}

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
	u64 since;		/* 0: report every task */
	u32 cap;		/* records the walk may use */
	bool threads;
	bool full;
	u16 recf;		/* flags every record gets (HAS_STEAL) */
};

static bool want(const struct walk *w, u64 changed)
{
	return !w->since || changed > w->since;
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
	bool emit = false, truncated = false;
	u64 changed;

	if (!w->full && tgid >= w->q->cmd.start_pid) {
		u32 need = 1 + (w->threads ? get_nr_threads(leader) : 0);

		if (ans->count + need <= w->cap || (!ans->count && w->cap)) {
			emit = true;
		} else {
			w->full = true;
			ans->flags |= PTOP_TS_ANSF_MORE;
			ans->next_pid = tgid;
		}
	}

	for_each_thread(leader, t) {
		if (thread_gone(w, t))
			continue;
		memset(&r, 0, sizeof(r));
		fill_ident(&r, t, w->q);
		fill_thread(&r, t, true);
		changed = ptop_ts_track_update(task_pid_nr(t), false,
					       r.start_ns, &r, w->seq);
		if (emit && w->threads && want(w, changed)) {
			/* one slot stays free for the group record */
			if (ans->count + 1 < w->cap) {
				struct ptop_ts_record *d = add(w, &r);

				if (t == leader)
					lrec = d;
			} else {
				truncated = true;
			}
		}
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
	changed = ptop_ts_track_update(task_tgid_nr(leader), true, r.start_ns,
				       &r, w->seq);
	if (emit && want(w, changed) && ans->count < w->cap)
		add(w, &r);
	else if (emit && want(w, changed))
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

static void walk_all(struct walk *w)
{
	struct pid_namespace *ns = w->q->pid_ns;
	struct task_struct *leader;
	struct pid *pid;
	u32 nr;

	rcu_read_lock();
	for (nr = 1; (pid = ptop_find_ge_pid(nr, ns)); nr++) {
		nr = pid_nr_ns(pid, ns);
		leader = pid_task(pid, PIDTYPE_TGID);
		if (leader)
			walk_group(w, leader, nr);
	}
	rcu_read_unlock();
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

	WRITE_ONCE(pass_gen, pass_gen + 1);
	on_each_cpu(read_pass_cpu, NULL, 1);
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

int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap)
{
	u64 since = q->cmd.since_seq, from_head = 0, head, t0, b0;
	u32 groups = 0, threads = 0, nexits = 0, want_recs, cap;
	u32 ncpu = nr_cpu_ids;
	struct task_struct *p;
	struct walk w = {
		.q = q,
		.snap = snap,
		.threads = q->cmd.flags & PTOP_TS_CMDF_THREADS,
	};
	size_t hdr, size;
	bool resync = false;
	int ret;

	ptop_ts_snap_free(snap);
	mutex_lock(&ptop_ts_pass_lock);

	rcu_read_lock();
	for_each_process(p) {
		groups++;
		threads += get_nr_threads(p);
	}
	rcu_read_unlock();

	head = ptop_ts_acct_pass_begin();
	if (since) {
		if (!ptop_ts_seq_lookup(since, &from_head) ||
		    head - from_head > ptop_ts_exit_ring_size ||
		    head - from_head >= q->cmd.max_count)
			resync = true;
		else
			nexits = head - from_head;
	}
	if (resync)
		since = 0;

	/* margin for tasks forked between the count and the walk */
	want_recs = (w.threads ? threads : 0) + groups;
	want_recs += want_recs / 8 + 64;
	cap = min_t(u64, (u64)want_recs + nexits, q->cmd.max_count);

	hdr = sizeof(struct ptop_ts_answer) + ncpu * sizeof(struct ptop_ts_cpu);
	size = hdr + (size_t)cap * sizeof(struct ptop_ts_record);
	snap->buf = ptop_ts_answer_alloc(q->uid, size, &ret);
	if (!snap->buf) {
		mutex_unlock(&ptop_ts_pass_lock);
		return ret;
	}
	snap->alloc = size;
	snap->uid = q->uid;
	snap->ans = snap->buf;
	snap->cpus = snap->buf + sizeof(struct ptop_ts_answer);
	snap->recs = snap->buf + hdr;
	snap->cap = cap;

	ptop_ts_track_begin(threads + groups);
	w.seq = ptop_ts_seq_next(head);
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
		int n = ptop_ts_exits_copy(from_head, head, w.threads, q,
					   snap->recs, nexits);

		if (n < 0) {
			resync = true;
			since = 0;
		} else {
			snap->ans->count = n;
			while (n--)
				snap->recs[n].flags |= w.recf;
		}
	}

	if (resync)
		snap->ans->flags |= PTOP_TS_ANSF_RESYNC;
	w.since = since;
	t0 = ktime_get_ns();
	b0 = ktime_get_boottime_ns();
	fill_cpus(snap->cpus, ncpu, false);
	if (runtimes_at_t0())
		pass_instant(snap, ncpu, &t0, &b0);
	walk_all(&w);
	if (runtimes_at_t0()) {
		/* every runtime is as of its CPU's t0: so are the counters */
		snap->ans->time_ns = t0;
		snap->ans->boottime_ns = b0;
	} else {
		snap->ans->time_ns = mid(t0, ktime_get_ns());
		snap->ans->boottime_ns = mid(b0, ktime_get_boottime_ns());
		fill_cpus(snap->cpus, ncpu, true);
	}
	ptop_ts_track_end();
	mutex_unlock(&ptop_ts_pass_lock);

	snap->len = hdr + (size_t)snap->ans->count * sizeof(struct ptop_ts_record);
	atomic_long_inc(&ptop_ts_answers);
	return 0;
}
