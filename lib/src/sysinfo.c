// SPDX-License-Identifier: GPL-2.0
/* /proc/stat, meminfo, loadavg and uptime for the meters (sysinfo.h). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sysinfo.h"
#include "proc_stat.h"

#define SYSINFO_FILE_MAX (1U << 24)

/* root/name whole into a new NUL-terminated buffer; NULL and errno set */
static char *slurp(const char *root, const char *name)
{
	char path[4096], *buf = NULL, *nb;
	size_t len = 0, cap = 4096;
	ssize_t n;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s", root ? root : "/proc", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (!buf || len + 1 >= cap) {
			if (buf)
				cap *= 2;
			nb = cap <= SYSINFO_FILE_MAX ? realloc(buf, cap) : NULL;
			if (!nb) {
				err = cap > SYSINFO_FILE_MAX ? EFBIG : ENOMEM;
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? errno : 0;
			break;
		}
		len += n;
	}
	close(fd);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

int ptop_sysinfo_parse_stat(struct ptop_sysinfo *s, const char *buf)
{
	struct ptop_stat_cpu c;
	unsigned int n = 0;
	const char *l;

	if (s->ncpu) {
		memcpy(s->prev, s->cur, sizeof(s->cur[0]) * s->ncpu);
		s->have_prev = true;
	}
	for (l = buf; l && *l; l = ptop_stat_next_line(l)) {
		if (!ptop_stat_cpu_line(l, &c) || c.cpu < 0 || c.n < 4 ||
		    n >= PTOP_SYS_MAX_CPUS)
			continue;
		s->cur[n++] = (struct ptop_cpu_jif){
			.user = c.v[PTOP_STAT_USER],
			.nice = c.v[PTOP_STAT_NICE],
			.sys = c.v[PTOP_STAT_SYSTEM],
			.idle = c.v[PTOP_STAT_IDLE],
			.iowait = c.v[PTOP_STAT_IOWAIT],
			.irq = c.v[PTOP_STAT_IRQ],
			.softirq = c.v[PTOP_STAT_SOFTIRQ],
			.steal = c.v[PTOP_STAT_STEAL],
		};
	}
	if (n != s->ncpu)	/* CPUs came or went: no period to show */
		s->have_prev = false;
	s->ncpu = n;
	return n ? 0 : -EINVAL;
}

void ptop_sysinfo_parse_meminfo(struct ptop_sysinfo *s, const char *buf)
{
#define KEY(k, f) { k, offsetof(struct ptop_sysinfo, f) }
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		KEY("MemTotal", mem_total_kb),
		KEY("MemFree", mem_free_kb),
		KEY("MemAvailable", mem_avail_kb),
		KEY("Buffers", buffers_kb),
		KEY("Cached", cached_kb),
		KEY("SReclaimable", sreclaimable_kb),
		KEY("SwapTotal", swap_total_kb),
		KEY("SwapFree", swap_free_kb),
	};
#undef KEY
	const char *l;
	char key[64];
	unsigned long long v;
	size_t i;

	for (l = buf; l && *l; l = ptop_stat_next_line(l)) {
		if (sscanf(l, "%63[^:\n]: %llu", key, &v) != 2)
			continue;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(key, keys[i].key))
				*(uint64_t *)((char *)s + keys[i].off) = v;
	}
}

int ptop_sysinfo_parse_loadavg(struct ptop_sysinfo *s, const char *buf)
{
	double l[3];

	if (sscanf(buf, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
		return -EINVAL;
	memcpy(s->load, l, sizeof(l));
	return 0;
}

int ptop_sysinfo_parse_uptime(struct ptop_sysinfo *s, const char *buf)
{
	return sscanf(buf, "%lf", &s->uptime_s) == 1 ? 0 : -EINVAL;
}

int ptop_sysinfo_read(struct ptop_sysinfo *s, const char *root)
{
	char *buf = slurp(root, "stat");
	int ret = buf ? ptop_sysinfo_parse_stat(s, buf) : -errno;

	free(buf);
	ptop_sysinfo_read_mem(s, root);
	return ret;
}

void ptop_sysinfo_read_mem(struct ptop_sysinfo *s, const char *root)
{
	char *buf = slurp(root, "meminfo");

	if (buf)
		ptop_sysinfo_parse_meminfo(s, buf);
	free(buf);
	buf = slurp(root, "loadavg");
	if (buf && ptop_sysinfo_parse_loadavg(s, buf))
		s->load[0] = s->load[1] = s->load[2] = 0;
	free(buf);
	buf = slurp(root, "uptime");
	if (buf && ptop_sysinfo_parse_uptime(s, buf))
		s->uptime_s = 0;
	free(buf);
}

uint64_t ptop_sysinfo_buff_cache_kb(const struct ptop_sysinfo *s)
{
	return s->buffers_kb + s->cached_kb + s->sreclaimable_kb;
}

uint64_t ptop_sysinfo_used_kb(const struct ptop_sysinfo *s)
{
	uint64_t t = s->mem_total_kb, gone;

	if (s->mem_avail_kb)
		return s->mem_avail_kb < t ? t - s->mem_avail_kb : 0;
	gone = s->mem_free_kb + ptop_sysinfo_buff_cache_kb(s);
	return gone < t ? t - gone : 0;
}

static uint64_t d(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void ptop_sysinfo_cpu_parts(const struct ptop_sysinfo *s, unsigned int from,
			    unsigned int to, uint64_t parts[4],
			    uint64_t *whole)
{
	unsigned int i;

	memset(parts, 0, 4 * sizeof(parts[0]));
	*whole = 0;
	if (!s->have_prev)
		return;
	for (i = from; i < to && i < s->ncpu; i++) {
		const struct ptop_cpu_jif *c = &s->cur[i], *p = &s->prev[i];

		parts[0] += d(c->user, p->user) + d(c->nice, p->nice);
		parts[1] += d(c->sys, p->sys);
		parts[2] += d(c->irq, p->irq) + d(c->softirq, p->softirq) +
			    d(c->steal, p->steal);
		parts[3] += d(c->idle, p->idle) + d(c->iowait, p->iowait);
	}
	*whole = parts[0] + parts[1] + parts[2] + parts[3];
}
