// SPDX-License-Identifier: GPL-2.0
/*
 * The module answer decoder (lib/src/kmod_answer.c) outside the VM, on crafted
 * answers: good ones (full, since-N, RESYNC, older and newer record
 * sizes, paging) decode to exactly what they say; broken ones (truncated,
 * other version, short or misaligned sizes, a count the buffer does not
 * hold, paging that does not move on) give -EPROTO with a message and
 * change neither the sample nor the "since" state.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/src/kmod_answer.h"

#define REC	sizeof(struct ptop_ts_record)
#define CPU	sizeof(struct ptop_ts_cpu)

/* An answer being built: header, CPUs, records, in one buffer. */
struct ans {
	unsigned char *buf;
	size_t len;
	uint32_t rec_size;
};

static struct ptop_ts_answer *hdr(struct ans *a)
{
	return (struct ptop_ts_answer *)a->buf;
}

/* A header with ncpu CPUs (CPU i online unless i is in offline_mask). */
static void ans_init(struct ans *a, uint32_t ncpu, uint32_t rec_size,
		     uint32_t offline_mask)
{
	struct ptop_ts_answer *h;
	uint32_t i;

	a->rec_size = rec_size;
	a->len = sizeof(*h) + ncpu * CPU;
	a->buf = calloc(1, a->len);
	assert_non_null(a->buf);
	h = hdr(a);
	h->version = PTOP_TS_ANSWER_VERSION;
	h->size = sizeof(*h);
	h->seq_now = 7;
	h->time_ns = 123456789;
	h->ncpu = ncpu;
	h->rec_size = rec_size;
	h->flags = PTOP_TS_ANSF_CHILDREN;
	for (i = 0; i < ncpu; i++) {
		struct ptop_ts_cpu *c = (void *)(a->buf + sizeof(*h) + i * CPU);

		c->idle_ns = 1000 * (i + 1);
		c->iowait_ns = 10 * (i + 1);
		c->steal_ns = 5;
		c->irq_ns = 3;
		c->softirq_ns = 2;
		c->online = !(offline_mask & (1U << i));
	}
}

/* Append one record; the first rec_size bytes of r (zero padded). */
static void ans_rec(struct ans *a, const struct ptop_ts_record *r)
{
	unsigned char *nb = realloc(a->buf, a->len + a->rec_size);

	assert_non_null(nb);
	a->buf = nb;
	memset(a->buf + a->len, 0, a->rec_size);
	memcpy(a->buf + a->len, r, a->rec_size < REC ? a->rec_size : REC);
	a->len += a->rec_size;
	hdr(a)->count++;
}

/*
 * w decoded: user space's record (lib/rec.h) has every field of the
 * module's, its kinds and flags in its own terms.
 */
