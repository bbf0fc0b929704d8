// SPDX-License-Identifier: GPL-2.0
/*
 * Filling a record from a live task: the walk of a pass (snapshot.c), the
 * exit probe (exits.c) and the accounting (acct_exit.c) all read tasks
 * the same way.
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
 * Runtimes read by a walk are as of the instant the walk began (each
 * CPU's own, read by an IPI: cpus.c): a thread that ran during the walk
 * is read without its last stretch after that instant (see
 * runtime_at_t0()), so that a walk that takes long (thousands of tasks,
 * an emulated CPU) does not move time between intervals.
 */
#include <linux/cred.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/signal.h>
#include <linux/tick.h>
#include <linux/user_namespace.h>
#include "cpus.h"
#include "exit_ring.h"
#include "pass_ran.h"
#include "steal.h"
#include "record.h"

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
 * The last-stretch rule, where pass_ran.c cannot tell (its table was
 * full): the thread ran without a break from max(t0, its last arrival
 * on the CPU) to se.exec_start (its last update, or its switch-out) and,
 * if on the CPU, on to now: all of that after t0 is left out. Earlier
 * stretches after t0 (switched out and in again, or on another CPU,
 * during the walk) stay in. se.exec_start and sched_info.last_arrival
 * are in the runqueue's clock, the CPU's sched_clock_cpu() without irq
 * or steal time taken out. False when the plain reading applies.
 */
static bool last_stretch_at_t0(struct task_struct *t, u64 t0, u64 *rt)
{
	u64 sum, start, start2, base;
	int tries = 3;
	bool on;

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
	base = max(t0, READ_ONCE(t->sched_info.last_arrival));
	if (start > base && start - base <= sum)
		*rt = sum - (start - base);	/* ran after t0, up to start */
	else if (on && t0 > start && t0 - start < NSEC_PER_SEC)
		*rt = sum + (t0 - start);	/* on the CPU since before t0 */
	else
		*rt = sum;			/* did not run since t0 */
	return true;
}

/* what the last-stretch rule would have counted after the instants */
static u64 later_runs_ns;	/* pass lock */

u64 ptop_ts_later_runs_ns(void)
{
	return READ_ONCE(later_runs_ns);
}

/*
 * The thread's runtime as of the pass instant of its CPU, for a walk: as
 * pass_ran.c noted it when the thread ran since (at the instant, or at
 * its first switch-in after it), its counter when it did not (read
 * before the look-up: a thread switched in after that reading has not
 * added to it), the last-stretch rule when the table cannot tell (or
 * the thread is on a CPU without a note: coming on it right now).
 */
