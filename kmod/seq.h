/* SPDX-License-Identifier: GPL-2.0 */
/* Answer sequence numbers and the pass lock. */
#ifndef _PTOP_TS_SEQ_H
#define _PTOP_TS_SEQ_H

#include <linux/types.h>

void ptop_ts_seq_init(void);
u64 ptop_ts_seq_next_pass(void);
u64 ptop_ts_seq_now(void);
u64 ptop_ts_seq_of(u64 pass, u64 exit_head);
bool ptop_ts_seq_lookup(u64 seq, u64 head, u64 *pass, u64 *exit_head);
int ptop_ts_pass_lock_killable(void);
void ptop_ts_pass_lock(void);
void ptop_ts_pass_unlock(void);

#endif /* _PTOP_TS_SEQ_H */
