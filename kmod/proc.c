// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/taskstats: write() one struct ptop_ts_cmd, then read() the answer,
 * taken at write time into a buffer owned by this open file. Readers with
 * their own open files do not disturb each other. Mode 0600 root, or 0660
 * with group reader_gid: the protocol needs a write before each read; and
 * CAP_SYS_PTRACE for a reader outside that group (may_open()).
 *
 * /proc/ptop_taskstats_state: the module's counters and allocations (ptop
 * --version, tests); root only, or 0440 with group reader_gid.
 */
#include <generated/utsrelease.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/user_namespace.h>
#include "compat.h"
#include "acct.h"
#include "acct_exit.h"
#include "activity.h"
#include "activity_orphans.h"
#include "budget.h"
#include "events.h"
#include "exit_ring.h"
#include "hooks.h"
#include "listen.h"
#include "main.h"
#include "pass_pending.h"
#include "pass_ran.h"
#include "record.h"
#include "seq.h"
#include "pass.h"
#include "steal.h"
#include "throttle.h"
#include "proc.h"

#define PTOP_TS_STATE_NAME "ptop_taskstats_state"

struct ptop_ts_file {
	struct mutex lock;		/* one write or read at a time */
	struct ptop_ts_query q;
	struct ptop_ts_snap snap;
	size_t off;
	bool asked;
	bool steal;			/* a steal listener (listen.c) */
};

static struct proc_dir_entry *pde_ts, *pde_state;

static int reader_gid = -1;
module_param(reader_gid, int, 0444);
MODULE_PARM_DESC(reader_gid,
		 "Group allowed to read /proc/taskstats (default -1: root only)");

/*
 * Beyond the file mode: an answer holds every task of the reader's pid
 * namespace, exit codes included, which /proc shows only to a reader
 * ptrace may allow. So a reader is a member of reader_gid (the file's
 * group, given by root at load), or has CAP_SYS_PTRACE in the initial
 * user namespace; root of a container without a user namespace passes
 * the mode but not this unless it kept that capability.
 */
static int may_open(void)
{
	kgid_t kgid = make_kgid(&init_user_ns, reader_gid);

	if (gid_valid(kgid) && in_group_p(kgid))
		return 0;
	return capable(CAP_SYS_PTRACE) ? 0 : -EPERM;
}

static int ptop_ts_open(struct inode *inode, struct file *file)
{
	struct ptop_ts_file *f;
	int ret = may_open();

	if (ret)
		return ret;
	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	f->q.pid_ns = get_pid_ns(task_active_pid_ns(current));
	f->q.user_ns = get_user_ns(file->f_cred->user_ns);
	file->private_data = f;
	atomic_long_inc(&ptop_ts_open_files);
	ptop_ts_act_reader_get();
	return stream_open(inode, file);
}

static int ptop_ts_release(struct inode *inode, struct file *file)
{
	struct ptop_ts_file *f = file->private_data;

	if (f->steal)
		ptop_ts_listen_file(false);
	ptop_ts_snap_free(&f->snap);
	put_pid_ns(f->q.pid_ns);
	put_user_ns(f->q.user_ns);
	mutex_destroy(&f->lock);
	kfree(f);
	atomic_long_dec(&ptop_ts_open_files);
	ptop_ts_act_reader_put();
	return 0;
}

static ssize_t ptop_ts_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct ptop_ts_file *f = file->private_data;
	struct ptop_ts_cmd cmd;
	int ret;

	if (count != sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(&cmd, buf, sizeof(cmd)))
		return -EFAULT;
	ret = ptop_ts_cmd_check(&cmd);
	if (ret)
		return ret;
	ret = ptop_ts_throttle(current_euid(), f->q.pid_ns);
	if (ret)
		return ret;

	mutex_lock(&f->lock);
	if ((cmd.flags & PTOP_TS_CMDF_STEAL) && !f->steal) {
		/* a listener until the file is released */
		f->steal = true;
		ptop_ts_listen_file(true);
	}
	f->q.cmd = cmd;
	f->q.uid = current_euid();	/* the writer pins the answer */
	f->off = 0;
	f->asked = false;
	ret = ptop_ts_snap_take(&f->q, &f->snap);
	if (!ret)
		f->asked = true;
	mutex_unlock(&f->lock);
	return ret ? ret : count;
}

static ssize_t ptop_ts_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	struct ptop_ts_file *f = file->private_data;
	ssize_t ret;
	size_t n;

	mutex_lock(&f->lock);
	if (!f->asked) {
		ret = -EINVAL;
		goto out;
	}
	n = min(count, f->snap.len - f->off);
	if (n && copy_to_user(buf, f->snap.buf + f->off, n)) {
		ret = -EFAULT;
		goto out;
	}
	f->off += n;
	ret = n;
	/* answer consumed: give the memory back now, reads return 0 */
	if (f->off == f->snap.len && f->snap.buf) {
		ptop_ts_snap_free(&f->snap);
		f->off = 0;
	}
