// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_nl source: the ptop_taskstats module through its generic netlink
 * family (libnl-genl-3). Each read is one PIDS dump: the module takes the
 * answer in one pass when the dump starts and pages it out, so nothing is
 * dropped when the socket buffer is smaller than the answer. Needs
 * CAP_NET_ADMIN (the command is GENL_ADMIN_PERM).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "kmod_answer.h"
#include "nl_errno.h"
#include "../src.h"

#define KN_RCVBUF	(8 << 20)

struct kn_priv {
	struct nl_sock *sk;
	int family;
	struct ptop_kmod_since since;
	/* state of the dump being received */
	struct ptop_sample *out;
	struct ptop_ts_answer ans;
	size_t ans_len;		/* of its attribute (a newer header is longer) */
	int have_ans;
	int page;
	int bad;
};

static int kn_valid(struct nl_msg *msg, void *arg)
{
	struct kn_priv *p = arg;
	struct genlmsghdr *gh = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *a;
	int rem;

	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		void *d = nla_data(a);
		int len = nla_len(a);

		switch (nla_type(a)) {
		case PTOP_TS_A_ANSWER:
			if (p->have_ans)
				break;
			if ((size_t)len < sizeof(p->ans)) {
				p->bad = 1;
				return NL_SKIP;
			}
			memcpy(&p->ans, d, sizeof(p->ans));
			p->ans_len = len;
			p->have_ans = 1;
			break;
		case PTOP_TS_A_CPUS:
			if (!p->page)
				ptop_kmod_add_cpus(d, len / sizeof(struct ptop_ts_cpu),
						   p->out);
			break;
		case PTOP_TS_A_RECORD:
			if (ptop_kmod_add_records(d, 1, len, p->page > 0,
						  p->out))
				p->bad = 1;
			break;
		}
	}
	return NL_OK;
}

/* One dump; fills p->ans and p->out. */
static int kn_dump(struct ptop_src *src, const struct ptop_ts_cmd *cmd)
{
	struct kn_priv *p = src->priv;
	struct nl_msg *msg;
	int ret;

	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, p->family, 0,
			 NLM_F_DUMP, PTOP_TS_CMD_PIDS, PTOP_TS_FAMILY_VERSION) ||
	    nla_put_u32(msg, PTOP_TS_A_FLAGS, cmd->flags) ||
	    nla_put_u64(msg, PTOP_TS_A_SINCE_SEQ, cmd->since_seq) ||
	    nla_put_u32(msg, PTOP_TS_A_START_PID, cmd->start_pid) ||
	    nla_put_u32(msg, PTOP_TS_A_MAX_COUNT, cmd->max_count)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	p->have_ans = 0;
	p->bad = 0;
	ret = nl_send_auto(p->sk, msg);
	nlmsg_free(msg);
	if (ret >= 0)
		ret = nl_recvmsgs_default(p->sk);
	if (ret < 0) {
		ptop_src_set_err(src, "%s dump: %s", PTOP_TS_FAMILY_NAME,
				 nl_geterror(ret));
		return ptop_nl_errno(ret);
	}
	if (p->bad || !p->have_ans) {
		ptop_src_set_err(src, "%s dump: bad answer", PTOP_TS_FAMILY_NAME);
		return -EPROTO;
	}
	return ptop_kmod_check_answer(&p->ans, p->ans_len, src->err,
				      sizeof(src->err));
}

static int kmod_nl_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct kn_priv *p = src->priv;
	uint64_t since = p->since.seq;
	struct ptop_ts_answer first;
	struct ptop_ts_cmd cmd;
	int ret;

	ptop_kmod_cmd(&p->since, &cmd);
	p->out = out;
	for (p->page = 0;; p->page++) {
		ret = kn_dump(src, &cmd);
		if (ret)
			break;
		if (!p->page)
			first = p->ans;
		else if (p->ans.time_ns > first.time_ns)
			/* each page is a pass of its own: the window spans them */
			out->window_ns = p->ans.time_ns - first.time_ns;
		ret = ptop_kmod_next_page(&p->ans, p->page, &cmd, out,
					  src->err, sizeof(src->err));
		if (ret <= 0)
			break;
	}
	p->out = NULL;
	if (!ret) {
		ptop_kmod_finish(&p->since, since, &first, out);
		src->caps = ptop_kmod_caps(&p->since);
	}
	return ret;
}

static void kmod_nl_close(struct ptop_src *src)
{
	struct kn_priv *p = src->priv;

	if (!p)
		return;
	nl_socket_free(p->sk);
	free(p);
	src->priv = NULL;
}

static int kmod_nl_open(struct ptop_src *src)
{
	struct ptop_sample probe;
	struct kn_priv *p;
	int ret;

	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	src->priv = p;
	ptop_kmod_since_init(&p->since, src->cfg.need);
	p->sk = nl_socket_alloc();
	if (!p->sk) {
		ret = -ENOMEM;
		goto err;
	}
	ret = genl_connect(p->sk);
	if (ret < 0) {
		ptop_src_set_err(src, "generic netlink: %s", nl_geterror(ret));
		ret = -ENOENT;
		goto err;
	}
	p->family = genl_ctrl_resolve(p->sk, PTOP_TS_FAMILY_NAME);
	if (p->family < 0) {
		ptop_src_set_err(src, "no family %s (the module is not loaded): modprobe ptop_taskstats",
				 PTOP_TS_FAMILY_NAME);
		ret = -ENOENT;
		goto err;
	}
	nl_socket_set_buffer_size(p->sk, KN_RCVBUF, 0);
	nl_socket_modify_cb(p->sk, NL_CB_VALID, NL_CB_CUSTOM, kn_valid, p);

	/* ask once now, so that "not allowed" shows at open */
	ptop_sample_init(&probe);
	ret = kmod_nl_read(src, &probe);
	ptop_sample_free(&probe);
	p->since.seq = 0;
	if (ret == -EPERM || ret == -EACCES) {
		ptop_src_set_err(src, "%s: not allowed (needs CAP_NET_ADMIN)",
				 PTOP_TS_FAMILY_NAME);
		goto err;
	}
	if (ret)
		goto err;
	src->caps = ptop_kmod_caps(&p->since);
	ptop_kmod_note(src, &p->since);
	return 0;

err:
	kmod_nl_close(src);
	return ret;
}

const struct ptop_src_ops ptop_src_kmod_nl_ops = {
	.name = "kmod_nl",
	.desc = "ptop_taskstats module via generic netlink",
	.open = kmod_nl_open,
	.read = kmod_nl_read,
	.close = kmod_nl_close,
	.asks_net_admin = true,
};
