/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is a proc root a child pid namespace's (a container's /proc, unshare -p
 * --mount-proc)? Its tasks are then that namespace's only, while
 * /proc/stat's idle and the CPUs are the machine's: no sum over the rows
 * can be judged against ncpu x interval (PTOP_CAP_PIDNS, lib/verdict.h).
 *
 * Told by the inode of <proc_root>/1/ns/pid (the namespace's init, when
 * we may look) against the initial pid namespace's fixed inode
 * (PROC_PID_INIT_INO); else by our own, <proc_root>/self/ns/pid: the
 * initial one, or a child whose proc root is an ancestor's (NSpid in
 * self/status has more than one pid: unshare -p without --mount-proc,
 * every task in sight) is the machine's. A fixture root without these
 * files is the machine's.
 */
#ifndef PTOP_PIDNS_H
#define PTOP_PIDNS_H

/* the initial pid namespace's inode (include/linux/proc_ns.h) */
#define PTOP_PROC_PID_INIT_INO	0xEFFFFFFCULL

/* 1: a child pid namespace; 0: the initial one, or not known */
int ptop_pidns_child(const char *proc_root);
/*
 * 1 when this process is in a child pid namespace, whatever its proc
 * root shows (unshare -p without --mount-proc): what the kernel's
 * taskstats exit listener refuses (-EINVAL).
 */
int ptop_pidns_self_child(const char *proc_root);

#endif /* PTOP_PIDNS_H */
