// SPDX-License-Identifier: GPL-2.0
/*
 * The race windows of the test builds (test_window.h), each under its own
 * -DPTOP_TS_TEST_* flag: this file is built only when one is set (Kbuild).
 */
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include "test_window.h"

#ifdef PTOP_TS_TEST_LEADER_WINDOW
/*
 * Test builds only (KCFLAGS=-DPTOP_TS_TEST_LEADER_WINDOW, make
 * vm-leader-window): the walk waits 20 ms under RCU right after it took
 * the leader's record of a "tsload" group of two threads or more (tsload
 * execexit's children before the exec), so that the non-leader exec it
 * races with (de_thread()) happens between the leader's read and the
 * other threads' in most passes, as a host that stops the walking vCPU
 * there makes it now and then.
 */
static bool test_tsload(struct task_struct *t)
{
	char comm[TASK_COMM_LEN];

	get_task_comm(comm, t);
	return !strcmp(comm, "tsload");
}

void ptop_ts_test_leader_window(struct task_struct *t)
{
	if (test_tsload(t) && get_nr_threads(t) > 1)
		mdelay(20);
}

/*
 * And inside de_thread(): 20 ms with tasklist_lock held right after
 * exchange_tids() gave a "tsload" exec'er the leader's pid, before it
 * becomes the leader (a kretprobe), as a host that stops the exec'ing
 * vCPU there makes it now and then: the walk, which takes no
 * tasklist_lock, reads the exec'er with the leader's identity while it
 * is not the leader yet (walk_threads.c: leader_row()).
 */
static int test_exchange_ret(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	if (test_tsload(current))
		mdelay(20);
	return 0;
}

static struct kretprobe test_exchange_probe = {
	.kp.symbol_name = "exchange_tids",
	.handler = test_exchange_ret,
};
/* a kretprobe whose registration failed must not be unregistered */
static bool test_exchange_on;

void ptop_ts_test_init(void)
{
	int ret = register_kretprobe(&test_exchange_probe);

	test_exchange_on = !ret;
	if (ret)
		pr_warn("test build: no kretprobe on exchange_tids: %d\n", ret);
	else
		pr_info("test build: 20 ms after a tsload exec'er's exchange_tids()\n");
}

void ptop_ts_test_exit(void)
{
	if (test_exchange_on)
		unregister_kretprobe(&test_exchange_probe);
}

/*
 * And between a dying "tsload" leader's identity read and the decision
 * whether it is the leader's row: 50 ms in which the exec'er it dies for
 * finishes de_thread() (the old leader read with the leader's pid, then
 * found not to be the leader any more), its 20 ms above included.
 */
void ptop_ts_test_ident_window(struct task_struct *t)
{
	if (test_tsload(t) && thread_group_leader(t) &&
	    (READ_ONCE(t->flags) & PF_EXITING))
		mdelay(50);
}
#endif

#ifdef PTOP_TS_TEST_EXIT_WINDOW
/*
 * Test builds only (make vm-report-window): after the live row of an
 * exiting thread named ptop-thrwin (held in its exit probe by exits.c's
 * thread window), wait past that window, so that the thread finishes its
 * exit and is released before its group's sum (tests/vm/thread_window.sh).
 */
void ptop_ts_test_thread_window(struct task_struct *t)
{
	char comm[TASK_COMM_LEN];
	uint ms = min(READ_ONCE(ptop_ts_test_thread_ms), 2000U);

	get_task_comm(comm, t);
	if (ms && !strcmp(comm, "ptop-thrwin"))
		mdelay(ms + 100);
}
#endif

#ifdef PTOP_TS_TEST_PASS_WINDOW
/*
 * Test builds only (make vm-pass-pairs): every pass sleeps
 * test_pass_delay_ms (at most 200) right after its instant, before the
 * selection and the walk, so that exits, releases and frees happen
 * between the instant and the walk in every pass, as a host that stops
 * the reader's vCPU there makes them now and then
 * (tests/vm/pass_pairs.sh).
 */
static uint test_pass_delay_ms;
module_param(test_pass_delay_ms, uint, 0644);

void ptop_ts_test_pass_window(void)
{
	uint ms = min(READ_ONCE(test_pass_delay_ms), 200U);

	if (ms)
		msleep(ms);
}
#endif

#ifdef PTOP_TS_TEST_CHUNK_WINDOW
/*
 * make vm-chunk-window: at a chunk boundary of a thread walk
 * (walk_threads.c: out of RCU, the thread it rests on pinned), that
 * thread, when it is a "ptop-threadrot" one (tests/helpers/tsthreadrot.c),
 * is told to exit (a SIGUSR1 to it alone) and waited for until it is
 * released, as a busy machine running others at that resched point makes
 * it now and then. The walk must then go on without starting over and
 * over.
 */
void ptop_ts_test_chunk_window(struct task_struct *t)
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
#endif

#ifdef PTOP_TS_TEST_CLOCK_PAIR
/*
 * make vm-clock-pair: every test_pair_stop_every-th pass instant (*gen:
 * cpus.c's pass generation) on CPU 1 waits test_pair_stop_ms (at most
 * 20) between its sched_clock reading and its time's, on its first try,
 * as a host that stops the vCPU there does now and then; with
 * test_pair_log each instant's pair goes to the kernel log (sched_clock
 * - time, the width of the pair's readings).
 */
static uint test_pair_stop_every;
module_param(test_pair_stop_every, uint, 0644);
static uint test_pair_stop_ms;
module_param(test_pair_stop_ms, uint, 0644);
static bool test_pair_log_on;
module_param_named(test_pair_log, test_pair_log_on, bool, 0644);

void ptop_ts_test_pair_stop(int cpu, bool local, int try, const u64 *gen)
{
	uint every = READ_ONCE(test_pair_stop_every);

	if (local && cpu == 1 && !try && every && !(READ_ONCE(*gen) % every))
		mdelay(min(READ_ONCE(test_pair_stop_ms), 20U));
}

void ptop_ts_test_pair_log(int cpu, u64 k1, u64 t0, u64 k2, int try,
			   const u64 *gen)
{
	if (READ_ONCE(test_pair_log_on))
		pr_info("pair gen %llu cpu %d try %d off %lld wide %llu\n",
			READ_ONCE(*gen), cpu, try, (s64)(t0 - k2), k2 - k1);
}
#endif
