/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine's state beside the tasks, for the meters and the batch
 * summary: per-CPU counters (/proc/stat, read with the sources' parser),
 * memory and swap (/proc/meminfo), load (/proc/loadavg), uptime
 * (/proc/uptime). The reader and the parsers never print; a file that
 * cannot be read or parsed leaves its fields as they were (0 at first).
 *
 * What each file costs the kernel to generate, once per refresh: stat
 * O(CPUs x interrupts) counter sums (procfs_read.h); meminfo and uptime
 * O(CPUs) per-CPU counter sums; loadavg O(1). None walks the tasks or
 * holds interrupts off; top reads all four.
 */
#ifndef PTOP_SYSINFO_H
#define PTOP_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>

#define PTOP_SYS_MAX_CPUS 1024

/* per-CPU counters of /proc/stat, jiffies */
struct ptop_cpu_jif {
	uint64_t user, nice, sys, idle, iowait, irq, softirq, steal;
};

struct ptop_sysinfo {
	unsigned int ncpu;
	struct ptop_cpu_jif prev[PTOP_SYS_MAX_CPUS], cur[PTOP_SYS_MAX_CPUS];
	bool have_prev;
	uint64_t mem_total_kb, mem_free_kb, mem_avail_kb, buffers_kb,
		 cached_kb, sreclaimable_kb, swap_total_kb, swap_free_kb;
	double load[3];
	double uptime_s;
};

/*
 * Read proc_root (NULL: /proc): stat, meminfo, loadavg, uptime. The
 * previous stat reading becomes prev. 0, or -errno when stat could not
 * be read or has no cpuN line (the other files are read anyway).
 */
int ptop_sysinfo_read(struct ptop_sysinfo *s, const char *proc_root);

/* The same without stat: memory, swap, load, uptime. */
void ptop_sysinfo_read_mem(struct ptop_sysinfo *s, const char *proc_root);

/* The parsers of ptop_sysinfo_read(), on a NUL-terminated file's text. */
int ptop_sysinfo_parse_stat(struct ptop_sysinfo *s, const char *buf);
void ptop_sysinfo_parse_meminfo(struct ptop_sysinfo *s, const char *buf);
/* 0, or -EINVAL (the fields keep their values) */
int ptop_sysinfo_parse_loadavg(struct ptop_sysinfo *s, const char *buf);
int ptop_sysinfo_parse_uptime(struct ptop_sysinfo *s, const char *buf);

/*
 * CPUs [from, to)'s share of the last period: parts[4] = user+nice, sys,
 * irq+softirq+steal, idle+iowait, of *whole jiffies (0 before a period).
 */
/*
 * Memory as top (procps) counts it, KiB: buff/cache is Buffers + Cached
 * + SReclaimable; used is MemTotal - MemAvailable (without MemAvailable:
 * total - free - buff/cache), never below 0.
 */
uint64_t ptop_sysinfo_buff_cache_kb(const struct ptop_sysinfo *s);
uint64_t ptop_sysinfo_used_kb(const struct ptop_sysinfo *s);

void ptop_sysinfo_cpu_parts(const struct ptop_sysinfo *s, unsigned int from,
			    unsigned int to, uint64_t parts[4],
			    uint64_t *whole);

#endif /* PTOP_SYSINFO_H */
