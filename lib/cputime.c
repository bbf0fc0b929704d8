// SPDX-License-Identifier: GPL-2.0
/* Split a precise runtime into user/system, proportional to a raw split. */
#include "cputime.h"

void ptop_cputime_split(uint64_t runtime_ns, uint64_t raw_user,
			uint64_t raw_sys, uint64_t *user_ns, uint64_t *sys_ns)
{
	unsigned __int128 total = (unsigned __int128)raw_user + raw_sys;
	unsigned __int128 u;

	if (!total) {
		*user_ns = runtime_ns;
		*sys_ns = 0;
		return;
	}
	/* runtime * raw_user < 2^128; the quotient is <= runtime */
	u = (unsigned __int128)runtime_ns * raw_user / total;
	*user_ns = (uint64_t)u;
	*sys_ns = runtime_ns - (uint64_t)u;
}

void ptop_cputime_adjust(struct ptop_cputime_prev *prev, uint64_t runtime_ns,
			 uint64_t raw_user, uint64_t raw_sys,
			 uint64_t *user_ns, uint64_t *sys_ns)
{
	uint64_t u, s;

	if (runtime_ns < prev->user_ns + prev->sys_ns) {
		prev->user_ns = 0;
		prev->sys_ns = 0;
	}
	ptop_cputime_split(runtime_ns, raw_user, raw_sys, &u, &s);
	/* the total never shrinks here, so one clamp keeps both monotonic */
	if (s < prev->sys_ns) {
		s = prev->sys_ns;
		u = runtime_ns - s;
	}
	if (u < prev->user_ns) {
		u = prev->user_ns;
		s = runtime_ns - u;
	}
	prev->user_ns = u;
	prev->sys_ns = s;
	*user_ns = u;
	*sys_ns = s;
}
