// SPDX-License-Identifier: GPL-2.0
/* proc connector: fork/exec/exit events */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/cn_proc.h>
#include <linux/filter.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "../cnproc.h"
#include "nl_recv.h"

/* an event is one small datagram (76 bytes): a slot per datagram */
#define CNPROC_SLOT	256

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

/*
 * Offsets in a datagram: nlmsghdr, cn_msg, then the proc_event. Classic
 * BPF loads words in network order: compare with ntohl() of the value.
 */
#define CN_EV		(NLMSG_HDRLEN + sizeof(struct cn_msg))
#define CN_WHAT		(CN_EV + offsetof(struct proc_event, what))
#define CN_FORK		(CN_EV + offsetof(struct proc_event, event_data.fork))
#define CN_CHILD_PID	(CN_FORK + offsetof(struct fork_proc_event, child_pid))
#define CN_CHILD_TGID	(CN_FORK + offsetof(struct fork_proc_event, child_tgid))

int ptop_cnproc_only_procs(struct ptop_cnproc *c)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, CN_WHAT),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ntohl(PROC_EVENT_EXIT), 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ntohl(PROC_EVENT_FORK), 0, 5),
		/* a fork: keep it when the child leads a new process */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, CN_CHILD_PID),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, CN_CHILD_TGID),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_X, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	if (c->fd < 0)
		return -EBADF;
	if (setsockopt(c->fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
		       sizeof(prog)))
		return -errno;
	return 0;
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

/* One datagram: fn per fork/exec/exit event in it. 0 or fn's -errno. */
static int cnproc_parse(const unsigned char *buf, size_t size,
			ptop_cnproc_fn fn, void *arg)
{
	struct ptop_cnproc_event ev;
	struct proc_event pe;
	const struct nlmsghdr *n;
	const struct cn_msg *cn;
	ssize_t len = size;
	int ret;

	for (n = (const struct nlmsghdr *)buf; NLMSG_OK(n, len);
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
	return 0;
}

int ptop_cnproc_drain(struct ptop_cnproc *c, ptop_cnproc_fn fn, void *arg,
		      int *lost)
{
	unsigned char buf[PTOP_NL_BATCH * CNPROC_SLOT]
		__attribute__((aligned(8)));
	struct ptop_nl_batch b = { .buf = buf, .slot = CNPROC_SLOT };
	int i, n, ret;

	if (c->fd < 0)
		return -EBADF;
	for (;;) {
		n = ptop_nl_recv_batch(c->fd, &b, lost);
		if (n == -EAGAIN)
			return 0;
		if (n < 0)
			return n;
		for (i = 0; i < n; i++) {
			ret = cnproc_parse(buf + i * b.slot, b.len[i], fn, arg);
			if (ret)
				return ret;
		}
		if (n < PTOP_NL_BATCH)
			return 0;	/* the queue is empty */
	}
}
