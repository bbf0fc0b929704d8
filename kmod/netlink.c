// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family PTOP_TS_FAMILY_NAME: PTOP_TS_CMD_PIDS as a dump.
 *
 * The dump's start callback takes the whole answer in one pass (the same
 * consistent snapshot as /proc/taskstats); the dump callback then pages it
 * out, cb->args[1] holding the next record index, so nothing is lost to a
 * full socket buffer: netlink calls the dump again when there is room.
 * Every message carries PTOP_TS_A_ANSWER; the first ones the CPUs, in as
 * many PTOP_TS_A_CPUS attributes as their number needs (put_cpus()).
 *
 * A dump with PTOP_TS_CMDF_STEAL makes its socket a steal listener, and
 * PTOP_TS_CMD_LISTEN (A_FLAGS 1/0) an events listener, until the socket
 * is released (listen.c). Events go to each events listener's socket, one
 * PTOP_TS_CMD_EVENT message per event (events.c says why not to the
 * multicast group PTOP_TS_EVENTS_GROUP, which stays, needing
 * CAP_NET_ADMIN to join where the kernel can check that: compat.h).
 */
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "compat.h"
#include "activity.h"
#include "listen.h"
#include "main.h"
#include "pass.h"
#include "throttle.h"
#include "netlink.h"

struct ptop_ts_dump {
	struct ptop_ts_query q;
	struct ptop_ts_snap snap;
};

static const struct nla_policy ptop_ts_nl_policy[PTOP_TS_A_MAX + 1] = {
	[PTOP_TS_A_FLAGS] = { .type = NLA_U32 },
	[PTOP_TS_A_SINCE_SEQ] = { .type = NLA_U64 },
	[PTOP_TS_A_START_PID] = { .type = NLA_U32 },
	[PTOP_TS_A_MAX_COUNT] = { .type = NLA_U32 },
	/* replies and events only */
	[PTOP_TS_A_ANSWER] = { .type = NLA_REJECT },
	[PTOP_TS_A_CPUS] = { .type = NLA_REJECT },
	[PTOP_TS_A_RECORD] = { .type = NLA_REJECT },
	[PTOP_TS_A_EVENT] = { .type = NLA_REJECT },
	[PTOP_TS_A_PAD] = { .type = NLA_REJECT },
};

static struct genl_family ptop_ts_nl_family;

static struct nlattr **dump_attrs(struct netlink_callback *cb)
{
	return ptop_genl_dump_attrs(cb);
}

static int ptop_ts_nl_start(struct netlink_callback *cb)
{
	struct nlattr **attrs = dump_attrs(cb);
	struct ptop_ts_dump *d;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL_ACCOUNT);
	if (!d)
		return -ENOMEM;
	d->q.cmd.cmd = PTOP_TS_CMD_PIDS;
	if (attrs[PTOP_TS_A_FLAGS])
		d->q.cmd.flags = nla_get_u32(attrs[PTOP_TS_A_FLAGS]);
	if (attrs[PTOP_TS_A_SINCE_SEQ])
		d->q.cmd.since_seq = nla_get_u64(attrs[PTOP_TS_A_SINCE_SEQ]);
	if (attrs[PTOP_TS_A_START_PID])
		d->q.cmd.start_pid = nla_get_u32(attrs[PTOP_TS_A_START_PID]);
	if (attrs[PTOP_TS_A_MAX_COUNT])
		d->q.cmd.max_count = nla_get_u32(attrs[PTOP_TS_A_MAX_COUNT]);
	ret = ptop_ts_cmd_check(&d->q.cmd);
	if (ret)
		goto err_free;
	/* in the requester's context, without genl_mutex (parallel_ops) */
	ret = ptop_ts_throttle(current_euid(), task_active_pid_ns(current));
	if (ret)
		goto err_free;
	if (d->q.cmd.flags & PTOP_TS_CMDF_STEAL) {
		ret = ptop_ts_listen_nl(sock_net(cb->skb->sk),
					NETLINK_CB(cb->skb).portid,
					PTOP_TS_LISTEN_STEAL, true);
		if (ret)
			goto err_free;
	}

	/* start runs in the requester's context */
	d->q.pid_ns = get_pid_ns(task_active_pid_ns(current));
	d->q.user_ns = get_user_ns(current_user_ns());
	d->q.uid = current_euid();
	ptop_ts_act_reader_get();
	ret = ptop_ts_snap_take(&d->q, &d->snap);
	if (ret)
		goto err_ns;
	cb->args[0] = (long)d;
	cb->args[1] = 0;
	atomic_long_inc(&ptop_ts_open_files);
	return 0;

err_ns:
	ptop_ts_act_reader_put();
	put_user_ns(d->q.user_ns);
	put_pid_ns(d->q.pid_ns);
err_free:
	kfree(d);
	return ret;
}

static int ptop_ts_nl_done(struct netlink_callback *cb)
{
	struct ptop_ts_dump *d = (struct ptop_ts_dump *)cb->args[0];

	if (!d)
		return 0;
	ptop_ts_snap_free(&d->snap);
	ptop_ts_act_reader_put();
	put_user_ns(d->q.user_ns);
	put_pid_ns(d->q.pid_ns);
	kfree(d);
	cb->args[0] = 0;
	atomic_long_dec(&ptop_ts_open_files);
	return 0;
}

