/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Batch output: one emitter, one encoder per format.
 *
 * The emitter drives an encoder through
 *   begin     once, before the first interval (CSV: its header)
 *   interval  an interval starts (text: the headline; JSON: "{...")
 *   row       each shown row, in view order (sorted, tree, --top)
 *   sum       the sum over every task; closes the interval
 *   end       once, at the end of the output (may be NULL)
 * and gives it what every format shares: the interval's fields and a row's
 * fields (name with its unit, typed value) in one order, so CSV and JSON
 * carry the same fields, and strings made valid UTF-8.
 *
 * A format is one file, ui/enc_NAME.c, defining
 *   const struct ui_encoder ui_enc_NAME = { .name = "NAME", ... };
 * the build lists every ui/enc_*.c in the table of ui_format_list() (text
 * first, by .order), from which --format, --help, its error text and --list-formats
 * (the completions) take the names.
 */
#ifndef UI_EMIT_H
#define UI_EMIT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/col.h"
#include "view.h"

struct ui_view_opts;
struct ui_emit;
struct ptop_sysinfo;

struct ui_encoder {
	const char *name;	/* --format=NAME */
	const char *help;	/* one line: --list-formats */
	int order;		/* place in --help and the list: lower first */
	size_t default_top;	/* rows without --top (0: all) */
	bool folds_rest;	/* gets every row, folds those past --top */
	bool one_interval;	/* one document per output: -n 1 only */
	void (*begin)(struct ui_emit *e);
	void (*interval)(struct ui_emit *e);
	void (*row)(struct ui_emit *e, const struct ptop_row *r);
	void (*sum)(struct ui_emit *e, const struct ptop_row *sum);
	void (*end)(struct ui_emit *e);
};

/* every encoder, in order (text first), NULL-terminated */
const struct ui_encoder *const *ui_format_list(void);

/* By name; NULL if unknown. */
const struct ui_encoder *ui_format_find(const char *name);
/* "text, csv, json, openmetrics" (sep between names), static storage */
const char *ui_format_names(const char *sep);

/* What an encoder sees while it runs. */
struct ui_emit {
	FILE *out;
	const struct ui_encoder *enc;
	const struct ui_view_opts *o;
	const struct ptop_interval *iv;	/* the interval being written */
	struct timespec wall;	/* CLOCK_REALTIME at the interval's end */
	unsigned long nintervals;	/* written before this one */
	size_t nrows;		/* rows of this interval written so far */
	size_t top;		/* rows to write (folds_rest: to name); 0 all */
	void *priv;		/* the encoder's own state */
	struct ui_lines *lines;	/* the last interval's lines (ui_emit_line_*) */
	/* the machine beside the tasks: the text summary (NULL: none) */
	const struct ptop_sysinfo *sys;
	/* the view (ui/view.h) builds the rows from a copy of the interval */
	struct ui_view view;
	const struct ui_vrow *cur;	/* the row being written; NULL: sum */
	uint32_t tree_parent;	/* --tree: the row cur is shown under; 0 root */
	uint32_t chain[UI_TREE_MAX_DEPTH + 1];	/* pids by depth, for it */
};

/* Start an output with encoder enc (NULL: text). */
void ui_emit_init(struct ui_emit *e, FILE *out, const struct ui_encoder *enc,
		  const struct ui_view_opts *o);
/*
 * Write one interval: the view's rows (-p, the sort, the tree order with
 * --tree; iv itself is not changed), the first --top of them, the sum.
 * 0, or -errno when the output failed (EPIPE) or memory ran out.
 */
int ui_emit_interval(struct ui_emit *e, const struct ptop_interval *iv);
/* The end of the output (frees what the emitter holds); 0 or -errno. */
int ui_emit_end(struct ui_emit *e);

/* --- shared by the encoders ---------------------------------------------- */
enum ui_val_type {
	UI_V_NULL,	/* the source cannot measure it: JSON null, CSV empty */
	UI_V_INT,
	UI_V_NUM,	/* a double, printed with .prec decimals */
	UI_V_BOOL,
	UI_V_STR,	/* raw bytes; put through ui_emit_str() */
	UI_V_LIST,	/* strings in str_buf, each ended by '\n': JSON an
			 * array, CSV one field joined by "; " */
};

