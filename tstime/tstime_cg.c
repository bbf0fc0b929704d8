// SPDX-License-Identifier: GPL-2.0
/*
 * tstime's total from a cgroup v2 of the run's own: created under the
 * cgroup tstime is in, the command is born in it (clone3 with
 * CLONE_INTO_CGROUP, else it moves itself there before exec), and cpu.stat
 * then holds what the kernel charged to the whole tree, exit paths,
 * self-reaped children and orphans included. Removed at the end.
 *
 * Works as root, or where tstime's own cgroup is delegated to the user
 * (a systemd scope with Delegate=yes). Without a usable cgroup2, a cgroup
 * v1 cpuacct hierarchy does the same (cpuacct.usage, the command moving
 * itself in before exec). Anything else (no mount, no write access, a
 * read-only cgroupfs) leaves cg->fd at -1 and a one-line reason: the
 * caller falls back to wait4 and the records.
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

/* Is opt one of the comma-separated options in opts? */
static int has_opt(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p;

	for (p = opts; (p = strstr(p, opt)); p += n)
		if ((p == opts || p[-1] == ',') && (!p[n] || p[n] == ',' ||
						     p[n] == '\n'))
			return 1;
	return 0;
}

/*
 * The mount point of the cgroup2 hierarchy (v1: of the one with cpuacct),
 * and the mount's root inside it, from /proc/self/mountinfo:
 * "id parent maj:min root mountpoint opts ... - fstype source superopts".
 */
static int cg_mount(int v1, char *mnt, size_t mlen, char *root, size_t rlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], r[PATH_MAX], m[PATH_MAX], fs[32], sup[512];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(dash, " - %31s %*s %511s", fs, sup) != 2)
			continue;
		if (strcmp(fs, v1 ? "cgroup" : "cgroup2") ||
		    (v1 && !has_opt(sup, "cpuacct")))
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

/* Where the path starts in a /proc/self/cgroup line of ours, or -1 */
static int cg_line_off(int v1, const char *line)
{
	char ctl[256];
	int off = 0;

	if (!v1)
		return strncmp(line, "0::", 3) ? -1 : 3;
	if (sscanf(line, "%*u:%255[^:]:%n", ctl, &off) != 1 || !off ||
	    !has_opt(ctl, "cpuacct"))
		return -1;
	return off;
}

/* Our cgroup's path in the hierarchy: "0::/a" (v2), "N:cpu,cpuacct:/a" */
static int cg_own(int v1, char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 64];
	int ret = -ENOENT, off;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		off = cg_line_off(v1, line);
		if (off < 0)
			continue;
		snprintf(buf, len, "%s", line + off);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

/*
 * Can we remove path later only with CAP_DAC_OVERRIDE? A hierarchy's root
 * is r-x even for root; a cgroup made by root is rwx for it.
 */
static int cg_parent_locked(const char *path)
{
	char parent[PATH_MAX];
	struct stat st;
	char *slash;

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (!slash)
		return 1;
	*slash = 0;
	if (stat(parent, &st))
		return 1;
	return !(st.st_uid == geteuid() &&
		 (st.st_mode & (S_IWUSR | S_IXUSR)) == (S_IWUSR | S_IXUSR));
}

static int cg_make(struct tstime_cg *cg, int v1, char *why, size_t len)
{
	static unsigned int seq;
	char mnt[PATH_MAX], root[PATH_MAX], own[PATH_MAX];
	const char *rel;
	int ret;

	if (cg_mount(v1, mnt, sizeof(mnt), root, sizeof(root))) {
		snprintf(why, len, v1 ? "no cpuacct mount" : "no cgroup2 mount");
		return -ENOENT;
	}
	ret = cg_own(v1, own, sizeof(own));
	if (ret) {
		snprintf(why, len, "not in that hierarchy");
		return ret;
	}
	/* a mount of a subtree shows paths below its root */
	rel = own;
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
		snprintf(why, len, "%.200s: %s", cg->path, strerror(errno));
		return ret;
	}
	cg->made = 1;
	cg->v1 = v1;
	cg->need_override = cg_parent_locked(cg->path);
	/* v2: the command in a leaf below it (tstime_cg_read_final()) */
	snprintf(cg->leaf, sizeof(cg->leaf), "%s%s", cg->path, v1 ? "" : "/run");
	if (!v1 && mkdir(cg->leaf, 0755))
		goto err;
	cg->leaf_made = !v1;
	cg->fd = open(cg->leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd >= 0) {
		char p[PATH_MAX + 32];

		snprintf(p, sizeof(p), "%s/cgroup.procs", cg->leaf);
		cg->procs_fd = open(p, O_WRONLY | O_CLOEXEC);
	}
	if (cg->fd >= 0 && cg->procs_fd >= 0)
		return 0;
