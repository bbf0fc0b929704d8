/* SPDX-License-Identifier: GPL-2.0 */
/* Process events to each listening socket. */
#ifndef _PTOP_TS_EVENTS_H
#define _PTOP_TS_EVENTS_H

#include <linux/types.h>

struct task_struct;

int ptop_ts_events_attach(void);
void ptop_ts_events_detach(void);
void ptop_ts_events_fork(struct task_struct *parent, struct task_struct *child);
void ptop_ts_events_exit(struct task_struct *p, bool group_dead);
void ptop_ts_events_exec(struct task_struct *p, pid_t old_pid);
void ptop_ts_events_counts(long *sent, long *failed, long *walks);

#endif /* _PTOP_TS_EVENTS_H */
