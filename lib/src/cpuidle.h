/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Idle time in ns per CPU from cpuidle's sysfs statistics, the stock
 * sources' replacement for /proc/timer_list (which the kernel prints with
 * a walk quadratic in each CPU's hrtimers, its base lock taken with
 * interrupts off at every step: 0.3 s with 3,000 sleepers, 2 s with 6,000).
 *
 * <cpu dir>/cpuN/cpuidle/stateK/time is the time (us) CPU N spent in idle
 * state K, added when the CPU leaves the state. Their sum is the idle
 * periods that ENDED, as timer_list's idle_sleeptime was (on this
 * project's 2-CPU VM, haltpoll driver, the two agree to a few ms a second;
 * what cpuidle misses is the idle loop's own few us per entry). Reading
 * it costs one small file per CPU and state, nothing that grows with
 * tasks or timers, no interrupts off.
 *
 * The cpu dir is /sys/devices/system/cpu for the proc root "/proc", else
 * <proc_root>/sys/devices/system/cpu: a fixture proc root brings its own.
 * Absent (no CONFIG_CPU_IDLE, no driver, a container without /sys), or a
 * file missing, empty or not a number: the read fails and the caller keeps
 * /proc/stat's ticks. No printing, 0 / -errno.
 */
#ifndef PTOP_CPUIDLE_H
#define PTOP_CPUIDLE_H

#include <stdint.h>

struct ptop_cpuidle {
	int dir_fd;		/* the cpu dir, -1 when absent */
	int *cpu_fd;		/* cpuN/cpuidle, opened on first use; -1 */
	unsigned int *nstates;	/* states found at that open */
	unsigned int ncpu;	/* entries in cpu_fd, nstates */
};

/* 0; an absent cpu dir is not an error (every read then fails). */
int ptop_cpuidle_open(struct ptop_cpuidle *c, const char *proc_root);
void ptop_cpuidle_close(struct ptop_cpuidle *c);
/*
 * The sum of CPU cpu's states' times in ns: 0, -ENOENT (no cpuidle for
 * it, or no state), -EINVAL (a file empty or not a number), -errno.
 */
int ptop_cpuidle_read(struct ptop_cpuidle *c, unsigned int cpu,
		      uint64_t *ns);
/* A sysfs number: decimal digits and an optional newline. 0 / -EINVAL. */
int ptop_cpuidle_parse_u64(const char *buf, uint64_t *v);

#endif /* PTOP_CPUIDLE_H */
