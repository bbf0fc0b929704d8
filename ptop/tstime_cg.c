// SPDX-License-Identifier: GPL-2.0
/*
 * tstime's total from a cgroup v2 of the run's own: created under the
 * cgroup tstime is in, the command is born in it (clone3 with
 * CLONE_INTO_CGROUP, else it moves itself there before exec), and cpu.stat
 * then holds what the kernel charged to the whole tree, exit paths,
 * self-reaped children and orphans included. Removed at the end.
 *
 * Works as root, or where tstime's own cgroup is delegated to the user
 * (a systemd scope with Delegate=yes). Anything else (no cgroup2 mount, no
 * write access, a read-only cgroupfs) leaves cg->fd at -1 and a one-line
 * reason in cg->why: the caller falls back to wait4 and the records.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tstime.h"

/* One line of a small file (its first line starting with key if key). */
static int read_line(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(buf, (int)len, f)) {
		if (key && strncmp(buf, key, strlen(key)))
			continue;
		buf[strcspn(buf, "\n")] = 0;
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/*
 * The cgroup2 mount point, and the mount's root inside the hierarchy, from
 * /proc/self/mountinfo: "id parent maj:min root mountpoint opts ... - fstype".
 */
static int cg2_mount(char *mnt, size_t mlen, char *root, size_t rlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], r[PATH_MAX], m[PATH_MAX];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");

		if (!dash || strncmp(dash, " - cgroup2 ", 11))
			continue;
		if (sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2)
			continue;
		snprintf(mnt, mlen, "%s", m);
		snprintf(root, rlen, "%s", r);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

int tstime_cg_open(struct tstime_cg *cg, char *why, size_t len)
{
	static unsigned int seq;
	char mnt[PATH_MAX], root[PATH_MAX], own[PATH_MAX + 8];
	const char *rel;
	int ret;

	memset(cg, 0, sizeof(*cg));
	cg->fd = cg->procs_fd = -1;
	if (cg2_mount(mnt, sizeof(mnt), root, sizeof(root))) {
		snprintf(why, len, "no cgroup2 mount");
		return -ENOENT;
	}
	ret = read_line("/proc/self/cgroup", "0::", own, sizeof(own));
	if (ret) {
		snprintf(why, len, "not in a cgroup2 hierarchy");
		return ret;
	}
	/* "0::/a/b"; a mount of a subtree shows paths below its root */
	rel = own + 3;
	if (strcmp(root, "/") && !strncmp(rel, root, strlen(root)))
		rel += strlen(root);
	if (!strcmp(rel, "/"))
		rel = "";
	if ((size_t)snprintf(cg->path, sizeof(cg->path), "%.2048s%.1024s/tstime-%d-%u",
			     mnt, rel, (int)getpid(), seq++) >= sizeof(cg->path)) {
		snprintf(why, len, "cgroup path too long");
		return -ENAMETOOLONG;
	}
	if (mkdir(cg->path, 0755)) {
		ret = -errno;
		snprintf(why, len, "%.200s: %s",
			 cg->path, strerror(errno));
		return ret;
	}
	cg->made = 1;
	cg->fd = open(cg->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd >= 0) {
		char p[PATH_MAX + 16];

		snprintf(p, sizeof(p), "%s/cgroup.procs", cg->path);
		cg->procs_fd = open(p, O_WRONLY | O_CLOEXEC);
	}
	if (cg->fd < 0 || cg->procs_fd < 0) {
		ret = -errno;
		snprintf(why, len, "%.200s: %s", cg->path,
			 strerror(errno));
		tstime_cg_close(cg, NULL, 0);
		return ret;
	}
	return 0;
}

/* cpu.stat of the run's cgroup, in ns. 0 or -errno. */
int tstime_cg_read(const struct tstime_cg *cg, struct tstime_cg_stat *st)
{
	char p[PATH_MAX + 16], line[128];
	unsigned long long v;
	FILE *f;
	int n = 0;

	snprintf(p, sizeof(p), "%s/cpu.stat", cg->path);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "usage_usec %llu", &v) == 1)
			st->usage_ns = v * 1000, n++;
		else if (sscanf(line, "user_usec %llu", &v) == 1)
			st->user_ns = v * 1000, n++;
		else if (sscanf(line, "system_usec %llu", &v) == 1)
			st->sys_ns = v * 1000, n++;
	}
	fclose(f);
	return n == 3 ? 0 : -EPROTO;
}

/*
 * Wait (at most ~200 ms) until no task is left in the cgroup: a child
 * that reaped itself may still be on its exit path when its parent, the
 * last one tstime waited for, is gone. 1 when empty.
 */
int tstime_cg_settle(const struct tstime_cg *cg)
{
	struct timespec ts = { 0, 2000000 };
	char p[PATH_MAX + 16], line[64];
	int i;

	snprintf(p, sizeof(p), "%s/cgroup.events", cg->path);
	for (i = 0; i < 100; i++) {
		if (read_line(p, "populated ", line, sizeof(line)))
			return 0;
		if (!strcmp(line, "populated 0"))
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Remove the run's cgroup; what is left (still running) is said in why. */
void tstime_cg_close(struct tstime_cg *cg, char *why, size_t len)
{
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->fd >= 0)
		close(cg->fd);
	cg->procs_fd = cg->fd = -1;
	if (cg->made && rmdir(cg->path) && why)
		snprintf(why, len, "cgroup %s left behind: %s", cg->path,
			 strerror(errno));
	cg->made = 0;
}
