// SPDX-License-Identifier: GPL-2.0
/* Batch writer: headline, system line, column header, rows, V:V:S sum. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "tree.h"

/* as deep as the curses view indents; deeper rows stay at this depth */
#define TREE_MAX_INDENT 32

static bool pid_wanted(const struct ui_view_opts *o, const struct ptop_row *r)
{
	size_t i;

	if (!o->npids)
		return true;
	for (i = 0; i < o->npids; i++)
		if (o->pids[i] == r->pid || o->pids[i] == r->tgid)
			return true;
	return false;
}

size_t ui_view_select(const struct ui_view_opts *o, struct ptop_interval *iv)
{
	size_t i, k = 0;

	for (i = 0; i < iv->nrows; i++)
		if (pid_wanted(o, &iv->rows[i]))
			iv->rows[k++] = iv->rows[i];
	iv->nrows = k;
	ptop_col_sort(iv->rows, iv->nrows, o->sort_id, o->sort_asc);
	return k;
}

time_t ui_wall_time(uint64_t mono_ns)
{
	struct timespec rt, mono;
	int64_t wall_ns;

	/* in ns, then seconds: stable from one call to the next */
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	wall_ns = (int64_t)rt.tv_sec * 1000000000LL + rt.tv_nsec -
		  ((int64_t)mono.tv_sec * 1000000000LL + mono.tv_nsec -
		   (int64_t)mono_ns);
	return (time_t)(wall_ns / 1000000000LL);
}

