// SPDX-License-Identifier: GPL-2.0
/*
 * tstime: where the CPU time of the tree comes from, best first.
 *
 * kmod:      the module's accounting hierarchy. tstime's own GROUP record
 *            carries c*, the time of every dead descendant folded into it,
 *            self-reaped children and orphans included: read before and
 *            after, two queries of one record each. Exact and free.
 * taskstats: the stock kernel's exit listener: the final counters of every
 *            task that dies, kept when it descends from tstime (lib/
 *            tree_acct over the proc connector). Exact; costs one message
 *            per exiting task system-wide; needs CAP_NET_ADMIN. The ns
 *            runtime needs kernel.task_delayacct=1 on older kernels: set
 *            while tstime runs and restored, as the taskstats_nl source
 *            of ptop does (newer kernels fill it regardless).
 * rusage:    wait4() of the command and, as child subreaper, of every
 *            orphan. Children that reaped themselves are lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "lib/cputime.h"
#include "tstime.h"

#define KMOD_PATH	"/proc/" PTOP_TS_PROC_NAME
#define DELAYACCT	"/proc/sys/kernel/task_delayacct"
#define TS_RCVBUF	(8 << 20)

const char *tstime_src_name(const struct tstime_src *s)
{
	static const char *const names[] = {
		[TSTIME_SRC_KMOD] = "kmod",
		[TSTIME_SRC_TASKSTATS] = "taskstats",
		[TSTIME_SRC_RUSAGE] = "rusage",
	};

	return names[s->kind];
}

static void why_add(struct tstime_src *s, const char *name, const char *msg)
{
	size_t n = strlen(s->why);

	snprintf(s->why + n, sizeof(s->why) - n, "%s%s: %s", n ? "; " : "",
		 name, msg);
}

/* --- kmod ------------------------------------------------------------ */

/* One command, the whole answer into *buf (grown). Its length or -errno. */
static ssize_t kmod_query(int fd, const struct ptop_ts_cmd *cmd,
			  unsigned char **buf, size_t *cap)
{
	size_t len = 0;
	ssize_t n;

	if (write(fd, cmd, sizeof(*cmd)) != (ssize_t)sizeof(*cmd))
		return -errno;
	for (;;) {
		if (len == *cap) {
			size_t ncap = *cap ? 2 * *cap : 256 * 1024;
			unsigned char *nb = realloc(*buf, ncap);

			if (!nb)
				return -ENOMEM;
			*buf = nb;
			*cap = ncap;
		}
		n = read(fd, *buf + len, *cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return len;
		len += n;
	}
}

/* The answer header, and the i-th record (zero padded) of an answer. */
static int kmod_parse(const unsigned char *buf, size_t len,
		      struct ptop_ts_answer *ans, const unsigned char **recs)
{
	size_t off;

	if (len < sizeof(*ans))
		return -EPROTO;
	memcpy(ans, buf, sizeof(*ans));
	if (ans->size < sizeof(*ans) || !ans->rec_size)
		return -EPROTO;
	off = ans->size + (size_t)ans->ncpu * sizeof(struct ptop_ts_cpu);
	if (off + (size_t)ans->count * ans->rec_size > len)
		return -EPROTO;
	*recs = buf + off;
	return 0;
}

static void kmod_rec(const struct ptop_ts_answer *ans,
		     const unsigned char *recs, uint32_t i,
		     struct ptop_ts_record *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r, recs + (size_t)i * ans->rec_size,
	       ans->rec_size < sizeof(*r) ? ans->rec_size : sizeof(*r));
}

/* tstime's own GROUP record: asks for our pid only. */
static int kmod_self(struct tstime_src *s, struct ptop_ts_record *self,
		     struct ptop_ts_answer *ans)
{
	struct ptop_ts_cmd cmd = {
		.cmd = PTOP_TS_CMD_PIDS,
		.flags = PTOP_TS_CMDF_STEAL,
		.start_pid = getpid(),
		.max_count = 4,
	};
	const unsigned char *recs;
	unsigned char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	uint32_t i;
	int ret;

	len = kmod_query(s->kfd, &cmd, &buf, &cap);
	if (len < 0) {
		ret = len;
		goto out;
	}
	ret = kmod_parse(buf, len, ans, &recs);
	if (ret)
		goto out;
	ret = -ESRCH;
	for (i = 0; i < ans->count; i++) {
		kmod_rec(ans, recs, i, self);
		if (self->kind == PTOP_TS_KIND_GROUP &&
		    self->tgid == (uint32_t)getpid() &&
		    !(self->flags & PTOP_TS_RECF_EXIT)) {
			ret = 0;
			break;
		}
	}
out:
	free(buf);
	return ret;
}

