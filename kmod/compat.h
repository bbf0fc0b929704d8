/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptop_taskstats: constructs that differ between the kernels the module
 * builds on, each behind one named macro.
 */
#ifndef _PTOP_TS_COMPAT_H
#define _PTOP_TS_COMPAT_H

#include <net/genetlink.h>

/*
 * Flags of the "events" multicast group: joining it needs CAP_NET_ADMIN.
 * genl_bind() checks GENL_MCAST_CAP_* since 6.7 and in the stable
 * backports (6.1.69+, 5.15.145+, 5.10.205+); GENL_UNS_ADMIN_PERM, which
 * looks alike, is a command flag and means nothing on a group. A kernel
 * without the flag lets anyone join, which is harmless as the module
 * sends nothing to the group (events go to each listening socket, see
 * events.c): the group stays only so that older readers resolve it.
 */
#ifdef GENL_MCAST_CAP_NET_ADMIN
#define PTOP_TS_MCGRP_ADMIN	GENL_MCAST_CAP_NET_ADMIN
#else
#define PTOP_TS_MCGRP_ADMIN	0
#endif

#endif /* _PTOP_TS_COMPAT_H */