out:
	mutex_unlock(&f->lock);
	return ret;
}

static const struct proc_ops ptop_ts_fops = {
	.proc_open = ptop_ts_open,
	.proc_release = ptop_ts_release,
	.proc_read = ptop_ts_read,
	.proc_write = ptop_ts_write,
};

static int ptop_ts_state_show(struct seq_file *m, void *v)
{
	long live, dead, nomem, nsteal, nevents, sent, failed, walks, tails;
	long throttled;
	u64 throttled_ns;
	long grown, grow_refused, pend, pend_waited, pend_unsettled;
	struct ptop_ts_act_counts act;
	u64 orphans_capped;
	size_t orphan_bytes;
	u32 orphans;
	bool steal_on, events_on;
	u64 folds, unfolded, late, tail_ns, walk_ns, rcu_max_ns;
	u64 sw_calls, sw_ns, sw_clock_ns;
	u64 late_seq, late_from, late_to;
	unsigned long user_kb, all_kb;
	size_t nonroot;
	long refused;

	seq_printf(m, "version %s\n", PTOP_TS_VERSION);
	/* the kernel the module was built for (its vermagic): ptop --version */
	seq_printf(m, "built_for %s\n", UTS_RELEASE);
	seq_printf(m, "seq %llu\n", ptop_ts_seq_now());
	seq_printf(m, "answers %ld\n", atomic_long_read(&ptop_ts_answers));
	seq_printf(m, "open_files %ld\n", atomic_long_read(&ptop_ts_open_files));
	seq_printf(m, "answer_bytes %ld\n",
		   atomic_long_read(&ptop_ts_answer_bytes));
	ptop_ts_act_counts(&act);
	/* *_probe: that use of the probes is on (they stay: hooks.c) */
	seq_printf(m, "track_probe %s\n", act.attached ? "attached" : "detached");
	seq_printf(m, "track_readers %ld\n", act.readers);
	seq_printf(m, "track_entries %llu\n", act.entries);
	seq_printf(m, "track_full_walks %llu\n", act.full_walks);
	seq_printf(m, "track_marked_walks %llu\n", act.inc_walks);
	seq_printf(m, "track_lost %llu\n", act.lost);
	/* reparented children waiting for their father (activity_orphans.c) */
	ptop_ts_orphans_counts(&orphans, &orphan_bytes, &orphans_capped);
	seq_printf(m, "track_orphans %u\n", orphans);
	seq_printf(m, "track_orphan_bytes %zu\n", orphan_bytes);
	seq_printf(m, "track_orphans_max %u\n", PTOP_TS_ORPHANS_MAX);
	seq_printf(m, "track_orphan_bytes_max %u\n", PTOP_TS_ORPHAN_BYTES_MAX);
	seq_printf(m, "track_orphans_capped %llu\n", orphans_capped);
	/* probe_timing=1 (hooks.c): switches timed, their ns, a timing's own */
	ptop_ts_hooks_switch_time(&sw_calls, &sw_ns, &sw_clock_ns);
	seq_printf(m, "switch_probe_calls %llu\n", sw_calls);
	seq_printf(m, "switch_probe_ns %llu\n", sw_ns);
	seq_printf(m, "switch_probe_clock_ns %llu\n", sw_clock_ns);
	seq_printf(m, "exit_ring_used %u\n", ptop_ts_exits_used());
	seq_printf(m, "exit_ring_size %u\n", ptop_ts_exit_ring_size);
	seq_printf(m, "exits_total %llu\n", ptop_ts_exits_head());
	seq_printf(m, "max_records %u\n", ptop_ts_max_records);
	ptop_ts_snap_walk_times(&walk_ns, &rcu_max_ns);
	/* the last pass: its length, its longest RCU read section */
	seq_printf(m, "walk_last_ns %llu\n", walk_ns);
	seq_printf(m, "walk_rcu_max_ns %llu\n", rcu_max_ns);
	/* the last pass's seq and the ring span it owed as live groups */
	ptop_ts_snap_late_span(&late_seq, &late_from, &late_to);
	seq_printf(m, "walk_late_span %llu %llu %llu\n", late_seq, late_from,
		   late_to);
	/* answers grown during their walk since load, growths refused */
	ptop_ts_snap_grow_counts(&grown, &grow_refused);
	seq_printf(m, "walk_grows %ld\n", grown);
	seq_printf(m, "walk_grows_refused %ld\n", grow_refused);
	/*
	 * since load: the runs after the instants that reading a task's
	 * last stretch only would have kept (pass_ran.c); passes whose
	 * table of those tasks was full (that rule then applied)
	 */
	seq_printf(m, "walk_later_runs_ns %llu\n", ptop_ts_later_runs_ns());
	seq_printf(m, "walk_ran_full %ld\n", ptop_ts_ran_full_passes());
	/*
	 * since load: instants' tasks with a switch pending, settled after
	 * a walk's wait, waits that ran out (pass_pending.c)
	 */
	ptop_ts_pending_counts(&pend, &pend_waited, &pend_unsettled);
	seq_printf(m, "walk_pending %ld\n", pend);
	seq_printf(m, "walk_pending_waited %ld\n", pend_waited);
	seq_printf(m, "walk_pending_unsettled %ld\n", pend_unsettled);
	/* since load: dying groups a walk answered as their report had them */
	seq_printf(m, "walk_at_report %ld\n", ptop_ts_acct_at_report_walks());
	ptop_ts_acct_counts(&live, &dead, &nomem, &folds, &unfolded, &late);
	seq_printf(m, "acct_groups %ld\n", live);
	seq_printf(m, "acct_dead %ld\n", dead);
	seq_printf(m, "acct_nomem %ld\n", nomem);
	seq_printf(m, "acct_folds %llu\n", folds);
	seq_printf(m, "acct_unfolded_ns %llu\n", unfolded);
	seq_printf(m, "acct_late_ns %llu\n", late);
	ptop_ts_acct_tail_counts(&tails, &tail_ns);
	seq_printf(m, "thread_tails %ld\n", tails);
	seq_printf(m, "thread_tail_ns %llu\n", tail_ns);
	ptop_ts_listen_counts(&nsteal, &nevents, &steal_on, &events_on);
	seq_printf(m, "steal_listeners %ld\n", nsteal);
	seq_printf(m, "steal_probe %s\n", steal_on ? "attached" : "detached");
	seq_printf(m, "steal_clock %s\n", ptop_ts_steal_clock() ? "yes" : "no");
	seq_printf(m, "steal_bytes %ld\n", atomic_long_read(&ptop_ts_steal_bytes));
	seq_printf(m, "steal_charges %ld\n", ptop_ts_steal_switches());
	seq_printf(m, "steal_dropped %ld\n", ptop_ts_steal_dropped());
	seq_printf(m, "steal_entries %ld\n", ptop_ts_steal_entries());
	seq_printf(m, "event_listeners %ld\n", nevents);
	seq_printf(m, "exec_probe %s\n", events_on ? "attached" : "detached");
	ptop_ts_events_counts(&sent, &failed, &walks);
	seq_printf(m, "events_sent %ld\n", sent);
	seq_printf(m, "events_failed %ld\n", failed);
	seq_printf(m, "reparent_walks %ld\n", walks);
	ptop_ts_throttle_counts(&throttled, &throttled_ns);
	seq_printf(m, "pass_throttled %ld\n", throttled);
	seq_printf(m, "pass_throttled_ns %llu\n", throttled_ns);
	ptop_ts_budget_counts(&nonroot, &refused, &user_kb, &all_kb);
	seq_printf(m, "answer_bytes_nonroot %zu\n", nonroot);
	seq_printf(m, "answers_refused %ld\n", refused);
	seq_printf(m, "user_answer_kb %lu\n", user_kb);
	seq_printf(m, "all_answer_kb %lu\n", all_kb);
	return 0;
}

