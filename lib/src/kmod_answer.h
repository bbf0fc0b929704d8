/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding of ptop_taskstats module answers, shared by the kmod_proc
 * (/proc/taskstats) and kmod_nl (generic netlink) sources.
 */
#ifndef PTOP_KMOD_ANSWER_H
#define PTOP_KMOD_ANSWER_H

#include <stddef.h>
#include <stdint.h>
#include "../../kmod/uapi/ptop_taskstats.h"
#include "../src.h"

#define PTOP_KMOD_CAPS (PTOP_CAP_NS | PTOP_DATA_X | PTOP_DATA_RDELAY | \
			PTOP_CAP_EXITS | PTOP_CAP_INCREMENTAL | PTOP_DATA_CTXSW | \
			PTOP_DATA_MEM)

/* The oldest record the decoder reads: the first module's (up to rss_kb). */
#define PTOP_KMOD_REC_MIN	offsetof(struct ptop_ts_record, rss_kb)

/* "Active since" state of one source: the seq of its last answer. */
struct ptop_kmod_since {
	uint64_t seq;		/* 0: next answer is a full one */
	uint32_t cmd_flags;	/* PTOP_TS_CMDF_* besides THREADS (STEAL) */
	uint32_t ans_flags;	/* PTOP_TS_ANSF_* of the last first page */
};

/* PTOP_CMDF_STEAL when the caller needs steal (PTOP_DATA_STEAL). */
void ptop_kmod_since_init(struct ptop_kmod_since *st, unsigned int need);

/*
 * The source's caps after an answer: c* (complete: self-reaped children
 * and orphans included) when the module says it fills them; per-task
 * steal only when asked for and measured (a kernel without a steal clock
 * gives none: the columns then say '-', not 0).
 */
unsigned int ptop_kmod_caps(const struct ptop_kmod_since *st);
/* src->note: what the module cannot measure here */
/* The source's note and its tolerance (struct ptop_src.tol_ppm). */
void ptop_kmod_note(struct ptop_src *src, const struct ptop_kmod_since *st);

/* The command for the next read: threads, since the last answer. */
void ptop_kmod_cmd(const struct ptop_kmod_since *st, struct ptop_ts_cmd *cmd);

/*
 * Check an answer header; with have = bytes available, returns 0 when the
 * header is sane, -EPROTO otherwise (message in err): another version
 * (the module and ptop do not match), a header or record size that is too
 * small or not a multiple of 8 (the structs are naturally aligned), an
 * absurd CPU count.
 */
int ptop_kmod_check_answer(const struct ptop_ts_answer *a, size_t have,
			   char *err, size_t errlen);

/* Sum the online CPUs of cpus[0..n) into out->cpu and out->ncpu. */
void ptop_kmod_add_cpus(const struct ptop_ts_cpu *cpus, uint32_t n,
			struct ptop_sample *out);

/*
 * Append count records of rec_size bytes each, decoded into struct
 * ptop_rec (lib/rec.h; the fields the module did not send are zero);
 * skip_exits drops EXIT records (pages after the first of a paged answer:
 * the next answer, since the first page, brings them). recs needs no
 * alignment (netlink attributes are only 4-aligned). -EPROTO when
 * rec_size < PTOP_KMOD_REC_MIN, -ENOMEM.
 */
int ptop_kmod_add_records(const void *recs, uint32_t count, size_t rec_size,
			  int skip_exits, struct ptop_sample *out);

/*
 * After the records: time, flags (INCREMENTAL / INEXACT), sys_apart from
 * the answer, and the seq for the next command.
 */
void ptop_kmod_finish(struct ptop_kmod_since *st, uint64_t since,
		      const struct ptop_ts_answer *a, struct ptop_sample *out);

/*
 * Paging, after the answer a to command *cmd (page: 0 for the first).
 * Returns 1 when another page must be asked for (*cmd then asks for it:
 * start_pid moved on, since_seq 0 after a RESYNC), 0 when the answer is
 * complete, -EPROTO when a MORE answer does not move start_pid forward
 * (the rest would be lost, or asked for forever). A RESYNC on a later
 * page (the module lost track between two pages) makes out INEXACT.
 */
int ptop_kmod_next_page(const struct ptop_ts_answer *a, int page,
			struct ptop_ts_cmd *cmd, struct ptop_sample *out,
			char *err, size_t errlen);

/*
 * A whole /proc/taskstats answer in one buffer. page 0 is the first (or
 * only) answer of a read; later pages (ANSF_MORE) add their live records.
 */
int ptop_kmod_parse(struct ptop_kmod_since *st, uint64_t since, int page,
		    const void *buf, size_t len, struct ptop_sample *out,
		    char *err, size_t errlen);

#endif /* PTOP_KMOD_ANSWER_H */