/*
 * The next CPUs that fit in this message as one PTOP_TS_A_CPUS attribute
 * (whole struct ptop_ts_cpu entries): with hundreds of possible CPUs they
 * take several messages, which a reader concatenates; records follow
 * once every CPU has gone out. Returns how many went in.
 */
static u32 put_cpus(struct sk_buff *skb, const struct ptop_ts_snap *snap,
		    u32 from)
{
	int room = skb_tailroom(skb) - NLA_HDRLEN;
	u32 n;

	if (room < (int)sizeof(struct ptop_ts_cpu))
		return 0;
	n = min_t(u32, snap->ans->ncpu - from,
		  room / sizeof(struct ptop_ts_cpu));
	if (nla_put(skb, PTOP_TS_A_CPUS, n * sizeof(struct ptop_ts_cpu),
		    &snap->cpus[from]))
		return 0;
	return n;
}

static int ptop_ts_nl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ptop_ts_dump *d = (struct ptop_ts_dump *)cb->args[0];
	struct ptop_ts_answer *ans = d->snap.ans;
	u32 i = cb->args[1], c = cb->args[3], sent = 0;
	void *hdr;

	if (i >= ans->count && c >= ans->ncpu && cb->args[2])
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ptop_ts_nl_family, NLM_F_MULTI, PTOP_TS_CMD_PIDS);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put(skb, PTOP_TS_A_ANSWER, sizeof(*ans), ans))
		goto err_cancel;
	if (c < ans->ncpu) {
		u32 n = put_cpus(skb, &d->snap, c);

		c += n;
		sent += n;
	}
	for (; c >= ans->ncpu && i < ans->count; i++, sent++)
		if (nla_put(skb, PTOP_TS_A_RECORD,
			    sizeof(struct ptop_ts_record), &d->snap.recs[i]))
			break;
	/* nothing fit beside the header: the reader's buffer is too small */
	if (!sent && (i < ans->count || c < ans->ncpu) && cb->args[2])
		goto err_cancel;
	genlmsg_end(skb, hdr);
	cb->args[1] = i;
	cb->args[2] = 1;	/* a message went out */
	cb->args[3] = c;
	return skb->len;

err_cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int ptop_ts_nl_listen(struct sk_buff *skb, struct genl_info *info)
{
	bool on = true;

	if (info->attrs[PTOP_TS_A_FLAGS])
		on = nla_get_u32(info->attrs[PTOP_TS_A_FLAGS]) != 0;
	return ptop_ts_listen_nl(genl_info_net(info), info->snd_portid,
				 PTOP_TS_LISTEN_EVENTS, on);
}

static const struct genl_ops ptop_ts_nl_ops[] = {
	{
		.cmd = PTOP_TS_CMD_PIDS,
		.flags = GENL_ADMIN_PERM,
		.start = ptop_ts_nl_start,
		.dumpit = ptop_ts_nl_dump,
		.done = ptop_ts_nl_done,
	},
	{
		.cmd = PTOP_TS_CMD_LISTEN,
		.flags = GENL_ADMIN_PERM,
		.doit = ptop_ts_nl_listen,
	},
};

static const struct genl_multicast_group ptop_ts_nl_mcgrps[] = {
	{ .name = PTOP_TS_EVENTS_GROUP, .flags = PTOP_TS_MCGRP_ADMIN },
};

static struct genl_family ptop_ts_nl_family __ro_after_init = {
	.name = PTOP_TS_FAMILY_NAME,
	.version = PTOP_TS_FAMILY_VERSION,
	.maxattr = PTOP_TS_A_MAX,
	.policy = ptop_ts_nl_policy,
	.module = THIS_MODULE,
	.ops = ptop_ts_nl_ops,
	.n_ops = ARRAY_SIZE(ptop_ts_nl_ops),
	.mcgrps = ptop_ts_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ptop_ts_nl_mcgrps),
	/*
	 * Not under genl_mutex: a pass over 100k tasks (and the
	 * synchronize_rcu() of a LISTEN 0) would stall every other
	 * genetlink family of the machine for as long. The callbacks need
	 * no outer lock: a pass takes ptop_ts_pass_lock, listen.c its own
	 * locks, and netlink runs one socket's dump callbacks at a time.
	 */
	.parallel_ops = true,
#ifdef PTOP_HAVE_GENL_RESV_START_OP
	.resv_start_op = PTOP_TS_CMD_PIDS,
#endif
};

/*
 * One event to the socket portid of the initial network namespace (the
 * family is not netnsok: no other one can listen). Never sleeps: a full
 * receive buffer drops it (the socket then reads ENOBUFS). 0 or -errno.
 */
int ptop_ts_nl_event(u32 portid, const struct ptop_ts_event *ev)
{
	struct sk_buff *skb;
	void *hdr;

	skb = genlmsg_new(nla_total_size(sizeof(*ev)), GFP_NOWAIT | __GFP_NOWARN);
	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put(skb, 0, 0, &ptop_ts_nl_family, 0, PTOP_TS_CMD_EVENT);
	if (!hdr || nla_put(skb, PTOP_TS_A_EVENT, sizeof(*ev), ev)) {
		nlmsg_free(skb);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return genlmsg_unicast(&init_net, skb, portid);
}

int ptop_ts_nl_init(void)
{
	return genl_register_family(&ptop_ts_nl_family);
}

void ptop_ts_nl_exit(void)
{
	genl_unregister_family(&ptop_ts_nl_family);
}
