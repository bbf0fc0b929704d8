/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one meaning of the headline's "exact" (docs/design.md, ptop(1)): the
 * rows plus idle (+ the system parts kept apart from tasks) are within 1%
 * of ncpu x interval (0.5% with the module: PTOP_EXACT_PPM, or the
 * source's tol_ppm when lower), whatever the source. An interval is exact
 * when
 *   - no data was lost (no exit record missing, no overrun, no RESYNC),
 *   - nothing was clamped (no counter was held to keep a delta >= 0),
 *   - its two snapshots were taken fast enough that reading busy tasks at
 *     different instants cannot move the rows by more than the bound,
 *   - it does not start at a first reading the source cannot vouch for,
 *   - no EXIT record came late (PTOP_WHY_LATE),
 *   - the sum is within the source's own error bound of ncpu x interval,
 *   - and that bound is no wider than the 1% (0.5%) above.
 * An interval that passes all but the last is "within ±X% (why)": the
 * source's bound X (in the headline's percent) and what makes it wide,
 * e.g. "within ±42.0% (procfs ticks at 0.1 s)". Anything else is inexact,
 * with every reason that applies.
 *
 * The source's bound (struct ptop_src.tol_ppm, .res_ns, .res_what):
 * tol_ppm of ncpu x interval (module 0.5%, taskstats 1%, procfs 1%), plus
 * res_ns per CPU for a source whose counters are rounded (procfs: two
 * clock ticks, for each CPU's idle and the task that kept it busy; the
 * taskstats source whose idle is in ticks: one).
 *
 * A reading window w (struct ptop_sample.window_ns) can put a busy task's
 * reading up to w away from its snapshot's instant, so the two windows
 * can move the rows by up to busy x (w_prev + w_cur) / 2, busy being the
 * CPUs the tasks kept busy (capacity - idle, per interval); more than the
 * tolerance is a slow snapshot.
 *
 * Parts: rows + idle + kept-apart parts + exit_paths_ns = ncpu x interval
 * when only exit paths are missing; "off" is judged on what is left.
 */
#ifndef PTOP_VERDICT_H
#define PTOP_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* struct ptop_verdict.why, in the order they are printed */
#define PTOP_WHY_FIRST		(1U << 0) /* "first interval" */
#define PTOP_WHY_LOST		(1U << 1) /* "lost 3 exits", "lost events" */
#define PTOP_WHY_CLAMPED	(1U << 2) /* "clamped 0.32%" */
#define PTOP_WHY_UNFOLDED	(1U << 3) /* "unfolded 0.10%" */
#define PTOP_WHY_SLOW		(1U << 4) /* "slow snapshot 310 ms" */
#define PTOP_WHY_EXIT_PATHS	(1U << 5) /* "exit paths 3.00% (64 exits, ...)" */
#define PTOP_WHY_OFF		(1U << 6) /* "off -3.20%" */
/*
 * "late 2 exits": an EXIT record did not come with the snapshot its task
 * was gone from; that interval misses the task's last part, and the one
 * the record comes in shows it (struct ptop_snap_pending).
 */
#define PTOP_WHY_LATE		(1U << 7)
#define PTOP_WHY__COUNT		8

/*
 * On a source whose exit records come before the rest of a task's exit
 * path (PTOP_CAP_EXIT_TAIL: the stock kernel's taskstats), that rest is in
 * no row: it is measured as what the ns idle/busy counters say is missing
 * in an interval with exits, up to this much per exit (more than any
 * exit path: the rest is "off"), and shown as a part of its own. It counts
 * against the tolerance like any error.
 */
#define PTOP_EXIT_PATH_MAX_NS	5000000ULL

/*
 * A source whose rows are one pid namespace's tasks (PTOP_CAP_PIDNS) has
 * no machine total: its intervals are never exact, within or off; the
 * headline says "tasks of this pid namespace only: machine total not
 * accounted", with the other reasons that apply (lost, slow...).
 */
#define PTOP_VERDICT_PIDNS \
	"tasks of this pid namespace only: machine total not accounted"

/* exact's bound: 1% of ncpu x interval (a source's tol_ppm if lower) */
#define PTOP_EXACT_PPM		10000U

struct ptop_verdict {
	bool exact;		/* why == 0 and the bound within exact's */
	bool within;		/* why == 0, but the bound is wider */
	bool pidns;		/* PTOP_CAP_PIDNS: no sum judged */
	unsigned int why;	/* PTOP_WHY_* */
	int64_t off_ns;		/* accounted - capacity */
	uint64_t tol_ns;	/* what |off_ns| may be: the source's bound */
	uint64_t exact_ns;	/* what exact allows (PTOP_EXACT_PPM) */
	uint64_t window_ns;	/* the wider of the two snapshots' windows */
	uint64_t skew_ns;	/* what the windows can move the rows by */
	unsigned int nlost;	/* exits whose final counters were lost */
	uint64_t exit_paths_ns;	/* the part no row can get (see above) */
	unsigned int ntask_exits; /* tasks (threads) that died */
};

struct ptop_interval;

/* Judge iv (done by ptop_interval_compute(); the result is iv->verdict). */
void ptop_verdict_judge(struct ptop_interval *iv, uint64_t prev_window_ns,
			uint64_t cur_window_ns, bool first);

/*
 * One reason as text (bit: one PTOP_WHY_*), e.g. "off -3.20%"; "" when
 * bit is not among iv's reasons. Returns the length snprintf() would.
 */
int ptop_verdict_reason(const struct ptop_interval *iv, unsigned int bit,
			char *buf, size_t len);
/*
 * The headline word: "exact", "within ±42.0% (procfs ticks at 0.1 s)", or
 * "inexact: " and the reasons joined by ", " (e.g. "inexact: lost 3
 * exits, off -3.20%").
 */
int ptop_verdict_str(const struct ptop_interval *iv, char *buf, size_t len);
/*
 * Why a "within" interval's bound is wide, e.g. "procfs ticks at 0.1 s";
 * "" when the interval is not "within".
 */
int ptop_verdict_within_why(const struct ptop_interval *iv, char *buf,
			    size_t len);
/*
 * A word or two: "exact", "within", "pid namespace only" or "inexact"
 * (the curses All bar).
 */
const char *ptop_verdict_word(const struct ptop_interval *iv);
/*
 * The same in the fewest words, for the view's headline: "inexact: first,
 * lost 1, slow 300 ms, exit paths 3.00%, late 2, off -3.20%" (clamped and
 * unfolded as above).
 */
int ptop_verdict_brief(const struct ptop_interval *iv, char *buf, size_t len);

#endif /* PTOP_VERDICT_H */
