/* SPDX-License-Identifier: GPL-2.0 */
/* Requested event sources (steal probe, events) and their listeners. */
#ifndef _PTOP_TS_LISTEN_H
#define _PTOP_TS_LISTEN_H

#include <linux/types.h>

struct net;
struct pid_namespace;

#define PTOP_TS_LISTEN_STEAL	(1U << 0)
#define PTOP_TS_LISTEN_EVENTS	(1U << 1)

int ptop_ts_listen_init(void);
void ptop_ts_listen_exit(void);
void ptop_ts_listen_file(bool on);
int ptop_ts_listen_nl(const struct net *net, u32 portid, u32 kinds, bool on);
void ptop_ts_listen_events_each(void (*fn)(u32 portid,
					   struct pid_namespace *ns,
					   void *arg),
				void *arg);
void ptop_ts_listen_counts(long *steal, long *events, bool *steal_attached,
			   bool *events_attached);

#endif /* _PTOP_TS_LISTEN_H */
