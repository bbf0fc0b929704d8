/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Draining a non-blocking netlink listener (the proc connector, the
 * taskstats exit group): one datagram per call.
 */
#ifndef PTOP_NL_RECV_H
#define PTOP_NL_RECV_H

#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>

/*
 * The length of the next datagram, -EAGAIN when none is queued, other
 * -errno. A signal is retried; an overflow (ENOBUFS: the kernel dropped
 * messages for this socket) sets *lost and reading goes on.
 */
static inline ssize_t ptop_nl_recv(int fd, void *buf, size_t size, int *lost)
{
	for (;;) {
		ssize_t len = recv(fd, buf, size, 0);

		if (len >= 0)
			return len;
		if (errno == EINTR)
			continue;
		if (errno == ENOBUFS) {
			*lost = 1;
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return -EAGAIN;
		return -errno;
	}
}

#endif /* PTOP_NL_RECV_H */
