/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Draining a non-blocking netlink listener (the proc connector, the
 * taskstats exit group): up to PTOP_NL_BATCH datagrams per system call.
 */
#ifndef PTOP_NL_RECV_H
#define PTOP_NL_RECV_H

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

/*
 * Datagrams per recvmmsg(): a listener's messages are small (a connector
 * event ~100 bytes, a taskstats record ~500), one system call per batch
 * instead of one per exiting task.
 */
#define PTOP_NL_BATCH		64

/* A batch: the i-th datagram is at buf + i * slot, len[i] bytes long. */
struct ptop_nl_batch {
	unsigned char *buf;
	size_t slot;			/* bytes per datagram */
	size_t len[PTOP_NL_BATCH];
};

/*
 * Receive what is queued, up to PTOP_NL_BATCH datagrams: how many (>= 1),
 * -EAGAIN when none is queued, other -errno. A signal is retried; an
 * overflow (ENOBUFS: the kernel dropped messages for this socket) or a
 * datagram longer than a slot sets *lost, and reading goes on.
 */
static inline int ptop_nl_recv_batch(int fd, struct ptop_nl_batch *b,
				     int *lost)
{
	struct mmsghdr mm[PTOP_NL_BATCH];
	struct iovec iov[PTOP_NL_BATCH];
	int i, n;

	memset(mm, 0, sizeof(mm));
	for (i = 0; i < PTOP_NL_BATCH; i++) {
		iov[i].iov_base = b->buf + (size_t)i * b->slot;
		iov[i].iov_len = b->slot;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	for (;;) {
		n = recvmmsg(fd, mm, PTOP_NL_BATCH, MSG_DONTWAIT, NULL);
		if (n > 0)
			break;
		if (n == 0 || errno == EAGAIN || errno == EWOULDBLOCK)
			return -EAGAIN;
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS) {
			*lost = 1;
			continue;
		}
		return -errno;
	}
	for (i = 0; i < n; i++) {
		b->len[i] = mm[i].msg_len;
		/* cut to the slot: what is missing is lost, say so */
		if (mm[i].msg_hdr.msg_flags & MSG_TRUNC)
			*lost = 1;
	}
	return n;
}

#endif /* PTOP_NL_RECV_H */
