// SPDX-License-Identifier: GPL-2.0
/*
 * --format=text, for people: per interval the headline, the summary as
 * top -b's (uptime and load, tasks, memory, swap: when the batch loop
 * read them), the system line, the column header, aligned rows (with
 * --tree, COMMAND after the tree's lines in ASCII, as the curses view
 * draws them) and the sum row, then a blank line.
 */
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "emit.h"
#include "summary.h"

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
	const char *l = memo ? ui_emit_line_get(e, r, &n) : NULL;
	int i;

	if (l) {
		fwrite(l, 1, n, e->out);
		return;
	}
	n = 0;
	for (i = 0; i < o->ncols; i++) {
		const struct ptop_col *c = &ptop_cols[o->cols[i]];
		bool last = i == o->ncols - 1;

		if (is_sum && i == 0)
			nc = (size_t)snprintf(cell, sizeof(cell), "sum");
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
	if (memo)	/* a line written in parts is not kept */
		ui_emit_line_keep(e, r, flushed ? NULL : line, n);
}

static void text_interval(struct ui_emit *e)
{
	const struct ui_view_opts *o = e->o;
	char line[512];
	int k;

	ui_headline(e->iv, o->source, line, sizeof(line));
	fprintf(e->out, "%s\n", line);
	for (k = 0; e->sys && ui_summary_line(e->iv, e->sys, k, line,
					       sizeof(line)); k++)
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

const struct ui_encoder ui_enc_text = {
	.name = "text",
	.help = "a headline, a summary as top -b's, aligned columns and the sum row (default)",
	.order = 0,
	.interval = text_interval,
	.row = text_row,
	.sum = text_sum,
};