static void assert_decoded(const struct ptop_rec *r,
			   const struct ptop_ts_record *w)
{
	assert_int_equal(r->kind, w->kind == PTOP_TS_KIND_GROUP ?
		PTOP_REC_GROUP : PTOP_REC_THREAD);
	assert_int_equal(!!(r->flags & PTOP_RECF_EXIT),
			 !!(w->flags & PTOP_TS_RECF_EXIT));
	assert_int_equal(!!(r->flags & PTOP_RECF_HAS_X),
			 !!(w->flags & PTOP_TS_RECF_HAS_X));
	assert_int_equal(!!(r->flags & PTOP_RECF_HAS_C),
			 !!(w->flags & PTOP_TS_RECF_HAS_C));
	assert_int_equal(!!(r->flags & PTOP_RECF_HAS_STEAL),
			 !!(w->flags & PTOP_TS_RECF_HAS_STEAL));
	assert_int_equal(!!(r->flags & PTOP_RECF_HAS_RDELAY),
			 !!(w->flags & PTOP_TS_RECF_HAS_RDELAY));
	assert_int_equal(!!(r->flags & PTOP_RECF_C_PARTIAL),
			 !!(w->flags & PTOP_TS_RECF_C_PARTIAL));
	assert_int_equal(!!(r->flags & PTOP_RECF_EXEC),
			 !!(w->flags & PTOP_TS_RECF_EXEC));
	assert_int_equal(r->pid, w->pid);
	assert_int_equal(r->tgid, w->tgid);
	assert_int_equal(r->ppid, w->ppid);
	assert_int_equal(r->acct_ptgid, w->acct_ptgid);
	assert_int_equal(r->uid, w->uid);
	assert_int_equal(r->nthreads, w->nthreads);
	assert_int_equal(r->folded_into, w->folded_into);
	assert_int_equal(r->exit_code, w->exit_code);
	assert_int_equal(r->state, w->state);
	assert_memory_equal(r->comm, w->comm, sizeof(r->comm));
	assert_int_equal(r->start_ns, w->start_ns);
	assert_int_equal(r->folded_start_ns, w->folded_start_ns);
	assert_int_equal(r->exit_ns, w->exit_ns);
	assert_int_equal(r->utime_ns, w->utime_ns);
	assert_int_equal(r->stime_ns, w->stime_ns);
	assert_int_equal(r->steal_ns, w->steal_ns);
	assert_int_equal(r->rdelay_ns, w->rdelay_ns);
	assert_int_equal(r->xutime_ns, w->xutime_ns);
	assert_int_equal(r->xstime_ns, w->xstime_ns);
	assert_int_equal(r->xsteal_ns, w->xsteal_ns);
	assert_int_equal(r->cutime_ns, w->cutime_ns);
	assert_int_equal(r->cstime_ns, w->cstime_ns);
	assert_int_equal(r->csteal_ns, w->csteal_ns);
	assert_int_equal(r->nvcsw, w->nvcsw);
	assert_int_equal(r->nivcsw, w->nivcsw);
	assert_int_equal(r->minflt, w->minflt);
	assert_int_equal(r->majflt, w->majflt);
	assert_int_equal(r->rss_kb, w->rss_kb);
	assert_int_equal(r->hiwater_rss_kb, w->hiwater_rss_kb);
	assert_int_equal(r->exec_old_pid, w->exec_old_pid);
	assert_int_equal(r->exec_old_start_ns, w->exec_old_start_ns);
}

static struct ptop_ts_record rec(uint16_t kind, uint32_t pid, uint32_t tgid,
				 uint16_t flags)
{
	struct ptop_ts_record r;

	memset(&r, 0, sizeof(r));
	r.version = PTOP_TS_RECORD_VERSION;
	r.size = sizeof(r);
	r.kind = kind;
	r.flags = flags;
	r.pid = pid;
	r.tgid = tgid;
	r.start_ns = 1000 + pid;
	r.utime_ns = 100 * pid;
	r.stime_ns = 10 * pid;
	r.rss_kb = 4 * pid;
	r.exec_old_start_ns = 99;
	snprintf(r.comm, sizeof(r.comm), "t%u", pid);
	return r;
}

/* A full answer: 2 CPUs (one offline), a group, its thread, an exit. */
static void ans_std(struct ans *a, uint32_t rec_size)
{
	struct ptop_ts_record r;

	ans_init(a, 2, rec_size, 1U << 1);
	r = rec(PTOP_TS_KIND_GROUP, 10, 10, 0);
	ans_rec(a, &r);
	r = rec(PTOP_TS_KIND_THREAD, 10, 10, 0);
	ans_rec(a, &r);
	r = rec(PTOP_TS_KIND_GROUP, 20, 20, PTOP_TS_RECF_EXIT);
	ans_rec(a, &r);
}

struct ctx {
	struct ptop_kmod_since st;
	struct ptop_sample out;
	char err[256];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	ptop_kmod_since_init(&c->st, 0);
	ptop_sample_init(&c->out);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	ptop_sample_free(&c->out);
	free(c);
	return 0;
}

static int parse(struct ctx *c, uint64_t since, int page, const struct ans *a)
{
	c->err[0] = '\0';
	return ptop_kmod_parse(&c->st, since, page, a->buf, a->len, &c->out,
			       c->err, sizeof(c->err));
}

/* A refused answer: -EPROTO, a message, nothing changed. */
static void assert_refused(struct ctx *c, uint64_t since, int page,
			   const struct ans *a, const char *words)
{
	struct ptop_kmod_since before = c->st;
	size_t nrecs = c->out.nrecs;
	unsigned int ncpu = c->out.ncpu, flags = c->out.flags;

	assert_int_equal(parse(c, since, page, a), -EPROTO);
	assert_non_null(strstr(c->err, words));
	assert_memory_equal(&before, &c->st, sizeof(before));
	assert_int_equal(c->out.nrecs, nrecs);
	assert_int_equal(c->out.ncpu, ncpu);
	assert_int_equal(c->out.flags, flags);
}

