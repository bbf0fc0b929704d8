// SPDX-License-Identifier: GPL-2.0
/* The column table and the generic formatting / comparing over it. */
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "col.h"

#define OFF(f) offsetof(struct ptop_row, f)

#define PCT(id, nm, ttl, fld, data, hlp)				\
	[id] = { .name = nm, .title = ttl, .unit = "(%)", .help = hlp,	\
		 .type = PTOP_CT_PCT, .offset = OFF(fld), .width = 7,	\
		 .sum = true, .needs = data }

const struct ptop_col ptop_cols[PTOP_COL__COUNT] = {
	[PTOP_COL_PID] = { .name = "PID", .title = "PID", .unit = "(#)",
		.help = "process id (thread id with --threads)",
		.type = PTOP_CT_U32, .offset = OFF(pid), .width = 7 },
	[PTOP_COL_TGID] = { .name = "TGID", .title = "TGID", .unit = "(#)",
		.help = "thread group id (the process a thread belongs to)",
		.type = PTOP_CT_U32, .offset = OFF(tgid), .width = 7 },
	[PTOP_COL_PPID] = { .name = "PPID", .title = "PPID", .unit = "(#)",
		.help = "parent process id",
		.type = PTOP_CT_U32, .offset = OFF(ppid), .width = 7 },
	[PTOP_COL_USER] = { .name = "USER", .title = "USER", .unit = "(str)",
		.help = "real user of the process",
		.type = PTOP_CT_UID, .offset = OFF(uid), .width = 9,
		.left = true },
	[PTOP_COL_STATE] = { .name = "STATE", .title = "S", .unit = "",
		.help = "state: R running, S sleeping, D disk wait, Z zombie, T stopped, I idle",
		.type = PTOP_CT_CHAR, .offset = OFF(state), .width = 1,
		.left = true },
	[PTOP_COL_THREADS] = { .name = "THREADS", .title = "THR", .unit = "(#)",
		.help = "live threads of the process",
		.type = PTOP_CT_U32, .offset = OFF(nthreads), .width = 4 },
	PCT(PTOP_COL_UTIME, "user", "user", user, 0,
	    "user time of the task itself, % of one CPU over the interval"),
	PCT(PTOP_COL_STIME, "sys", "sys", sys, 0,
	    "system time of the task itself"),
	PCT(PTOP_COL_STEAL, "ste", "ste", ste, PTOP_DATA_STEAL,
	    "steal: time the hypervisor took from the task's CPU while it ran (module with steal on)"),
	PCT(PTOP_COL_CUTIME, "cuser", "cuser", cuser, PTOP_DATA_C,
	    "user time of children/descendants that died in the interval"),
	PCT(PTOP_COL_CSTIME, "csys", "csys", csys, PTOP_DATA_C,
	    "system time of descendants that died in the interval"),
	PCT(PTOP_COL_CSTEAL, "cste", "cste", cste, PTOP_DATA_C | PTOP_DATA_STEAL,
	    "steal of descendants that died in the interval"),
	PCT(PTOP_COL_XUTIME, "xuser", "xuser", xuser, PTOP_DATA_X,
	    "user time of threads of the process that died in the interval"),
	PCT(PTOP_COL_XSTIME, "xsys", "xsys", xsys, PTOP_DATA_X,
	    "system time of threads that died in the interval"),
	PCT(PTOP_COL_XSTEAL, "xste", "xste", xste, PTOP_DATA_X | PTOP_DATA_STEAL,
	    "steal of threads that died in the interval"),
	PCT(PTOP_COL_TOTAL, "total", "total", total, 0,
	    "own + c* + x*: all of the task's time; the rows plus idle add up to ncpu x 100%"),
	[PTOP_COL_TIME] = { .name = "TIME", .title = "TIME", .unit = "(m:s)",
		.help = "cumulative CPU time of the task and its dead threads",
		.type = PTOP_CT_CUMTIME, .offset = OFF(time_ns), .width = 10 },
	PCT(PTOP_COL_RDELAY, "RDELAY", "rdelay", rdelay, PTOP_DATA_RDELAY,
	    "run-queue delay: time runnable but waiting for a CPU"),
	[PTOP_COL_NVCSW] = { .name = "nvcsw", .title = "nvcsw", .unit = "(/s)",
		.help = "voluntary context switches per second",
		.type = PTOP_CT_RATE, .offset = OFF(nvcsw), .width = 7,
		.sum = true, .needs = PTOP_DATA_CTXSW },
	[PTOP_COL_NIVCSW] = { .name = "nivcsw", .title = "nivcsw", .unit = "(/s)",
		.help = "involuntary context switches (preemptions) per second",
		.type = PTOP_CT_RATE, .offset = OFF(nivcsw), .width = 7,
		.sum = true, .needs = PTOP_DATA_CTXSW },
	[PTOP_COL_MINFLT] = { .name = "minflt", .title = "minflt", .unit = "(/s)",
		.help = "minor page faults per second",
		.type = PTOP_CT_RATE, .offset = OFF(minflt), .width = 7,
		.sum = true },
	[PTOP_COL_MAJFLT] = { .name = "majflt", .title = "majflt", .unit = "(/s)",
		.help = "major page faults (disk reads) per second",
		.type = PTOP_CT_RATE, .offset = OFF(majflt), .width = 7,
		.sum = true },
	[PTOP_COL_RSS] = { .name = "RSS", .title = "RSS", .unit = "(KiB)",
		.help = "resident set size",
		.type = PTOP_CT_KB, .offset = OFF(rss_kb), .width = 9,
		.needs = PTOP_DATA_MEM },
	/* the three groups, folded: one key in the view expands them */
	[PTOP_COL_OWN] = { .name = "own", .title = "own", .unit = "(%)",
		.help = "user + sys + ste: the task's own time",
		.type = PTOP_CT_PCT, .offset = OFF(user), .nsum = 3,
		.fold_of = PTOP_COL_UTIME, .width = 7, .sum = true },
	[PTOP_COL_CSUM] = { .name = "cdead", .title = "c*", .unit = "(%)",
		.help = "cuser + csys + cste: descendants that died in the interval",
		.type = PTOP_CT_PCT, .offset = OFF(cuser), .nsum = 3,
		.fold_of = PTOP_COL_CUTIME, .width = 7, .sum = true,
		.needs = PTOP_DATA_C },
	[PTOP_COL_XSUM] = { .name = "xdead", .title = "x*", .unit = "(%)",
		.help = "xuser + xsys + xste: threads that died in the interval",
		.type = PTOP_CT_PCT, .offset = OFF(xuser), .nsum = 3,
		.fold_of = PTOP_COL_XUTIME, .width = 7, .sum = true,
		.needs = PTOP_DATA_X },
	[PTOP_COL_COMMAND] = { .name = "COMMAND", .title = "COMMAND",
		.unit = "(str)", .help = "command name",
		.type = PTOP_CT_STR, .offset = OFF(comm), .width = 15,
		.left = true },
};

