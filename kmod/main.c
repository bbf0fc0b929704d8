// SPDX-License-Identifier: GPL-2.0
/*
 * ptop_taskstats: precise per-task CPU accounting for ptop.
 *
 * Module init/exit and parameters. The protocol is described in
 * uapi/ptop_taskstats.h; pass.c takes answers, activity.c decides which
 * tasks changed since an earlier answer, exits.c writes EXIT records into
 * exit_ring.c's ring. The reader group parameter is proc.c's.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>
#include <net/genetlink.h>
#include "acct.h"
#include "activity.h"
#include "budget.h"
#include "exit_ring.h"
#include "exits.h"
#include "hooks.h"
#include "listen.h"
#include "netlink.h"
#include "proc.h"
#include "test_window.h"
#include "main.h"

/*
 * Numeric parameters are set at load time only (0444) and bounded: a
 * value outside its range makes insmod fail with EINVAL, as the kernel's
 * own parameters do, rather than being silently changed (or, for the
 * ring, asking kvmalloc for gigabytes).
 */
struct uint_param {
	unsigned int *val;
	unsigned int min, max;
};

static int set_uint_param(const char *val, const struct kernel_param *kp)
{
	const struct uint_param *p = kp->arg;
	unsigned int v;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret)
		return ret;
	if (v < p->min || v > p->max)
		return -EINVAL;
	*p->val = v;
	return 0;
}

static int get_uint_param(char *buf, const struct kernel_param *kp)
{
	const struct uint_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", *p->val);
}

static const struct kernel_param_ops uint_param_ops = {
	.set = set_uint_param,
	.get = get_uint_param,
};

unsigned int ptop_ts_max_records = 1U << 20;
static struct uint_param max_records_param = {
	&ptop_ts_max_records, 16, 1U << 22
};
module_param_cb(max_records, &uint_param_ops, &max_records_param, 0444);
MODULE_PARM_DESC(max_records,
		 "Most records in one answer; more tasks: ANSF_MORE paging (16 to 4194304, default 1048576)");

unsigned int ptop_ts_exit_ring_size = 16384;
static struct uint_param exit_ring_size_param = {
	&ptop_ts_exit_ring_size, 64, 1U << 18
};
module_param_cb(exit_ring_size, &uint_param_ops, &exit_ring_size_param, 0444);
MODULE_PARM_DESC(exit_ring_size,
		 "EXIT records kept for incremental answers (64 to 262144, default 16384)");

static struct uint_param track_linger_param = {
	&ptop_ts_track_linger, 0, 3600
};
module_param_cb(track_linger, &uint_param_ops, &track_linger_param, 0444);
MODULE_PARM_DESC(track_linger,
		 "Seconds the activity probe stays after the last reader (0 to 3600, default 60)");

bool ptop_ts_crosscheck;
module_param_named(crosscheck, ptop_ts_crosscheck, bool, 0444);
MODULE_PARM_DESC(crosscheck,
		 "Tests: allow PTOP_TS_CMDF_CROSSCHECK (a full walk with each incremental answer)");

atomic_long_t ptop_ts_open_files = ATOMIC_LONG_INIT(0);
atomic_long_t ptop_ts_answer_bytes = ATOMIC_LONG_INIT(0);
atomic_long_t ptop_ts_answers = ATOMIC_LONG_INIT(0);
atomic_long_t ptop_ts_steal_bytes = ATOMIC_LONG_INIT(0);

static int __init ptop_ts_init(void)
{
	int ret;

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
	ptop_ts_test_init();	/* test builds only */
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
	ptop_ts_test_exit();
	/* the requested sources first: no event is sent to a family going */
	ptop_ts_listen_exit();
	/*
	 * then the entry points, before the probes: a pass reads each CPU's
	 * task, which only the switch probe keeps valid (the unwind of init
	 * has this order too)
	 */
	ptop_ts_nl_exit();
	ptop_ts_proc_exit();
	ptop_ts_hooks_detach();
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
