// SPDX-License-Identifier: GPL-2.0
/* Decoding of ptop_taskstats module answers (both transports). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kmod_answer.h"

void ptop_kmod_cmd(const struct ptop_kmod_since *st, struct ptop_ts_cmd *cmd)
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->cmd = PTOP_TS_CMD_PIDS;
	cmd->flags = PTOP_TS_CMDF_THREADS | st->cmd_flags;
	cmd->since_seq = st->seq;
}

void ptop_kmod_since_init(struct ptop_kmod_since *st, unsigned int need)
{
	memset(st, 0, sizeof(*st));
	if (need & PTOP_DATA_STEAL)
		st->cmd_flags |= PTOP_TS_CMDF_STEAL;
}

unsigned int ptop_kmod_caps(const struct ptop_kmod_since *st)
{
	unsigned int caps = PTOP_KMOD_CAPS;

	if (st->ans_flags & PTOP_TS_ANSF_CHILDREN)
		caps |= PTOP_DATA_C | PTOP_CAP_C_COMPLETE;
	if ((st->ans_flags & PTOP_TS_ANSF_STEAL) &&
	    !(st->ans_flags & PTOP_TS_ANSF_NO_STEAL_CLOCK))
		caps |= PTOP_DATA_STEAL;
	return caps;
}

void ptop_kmod_note(struct ptop_src *src, const struct ptop_kmod_since *st)
{
	const char *c = (st->ans_flags & PTOP_TS_ANSF_CHILDREN) ?
		((st->ans_flags & PTOP_TS_ANSF_EXIT_BEFORE_MM) ?
		 "exit records end before the memory teardown (the kernel's exit tracepoint is early; that time goes to c*); " : "") :
		"no c* (module too old); ";

	/* the module's promise (lib/verdict.h): ns counters, 0.5% */
	src->tol_ppm = 5000;
	src->res_ns = 0;
	if (st->ans_flags & PTOP_TS_ANSF_NO_STEAL_CLOCK)
		snprintf(src->note, sizeof(src->note),
			 "ptop_taskstats module: %sno steal clock in this kernel: no per-task steal", c);
	else if (!(st->cmd_flags & PTOP_TS_CMDF_STEAL))
		snprintf(src->note, sizeof(src->note),
			 "ptop_taskstats module: %sper-task steal not asked for", c);
	else
		snprintf(src->note, sizeof(src->note), "ptop_taskstats module%s%s",
			 *c ? ": " : "", c);
}

int ptop_kmod_check_answer(const struct ptop_ts_answer *a, size_t have,
			   char *err, size_t errlen)
{
	if (have < sizeof(*a) || a->size < sizeof(*a) || a->size > have) {
		snprintf(err, errlen, "short answer header (%zu bytes)", have);
		return -EPROTO;
	}
	if (a->version != PTOP_TS_ANSWER_VERSION) {
		snprintf(err, errlen, "answer version %u, this ptop reads version %u: the module and ptop do not match",
			 a->version, PTOP_TS_ANSWER_VERSION);
		return -EPROTO;
	}
	if (a->rec_size < PTOP_KMOD_REC_MIN) {
		snprintf(err, errlen, "record size %u too small", a->rec_size);
		return -EPROTO;
	}
	if (a->size % 8 || a->rec_size % 8) {
		snprintf(err, errlen, "answer header size %u or record size %u not a multiple of 8",
			 a->size, a->rec_size);
		return -EPROTO;
	}
	if (a->ncpu > 65536) {
		snprintf(err, errlen, "bad CPU count %u", a->ncpu);
		return -EPROTO;
	}
	return 0;
}

void ptop_kmod_add_cpus(const struct ptop_ts_cpu *cpus, uint32_t n,
			struct ptop_sample *out)
{
	const char *p = (const char *)cpus;
	struct ptop_ts_cpu c;
	uint32_t i;