const char ptop_cols_default[] =
	"PID,USER,STATE,user,sys,ste,cuser,csys,cste,xuser,xsys,xste,total,TIME,COMMAND";
/* the interactive view's: fits 80 columns, COMMAND last */
const char ptop_cols_default_view[] =
	"PID,USER,STATE,total,own,cdead,xdead,TIME,COMMAND";
const char ptop_cols_default_view_threads[] =
	"PID,TGID,USER,STATE,total,own,xdead,TIME,COMMAND";
const char ptop_cols_default_threads[] =
	"PID,TGID,USER,STATE,user,sys,ste,cuser,csys,xuser,xsys,total,RDELAY,TIME,COMMAND";

void ptop_col_describe(int id, char *buf, size_t len)
{
	const struct ptop_col *c = &ptop_cols[id];

	snprintf(buf, len, "%-8s %-7s %-6s %s", c->name, c->title, c->unit,
		 c->help);
}

int ptop_col_find(const char *name)
{
	int i, found = -1;

	/* exact first: "user" (user time) and "USER" (owner) both exist */
	for (i = 0; i < PTOP_COL__COUNT; i++)
		if (!strcmp(ptop_cols[i].name, name))
			return i;
	for (i = 0; i < PTOP_COL__COUNT; i++) {
		if (strcasecmp(ptop_cols[i].name, name))
			continue;
		if (found >= 0)
			return -1;	/* ambiguous */
		found = i;
	}
	if (found >= 0)
		return found;
	/* the header's title ("S", "THR", "c*"), as the user sees it */
	for (i = 0; i < PTOP_COL__COUNT; i++)
		if (!strcmp(ptop_cols[i].title, name))
			return i;
	return -1;
}

int ptop_col_parse_list(const char *list, int *ids, int max, char *bad,
			size_t badlen)
{
	char *copy = strdup(list), *tok, *save = NULL;
	int n = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", ", &save); tok;
	     tok = strtok_r(NULL, ", ", &save)) {
		int id = ptop_col_find(tok), i;

		if (id < 0 || n == max) {
			snprintf(bad, badlen, "%s", tok);
			free(copy);
			return -EINVAL;
		}
		/* a column twice is a typo, and its sort title ambiguous */
		for (i = 0; i < n; i++) {
			if (ids[i] != id)
				continue;
			snprintf(bad, badlen, "%s", tok);
			free(copy);
			return -EEXIST;
		}
		ids[n++] = id;
	}
	free(copy);
	if (!n) {
		snprintf(bad, badlen, "(empty list)");
		return -EINVAL;
	}
	return n;
}

