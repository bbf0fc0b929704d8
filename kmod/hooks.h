/* SPDX-License-Identifier: GPL-2.0 */
/* The sched_switch and sched_process_exec probes, from load to unload. */
#ifndef _PTOP_TS_HOOKS_H
#define _PTOP_TS_HOOKS_H

#include <linux/types.h>

int ptop_ts_hooks_attach(void);
void ptop_ts_hooks_detach(void);
void ptop_ts_hooks_switch_time(u64 *calls, u64 *ns, u64 *clock_ns);

#endif /* _PTOP_TS_HOOKS_H */
