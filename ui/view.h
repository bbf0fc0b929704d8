/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The view: what both the curses screen and batch mode show of one
 * interval, and the lines both print above the rows (headline, system
 * line). It never changes the interval (a const input); it builds its
 * own rows from a copy: -p and the filters select, then sort, then the
 * tree order with its lines, collapsed branches and subtree totals, and
 * (if asked) rows for the tasks that died in the interval.
 *
 * Exited rows are information only: their time is already in their live
 * ancestor's c* (the interval math folded it there), so they are in no
 * sum and no subtree total.
 */
#ifndef UI_VIEW_H
#define UI_VIEW_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "lib/col.h"
#include "lib/snap.h"
#include "tree.h"
#include "vrow.h"

struct ui_encoder;
struct ui_tree_quick;

/* What the user asked to see (-p, sort, columns, --tree, --top, --format). */
struct ui_view_opts {
	const struct ui_encoder *format;	/* batch; NULL: text */
	size_t top;		/* batch: the first N rows (0: all) */
	const int *cols;	/* column ids to show */
	int ncols;
	int sort_id;		/* column to sort by */
	bool sort_asc;
	bool tree;		/* batch: rows in tree order, COMMAND indented */
	const uint32_t *pids;	/* show only these (pid or tgid); NULL: all */
	size_t npids;
	const char *source;	/* the source's name */
};

/* The settings a build used (ui/view.c compares them with the next's). */
struct ui_view_built {
	bool hide_kthreads, by_user, filter_regex, sort_asc;
	uint32_t uid;
	int sort_id;
	char filter[128];
	uint32_t pids[256];
	size_t npids;		/* > 256: never quick */
	struct ui_pidset tagged;
	bool tree, show_exited;
	struct ui_pidset collapsed;	/* tree */
};

struct ui_view {
	/* what to show */
	bool tree;
	bool show_exited;
	bool hide_kthreads;
	bool by_user;
	uint32_t uid;		/* by_user: only this user's tasks */
	char filter[128];	/* COMMAND or USER contains it (or matches) */
	bool filter_regex;	/* filter is an extended regex */
	regex_t re;
	bool have_re;
	struct ui_pidset collapsed;
	struct ui_pidset tagged;
	/* the result of the last build */
	struct ui_vrow *rows;
	size_t nrows, cap;
	size_t nexited_shown;
	size_t nexited_tiny;	/* died, but with less than UI_EXITED_MIN_PCT */
	/*
	 * What the last build came from, so that the next one, of an
	 * interval made from that one by its quick path (struct
	 * ptop_interval.changes) with the same settings, only takes the
	 * changed rows out of the sorted list and puts them back in their
	 * new places (quick). built_end 0: the next build is a full one.
	 */
	bool quick;
	uint64_t built_end;
	struct ui_view_built built;
	/* the quick build's scratch */
	struct ui_vrow *ins;
	size_t *rem, *ipos;
	size_t cap_ins, cap_pos;
	/* the tree's (ui/tree_quick.c): the last tree, kept */
	struct ui_tree_quick *tq;
	struct ui_tq_chg *chg;
	struct ui_vrow *xrows;	/* the dead of the interval */
	size_t cap_chg, cap_xrows;
	unsigned long ntree_quick;	/* tree builds by the quick path */
};

/* a dead row with a smaller share (it would show 0.00) is only counted */
#define UI_EXITED_MIN_PCT 0.005

void ui_view_init(struct ui_view *v);
void ui_view_free(struct ui_view *v);
/*
 * Set the filter text (copied); regex: as an extended regular expression,
 * case insensitive. 0, or -EINVAL with regerror's words in err (the old
 * filter stays).
 */
int ui_view_set_filter(struct ui_view *v, const char *text, bool regex,
		       char *err, size_t errlen);
bool ui_view_match(const struct ui_view *v, const struct ptop_row *r);
/* A kernel thread: kthreadd (pid 2) and its children. */
bool ui_view_is_kthread(const struct ptop_row *r);

/*
 * Build the rows to show from iv (const: nothing in it changes). prev and
 * cur (may be NULL) are the interval's two snapshots, for the exited rows.
 * 0, or -ENOMEM (the rows are then those of the last good build).
 */
int ui_view_build(struct ui_view *v, const struct ui_view_opts *o,
		  const struct ptop_interval *iv, const struct ptop_snap *prev,
		  const struct ptop_snap *cur);

/*
 * The tree's quick build (ui/tree_quick.c). ui_tq_full(): ui_tree_build()
 * over v->rows[0, n) with v->collapsed, and (keep) the tree kept for the
 * next build; returns what ui_tree_build() returns. ui_tq_update(): the
 * kept tree and v->rows changed by what changed (old: a row of the last
 * build, by its pid, NULL: none; nv: the row now, NULL: none) and the
 * dead rows of the interval (those of the last build leave); the same
 * settings (sort, collapsed) as the full build it came from. 0, or <0
 * (a case it does not take, no memory): v->rows is then garbage and the
 * caller builds in full.
 */
struct ui_tq_chg {
	const struct ptop_row *old;
	const struct ui_vrow *nv;
};
long ui_tq_full(struct ui_view *v, size_t n, int sort_id, bool asc, bool keep);
int ui_tq_update(struct ui_view *v, const struct ui_tq_chg *chg, size_t nchg,
		 const struct ui_vrow *exited, size_t nexited);
bool ui_tq_valid(const struct ui_view *v);
void ui_tq_free(struct ui_tree_quick *q);

/* --- ui/view_lines.c ---------------------------------------------------- */
/*
 * The absolute-deadline schedule, written once: the next snapshot is due
 * one step after the previous deadline, or a step from now when behind
 * (suspended, slow terminal). *deadline_ns 0: starts from now.
 */
uint64_t ui_sched_next(uint64_t *deadline_ns, uint64_t step_ns, uint64_t now_ns);
uint64_t ui_now_ns(void);

/*
 * The wall-clock time of a CLOCK_MONOTONIC instant (the snapshot's): the
 * headline shows when the interval ended, not when it was drawn.
 */
time_t ui_wall_time(uint64_t mono_ns);
/* The interval's one-line headline: accounted X% of Y%, exact/inexact. */
void ui_headline(const struct ptop_interval *iv, const char *source,
		 char *buf, size_t len);
/* The second line: idle, iowait, steal, irq, exits, clamped. */
void ui_sysline(const struct ptop_interval *iv, char *buf, size_t len);

#endif /* UI_VIEW_H */