unsigned int ptop_col_needs(const int *ids, int n)
{
	unsigned int needs = 0;
	int i;

	for (i = 0; i < n; i++)
		needs |= ptop_cols[ids[i]].needs;
	return needs;
}

static uint64_t u64_at(const struct ptop_row *r, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)r + off, sizeof(v));
	return v;
}

uint64_t ptop_col_value(const struct ptop_col *c, const struct ptop_row *r)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < (c->nsum > 1 ? c->nsum : 1); i++)
		v += u64_at(r, c->offset + i * sizeof(uint64_t));
	return v;
}

static uint32_t u32_at(const struct ptop_row *r, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)r + off, sizeof(v));
	return v;
}

/* uid -> name, with a small cache: getpwuid() is slow with NSS */
static const char *user_name(uint32_t uid, char *buf, size_t len)
{
	static struct {
		uint32_t uid;
		char name[32];
	} cache[64];
	static unsigned int used;
	struct passwd *pw;
	unsigned int i;

	for (i = 0; i < used; i++)
		if (cache[i].uid == uid)
			return cache[i].name;
	pw = getpwuid(uid);
	if (pw)
		snprintf(buf, len, "%s", pw->pw_name);
	else
		snprintf(buf, len, "%u", uid);
	i = used < 64 ? used++ : uid % 64;
	cache[i].uid = uid;
	snprintf(cache[i].name, sizeof(cache[i].name), "%s", buf);
	return buf;
}

/*
 * The cells without printf: batch writes every row each refresh, and
 * snprintf() of a "%.2f" cell is ~1,500 instructions (glibc's
 * __printf_fp); the figures below are written by hand, the same bytes
 * as the printf formats named beside them (tests/unit/test_col.c
 * compares both over random values).
 */

/* s (n bytes) as snprintf(buf, len, "%s") writes it: cut to len - 1 */
static size_t put_bytes(char *buf, size_t len, const char *s, size_t n)
{
	if (!len)
		return 0;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return n;
}

/* v in decimal, at least min digits (zeros before): end of the digits */
static char *put_u64(char *end, uint64_t v, int min)
{
	int n = 0;

	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
		n++;
	} while (v || n < min);
	return end;
}

/* "%llu" */
size_t ptop_fmt_u64(uint64_t v, char *buf, size_t len)
{
	char tmp[24], *end = tmp + sizeof(tmp);
	char *p = put_u64(end, v, 1);

	return put_bytes(buf, len, p, end - p);
}

/* "%lld" */
size_t ptop_fmt_i64(long long v, char *buf, size_t len)
{
	char tmp[24], *end = tmp + sizeof(tmp);
	char *p = put_u64(end, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 1);

	if (v < 0)
		*--p = '-';
	return put_bytes(buf, len, p, end - p);
}

/*
 * "%.*f" of d, prec 0..9, as printf rounds it (the exact binary value to
 * nearest; a tie, to even): by hand where that rounding is certain, v =
 * |d| * 10^prec (one rounding: 10^prec is exact) under 1e15 and its
 * fraction away from a half by more than the product's error (at most
 * v * 2^-53; the window is 1e-6 + v * 4e-16); exact for prec 0. Else
 * (ties, huge, NaN, inf) snprintf. A negative d (and -0.0) is '-' and
 * the figure of -d, as printf writes it.
 */
size_t ptop_fmt_fixed(double d, int prec, char *buf, size_t len)
{
	static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				      1e8, 1e9 };
	char tmp[48], *end = tmp + sizeof(tmp), *p;
	bool neg = signbit(d);
	double v, frac, eps;
	uint64_t k;

	if (neg)
		d = -d;
	if (prec < 0 || prec > 9 || !(d >= 0.0 && d < (prec ? 1e15 : 9e15)))
		goto slow;
	v = d * p10[prec];
	if (!(v < 1e15))
		goto slow;
	k = (uint64_t)v;	/* floor: v >= 0 */
	frac = v - (double)k;	/* exact */
	eps = prec ? 1e-6 + v * 4e-16 : 0.0;
	if (frac >= 0.5 - eps && frac <= 0.5 + eps)
		goto slow;
	k += frac > 0.5;
	if (prec) {
		uint64_t div = (uint64_t)p10[prec];

		p = put_u64(end, k % div, prec);
		*--p = '.';
		p = put_u64(p, k / div, 1);
	} else {
		p = put_u64(end, k, 1);
	}
	if (neg)
		*--p = '-';
	return put_bytes(buf, len, p, end - p);