static void test_full_answer(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_record want = rec(PTOP_TS_KIND_THREAD, 10, 10, 0);
	struct ans a;

	ans_std(&a, REC);
	assert_int_equal(parse(c, 0, 0, &a), 0);
	/* CPU 1 is offline: only CPU 0's counters */
	assert_int_equal(c->out.ncpu, 1);
	assert_int_equal(c->out.cpu.idle_ns, 1000 + 10);
	assert_int_equal(c->out.cpu.iowait_ns, 10);
	assert_int_equal(c->out.cpu.steal_ns, 5);
	assert_int_equal(c->out.cpu.irq_ns, 5);
	assert_int_equal(c->out.nrecs, 3);
	assert_decoded(&c->out.recs[1], &want);
	assert_true(c->out.recs[2].flags & PTOP_RECF_EXIT);
	assert_int_equal(c->out.time_ns, 123456789);
	assert_int_equal(c->out.flags, 0);	/* since 0: a full answer */
	assert_int_equal(c->st.seq, 7);
	assert_true(ptop_kmod_caps(&c->st) & PTOP_CAP_C_COMPLETE);
	assert_false(ptop_kmod_caps(&c->st) & PTOP_DATA_STEAL);
	free(a.buf);
}

static void test_since_and_resync(void **state)
{
	struct ctx *c = *state;
	struct ans a;

	ans_std(&a, REC);
	assert_int_equal(parse(c, 5, 0, &a), 0);
	assert_int_equal(c->out.flags, PTOP_SAMPLE_INCREMENTAL);

	/* RESYNC: the module could not answer for since 5: a full answer */
	ptop_sample_reset(&c->out);
	hdr(&a)->flags |= PTOP_TS_ANSF_RESYNC;
	hdr(&a)->seq_now = 9;
	assert_int_equal(parse(c, 5, 0, &a), 0);
	assert_int_equal(c->out.flags, PTOP_SAMPLE_INEXACT);
	assert_int_equal(c->out.nrecs, 3);
	assert_int_equal(c->st.seq, 9);
	free(a.buf);
}

static void test_apart_and_steal_flags(void **state)
{
	struct ctx *c = *state;
	struct ans a;

	ans_std(&a, REC);
	hdr(&a)->flags |= PTOP_TS_ANSF_STEAL_APART | PTOP_TS_ANSF_IRQ_APART |
			  PTOP_TS_ANSF_STEAL;
	assert_int_equal(parse(c, 0, 0, &a), 0);
	assert_int_equal(c->out.sys_apart,
			 PTOP_SYS_STEAL_APART | PTOP_SYS_IRQ_APART);
	assert_true(ptop_kmod_caps(&c->st) & PTOP_DATA_STEAL);

	/* measured but no steal clock: '-' in the columns, not 0 */
	ptop_sample_reset(&c->out);
	hdr(&a)->flags |= PTOP_TS_ANSF_NO_STEAL_CLOCK;
	assert_int_equal(parse(c, 0, 0, &a), 0);
	assert_false(ptop_kmod_caps(&c->st) & PTOP_DATA_STEAL);
	free(a.buf);
}

/*
 * Without IRQ_TIME_ACCOUNTING the module's irq_ns is the idle task's time
 * outside idle (IDLE_IRQ): on no row, so kept apart like IRQ_APART's, or
 * the interval falls short by it (54.9 ms in one interval of
 * test_exact_vs_top's workload). Without the flag, in the tasks.
 */
static void test_idle_irq_flag(void **state)
{
	struct ctx *c = *state;
	struct ans a;

	ans_std(&a, REC);
	assert_int_equal(parse(c, 0, 0, &a), 0);
	assert_int_equal(c->out.sys_apart, 0);

	ptop_sample_reset(&c->out);
	hdr(&a)->flags |= PTOP_TS_ANSF_IDLE_IRQ;
	assert_int_equal(parse(c, 0, 0, &a), 0);
	assert_int_equal(c->out.sys_apart, PTOP_SYS_IRQ_APART);
	assert_int_equal(c->out.cpu.irq_ns, 5);
	free(a.buf);
}

