/* SPDX-License-Identifier: GPL-2.0 */
/* How often a reader other than root may take a pass (throttle.c). */
#ifndef _PTOP_TS_THROTTLE_H
#define _PTOP_TS_THROTTLE_H

#include <linux/types.h>
#include <linux/uidgid.h>

struct pid_namespace;

int ptop_ts_throttle(kuid_t uid, struct pid_namespace *ns);
void ptop_ts_throttle_counts(long *n, u64 *ns);

#endif /* _PTOP_TS_THROTTLE_H */