slow:
	snprintf(buf, len, "%.*f", prec, neg ? -d : d);
	return len ? strlen(buf) : 0;
}

/* "%llu:%02llu:%02llu" (h:mm:ss) from an hour on, else "%llu:%02llu.%02llu" */
static size_t format_cumtime(uint64_t ns, char *buf, size_t len)
{
	uint64_t cs = ns / 10000000ULL;	/* hundredths */
	uint64_t s = cs / 100, m = s / 60, h = m / 60;
	char tmp[48], *end = tmp + sizeof(tmp), *p;

	if (h) {
		p = put_u64(end, s % 60, 2);
		*--p = ':';
		p = put_u64(p, m % 60, 2);
		*--p = ':';
		p = put_u64(p, h, 1);
	} else {
		p = put_u64(end, cs % 100, 2);
		*--p = '.';
		p = put_u64(p, s % 60, 2);
		*--p = ':';
		p = put_u64(p, m, 1);
	}
	return put_bytes(buf, len, p, end - p);
}

bool ptop_col_missing(const struct ptop_col *c, const struct ptop_row *r)
{
	return c->needs & ~r->has;
}

size_t ptop_col_format(const struct ptop_col *c, const struct ptop_row *r,
		     const struct ptop_interval *iv, char *buf, size_t len)
{
	char tmp[64], ch;
	const char *str;
	double secs;

	if (ptop_col_missing(c, r))
		return put_bytes(buf, len, "-", 1);
	switch (c->type) {
	case PTOP_CT_U32:
		return ptop_fmt_u64(u32_at(r, c->offset), buf, len);
	case PTOP_CT_CHAR:
		ch = *((const char *)r + c->offset);
		if (!ch)
			ch = '?';
		return put_bytes(buf, len, &ch, 1);
	case PTOP_CT_STR:
		str = (const char *)r + c->offset;
		return put_bytes(buf, len, str, strlen(str));
	case PTOP_CT_UID:
		str = user_name(u32_at(r, c->offset), tmp, sizeof(tmp));
		return put_bytes(buf, len, str, strlen(str));
	case PTOP_CT_PCT:
		return ptop_fmt_fixed(ptop_interval_pct(iv, ptop_col_value(c, r)),
				      2, buf, len);
	case PTOP_CT_RATE:
		secs = iv->interval_ns / 1e9;
		return ptop_fmt_fixed(secs > 0 ? ptop_col_value(c, r) / secs :
				      0.0, 0, buf, len);
	case PTOP_CT_CUMTIME:
		return format_cumtime(ptop_col_value(c, r), buf, len);
	case PTOP_CT_KB:
		return ptop_fmt_u64(ptop_col_value(c, r), buf, len);
	}
	return 0;
}

int ptop_col_compare(const struct ptop_col *c, const struct ptop_row *a,
		     const struct ptop_row *b)
{
	char na[64], nb[64];
	uint64_t x, y;

	switch (c->type) {
	case PTOP_CT_U32:
		x = u32_at(a, c->offset);
		y = u32_at(b, c->offset);
		break;
	case PTOP_CT_CHAR:
		x = *((const unsigned char *)a + c->offset);
		y = *((const unsigned char *)b + c->offset);
		break;
	case PTOP_CT_STR:
		return strcmp((const char *)a + c->offset,
			      (const char *)b + c->offset);
	case PTOP_CT_UID:
		return strcmp(user_name(u32_at(a, c->offset), na, sizeof(na)),
			      user_name(u32_at(b, c->offset), nb, sizeof(nb)));
	default:
		x = ptop_col_value(c, a);
		y = ptop_col_value(c, b);
		break;
	}
	return x < y ? -1 : x > y;
}

struct sort_ctx {
	const struct ptop_col *col;
	bool asc;
};

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct ptop_row *a = pa, *b = pb;
	int c = ptop_col_compare(ctx->col, a, b);

	if (!ctx->asc)
		c = -c;
	if (!c)	/* ties: by pid, so output is stable */
		c = a->pid < b->pid ? -1 : a->pid > b->pid;
	return c;
}

void ptop_col_sort(struct ptop_row *rows, size_t n, int id, bool ascending)
{
	struct sort_ctx ctx = { &ptop_cols[id], ascending };

	if (n < 2)
		return;
	qsort_r(rows, n, sizeof(*rows), row_cmp, &ctx);
}
