/* SPDX-License-Identifier: GPL-2.0 */
/* One answer: a pass over the reader's pid namespace. */
#ifndef _PTOP_TS_PASS_H
#define _PTOP_TS_PASS_H

#include <linux/types.h>
#include "answer.h"

int ptop_ts_cmd_check(struct ptop_ts_cmd *cmd);
int ptop_ts_snap_take(const struct ptop_ts_query *q, struct ptop_ts_snap *snap);
void ptop_ts_snap_walk_times(u64 *walk_ns, u64 *rcu_max_ns);
void ptop_ts_snap_late_span(u64 *seq, u64 *from, u64 *to);

#endif /* _PTOP_TS_PASS_H */
