// SPDX-License-Identifier: GPL-2.0
/*
 * --format=csv (RFC 4180): one header line, then one line per row and per
 * interval: the interval's fields, kind (process, thread or sum), depth
 * (--tree), the columns. The same fields as JSON; a value the source
 * cannot measure is an empty field.
 */
#include "emit.h"

static void csv_fields(struct ui_emit *e, const struct ptop_row *r,
		       bool is_sum, bool names)
{
	struct ui_field f;
	size_t i;
	int n = 0;

	for (i = 0; ui_emit_iv_field(e, i, &f); i++) {
		fputs(n++ ? "," : "", e->out);
		if (names)
			fputs(f.name, e->out);
		else
			ui_emit_value(e->out, &f, UI_Q_CSV);
	}
	for (i = 0; ui_emit_row_field(e, r, is_sum, i, &f); i++) {
		fputc(',', e->out);
		if (names)
			fputs(f.name, e->out);
		else
			ui_emit_value(e->out, &f, UI_Q_CSV);
	}
	/* RFC 4180 ends records with CRLF; LF is what every reader takes */
	fputc('\n', e->out);
}

static void csv_interval(struct ui_emit *e)
{
	if (!e->nintervals)
		csv_fields(e, &e->iv->sum, false, true);
}

static void csv_row(struct ui_emit *e, const struct ptop_row *r)
{
	csv_fields(e, r, false, false);
}

static void csv_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	csv_fields(e, sum, true, false);
}

const struct ui_encoder ui_enc_csv = {
	.name = "csv",
	.help = "a header line, then a line per row and interval (the same fields as json)",
	.order = 10,
	.interval = csv_interval,
	.row = csv_row,
	.sum = csv_sum,
};