/* An older module's shorter records: the tail this ptop knows stays 0. */
static void test_older_record_size(void **state)
{
	struct ctx *c = *state;
	size_t n = PTOP_KMOD_REC_MIN;
	struct ans a;

	ans_std(&a, n);
	assert_int_equal(parse(c, 0, 0, &a), 0);
	assert_int_equal(c->out.nrecs, 3);
	assert_int_equal(c->out.recs[1].pid, 10);
	assert_int_equal(c->out.recs[1].utime_ns, 1000);
	assert_int_equal(c->out.recs[1].rss_kb, 0);
	assert_int_equal(c->out.recs[1].exec_old_start_ns, 0);
	assert_int_equal(c->out.recs[2].pid, 20);
	free(a.buf);
}

/* A newer module's longer records: stepped over by rec_size. */
static void test_newer_record_size(void **state)
{
	struct ctx *c = *state;
	struct ans a;
	size_t i;

	ans_std(&a, REC + 64);
	/* the unknown tail is garbage to this ptop */
	for (i = 0; i < 3; i++)
		memset(a.buf + a.len - (i * (REC + 64)) - 64, 0xee, 64);
	assert_int_equal(parse(c, 0, 0, &a), 0);
	assert_int_equal(c->out.nrecs, 3);
	assert_int_equal(c->out.recs[0].pid, 10);
	assert_int_equal(c->out.recs[1].exec_old_start_ns, 99);
	assert_int_equal(c->out.recs[2].pid, 20);
	assert_int_equal(c->out.recs[2].rss_kb, 80);
	free(a.buf);
}

/* A newer, longer answer header: CPUs and records start after it. */
static void test_newer_header_size(void **state)
{
	struct ctx *c = *state;
	struct ans a, b;

	ans_std(&a, REC);
	b.len = a.len + 16;
	b.buf = calloc(1, b.len);
	memcpy(b.buf, a.buf, sizeof(struct ptop_ts_answer));
	memset(b.buf + sizeof(struct ptop_ts_answer), 0xee, 16);
	memcpy(b.buf + sizeof(struct ptop_ts_answer) + 16,
	       a.buf + sizeof(struct ptop_ts_answer),
	       a.len - sizeof(struct ptop_ts_answer));
	hdr(&b)->size += 16;
	assert_int_equal(parse(c, 0, 0, &b), 0);
	assert_int_equal(c->out.ncpu, 1);
	assert_int_equal(c->out.cpu.idle_ns, 1010);
	assert_int_equal(c->out.nrecs, 3);
	assert_int_equal(c->out.recs[2].pid, 20);
	free(a.buf);
	free(b.buf);
}

static void test_short_rec_size(void **state)
{
	struct ctx *c = *state;
	uint32_t sizes[] = { 0, 8, PTOP_KMOD_REC_MIN - 8 };
	struct ans a;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ans_std(&a, sizes[i]);
		assert_refused(c, 0, 0, &a, "record size");
		free(a.buf);
	}
}

/* The structs are naturally aligned: sizes are multiples of 8. */
static void test_odd_sizes(void **state)
{
	struct ctx *c = *state;
	struct ans a;

	ans_std(&a, REC + 4);
	assert_refused(c, 0, 0, &a, "multiple of 8");
	free(a.buf);

	ans_std(&a, REC);
	hdr(&a)->size += 4;
	assert_refused(c, 0, 0, &a, "multiple of 8");
	free(a.buf);
}

static void test_unknown_version(void **state)
{
	struct ctx *c = *state;
	uint16_t v[] = { 0, PTOP_TS_ANSWER_VERSION + 1, 0xffff };
	struct ans a;
	size_t i;

	ans_std(&a, REC);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hdr(&a)->version = v[i];
		assert_refused(c, 0, 0, &a, "do not match");
	}
	free(a.buf);
}

static void test_truncated_header(void **state)
{
	struct ctx *c = *state;
	struct ans a;
	size_t len;

	ans_std(&a, REC);
	for (len = 0; len < sizeof(struct ptop_ts_answer); len++) {
		struct ans t = { .buf = malloc(len ? len : 1), .len = len };

		memcpy(t.buf, a.buf, len);	/* exactly len: ASan sees more */
		assert_refused(c, 0, 0, &t, "short answer header");
		free(t.buf);
	}
	/* the header says it is shorter than the struct, or longer than all */
	hdr(&a)->size = sizeof(struct ptop_ts_answer) - 8;
	assert_refused(c, 0, 0, &a, "short answer header");
	hdr(&a)->size = a.len + 8;
	assert_refused(c, 0, 0, &a, "short answer header");
	free(a.buf);
}

