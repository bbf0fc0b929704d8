/* SPDX-License-Identifier: GPL-2.0 */
/* Late groups: live in an answer from their EXIT records. */
#ifndef _PTOP_TS_LATE_H
#define _PTOP_TS_LATE_H

#include <linux/types.h>

struct ptop_ts_walk;

void ptop_ts_add_late_groups(struct ptop_ts_walk *w, u32 from);

#endif /* _PTOP_TS_LATE_H */
