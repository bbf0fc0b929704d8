// SPDX-License-Identifier: GPL-2.0
/* /proc enumeration and parsing shared by the procfs and taskstats sources */
#include <ctype.h>
#include <stdbool.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procfs_read.h"
#include "proc_stat.h"

#define PFS_BUF_INIT	4096

int ptop_pfs_open(struct ptop_pfs *p, const char *proc_root)
{
	long pg;

	memset(p, 0, sizeof(*p));
	p->root_fd = open(proc_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (p->root_fd < 0)
		return -errno;
	p->buf = malloc(PFS_BUF_INIT);
	if (!p->buf) {
		close(p->root_fd);
		p->root_fd = -1;
		return -ENOMEM;
	}
	p->bufsz = PFS_BUF_INIT;
	p->task_fd = -1;
	p->hz = sysconf(_SC_CLK_TCK);
	if (p->hz <= 0)
		p->hz = 100;
	pg = sysconf(_SC_PAGESIZE);
	p->page_kb = pg > 0 ? pg / 1024 : 4;
	ptop_cpuidle_open(&p->idle, proc_root);
	return 0;
}

void ptop_pfs_close(struct ptop_pfs *p)
{
	if (p->root_fd >= 0)
		close(p->root_fd);
	free(p->buf);
	free(p->cpu_idle_ns);
	ptop_cpuidle_close(&p->idle);
	memset(p, 0, sizeof(*p));
	p->root_fd = -1;
}

uint64_t ptop_pfs_ticks_ns(const struct ptop_pfs *p, uint64_t ticks)
{
	if (1000000000L % p->hz == 0)
		return ticks * (uint64_t)(1000000000L / p->hz);
	return (uint64_t)((unsigned __int128)ticks * 1000000000U / p->hz);
}

static int gone(int err)
{
	return err == ENOENT || err == ESRCH;
}

/*
 * until_eof: keep reading until read() returns 0. Needed for seq_files
 * that emit one record per iteration (/proc/stat on a machine with many
 * CPUs and interrupts),
 * not for the per-task files, which answer in one go: this saves a
 * syscall per file on the hot path.
 */
static ssize_t read_at(struct ptop_pfs *p, int dirfd, const char *name,
		       bool until_eof)
{
	size_t len = 0;
	ssize_t n;
	int fd, err;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gone(errno) ? -ENOENT : -errno;
	for (;;) {
		n = read(fd, p->buf + len, p->bufsz - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = gone(errno) ? -ENOENT : -errno;
			close(fd);
			return err;
		}
		len += n;
		/* seq_file answers in one go unless the buffer is full */
		if (n == 0 || (!until_eof && len < p->bufsz - 1))
			break;
		if (len < p->bufsz - 1)
			continue;
		if (p->bufsz >= (1U << 24)) {
			close(fd);
			return -EFBIG;
		}
		{
			char *nb = realloc(p->buf, p->bufsz * 2);

			if (!nb) {
				close(fd);
				return -ENOMEM;
			}
			p->buf = nb;
			p->bufsz *= 2;
		}
	}
	close(fd);
	p->buf[len] = '\0';
	/* a dead task's file may read empty */
	return len ? (ssize_t)len : -ENOENT;
}

ssize_t ptop_pfs_read_at(struct ptop_pfs *p, int dirfd, const char *name)
{
	return read_at(p, dirfd, name, false);
}

/* Next unsigned decimal field; *s moves past it. */
static int next_u64(const char **s, uint64_t *v)
{
	const char *c = *s;
	char *end;
	int neg = 0;

	while (*c == ' ')
		c++;
	if (*c == '-') {	/* e.g. -1 for exit signal: never used */
		neg = 1;
		c++;
	}
	if (!isdigit((unsigned char)*c))
		return -EINVAL;
	*v = strtoull(c, &end, 10);
	if (neg)
		*v = 0;
	*s = end;
	return 0;
}

int ptop_pfs_parse_stat(const char *buf, struct ptop_pfs_stat *st)
{
	const char *open, *close_p, *s;
	uint64_t f[22];	/* fields 4..25 of proc_pid_stat(5) */
	size_t n;
	int i;

	memset(st, 0, sizeof(*st));
	open = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open || !close_p || close_p < open)
		return -EINVAL;
	st->pid = atoi(buf);
	n = close_p - open - 1;
	if (n >= sizeof(st->comm))
		n = sizeof(st->comm) - 1;
	memcpy(st->comm, open + 1, n);
	st->comm[n] = '\0';
	s = close_p + 1;
	while (*s == ' ')
		s++;
	if (!*s)
		return -EINVAL;
	st->state = *s++;
	for (i = 0; i < 22; i++)
		if (next_u64(&s, &f[i]))
			return -EINVAL;
	/* f[0] = field 4 (ppid) ... f[k] = field k + 4 */
	st->ppid = (int)f[0];
	st->minflt = f[6];
	st->cminflt = f[7];
	st->majflt = f[8];
	st->cmajflt = f[9];
	st->utime = f[10];
	st->stime = f[11];
	st->cutime = f[12];
	st->cstime = f[13];
	st->nthreads = f[16];
	st->starttime = f[18];
	st->rss_pages = f[20];
	return 0;
}

