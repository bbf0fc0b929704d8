/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Race windows of the test builds only (KCFLAGS=-DPTOP_TS_TEST_*, the
 * Makefile's vm-*-window targets; test_window.c is built for them alone):
 * waits where a host that stops a vCPU now and then opens a race, so that
 * a VM test meets it in most passes. Without the flag each is a no-op.
 */
#ifndef _PTOP_TS_TEST_WINDOW_H
#define _PTOP_TS_TEST_WINDOW_H

#include <linux/types.h>

struct task_struct;

#ifdef PTOP_TS_TEST_LEADER_WINDOW
void ptop_ts_test_init(void);
void ptop_ts_test_exit(void);
void ptop_ts_test_leader_window(struct task_struct *t);
void ptop_ts_test_ident_window(struct task_struct *t);
#else
static inline void ptop_ts_test_init(void) { }
static inline void ptop_ts_test_exit(void) { }
static inline void ptop_ts_test_leader_window(struct task_struct *t) { }
static inline void ptop_ts_test_ident_window(struct task_struct *t) { }
#endif

#ifdef PTOP_TS_TEST_EXIT_WINDOW
/* exits.c's thread window (exits.h): the walk waits past it */
extern uint ptop_ts_test_thread_ms;
void ptop_ts_test_thread_window(struct task_struct *t);
#else
static inline void ptop_ts_test_thread_window(struct task_struct *t) { }
#endif

#ifdef PTOP_TS_TEST_PASS_WINDOW
void ptop_ts_test_pass_window(void);
#else
static inline void ptop_ts_test_pass_window(void) { }
#endif

#ifdef PTOP_TS_TEST_CHUNK_WINDOW
void ptop_ts_test_chunk_window(struct task_struct *t);
#else
static inline void ptop_ts_test_chunk_window(struct task_struct *t) { }
#endif

#ifdef PTOP_TS_TEST_CLOCK_PAIR
void ptop_ts_test_pair_stop(int cpu, bool local, int try, const u64 *gen);
void ptop_ts_test_pair_log(int cpu, u64 k1, u64 t0, u64 k2, int try,
			   const u64 *gen);
#else
static inline void ptop_ts_test_pair_stop(int cpu, bool local, int try,
					  const u64 *gen) { }
static inline void ptop_ts_test_pair_log(int cpu, u64 k1, u64 t0, u64 k2,
					 int try, const u64 *gen) { }
#endif

#endif /* _PTOP_TS_TEST_WINDOW_H */