static int kmod_open(struct tstime_src *s, int forced, char *err,
		     size_t errlen)
{
	struct ptop_ts_record self;
	struct ptop_ts_answer ans;
	int ret;

	s->kfd = open(KMOD_PATH, O_RDWR | O_CLOEXEC);
	if (s->kfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s%s", KMOD_PATH, strerror(-ret),
			 ret == -ENOENT ? " (module ptop_taskstats not loaded)" :
			 "");
		return ret;
	}
	ret = kmod_self(s, &self, &ans);
	if (ret) {
		snprintf(err, errlen, "%s: query of own pid: %s", KMOD_PATH,
			 strerror(-ret));
		goto err_close;
	}
	if (!(ans.flags & PTOP_TS_ANSF_CHILDREN) ||
	    !(self.flags & PTOP_TS_RECF_HAS_C)) {
		snprintf(err, errlen, "the module has no c* yet (answer flag PTOP_TS_ANSF_CHILDREN missing)");
		ret = -EOPNOTSUPP;
		goto err_close;
	}
	return 0;

err_close:
	close(s->kfd);
	s->kfd = -1;
	return ret;
}

static int kmod_begin(struct tstime_src *s)
{
	struct ptop_ts_record self;
	struct ptop_ts_answer ans;
	int ret = kmod_self(s, &self, &ans);

	if (ret)
		return ret;
	s->ansf = ans.flags;
	s->seq0 = ans.seq_now;
	s->start_ns = self.start_ns;
	s->cu0 = self.cutime_ns;
	s->cs0 = self.cstime_ns;
	s->cst0 = self.csteal_ns;
	return 0;
}

/* A dead group, from the module's EXIT records: (tgid, start) -> folded */
struct kexit {
	struct ptop_ts_record r;
	int desc;
};

static int kmod_is_desc(const struct kexit *k, size_t n, uint32_t tgid,
			uint64_t start, uint32_t me, uint64_t my_start)
{
	size_t i;

	if (tgid == me && start == my_start)
		return 1;
	for (i = 0; i < n; i++)
		if (k[i].desc && k[i].r.tgid == tgid && k[i].r.start_ns == start)
			return 1;
	return 0;
}

static int kmod_comm_add(struct tstime_src *s, const struct ptop_ts_record *r)
{
	struct ptop_tree_comm *c;
	size_t i;

	for (i = 0; i < s->nkcomms; i++)
		if (!strncmp(s->kcomms[i].comm, r->comm, PTOP_TS_COMM_LEN))
			break;
	if (i == s->nkcomms) {
		c = realloc(s->kcomms, (i + 1) * sizeof(*c));
		if (!c)
			return -ENOMEM;
		s->kcomms = c;
		memset(&c[i], 0, sizeof(c[i]));
		memcpy(c[i].comm, r->comm, PTOP_TS_COMM_LEN - 1);
		s->nkcomms++;
	}
	c = &s->kcomms[i];
	c->procs++;
	c->cpu_ns += r->utime_ns + r->stime_ns + r->xutime_ns + r->xstime_ns;
	return 0;
}

static int kcomm_cmp(const void *a, const void *b)
{
	const struct ptop_tree_comm *x = a, *y = b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns < y->cpu_ns ? 1 : -1;
	return strncmp(x->comm, y->comm, PTOP_TS_COMM_LEN);
}

/*
 * The module's EXIT records since the first query: every group that died,
 * with the group it was folded into. Ours: folded into tstime, or into a
 * group of ours. Gives the process count and the per-command breakdown.
 */
