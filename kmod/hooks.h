/* SPDX-License-Identifier: GPL-2.0 */
/* The sched_switch and sched_process_exec probes, from load to unload. */
#ifndef _PTOP_TS_HOOKS_H
#define _PTOP_TS_HOOKS_H

int ptop_ts_hooks_attach(void);
void ptop_ts_hooks_detach(void);

#endif /* _PTOP_TS_HOOKS_H */
