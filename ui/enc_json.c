// SPDX-License-Identifier: GPL-2.0
/*
 * --format=json: JSON Lines, one object per interval: the interval's
 * fields (schema first), "rows" (an object per row: kind, depth with
 * --tree, the columns with their units in the names) and "sum". The same
 * fields as CSV; null where the source cannot measure. Always valid UTF-8.
 * Each row is built in memory and written with one fwrite, no printf; a
 * row that did not change keeps its text (ui_emit_line_get()).
 */
#include "emit.h"

/* "name": (field names are ASCII without quotes or backslashes) */
static void json_key(struct ui_buf *b, const char *name, bool first)
{
	if (!first)
		ui_buf_putc(b, ',');
	ui_buf_putc(b, '"');
	ui_buf_puts(b, name);
	ui_buf_put(b, "\":", 2);
}

static void json_object(struct ui_buf *b, struct ui_emit *e,
			const struct ptop_row *r, bool is_sum)
{
	struct ui_field f;
	size_t i;

	ui_buf_putc(b, '{');
	for (i = 0; ui_emit_row_field(e, r, is_sum, i, &f); i++) {
		json_key(b, f.name, !i);
		ui_buf_value(b, &f, UI_Q_JSON);
	}
	ui_buf_putc(b, '}');
}

static void json_interval(struct ui_emit *e)
{
	struct ui_field f;
	struct ui_buf b;
	size_t i;

	ui_buf_init(&b, e->out);
	ui_buf_putc(&b, '{');
	for (i = 0; ui_emit_iv_field(e, i, &f); i++) {
		json_key(&b, f.name, !i);
		ui_buf_value(&b, &f, UI_Q_JSON);
	}
	ui_buf_puts(&b, ",\"rows\":[");
	ui_buf_flush(&b);
}

static void json_row(struct ui_emit *e, const struct ptop_row *r)
{
	bool memo = !e->o->tree;	/* depth, tree_parent: not in r */
	const char *l;
	struct ui_buf b;
	size_t n;

	if (memo && (l = ui_emit_line_get(e, r, &n))) {
		fwrite(l, 1, n, e->out);
		return;
	}
	ui_buf_init(&b, e->out);
	if (e->nrows)
		ui_buf_putc(&b, ',');
	json_object(&b, e, r, false);
	if (memo)	/* a line written in parts is not kept */
		ui_emit_line_keep(e, r, b.nflush ? NULL : b.b, b.n);
	ui_buf_flush(&b);
}

static void json_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	struct ui_buf b;

	ui_buf_init(&b, e->out);
	ui_buf_puts(&b, "],\"sum\":");
	json_object(&b, e, sum, true);
	ui_buf_put(&b, "}\n", 2);
	ui_buf_flush(&b);
}

const struct ui_encoder ui_enc_json = {
	.name = "json",
	.help = "JSON Lines: an object per interval with rows and sum (the same fields as csv)",
	.order = 20,
	.interval = json_interval,
	.row = json_row,
	.sum = json_sum,
};