static void kmod_exits(struct tstime_src *s, struct tstime_result *res)
{
	struct ptop_ts_cmd cmd = {
		.cmd = PTOP_TS_CMD_PIDS,
		.since_seq = s->seq0,
	};
	const unsigned char *recs;
	unsigned char *buf = NULL;
	struct ptop_ts_answer ans;
	struct kexit *k = NULL;
	size_t cap = 0, n = 0, i;
	ssize_t len;
	int changed;

	res->tree_note = "the module's exit records could not be read";
	len = kmod_query(s->kfd, &cmd, &buf, &cap);
	if (len < 0 || kmod_parse(buf, len, &ans, &recs))
		goto out;
	if (ans.flags & (PTOP_TS_ANSF_RESYNC | PTOP_TS_ANSF_MORE)) {
		res->tree_note = "the module's exit ring overran";
		goto out;
	}
	k = calloc(ans.count ? ans.count : 1, sizeof(*k));
	if (!k)
		goto out;
	for (i = 0; i < ans.count; i++) {
		kmod_rec(&ans, recs, i, &k[n].r);
		if (k[n].r.kind == PTOP_TS_KIND_GROUP &&
		    (k[n].r.flags & PTOP_TS_RECF_EXIT))
			n++;
	}
	do {
		changed = 0;
		for (i = 0; i < n; i++) {
			if (k[i].desc ||
			    !kmod_is_desc(k, n, k[i].r.folded_into,
					  k[i].r.folded_start_ns, getpid(),
					  s->start_ns))
				continue;
			k[i].desc = 1;
			changed = 1;
		}
	} while (changed);
	res->procs = 0;
	for (i = 0; i < n; i++) {
		if (!k[i].desc)
			continue;
		res->procs++;
		if (kmod_comm_add(s, &k[i].r))
			goto out;
	}
	if (s->nkcomms > 1)
		qsort(s->kcomms, s->nkcomms, sizeof(*s->kcomms), kcomm_cmp);
	res->comms = s->kcomms;
	res->ncomms = s->nkcomms;
	res->tree_avail = 1;
	res->tree_note = NULL;
out:
	free(k);
	free(buf);
}

static int kmod_end(struct tstime_src *s, struct tstime_result *res,
		    char *err, size_t errlen)
{
	struct ptop_ts_record self;
	struct ptop_ts_answer ans;
	int ret = kmod_self(s, &self, &ans);

	if (ret) {
		snprintf(err, errlen, "%s: query of own pid: %s", KMOD_PATH,
			 strerror(-ret));
		return ret;
	}
	res->user_ns = self.cutime_ns - s->cu0;
	res->sys_ns = self.cstime_ns - s->cs0;
	if ((ans.flags & PTOP_TS_ANSF_STEAL) &&
	    (self.flags & PTOP_TS_RECF_HAS_STEAL)) {
		res->has_steal = 1;
		res->steal_ns = self.csteal_ns - s->cst0;
	}
	res->exact = (ans.flags & PTOP_TS_ANSF_CHILDREN) &&
		     !(self.flags & PTOP_TS_RECF_C_PARTIAL) &&
		     self.cutime_ns >= s->cu0 && self.cstime_ns >= s->cs0;
	kmod_exits(s, res);
	return 0;
}

/* --- taskstats ------------------------------------------------------- */

