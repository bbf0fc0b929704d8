// SPDX-License-Identifier: GPL-2.0
/* Process events from the ptop_taskstats module (see kmod_events.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "../kmod_events.h"
#include "nl_errno.h"

#define EV_QUEUE	256
#define EV_RCVBUF	(4 << 20)

struct ptop_kmod_events {
	struct nl_sock *sk;
	int family;
	struct ptop_ts_event q[EV_QUEUE];
	unsigned int head, n;		/* decoded, not yet returned */
};

static int ev_valid(struct nl_msg *msg, void *arg)
{
	struct ptop_kmod_events *h = arg;
	struct nlmsghdr *nh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nh);
	struct nlattr *a;
	int rem;

	if (nh->nlmsg_type != h->family || gh->cmd != PTOP_TS_CMD_EVENT)
		return NL_SKIP;
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0),
			  rem) {
		struct ptop_ts_event *ev;

		if (nla_type(a) != PTOP_TS_A_EVENT || h->n == EV_QUEUE)
			continue;
		ev = &h->q[(h->head + h->n++) % EV_QUEUE];
		memset(ev, 0, sizeof(*ev));
		memcpy(ev, nla_data(a),
		       (size_t)nla_len(a) < sizeof(*ev) ? (size_t)nla_len(a) :
							  sizeof(*ev));
	}
	return NL_OK;
}

/* PTOP_TS_CMD_LISTEN with A_FLAGS = on, acknowledged */
static int listen_cmd(struct ptop_kmod_events *h, uint32_t on)
{
	struct nl_msg *msg = nlmsg_alloc();
	int ret;

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, h->family, 0, 0,
			 PTOP_TS_CMD_LISTEN, PTOP_TS_FAMILY_VERSION) ||
	    nla_put_u32(msg, PTOP_TS_A_FLAGS, on)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	ret = nl_send_sync(h->sk, msg);	/* frees msg, waits for the ack */
	return ret < 0 ? ptop_nl_errno(ret) : 0;
}

int ptop_kmod_events_open(struct ptop_kmod_events **out, char *err,
			  size_t errlen)
{
	struct ptop_kmod_events *h;
	int ret, grp;

	*out = NULL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->sk = nl_socket_alloc();
	if (!h->sk) {
		free(h);
		return -ENOMEM;
	}
	ret = genl_connect(h->sk);
	if (ret < 0) {
		snprintf(err, errlen, "generic netlink: %s", nl_geterror(ret));
		ret = -ENOENT;
		goto fail;
	}
	h->family = genl_ctrl_resolve(h->sk, PTOP_TS_FAMILY_NAME);
	grp = genl_ctrl_resolve_grp(h->sk, PTOP_TS_FAMILY_NAME,
				    PTOP_TS_EVENTS_GROUP);
	if (h->family < 0 || grp < 0) {
		snprintf(err, errlen, "no genetlink family %s with group %s: the ptop_taskstats module is not loaded (or too old)",
			 PTOP_TS_FAMILY_NAME, PTOP_TS_EVENTS_GROUP);
		ret = -ENOENT;
		goto fail;
	}
	nl_socket_set_buffer_size(h->sk, EV_RCVBUF, 0);
	ret = nl_socket_add_membership(h->sk, grp);
	if (ret < 0) {
		ret = ptop_nl_errno(ret);
		snprintf(err, errlen, "joining %s/%s: %s", PTOP_TS_FAMILY_NAME,
			 PTOP_TS_EVENTS_GROUP,
			 ret == -EPERM ? "not allowed (needs CAP_NET_ADMIN)" :
					 strerror(-ret));
		goto fail;
	}
	ret = listen_cmd(h, 1);
	if (ret) {
		snprintf(err, errlen, "%s listen: %s", PTOP_TS_FAMILY_NAME,
			 ret == -EPERM ? "not allowed (needs CAP_NET_ADMIN)" :
					 strerror(-ret));
		goto fail;
	}
	/* events carry no sequence numbers of ours */
	nl_socket_disable_seq_check(h->sk);
	nl_socket_modify_cb(h->sk, NL_CB_VALID, NL_CB_CUSTOM, ev_valid, h);
	*out = h;
	return 0;

fail:
	nl_socket_free(h->sk);
	free(h);
	return ret;
}

int ptop_kmod_events_next(struct ptop_kmod_events *h, struct ptop_ts_event *ev,
			  int timeout_ms)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(h->sk), .events = POLLIN };
	int ret;

	while (!h->n) {
		ret = poll(&pfd, 1, timeout_ms);
		if (ret < 0)
			return -errno;
		if (!ret)
			return 0;
		ret = nl_recvmsgs_default(h->sk);
		/* libnl reports a receive buffer overrun (ENOBUFS) as NOMEM */
		if (ret == -NLE_NOMEM && h->n == 0)
			return -ENOBUFS;
		if (ret < 0 && h->n == 0)
			return ptop_nl_errno(ret);
	}
	*ev = h->q[h->head];
	h->head = (h->head + 1) % EV_QUEUE;
	h->n--;
	return 1;
}

void ptop_kmod_events_close(struct ptop_kmod_events *h)
{
	if (!h)
		return;
	/* closing the socket is enough: the module sees it released */
	nl_socket_free(h->sk);
	free(h);
}

int ptop_kmod_events_fd(const struct ptop_kmod_events *h)
{
	return nl_socket_get_fd(h->sk);
}

bool ptop_kmod_events_present(void)
{
	return !access("/sys/module/ptop_taskstats", F_OK);
}

const char *ptop_kmod_event_name(unsigned int type)
{
	switch (type) {
	case PTOP_TS_EV_FORK: return "fork";
	case PTOP_TS_EV_EXEC: return "exec";
	case PTOP_TS_EV_EXIT: return "exit";
	case PTOP_TS_EV_REPARENT: return "reparent";
	default: return "?";
	}
}
