/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sources (gatherers): one vtable, several backends. A source fills a
 * struct ptop_sample with struct ptop_rec entries (lib/rec.h: user
 * space's own record; the module's uapi record is decoded into it by
 * lib/src/kmod_answer.c) plus system-wide CPU counters.
 *
 * lib/ never prints or exits: functions return 0 / -errno and keep a
 * message in src->err for the caller.
 */
#ifndef PTOP_SRC_H
#define PTOP_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rec.h"

/*
 * Data fields: the one set of bits for what a source has (its caps), what
 * a column needs (struct ptop_col.needs), what a row can show (struct
 * ptop_row.has: a cell is "-" when its column's needs & ~has) and what a
 * source is asked to gather (struct ptop_src_cfg.need: the union of the
 * visible columns' needs). The fields every source has and none needs
 * asking for (times, faults ...) have no bit.
 */
#define PTOP_DATA_STEAL		(1U << 0) /* per-task steal */
#define PTOP_DATA_X		(1U << 1) /* dead threads x* */
#define PTOP_DATA_C		(1U << 2) /* dead children c* */
#define PTOP_DATA_RDELAY	(1U << 3) /* run-queue delay */
#define PTOP_DATA_CTXSW		(1U << 4) /* nvcsw/nivcsw */
/*
 * RSS: every source has it, but while it is shown a source that skips
 * quiet tasks reads them anyway (reclaim moves RSS without the task).
 */
#define PTOP_DATA_MEM		(1U << 5)
/*
 * Only process rows are shown (no --threads): a source may give a
 * process's live threads as one THREAD record, pid = tgid (procfs:
 * lib/src/procfs_gx.h). No column needs it; the caller sets it.
 */
#define PTOP_DATA_GROUPS_ONLY	(1U << 6)

/*
 * How a source measures (struct ptop_src.caps, beside its PTOP_DATA_*
 * bits): properties the model and the verdict read, no column needs them.
 */
#define PTOP_CAP_NS		(1U << 8) /* own times in ns, not ticks */
#define PTOP_CAP_C_COMPLETE	(1U << 9) /* c* includes self-reaped/orphans */
#define PTOP_CAP_EXITS		(1U << 10) /* EXIT records for dead tasks */
#define PTOP_CAP_INCREMENTAL	(1U << 11) /* answers only active tasks */
#define PTOP_CAP_EXIT_TAIL	(1U << 12) /* exit paths after the exit
					    * record reach no row (lib/verdict.h) */
/*
 * The proc root is a child pid namespace's (a container, unshare -p): the
 * rows are its tasks only, idle and capacity the machine's, so no sum can
 * be judged against the machine (lib/verdict.h: no "off").
 */
#define PTOP_CAP_PIDNS		(1U << 13)

/* struct ptop_sample.flags */
#define PTOP_SAMPLE_INCREMENTAL	(1U << 0) /* absent tasks kept their values */
#define PTOP_SAMPLE_INEXACT	(1U << 1) /* data was lost (RESYNC, ENOBUFS) */
/*
 * A first reading that the source cannot vouch for as an interval's
 * start (lib/verdict.h: "first interval"); cleared by a settled one.
 */
#define PTOP_SAMPLE_UNSETTLED	(1U << 2)

/* Kernel-side CPU time that is kept apart from tasks, per the kernel config */
#define PTOP_SYS_STEAL_APART	(1U << 0) /* PARAVIRT_TIME_ACCOUNTING */
#define PTOP_SYS_IRQ_APART	(1U << 1) /* IRQ_TIME_ACCOUNTING */

/* System-wide cumulative CPU time, ns, summed over CPUs. */
struct ptop_cpu_sum {
	uint64_t idle_ns;	/* idle + iowait */
	uint64_t iowait_ns;
	uint64_t steal_ns;
	uint64_t irq_ns;	/* irq + softirq */
	uint64_t busy_ns;	/* user+nice+system (for reference only) */
};

struct ptop_sample {
	uint64_t time_ns;	/* CLOCK_MONOTONIC when taken */
	unsigned int ncpu;	/* online CPUs */
	unsigned int flags;	/* PTOP_SAMPLE_* */
	unsigned int sys_apart;	/* PTOP_SYS_* */
	struct ptop_cpu_sum cpu;
	/*
	 * How far apart in time the readings that can move lie: the span
	 * between the first and the last reading of a task that may have
	 * run, and of the system counters (0: one instant, as the module's
	 * per-CPU pass). lib/verdict.h turns it into a possible error.
	 */
	uint64_t window_ns;
	unsigned int nlost;	/* dead tasks whose final counters were lost */
	/* the source's tolerance, copied from struct ptop_src by read */
	unsigned int tol_ppm;
	uint64_t res_ns;
	const char *res_what;
	struct ptop_rec *recs;
	size_t nrecs;
	size_t cap;
};