static int sysctl_get(void)
{
	char b[16] = "";
	int fd = open(DELAYACCT, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	return n > 0 ? atoi(b) : -EIO;
}

static int sysctl_set(int v)
{
	char b[16];
	int fd = open(DELAYACCT, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	snprintf(b, sizeof(b), "%d\n", v);
	if (write(fd, b, strlen(b)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Does the kernel fill cpu_run_virtual_total? 1, 0, or -errno. Asked
 * about a child forked now (delay accounting is allocated at fork, so
 * after setting the sysctl only new tasks can tell) once it slept (the
 * runtime of a task that never left the CPU may still read 0).
 */
static int ts_precise(struct tstime_src *s)
{
	int go[2], up[2], ret;
	char c = 0;
	pid_t pid;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(up, O_CLOEXEC)) {
		ret = -errno;
		goto out_go;
	}
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out_up;
	}
	if (!pid) {
		/* say so, sleep (the runtime is folded in) until released */
		close(go[1]);
		close(up[0]);
		if (write(up[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(up[1]);
	up[1] = -1;
	if (read(up[0], &c, 1) == 1) {
		struct ptop_tsnl_stats st;

		ret = ptop_tsnl_get_pid(&s->ts, pid, &st);
		if (!ret)
			ret = st.run_virtual_ns > 0;
	} else {
		ret = -EIO;
	}
	close(go[1]);
	go[1] = -1;
	waitpid(pid, NULL, 0);
out_up:
	close(up[0]);
	if (up[1] >= 0)
		close(up[1]);
out_go:
	close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	return ret;
}

static int ts_open(struct tstime_src *s, char *err, size_t errlen)
{
	int ret;

	ret = ptop_tsnl_open(&s->ts);
	if (ret) {
		snprintf(err, errlen, ret == -ENOENT ?
			 "the kernel has no taskstats genetlink family" :
			 "taskstats netlink: %s", strerror(-ret));
		return ret;
	}
	s->ts_open = 1;
	ret = ts_precise(s);
	if (ret == -EPERM || ret == -EACCES) {
		snprintf(err, errlen, "taskstats needs CAP_NET_ADMIN (run as root)");
		return -EPERM;
	}
	if (ret < 0) {
		snprintf(err, errlen, "taskstats query: %s", strerror(-ret));
		return ret;
	}
	/*
	 * Newer kernels fill the runtime without delay accounting: then
	 * leave the sysctl alone. Set to 1 by someone else: it may be
	 * needed, keep it set (ts_keep_delayacct()).
	 */
	if (!ret && sysctl_get() == 0 && !sysctl_set(1)) {
		s->old_delayacct = 0;
		ret = ts_precise(s);
		if (ret <= 0) {
			sysctl_set(0);
			s->old_delayacct = -1;
		}
	}
	s->keep_delayacct = ret > 0 &&
		     (s->old_delayacct >= 0 || sysctl_get() == 1);
	ret = ptop_tsnl_listen(&s->ts, NULL, TS_RCVBUF);
	if (ret) {
		snprintf(err, errlen, "taskstats exit listener: %s",
			 strerror(-ret));
		return ret == -EACCES ? -EPERM : ret;
	}
	ret = ptop_cnproc_open(&s->cn, TS_RCVBUF);
	if (ret) {
		snprintf(err, errlen, "proc connector: %s", strerror(-ret));
		return ret == -EACCES ? -EPERM : ret;
	}
	s->cn_open = 1;
	ret = ptop_tree_acct_init(&s->ta, getpid());
	if (ret) {
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	s->ta_open = 1;
	return 0;
}

static int ts_on_exit(void *arg, const struct ptop_tsnl_stats *pid,
		      const struct ptop_tsnl_stats *tgid)
{
	return ptop_tree_acct_exit(arg, pid);
}

static int ts_on_event(void *arg, const struct ptop_cnproc_event *ev)
{
	return ptop_tree_acct_event(arg, ev);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The kernel allocates a task's delay accounting at fork only while
 * kernel.task_delayacct is 1; without it the task's exit record has no
 * ns runtime. Another program that had set it (ptop, another tstime) may
 * restore 0 while our tree runs: set it again, and restore 0 at the end.
 */
static void ts_keep_delayacct(struct tstime_src *s)
{
	uint64_t now = mono_ns();

	if (!s->keep_delayacct || now - s->delayacct_checked < 5000000ULL)
		return;
	s->delayacct_checked = now;
	if (sysctl_get() == 0 && !sysctl_set(1) && s->old_delayacct < 0)
		s->old_delayacct = 0;
}

/* Records first: the kernel sends a task's record before its EXIT. */
static void ts_drain(void *arg)
{
	struct tstime_src *s = arg;
	int lost = 0;

	ts_keep_delayacct(s);

	if (ptop_tsnl_drain(&s->ts, ts_on_exit, &s->ta, &lost))
		lost = 1;
	if (ptop_cnproc_drain(&s->cn, ts_on_event, &s->ta, &lost))
		lost = 1;
	if (lost)
		ptop_tree_acct_lost(&s->ta);
}

static int ts_end(struct tstime_src *s, const struct tstime_run *r,
		  struct tstime_result *res)
{
	struct pollfd pfd[2] = {
		{ .fd = s->ts.lfd, .events = POLLIN },
		{ .fd = s->cn.fd, .events = POLLIN },
	};
	int i, ret;

	/*
	 * The last EXIT events may be sent after the task was reaped: wait
	 * a little for our records to pair (records of unrelated tasks
	 * keep arriving, so do not wait for silence).
	 */
	for (i = 0; i < 20; i++) {
		ts_drain(s);
		if (!ptop_tree_acct_pending(&s->ta))
			break;
		poll(pfd, 2, 10);
	}
	ret = ptop_tree_acct_finish(&s->ta);
	if (ret)
		return ret;
	res->user_ns = s->ta.user_ns;
	res->sys_ns = s->ta.sys_ns;
	res->procs = s->ta.procs;
	res->threads = s->ta.threads;
	res->max_rss_kb = s->ta.max_rss_kb;
	res->exact = !s->ta.lost && !s->ta.tick_based;
	res->tree_avail = 1;
	res->comms = s->ta.comms;
	res->ncomms = s->ta.ncomms;
	snprintf(s->info, sizeof(s->info),
		 "%llu exit records paired with their connector EXIT, %llu by ppid chains, %llu tick-based%s",
		 (unsigned long long)s->ta.paired,
		 (unsigned long long)s->ta.by_ppid,
		 (unsigned long long)s->ta.tick_based,
		 s->ta.lost ? ", messages lost" : "");
	if (s->ta.lost)
		snprintf(s->warn, sizeof(s->warn),
			 "netlink messages were lost (ENOBUFS): the total may miss tasks");
	else if (s->ta.tick_based)
		snprintf(s->warn, sizeof(s->warn),
			 "%llu exit records had no ns runtime: tick-sampled times used",
			 (unsigned long long)s->ta.tick_based);
	return 0;
}

/* --- common ---------------------------------------------------------- */

int tstime_src_open(struct tstime_src *s, const char *name, int tree,
		    char *err, size_t errlen)
{
	char msg[256];
	int ret;

	memset(s, 0, sizeof(*s));
	s->kfd = -1;
	s->ts.fd = s->ts.lfd = -1;
	s->cn.fd = -1;
	s->old_delayacct = -1;
	s->tree = tree;
	if (name && strcmp(name, "kmod") && strcmp(name, "taskstats") &&
	    strcmp(name, "rusage")) {
		snprintf(err, errlen, "unknown source '%s' (kmod, taskstats, rusage)",
			 name);
		return -EINVAL;
	}
	if (!name || !strcmp(name, "kmod")) {
		s->kind = TSTIME_SRC_KMOD;
		ret = kmod_open(s, !!name, msg, sizeof(msg));
		if (!ret)
			return 0;
		if (name) {
			snprintf(err, errlen, "source kmod: %s", msg);
			return ret;
		}
		why_add(s, "kmod", msg);
	}
	if (!name || !strcmp(name, "taskstats")) {
		s->kind = TSTIME_SRC_TASKSTATS;
		ret = ts_open(s, msg, sizeof(msg));
		if (!ret)
			return 0;
		tstime_src_close(s);
		if (name) {
			snprintf(err, errlen, "source taskstats: %s", msg);
			return ret;
		}
		why_add(s, "taskstats", msg);
	}
	s->kind = TSTIME_SRC_RUSAGE;
	return 0;
}

int tstime_src_begin(struct tstime_src *s, struct tstime_run *r)
{
	r->xfd[0] = r->xfd[1] = -1;
	switch (s->kind) {
	case TSTIME_SRC_KMOD:
		return kmod_begin(s);
	case TSTIME_SRC_TASKSTATS:
		/* what happened before the fork is not ours */
		ts_drain(s);
		r->xfd[0] = s->ts.lfd;
		r->xfd[1] = s->cn.fd;
		r->drain = ts_drain;
		r->drain_arg = s;
		/* wake now and then to keep task_delayacct set */
		r->tick_ms = s->keep_delayacct ? 10 : -1;
		return 0;
	case TSTIME_SRC_RUSAGE:
		break;
	}
	return 0;
}

int tstime_src_end(struct tstime_src *s, const struct tstime_run *r,
		   struct tstime_result *res, char *err, size_t errlen)
{
	int ret = 0;

	res->source = tstime_src_name(s);
	res->procs = res->threads = -1;
	res->max_rss_kb = r->ru_maxrss_kb;
	res->tree_note = NULL;
	switch (s->kind) {
	case TSTIME_SRC_KMOD:
		ret = kmod_end(s, res, err, errlen);
		break;
	case TSTIME_SRC_TASKSTATS:
		ret = ts_end(s, r, res);
		if (ret)
			snprintf(err, errlen, "%s", strerror(-ret));
		if (r->ru_maxrss_kb > res->max_rss_kb)
			res->max_rss_kb = r->ru_maxrss_kb;
		break;
	case TSTIME_SRC_RUSAGE:
		res->user_ns = r->ru_user_ns;
		res->sys_ns = r->ru_sys_ns;
		res->exact = 0;
		res->tree_note = "the rusage source has no per-task data";
		snprintf(s->warn, sizeof(s->warn),
			 "rusage: the time of children that reaped themselves (SIGCHLD ignored) and of their descendants is missing");
		break;
	}
	if (r->left) {
		res->exact = 0;
		snprintf(s->warn, sizeof(s->warn),
			 "descendants still running were not waited for (--no-wait)");
	}
	return ret;
}

void tstime_src_close(struct tstime_src *s)
{
	if (s->kfd >= 0)
		close(s->kfd);
	s->kfd = -1;
	if (s->cn_open)
		ptop_cnproc_close(&s->cn);
	s->cn_open = 0;
	if (s->ts_open)
		ptop_tsnl_close(&s->ts);
	s->ts_open = 0;
	if (s->old_delayacct >= 0)
		sysctl_set(s->old_delayacct);
	s->old_delayacct = -1;
	if (s->ta_open)
		ptop_tree_acct_free(&s->ta);
	s->ta_open = 0;
	free(s->kcomms);
	s->kcomms = NULL;
	s->nkcomms = 0;
}