void ui_headline(const struct ptop_interval *iv, const char *source,
		 char *buf, size_t len)
{
	char when[32], verdict[256];
	time_t at = ui_wall_time(iv->time_ns);
	struct tm tm;

	localtime_r(&at, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	ptop_verdict_str(iv, verdict, sizeof(verdict));
	snprintf(buf, len,
		 "ptop %s  interval %.3fs  ncpu %u  source %s  accounted %.2f%% of %.2f%%  %s",
		 when, iv->interval_ns / 1e9, iv->ncpu, source,
		 ptop_interval_pct(iv, ptop_interval_accounted_ns(iv)),
		 ptop_interval_pct(iv, ptop_interval_capacity_ns(iv)), verdict);
}

void ui_sysline(const struct ptop_interval *iv, char *buf, size_t len)
{
	char steal[16], irq[16];

	/* a system part the kernel already charged to tasks is not added */
	if (iv->sys_apart & PTOP_SYS_STEAL_APART)
		snprintf(steal, sizeof(steal), "%.2f%%",
			 ptop_interval_pct(iv, iv->steal_ns));
	else
		snprintf(steal, sizeof(steal), "in-tasks");
	if (iv->sys_apart & PTOP_SYS_IRQ_APART)
		snprintf(irq, sizeof(irq), "%.2f%%",
			 ptop_interval_pct(iv, iv->irq_ns));
	else
		snprintf(irq, sizeof(irq), "in-tasks");
	snprintf(buf, len,
		 "idle %.2f%%  iowait %.2f%%  steal %s  irq %s  exited %zu  clamped %.2f%%  unfolded %.2f%%  snapshot %.1f ms",
		 ptop_interval_pct(iv, iv->idle_ns),
		 ptop_interval_pct(iv, iv->iowait_ns), steal, irq, iv->nexited,
		 ptop_interval_pct(iv, iv->clamped_ns),
		 ptop_interval_pct(iv, iv->unfolded_ns),
		 iv->verdict.window_ns / 1e6);
}

static void print_cell(FILE *out, const struct ptop_col *c, const char *s,
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

static void print_row(FILE *out, const struct ui_view_opts *o,
		      const struct ptop_row *r, const struct ptop_interval *iv,
		      bool is_sum)
{
	char cell[64], tree[64 + 2 * TREE_MAX_INDENT + 4];
	const char *shown;
	int i, d;

	for (i = 0; i < o->ncols; i++) {
		const struct ptop_col *c = &ptop_cols[o->cols[i]];

		if (is_sum && i == 0)
			snprintf(cell, sizeof(cell), "V:V:S");
		else if (is_sum && !c->sum)
			cell[0] = '\0';
		else
			ptop_col_format(c, r, iv, cell, sizeof(cell));
		shown = cell;
		if (o->tree && !is_sum && o->cols[i] == PTOP_COL_COMMAND &&
		    r->depth) {
			d = r->depth < TREE_MAX_INDENT ? r->depth : TREE_MAX_INDENT;
			snprintf(tree, sizeof(tree), "%*s`- %s", 2 * (d - 1), "",
				 cell);
			shown = tree;
		}
		print_cell(out, c, shown, i == o->ncols - 1);
	}
	fputc('\n', out);
}

int ui_format_parse(const char *name)
{
	static const char *const names[] = { "text", "csv", "json" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

static void print_text(FILE *out, const struct ui_view_opts *o,
		       struct ptop_interval *iv)
{
	char line[512];
	size_t i;
	int k;

	ui_headline(iv, o->source, line, sizeof(line));
	fprintf(out, "%s\n", line);
	ui_sysline(iv, line, sizeof(line));
	fprintf(out, "%s\n", line);
	for (k = 0; k < o->ncols; k++)
		print_cell(out, &ptop_cols[o->cols[k]], ptop_cols[o->cols[k]].title,
			   k == o->ncols - 1);
	fputc('\n', out);
	for (i = 0; i < iv->nrows; i++)
		print_row(out, o, &iv->rows[i], iv, false);
	/* the sum is over every task, also those -p did not show */
	print_row(out, o, &iv->sum, iv, true);
	fputc('\n', out);
}

/* a cell as a CSV field or JSON value: numbers bare, "-" empty / null */
static void put_value(FILE *out, const struct ptop_col *c, const char *cell,
		      bool json)
{
	const char *s;
	bool text = c->type == PTOP_CT_STR || c->type == PTOP_CT_UID ||
		    c->type == PTOP_CT_CHAR || c->type == PTOP_CT_CUMTIME;

	if (!strcmp(cell, "-") && !text) {
		fputs(json ? "null" : "", out);
		return;
	}
	if (!text) {
		fputs(cell, out);
		return;
	}
	fputc('"', out);
	for (s = cell; *s; s++) {
		if (*s == '"')
			fputs(json ? "\\\"" : "\"\"", out);
		else if (json && *s == '\\')
			fputs("\\\\", out);
		else if (json && (unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

static void print_csv(FILE *out, const struct ui_view_opts *o,
		      struct ptop_interval *iv, bool header)
{
	char cell[64], why[256];
	size_t i;
	int k;

	why[0] = '\0';
	if (!iv->verdict.exact)
		ptop_verdict_str(iv, why, sizeof(why));
	if (header) {
		fputs("time_s,interval_s,source,accounted_pct,capacity_pct,exact,inexact", out);
		for (k = 0; k < o->ncols; k++)
			fprintf(out, ",%s", ptop_cols[o->cols[k]].name);
		fputc('\n', out);
	}
	for (i = 0; i <= iv->nrows; i++) {
		const struct ptop_row *r = i < iv->nrows ? &iv->rows[i] : &iv->sum;

		fprintf(out, "%.3f,%.6f,%s,%.2f,%.2f,%d", iv->time_ns / 1e9,
			iv->interval_ns / 1e9, o->source,
			ptop_interval_pct(iv, ptop_interval_accounted_ns(iv)),
			ptop_interval_pct(iv, ptop_interval_capacity_ns(iv)),
			iv->verdict.exact);
		/* the reasons, without the "inexact: " */
		fputc(',', out);
		put_value(out, &ptop_cols[PTOP_COL_COMMAND],
			  why[0] ? why + strlen("inexact: ") : "", false);
		for (k = 0; k < o->ncols; k++) {
			const struct ptop_col *c = &ptop_cols[o->cols[k]];

			if (i == iv->nrows && k == 0)
				snprintf(cell, sizeof(cell), "V:V:S");
			else if (i == iv->nrows && !c->sum)
				snprintf(cell, sizeof(cell), "-");
			else
				ptop_col_format(c, r, iv, cell, sizeof(cell));
			fputc(',', out);
			put_value(out, i == iv->nrows && k == 0 ? &ptop_cols[PTOP_COL_COMMAND] : c,
				  cell, false);
		}
		fputc('\n', out);
	}
}

static void json_row(FILE *out, const struct ui_view_opts *o,
		     const struct ptop_row *r, const struct ptop_interval *iv,
		     bool is_sum)
{
	char cell[64];
	int k, n = 0;

	fputc('{', out);
	for (k = 0; k < o->ncols; k++) {
		const struct ptop_col *c = &ptop_cols[o->cols[k]];

		if (is_sum && !c->sum)
			continue;
		ptop_col_format(c, r, iv, cell, sizeof(cell));
		fprintf(out, "%s\"%s\":", n++ ? "," : "", c->name);
		put_value(out, c, cell, true);
	}
	fputc('}', out);
}

/* the verdict's numbers and its reasons, one string each */
static void json_verdict(FILE *out, const struct ptop_interval *iv)
{
	const struct ptop_verdict *v = &iv->verdict;
	const struct ptop_col *text = &ptop_cols[PTOP_COL_COMMAND];
	char one[64];
	unsigned int i;
	int n = 0;

	fprintf(out,
		"\"off_pct\":%.2f,\"tolerance_pct\":%.2f,\"snapshot_ms\":%.3f,"
		"\"skew_pct\":%.2f,\"lost\":%u,\"inexact\":[",
		iv->interval_ns ? (double)v->off_ns * 100.0 / iv->interval_ns : 0.0,
		ptop_interval_pct(iv, v->tol_ns), v->window_ns / 1e6,
		ptop_interval_pct(iv, v->skew_ns), v->nlost);
	for (i = 0; i < PTOP_WHY__COUNT; i++) {
		if (!(v->why & (1U << i)))
			continue;
		ptop_verdict_reason(iv, 1U << i, one, sizeof(one));
		if (n++)
			fputc(',', out);
		put_value(out, text, one, true);
	}
	fputc(']', out);
}

static void print_json(FILE *out, const struct ui_view_opts *o,
		       struct ptop_interval *iv)
{
	size_t i;

	fprintf(out,
		"{\"time_s\":%.3f,\"interval_s\":%.6f,\"ncpu\":%u,\"source\":\"%s\","
		"\"accounted_pct\":%.2f,\"capacity_pct\":%.2f,\"exact\":%s,"
		"\"idle_pct\":%.2f,\"iowait_pct\":%.2f,\"steal_pct\":%.2f,"
		"\"irq_pct\":%.2f,\"exited\":%zu,\"clamped_pct\":%.2f,",
		iv->time_ns / 1e9, iv->interval_ns / 1e9, iv->ncpu, o->source,
		ptop_interval_pct(iv, ptop_interval_accounted_ns(iv)),
		ptop_interval_pct(iv, ptop_interval_capacity_ns(iv)),
		iv->flags & PTOP_IV_INEXACT ? "false" : "true",
		ptop_interval_pct(iv, iv->idle_ns),
		ptop_interval_pct(iv, iv->iowait_ns),
		ptop_interval_pct(iv, iv->steal_ns),
		ptop_interval_pct(iv, iv->irq_ns), iv->nexited,
		ptop_interval_pct(iv, iv->clamped_ns));
	json_verdict(out, iv);
	fputs(",\"rows\":[", out);
	for (i = 0; i < iv->nrows; i++) {
		if (i)
			fputc(',', out);
		json_row(out, o, &iv->rows[i], iv, false);
	}
	fputs("],\"sum\":", out);
	json_row(out, o, &iv->sum, iv, true);
	fputs("}\n", out);
}

int ui_batch_print(FILE *out, const struct ui_view_opts *o,
		   struct ptop_interval *iv, bool first)
{
	ui_view_select(o, iv);
	/* out of memory: the rows stay sorted, flat (depth 0) */
	if (o->tree)
		ui_tree_order(iv->rows, iv->nrows, o->sort_id, o->sort_asc);
	switch (o->format) {
	case UI_FMT_CSV:
		print_csv(out, o, iv, first);
		break;
	case UI_FMT_JSON:
		print_json(out, o, iv);
		break;
	default:
		print_text(out, o, iv);
		break;
	}
	if (fflush(out) || ferror(out))
		return -(errno ? errno : EIO);
	return 0;
}
