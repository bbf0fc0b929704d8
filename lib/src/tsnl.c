// SPDX-License-Identifier: GPL-2.0
/* taskstats generic netlink: per-pid query and exit listener */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "nl_recv.h"
#include "../tsnl.h"

/*
 * A batch of exit records (ptop_nl_recv_batch), a slot each: a record is
 * 452 bytes, 884 with its group's aggregate (struct taskstats 416,
 * more in newer kernels).
 */
#define TSNL_SLOT	2048
#define TSNL_BUFSZ	(PTOP_NL_BATCH * TSNL_SLOT)

/* A request with one attribute of up to 256 bytes of payload. */
struct tsnl_req {
	struct nlmsghdr n;
	struct genlmsghdr g;
	unsigned char attrs[NLA_HDRLEN + 256];
};

static int tsnl_resolve(void)
{
	struct nl_sock *sk;
	int fam;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	if (genl_connect(sk)) {
		nl_socket_free(sk);
		return -EPROTONOSUPPORT;
	}
	fam = genl_ctrl_resolve(sk, TASKSTATS_GENL_NAME);
	nl_socket_free(sk);
	return fam < 0 ? -ENOENT : fam;
}

static int tsnl_socket(int nonblock)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC |
		    (nonblock ? SOCK_NONBLOCK : 0), NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int ptop_tsnl_open(struct ptop_tsnl *t)
{
	int fam;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->lfd = -1;
	fam = tsnl_resolve();
	if (fam < 0)
		return fam;
	t->family = fam;
	t->buf = malloc(TSNL_BUFSZ);
	if (!t->buf)
		return -ENOMEM;
	t->bufsz = TSNL_BUFSZ;
	t->fd = tsnl_socket(0);
	if (t->fd < 0) {
		int err = t->fd;

		free(t->buf);
		t->buf = NULL;
		return err;
	}
	return 0;
}

void ptop_tsnl_close(struct ptop_tsnl *t)
{
	if (t->lfd >= 0)
		close(t->lfd);	/* closing deregisters the cpumask */
	if (t->fd >= 0)
		close(t->fd);
	free(t->buf);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->lfd = -1;
}

static int tsnl_send(struct ptop_tsnl *t, int fd, uint16_t type,
		     const void *data, size_t len)
{
	struct tsnl_req req;
	struct nlattr *na = (struct nlattr *)req.attrs;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	ssize_t n;

	if (len > 256)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.n.nlmsg_type = t->family;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = ++t->seq;
	req.g.cmd = TASKSTATS_CMD_GET;
	req.g.version = 1;
	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	memcpy(req.attrs + NLA_HDRLEN, data, len);
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN) + NLA_ALIGN(na->nla_len);
	do {
		n = sendto(fd, &req, req.n.nlmsg_len, 0,
			   (struct sockaddr *)&sa, sizeof(sa));
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : 0;
}

static void tsnl_copy(struct ptop_tsnl_stats *st, const void *p, size_t len)
{
	struct taskstats ts;

	memset(&ts, 0, sizeof(ts));
	memcpy(&ts, p, len < sizeof(ts) ? len : sizeof(ts));
	memset(st, 0, sizeof(*st));
	st->version = ts.version;
	st->pid = ts.ac_pid;
	st->tgid = ts.ac_tgid;
	st->ppid = ts.ac_ppid;
	st->uid = ts.ac_uid;
	st->exitcode = ts.ac_exitcode;
	st->flag = ts.ac_flag;
	memcpy(st->comm, ts.ac_comm, sizeof(st->comm));
	st->comm[sizeof(st->comm) - 1] = '\0';
	st->btime64 = ts.ac_btime64;
	st->etime_us = ts.ac_etime;
	st->utime_us = ts.ac_utime;
	st->stime_us = ts.ac_stime;
	st->minflt = ts.ac_minflt;
	st->majflt = ts.ac_majflt;
	st->nvcsw = ts.nvcsw;
	st->nivcsw = ts.nivcsw;
	st->hiwater_rss_kb = ts.hiwater_rss;
	st->cpu_count = ts.cpu_count;
	st->cpu_delay_ns = ts.cpu_delay_total;
	st->run_real_ns = ts.cpu_run_real_total;
	st->run_virtual_ns = ts.cpu_run_virtual_total;
}

#define nla_for_each(na, start, rem) \
	for (na = (struct nlattr *)(start); \
	     rem >= (int)NLA_HDRLEN && na->nla_len >= NLA_HDRLEN && \
	     na->nla_len <= rem; \
	     rem -= NLA_ALIGN(na->nla_len), \
	     na = (struct nlattr *)((char *)na + NLA_ALIGN(na->nla_len)))

