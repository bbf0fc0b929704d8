/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test builds only (KCFLAGS=-DPTOP_TS_TEST_CHUNK_WINDOW, make
 * vm-chunk-window): at a chunk boundary of a thread walk (snapshot.c:
 * out of RCU, the thread it rests on pinned), that thread, when it is a
 * "ptop-threadrot" one (tests/helpers/tsthreadrot.c), is told to exit
 * (a SIGUSR1 to it alone) and waited for until it is released, as a busy
 * machine running others at that resched point makes it now and then.
 * The walk must then go on without starting over and over.
 */
#ifndef _PTOP_TS_WALK_WINDOW_H
#define _PTOP_TS_WALK_WINDOW_H

struct task_struct;

#ifdef PTOP_TS_TEST_CHUNK_WINDOW
#include <linux/delay.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

static inline void test_chunk_window(struct task_struct *t)
{
	char comm[TASK_COMM_LEN];
	int i;

	get_task_comm(comm, t);
	if (strcmp(comm, "ptop-threadrot"))
		return;
	send_sig(SIGUSR1, t, 1);
	for (i = 0; i < 250 && pid_alive(t); i++)
		msleep(20);
}
#else
static inline void test_chunk_window(struct task_struct *t) { }
#endif

#endif /* _PTOP_TS_WALK_WINDOW_H */
