// SPDX-License-Identifier: GPL-2.0
/*
 * tsquery: a tiny client of the ptop_taskstats module, for the VM tests.
 *
 *   tsquery [-n] [-t] [-s SEQ] [-p START_PID] [-m MAX] [-r]
 *	one PIDS command over /proc/taskstats (-n: generic netlink), prints
 *	"answer seq=... count=... bytes=..." and with -r one line per record:
 *	"rec KIND pid tgid ppid state flags runtime xruntime exit_code start_ns
 *	 nvcsw comm c=CRUNTIME fold=FOLDED_INTO acct=ACCT_PTGID" (KIND: T,
 *	 G, TE, GE).
 *	-S asks for per-task steal (PTOP_TS_CMDF_STEAL); with -r each record
 *	is followed by "steal PID TGID STEAL_NS". -H SECS keeps the
 *	file or socket open SECS seconds after the answer (a listener).
 *   tsquery -L N [-F] [-t]
 *	N passes on one open file, each "since" the one before (-F: each a
 *	full answer); prints "loop passes=N wall_ms=... cpu_ms=... records=...
 *	median_cpu_ms=... max_cpu_ms=..." per pass (cpu: this process's
 *	user+sys, the module's pass is sys; mean, median and largest pass).
 *   tsquery -X SECS [-i SECS] [-t]
 *	cross-check (module loaded with crosscheck=1): one open file, a full
 *	answer, then for SECS seconds every -i seconds (default 0.2) a "since
 *	N" answer with PTOP_TS_CMDF_CROSSCHECK, merged into the state kept
 *	from the answers before, as a monitor does; every task of the full
 *	walk of the same pass must then be in that state with the same
 *	counters, and nothing else. Prints "crosscheck passes=... misses=..."
 *	(exit 1 on a miss); tasks that only differ in run delay, state or
 *	rss (what a task that does not run can change) are counted apart.
 *   tsquery -C CGROUP [-r] ...
 *	the one command between two readings of the cgroup v2 directory's
 *	cpu.stat usage_usec, printed as "cgroup before_ns=... after_ns=..."
 *	after the answer (the kernel's count of what the cgroup's tasks used
 *	just before the pass began and just after it ended).
 *   tsquery -V SECS [-n] [-t] [-F]
 *	validate: for SECS seconds since-N answers back to back (-n: over
 *	generic netlink), each checked (sizes, seq, records; a full answer
 *	has the reader itself and no task twice); a failure while the module
 *	is reloaded (PTOP_RELOAD_GEN_FILE: odd during a reload, then one
 *	more) is excused, then the file reopened; -n waits while it is odd
 *	(a dump holds a module reference). An answer with MORE is bad
 *	(no max_count is set) unless it says ROOM (the answer could not
 *	grow: the budget), counted in room=, the next one then full.
 *	Prints "validate passes=... bad=... lost=... excused=... reopen=...
 *	resync=... records=... room=..."; exit 1 on a bad or lost answer.
 *	-F: full answers (since 0) back to back.
 *   tsquery -G SECS
 *	late groups: for SECS seconds "since N" thread answers back to back
 *	on one file, the state file's walk_late_span (the ring span
 *	[FROM, TO) of GROUP EXIT records the pass owed as live records)
 *	read after each; the next answer's EXIT records are positions FROM
 *	on in ring order, so each GROUP one below TO must be a live GROUP
 *	record of the answer before, unless that said MORE; and no answer
 *	has two live THREAD records of one (pid, start). Prints "late
 *	pairs=... unchecked=... more=... owed=... missing=... twins=...";
 *	exit 1 on a missing one or a twin. -F: full thread answers (long
 *	passes), twins checked only.
 *   -P (with a single query or -V): every byte of the answer that carries
 *	no value must be 0: struct ptop_ts_cpu's pad, struct ptop_ts_record's
 *	pad[] and pad2, and its comm after the terminating NUL (kernel memory
 *	copied to user space otherwise); prints "pads cpus=... records=...
 *	nonzero=..." (single query) and exits 1 on a nonzero byte.
 *   tsquery -b MODE
 *	bad input; prints "MODE ret=<errno name or OK>": short, long, cmd,
 *	flags, pid, pidbig, hugemax, noread, faultw, faultr, since, twice,
 *	nl_flags, garbage8 (8 threads write garbage at once).
 * Standalone on purpose: it talks the protocol with the uapi header only.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kmod/uapi/ptop_taskstats.h"

#define PROC_PATH "/proc/" PTOP_TS_PROC_NAME

static const char *ename(int e)
{
	switch (e) {
	case 0: return "OK";
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EFAULT: return "EFAULT";
	case ENOENT: return "ENOENT";
	case ENOMEM: return "ENOMEM";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default: return strerror(e);
	}
}

struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 65536;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("realloc");
			exit(2);
		}
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

/* /proc/taskstats: one write, reads until EOF; returns 0 or -errno */
static double hold_s;

static void hold(void)
{
	if (hold_s > 0) {
		fflush(stdout);
		usleep((useconds_t)(hold_s * 1e6));
	}
}

static int query_proc(const struct ptop_ts_cmd *cmd, struct buf *out)
{
	char chunk[65536];
	ssize_t n;
	int fd;

	fd = open(PROC_PATH, O_RDWR);
	if (fd < 0)
		return -errno;
	if (write(fd, cmd, sizeof(*cmd)) != sizeof(*cmd)) {
		n = -errno;
		close(fd);
		return n;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(out, chunk, n);
	n = n < 0 ? -errno : 0;
	if (!n && hold_s > 0) {
		printf("holding\n");
		hold();
	}
	close(fd);
	return n;
}

/* --- generic netlink by hand -------------------------------------------- */
static int nl_fd = -1;

static void nl_attr(struct buf *b, int type, const void *d, int len)
{
	struct nlattr a = { .nla_len = NLA_HDRLEN + len, .nla_type = type };
	static const char pad[4];

	buf_add(b, &a, sizeof(a));
	buf_add(b, d, len);
	buf_add(b, pad, NLA_ALIGN(len) - len);
}

static int nl_send(int family, int cmd, int flags, struct buf *attrs)
{
	struct buf m = { 0 };
	struct nlmsghdr h = { .nlmsg_type = family,
			      .nlmsg_flags = NLM_F_REQUEST | flags,
			      .nlmsg_seq = 1 };
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };
	int ret = 0;

	h.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + attrs->len;
	buf_add(&m, &h, sizeof(h));
	buf_add(&m, &g, sizeof(g));
	buf_add(&m, attrs->p ? attrs->p : "", attrs->len);
	if (send(nl_fd, m.p, m.len, 0) < 0)
		ret = -errno;
	free(m.p);
	return ret;
}

