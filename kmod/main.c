// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_taskstats: precise per-task CPU accounting for ptop.
 *
 * Module init/exit and parameters. The protocol is described in
 * uapi/ptop_taskstats.h; snapshot.c takes answers, activity.c decides which
 * tasks changed since an earlier answer, exits.c keeps EXIT records.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/genetlink.h>
#include "ptop_ts.h"

unsigned int ptop_ts_max_records = 1U << 20;
module_param_named(max_records, ptop_ts_max_records, uint, 0444);
MODULE_PARM_DESC(max_records,
		 "Most records in one answer; more tasks: ANSF_MORE paging (default 1048576)");

unsigned int ptop_ts_exit_ring_size = 16384;
module_param_named(exit_ring_size, ptop_ts_exit_ring_size, uint, 0444);
MODULE_PARM_DESC(exit_ring_size,
		 "EXIT records kept for incremental answers (default 16384)");

module_param_named(track_linger, ptop_ts_track_linger, uint, 0444);
MODULE_PARM_DESC(track_linger,
		 "Seconds the activity probe stays after the last reader (default 60, at most 3600)");

module_param_named(crosscheck, ptop_ts_crosscheck, bool, 0444);
MODULE_PARM_DESC(crosscheck,
		 "Tests: allow PTOP_TS_CMDF_CROSSCHECK (a full walk with each incremental answer)");

static int reader_gid = -1;
module_param(reader_gid, int, 0444);
MODULE_PARM_DESC(reader_gid,
		 "Group allowed to read /proc/taskstats (default -1: root only)");

atomic_long_t ptop_ts_open_files = ATOMIC_LONG_INIT(0);
atomic_long_t ptop_ts_answer_bytes = ATOMIC_LONG_INIT(0);
atomic_long_t ptop_ts_answers = ATOMIC_LONG_INIT(0);
atomic_long_t ptop_ts_steal_bytes = ATOMIC_LONG_INIT(0);

int ptop_ts_reader_gid(void)
{
	return reader_gid;
}

static int __init ptop_ts_init(void)
{
	int ret;

	if (ptop_ts_max_records < 16)
		ptop_ts_max_records = 16;
	if (ptop_ts_exit_ring_size < 64)
		ptop_ts_exit_ring_size = 64;
	if (ptop_ts_track_linger > 3600)
		ptop_ts_track_linger = 3600;
	ptop_ts_budget_init();

	ret = ptop_ts_exits_init();
	if (ret)
		return ret;
	ret = ptop_ts_act_init();
	if (ret)
		goto err_act;
	ret = ptop_ts_acct_init();
	if (ret)
		goto err_acct;
	ret = ptop_ts_exits_attach();
	if (ret)
		goto err_attach;
	ptop_ts_acct_populate();
	ret = ptop_ts_hooks_attach();
	if (ret)
		goto err_hooks;
	ret = ptop_ts_listen_init();
	if (ret)
		goto err_listen;
	ret = ptop_ts_proc_init();
	if (ret)
		goto err_proc;
	ret = ptop_ts_nl_init();
	if (ret)
		goto err_nl;
	pr_info("version %s loaded\n", PTOP_TS_VERSION);
	return 0;

err_nl:
	ptop_ts_proc_exit();
err_proc:
	ptop_ts_listen_exit();
err_listen:
	ptop_ts_hooks_detach();
err_hooks:
	ptop_ts_exits_detach();
err_attach:
	ptop_ts_acct_exit();
err_acct:
	ptop_ts_act_exit();
err_act:
	ptop_ts_exits_exit();
	return ret;
}

static void __exit ptop_ts_exit(void)
{
	/* the requested sources first: no event is sent to a family going */
	ptop_ts_listen_exit();
	ptop_ts_hooks_detach();
	ptop_ts_nl_exit();
	ptop_ts_proc_exit();
	ptop_ts_exits_detach();
	ptop_ts_acct_exit();
	ptop_ts_act_exit();
	ptop_ts_exits_exit();
}

module_init(ptop_ts_init);
module_exit(ptop_ts_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Precise per-task CPU accounting for ptop");
MODULE_AUTHOR("ptop authors");
MODULE_VERSION(PTOP_TS_VERSION);
MODULE_ALIAS_GENL_FAMILY(PTOP_TS_FAMILY_NAME);
