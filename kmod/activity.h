/* SPDX-License-Identifier: GPL-2.0 */
/* Activity tracking: on while someone reads, drained at each pass. */
#ifndef _PTOP_TS_ACTIVITY_H
#define _PTOP_TS_ACTIVITY_H

#include <linux/types.h>

struct ptop_ts_act_counts {
	long readers;
	bool attached;
	u64 entries, full_walks, inc_walks, lost;
};

extern unsigned int ptop_ts_track_linger;

int ptop_ts_act_init(void);
void ptop_ts_act_exit(void);
u64 ptop_ts_act_pass(void);
void ptop_ts_act_drain_late(u64 pass);
bool ptop_ts_act_complete(u64 since_pass);
void ptop_ts_act_reader_get(void);
void ptop_ts_act_reader_put(void);
void ptop_ts_act_walked(bool full);
void ptop_ts_act_counts(struct ptop_ts_act_counts *c);

#endif /* _PTOP_TS_ACTIVITY_H */
