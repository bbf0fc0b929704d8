/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process events from the ptop_taskstats module: fork, exec, exit and
 * reparent, each with a CLOCK_BOOTTIME ns timestamp, from the generic
 * netlink multicast group PTOP_TS_EVENTS_GROUP. Opening makes this socket
 * a listener (PTOP_TS_CMD_LISTEN): the module produces events only while
 * at least one socket listens, and stops when the last one is closed.
 * Needs CAP_NET_ADMIN.
 */
#ifndef PTOP_KMOD_EVENTS_H
#define PTOP_KMOD_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include "kmod/uapi/ptop_taskstats.h"

struct ptop_kmod_events;

/* 0, -ENOENT (module not loaded), -EPERM, other -errno; message in err */
int ptop_kmod_events_open(struct ptop_kmod_events **out, char *err,
			  size_t errlen);
/*
 * Wait up to timeout_ms (-1: forever) for the next event: 1 and *ev
 * filled, 0 on timeout, -EINTR when a signal came, -ENOBUFS when events
 * were lost (the socket buffer overflowed; reading goes on), other -errno.
 */
int ptop_kmod_events_next(struct ptop_kmod_events *h, struct ptop_ts_event *ev,
			  int timeout_ms);
void ptop_kmod_events_close(struct ptop_kmod_events *h);
/* The socket, to poll(2) for POLLIN beside other input. */
int ptop_kmod_events_fd(const struct ptop_kmod_events *h);
/*
 * The module is loaded (/sys/module/ptop_taskstats): the interactive view
 * then keeps CAP_NET_ADMIN, which its event panel needs to listen.
 */
bool ptop_kmod_events_present(void);
/* "fork", "exec", "exit", "reparent" or "?" */
const char *ptop_kmod_event_name(unsigned int type);

#endif /* PTOP_KMOD_EVENTS_H */
