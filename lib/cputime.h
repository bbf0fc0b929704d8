/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Splitting a precise runtime into user and system parts.
 *
 * The kernel measures a task's runtime precisely (se.sum_exec_runtime, ns)
 * but its user/system split only by sampling at ticks. As the kernel's own
 * cputime_adjust() does, we keep the precise total and scale the sampled
 * split to it.
 */
#ifndef PTOP_CPUTIME_H
#define PTOP_CPUTIME_H

#include <stdint.h>

/*
 * Split runtime_ns proportionally to raw_user : raw_sys (any common unit).
 * Exact: *user_ns + *sys_ns == runtime_ns, with no overflow for any 64-bit
 * inputs (128-bit intermediate). When raw_user + raw_sys == 0 (the task
 * never was hit by a tick), the whole runtime is reported as user time:
 * a task too short to be sampled is most likely a user space burst, and
 * user time is what the kernel's cputime_adjust() also yields for it.
 */
void ptop_cputime_split(uint64_t runtime_ns, uint64_t raw_user,
			uint64_t raw_sys, uint64_t *user_ns, uint64_t *sys_ns);

/* Previous split of one task, so the parts never go backwards. */
struct ptop_cputime_prev {
	uint64_t user_ns;
	uint64_t sys_ns;
};

/*
 * ptop_cputime_split(), then clamped so that neither part goes below the
 * previous split in *prev (like cputime_adjust()), and *prev updated.
 * A runtime below the previous total (a new incarnation) restarts from 0.
 */
void ptop_cputime_adjust(struct ptop_cputime_prev *prev, uint64_t runtime_ns,
			 uint64_t raw_user, uint64_t raw_sys,
			 uint64_t *user_ns, uint64_t *sys_ns);

#endif /* PTOP_CPUTIME_H */
