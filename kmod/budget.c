// SPDX-License-Identifier: GPL-2.0
/*
 * What readers may pin: an answer stays in kernel memory from the pass
 * that takes it until it is read out or its file (netlink dump) goes, so
 * a reader that opens many files and never reads holds many answers.
 *
 *  - Answers are allocated with __GFP_ACCOUNT: they are charged to the
 *    memory cgroup of the task that asked, whose memory.max then bounds
 *    them as it bounds the reader's own memory.
 *  - Answers of readers other than root (global uid 0) are also bounded
 *    per uid (user_answer_kb) and all together (all_answer_kb), for
 *    readers without a memcg limit (reader_gid makes any group member a
 *    reader). A pass that would go beyond either is refused with EBUSY
 *    before anything is allocated, and counted (answers_refused in the
 *    state file). Root is counted, never refused: it can pin memory in
 *    many other ways.
 *
 * The defaults are 1/32 (per uid) and 1/8 (together) of RAM; both can be
 * changed at load time and later by root (module parameters), within
 * [1 MiB, RAM / 2]; a value outside is refused with EINVAL.
 */
#include <linux/cred.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include "main.h"
#include "budget.h"

#define BUDGET_MIN_KB	1024UL

struct uid_use {
	struct hlist_node node;
	kuid_t uid;
	size_t bytes;
};

static DEFINE_SPINLOCK(budget_lock);
static DEFINE_HASHTABLE(uid_hash, 6);
static size_t nonroot_bytes;		/* all answers of non-root readers */
static unsigned long user_kb, all_kb;	/* 0: the default, set at init */
static atomic_long_t refused = ATOMIC_LONG_INIT(0);

static unsigned long ram_kb(void)
{
	return totalram_pages() << (PAGE_SHIFT - 10);
}

static int set_budget(const char *val, const struct kernel_param *kp)
{
	unsigned long v;
	int ret;

	ret = kstrtoul(val, 0, &v);
	if (ret)
		return ret;
	if (v < BUDGET_MIN_KB || v > ram_kb() / 2)
		return -EINVAL;
	WRITE_ONCE(*(unsigned long *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops budget_ops = {
	.set = set_budget,
	.get = param_get_ulong,
};

module_param_cb(user_answer_kb, &budget_ops, &user_kb, 0644);
MODULE_PARM_DESC(user_answer_kb,
		 "KiB of answers one non-root uid may hold at once (default RAM/32)");
module_param_cb(all_answer_kb, &budget_ops, &all_kb, 0644);
MODULE_PARM_DESC(all_answer_kb,
		 "KiB of answers all non-root readers may hold at once (default RAM/8)");

void ptop_ts_budget_init(void)
{
	unsigned long ram = ram_kb();

	if (!user_kb)
		user_kb = max(ram / 32, BUDGET_MIN_KB);
	if (!all_kb)
		all_kb = max(ram / 8, BUDGET_MIN_KB);
}

static struct uid_use *find(kuid_t uid)
{
	struct uid_use *u;

	hash_for_each_possible(uid_hash, u, node, __kuid_val(uid))
		if (uid_eq(u->uid, uid))
			return u;
	return NULL;
}

/* Charge size bytes to uid: 0, or -EBUSY over budget. Process context. */
static int charge(kuid_t uid, size_t size)
{
	struct uid_use *u, *fresh;
	size_t user_max = (size_t)READ_ONCE(user_kb) << 10;
	size_t all_max = (size_t)READ_ONCE(all_kb) << 10;
	int ret = 0;

	if (uid_eq(uid, GLOBAL_ROOT_UID))
		return 0;
	/* at the memcg limit: ENOMEM for the reader, not its OOM kill */
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT |
			__GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!fresh)
		return -ENOMEM;
	spin_lock(&budget_lock);
	u = find(uid);
	if (nonroot_bytes + size > all_max ||
	    (u ? u->bytes : 0) + size > user_max) {
		ret = -EBUSY;
		goto out;
	}
	if (!u) {
		u = fresh;
		fresh = NULL;
		u->uid = uid;
		hash_add(uid_hash, &u->node, __kuid_val(uid));
	}
	u->bytes += size;
	nonroot_bytes += size;
out:
	spin_unlock(&budget_lock);
	kfree(fresh);
	if (ret)
		atomic_long_inc(&refused);
	return ret;
}

static void uncharge(kuid_t uid, size_t size)
{
	struct uid_use *u, *gone = NULL;

	if (uid_eq(uid, GLOBAL_ROOT_UID))
		return;
	spin_lock(&budget_lock);
	u = find(uid);
	if (!WARN_ON_ONCE(!u || u->bytes < size)) {
		u->bytes -= size;
		nonroot_bytes -= size;
		if (!u->bytes) {
			hash_del(&u->node);
			gone = u;
		}
	}
	spin_unlock(&budget_lock);
	kfree(gone);
}

/*
 * A zeroed answer buffer of size bytes for a reader with uid, charged to
 * the caller's memcg and to the budgets; NULL with *err set to -EBUSY
 * (over budget) or -ENOMEM.
 */
void *ptop_ts_answer_alloc(kuid_t uid, size_t size, int *err)
{
	void *buf;

	*err = charge(uid, size);
	if (*err)
		return NULL;
	buf = kvzalloc(size, GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
			 __GFP_NOWARN);
	if (!buf) {
		uncharge(uid, size);
		*err = -ENOMEM;
		return NULL;
	}
	atomic_long_add(size, &ptop_ts_answer_bytes);
	return buf;
}

void ptop_ts_answer_free(kuid_t uid, void *buf, size_t size)
{
	if (!buf)
		return;
	kvfree(buf);
	uncharge(uid, size);
	atomic_long_sub(size, &ptop_ts_answer_bytes);
}

void ptop_ts_budget_counts(size_t *nonroot, long *nrefused,
			   unsigned long *user_max_kb,
			   unsigned long *all_max_kb)
{
	spin_lock(&budget_lock);
	*nonroot = nonroot_bytes;
	spin_unlock(&budget_lock);
	*nrefused = atomic_long_read(&refused);
	*user_max_kb = READ_ONCE(user_kb);
	*all_max_kb = READ_ONCE(all_kb);
}
