// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: module answers (lib/src/kmod_answer.c), then what the
 * model does with whatever the decoder let through.
 *
 * Input: a 2-byte little-endian length L, answer A (L bytes), answer B
 * (the rest). A is decoded as the first (full) answer of a read, B as the
 * next one since A's seq, both as /proc/taskstats buffers; B also as a
 * later page of a paged answer and, cut into records, as netlink
 * attributes (any length, 4-aligned). Every decoded sample goes through
 * ptop_snap_apply() and ptop_interval_compute() in both process and
 * thread mode: the decoder must refuse what the model cannot take.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/interval.h"
#include "lib/src/kmod_answer.h"

/* the buffers the transports hand over: malloc'ed (/proc), 4-aligned (nl) */
static void *dup_at(const uint8_t *d, size_t n, size_t misalign)
{
	uint8_t *b = malloc(n + misalign + 1);

	if (b)
		memcpy(b + misalign, d, n);
	return b;
}

static void model(struct ptop_snapper *sn, const struct ptop_sample *s,
		  const struct ptop_kmod_since *st)
{
	struct ptop_interval iv;
	int threads;

	if (ptop_snap_apply(sn, s, ptop_kmod_caps(st)))
		return;
	for (threads = 0; threads < 2; threads++) {
		ptop_interval_init(&iv);
		if (!ptop_interval_compute(&iv, ptop_snap_prev(sn),
					   ptop_snap_cur(sn), threads)) {
			(void)ptop_interval_accounted_ns(&iv);
			(void)ptop_interval_capacity_ns(&iv);
		}
		ptop_interval_free(&iv);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ptop_ts_answer ans;
	struct ptop_kmod_since st;
	struct ptop_snapper sn;
	struct ptop_sample s;
	struct ptop_ts_cmd cmd;
	size_t la, lb, off;
	uint8_t *a, *b;
	char err[256];
	uint64_t since;

	if (size < 2)
		return 0;
	la = data[0] | (size_t)data[1] << 8;
	if (la > size - 2)
		la = size - 2;
	lb = size - 2 - la;
	a = dup_at(data + 2, la, 0);
	b = dup_at(data + 2 + la, lb, 0);
	if (!a || !b)
		goto out;

	ptop_kmod_since_init(&st, PTOP_DATA_STEAL);
	ptop_snapper_init(&sn, NULL);
	ptop_sample_init(&s);
	ptop_kmod_cmd(&st, &cmd);
	if (!ptop_kmod_parse(&st, 0, 0, a, la, &s, err, sizeof(err))) {
		ptop_kmod_next_page((const void *)a, 0, &cmd, &s, err,
				    sizeof(err));
		model(&sn, &s, &st);
	}
	/* B: the next answer, since A */
	since = st.seq;
	ptop_sample_reset(&s);
	ptop_kmod_cmd(&st, &cmd);
	if (!ptop_kmod_parse(&st, since, 0, b, lb, &s, err, sizeof(err))) {
		ptop_kmod_next_page((const void *)b, 0, &cmd, &s, err,
				    sizeof(err));
		model(&sn, &s, &st);
		ptop_kmod_note(&(struct ptop_src){ 0 }, &st);
	}
	/* B as page 1 of A's read */
	if (!ptop_kmod_parse(&st, since, 1, b, lb, &s, err, sizeof(err)))
		ptop_kmod_next_page((const void *)b, 1, &cmd, &s, err,
				    sizeof(err));

	/* B as netlink: answer attribute, CPUs, then records of A[0] bytes */
	free(a);
	a = dup_at(data + 2 + la, lb, 4);
	if (!a)
		goto out_model;
	ptop_sample_reset(&s);
	if (lb >= sizeof(ans)) {	/* kmod_nl copies the answer out */
		memcpy(&ans, a + 4, sizeof(ans));
		ptop_kmod_check_answer(&ans, lb, err, sizeof(err));
	}
	ptop_kmod_add_cpus((const void *)(a + 4), lb / sizeof(struct ptop_ts_cpu),
			   &s);
	for (off = 0; la && off + la <= lb; off += (la + 3) & ~(size_t)3)
		ptop_kmod_add_records(a + 4 + off, 1, la, data[0] & 1, &s);
	model(&sn, &s, &st);
out_model:
	ptop_sample_free(&s);
	ptop_snapper_free(&sn);
out:
	free(a);
	free(b);
	return 0;
}