static const char *line_val(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n))
		return NULL;
	return line + n;
}

int ptop_pfs_read_stat(struct ptop_pfs *p, int dirfd, struct ptop_pfs_stat *st)
{
	ssize_t n = ptop_pfs_read_at(p, dirfd, "stat");

	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return n;
	return ptop_pfs_parse_stat(p->buf, st) ? 0 : 1;
}

int ptop_pfs_parse_status(const char *buf, struct ptop_pfs_status *st)
{
	const char *l = buf, *v;

	memset(st, 0, sizeof(*st));
	while (l && *l) {
		if ((v = line_val(l, "Uid:"))) {
			st->uid = (uint32_t)strtoul(v, NULL, 10);
			st->has_uid = 1;
		} else if ((v = line_val(l, "VmRSS:"))) {
			st->vmrss_kb = strtoull(v, NULL, 10);
			st->has_mem = 1;
		} else if ((v = line_val(l, "VmHWM:"))) {
			st->vmhwm_kb = strtoull(v, NULL, 10);
			st->has_mem = 1;
		} else if ((v = line_val(l, "voluntary_ctxt_switches:"))) {
			st->nvcsw = strtoull(v, NULL, 10);
			st->has_ctxt = 1;
		} else if ((v = line_val(l, "nonvoluntary_ctxt_switches:"))) {
			st->nivcsw = strtoull(v, NULL, 10);
		}
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return st->has_uid ? 0 : -EINVAL;
}

int ptop_pfs_parse_schedstat(const char *buf, uint64_t *run_ns,
			     uint64_t *delay_ns)
{
	const char *s = buf;

	if (next_u64(&s, run_ns) || next_u64(&s, delay_ns))
		return -EINVAL;
	return 0;
}

/* remember cpuN's idle+iowait from /proc/stat, for the ns idle below */
static void note_cpu_idle(struct ptop_pfs *p, const struct ptop_stat_cpu *c)
{
	unsigned int cpu;

	if (c->cpu > 65535 || c->n < 5)
		return;
	cpu = c->cpu;
	if (cpu >= p->cap_idle) {
		unsigned int ncap = cpu + 64;
		uint64_t *n = realloc(p->cpu_idle_ns, ncap * sizeof(*n));

		if (!n)
			return;
		memset(n + p->cap_idle, 0, (ncap - p->cap_idle) * sizeof(*n));
		p->cpu_idle_ns = n;
		p->cap_idle = ncap;
	}
	p->cpu_idle_ns[cpu] = ptop_pfs_ticks_ns(p, c->v[PTOP_STAT_IDLE] +
						   c->v[PTOP_STAT_IOWAIT]);
	if (cpu + 1 > p->ncpu_idle)
		p->ncpu_idle = cpu + 1;
}

int ptop_pfs_read_cpu(struct ptop_pfs *p, struct ptop_cpu_sum *sum,
		      unsigned int *ncpu)
{
	struct ptop_stat_cpu c, total;
	const uint64_t *v = total.v;
	const char *l;
	int found = 0;
	ssize_t n;

	memset(sum, 0, sizeof(*sum));
	*ncpu = 0;
	p->ncpu_idle = 0;
	n = read_at(p, p->root_fd, "stat", true);
	if (n < 0)
		return n;
	for (l = p->buf; l && *l; l = ptop_stat_next_line(l)) {
		if (!ptop_stat_cpu_line(l, &c))
			continue;
		if (c.cpu >= 0) {
			(*ncpu)++;
			note_cpu_idle(p, &c);
			continue;
		}
		if (found)
			continue;
		/* user nice system idle iowait irq softirq steal guest gnice */
		if (c.n < 8)
			return -EINVAL;
		total = c;
		found = 1;
	}
	if (!found)
		return -EINVAL;
	sum->idle_ns = ptop_pfs_ticks_ns(p, v[3] + v[4]);
	sum->iowait_ns = ptop_pfs_ticks_ns(p, v[4]);
	sum->irq_ns = ptop_pfs_ticks_ns(p, v[5] + v[6]);
	sum->steal_ns = ptop_pfs_ticks_ns(p, v[7]);
	sum->busy_ns = ptop_pfs_ticks_ns(p, v[0] + v[1] + v[2]);
	if (ptop_pfs_read_idle_ns(p, sum))
		p->idle_ticks = 1;
	return 0;
}

/*
 * /proc/stat has idle in clock ticks (10 ms): over a 1 s interval on a
 * few CPUs that alone is a 1-2% error in "accounted X% of Y%". cpuidle's
 * statistics (cpuidle.h) have, per CPU, the idle periods that ENDED, to
 * the us; an idle period in progress is not in them, while /proc/stat's
 * value includes it, floored to a tick (NO_HZ keeps it in ns). So per CPU:
 *   idle = max(cpuidle's ended periods, /proc/stat's ticks)
 * which is exact to the us for a CPU that is busy now, and at most a tick
 * short for one that is idle now (as the timer_list reading it replaces
 * was, at no cost that grows with the timers). A CPU without cpuidle, or
 * a file that cannot be read or parsed: the ticks stay for every CPU, and
 * p->idle_ticks says so (the source widens its bound).
 */
int ptop_pfs_read_idle_ns(struct ptop_pfs *p, struct ptop_cpu_sum *sum)
{
	uint64_t tot = 0, ended, stat;
	unsigned int i;
	int any = 0, ret;

	if (!p->ncpu_idle)
		return -ENODATA;
	for (i = 0; i < p->ncpu_idle; i++) {
		stat = p->cpu_idle_ns[i];
		if (!stat)	/* not in /proc/stat: offline */
			continue;
		ret = ptop_cpuidle_read(&p->idle, i, &ended);
		if (ret)
			return ret;
		any |= ended > 0;
		tot += ended > stat ? ended : stat;
	}
	/* a driver that never counts (every state at 0): keep the ticks */
	if (!any)
		return -ENODATA;
	sum->idle_ns = tot;
	return 0;
}

static int is_id(const char *name, int *id)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)name[0]))
		return 0;
	v = strtol(name, &end, 10);
	if (*end || v <= 0 || v > 0x7fffffff)
		return 0;
	*id = (int)v;
	return 1;
}