/*
 * Receive until DONE/ERROR; for each genl message call fn on its attrs.
 * Returns 0 or -errno from an NLMSG_ERROR.
 */
static int nl_recv(void (*fn)(struct nlattr *, int, void *), void *arg)
{
	static char rb[1 << 20];

	for (;;) {
		ssize_t n = recv(nl_fd, rb, sizeof(rb), 0);
		struct nlmsghdr *h;

		if (n < 0)
			return -errno;
		for (h = (void *)rb; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				if (e->error || !(h->nlmsg_flags & NLM_F_MULTI))
					return e->error;
				continue;
			}
			fn((void *)((char *)NLMSG_DATA(h) + GENL_HDRLEN),
			   h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, arg);
			if (!(h->nlmsg_flags & NLM_F_MULTI))
				return 0;
		}
	}
}

static void fam_cb(struct nlattr *a, int len, void *arg)
{
	for (; len >= (int)sizeof(*a) && a->nla_len >= sizeof(*a);
	     len -= NLA_ALIGN(a->nla_len),
	     a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			*(int *)arg = *(uint16_t *)((char *)a + NLA_HDRLEN);
}

static int nl_family(void)
{
	struct buf at = { 0 };
	int id = 0, ret;

	nl_fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (nl_fd < 0)
		return -errno;
	nl_attr(&at, CTRL_ATTR_FAMILY_NAME, PTOP_TS_FAMILY_NAME,
		sizeof(PTOP_TS_FAMILY_NAME));
	ret = nl_send(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, &at);
	free(at.p);
	if (!ret)
		ret = nl_recv(fam_cb, &id);
	return ret < 0 ? ret : id;
}

struct nl_answer {
	struct buf hdr;		/* answer + cpus */
	struct buf recs;
};

static void pids_cb(struct nlattr *a, int len, void *arg)
{
	struct nl_answer *na = arg;

	for (; len >= (int)sizeof(*a) && a->nla_len >= sizeof(*a);
	     len -= NLA_ALIGN(a->nla_len),
	     a = (void *)((char *)a + NLA_ALIGN(a->nla_len))) {
		void *d = (char *)a + NLA_HDRLEN;
		int dl = a->nla_len - NLA_HDRLEN;

		if (a->nla_type == PTOP_TS_A_ANSWER && !na->hdr.len)
			buf_add(&na->hdr, d, dl);
		else if (a->nla_type == PTOP_TS_A_CPUS)
			buf_add(&na->hdr, d, dl);
		else if (a->nla_type == PTOP_TS_A_RECORD)
			buf_add(&na->recs, d, dl);
	}
}

static int query_nl(const struct ptop_ts_cmd *cmd, struct buf *out,
		    int raw_flags)
{
	struct nl_answer na = { { 0 }, { 0 } };
	struct buf at = { 0 };
	uint32_t flags = raw_flags >= 0 ? (uint32_t)raw_flags : cmd->flags;
	int fam, ret;

	fam = nl_family();
	if (fam < 0) {
		if (nl_fd >= 0)
			close(nl_fd);
		return fam;
	}
	nl_attr(&at, PTOP_TS_A_FLAGS, &flags, 4);
	nl_attr(&at, PTOP_TS_A_SINCE_SEQ, &cmd->since_seq, 8);
	nl_attr(&at, PTOP_TS_A_START_PID, &cmd->start_pid, 4);
	nl_attr(&at, PTOP_TS_A_MAX_COUNT, &cmd->max_count, 4);
	ret = nl_send(fam, PTOP_TS_CMD_PIDS, NLM_F_DUMP, &at);
	free(at.p);
	if (!ret)
		ret = nl_recv(pids_cb, &na);
	if (!ret && hold_s > 0) {
		printf("holding\n");
		hold();
	}
	close(nl_fd);
	if (ret)
		return ret;
	buf_add(out, na.hdr.p, na.hdr.len);
	buf_add(out, na.recs.p, na.recs.len);
	free(na.hdr.p);
	free(na.recs.p);
	return 0;
}

/* --- decode --------------------------------------------------------------- */
/* -S: each printed record followed by its steal */
static int print_steal;

static int decode(const struct buf *b, int print)
{
	const struct ptop_ts_answer *a = (const void *)b->p;
	unsigned int i, thr = 0, grp = 0, te = 0, ge = 0;
	unsigned long long idle = 0;
	size_t off;

	if (b->len < sizeof(*a) || a->size < sizeof(*a) ||
	    a->rec_size < sizeof(struct ptop_ts_record)) {
		fprintf(stderr, "tsquery: short or bad answer (%zu bytes)\n",
			b->len);
		return 1;
	}
	for (i = 0; i < a->ncpu; i++) {
		const struct ptop_ts_cpu *c = (const void *)(b->p + a->size +
					       i * sizeof(*c));

		if (c->online)
			idle += c->idle_ns + c->iowait_ns;
	}
	off = a->size + (size_t)a->ncpu * sizeof(struct ptop_ts_cpu);
	if (off + (size_t)a->count * a->rec_size != b->len) {
		fprintf(stderr, "tsquery: answer size %zu, expected %zu\n",
			b->len, off + (size_t)a->count * a->rec_size);
		return 1;
	}
	for (i = 0; i < a->count; i++, off += a->rec_size) {
		const struct ptop_ts_record *r = (const void *)(b->p + off);
		int ex = r->flags & PTOP_TS_RECF_EXIT;
		int g = r->kind == PTOP_TS_KIND_GROUP;

		if (g)
			ex ? ge++ : grp++;
		else
			ex ? te++ : thr++;
		if (print)
			printf("rec %s%s %u %u %u %c 0x%x %llu %llu %u %llu %llu %.16s c=%llu fold=%u acct=%u\n",
			       g ? "G" : "T", ex ? "E" : "", r->pid, r->tgid,
			       r->ppid, r->state ? r->state : '?', r->flags,
			       (unsigned long long)(r->utime_ns + r->stime_ns),
			       (unsigned long long)(r->xutime_ns + r->xstime_ns),
			       r->exit_code, (unsigned long long)r->start_ns,
			       (unsigned long long)r->nvcsw, r->comm,
			       (unsigned long long)(r->cutime_ns + r->cstime_ns),
			       r->folded_into, r->acct_ptgid);
		if (print && print_steal)
			printf("steal %u %u %llu\n", r->pid, r->tgid,
			       (unsigned long long)r->steal_ns);
	}
	printf("answer seq=%llu count=%u bytes=%zu flags=0x%x ncpu=%u threads=%u groups=%u thread_exits=%u group_exits=%u resync=%d more=%d next_pid=%u time=%llu idle=%llu\n",
	       (unsigned long long)a->seq_now, a->count, b->len, a->flags,
	       a->ncpu, thr, grp, te, ge,
	       !!(a->flags & PTOP_TS_ANSF_RESYNC),
	       !!(a->flags & PTOP_TS_ANSF_MORE), a->next_pid,
	       (unsigned long long)a->time_ns, (unsigned long long)idle);
	return 0;
}

/* --- bad input ------------------------------------------------------------ */
static void *garbage(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg, i;
	long bad = 0;
	char g[256];
	int fd = open(PROC_PATH, O_RDWR);

	if (fd < 0)
		return (void *)-1L;
	for (i = 0; i < 2000; i++) {
		size_t n = rand_r(&seed) % sizeof(g), k;

		for (k = 0; k < n; k++)
			g[k] = rand_r(&seed);
		if (i % 3 == 0 && n >= sizeof(struct ptop_ts_cmd))
			n = sizeof(struct ptop_ts_cmd);
		if (write(fd, g, n) < 0 && errno != EINVAL)
			bad++;
		if (read(fd, g, sizeof(g)) < 0 && errno != EINVAL)
			bad++;
	}
	close(fd);
	return (void *)bad;
}

static int bad_input(const char *mode)
{
	struct ptop_ts_cmd c = { .cmd = PTOP_TS_CMD_PIDS,
				 .flags = PTOP_TS_CMDF_THREADS };
	char big[sizeof(c) + 8] = { 0 };
	void *volatile badp = (void *)8;	/* never mapped */
	struct buf b = { 0 };
	int fd, ret = 0;

	if (!strcmp(mode, "garbage8")) {
		pthread_t th[8];
		long total = 0;
		void *r;
		int i;

		for (i = 0; i < 8; i++)
			pthread_create(&th[i], NULL, garbage, (void *)(uintptr_t)(i + 1));
		for (i = 0; i < 8; i++) {
			pthread_join(th[i], &r);
			total += (long)r;
		}
		printf("%s ret=%s unexpected=%ld\n", mode, total ? "BAD" : "OK",
		       total);
		return total != 0;
	}
	if (!strncmp(mode, "nl_", 3)) {
		ret = query_nl(&c, &b, !strcmp(mode, "nl_flags") ? 1 << 30 :
				       -1);
		printf("%s ret=%s\n", mode, ename(-ret));
		return 0;
	}
	fd = open(PROC_PATH, O_RDWR);
	if (fd < 0) {
		printf("%s ret=%s\n", mode, ename(errno));
		return 0;
	}
	errno = 0;
	if (!strcmp(mode, "short"))
		ret = write(fd, &c, sizeof(c) - 1);
	else if (!strcmp(mode, "long"))
		ret = write(fd, big, sizeof(big));
	else if (!strcmp(mode, "zero"))
		ret = write(fd, &c, 0) == 0 ? read(fd, big, 8) : -1;
	else if (!strcmp(mode, "cmd"))
		c.cmd = 99, ret = write(fd, &c, sizeof(c));
	else if (!strcmp(mode, "flags"))
		c.flags = 1U << 31, ret = write(fd, &c, sizeof(c));
	else if (!strcmp(mode, "pid"))
		c.start_pid = (uint32_t)-1, ret = write(fd, &c, sizeof(c));
	else if (!strcmp(mode, "pidbig"))
		c.start_pid = 4194304 + 1, ret = write(fd, &c, sizeof(c));
	else if (!strcmp(mode, "hugemax"))
		c.max_count = (uint32_t)-1, ret = write(fd, &c, sizeof(c));
	else if (!strcmp(mode, "noread"))
		ret = read(fd, big, sizeof(big));
	else if (!strcmp(mode, "faultw"))
		ret = write(fd, badp, sizeof(c));
	else if (!strcmp(mode, "faultr"))
		ret = write(fd, &c, sizeof(c)) < 0 ? -1 :
		      read(fd, badp, 4096);
	else if (!strcmp(mode, "since")) {
		c.since_seq = 12345;
		close(fd);
		fd = -1;
		ret = query_proc(&c, &b);
		if (!ret) {
			const struct ptop_ts_answer *a = (void *)b.p;

			printf("%s ret=%s\n", mode,
			       a->flags & PTOP_TS_ANSF_RESYNC ? "RESYNC" :
							       "NO_RESYNC");
			return 0;
		}
		errno = -ret;
		ret = -1;
	} else {
		fprintf(stderr, "tsquery: unknown bad mode %s\n", mode);
		return 2;
	}
	if (fd >= 0)
		close(fd);
	printf("%s ret=%s\n", mode, ret < 0 ? ename(errno) : "OK");
	return 0;
}


/* --- cross-check: incremental answers merged vs a full walk -------------- */
struct xent {
	struct ptop_ts_record r;
	unsigned int gen;	/* pass that last saw it (state or full) */
	int used;
};

struct xmap {
	struct xent *e;
	size_t cap, n;
};

static size_t xhash(const struct ptop_ts_record *r)
{
	uint64_t h = (uint64_t)r->pid * 0x9e3779b97f4a7c15ULL ^ r->start_ns ^
		     (uint64_t)r->kind << 60;

	return (size_t)(h ^ (h >> 29));
}

static int xsame(const struct ptop_ts_record *a, const struct ptop_ts_record *b)
{
	return a->kind == b->kind && a->pid == b->pid &&
	       a->start_ns == b->start_ns;
}

static struct xent *xfind(struct xmap *m, const struct ptop_ts_record *r,
			  int insert)
{
	size_t i, k;

	if (insert && (m->n + 1) * 2 > m->cap) {
		struct xmap big = { calloc(m->cap ? m->cap * 2 : 4096,
					   sizeof(struct xent)),
				    m->cap ? m->cap * 2 : 4096, 0 };

		if (!big.e) {
			perror("calloc");
			exit(2);
		}
		for (k = 0; k < m->cap; k++)
			if (m->e[k].used == 1)
				*xfind(&big, &m->e[k].r, 1) = m->e[k];
		free(m->e);
		*m = big;
	}
	if (!m->cap)
		return NULL;
	for (i = xhash(r) % m->cap;; i = (i + 1) % m->cap) {
		struct xent *e = &m->e[i];

		if (!e->used) {
			if (!insert)
				return NULL;
			e->used = 1;
			e->r = *r;
			m->n++;
			return e;
		}
		if (e->used == 1 && xsame(&e->r, r))
			return e;
	}
}

static void xdel(struct xmap *m, const struct ptop_ts_record *r)
{
	struct xent *e = xfind(m, r, 0);

	if (e) {
		e->used = 2;	/* tombstone */
		m->n--;
	}
}

/* Fields a task that did not run cannot change; which differ (0: none). */
static const char *xdiff(const struct ptop_ts_record *a,
			 const struct ptop_ts_record *b, int *waiting)
{
	uint16_t fa = a->flags & ~PTOP_TS_RECF_CROSSCHECK;
	uint16_t fb = b->flags & ~PTOP_TS_RECF_CROSSCHECK;

	*waiting = 0;
#define X(f) if (a->f != b->f) return #f
	X(utime_ns); X(stime_ns); X(steal_ns); X(xutime_ns); X(xstime_ns);
	X(xsteal_ns); X(cutime_ns); X(cstime_ns); X(csteal_ns); X(nvcsw);
	X(nivcsw); X(minflt); X(majflt); X(nthreads); X(ppid);
	X(acct_ptgid); X(uid); X(tgid); X(exec_old_pid);
#undef X
	if (fa != fb)
		return "flags";
	if (memcmp(a->comm, b->comm, sizeof(a->comm)))
		return "comm";
	*waiting = 1;
	if (a->rdelay_ns != b->rdelay_ns)
		return "rdelay_ns";
	if (a->state != b->state)
		return "state";
	if (a->rss_kb != b->rss_kb || a->hiwater_rss_kb != b->hiwater_rss_kb)
		return "rss";
	*waiting = 0;
	return NULL;
}

/*
 * A difference a later answer may explain: a new task the full walk saw
 * that died before the incremental walk read it (its EXIT comes next), a
 * task that finished exit_notify() after its EXIT record (written once
 * the pass began) and so is in neither walk, an exec'er's old identity
 * (the remap comes with the new leader's record), a thread the full walk
 * saw changed that was released before the incremental walk read it (a
 * thread answer has such a thread in its group's x*, its row ends with
 * its EXIT record: excused only when that record says it exited before
 * the pass's answer came back). Judged one pass later.
 */
struct xpend {
	struct ptop_ts_record r;
	int gone;		/* 1: in the state, not in the full walk */
	const char *what;	/* changed, not reported: which counter */
	uint64_t end_bt;	/* CLOCK_BOOTTIME when its answer came */
};

static struct xpend *pend, *pend_next;
static size_t npend, npend_next, cap_pend;

static void pend_add(const struct ptop_ts_record *r, int gone,
		     const char *what, uint64_t end_bt)
{
	if (npend_next == cap_pend) {
		cap_pend = cap_pend ? cap_pend * 2 : 256;
		pend = realloc(pend, cap_pend * sizeof(*pend));
		pend_next = realloc(pend_next, cap_pend * sizeof(*pend_next));
		if (!pend || !pend_next) {
			perror("realloc");
			exit(2);
		}
	}
	pend_next[npend_next].r = *r;
	pend_next[npend_next].what = what;
	pend_next[npend_next].end_bt = end_bt;
	pend_next[npend_next++].gone = gone;
}

/* A record's counters on one line after a miss, to tell its cause apart */
static void xdump(const char *who, const struct ptop_ts_record *r)
{
	printf("  %s: flags=%#x state=%c nthreads=%u ppid=%u acct=%u u=%llu s=%llu x=%llu/%llu c=%llu/%llu nvcsw=%llu nivcsw=%llu exec_old=%u/%llu\n",
	       who, r->flags, r->state ? r->state : '-', r->nthreads, r->ppid,
	       r->acct_ptgid, (unsigned long long)r->utime_ns,
	       (unsigned long long)r->stime_ns,
	       (unsigned long long)r->xutime_ns,
	       (unsigned long long)r->xstime_ns,
	       (unsigned long long)r->cutime_ns,
	       (unsigned long long)r->cstime_ns,
	       (unsigned long long)r->nvcsw, (unsigned long long)r->nivcsw,
	       r->exec_old_pid, (unsigned long long)r->exec_old_start_ns);
}

static int read_answer(int fd, const struct ptop_ts_cmd *cmd, struct buf *b)
{
	char chunk[65536];
	ssize_t n;

	b->len = 0;
	if (write(fd, cmd, sizeof(*cmd)) != sizeof(*cmd))
		return -errno;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(b, chunk, n);
	return n < 0 ? -errno : 0;
}

/* --- late groups (-G) ----------------------------------------------------- */
static double now_s(void);

struct span {
	unsigned long long seq, from, to;
};

static int read_span(struct span *sp)
{
	FILE *f = fopen("/proc/ptop_taskstats_state", "r");
	char line[256];
	int got = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "walk_late_span %llu %llu %llu", &sp->seq,
			   &sp->from, &sp->to) == 3)
			got = 1;
	fclose(f);
	return got ? 0 : -1;
}

