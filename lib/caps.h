/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Least privilege (--drop-capabilities, like htop's): once the source's
 * sockets and files are open, and before anything is drawn, keep only the
 * capabilities the run still needs, in the effective and permitted sets:
 *
 *   strict (default)  what the source asks the kernel for at every request
 *                     (CAP_NET_ADMIN for the netlink sources), and
 *                     CAP_SYS_NICE for ptop's real-time snapshots (ui/app.c)
 *   basic             also CAP_KILL (the k key for every user's task)
 *   off               nothing dropped
 *
 * What was not permitted is never added. With bound set, the dropped ones
 * also leave the bounding set (when CAP_SETPCAP allows it), so an exec'd
 * program could not get them back.
 */
#ifndef PTOP_CAPS_H
#define PTOP_CAPS_H

#include <stdbool.h>
#include <stddef.h>

enum ptop_caps_mode {
	PTOP_CAPS_OFF,
	PTOP_CAPS_BASIC,
	PTOP_CAPS_STRICT,
};

/* "off", "basic", "strict" -> mode; -EINVAL if unknown. */
int ptop_caps_parse(const char *name);
/* what the run needs, for ptop_caps_drop() */
#define PTOP_CAPS_NET_ADMIN	(1U << 0) /* the source: ptop_src_ops.asks_net_admin */
#define PTOP_CAPS_RT		(1U << 1) /* CAP_SYS_NICE: real-time snapshots */
#define PTOP_CAPS_DELAYACCT	(1U << 2) /* CAP_SYS_ADMIN: keeps setting
					   * kernel.task_delayacct (tstime) */
#define PTOP_CAPS_CGROUP	(1U << 3) /* CAP_DAC_OVERRIDE: removes the
					   * run's cgroup from a directory
					   * only root's capability may
					   * write (tstime) */

/*
 * Keep what mode and needs (PTOP_CAPS_*) allow, drop the rest. 0, or
 * -errno with the reason in err.
 */
int ptop_caps_drop(enum ptop_caps_mode mode, unsigned int needs, bool bound,
		   char *err, size_t errlen);
/* The capability (CAP_*) is in the effective set. */
bool ptop_caps_effective(int cap);

#endif /* PTOP_CAPS_H */