static int for_each_dir(int dfd, ptop_pfs_quiet_fn quiet, ptop_pfs_task_fn fn,
			void *arg)
{
	struct dirent *de;
	DIR *d;
	int ret = 0, id, fd;

	d = fdopendir(dfd);
	if (!d) {
		ret = -errno;
		close(dfd);
		return ret;
	}
	while ((de = readdir(d))) {
		if (!is_id(de->d_name, &id))
			continue;
		if (quiet) {
			ret = quiet(arg, id, de->d_ino);
			if (ret < 0)
				break;
			if (ret > 0) {
				ret = 0;
				continue;
			}
		}
		fd = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			if (gone(errno))
				continue;
			ret = -errno;
			break;
		}
		ret = fn(arg, id, fd);
		close(fd);
		if (ret)
			break;
	}
	closedir(d);
	return ret;
}

int ptop_pfs_for_each_group(struct ptop_pfs *p, ptop_pfs_task_fn fn,
			    void *arg)
{
	int fd = openat(p->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return for_each_dir(fd, NULL, fn, arg);
}

int ptop_pfs_for_each_group_q(struct ptop_pfs *p, ptop_pfs_quiet_fn quiet,
			      ptop_pfs_task_fn fn, void *arg)
{
	int fd = openat(p->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return for_each_dir(fd, quiet, fn, arg);
}

int ptop_pfs_for_each_thread(struct ptop_pfs *p, int gdirfd,
			     ptop_pfs_task_fn fn, void *arg)
{
	return ptop_pfs_for_each_thread_q(p, gdirfd, NULL, fn, arg);
}

int ptop_pfs_for_each_thread_q(struct ptop_pfs *p, int gdirfd,
			       ptop_pfs_quiet_fn quiet, ptop_pfs_task_fn fn,
			       void *arg)
{
	int fd = openat(gdirfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return gone(errno) ? -ENOENT : -errno;
	p->task_fd = fd;
	ret = for_each_dir(fd, quiet, fn, arg);
	p->task_fd = -1;
	return ret;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000U + ts.tv_nsec;
}

uint64_t ptop_pfs_mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

uint64_t ptop_pfs_boot_ns(void)
{
	return clock_ns(CLOCK_BOOTTIME);
}

int ptop_pfs_sample_begin(struct ptop_pfs *p, struct ptop_sample *out)
{
	p->idle_ticks = 0;
	out->time_ns = ptop_pfs_mono_ns();
	return ptop_pfs_read_cpu(p, &out->cpu, &out->ncpu);
}

static uint64_t mid(uint64_t a, uint64_t b)
{
	return a / 2 + b / 2 + (a % 2 + b % 2) / 2;
}

int ptop_pfs_sample_end(struct ptop_pfs *p, struct ptop_sample *out)
{
	struct ptop_cpu_sum end;
	unsigned int ncpu;
	uint64_t t = ptop_pfs_mono_ns();
	int ret = ptop_pfs_read_cpu(p, &end, &ncpu);

	if (ret)
		return ret;
	/* every task was read somewhere in between */
	out->window_ns = t - out->time_ns;
	out->time_ns = mid(out->time_ns, t);
	out->cpu.idle_ns = mid(out->cpu.idle_ns, end.idle_ns);
	out->cpu.iowait_ns = mid(out->cpu.iowait_ns, end.iowait_ns);
	out->cpu.steal_ns = mid(out->cpu.steal_ns, end.steal_ns);
	out->cpu.irq_ns = mid(out->cpu.irq_ns, end.irq_ns);
	out->cpu.busy_ns = mid(out->cpu.busy_ns, end.busy_ns);
	return 0;
}