int ptop_ts_proc_init(void)
{
	int gid = reader_gid;
	kgid_t kgid = INVALID_GID;

	if (gid >= 0) {
		kgid = make_kgid(&init_user_ns, gid);
		if (!gid_valid(kgid)) {
			pr_err("reader_gid %d is not a valid group\n", gid);
			return -EINVAL;
		}
	}
	pde_ts = proc_create(PTOP_TS_PROC_NAME, gid_valid(kgid) ? 0660 : 0600,
			     NULL, &ptop_ts_fops);
	if (!pde_ts)
		return -ENOMEM;
	if (gid_valid(kgid))
		proc_set_user(pde_ts, GLOBAL_ROOT_UID, kgid);
	/*
	 * The counters tell when others' processes fork and exit and how
	 * much others read: for root, and the reader group that may take
	 * answers anyway.
	 */
	pde_state = proc_create_single(PTOP_TS_STATE_NAME,
				       gid_valid(kgid) ? 0440 : 0400, NULL,
				       ptop_ts_state_show);
	if (!pde_state) {
		proc_remove(pde_ts);
		return -ENOMEM;
	}
	if (gid_valid(kgid))
		proc_set_user(pde_state, GLOBAL_ROOT_UID, kgid);
	return 0;
}

void ptop_ts_proc_exit(void)
{
	proc_remove(pde_state);
	proc_remove(pde_ts);
}
