/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A libnl error (negative NLE_*) as a negative errno, for the sources that
 * talk to the module's netlink family.
 */
#ifndef PTOP_NL_ERRNO_H
#define PTOP_NL_ERRNO_H

#include <errno.h>
#include <netlink/errno.h>

static inline int ptop_nl_errno(int nlerr)
{
	switch (-nlerr) {
	case NLE_PERM:
	case NLE_NOACCESS:
		return -EPERM;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_INVAL:
		return -EINVAL;
	case NLE_OBJ_NOTFOUND:
	case NLE_OPNOTSUPP:
		return -ENOENT;
	case NLE_INTR:
		return -EINTR;
	default:
		return -EIO;
	}
}

#endif
