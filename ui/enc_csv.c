// SPDX-License-Identifier: GPL-2.0
/*
 * --format=csv (RFC 4180): one header line, then one line per row and per
 * interval: the interval's fields, kind (process, thread or sum), depth
 * (--tree), the columns. The same fields as JSON; a value the source
 * cannot measure is an empty field. The interval's fields are the same
 * on each of its lines: formatted once per interval; each line is built
 * in memory and written with one fwrite, no printf; a row that did not
 * change keeps the text of its fields (ui_emit_line_get()).
 */
#include <stdlib.h>

#include "emit.h"

/* the interval's fields as they start each of its lines */
struct csv_state {
	char *pre;
	size_t len;
};

static void csv_line(struct ui_emit *e, const struct ptop_row *r,
		     bool is_sum, bool names)
{
	struct csv_state *st = e->priv;
	/* a row's fields after the interval's: kept (not depth, tree_parent) */
	bool memo = !is_sum && !names && !e->o->tree && st && st->pre;
	const char *l;
	struct ui_field f;
	struct ui_buf b;
	size_t i, start = 0;
	int n = 0;

	ui_buf_init(&b, e->out);
	if (!names && st && st->pre) {
		ui_buf_put(&b, st->pre, st->len);
		n = 1;
		if (memo && (l = ui_emit_line_get(e, r, &i))) {
			ui_buf_put(&b, l, i);
			ui_buf_flush(&b);
			return;
		}
		start = b.n;
	} else {
		for (i = 0; ui_emit_iv_field(e, i, &f); i++) {
			if (n++)
				ui_buf_putc(&b, ',');
			if (names)
				ui_buf_puts(&b, f.name);
			else
				ui_buf_value(&b, &f, UI_Q_CSV);
		}
	}
	for (i = 0; ui_emit_row_field(e, r, is_sum, i, &f); i++) {
		ui_buf_putc(&b, ',');
		if (names)
			ui_buf_puts(&b, f.name);
		else
			ui_buf_value(&b, &f, UI_Q_CSV);
	}
	/* RFC 4180 ends records with CRLF; LF is what every reader takes */
	ui_buf_putc(&b, '\n');
	if (memo)	/* a line written in parts is not kept */
		ui_emit_line_keep(e, r, b.nflush ? NULL : b.b + start,
				  b.n - start);
	ui_buf_flush(&b);
}

/* the interval's fields, joined by ',', into st->pre (NULL: per line) */
static void csv_prefix(struct ui_emit *e, struct csv_state *st)
{
	struct ui_field f;
	struct ui_buf b;
	size_t i, len = 0;
	FILE *m;

	free(st->pre);
	st->pre = NULL;
	m = open_memstream(&st->pre, &len);
	if (!m)
		return;
	ui_buf_init(&b, m);
	for (i = 0; ui_emit_iv_field(e, i, &f); i++) {
		if (i)
			ui_buf_putc(&b, ',');
		ui_buf_value(&b, &f, UI_Q_CSV);
	}
	ui_buf_flush(&b);
	if (fclose(m)) {
		free(st->pre);
		st->pre = NULL;
		return;
	}
	st->len = len;
}

static void csv_interval(struct ui_emit *e)
{
	if (!e->nintervals)
		csv_line(e, &e->iv->sum, false, true);
	if (!e->priv)
		e->priv = calloc(1, sizeof(struct csv_state));
	if (e->priv)
		csv_prefix(e, e->priv);
}

static void csv_row(struct ui_emit *e, const struct ptop_row *r)
{
	csv_line(e, r, false, false);
}

static void csv_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	csv_line(e, sum, true, false);
}

static void csv_end(struct ui_emit *e)
{
	struct csv_state *st = e->priv;

	if (st)
		free(st->pre);
	free(st);
	e->priv = NULL;
}

const struct ui_encoder ui_enc_csv = {
	.name = "csv",
	.help = "a header line, then a line per row and interval (the same fields as json)",
	.order = 10,
	.interval = csv_interval,
	.row = csv_row,
	.sum = csv_sum,
	.end = csv_end,
};