	for (i = 0; i < n; i++, p += sizeof(c)) {
		memcpy(&c, p, sizeof(c));	/* netlink: only 4-aligned */
		if (!c.online)
			continue;
		out->ncpu++;
		out->cpu.idle_ns += c.idle_ns + c.iowait_ns;
		out->cpu.iowait_ns += c.iowait_ns;
		out->cpu.steal_ns += c.steal_ns;
		out->cpu.irq_ns += c.irq_ns + c.softirq_ns;
	}
}

_Static_assert(sizeof(((struct ptop_rec *)0)->comm) == PTOP_TS_COMM_LEN,
	       "a comm is the same size in the ABI and in user space");

/* The module's flags in user space's terms (lib/rec.h) */
static const struct {
	uint16_t wire, rec;
} rec_flags[] = {
	{ PTOP_TS_RECF_EXIT, PTOP_RECF_EXIT },
	{ PTOP_TS_RECF_HAS_X, PTOP_RECF_HAS_X },
	{ PTOP_TS_RECF_HAS_C, PTOP_RECF_HAS_C },
	{ PTOP_TS_RECF_HAS_STEAL, PTOP_RECF_HAS_STEAL },
	{ PTOP_TS_RECF_HAS_RDELAY, PTOP_RECF_HAS_RDELAY },
	{ PTOP_TS_RECF_C_PARTIAL, PTOP_RECF_C_PARTIAL },
	{ PTOP_TS_RECF_EXEC, PTOP_RECF_EXEC },
};

/* One record of the ABI (w, zero past what the module sent) into r. */
static void decode_rec(const struct ptop_ts_record *w, struct ptop_rec *r)
{
	size_t i;

	r->kind = w->kind == PTOP_TS_KIND_THREAD ? PTOP_REC_THREAD :
		  w->kind == PTOP_TS_KIND_GROUP ? PTOP_REC_GROUP : 0;
	r->flags = 0;
	for (i = 0; i < sizeof(rec_flags) / sizeof(rec_flags[0]); i++)
		if (w->flags & rec_flags[i].wire)
			r->flags |= rec_flags[i].rec;
	r->pid = w->pid;
	r->tgid = w->tgid;
	r->ppid = w->ppid;
	r->acct_ptgid = w->acct_ptgid;
	r->uid = w->uid;
	r->nthreads = w->nthreads;
	r->folded_into = w->folded_into;
	r->exit_code = w->exit_code;
	r->state = w->state;
	memcpy(r->comm, w->comm, sizeof(r->comm));
	r->start_ns = w->start_ns;
	r->folded_start_ns = w->folded_start_ns;
	r->exit_ns = w->exit_ns;
	r->utime_ns = w->utime_ns;
	r->stime_ns = w->stime_ns;
	r->steal_ns = w->steal_ns;
	r->rdelay_ns = w->rdelay_ns;
	r->xutime_ns = w->xutime_ns;
	r->xstime_ns = w->xstime_ns;
	r->xsteal_ns = w->xsteal_ns;
	r->cutime_ns = w->cutime_ns;
	r->cstime_ns = w->cstime_ns;
	r->csteal_ns = w->csteal_ns;
	r->nvcsw = w->nvcsw;
	r->nivcsw = w->nivcsw;
	r->minflt = w->minflt;
	r->majflt = w->majflt;
	r->rss_kb = w->rss_kb;
	r->hiwater_rss_kb = w->hiwater_rss_kb;
	r->exec_old_pid = w->exec_old_pid;
	r->exec_old_start_ns = w->exec_old_start_ns;
}

int ptop_kmod_add_records(const void *recs, uint32_t count, size_t rec_size,
			  int skip_exits, struct ptop_sample *out)
{
	size_t n = rec_size < sizeof(struct ptop_ts_record) ?
		   rec_size : sizeof(struct ptop_ts_record);
	const char *p = recs;
	uint32_t i;

	if (rec_size < PTOP_KMOD_REC_MIN)
		return -EPROTO;
	for (i = 0; i < count; i++, p += rec_size) {
		struct ptop_ts_record w;
		struct ptop_rec *r;

		/* unknown tail bytes are not read, missing ones stay zero */
		memset(&w, 0, sizeof(w));
		memcpy(&w, p, n);
		if (skip_exits && (w.flags & PTOP_TS_RECF_EXIT))
			continue;
		r = ptop_sample_add(out, PTOP_REC_THREAD);
		if (!r)
			return -ENOMEM;
		decode_rec(&w, r);
	}
	return 0;
}