err:
	ret = -errno;
	snprintf(why, len, "%.200s: %s", cg->leaf, strerror(errno));
	tstime_cg_close(cg, NULL, 0);
	return ret;
}

/*
 * The run's cgroup: v2, else v1 cpuacct (then why says why not v2).
 * 0, or -errno with both reasons in why.
 */
int tstime_cg_open(struct tstime_cg *cg, char *why, size_t len)
{
	char v1why[192];
	const char *e;
	size_t n;
	int ret;

	memset(cg, 0, sizeof(*cg));
	cg->fd = cg->procs_fd = -1;
	ret = cg_make(cg, 0, why, len);
	if (!ret)
		return 0;
	if (!cg_make(cg, 1, v1why, sizeof(v1why)))
		return 0;	/* why: why not v2 */
	/* one short line: v1's reason without its path */
	e = strstr(v1why, ": ");
	n = strlen(why);
	snprintf(why + n, len - n, "; v1: %s", e ? e + 2 : v1why);
	return ret;
}

/* v1: cpuacct.usage* (ns) */
static int cg_read_v1(const struct tstime_cg *cg, struct tstime_cg_stat *st)
{
	static const char *const files[] = {
		"cpuacct.usage", "cpuacct.usage_user", "cpuacct.usage_sys",
	};
	uint64_t *v[] = { &st->usage_ns, &st->user_ns, &st->sys_ns };
	char p[PATH_MAX + 32], line[64];
	unsigned long long n;
	size_t i;
	int ret;

	for (i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/%s", cg->path, files[i]);
		ret = read_line(p, NULL, line, sizeof(line));
		if (ret)
			return ret;
		if (sscanf(line, "%llu", &n) != 1)
			return -EPROTO;
		*v[i] = n;
	}
	st->v1 = 1;
	return 0;
}

/* cpu.stat of the run's cgroup (v1: cpuacct), in ns. 0 or -errno. */
int tstime_cg_read(const struct tstime_cg *cg, struct tstime_cg_stat *st)
{
	char p[PATH_MAX + 32], line[128];
	unsigned long long v;
	FILE *f;
	int n = 0;

	memset(st, 0, sizeof(*st));
	if (cg->v1)
		return cg_read_v1(cg, st);
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

static uint64_t cg_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Wait, at most max_ms, until no task is left in the cgroup: children
 * that reaped themselves may still be on their exit paths when their
 * parent, the last one tstime waited for, is gone (seconds of them under
 * an emulated CPU). 1 when empty.
 */
int tstime_cg_settle(const struct tstime_cg *cg, unsigned int max_ms)
{
	struct timespec ts = { 0, 2000000 };
	uint64_t end = cg_mono_ms() + max_ms;
	char p[PATH_MAX + 32], line[64];

	/* v1 has no cgroup.events: its cgroup.procs is empty */
	snprintf(p, sizeof(p), "%s/%s", cg->leaf,
		 cg->v1 ? "cgroup.procs" : "cgroup.events");
	for (;;) {
		int ret = read_line(p, cg->v1 ? NULL : "populated ", line,
				    sizeof(line));

		if (cg->v1 ? ret == -ENOENT : !ret && !strcmp(line, "populated 0"))
			return 1;
		if ((!cg->v1 && ret) || cg_mono_ms() >= end)
			return 0;
		nanosleep(&ts, NULL);
	}
}

/*
 * v2: wait until no removed cgroup below ours is still dying: 0.1-0.3 ms
 * here, longer on a loaded machine (RCU and a workqueue free it). Polled
 * from 0.25 ms on, each wait twice the last up to 16 ms, the file kept
 * open: a few reads however long it takes (tstime's own time).
 */
static int cg_wait_dead(const struct tstime_cg *cg, uint64_t end)
{
	struct timespec ts = { 0, 250000 };
	char p[PATH_MAX + 32], buf[512];
	int fd, dead = 0;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/cgroup.stat", cg->path);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (;;) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			break;
		buf[n] = '\0';
		if (strstr(buf, "nr_dying_descendants 0\n")) {
			dead = 1;
			break;
		}
		if (cg_mono_ms() >= end)
			break;
		nanosleep(&ts, NULL);
		if (ts.tv_nsec < 16000000)
			ts.tv_nsec *= 2;
	}
	close(fd);
	return dead;
}

