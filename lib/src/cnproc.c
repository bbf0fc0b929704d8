// SPDX-License-Identifier: GPL-2.0
/* proc connector: fork/exec/exit events */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "cnproc.h"
#include "nl_recv.h"

static int cnproc_send_op(int fd, enum proc_cn_mcast_op op)
{
	struct {
		struct nlmsghdr n;
		struct cn_msg cn;
		enum proc_cn_mcast_op op;
	} __attribute__((packed)) req;
	ssize_t n;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = sizeof(req);
	req.n.nlmsg_type = NLMSG_DONE;
	req.n.nlmsg_pid = getpid();
	req.cn.id.idx = CN_IDX_PROC;
	req.cn.id.val = CN_VAL_PROC;
	req.cn.len = sizeof(op);
	req.op = op;
	do {
		n = send(fd, &req, sizeof(req), 0);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : 0;
}

int ptop_cnproc_open(struct ptop_cnproc *c, int rcvbuf)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = CN_IDX_PROC,
	};
	int fd, ret;

	c->fd = -1;
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    NETLINK_CONNECTOR);
	if (fd < 0)
		return errno == EPROTONOSUPPORT ? -ENOENT : -errno;
	if (rcvbuf > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		goto err_close;
	}
	ret = cnproc_send_op(fd, PROC_CN_MCAST_LISTEN);
	if (ret)
		goto err_close;
	c->fd = fd;
	return 0;

err_close:
	close(fd);
	return ret;
}

void ptop_cnproc_close(struct ptop_cnproc *c)
{
	if (c->fd < 0)
		return;
	cnproc_send_op(c->fd, PROC_CN_MCAST_IGNORE);
	close(c->fd);
	c->fd = -1;
}

static int cnproc_event(const struct proc_event *pe,
			struct ptop_cnproc_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->time_ns = pe->timestamp_ns;
	switch (pe->what) {
	case PROC_EVENT_FORK:
		ev->what = PTOP_CNPROC_FORK;
		ev->pid = pe->event_data.fork.child_pid;
		ev->tgid = pe->event_data.fork.child_tgid;
		ev->ppid = pe->event_data.fork.parent_pid;
		ev->ptgid = pe->event_data.fork.parent_tgid;
		return 1;
	case PROC_EVENT_EXEC:
		ev->what = PTOP_CNPROC_EXEC;
		ev->pid = pe->event_data.exec.process_pid;
		ev->tgid = pe->event_data.exec.process_tgid;
		return 1;
	case PROC_EVENT_EXIT:
		ev->what = PTOP_CNPROC_EXIT;
		ev->pid = pe->event_data.exit.process_pid;
		ev->tgid = pe->event_data.exit.process_tgid;
		ev->ppid = pe->event_data.exit.parent_pid;
		ev->ptgid = pe->event_data.exit.parent_tgid;
		ev->exit_code = pe->event_data.exit.exit_code;
		return 1;
	default:
		return 0;
	}
}

int ptop_cnproc_drain(struct ptop_cnproc *c, ptop_cnproc_fn fn, void *arg,
		      int *lost)
{
	unsigned char buf[8192] __attribute__((aligned(8)));
	struct ptop_cnproc_event ev;
	struct proc_event pe;
	const struct nlmsghdr *n;
	const struct cn_msg *cn;
	ssize_t len;
	int ret;

	if (c->fd < 0)
		return -EBADF;
	for (;;) {
		len = ptop_nl_recv(c->fd, buf, sizeof(buf), lost);
		if (len == -EAGAIN)
			return 0;
		if (len < 0)
			return len;
		for (n = (struct nlmsghdr *)buf; NLMSG_OK(n, len);
		     n = NLMSG_NEXT(n, len)) {
			if (n->nlmsg_type == NLMSG_ERROR ||
			    n->nlmsg_type == NLMSG_NOOP)
				continue;
			if (n->nlmsg_len < NLMSG_LENGTH(sizeof(*cn)))
				continue;
			cn = NLMSG_DATA(n);
			if (cn->id.idx != CN_IDX_PROC ||
			    cn->id.val != CN_VAL_PROC ||
			    cn->len < offsetof(struct proc_event, event_data) +
				      sizeof(struct exit_proc_event) ||
			    n->nlmsg_len < NLMSG_LENGTH(sizeof(*cn) + cn->len))
				continue;
			/* cn->data is only 4-byte aligned: copy it out */
			memset(&pe, 0, sizeof(pe));
			memcpy(&pe, cn->data, cn->len < sizeof(pe) ?
			       cn->len : sizeof(pe));
			if (!cnproc_event(&pe, &ev))
				continue;
			ret = fn(arg, &ev);
			if (ret)
				return ret;
		}
	}
}
