/* SPDX-License-Identifier: GPL-2.0 */
/* Module parameters and the counters shown in the state file (proc.c). */
#ifndef _PTOP_TS_MAIN_H
#define _PTOP_TS_MAIN_H

#include <linux/atomic.h>

extern bool ptop_ts_crosscheck;
extern unsigned int ptop_ts_max_records;
extern unsigned int ptop_ts_exit_ring_size;
extern atomic_long_t ptop_ts_open_files;
extern atomic_long_t ptop_ts_answer_bytes;
extern atomic_long_t ptop_ts_answers;
extern atomic_long_t ptop_ts_steal_bytes;

#endif /* _PTOP_TS_MAIN_H */
