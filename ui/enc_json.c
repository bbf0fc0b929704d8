// SPDX-License-Identifier: GPL-2.0
/*
 * --format=json: JSON Lines, one object per interval: the interval's
 * fields (schema first), "rows" (an object per row: kind, depth with
 * --tree, the columns with their units in the names) and "sum". The same
 * fields as CSV; null where the source cannot measure. Always valid UTF-8.
 */
#include "emit.h"

static void json_object(struct ui_emit *e, const struct ptop_row *r,
			bool is_sum)
{
	struct ui_field f;
	size_t i;

	fputc('{', e->out);
	for (i = 0; ui_emit_row_field(e, r, is_sum, i, &f); i++) {
		fprintf(e->out, "%s\"%s\":", i ? "," : "", f.name);
		ui_emit_value(e->out, &f, UI_Q_JSON);
	}
	fputc('}', e->out);
}

static void json_interval(struct ui_emit *e)
{
	struct ui_field f;
	size_t i;

	fputc('{', e->out);
	for (i = 0; ui_emit_iv_field(e, i, &f); i++) {
		fprintf(e->out, "%s\"%s\":", i ? "," : "", f.name);
		ui_emit_value(e->out, &f, UI_Q_JSON);
	}
	fputs(",\"rows\":[", e->out);
}

static void json_row(struct ui_emit *e, const struct ptop_row *r)
{
	if (e->nrows)
		fputc(',', e->out);
	json_object(e, r, false);
}

static void json_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	fputs("],\"sum\":", e->out);
	json_object(e, sum, true);
	fputs("}\n", e->out);
}

const struct ui_encoder ui_enc_json = {
	.name = "json",
	.help = "JSON Lines: an object per interval with rows and sum (the same fields as csv)",
	.order = 20,
	.interval = json_interval,
	.row = json_row,
	.sum = json_sum,
};
