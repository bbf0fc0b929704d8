/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink family: PIDS dumps, LISTEN, events out. */
#ifndef _PTOP_TS_NETLINK_H
#define _PTOP_TS_NETLINK_H

#include <linux/types.h>

struct ptop_ts_event;

int ptop_ts_nl_init(void);
void ptop_ts_nl_exit(void);
int ptop_ts_nl_event(u32 portid, const struct ptop_ts_event *ev);

#endif /* _PTOP_TS_NETLINK_H */