void ptop_kmod_finish(struct ptop_kmod_since *st, uint64_t since,
		      const struct ptop_ts_answer *a, struct ptop_sample *out)
{
	out->time_ns = a->time_ns;
	if (a->flags & PTOP_TS_ANSF_RESYNC)
		out->flags |= PTOP_SAMPLE_INEXACT;
	else if (since)
		out->flags |= PTOP_SAMPLE_INCREMENTAL;
	if (a->flags & PTOP_TS_ANSF_STEAL_APART)
		out->sys_apart |= PTOP_SYS_STEAL_APART;
	/* IDLE_IRQ: irq_ns is the idle task's time outside idle, on no row */
	if (a->flags & (PTOP_TS_ANSF_IRQ_APART | PTOP_TS_ANSF_IDLE_IRQ))
		out->sys_apart |= PTOP_SYS_IRQ_APART;
	st->seq = a->seq_now;
	st->ans_flags = a->flags;
}

int ptop_kmod_next_page(const struct ptop_ts_answer *a, int page,
			struct ptop_ts_cmd *cmd, struct ptop_sample *out,
			char *err, size_t errlen)
{
	if (page > 0 && (a->flags & PTOP_TS_ANSF_RESYNC) && cmd->since_seq)
		out->flags |= PTOP_SAMPLE_INEXACT;
	/*
	 * lib sets no max_count: the module grows an answer its tasks
	 * outgrow, and says MORE only at its max_records or with ROOM (it
	 * could not grow: the reader's budget); either way the rest is on
	 * the next page, a pass of its own (the window spans them).
	 */
	if (!(a->flags & PTOP_TS_ANSF_MORE))
		return 0;
	/*
	 * A whole walk whose late records (groups that died during the
	 * pass) did not fit the answer: no page has them, so stop, and the
	 * interval cannot be called exact.
	 */
	if (a->next_pid >= PTOP_TS_NEXT_PID_SHORT) {
		out->flags |= PTOP_SAMPLE_INEXACT;
		return 0;
	}
	if (a->next_pid <= cmd->start_pid) {
		snprintf(err, errlen, "paged answer does not move on (next pid %u after start pid %u)",
			 a->next_pid, cmd->start_pid);
		return -EPROTO;
	}
	cmd->start_pid = a->next_pid;
	if (a->flags & PTOP_TS_ANSF_RESYNC)
		cmd->since_seq = 0;
	return 1;
}

int ptop_kmod_parse(struct ptop_kmod_since *st, uint64_t since, int page,
		    const void *buf, size_t len, struct ptop_sample *out,
		    char *err, size_t errlen)
{
	const struct ptop_ts_answer *a = buf;
	size_t cpus, need;
	int ret;

	ret = ptop_kmod_check_answer(a, len, err, errlen);
	if (ret)
		return ret;
	cpus = (size_t)a->ncpu * sizeof(struct ptop_ts_cpu);
	need = a->size + cpus + (size_t)a->count * a->rec_size;
	if (len != need) {
		snprintf(err, errlen, "answer is %zu bytes, header says %zu",
			 len, need);
		return -EPROTO;
	}
	if (!page)
		ptop_kmod_add_cpus((const void *)((const char *)buf + a->size),
				   a->ncpu, out);
	ret = ptop_kmod_add_records((const char *)buf + a->size + cpus,
				    a->count, a->rec_size, page > 0, out);
	if (ret) {
		snprintf(err, errlen, "out of memory");
		return ret;
	}
	if (!page)
		ptop_kmod_finish(st, since, a, out);
	return 0;
}