/* AGGR_PID / AGGR_TGID: { PID or TGID u32, STATS } */
static int tsnl_parse_aggr(const struct nlattr *aggr,
			   struct ptop_tsnl_stats *st)
{
	const struct nlattr *na;
	int rem = aggr->nla_len - NLA_HDRLEN, found = 0;
	uint32_t id = 0;

	nla_for_each(na, (const char *)aggr + NLA_HDRLEN, rem) {
		const void *pl = (const char *)na + NLA_HDRLEN;
		size_t len = na->nla_len - NLA_HDRLEN;

		switch (na->nla_type & NLA_TYPE_MASK) {
		case TASKSTATS_TYPE_PID:
		case TASKSTATS_TYPE_TGID:
			if (len >= 4)
				memcpy(&id, pl, 4);
			break;
		case TASKSTATS_TYPE_STATS:
			tsnl_copy(st, pl, len);
			found = 1;
			break;
		}
	}
	if (!found)
		return -EINVAL;
	if (aggr->nla_type == TASKSTATS_TYPE_AGGR_TGID && !st->tgid)
		st->tgid = id;
	return 0;
}

/*
 * Parse one genetlink message: fills *pid and (if present) *tgid.
 * Returns a bitmask: 1 = pid part, 2 = tgid part; or -errno.
 */
static int tsnl_parse_msg(const struct nlmsghdr *n,
			  struct ptop_tsnl_stats *pid,
			  struct ptop_tsnl_stats *tgid)
{
	const struct nlattr *na;
	int rem, have = 0;

	if (n->nlmsg_type == NLMSG_ERROR) {
		int error;

		/* the error code, at least, must be in the message */
		if (n->nlmsg_len < NLMSG_LENGTH(sizeof(error)))
			return -EINVAL;
		memcpy(&error, NLMSG_DATA(n), sizeof(error));
		return error < 0 ? error : -EINVAL;
	}
	if (n->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -EINVAL;
	rem = n->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	nla_for_each(na, (const char *)NLMSG_DATA(n) + GENL_HDRLEN, rem) {
		switch (na->nla_type & NLA_TYPE_MASK) {
		case TASKSTATS_TYPE_AGGR_PID:
			if (!tsnl_parse_aggr(na, pid))
				have |= 1;
			break;
		case TASKSTATS_TYPE_AGGR_TGID:
			if (tgid && !tsnl_parse_aggr(na, tgid))
				have |= 2;
			break;
		}
	}
	return have;
}

/* a signed length for NLMSG_OK()/NLMSG_NEXT() */
static ssize_t tsnl_msg_len(size_t len)
{
	return len > SSIZE_MAX ? SSIZE_MAX : (ssize_t)len;
}

int ptop_tsnl_parse_reply(const void *buf, size_t len, uint32_t seq,
			  struct ptop_tsnl_stats *st)
{
	const struct nlmsghdr *n;
	ssize_t rem = tsnl_msg_len(len);
	int ret;

	for (n = buf; NLMSG_OK(n, rem); n = NLMSG_NEXT(n, rem)) {
		if (n->nlmsg_seq != seq)
			continue;	/* a stale answer */
		ret = tsnl_parse_msg(n, st, NULL);
		if (ret < 0)
			return ret;
		return (ret & 1) ? 0 : -EINVAL;
	}
	return -EAGAIN;
}

int ptop_tsnl_get_pid(struct ptop_tsnl *t, uint32_t pid,
		      struct ptop_tsnl_stats *st)
{
	ssize_t len;
	int ret;

	ret = tsnl_send(t, t->fd, TASKSTATS_CMD_ATTR_PID, &pid, sizeof(pid));
	if (ret)
		return ret;
	for (;;) {
		len = recv(t->fd, t->buf, t->bufsz, 0);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		ret = ptop_tsnl_parse_reply(t->buf, len, t->seq, st);
		if (ret != -EAGAIN)
			return ret;
	}
}

int ptop_tsnl_online_cpus(char *buf, size_t len)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	char *nl;

