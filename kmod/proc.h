/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/taskstats and /proc/ptop_taskstats_state. */
#ifndef _PTOP_TS_PROC_H
#define _PTOP_TS_PROC_H

int ptop_ts_proc_init(void);
void ptop_ts_proc_exit(void);

#endif /* _PTOP_TS_PROC_H */
