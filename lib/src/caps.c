// SPDX-License-Identifier: GPL-2.0
/* Least privilege: keep only the capabilities the run needs (caps.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "../caps.h"

int ptop_caps_parse(const char *name)
{
	if (!strcmp(name, "off"))
		return PTOP_CAPS_OFF;
	if (!strcmp(name, "basic"))
		return PTOP_CAPS_BASIC;
	if (!strcmp(name, "strict"))
		return PTOP_CAPS_STRICT;
	return -EINVAL;
}

bool ptop_caps_effective(int cap)
{
	cap_flag_value_t v = CAP_CLEAR;
	cap_t c = cap_get_proc();

	if (!c)
		return false;
	if (cap_get_flag(c, cap, CAP_EFFECTIVE, &v))
		v = CAP_CLEAR;
	cap_free(c);
	return v == CAP_SET;
}

static bool keeps(enum ptop_caps_mode mode, unsigned int needs, int cap)
{
	if (cap == CAP_NET_ADMIN)
		return needs & PTOP_CAPS_NET_ADMIN;
	if (cap == CAP_SYS_NICE)
		return needs & PTOP_CAPS_RT;
	if (cap == CAP_SYS_ADMIN)
		return needs & PTOP_CAPS_DELAYACCT;
	if (cap == CAP_DAC_OVERRIDE)
		return needs & PTOP_CAPS_CGROUP;
	if (cap == CAP_KILL)
		return mode == PTOP_CAPS_BASIC;
	return false;
}

int ptop_caps_drop(enum ptop_caps_mode mode, unsigned int needs, bool bound,
		   char *err, size_t errlen)
{
	cap_t cur, next = NULL;
	cap_value_t cap, last = cap_max_bits() - 1;
	cap_flag_value_t perm;
	int ret = 0;

	if (mode == PTOP_CAPS_OFF)
		return 0;
	cur = cap_get_proc();
	if (!cur)
		goto err_errno;
	next = cap_init();
	if (!next)
		goto err_errno;
	/* the bounding set first: dropping from it needs CAP_SETPCAP */
	for (cap = 0; bound && cap <= last; cap++) {
		if (keeps(mode, needs, cap) || !CAP_IS_SUPPORTED(cap) ||
		    prctl(PR_CAPBSET_READ, cap) != 1)
			continue;
		if (cap_drop_bound(cap) && errno != EPERM)
			goto err_errno;
	}
	for (cap = 0; cap <= last; cap++) {
		if (!keeps(mode, needs, cap) ||
		    cap_get_flag(cur, cap, CAP_PERMITTED, &perm) ||
		    perm != CAP_SET)
			continue;
		if (cap_set_flag(next, CAP_PERMITTED, 1, &cap, CAP_SET) ||
		    cap_set_flag(next, CAP_EFFECTIVE, 1, &cap, CAP_SET))
			goto err_errno;
	}
	if (cap_set_proc(next))
		goto err_errno;
	goto out;

err_errno:
	ret = -(errno ? errno : EPERM);
	snprintf(err, errlen, "dropping capabilities: %s", strerror(-ret));
out:
	cap_free(next);
	cap_free(cur);
	return ret;
}