static bool runtime_at_t0(struct task_struct *t, u64 *rt)
{
	u64 t0, sum, at, old;
	int cpu;

	if (!ptop_ts_runtimes_at_t0())
		return false;
	cpu = task_cpu(t);
	if (tick_nohz_full_cpu(cpu))
		return false;
	if (!ptop_ts_pass_t0(cpu, &t0))
		return false;	/* came online during the pass */
	sum = READ_ONCE(t->se.sum_exec_runtime);
	smp_rmb();	/* the counter before the look-up (pass_ran.c) */
	switch (ptop_ts_ran_lookup(t, ptop_ts_pass_gen(), &at)) {
	case PTOP_TS_RAN_AT:
		if (last_stretch_at_t0(t, t0, &old) && old > at)
			WRITE_ONCE(later_runs_ns, later_runs_ns + old - at);
		*rt = at;
		return true;
	case PTOP_TS_RAN_NOT:
		if (!READ_ONCE(t->on_cpu)) {
			*rt = sum;
			return true;
		}
		break;
	case PTOP_TS_RAN_UNKNOWN:
		break;
	}
	return last_stretch_at_t0(t, t0, rt);
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

/*
 * The thread's own counters; identity is filled by the caller. at_t0: as
 * of the pass instant (a walk), otherwise now (a probe).
 */
void ptop_ts_fill_thread(struct ptop_ts_record *r, struct task_struct *t,
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

/*
 * Group counters; the caller holds leader->sighand->siglock. Threads still
 * linked whose EXIT record was written before exit_head (see
 * ptop_ts_thread_gone()) count as dead threads (x*), as a pass leaves
 * their THREAD records out: the group's T is the same either way, and the
 * time of a thread moves to x* at the moment its own record stops.
 * gone: which threads that was (NULL: not wanted).
 */
void ptop_ts_fill_group_locked(struct ptop_ts_record *r,
			       struct task_struct *leader, u64 exit_head,
			       struct task_struct *who, u64 *who_rt, bool at_t0,
			       struct ptop_gone *gone)
{
	struct signal_struct *sig = leader->signal;
	struct ptop_gone here = {};
	struct task_struct *t;

	if (!gone)
		gone = &here;
	ptop_ts_group_begin(r, gone, sig);
	__for_each_thread(sig, t)
		ptop_ts_group_add(r, gone, t, exit_head, who, who_rt, at_t0);
	ptop_ts_group_end(r, sig, gone);
}

/*
 * The same in three steps, for a caller that reads the threads in
 * chunks (snapshot.c): the signal's own counters, each thread (gone: the
 * linked threads counted as dead), then the dead threads' sums.
 */
void ptop_ts_group_begin(struct ptop_ts_record *r, struct ptop_gone *gone,
			 struct signal_struct *sig)
{
	r->version = PTOP_TS_RECORD_VERSION;
	r->size = sizeof(*r);
	r->kind = PTOP_TS_KIND_GROUP;
	r->flags |= PTOP_TS_RECF_HAS_RDELAY | PTOP_TS_RECF_HAS_X;
	r->nvcsw = sig->nvcsw;
	r->nivcsw = sig->nivcsw;
	r->minflt = sig->min_flt;
	r->majflt = sig->maj_flt;
	memset(&gone->v, 0, sizeof(gone->v));
	gone->n = 0;
	gone->whole = true;
}

void ptop_ts_group_add(struct ptop_ts_record *r, struct ptop_gone *gone,
		       struct task_struct *t, u64 exit_head,
		       struct task_struct *who, u64 *who_rt, bool at_t0)
{
	struct ptop_tri v;

	thread_times(t, &v, at_t0);
	if (t == who)
		*who_rt = ptop_ts_tri_runtime(v.u, v.s, v.st);
	r->rdelay_ns += t->sched_info.run_delay;
	if (ptop_ts_thread_gone(t, exit_head) &&
	    !ptop_ts_gone_walked_live(gone, t)) {
		gone->v.u += v.u;
		gone->v.s += v.s;
		gone->v.st += v.st;
		if (gone->n < PTOP_GONE_KEPT)
			gone->t[gone->n++] = t;
		else
			gone->whole = false;
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

void ptop_ts_group_end(struct ptop_ts_record *r, struct signal_struct *sig,
		       const struct ptop_gone *gone)
{
	r->xstime_ns = ptop_ts_scale(sig->sum_sched_runtime, sig->stime,
				     sig->utime + sig->stime);
	r->xutime_ns = sig->sum_sched_runtime - r->xstime_ns + gone->v.u;
	r->xstime_ns += gone->v.s;
	r->xsteal_ns = gone->v.st;
	r->nthreads = atomic_read(&sig->live);
}

/*
 * Did the group sum that filled gone count linked thread t as dead? The
 * module's own x* (acct_exit.c) must count the same threads, and asking
 * ptop_ts_thread_gone() again can answer otherwise: a thread past its
 * exit probe whose EXIT record came after the pass began (live in the
 * pass) passes exit_notify() under tasklist_lock, not under the siglock
 * the sum and x* are read under, so it was live for the sum and dead a
 * moment later (see own_x()). Asked again only where gone cannot tell
 * (more dead threads than it keeps, threads added after a chunked sum,
 * or none: the group's exit report).
 */
bool ptop_ts_gone_counted(const struct ptop_gone *gone, struct task_struct *t,
			  u64 exit_head)
{
	u32 i;

	if (ptop_ts_gone_walked_live(gone, t))
		return false;
	if (!gone || !gone->whole)
		return ptop_ts_thread_gone(t, exit_head);
	for (i = 0; i < gone->n; i++)
		if (gone->t[i] == t)
			return true;
	return false;
}

/*
 * Did the walk of a thread answer give t a live row (gone->live)? Its
 * time is then the group's own, whatever ptop_ts_thread_gone() says
 * now: a thread passing exit_notify() (or released) between its row and
 * the group's sum was in both, its row and x*, counted twice in ptop's
 * process row (the same flip as own_x()'s, on a row).
 */
bool ptop_ts_gone_walked_live(const struct ptop_gone *gone,
			      const struct task_struct *t)
{
	u32 i;

	if (!gone)
		return false;
	for (i = 0; i < gone->nlive; i++)
		if (gone->live[i] == t)
			return true;
	return false;
}

/* Identity of t as the reader's namespaces see it; under RCU. */
void ptop_ts_fill_ident(struct ptop_ts_record *r, struct task_struct *t,
			struct pid_namespace *pid_ns,
			struct user_namespace *user_ns)
{
	struct task_struct *parent = rcu_dereference(t->real_parent);

	r->pid = task_pid_nr_ns(t, pid_ns);
	r->tgid = task_tgid_nr_ns(t, pid_ns);
	r->ppid = parent ? task_tgid_nr_ns(parent, pid_ns) : 0;
	r->acct_ptgid = r->ppid;
	r->uid = from_kuid_munged(user_ns, task_uid(t));
	r->state = task_state_to_char(t);
	get_task_comm(r->comm, t);
	r->start_ns = t->start_boottime;
}

/* rss of the group's mm (the first thread that still has one) */
void ptop_ts_fill_mem(struct ptop_ts_record *r, struct task_struct *leader)
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
