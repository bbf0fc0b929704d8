/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels the module is built for (5.10 to 7.x,
 * tests/vm/kernels), each behind one named feature macro.  The rest of the
 * module uses these names only, never a version number.
 *
 * PTOP_HAVE_* comes from one of two places:
 *  - a header test in Kbuild (the kernel's own header says whether the
 *    feature is there: right for backports and for kernels newer than any
 *    listed here); Kbuild passes -DPTOP_HAVE_X.
 *  - the version that introduced it upstream, where the feature is not
 *    backported and the header has no single greppable line for it.
 *
 * Checked against the headers (and kernel/exit.c, fs/exec.c,
 * fs/coredump.c) of Debian's 5.10.0-46, 6.1.0-57, 6.12.118 and 7.2.13.
 */
#ifndef _PTOP_TS_COMPAT_H
#define _PTOP_TS_COMPAT_H

#include <linux/version.h>
#include <linux/sched/signal.h>
#include <net/genetlink.h>

/*
 * Flags of the "events" multicast group: joining it needs CAP_NET_ADMIN.
 * genl_bind() checks GENL_MCAST_CAP_* since 6.7 and in the stable
 * backports (6.1.69+, 5.15.145+, 5.10.205+); GENL_UNS_ADMIN_PERM, which
 * looks alike, is a command flag and means nothing on a group. A kernel
 * without the flag lets anyone join, which is harmless as the module
 * sends nothing to the group (events go to each listening socket, see
 * events.c): the group stays only so that older readers resolve it.
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define PTOP_TS_MCGRP_ADMIN	GENL_MCAST_CAP_NET_ADMIN
#else
#define PTOP_TS_MCGRP_ADMIN	0
#endif

/*
 * genl_family.resv_start_op: 6.1; commands below it keep
 * the old lax attribute validation, the module's start at
 * PTOP_TS_CMD_PIDS (all strict).  Older kernels: strict is set per op.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define PTOP_HAVE_GENL_RESV_START_OP 1
#endif

/* genl_dumpit_info() holds a struct genl_info (attrs in .info): 6.2 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define PTOP_HAVE_GENL_DUMPIT_INFO_INFO 1
#endif

#ifdef PTOP_HAVE_GENL_DUMPIT_INFO_INFO
#define ptop_genl_dump_attrs(cb) (genl_dumpit_info(cb)->info.attrs)
#else
#define ptop_genl_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

/*
 * signal_struct.group_exec_task, the thread doing a de_thread() exec:
 * 5.16.  Before, group_exit_task served both exec and
 * coredump; a coredump also sets SIGNAL_GROUP_COREDUMP or _EXIT, an exec
 * neither.  Called under siglock.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
#define PTOP_HAVE_GROUP_EXEC_TASK 1
#endif

static inline struct task_struct *ptop_group_exec_task(struct signal_struct *sig)
{
#ifdef PTOP_HAVE_GROUP_EXEC_TASK
	return sig->group_exec_task;
#else
	if (sig->flags & (SIGNAL_GROUP_EXIT | SIGNAL_GROUP_COREDUMP))
		return NULL;
	return sig->group_exit_task;
#endif
}

/*
 * sched_process_exit(p, group_dead) (7.x; Kbuild header test).  The
 * tracepoint also moved: it now fires before exit_mm() and
 * perf_event_exit_task() instead of after them, so the thread's time spent
 * tearing down its memory comes after the probe, as the time after it
 * always did (thread_tail.c counts it).  The probe works out group_dead
 * itself (signal->live under siglock) on every kernel.
 */
#ifdef PTOP_HAVE_EXIT_TP_GROUP_DEAD
#define PTOP_EXIT_PROBE_ARGS struct task_struct *p, bool tp_group_dead
#else
#define PTOP_EXIT_PROBE_ARGS struct task_struct *p
#endif

/*
 * The first pid >= nr in ns, under rcu_read_lock().  find_ge_pid() is not
 * exported on every kernel (Kbuild test of Module.symvers); it has always
 * been this idr_get_next() on the namespace's idr, which is exported.
 */
#include <linux/idr.h>
#include <linux/pid_namespace.h>

static inline struct pid *ptop_find_ge_pid(int nr, struct pid_namespace *ns)
{
#ifdef PTOP_HAVE_FIND_GE_PID
	return find_ge_pid(nr, ns);
#else
	return idr_get_next(&ns->idr, &nr);
#endif
}

/* task_struct.state became __state: 5.14 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 14, 0)
#define ptop_task_state(t) READ_ONCE((t)->__state)
#else
#define ptop_task_state(t) READ_ONCE((t)->state)
#endif

/*
 * __cond_lock() tells sparse that a lock is taken when a condition holds;
 * 7.x replaced it with the compiler's context analysis and dropped the
 * macro. Without it the condition alone is what matters.
 */
#ifndef __cond_lock
#define __cond_lock(x, c) (c)
#endif

#endif /* _PTOP_TS_COMPAT_H */