struct ui_field {
	const char *name;	/* with its unit: "user_pct", "TIME_s" */
	enum ui_val_type type;
	long long i;
	double d;
	int prec;
	bool b;
	const char *s;
	char name_buf[32];
	char str_buf[320];
};

/*
 * The interval's fields in order (schema, times, verdict, system parts);
 * false past the last one.
 */
bool ui_emit_iv_field(const struct ui_emit *e, size_t i, struct ui_field *f);
/*
 * A row's fields in order: kind ("process", "thread", "sum"), depth and
 * tree_parent (with --tree: the pid it is shown under, its parent or, for
 * an orphan, its accounting parent), then one per shown column. For the sum row, a column without a
 * sum is UI_V_NULL. False past the last one.
 */
bool ui_emit_row_field(const struct ui_emit *e, const struct ptop_row *r,
		       bool is_sum, size_t i, struct ui_field *f);

/* how ui_emit_str() quotes */
enum ui_quote {
	UI_Q_JSON,	/* "...": \" \\ \uXXXX for controls */
	UI_Q_CSV,	/* "...": "" for ", controls as \xNN */
	UI_Q_LABEL,	/* OpenMetrics label value: \" \\ \n, controls \\xNN */
};

/*
 * An encoder's output: a line (or more) built in memory and written with
 * one fwrite() when full or flushed, so no field costs a stdio call.
 */
struct ui_buf {
	FILE *out;
	size_t n;
	unsigned long nflush;	/* writes so far (a line past n went out) */
	char b[4096];
};

static inline void ui_buf_init(struct ui_buf *b, FILE *out)
{
	b->out = out;
	b->n = 0;
	b->nflush = 0;
}
void ui_buf_flush(struct ui_buf *b);
/* n bytes of s */
void ui_buf_put(struct ui_buf *b, const char *s, size_t n);
static inline void ui_buf_puts(struct ui_buf *b, const char *s)
{
	ui_buf_put(b, s, strlen(s));
}
static inline void ui_buf_putc(struct ui_buf *b, char c)
{
	if (b->n == sizeof(b->b))
		ui_buf_flush(b);
	b->b[b->n++] = c;
}
/* ptop_fmt_u64(), ptop_fmt_fixed() into the buffer */
void ui_buf_u64(struct ui_buf *b, uint64_t v);
void ui_buf_fixed(struct ui_buf *b, double d, int prec);

/*
 * Write s quoted, always valid UTF-8: a byte that is not part of a valid
 * UTF-8 sequence (a name cut mid-character, Latin-1) becomes the text
 * \xNN, so nothing is lost and no parser chokes.
 */
void ui_buf_str(struct ui_buf *b, const char *s, enum ui_quote q);
/* A field's value as JSON or CSV writes it. */
void ui_buf_value(struct ui_buf *b, const struct ui_field *f, enum ui_quote q);
/*
 * The last interval's lines, by place in the view (flat output only, not
 * the sum): a row whose bytes are those of the row at its place last
 * time and whose cells do not depend on the interval's length (the same
 * length, or every figure divided by it 0: "0.00", "0.0000", "0") has
 * the line it had, written again without formatting a field. 10,000
 * sleepers in pid order keep their places and their lines. The text,
 * CSV (the part after the interval's fields) and JSON writers keep them.
 *
 * ui_emit_line_get: the line of place e->nrows (its length in *len) if
 * it is r's now, else NULL. ui_emit_line_keep: line (n bytes; NULL or 0:
 * none) as that place's, for the next interval.
 */
const char *ui_emit_line_get(const struct ui_emit *e, const struct ptop_row *r,
			     size_t *len);
void ui_emit_line_keep(struct ui_emit *e, const struct ptop_row *r,
		       const char *line, size_t n);

/* the same, straight to a stream */
void ui_emit_str(FILE *out, const char *s, enum ui_quote q);
/*
 * At most max bytes of s (a comm need not end in NUL): the one JSON
 * string writer of ptop and tstime.
 */
void ui_emit_strn(FILE *out, const char *s, size_t max, enum ui_quote q);
void ui_emit_value(FILE *out, const struct ui_field *f, enum ui_quote q);

#endif /* UI_EMIT_H */
