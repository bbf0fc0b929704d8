// SPDX-License-Identifier: GPL-2.0
/* Idle ns per CPU from cpuidle's sysfs statistics: see cpuidle.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuidle.h"

#define CPUIDLE_MAX_STATES	64	/* far more than any driver has */

int ptop_cpuidle_open(struct ptop_cpuidle *c, const char *proc_root)
{
	char path[4096];

	memset(c, 0, sizeof(*c));
	if (!strcmp(proc_root, "/proc"))
		snprintf(path, sizeof(path), "/sys/devices/system/cpu");
	else
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu",
			 proc_root);
	c->dir_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->dir_fd < 0)
		c->dir_fd = -1;
	return 0;
}

void ptop_cpuidle_close(struct ptop_cpuidle *c)
{
	unsigned int i;

	for (i = 0; i < c->ncpu; i++)
		if (c->cpu_fd[i] >= 0)
			close(c->cpu_fd[i]);
	if (c->dir_fd >= 0)
		close(c->dir_fd);
	free(c->cpu_fd);
	free(c->nstates);
	memset(c, 0, sizeof(*c));
	c->dir_fd = -1;
}

int ptop_cpuidle_parse_u64(const char *buf, uint64_t *v)
{
	uint64_t n = 0;
	const char *s;

	if (!*buf || *buf == '\n')
		return -EINVAL;
	for (s = buf; *s >= '0' && *s <= '9'; s++) {
		uint64_t d = (uint64_t)(*s - '0');

		if (n > UINT64_MAX / 10 ||
		    (n == UINT64_MAX / 10 && d > UINT64_MAX % 10))
			return -EINVAL;
		n = n * 10 + d;
	}
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*v = n;
	return 0;
}

/* One small sysfs file into buf (NUL terminated); length or -errno. */
static int read_small(int dirfd, const char *name, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

/* cpuN/cpuidle opened and its states counted, once per CPU */
static int cpu_dir(struct ptop_cpuidle *c, unsigned int cpu)
{
	char name[64];
	unsigned int k;
	int fd;

	if (cpu >= c->ncpu) {
		unsigned int n = cpu + 1, i;
		int *fds = realloc(c->cpu_fd, n * sizeof(*fds));
		unsigned int *ns;

		if (!fds)
			return -ENOMEM;
		c->cpu_fd = fds;
		ns = realloc(c->nstates, n * sizeof(*ns));
		if (!ns)
			return -ENOMEM;
		c->nstates = ns;
		for (i = c->ncpu; i < n; i++) {
			c->cpu_fd[i] = -1;
			c->nstates[i] = 0;
		}
		c->ncpu = n;
	}
	if (c->cpu_fd[cpu] >= 0)
		return c->nstates[cpu] ? 0 : -ENOENT;
	snprintf(name, sizeof(name), "cpu%u/cpuidle", cpu);
	fd = openat(c->dir_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	for (k = 0; k < CPUIDLE_MAX_STATES; k++) {
		snprintf(name, sizeof(name), "state%u", k);
		if (faccessat(fd, name, F_OK, 0))
			break;
	}
	c->cpu_fd[cpu] = fd;
	c->nstates[cpu] = k;
	return k ? 0 : -ENOENT;
}

int ptop_cpuidle_read(struct ptop_cpuidle *c, unsigned int cpu,
		      uint64_t *ns)
{
	uint64_t sum = 0, us;
	char name[32], buf[64];
	unsigned int k;
	int ret;

	if (c->dir_fd < 0)
		return -ENOENT;
	ret = cpu_dir(c, cpu);
	if (ret)
		return ret;
	for (k = 0; k < c->nstates[cpu]; k++) {
		snprintf(name, sizeof(name), "state%u/time", k);
		ret = read_small(c->cpu_fd[cpu], name, buf, sizeof(buf));
		if (ret < 0)
			return ret;
		if (ptop_cpuidle_parse_u64(buf, &us) ||
		    us > UINT64_MAX / 1000 - sum / 1000)
			return -EINVAL;
		sum += us * 1000;
	}
	*ns = sum;
	return 0;
}
