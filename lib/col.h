/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Columns: ONE descriptor table (name, title, unit, width, type, where the
 * value lives in struct ptop_row, what data it needs, help text).
 * Formatting and comparing are generic over the descriptor, so a column is
 * defined in exactly one place.
 */
#ifndef PTOP_COL_H
#define PTOP_COL_H

#include <stdbool.h>
#include <stddef.h>
#include "interval.h"

enum ptop_col_id {
	PTOP_COL_PID,
	PTOP_COL_TGID,
	PTOP_COL_PPID,
	PTOP_COL_USER,
	PTOP_COL_STATE,
	PTOP_COL_THREADS,
	PTOP_COL_UTIME,
	PTOP_COL_STIME,
	PTOP_COL_STEAL,
	PTOP_COL_CUTIME,
	PTOP_COL_CSTIME,
	PTOP_COL_CSTEAL,
	PTOP_COL_XUTIME,
	PTOP_COL_XSTIME,
	PTOP_COL_XSTEAL,
	PTOP_COL_TOTAL,
	PTOP_COL_TIME,
	PTOP_COL_RDELAY,
	PTOP_COL_NVCSW,
	PTOP_COL_NIVCSW,
	PTOP_COL_MINFLT,
	PTOP_COL_MAJFLT,
	PTOP_COL_RSS,
	PTOP_COL_OWN,		/* user + sys + ste, folded */
	PTOP_COL_CSUM,		/* cuser + csys + cste, folded */
	PTOP_COL_XSUM,		/* xuser + xsys + xste, folded */
	PTOP_COL_COMMAND,
	PTOP_COL__COUNT
};

enum ptop_col_type {
	PTOP_CT_U32,	/* uint32_t */
	PTOP_CT_CHAR,	/* char */
	PTOP_CT_STR,	/* char[] */
	PTOP_CT_UID,	/* uint32_t uid, shown as a user name */
	PTOP_CT_PCT,	/* uint64_t ns over the interval, as % of one CPU */
	PTOP_CT_RATE,	/* uint64_t count over the interval, per second */
	PTOP_CT_CUMTIME,/* uint64_t ns since start, as [h:]mm:ss.cc */
	PTOP_CT_KB,	/* uint64_t KiB */
};

struct ptop_col {
	const char *name;	/* for -o, -s, the config file */
	const char *title;	/* header */
	const char *unit;	/* second header line, as the RFC's "(%)" */
	const char *help;
	enum ptop_col_type type;
	size_t offset;		/* into struct ptop_row */
	int width;
	bool left;		/* left aligned (text) */
	bool sum;		/* has a value in the sum row */
	/* PTOP_DATA_* to gather; "-" in a row that has not all of them */
	unsigned int needs;
	int nsum;		/* >1: the sum of nsum uint64_t fields from offset */
	int fold_of;		/* folded column: the first of the nsum it sums */
};

extern const struct ptop_col ptop_cols[PTOP_COL__COUNT];

/*
 * By name (exact, then case-insensitive), else by its header title
 * ("S", "THR", "c*"); -1 if unknown or ambiguous.
 */
int ptop_col_find(const char *name);
/*
 * A column described in one line, as --list-columns, the view's setup and
 * its help show it: "cdead    c*      (%)    cuser + csys + ...": the
 * name (-o, the config, JSON keys) beside the header the table shows.
 */
void ptop_col_describe(int id, char *buf, size_t len);
/*
 * Parse "PID,user,COMMAND" into ids[] (at most max). Returns the count,
 * or -EINVAL (unknown name, too many, empty) or -EEXIST (a column listed
 * twice) with the offending name copied into bad.
 */
int ptop_col_parse_list(const char *list, int *ids, int max, char *bad,
			size_t badlen);
/* Union of the columns' needs: what the source is asked to gather. */
unsigned int ptop_col_needs(const int *ids, int n);

/* The source cannot fill this cell for this row (it shows "-"). */
bool ptop_col_missing(const struct ptop_col *c, const struct ptop_row *r);
/*
 * A u64 cell's value in ns, KiB or a count: a folded column (own, c*, x*)
 * is the sum of its parts, a "-" part (ste) counting as 0.
 */
uint64_t ptop_col_value(const struct ptop_col *c, const struct ptop_row *r);
/*
 * Format one cell (no padding); "-" when the source cannot fill it. The
 * bytes snprintf(buf, len, ...) would write; returns the length written
 * (strlen(buf)).
 */
size_t ptop_col_format(const struct ptop_col *c, const struct ptop_row *r,
		     const struct ptop_interval *iv, char *buf, size_t len);
/*
 * The cells' figures without printf, shared by every batch format: the
 * bytes snprintf(buf, len, FMT, v) writes, its length returned.
 * ptop_fmt_u64: "%llu"; ptop_fmt_i64: "%lld"; ptop_fmt_fixed: "%.*f"
 * (prec 0..9; others through snprintf).
 */
size_t ptop_fmt_u64(uint64_t v, char *buf, size_t len);
size_t ptop_fmt_i64(long long v, char *buf, size_t len);
size_t ptop_fmt_fixed(double d, int prec, char *buf, size_t len);
/* Compare two rows by a column: <0, 0, >0 (ascending order). */
int ptop_col_compare(const struct ptop_col *c, const struct ptop_row *a,
		     const struct ptop_row *b);
/* Sort rows by column id; descending unless ascending. Stable on pid. */
void ptop_col_sort(struct ptop_row *rows, size_t n, int id, bool ascending);

/* Default column sets */
extern const char ptop_cols_default[];
extern const char ptop_cols_default_threads[];
extern const char ptop_cols_default_view[];
extern const char ptop_cols_default_view_threads[];

#endif /* PTOP_COL_H */