static void test_count_vs_buffer(void **state)
{
	struct ctx *c = *state;
	struct ans a;

	ans_std(&a, REC);
	hdr(&a)->count = 4;		/* one more than the buffer holds */
	assert_refused(c, 0, 0, &a, "header says");
	hdr(&a)->count = 0xffffffff;	/* count * rec_size must not wrap */
	assert_refused(c, 0, 0, &a, "header says");
	hdr(&a)->count = 2;		/* bytes left over */
	assert_refused(c, 0, 0, &a, "header says");
	hdr(&a)->count = 3;
	hdr(&a)->ncpu = 3;		/* a CPU more than the buffer holds */
	assert_refused(c, 0, 0, &a, "header says");
	hdr(&a)->ncpu = 1 << 20;
	assert_refused(c, 0, 0, &a, "CPU count");
	/* the rest of a record missing */
	hdr(&a)->ncpu = 2;
	a.len -= 8;
	assert_refused(c, 0, 0, &a, "header says");
	free(a.buf);
}

/*
 * Paging: page 0 brings CPUs, its records and the exits; later pages only
 * their live records (their exits come with the next answer); the "since"
 * state is page 0's.
 */
static void test_paging(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_cmd cmd;
	struct ptop_ts_record r;
	struct ans p0, p1;

	ptop_kmod_cmd(&c->st, &cmd);
	assert_int_equal(cmd.cmd, PTOP_TS_CMD_PIDS);
	assert_true(cmd.flags & PTOP_TS_CMDF_THREADS);
	assert_int_equal(cmd.start_pid, 0);

	ans_std(&p0, REC);
	hdr(&p0)->flags |= PTOP_TS_ANSF_MORE;
	hdr(&p0)->next_pid = 11;
	assert_int_equal(parse(c, 0, 0, &p0), 0);
	assert_int_equal(ptop_kmod_next_page(hdr(&p0), 0, &cmd, &c->out,
					     c->err, sizeof(c->err)), 1);
	assert_int_equal(cmd.start_pid, 11);

	ans_init(&p1, 2, REC, 0);
	hdr(&p1)->seq_now = 8;
	hdr(&p1)->time_ns = 999999999;
	r = rec(PTOP_TS_KIND_GROUP, 30, 30, 0);
	ans_rec(&p1, &r);
	r = rec(PTOP_TS_KIND_GROUP, 40, 40, PTOP_TS_RECF_EXIT);
	ans_rec(&p1, &r);
	assert_int_equal(parse(c, 0, 1, &p1), 0);
	assert_int_equal(ptop_kmod_next_page(hdr(&p1), 1, &cmd, &c->out,
					     c->err, sizeof(c->err)), 0);
	assert_int_equal(c->out.nrecs, 4);	/* 3 + 30's; 40's exit waits */
	assert_int_equal(c->out.recs[3].pid, 30);
	assert_int_equal(c->out.ncpu, 1);	/* page 0's CPUs only */
	assert_int_equal(c->out.time_ns, 123456789);
	assert_int_equal(c->st.seq, 7);
	assert_int_equal(c->out.flags, 0);
	free(p0.buf);
	free(p1.buf);
}

/* A MORE answer whose next pid does not move on: refused, not looped. */
static void test_paging_stuck(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_cmd cmd;
	struct ans a;

	ans_std(&a, REC);
	ptop_kmod_cmd(&c->st, &cmd);
	cmd.start_pid = 50;
	hdr(&a)->flags |= PTOP_TS_ANSF_MORE;
	hdr(&a)->next_pid = 50;
	assert_int_equal(ptop_kmod_next_page(hdr(&a), 1, &cmd, &c->out,
					     c->err, sizeof(c->err)), -EPROTO);
	assert_non_null(strstr(c->err, "does not move on"));
	hdr(&a)->next_pid = 3;
	assert_int_equal(ptop_kmod_next_page(hdr(&a), 1, &cmd, &c->out,
					     c->err, sizeof(c->err)), -EPROTO);
	assert_int_equal(cmd.start_pid, 50);
	free(a.buf);
}

/*
 * A MORE answer past every pid (the module's late_short(): late groups
 * left out for want of room): no further page, and the sample is inexact.
 */