struct ident {
	uint32_t pid;
	uint64_t start;
	long at;		/* its index in the answer (dup_threads()) */
};

static int ident_cmp(const void *a, const void *b)
{
	const struct ident *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static const struct ptop_ts_record *rec_at(const struct buf *b, uint32_t i)
{
	const struct ptop_ts_answer *a = (const void *)b->p;

	return (const void *)(b->p + a->size +
			      (size_t)a->ncpu * sizeof(struct ptop_ts_cpu) +
			      (size_t)i * a->rec_size);
}

/*
 * Answer pb (span ps) and the next one nb (its pass's span ns): the
 * GROUP EXIT records of nb at ring positions [ps.from, ps.to) not live
 * in pb; -1: the pair cannot be checked
 */
static long late_missing(const struct buf *pb, const struct span *ps,
			 const struct buf *nb, const struct span *ns,
			 long *owed)
{
	const struct ptop_ts_answer *pa = (const void *)pb->p;
	const struct ptop_ts_answer *na = (const void *)nb->p;
	struct ident *live = calloc(pa->count + 1, sizeof(*live));
	unsigned long long k = 0;
	long nlive = 0, miss = 0, due = 0;
	uint32_t i;

	if (!live)
		return -1;
	for (i = 0; i < pa->count; i++) {
		const struct ptop_ts_record *r = rec_at(pb, i);

		if (r->kind == PTOP_TS_KIND_GROUP &&
		    !(r->flags & PTOP_TS_RECF_EXIT)) {
			live[nlive].pid = r->pid;
			live[nlive++].start = r->start_ns;
		}
	}
	qsort(live, nlive, sizeof(*live), ident_cmp);
	for (i = 0; i < na->count; i++) {
		const struct ptop_ts_record *r = rec_at(nb, i);
		struct ident id = { .pid = r->pid, .start = r->start_ns };

		if (!(r->flags & PTOP_TS_RECF_EXIT))
			continue;
		if (r->kind == PTOP_TS_KIND_GROUP &&
		    ps->from + k < ps->to) {
			due++;
			if (!bsearch(&id, live, nlive, sizeof(*live), ident_cmp)) {
				if (miss < 3)
					printf("late missing: answer seq=%llu ring [%llu, %llu) position %llu group %u\n",
					       ps->seq, ps->from, ps->to,
					       ps->from + k, r->pid);
				miss++;
			}
		}
		k++;
	}
	free(live);
	/* the positions do not map onto the EXIT records: not checked */
	if (k != ns->from - ps->from)
		return -1;
	*owed += due;
	return miss;
}

/* one THREAD record of a twin, for the test's log */
static void print_twin_rec(const struct buf *b, long at)
{
	const struct ptop_ts_answer *a = (const void *)b->p;
	const struct ptop_ts_record *r = rec_at(b, at);
	/* walked records come in tgid order, the late ones after them */
	int late = 0;
	long i;

	for (i = at; !late && i > 0; i--)
		late = rec_at(b, i - 1)->tgid > rec_at(b, i)->tgid;
	printf("late twin:   [%ld of %u%s] pid %u tgid %u start %llu state %c flags 0x%x comm %.16s exec_old %u/%llu own %.3f ms\n",
	       at, a->count, late ? ", late part" : "", r->pid, r->tgid,
	       (unsigned long long)r->start_ns, r->state ? r->state : '?',
	       r->flags, r->comm, r->exec_old_pid,
	       (unsigned long long)r->exec_old_start_ns,
	       (r->utime_ns + r->stime_ns) / 1e6);
}

/* live THREAD records of one (pid, start) twice in the answer */
static long dup_threads(const struct buf *b)
{
	const struct ptop_ts_answer *a = (const void *)b->p;
	struct ident *ids = calloc(a->count + 1, sizeof(*ids));
	long n = 0, dups = 0, i;

	if (!ids)
		return 0;
	for (i = 0; i < a->count; i++) {
		const struct ptop_ts_record *r = rec_at(b, i);

		if (r->kind == PTOP_TS_KIND_THREAD &&
		    !(r->flags & PTOP_TS_RECF_EXIT)) {
			ids[n].pid = r->pid;
			ids[n].start = r->start_ns;
			ids[n++].at = i;
		}
	}
	qsort(ids, n, sizeof(*ids), ident_cmp);
	for (i = 1; i < n; i++)
		if (!ident_cmp(&ids[i - 1], &ids[i])) {
			if (dups < 3) {
				printf("late twin: answer seq=%llu thread %u twice\n",
				       (unsigned long long)a->seq_now, ids[i].pid);
				print_twin_rec(b, ids[i - 1].at);
				print_twin_rec(b, ids[i].at);
			}
			dups++;
		}
	free(ids);
	return dups;
}

static int late_groups(struct ptop_ts_cmd c, double secs, int full)
{
	struct buf b[2] = { { 0 }, { 0 } };
	struct span sp[2];
	long pairs = 0, unchecked = 0, more = 0, owed = 0, missing = 0, m;
	long twins = 0;
	int fd = open(PROC_PATH, O_RDWR), ret, cur = 0;
	double end = now_s() + secs;

	if (fd < 0) {
		fprintf(stderr, "tsquery: %s\n", ename(errno));
		return 1;
	}
	c.flags |= PTOP_TS_CMDF_THREADS;
	ret = read_answer(fd, &c, &b[cur]);
	if (!ret && read_span(&sp[cur]))
		ret = -ENOENT;
	while (!ret && now_s() < end) {
		const struct ptop_ts_answer *pa = (const void *)b[cur].p;
		const struct ptop_ts_answer *na;
		int nx = !cur;

		c.since_seq = full ? 0 : pa->seq_now;
		ret = read_answer(fd, &c, &b[nx]);
		if (ret || read_span(&sp[nx])) {
			ret = ret ? ret : -ENOENT;
			break;
		}
		na = (const void *)b[nx].p;
		twins += dup_threads(&b[nx]);
		if (sp[cur].seq != pa->seq_now || sp[nx].seq != na->seq_now ||
		    (na->flags & PTOP_TS_ANSF_RESYNC)) {
			unchecked++;
		} else if (full) {
			pairs++;	/* full answers: twins only */
		} else if (pa->flags & PTOP_TS_ANSF_MORE) {
			more++;
		} else {
			m = late_missing(&b[cur], &sp[cur], &b[nx], &sp[nx],
					 &owed);
			if (m < 0) {
				unchecked++;
			} else {
				pairs++;
				missing += m;
			}
		}
		cur = nx;
	}
	close(fd);
	free(b[0].p);
	free(b[1].p);
	if (ret) {
		fprintf(stderr, "tsquery: %s\n", ename(-ret));
		return 1;
	}
	printf("late pairs=%ld unchecked=%ld more=%ld owed=%ld missing=%ld twins=%ld\n",
	       pairs, unchecked, more, owed, missing, twins);
	return missing || twins;
}

static int crosscheck(struct ptop_ts_cmd c, double secs, double every)
{
	struct xmap st = { 0 }, full = { 0 }, exits = { 0 }, prev_exits = { 0 };
	unsigned long late = 0;
	struct buf b = { 0 };
	unsigned long passes = 0, fulls = 0, compared = 0, misses = 0;
	unsigned long waiting = 0, inc_recs = 0, full_recs = 0, shown = 0;
	struct timespec t0, now;
	unsigned int gen = 0;
	int fd, ret;

	fd = open(PROC_PATH, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "tsquery: %s\n", ename(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	c.since_seq = 0;
	for (;;) {
		const struct ptop_ts_answer *a;
		struct timespec bt;
		uint64_t end_bt;
		size_t off, i;
		int xrecs = 0;

		ret = read_answer(fd, &c, &b);
		if (ret) {
			fprintf(stderr, "tsquery: %s\n", ename(-ret));
			return 1;
		}
		clock_gettime(CLOCK_BOOTTIME, &bt);
		end_bt = (uint64_t)bt.tv_sec * 1000000000ULL + bt.tv_nsec;
		a = (const void *)b.p;
		if (a->flags & PTOP_TS_ANSF_MORE) {
			fprintf(stderr, "tsquery: answer paged (MORE)\n");
			return 1;
		}
		gen++;
		off = a->size + (size_t)a->ncpu * sizeof(struct ptop_ts_cpu);
		free(full.e);
		memset(&full, 0, sizeof(full));
		free(prev_exits.e);
		prev_exits = exits;	/* exits and exec remaps of the answer before */
		memset(&exits, 0, sizeof(exits));
		/* the monitor's side: exits leave, records replace */
		for (i = 0; i < a->count; i++) {
			const struct ptop_ts_record *r =
				(const void *)(b.p + off + i * a->rec_size);
			struct ptop_ts_record old = { .kind = PTOP_TS_KIND_THREAD };

			if (r->flags & PTOP_TS_RECF_CROSSCHECK) {
				xfind(&full, r, 1);
				xrecs++;
				continue;
			}
			if (r->flags & PTOP_TS_RECF_EXIT) {
				xdel(&st, r);
				xfind(&exits, r, 1);
				continue;
			}
			if (r->flags & PTOP_TS_RECF_EXEC &&
			    r->kind == PTOP_TS_KIND_THREAD) {
				old.pid = r->exec_old_pid;
				old.start_ns = r->exec_old_start_ns;
				xdel(&st, &old);
				/* the exec'er's old identity left, as by an exit */
				xfind(&exits, &old, 1);
			}
			xfind(&st, r, 1)->r = *r;
			xfind(&st, r, 0)->gen = gen;
			inc_recs++;
		}
		/* last pass's doubts: an EXIT (or exec remap) came now? */
		for (i = 0; i < npend; i++) {
			const struct ptop_ts_record *r = &pend[i].r;
			struct xent *x = xfind(&exits, r, 0);
			int exited = x || xfind(&prev_exits, r, 0);
			int live = xfind(&st, r, 0) != NULL;

			if (pend[i].what) {
				/* released between the walks: died in that pass */
				if (x && x->r.exit_ns && x->r.exit_ns <= pend[i].end_bt) {
					late++;
					continue;
				}
				misses++;
				if (shown++ < 20)
					printf("miss: pass %lu thread %u/%u %.16s start %llu: %s (not in the incremental answer; %s)\n",
					       passes - 1, r->pid, r->tgid, r->comm,
					       (unsigned long long)r->start_ns,
					       pend[i].what,
					       x ? "its EXIT came after that answer" :
						   "no EXIT record next");
				if (shown <= 20)
					xdump("full walk", r);
				continue;
			}
			if (exited || (pend[i].gone && !live)) {
				late++;
				continue;
			}
			misses++;
			if (shown++ < 20)
				printf("miss: pass %lu %s %u/%u %.16s start %llu: %s\n",
				       passes - 1,
				       r->kind == PTOP_TS_KIND_GROUP ? "group" : "thread",
				       r->pid, r->tgid, r->comm,
				       (unsigned long long)r->start_ns,
				       pend[i].gone ? "gone without an EXIT record" :
						      "not reported (new task)");
			if (shown <= 20)
				xdump("last seen", r);
		}
		npend = 0;
		if (c.since_seq && !xrecs) {
			/* a full walk answered "since N": it is the state */
			fulls++;
			for (i = 0; i < st.cap; i++)
				if (st.e[i].used == 1 && st.e[i].gen != gen) {
					st.e[i].used = 2;
					st.n--;
				}
		} else if (c.since_seq) {
			passes++;
			full_recs += xrecs;
			for (i = 0; i < full.cap; i++) {
				struct xent *f = &full.e[i], *s;
				const char *what = NULL;
				int w = 0;

				if (f->used != 1)
					continue;
				s = xfind(&st, &f->r, 0);
				compared++;
				if (!s && !f->r.utime_ns && !f->r.stime_ns &&
				    !f->r.nvcsw && !f->r.nivcsw) {
					/* forked, not run yet: seen once it runs */
					what = "unborn";
					w = 1;
				} else if (!s) {
					pend_add(&f->r, 0, NULL, 0);
					what = NULL;
				}
				else if (s->gen != gen)
					what = xdiff(&s->r, &f->r, &w);
				if (what && !w && f->r.kind == PTOP_TS_KIND_THREAD) {
					/* judged with the next answer's EXITs */
					pend_add(&f->r, 0, what, end_bt);
				} else if (what && w) {
					waiting++;
				} else if (what) {
					misses++;
					if (shown++ < 20)
						printf("miss: pass %lu %s %u/%u %.16s start %llu: %s\n",
						       passes,
						       f->r.kind == PTOP_TS_KIND_GROUP ? "group" : "thread",
						       f->r.pid, f->r.tgid, f->r.comm,
						       (unsigned long long)f->r.start_ns, what);
					if (shown <= 20) {
						xdump("incremental", &s->r);
						xdump("full walk", &f->r);
					}
				}
				/* each difference counts once */
				s = xfind(&st, &f->r, 1);
				s->r = f->r;
				s->gen = gen;
			}
			for (i = 0; i < st.cap; i++) {
				struct xent *s = &st.e[i];

				if (s->used != 1 || s->gen == gen)
					continue;
				pend_add(&s->r, 1, NULL, 0);
				s->used = 2;
				st.n--;
			}
		}
		{
			struct xpend *t = pend;

			pend = pend_next;
			pend_next = t;
			npend = npend_next;
			npend_next = 0;
		}
		c.since_seq = a->seq_now;
		c.flags |= PTOP_TS_CMDF_CROSSCHECK;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec + (now.tv_nsec - t0.tv_nsec) / 1e9 >= secs)
			break;
		usleep((useconds_t)(every * 1e6));
	}
	close(fd);
	printf("crosscheck passes=%lu full_answers=%lu tasks_compared=%lu incremental_records=%lu full_walk_records=%lu misses=%lu waiting_only=%lu explained_next_pass=%lu\n",
	       passes, fulls, compared, inc_recs, full_recs, misses, waiting,
	       late);
	free(st.e);
	free(full.e);
	free(exits.e);
	free(prev_exits.e);
	free(b.p);
	return misses || !passes;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* usage_usec of a cgroup v2 directory, in ns (0: unreadable) */
static unsigned long long cgroup_ns(const char *dir)
{
	char path[4096], key[64];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%63s %llu", key, &v) == 2 && strcmp(key, "usage_usec"))
		v = 0;
	fclose(f);
	return v * 1000ULL;
}

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int loop(struct ptop_ts_cmd c, long n, int full)
{
	struct buf b = { 0 };
	double w0, c0, recs = 0, *pass_cpu;
	long i;
	int fd = open(PROC_PATH, O_RDWR), ret;

	pass_cpu = calloc(n, sizeof(*pass_cpu));
	if (fd < 0 || !pass_cpu) {
		fprintf(stderr, "tsquery: %s\n", ename(errno));
		if (fd >= 0)
			close(fd);
		free(pass_cpu);
		return 1;
	}
	ret = read_answer(fd, &c, &b);
	if (ret)
		goto out;
	w0 = now_s();
	c0 = cpu_s();
	for (i = 0; i < n; i++) {
		const struct ptop_ts_answer *a = (const void *)b.p;
		double p0 = cpu_s();

		c.since_seq = full ? 0 : a->seq_now;
		ret = read_answer(fd, &c, &b);
		if (ret)
			goto out;
		pass_cpu[i] = (cpu_s() - p0) * 1e3;
		recs += ((const struct ptop_ts_answer *)b.p)->count;
	}
	/*
	 * The median and the largest pass apart from the mean: without a
	 * steal clock (a TCG guest) a pass the host stopped is charged its
	 * whole stop, and one such pass moves the mean of 20
	 */
	qsort(pass_cpu, n, sizeof(*pass_cpu), dbl_cmp);
	printf("loop passes=%ld wall_ms=%.3f cpu_ms=%.3f records=%.1f median_cpu_ms=%.3f max_cpu_ms=%.3f\n",
	       n, (now_s() - w0) * 1e3 / n, (cpu_s() - c0) * 1e3 / n, recs / n,
	       pass_cpu[n / 2], pass_cpu[n - 1]);
out:
	close(fd);
	free(pass_cpu);
	free(b.p);
	if (ret)
		fprintf(stderr, "tsquery: %s\n", ename(-ret));
	return ret != 0;
}

/* --- validate: a reader of the attack test ---------------------------------- */
/*
 * The reload generation of the attack test (PTOP_RELOAD_GEN_FILE): odd while
 * the module is being reloaded, one more once it answers again. -1 without.
 */
static long reload_gen(void)
{
	const char *f = getenv("PTOP_RELOAD_GEN_FILE");
	long g = -1;
	FILE *fp;

	if (!f || !(fp = fopen(f, "r")))
		return -1;
	if (fscanf(fp, "%ld", &g) != 1)
		g = -1;
	fclose(fp);
	return g;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* -P: the bytes of an answer that carry no value must all be 0 */
static int pad_check;
static unsigned long pads_cpus, pads_recs, pads_nonzero;

static const char *check_pads(const struct buf *b)
{
	const struct ptop_ts_answer *a = (const void *)b->p;
	static char why[200];
	const char *first = NULL;
	size_t off;
	unsigned int i, k;

	if (b->len < sizeof(*a) || a->size < sizeof(*a) ||
	    b->len < a->size + (size_t)a->ncpu * sizeof(struct ptop_ts_cpu) +
		     (size_t)a->count * a->rec_size)
		return NULL;	/* check_answer()/decode() say what is wrong */
	for (i = 0; i < a->ncpu; i++) {
		const struct ptop_ts_cpu *c = (const void *)(b->p + a->size +
					       i * sizeof(*c));

		pads_cpus++;
		if (c->pad) {
			pads_nonzero++;
			if (!first) {
				snprintf(why, sizeof(why),
					 "cpu %u: pad 0x%08x", i, c->pad);
				first = why;
			}
		}
	}
	off = a->size + (size_t)a->ncpu * sizeof(struct ptop_ts_cpu);
	for (i = 0; i < a->count; i++, off += a->rec_size) {
		const struct ptop_ts_record *r = (const void *)(b->p + off);
		const char *nul = memchr(r->comm, 0, sizeof(r->comm));
		int bad = r->pad2 != 0;

		pads_recs++;
		for (k = 0; k < sizeof(r->pad); k++)
			bad |= r->pad[k] != 0;
		for (k = nul ? (unsigned int)(nul - r->comm) : sizeof(r->comm);
		     k < sizeof(r->comm); k++)
			bad |= r->comm[k] != 0;
		if (!bad)
			continue;
		pads_nonzero++;
		if (!first) {
			char hex[3 * sizeof(r->pad) + 1] = "";

			for (k = 0; k < sizeof(r->pad); k++)
				snprintf(hex + 3 * k, 4, " %02x",
					 (unsigned char)r->pad[k]);
			snprintf(why, sizeof(why),
				 "record %u (pid %u kind %u flags 0x%x): pad%s pad2 0x%08x comm %.16s",
				 i, r->pid, r->kind, r->flags, hex, r->pad2,
				 r->comm);
			first = why;
		}
	}
	return first;
}

/*
 * One answer, as a monitor relies on it: header and sizes consistent, seq
 * moving on, records sane; a full answer (first or RESYNC) lists the
 * reader's own process (its pid in the reader's pid namespace) and no live
 * task twice. Returns NULL or what is wrong.
 */
static const char *check_answer(const struct buf *b, unsigned long long prev,
				int full)
{
	const struct ptop_ts_answer *a = (const void *)b->p;
	static char why[160];
	uint64_t *keys = NULL;
	size_t off, nk = 0, i;
	int self = 0;

	if (b->len < sizeof(*a))
		return "shorter than its header";
	if (a->version != PTOP_TS_ANSWER_VERSION || a->size != sizeof(*a) ||
	    a->rec_size != sizeof(struct ptop_ts_record))
		return "version or sizes of the header";
	if (a->ncpu < 1 || a->ncpu > 8192)
		return "ncpu out of range";
	off = a->size + (size_t)a->ncpu * sizeof(struct ptop_ts_cpu);
	if (off + (size_t)a->count * a->rec_size != b->len) {
		snprintf(why, sizeof(why), "%zu bytes for %u records and %u cpus",
			 b->len, a->count, a->ncpu);
		return why;
	}
	if (pad_check) {
		const char *p = check_pads(b);

		if (p)
			return p;
	}
	if (a->seq_now <= prev) {
		snprintf(why, sizeof(why), "seq %llu after %llu",
			 (unsigned long long)a->seq_now, prev);
		return why;
	}
	/* the module grows what it outgrows: short only for want of room */
	if ((a->flags & PTOP_TS_ANSF_MORE) && !(a->flags & PTOP_TS_ANSF_ROOM))
		return "MORE without max_count";
	full |= !!(a->flags & PTOP_TS_ANSF_RESYNC);
	if (full)
		keys = calloc(a->count + 1, sizeof(*keys));
	for (i = 0; i < a->count; i++, off += a->rec_size) {
		const struct ptop_ts_record *r = (const void *)(b->p + off);

		if (r->kind != PTOP_TS_KIND_THREAD && r->kind != PTOP_TS_KIND_GROUP)
			snprintf(why, sizeof(why), "record %zu: kind %u", i, r->kind);
		else if (r->version != PTOP_TS_RECORD_VERSION || r->size != sizeof(*r))
			snprintf(why, sizeof(why), "record %zu: version/size", i);
		else if (!r->pid || !r->tgid ||
			 (r->kind == PTOP_TS_KIND_GROUP && r->pid != r->tgid))
			snprintf(why, sizeof(why), "record %zu: pid %u tgid %u",
				 i, r->pid, r->tgid);
		else if (!memchr(r->comm, 0, sizeof(r->comm)))
			snprintf(why, sizeof(why), "record %zu: comm unterminated", i);
		else
			why[0] = 0;
		if (why[0]) {
			free(keys);
			return why;
		}
		if (r->tgid == (uint32_t)getpid() && !(r->flags & PTOP_TS_RECF_EXIT))
			self = 1;
		if (keys && !(r->flags & PTOP_TS_RECF_EXIT))
			keys[nk++] = (uint64_t)r->kind << 32 | r->pid;
	}
	if (keys) {
		qsort(keys, nk, sizeof(*keys), cmp_u64);
		for (i = 1; i < nk; i++)
			if (keys[i] == keys[i - 1])
				break;
		if (i < nk) {
			snprintf(why, sizeof(why), "full answer: pid %u twice",
				 (unsigned int)keys[i]);
			free(keys);
			return why;
		}
		free(keys);
		if (!self)
			return "full answer without the reader's own process";
	}
	return NULL;
}

/*
 * -V SECS: since-N answers back to back for SECS seconds (one open file, or
 * one dump per answer with -n), each checked by check_answer(). While the
 * attack test reloads the module (PTOP_RELOAD_GEN_FILE odd, or changed
 * during the query) a failure is excused and the seq not compared (the
 * answer may come from the new module), but an answer must still be well
 * formed; after a reload the file is reopened. Any other failure is a lost
 * answer.
 */
static int validate(struct ptop_ts_cmd c, double secs, int nl, int full)
{
	unsigned long passes = 0, bad = 0, lost = 0, reopen = 0, resync = 0;
	unsigned long excused = 0, room = 0;
	unsigned long long prev = 0, recs = 0;
	double t_end = now_s() + secs;
	long g_open = -2, g0, g1;
	struct buf b = { 0 };
	int fd = -1, ret, stable;

	c.since_seq = 0;
	while (now_s() < t_end) {
		const struct ptop_ts_answer *a;
		const char *why;

		g0 = reload_gen();
		if (g0 != g_open) {	/* another module since the open */
			if (fd >= 0)
				close(fd);
			fd = -1;
			if (g_open != -2)
				reopen++;
			c.since_seq = prev = 0;
			g_open = g0;
		}
		/*
		 * A netlink dump holds a module reference: back-to-back dumps
		 * would keep rmmod from ever succeeding. /proc readers go on
		 * (their race with the unload is the point).
		 */
		if (nl && g0 >= 0 && (g0 & 1)) {
			usleep(20000);
			continue;
		}
		b.len = 0;
		if (full)
			c.since_seq = 0;
		if (nl) {
			ret = query_nl(&c, &b, -1);
		} else {
			if (fd < 0)
				fd = open(PROC_PATH, O_RDWR);
			ret = fd < 0 ? -errno : read_answer(fd, &c, &b);
		}
		g1 = reload_gen();
		stable = g0 < 0 || (!(g0 & 1) && g1 == g0);
		if (ret) {
			if (stable && lost++ < 10)
				fprintf(stderr, "tsquery: lost answer %lu: %s\n",
					passes, ename(-ret));
			excused += !stable;
			if (fd >= 0)
				close(fd);
			fd = -1;
			c.since_seq = prev = 0;
			usleep(20000);
			continue;
		}
		passes++;
		why = check_answer(&b, stable ? prev : 0, c.since_seq == 0);
		if (why) {
			if (bad++ < 10)
				fprintf(stderr, "tsquery: bad answer %lu: %s\n",
					passes, why);
			c.since_seq = prev = 0;
			continue;
		}
		a = (const void *)b.p;
		resync += !!(a->flags & PTOP_TS_ANSF_RESYNC);
		recs += a->count;
		if (a->flags & PTOP_TS_ANSF_ROOM) {
			/* short (the budget): the rest not read, start over */
			room++;
			c.since_seq = 0;
			prev = stable ? a->seq_now : 0;
		} else if (stable)
			prev = c.since_seq = a->seq_now;
		else
			c.since_seq = prev = 0;
	}
	if (fd >= 0)
		close(fd);
	free(b.p);
	printf("validate passes=%lu bad=%lu lost=%lu excused=%lu reopen=%lu resync=%lu records=%llu room=%lu\n",
	       passes, bad, lost, excused, reopen, resync, recs, room);
	if (pad_check)
		printf("pads cpus=%lu records=%lu nonzero=%lu\n", pads_cpus,
		       pads_recs, pads_nonzero);
	return bad || lost || !passes;
}

int main(int argc, char **argv)
{
	struct ptop_ts_cmd c = { .cmd = PTOP_TS_CMD_PIDS };
	int opt, nl = 0, print = 0, ret;
	double xsecs = 0, every = 0.2, vsecs = 0, gsecs = 0;
	long nloop = 0;
	int full = 0;
	struct buf b = { 0 };
	const char *cg = NULL;
	unsigned long long cg0 = 0, cg1 = 0;

	while ((opt = getopt(argc, argv, "PntSH:s:p:m:rb:X:i:L:FV:C:G:")) != -1) {
		switch (opt) {
		case 'X': xsecs = atof(optarg); break;
		case 'V': vsecs = atof(optarg); break;
		case 'G': gsecs = atof(optarg); break;
		case 'L': nloop = atol(optarg); break;
		case 'F': full = 1; break;
		case 'C': cg = optarg; break;
		case 'i': every = atof(optarg); break;
		case 'S': c.flags |= PTOP_TS_CMDF_STEAL; print_steal = 1; break;
		case 'H': hold_s = atof(optarg); break;
		case 'P': pad_check = 1; break;
		case 'n': nl = 1; break;
		case 't': c.flags |= PTOP_TS_CMDF_THREADS; break;
		case 's': c.since_seq = strtoull(optarg, NULL, 0); break;
		case 'p': c.start_pid = strtoul(optarg, NULL, 0); break;
		case 'm': c.max_count = strtoul(optarg, NULL, 0); break;
		case 'r': print = 1; break;
		case 'b': return bad_input(optarg);
		default:
			fprintf(stderr, "usage: tsquery [-n] [-t] [-S] [-H SECS] [-s SEQ] [-p PID] [-m MAX] [-r] [-P] [-C CGROUP] | -b MODE | -L N [-F] | -X SECS [-i SECS] [-t] | -V SECS [-n] [-t] [-P] | -G SECS [-F]\n");
			return 2;
		}
	}
	if (xsecs > 0)
		return crosscheck(c, xsecs, every);
	if (vsecs > 0)
		return validate(c, vsecs, nl, full);
	if (gsecs > 0)
		return late_groups(c, gsecs, full);
	if (nloop > 0)
		return loop(c, nloop, full);
	if (cg)
		cg0 = cgroup_ns(cg);
	ret = nl ? query_nl(&c, &b, -1) : query_proc(&c, &b);
	if (cg)
		cg1 = cgroup_ns(cg);
	if (ret) {
		fprintf(stderr, "tsquery: %s\n", ename(-ret));
		return 1;
	}
	ret = decode(&b, print);
	if (pad_check) {
		const char *p = check_pads(&b);

		printf("pads cpus=%lu records=%lu nonzero=%lu\n", pads_cpus,
		       pads_recs, pads_nonzero);
		if (p) {
			fprintf(stderr, "tsquery: nonzero pad: %s\n", p);
			ret = 1;
		}
	}
	if (cg)
		printf("cgroup before_ns=%llu after_ns=%llu\n", cg0, cg1);
	free(b.p);
	return ret;
}
