/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one parser of /proc/stat's cpu lines, shared by the stock sources
 * (procfs_read.c: the machine's counters) and the meters' reader
 * (sysinfo.c: per-CPU counters). Pure: no I/O, no allocation.
 */
#ifndef PTOP_PROC_STAT_H
#define PTOP_PROC_STAT_H

#include <stdint.h>

/* the counters of a cpu line, in the kernel's order, clock ticks */
enum ptop_stat_val {
	PTOP_STAT_USER, PTOP_STAT_NICE, PTOP_STAT_SYSTEM, PTOP_STAT_IDLE,
	PTOP_STAT_IOWAIT, PTOP_STAT_IRQ, PTOP_STAT_SOFTIRQ, PTOP_STAT_STEAL,
	PTOP_STAT_GUEST, PTOP_STAT_GUEST_NICE,
	PTOP_STAT__NVAL
};

struct ptop_stat_cpu {
	int cpu;		/* N of "cpuN" (at most INT_MAX), -1: "cpu" */
	unsigned int n;		/* counters read; the rest of v[] is 0 */
	uint64_t v[PTOP_STAT__NVAL];
};

/*
 * One line of /proc/stat (it ends at '\n' or NUL): 1 when it is "cpu "
 * or "cpuN", *c filled with the counters up to the first that is not a
 * number; 0 for any other line.
 */
int ptop_stat_cpu_line(const char *line, struct ptop_stat_cpu *c);
/* The line after line in a NUL-terminated buffer, NULL at the end. */
const char *ptop_stat_next_line(const char *line);

#endif /* PTOP_PROC_STAT_H */
