// SPDX-License-Identifier: GPL-2.0
/*
 * The batch emitter: the encoder table, the loop over one interval's
 * rows, and the last interval's lines (the fields: emit_fields.c; the
 * output buffer and quoting: emit_buf.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "emit.h"

/* ui_encoders.h is made by the build: UI_ENCODER(x) for each ui/enc_x.c */
#define UI_ENCODER(x) extern const struct ui_encoder ui_enc_##x;
#include "ui_encoders.h"
#undef UI_ENCODER
#define UI_ENCODER(x) &ui_enc_##x,
static const struct ui_encoder *const all_encoders[] = {
#include "ui_encoders.h"
};
#undef UI_ENCODER
#define N_ENCODERS (sizeof(all_encoders) / sizeof(all_encoders[0]))

static const struct ui_encoder *sorted[N_ENCODERS + 1];

static int by_order(const void *a, const void *b)
{
	const struct ui_encoder *x = *(const struct ui_encoder *const *)a;
	const struct ui_encoder *y = *(const struct ui_encoder *const *)b;

	return x->order != y->order ? x->order - y->order :
				      strcmp(x->name, y->name);
}

const struct ui_encoder *const *ui_format_list(void)
{
	if (!sorted[0]) {
		memcpy(sorted, all_encoders, sizeof(all_encoders));
		qsort(sorted, N_ENCODERS, sizeof(sorted[0]), by_order);
	}
	return sorted;
}

const struct ui_encoder *ui_format_find(const char *name)
{
	const struct ui_encoder *const *l;

	for (l = ui_format_list(); *l; l++)
		if (!strcmp((*l)->name, name))
			return *l;
	return NULL;
}

const char *ui_format_names(const char *sep)
{
	static char buf[256];
	const struct ui_encoder *const *l;
	size_t pos = 0;

	buf[0] = '\0';
	for (l = ui_format_list(); *l && pos < sizeof(buf); l++)
		pos += snprintf(buf + pos, sizeof(buf) - pos, "%s%s",
				l == ui_format_list() ? "" : sep, (*l)->name);
	return buf;
}

void ui_emit_init(struct ui_emit *e, FILE *out, const struct ui_encoder *enc,
		  const struct ui_view_opts *o)
{
	memset(e, 0, sizeof(*e));
	e->out = out;
	e->enc = enc ? enc : ui_format_find("text");
	e->o = o;
	e->top = o->top ? o->top : e->enc->default_top;
	ui_view_init(&e->view);
	e->view.tree = o->tree;
	if (e->enc->begin)
		e->enc->begin(e);
}

static int out_status(FILE *out)
{
	if (fflush(out) || ferror(out))
		return -(errno ? errno : EIO);
	return 0;
}

/* the wall clock at the interval's end, from its CLOCK_MONOTONIC stamp */
static void wall_time(const struct ptop_interval *iv, struct timespec *wall)
{
	struct timespec mono, real;
	int64_t ago;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	ago = (int64_t)mono.tv_sec * 1000000000LL + mono.tv_nsec -
	      (int64_t)iv->time_ns;
	if (ago < 0 || !iv->time_ns)
		ago = 0;
	ago = (int64_t)real.tv_sec * 1000000000LL + real.tv_nsec - ago;
	wall->tv_sec = ago / 1000000000LL;
	wall->tv_nsec = ago % 1000000000LL;
}

int ui_emit_interval(struct ui_emit *e, const struct ptop_interval *iv)
{
	const struct ui_vrow *vr;
	size_t i, n;
	int ret;

	/* no snapshots: batch shows no rows for the tasks that died */
	ret = ui_view_build(&e->view, e->o, iv, NULL, NULL);
	if (ret)
		return ret;
	e->iv = iv;
	e->nrows = 0;
	wall_time(iv, &e->wall);
	e->enc->interval(e);
	n = e->view.nrows;
	if (e->top && !e->enc->folds_rest && n > e->top)
		n = e->top;
	for (i = 0; i < n; i++) {
		vr = &e->view.rows[i];
		e->cur = vr;
		if (vr->depth >= 0 && vr->depth <= UI_TREE_MAX_DEPTH) {
			e->chain[vr->depth] = vr->r.pid;
			e->tree_parent = vr->depth ? e->chain[vr->depth - 1] : 0;
		}
		e->enc->row(e, &vr->r);
		e->nrows++;
	}
	/* the sum is over every task, also those -p and --top did not show */
	e->cur = NULL;
	e->enc->sum(e, &iv->sum);
	e->nintervals++;
	e->iv = NULL;
	return out_status(e->out);
}

static void lines_free(struct ui_emit *e);

int ui_emit_end(struct ui_emit *e)
{
	if (e->enc->end)
		e->enc->end(e);
	lines_free(e);
	ui_view_free(&e->view);
	return out_status(e->out);
}

/* --- the last interval's lines ------------------------------------------- */
struct ui_line {
	struct ptop_row r;
	uint64_t interval_ns;
	size_t len;		/* 0: none */
	size_t cap;
	char *line;
};

struct ui_lines {
	struct ui_line *l;
	size_t cap;
};

const char *ui_emit_line_get(const struct ui_emit *e, const struct ptop_row *r,
			     size_t *len)
{
	const struct ui_lines *tc = e->lines;
	const struct ui_line *l;
	int i;

	if (!tc || e->nrows >= tc->cap)
		return NULL;
	l = &tc->l[e->nrows];
	if (!l->len || memcmp(&l->r, r, sizeof(*r)))
		return NULL;
	if (l->interval_ns != e->iv->interval_ns)
		for (i = 0; i < e->o->ncols; i++) {
			const struct ptop_col *c = &ptop_cols[e->o->cols[i]];

			if ((c->type == PTOP_CT_PCT || c->type == PTOP_CT_RATE) &&
			    !ptop_col_missing(c, r) && ptop_col_value(c, r))
				return NULL;
		}
	*len = l->len;
	return l->line;
}

void ui_emit_line_keep(struct ui_emit *e, const struct ptop_row *r,
		       const char *line, size_t n)
{
	struct ui_lines *tc = e->lines;
	struct ui_line *l;

	if (!tc) {
		tc = calloc(1, sizeof(*tc));
		if (!tc)
			return;
		e->lines = tc;
	}
	if (e->nrows >= tc->cap) {
		size_t ncap = tc->cap ? tc->cap * 2 : 1024;
		struct ui_line *nl;

		while (ncap <= e->nrows)
			ncap *= 2;
		nl = realloc(tc->l, ncap * sizeof(*nl));
		if (!nl)
			return;
		memset(nl + tc->cap, 0, (ncap - tc->cap) * sizeof(*nl));
		tc->l = nl;
		tc->cap = ncap;
	}
	l = &tc->l[e->nrows];
	l->len = 0;
	if (!line || !n)
		return;
	if (n > l->cap) {
		char *nb = realloc(l->line, n);

		if (!nb)
			return;
		l->line = nb;
		l->cap = n;
	}
	memcpy(&l->r, r, sizeof(*r));
	l->interval_ns = e->iv->interval_ns;
	memcpy(l->line, line, n);
	l->len = n;
}

static void lines_free(struct ui_emit *e)
{
	struct ui_lines *tc = e->lines;
	size_t i;

	if (!tc)
		return;
	for (i = 0; i < tc->cap; i++)
		free(tc->l[i].line);
	free(tc->l);
	free(tc);
	e->lines = NULL;
}