/*
 * The counter once the last exit paths are in it. A task goes on with its
 * exit notification (a self-reaped one: its own release) and last
 * schedule after it left the cgroup's task list (populated 0), charged to
 * the cgroup all the same (~10 us here, ms under an emulated CPU). v2:
 * the command's leaf cgroup is removed, and stays "dying" until the last
 * of its tasks is freed, after its last schedule; then its counts are in
 * ours. v1 (or if that fails): read again every 2 ms until two reads
 * agree. For at most max_ms.
 */
int tstime_cg_read_final(struct tstime_cg *cg, struct tstime_cg_stat *st,
			 unsigned int max_ms)
{
	struct timespec ts = { 0, 2000000 };
	uint64_t end = cg_mono_ms() + max_ms;
	struct tstime_cg_stat next;
	int ret;

	if (max_ms && cg->leaf_made && !rmdir(cg->leaf)) {
		cg->leaf_made = 0;
		if (cg_wait_dead(cg, end))
			return tstime_cg_read(cg, st);
	}
	ret = tstime_cg_read(cg, st);
	while (!ret && cg_mono_ms() < end) {
		nanosleep(&ts, NULL);
		ret = tstime_cg_read(cg, &next);
		if (ret || next.usage_ns == st->usage_ns)
			break;
		*st = next;
	}
	return ret;
}

/*
 * Descendants tstime did not wait for (--no-wait, a signal) go on in the
 * cgroup tstime is in, as if it had made none: moved there from dir, one
 * by one.
 */
static void cg_hand_back(const struct tstime_cg *cg, const char *dir)
{
	char from[PATH_MAX + 32], to[PATH_MAX + 32], pid[32];
	char *slash;
	FILE *f, *t;

	snprintf(from, sizeof(from), "%s/cgroup.procs", dir);
	snprintf(to, sizeof(to), "%s", cg->path);
	slash = strrchr(to, '/');
	if (!slash)
		return;
	snprintf(slash, sizeof(to) - (size_t)(slash - to), "/cgroup.procs");
	f = fopen(from, "re");
	if (!f)
		return;
	while (fgets(pid, sizeof(pid), f)) {
		t = fopen(to, "we");
		if (!t)
			break;
		fputs(pid, t);
		fclose(t);
	}
	fclose(f);
}

/* rmdir, handing back what is in it; 0 or -1 with errno */
static int cg_remove(const struct tstime_cg *cg, const char *dir)
{
	struct timespec ts = { 0, 2000000 };
	int i, ret = 0;

	/* a task just moved out may keep it populated a moment */
	for (i = 0; i < 50 && (ret = rmdir(dir)) && errno == EBUSY; i++) {
		cg_hand_back(cg, dir);
		nanosleep(&ts, NULL);
	}
	return ret;
}

/* Remove the run's cgroup; if that fails, why says so. */
void tstime_cg_close(struct tstime_cg *cg, char *why, size_t len)
{
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->fd >= 0)
		close(cg->fd);
	cg->procs_fd = cg->fd = -1;
	if (cg->leaf_made && cg_remove(cg, cg->leaf) && why)
		snprintf(why, len, "cgroup %s left behind: %s", cg->leaf,
			 strerror(errno));
	cg->leaf_made = 0;
	if (cg->made && cg_remove(cg, cg->path) && why && !why[0])
		snprintf(why, len, "cgroup %s left behind: %s", cg->path,
			 strerror(errno));
	cg->made = 0;
}
