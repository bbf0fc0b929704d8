/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One task's reading, as every source gives it to the model: the row
 * input of lib/snap.c and lib/interval.c. It is user space's own type:
 * the module's record (struct ptop_ts_record in kmod/uapi/) is the
 * kernel ABI only, decoded into this by lib/src/kmod_answer.c, so a
 * field that only a stock source has is added here, not to the ABI.
 */
#ifndef PTOP_REC_H
#define PTOP_REC_H

#include <stdint.h>

#define PTOP_COMM_LEN 16

enum ptop_rec_kind {
	PTOP_REC_THREAD = 1,	/* one thread: own counters */
	PTOP_REC_GROUP = 2,	/* thread group: x*, c*, identity */
};

/* struct ptop_rec.flags */
#define PTOP_RECF_EXIT		(1U << 0) /* final counters of a dead task */
#define PTOP_RECF_HAS_X		(1U << 1) /* x* fields are measured */
#define PTOP_RECF_HAS_C		(1U << 2) /* c* fields are measured */
#define PTOP_RECF_HAS_STEAL	(1U << 3) /* steal fields are measured */
#define PTOP_RECF_HAS_RDELAY	(1U << 4) /* rdelay_ns is measured */
#define PTOP_RECF_C_PARTIAL	(1U << 5) /* c* only has waited children */
#define PTOP_RECF_EXEC		(1U << 6) /* a non-leader exec happened */

/*
 * What a task did, counted: the same five in every source's reading of
 * a thread (lib/src/tsacct.c's threads keep them as one too).
 */
struct ptop_rec_counts {
	uint64_t rdelay_ns;	/* run-queue wait */
	uint64_t nvcsw;
	uint64_t nivcsw;
	uint64_t minflt;
	uint64_t majflt;
};

struct ptop_rec {
	uint16_t kind;		/* enum ptop_rec_kind */
	uint16_t flags;		/* PTOP_RECF_* */
	uint32_t pid;		/* thread id (GROUP: = tgid) */
	uint32_t tgid;
	uint32_t ppid;		/* real parent's tgid */
	uint32_t acct_ptgid;	/* accounting parent's tgid (c* goes there) */
	uint32_t uid;
	uint32_t nthreads;	/* GROUP: live threads */
	uint32_t folded_into;	/* EXIT GROUP: tgid that received T + C */
	uint32_t exit_code;	/* EXIT: as wait(2) reports it */
	char state;		/* R S D T t Z X I ... */
	char comm[PTOP_COMM_LEN];
	uint64_t start_ns;	/* CLOCK_BOOTTIME at fork */
	uint64_t folded_start_ns;	/* start_ns of folded_into */
	uint64_t exit_ns;	/* EXIT: CLOCK_BOOTTIME at exit */
	/* own: THREAD this thread; GROUP the sum of its live threads */
	uint64_t utime_ns;
	uint64_t stime_ns;
	uint64_t steal_ns;
	/* x*: dead threads of the group (GROUP only) */
	uint64_t xutime_ns;
	uint64_t xstime_ns;
	uint64_t xsteal_ns;
	/* c*: dead descendants folded into the group (GROUP only) */
	uint64_t cutime_ns;
	uint64_t cstime_ns;
	uint64_t csteal_ns;
	union {
		struct ptop_rec_counts counts;
		struct {	/* the same, by name */
			uint64_t rdelay_ns;
			uint64_t nvcsw;
			uint64_t nivcsw;
			uint64_t minflt;
			uint64_t majflt;
		};
	};
	uint64_t rss_kb;	/* GROUP: resident set size */
	uint64_t hiwater_rss_kb;	/* GROUP: peak resident set size */
	/*
	 * RECF_EXEC: a non-leader thread exec'ed and took over the leader's
	 * pid and start_ns; the identity it had before, so that its counters
	 * continue from that thread's, not from the old leader's.
	 */
	uint32_t exec_old_pid;
	uint64_t exec_old_start_ns;
};

#endif /* PTOP_REC_H */
