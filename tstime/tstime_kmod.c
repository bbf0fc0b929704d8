// SPDX-License-Identifier: GPL-2.0
/*
 * tstime's kmod source: the ptop_taskstats module's accounting hierarchy.
 * tstime's own GROUP record carries c*, the time of every dead descendant
 * folded into it (self-reaped children and orphans included): read before
 * and after the command, two queries of one record each. The module's
 * EXIT records since the first query give the process count and --tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tstime.h"
#include "lib/reserve.h"

#define KMOD_PATH	"/proc/" PTOP_TS_PROC_NAME

/* One command, the whole answer into *buf (grown). Its length or -errno. */
static ssize_t kmod_query(int fd, const struct ptop_ts_cmd *cmd,
			  unsigned char **buf, size_t *cap)
{
	size_t len = 0;
	ssize_t n;

	if (write(fd, cmd, sizeof(*cmd)) != (ssize_t)sizeof(*cmd))
		return -errno;
	for (;;) {
		if (ptop_reserve(buf, cap, len + 1, 1, 256 * 1024))
			return -ENOMEM;
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

int tstime_kmod_open(struct tstime_src *s, char *err, size_t errlen)
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

int tstime_kmod_begin(struct tstime_src *s)
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
	c->user_ns += r->utime_ns + r->xutime_ns;
	c->sys_ns += r->stime_ns + r->xstime_ns;
	c->cpu_ns = c->user_ns + c->sys_ns;
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

int tstime_kmod_end(struct tstime_src *s, struct tstime_result *res,
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

void tstime_kmod_close(struct tstime_src *s)
{
	if (s->kfd >= 0)
		close(s->kfd);
	s->kfd = -1;
	free(s->kcomms);
	s->kcomms = NULL;
	s->nkcomms = 0;
}