struct ptop_src_cfg {
	const char *proc_root;	/* "/proc" unless a test fixture */
	/*
	 * PTOP_DATA_* to gather (ptop_col_needs() of the visible columns):
	 * a source may skip work for a field not asked for.
	 */
	unsigned int need;
	/*
	 * A two-phase source may take its tight window (lib/src/rt_window.h) at
	 * SCHED_FIFO, at most 5 ms: set when the caller wants that (root).
	 */
	int rt_window;
	void *arg;		/* for a source given by ops (tests' fake) */
	/*
	 * Tests: called with arg between a two-phase source's walk and its
	 * tight window (procfs), to change the tree in between.
	 */
	void (*between_phases)(void *arg);
	/*
	 * Tests: called with arg after the walk, before its catch-up pass
	 * (procfs), to fork a process the walk could not meet.
	 */
	void (*after_walk)(void *arg);
};

struct ptop_src;

struct ptop_src_ops {
	const char *name;
	const char *desc;
	/* 0 or -errno (-ENOENT: not available here; -EPERM: not allowed) */
	int (*open)(struct ptop_src *src);
	/* Fill *out (already reset by the caller). */
	int (*read)(struct ptop_src *src, struct ptop_sample *out);
	void (*close)(struct ptop_src *src);
	/*
	 * The kernel checks CAP_NET_ADMIN at every request (genetlink
	 * GENL_ADMIN_PERM, against the sender), not only at open: a
	 * capability drop must keep it (lib/caps.h).
	 */
	bool asks_net_admin;
};

struct ptop_src {
	const struct ptop_src_ops *ops;
	struct ptop_src_cfg cfg;
	unsigned int caps;	/* PTOP_DATA_* it has, PTOP_CAP_*; by open() */
	/*
	 * The source's error bound, set by open() and kept up to date by
	 * read() (lib/verdict.h): the sum of an interval may be off by
	 * tol_ppm of ncpu x interval, plus res_ns per CPU for a source that
	 * reads rounded counters (clock ticks), res_what saying which (a
	 * static string, e.g. "procfs ticks").
	 */
	unsigned int tol_ppm;
	uint64_t res_ns;
	const char *res_what;
	void *priv;
	char err[256];		/* last error, for the caller to print */
	char note[256];		/* what this source cannot measure */
};

/* Registry */
extern const struct ptop_src_ops ptop_src_procfs_ops;
extern const struct ptop_src_ops ptop_src_taskstats_nl_ops;
extern const struct ptop_src_ops ptop_src_kmod_proc_ops;
extern const struct ptop_src_ops ptop_src_kmod_nl_ops;

const struct ptop_src_ops *ptop_src_find(const char *name);
/* All known sources, best first, NULL terminated. */
const struct ptop_src_ops *const *ptop_src_list(void);
/*
 * Their names, best first, sep between them, in buf (cut to len): the one
 * set of names --help, --list-sources, the headline and errors use.
 * Returns the length it wanted.
 */
size_t ptop_src_names(char *buf, size_t len, const char *sep);

/* Open one source by name (also the older "kmod" and "taskstats"). */
int ptop_src_open(struct ptop_src **out, const char *name,
		  const struct ptop_src_cfg *cfg, char *err, size_t errlen);
/* kmod_proc, kmod_nl, taskstats_nl, procfs: first that opens. */
int ptop_src_open_best(struct ptop_src **out, const struct ptop_src_cfg *cfg,
		       char *err, size_t errlen);
/* Open a source with explicit ops (tests use a fake source). */
int ptop_src_open_ops(struct ptop_src **out, const struct ptop_src_ops *ops,
		      const struct ptop_src_cfg *cfg, char *err, size_t errlen);
int ptop_src_read(struct ptop_src *src, struct ptop_sample *out);
void ptop_src_close(struct ptop_src *src);

/* Sample helpers */
void ptop_sample_init(struct ptop_sample *s);
void ptop_sample_reset(struct ptop_sample *s);
void ptop_sample_free(struct ptop_sample *s);
/*
 * *out (reset) becomes a copy of in, records and all but the source's
 * tolerance (ptop_src_read() sets that): a source that replays samples
 * (tests' fake). 0 or -ENOMEM.
 */
int ptop_sample_copy(struct ptop_sample *out, const struct ptop_sample *in);
/* Append a zeroed record of this kind; NULL on ENOMEM. */
struct ptop_rec *ptop_sample_add(struct ptop_sample *s,
				       enum ptop_rec_kind kind);

/* printf-style helper for src->err */
void ptop_src_set_err(struct ptop_src *src, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* PTOP_SRC_H */
