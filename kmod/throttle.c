// SPDX-License-Identifier: GPL-2.0
/*
 * How often a reader may make the module take a pass. Every pass works
 * host-wide (an instant on every CPU, the exit tails folded under the
 * global lock) and holds the one pass lock that every other reader waits
 * for, so a reader looping on "since N" writes disturbs every CPU and
 * starves the other readers. Readers other than root of the initial pid
 * namespace (a group member, a container's root) get passes at most
 * every pass_interval_us per uid, after a burst of pass_burst (a paged
 * answer's writes come back to back): a write beyond that sleeps until
 * its turn (killable), before any lock. Root of the initial namespace,
 * who can disturb the machine in many other ways, never waits.
 *
 * One slot a uid hash bucket (uids that share one share its rate: only
 * stricter), each the time its next pass is due (GCRA).
 */
#include <linux/hash.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include "throttle.h"

#define THROTTLE_BITS		6
#define INTERVAL_MAX_US		1000000U	/* 1 s */
#define BURST_MAX		1024U

static DEFINE_SPINLOCK(throttle_lock);
static u64 due[1U << THROTTLE_BITS];	/* ns, ktime_get_ns() */
static atomic_long_t waits = ATOMIC_LONG_INIT(0);
static atomic64_t wait_ns = ATOMIC64_INIT(0);

static unsigned int pass_interval_us = 10000;
static unsigned int pass_burst = 8;

static int set_bounded(const char *val, const struct kernel_param *kp,
		       unsigned int lo, unsigned int hi)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v < lo || v > hi)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static int set_interval(const char *val, const struct kernel_param *kp)
{
	return set_bounded(val, kp, 0, INTERVAL_MAX_US);
}

static int set_burst(const char *val, const struct kernel_param *kp)
{
	return set_bounded(val, kp, 1, BURST_MAX);
}

static const struct kernel_param_ops interval_ops = {
	.set = set_interval,
	.get = param_get_uint,
};

static const struct kernel_param_ops burst_ops = {
	.set = set_burst,
	.get = param_get_uint,
};

module_param_cb(pass_interval_us, &interval_ops, &pass_interval_us, 0644);
MODULE_PARM_DESC(pass_interval_us,
		 "Passes of a uid other than root at most this often, in us (default 10000, 0: no limit, at most 1000000)");
module_param_cb(pass_burst, &burst_ops, &pass_burst, 0644);
MODULE_PARM_DESC(pass_burst,
		 "Passes such a uid may take back to back before the limit (default 8, 1 to 1024)");

static bool exempt(kuid_t uid, struct pid_namespace *ns)
{
	return uid_eq(uid, GLOBAL_ROOT_UID) && ns == &init_pid_ns;
}

/*
 * Before a pass for a reader with euid uid in pid namespace ns: 0 at
 * its turn (at once within its burst), -EINTR when killed while waiting.
 */
int ptop_ts_throttle(kuid_t uid, struct pid_namespace *ns)
{
	u64 iv = (u64)READ_ONCE(pass_interval_us) * NSEC_PER_USEC;
	u64 slack = iv * READ_ONCE(pass_burst);
	u32 slot = hash_32(__kuid_val(uid), THROTTLE_BITS);
	u64 now, t, wait = 0;
	ktime_t kt;

	if (!iv || exempt(uid, ns))
		return 0;
	spin_lock(&throttle_lock);
	now = ktime_get_ns();
	t = max(due[slot], now) + iv;
	due[slot] = t;
	spin_unlock(&throttle_lock);
	if (t - now > slack)
		wait = t - now - slack;
	if (!wait)
		return 0;
	atomic_long_inc(&waits);
	atomic64_add(wait, &wait_ns);
	kt = ns_to_ktime(wait);
	set_current_state(TASK_KILLABLE);
	schedule_hrtimeout(&kt, HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
	return fatal_signal_pending(current) ? -EINTR : 0;
}

void ptop_ts_throttle_counts(long *n, u64 *ns)
{
	*n = atomic_long_read(&waits);
	*ns = atomic64_read(&wait_ns);
}