static void test_short_answer(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_cmd cmd;
	struct ans a;

	c->st.seq = 5;
	ptop_kmod_cmd(&c->st, &cmd);
	ans_std(&a, REC);
	hdr(&a)->flags |= PTOP_TS_ANSF_MORE;
	hdr(&a)->next_pid = PTOP_TS_NEXT_PID_SHORT;
	assert_int_equal(parse(c, 5, 0, &a), 0);
	assert_false(c->out.flags & PTOP_SAMPLE_INEXACT);
	assert_int_equal(ptop_kmod_next_page(hdr(&a), 0, &cmd, &c->out,
					     c->err, sizeof(c->err)), 0);
	assert_true(c->out.flags & PTOP_SAMPLE_INEXACT);
	assert_int_equal(cmd.start_pid, 0);
	free(a.buf);
}

/*
 * A MORE answer with ROOM (short of max_count: the module could not grow
 * it, the reader's budget): paged on like any MORE answer, since kept;
 * the pages' passes widen the window, as with max_count.
 */
static void test_room_pages(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_cmd cmd;
	struct ans a;

	c->st.seq = 5;
	ptop_kmod_cmd(&c->st, &cmd);
	assert_int_equal(cmd.max_count, 0);
	ans_std(&a, REC);
	hdr(&a)->flags |= PTOP_TS_ANSF_MORE | PTOP_TS_ANSF_ROOM;
	hdr(&a)->next_pid = 100;
	assert_int_equal(parse(c, 5, 0, &a), 0);
	assert_int_equal(ptop_kmod_next_page(hdr(&a), 0, &cmd, &c->out,
					     c->err, sizeof(c->err)), 1);
	assert_int_equal(cmd.start_pid, 100);
	assert_int_equal(cmd.since_seq, 5);
	assert_int_equal(c->out.flags, PTOP_SAMPLE_INCREMENTAL);
	free(a.buf);
}

/*
 * RESYNC and paging: on page 0 the next pages are asked since 0 (full);
 * on a later page of a since answer the module lost track between pages:
 * the interval cannot be called exact.
 */
static void test_paging_resync(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_cmd cmd;
	struct ans a;

	c->st.seq = 5;
	ptop_kmod_cmd(&c->st, &cmd);
	assert_int_equal(cmd.since_seq, 5);
	ans_std(&a, REC);
	hdr(&a)->flags |= PTOP_TS_ANSF_MORE | PTOP_TS_ANSF_RESYNC;
	hdr(&a)->next_pid = 100;
	assert_int_equal(parse(c, 5, 0, &a), 0);
	assert_int_equal(ptop_kmod_next_page(hdr(&a), 0, &cmd, &c->out,
					     c->err, sizeof(c->err)), 1);
	assert_int_equal(cmd.since_seq, 0);
	assert_int_equal(cmd.start_pid, 100);
	assert_int_equal(c->out.flags, PTOP_SAMPLE_INEXACT);

	/* a since answer, exact on page 0, RESYNC on page 1 */
	ptop_sample_reset(&c->out);
	c->st.seq = 5;
	ptop_kmod_cmd(&c->st, &cmd);
	hdr(&a)->flags &= ~PTOP_TS_ANSF_RESYNC;
	assert_int_equal(parse(c, 5, 0, &a), 0);
	assert_int_equal(ptop_kmod_next_page(hdr(&a), 0, &cmd, &c->out,
					     c->err, sizeof(c->err)), 1);
	assert_int_equal(c->out.flags, PTOP_SAMPLE_INCREMENTAL);
	hdr(&a)->flags = PTOP_TS_ANSF_RESYNC;
	assert_int_equal(parse(c, 5, 1, &a), 0);
	assert_int_equal(ptop_kmod_next_page(hdr(&a), 1, &cmd, &c->out,
					     c->err, sizeof(c->err)), 0);
	assert_true(c->out.flags & PTOP_SAMPLE_INEXACT);
	free(a.buf);
}

/*
 * Netlink hands CPUs and records over at 4-byte alignment (nla_put): the
 * decoder must not load their u64 fields in place (UBSan in asan-check
 * says so when it does).
 */
static void test_unaligned_input(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_record r = rec(PTOP_TS_KIND_GROUP, 10, 10, 0);
	struct ptop_ts_cpu cpu = { .idle_ns = 7, .online = 1 };
	unsigned char *buf = aligned_alloc(8, 8 + REC);

	memcpy(buf + 4, &cpu, sizeof(cpu));
	ptop_kmod_add_cpus((const void *)(buf + 4), 1, &c->out);
	assert_int_equal(c->out.ncpu, 1);
	assert_int_equal(c->out.cpu.idle_ns, 7);

	r.flags = PTOP_TS_RECF_EXIT;
	memcpy(buf + 4, &r, REC);
	assert_int_equal(ptop_kmod_add_records(buf + 4, 1, REC, 0, &c->out), 0);
	assert_int_equal(c->out.nrecs, 1);
	assert_decoded(&c->out.recs[0], &r);
	/* a later page drops the exit */
	assert_int_equal(ptop_kmod_add_records(buf + 4, 1, REC, 1, &c->out), 0);
	assert_int_equal(c->out.nrecs, 1);
	free(buf);
}

