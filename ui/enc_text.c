// SPDX-License-Identifier: GPL-2.0
/*
 * --format=text, for people: per interval the headline, the system line,
 * the column header, aligned rows (with --tree, COMMAND after the tree's
 * lines in ASCII, as the curses view draws them) and the
 * V:V:S sum row, then a blank line.
 */
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "emit.h"

static void put_cell(FILE *out, const struct ptop_col *c, const char *s,
		     bool last)
{
	if (c->left && last)
		fputs(s, out);
	else if (c->left)
		fprintf(out, "%-*s", c->width, s);
	else
		fprintf(out, "%*s", c->width, s);
	if (!last)
		fputc(' ', out);
}

/*
 * The last interval's lines, by place in the view (flat batch output
 * only): a row whose bytes are those it had there and whose cells do not
 * depend on the interval's length (the same length, or every figure
 * that is divided by it 0: "0.00", "0") has the line it had, written
 * again without formatting a cell. 10,000 sleepers in pid order keep
 * their places and their lines.
 */
#define TEXT_LINE_MAX 256

struct text_line {
	struct ptop_row r;
	uint64_t interval_ns;
	size_t len;		/* 0: none */
	char line[TEXT_LINE_MAX];
};

struct text_cache {
	struct text_line *l;
	size_t cap;
};

/* the line of place i of the last interval, if it is r's now; else NULL */
static const struct text_line *cached(struct ui_emit *e,
				      const struct ptop_row *r)
{
	const struct text_cache *tc = e->priv;
	const struct text_line *l;
	int i;

	if (!tc || e->nrows >= tc->cap)
		return NULL;
	l = &tc->l[e->nrows];
	if (!l->len || memcmp(&l->r, r, sizeof(*r)))
		return NULL;
	if (l->interval_ns == e->iv->interval_ns)
		return l;
	for (i = 0; i < e->o->ncols; i++) {
		const struct ptop_col *c = &ptop_cols[e->o->cols[i]];

		if ((c->type == PTOP_CT_PCT || c->type == PTOP_CT_RATE) &&
		    !ptop_col_missing(c, r) && ptop_col_value(c, r))
			return NULL;
	}
	return l;
}

/* keep line (n bytes) as place i's, for the next interval */
static void keep(struct ui_emit *e, const struct ptop_row *r,
		 const char *line, size_t n)
{
	struct text_cache *tc = e->priv;
	struct text_line *l;

	if (!tc) {
		tc = calloc(1, sizeof(*tc));
		if (!tc)
			return;
		e->priv = tc;
	}
	if (e->nrows >= tc->cap) {
		size_t ncap = tc->cap ? tc->cap * 2 : 1024;
		struct text_line *nl;

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
	if (n > sizeof(l->line)) {
		l->len = 0;
		return;
	}
	memcpy(&l->r, r, sizeof(*r));
	l->interval_ns = e->iv->interval_ns;
	memcpy(l->line, line, n);
	l->len = n;
}

/*
 * A row: its line built in one buffer, written with one fwrite(); the
 * same bytes as put_cell() per cell (fprintf "%-*s", "%*s"), without a
 * printf per cell (batch writes every row of every refresh).
 */
static void put_row(struct ui_emit *e, const struct ptop_row *r, bool is_sum)
{
	const struct ui_view_opts *o = e->o;
	char cell[64], pre[160], line[2048];
	size_t n = 0, nc, np, pad, w;
	bool flushed = false, memo = !is_sum && !o->tree;
	const struct text_line *l = memo ? cached(e, r) : NULL;
	int i;

	if (l) {
		fwrite(l->line, 1, l->len, e->out);
		return;
	}
	for (i = 0; i < o->ncols; i++) {
		const struct ptop_col *c = &ptop_cols[o->cols[i]];
		bool last = i == o->ncols - 1;

		if (is_sum && i == 0)
			nc = (size_t)snprintf(cell, sizeof(cell), "V:V:S");
		else if (is_sum && !c->sum)
			cell[0] = '\0', nc = 0;
		else
			nc = ptop_col_format(c, r, e->iv, cell, sizeof(cell));
		np = 0;
		if (o->tree && !is_sum && o->cols[i] == PTOP_COL_COMMAND &&
		    e->cur) {
			/* the view's lines, in ASCII: a script may read them */
			ui_tree_prefix(e->cur, false, pre, sizeof(pre));
			np = strlen(pre);
		}
		w = c->width > 0 ? (size_t)c->width : 0;
		pad = np + nc < w ? w - np - nc : 0;
		if (c->left && last)
			pad = 0;
		/* a cell is < sizeof(pre) + sizeof(cell) + its width + 1 */
		if (n + pad + np + nc + 2 > sizeof(line)) {
			fwrite(line, 1, n, e->out);
			n = 0;
			flushed = true;
		}
		if (!c->left) {
			memset(line + n, ' ', pad);
			n += pad;
		}
		memcpy(line + n, pre, np);
		n += np;
		memcpy(line + n, cell, nc);
		n += nc;
		if (c->left) {
			memset(line + n, ' ', pad);
			n += pad;
		}
		if (!last)
			line[n++] = ' ';
	}
	line[n++] = '\n';
	fwrite(line, 1, n, e->out);
	if (memo)
		keep(e, r, line, flushed ? sizeof(line) + 1 : n);
}

static void text_interval(struct ui_emit *e)
{
	const struct ui_view_opts *o = e->o;
	char line[512];
	int k;

	ui_headline(e->iv, o->source, line, sizeof(line));
	fprintf(e->out, "%s\n", line);
	ui_sysline(e->iv, line, sizeof(line));
	fprintf(e->out, "%s\n", line);
	for (k = 0; k < o->ncols; k++)
		put_cell(e->out, &ptop_cols[o->cols[k]],
			 ptop_cols[o->cols[k]].title, k == o->ncols - 1);
	fputc('\n', e->out);
}

static void text_row(struct ui_emit *e, const struct ptop_row *r)
{
	put_row(e, r, false);
}

static void text_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	put_row(e, sum, true);
	fputc('\n', e->out);
}

static void text_end(struct ui_emit *e)
{
	struct text_cache *tc = e->priv;

	if (tc)
		free(tc->l);
	free(tc);
	e->priv = NULL;
}

const struct ui_encoder ui_enc_text = {
	.name = "text",
	.help = "a headline, a system line, aligned columns and the V:V:S sum (default)",
	.order = 0,
	.interval = text_interval,
	.row = text_row,
	.sum = text_sum,
	.end = text_end,
};
