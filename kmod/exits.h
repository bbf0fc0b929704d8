/* SPDX-License-Identifier: GPL-2.0 */
/* The fork, exit and free probes: EXIT records, c* and x* bookkeeping. */
#ifndef _PTOP_TS_EXITS_H
#define _PTOP_TS_EXITS_H


int ptop_ts_exits_attach(void);
void ptop_ts_exits_detach(void);

#ifdef PTOP_TS_TEST_EXIT_WINDOW
/* test builds only: exits.c's thread window, the walk's (snapshot.c) */
extern uint ptop_ts_test_thread_ms;
#endif

#endif /* _PTOP_TS_EXITS_H */