/*
 * Every field of the ABI record reaches user space's record, each flag
 * as its own (CROSSCHECK is the module's test tool's, not the model's).
 */
static void test_decode_every_field(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_record w;
	unsigned char *b = (unsigned char *)&w;
	size_t i;

	for (i = 0; i < sizeof(w); i++)
		b[i] = (unsigned char)(i * 7 + 1);
	w.kind = PTOP_TS_KIND_GROUP;
	w.flags = PTOP_TS_RECF_HAS_X | PTOP_TS_RECF_HAS_C |
		  PTOP_TS_RECF_HAS_STEAL | PTOP_TS_RECF_HAS_RDELAY |
		  PTOP_TS_RECF_C_PARTIAL | PTOP_TS_RECF_EXEC |
		  PTOP_TS_RECF_CROSSCHECK;
	assert_int_equal(ptop_kmod_add_records(&w, 1, sizeof(w), 0, &c->out), 0);
	assert_int_equal(c->out.nrecs, 1);
	assert_decoded(&c->out.recs[0], &w);
	assert_int_equal(c->out.recs[0].flags,
			 PTOP_RECF_HAS_X | PTOP_RECF_HAS_C | PTOP_RECF_HAS_STEAL |
			 PTOP_RECF_HAS_RDELAY | PTOP_RECF_C_PARTIAL |
			 PTOP_RECF_EXEC);
	w.kind = PTOP_TS_KIND_THREAD;
	w.flags = PTOP_TS_RECF_EXIT;
	assert_int_equal(ptop_kmod_add_records(&w, 1, sizeof(w), 0, &c->out), 0);
	assert_decoded(&c->out.recs[1], &w);
	assert_int_equal(c->out.recs[1].flags, PTOP_RECF_EXIT);
	/* a kind this ptop does not know is no row of either kind */
	w.kind = 7;
	assert_int_equal(ptop_kmod_add_records(&w, 1, sizeof(w), 0, &c->out), 0);
	assert_int_equal(c->out.recs[2].kind, 0);
}

/* A netlink record attribute shorter than any record: refused. */
static void test_short_record_attr(void **state)
{
	struct ctx *c = *state;
	struct ptop_ts_record r = rec(PTOP_TS_KIND_GROUP, 10, 10, 0);
	size_t len;

	for (len = 0; len < PTOP_KMOD_REC_MIN; len += 4) {
		unsigned char *b = malloc(len ? len : 1);

		memcpy(b, &r, len);
		assert_int_equal(ptop_kmod_add_records(b, 1, len, 0, &c->out),
				 -EPROTO);
		free(b);
	}
	assert_int_equal(c->out.nrecs, 0);
}

static void test_steal_cmd_and_note(void **state)
{
	struct ctx *c = *state;
	struct ptop_src src;
	struct ptop_ts_cmd cmd;
	struct ans a;

	ptop_kmod_since_init(&c->st, PTOP_DATA_STEAL);
	ptop_kmod_cmd(&c->st, &cmd);
	assert_int_equal(cmd.flags, PTOP_TS_CMDF_THREADS | PTOP_TS_CMDF_STEAL);
	ans_std(&a, REC);
	hdr(&a)->flags = PTOP_TS_ANSF_STEAL | PTOP_TS_ANSF_NO_STEAL_CLOCK;
	assert_int_equal(parse(c, 0, 0, &a), 0);
	memset(&src, 0, sizeof(src));
	ptop_kmod_note(&src, &c->st);
	assert_non_null(strstr(src.note, "no steal clock"));
	assert_non_null(strstr(src.note, "no c*"));
	free(a.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_since_and_resync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apart_and_steal_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_irq_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_older_record_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_record_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_header_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_rec_size, setup, teardown),
		cmocka_unit_test_setup_teardown(test_odd_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_count_vs_buffer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paging, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_answer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_room_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paging_stuck, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paging_resync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unaligned_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decode_every_field, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_record_attr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_steal_cmd_and_note, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