	if (!f)
		return -errno;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

int ptop_tsnl_listen(struct ptop_tsnl *t, const char *cpumask, int rcvbuf)
{
	const struct nlmsghdr *n;
	ssize_t len;
	int fd, ret;

	if (!cpumask) {
		ret = ptop_tsnl_online_cpus(t->cpumask, sizeof(t->cpumask));
		if (ret)
			return ret;
	} else {
		snprintf(t->cpumask, sizeof(t->cpumask), "%s", cpumask);
	}
	fd = tsnl_socket(0);
	if (fd < 0)
		return fd;
	if (rcvbuf > 0 &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	ret = tsnl_send(t, fd, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, t->cpumask,
			strlen(t->cpumask) + 1);
	if (ret)
		goto err_close;
	/*
	 * Registration has no reply unless it failed (no ACK asked): probe
	 * for an error without blocking, then switch to non-blocking.
	 */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)) {
		ret = -errno;
		goto err_close;
	}
	len = recv(fd, t->buf, t->bufsz, MSG_PEEK);
	n = (struct nlmsghdr *)t->buf;
	if (len > 0 && NLMSG_OK(n, len) && n->nlmsg_type == NLMSG_ERROR &&
	    n->nlmsg_seq == t->seq &&
	    n->nlmsg_len >= NLMSG_LENGTH(sizeof(int))) {
		ret = ((const struct nlmsgerr *)NLMSG_DATA(n))->error;
		if (ret)
			goto err_close;
	}
	t->lfd = fd;
	return 0;

err_close:
	close(fd);
	return ret;
}

int ptop_tsnl_parse_exits(const void *buf, size_t len, ptop_tsnl_exit_fn fn,
			  void *arg)
{
	struct ptop_tsnl_stats pid, tgid;
	const struct nlmsghdr *n;
	ssize_t rem = tsnl_msg_len(len);
	int ret;

	for (n = buf; NLMSG_OK(n, rem); n = NLMSG_NEXT(n, rem)) {
		if (n->nlmsg_type == NLMSG_ERROR ||
		    n->nlmsg_type == NLMSG_NOOP ||
		    n->nlmsg_type == NLMSG_DONE)
			continue;
		ret = tsnl_parse_msg(n, &pid, &tgid);
		if (ret < 0 || !(ret & 1))
			continue;
		ret = fn(arg, &pid, (ret & 2) ? &tgid : NULL);
		if (ret)
			return ret;
	}
	return 0;
}

int ptop_tsnl_drain(struct ptop_tsnl *t, ptop_tsnl_exit_fn fn, void *arg,
		    int *lost)
{
	struct ptop_nl_batch b = { .buf = t->buf, .slot = TSNL_SLOT };
	int i, n, ret;

	if (t->lfd < 0)
		return -EBADF;
	for (;;) {
		n = ptop_nl_recv_batch(t->lfd, &b, lost);
		if (n == -EAGAIN)
			return 0;
		if (n < 0)
			return n;
		for (i = 0; i < n; i++) {
			ret = ptop_tsnl_parse_exits(b.buf + i * b.slot,
						    b.len[i], fn, arg);
			if (ret)
				return ret;
		}
		if (n < PTOP_NL_BATCH)
			return 0;	/* the queue is empty */
	}
}

/* --- delay accounting ----------------------------------------------- */

#define PTOP_TSNL_DELAYACCT	"/proc/sys/kernel/task_delayacct"

int ptop_tsnl_delayacct_get(void)
{
	char b[16] = "";
	int fd = open(PTOP_TSNL_DELAYACCT, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	return n > 0 ? atoi(b) : -EIO;
}

int ptop_tsnl_delayacct_set(int v)
{
	char b[16];
	int fd = open(PTOP_TSNL_DELAYACCT, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	snprintf(b, sizeof(b), "%d\n", v);
	if (write(fd, b, strlen(b)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int ptop_tsnl_probe_precise(struct ptop_tsnl *t)
{
	struct ptop_tsnl_stats self;
	int go[2], up[2], ret;
	char c = 0;
	pid_t pid;

	/*
	 * The caller has slept since it started: its own runtime filled
	 * says yes without a fork. 0 may only mean it was forked without
	 * delay accounting: ask a new child.
	 */
	if (!ptop_tsnl_get_pid(t, getpid(), &self) && self.run_virtual_ns > 0)
		return 1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(up, O_CLOEXEC)) {
		ret = -errno;
		goto out_go;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out_up;
	}
	if (!pid) {
		/* say so, sleep (the runtime is folded in) until released */
		close(go[1]);
		close(up[0]);
		if (write(up[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(up[1]);
	up[1] = -1;
	if (read(up[0], &c, 1) == 1) {
		struct ptop_tsnl_stats st;
		int tries;

		/*
		 * The child said so but may not have gone to sleep yet: its
		 * runtime is only brought up to date when it is switched out.
		 * Ask again for a while before calling the kernel imprecise.
		 */
		for (tries = 0; tries < 50; tries++) {
			ret = ptop_tsnl_get_pid(t, pid, &st);
			if (ret || st.run_virtual_ns > 0)
				break;
			usleep(1000);
		}
		if (!ret)
			ret = st.run_virtual_ns > 0;
	} else {
		ret = -EIO;
	}
	close(go[1]);
	go[1] = -1;
	waitpid(pid, NULL, 0);
out_up:
	close(up[0]);
	if (up[1] >= 0)
		close(up[1]);
out_go:
	close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	return ret;
}
