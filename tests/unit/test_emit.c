// SPDX-License-Identifier: GPL-2.0
/*
 * The batch emitter: strings always valid UTF-8 in every quoting, the
 * encoder table, and one interval through each encoder (begin, interval,
 * row, sum, end) with the -p/--top/sum rules.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/view.h"
#include "ui/emit.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char *quoted(const char *s, enum ui_quote q)
{
	static char buf[256];
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	assert_non_null(f);
	ui_emit_str(f, s, q);
	fclose(f);
	snprintf(buf, sizeof(buf), "%s", mem);
	free(mem);
	return buf;
}

static void test_valid_utf8_kept(void **state)
{
	(void)state;
	/* 2, 3 and 4 byte sequences, the largest code point */
	assert_string_equal(quoted("ä€😀\xf4\x8f\xbf\xbf", UI_Q_JSON),
			    "\"ä€😀\xf4\x8f\xbf\xbf\"");
	assert_string_equal(quoted("plain", UI_Q_CSV), "\"plain\"");
}

static void test_invalid_bytes_escaped(void **state)
{
	(void)state;
	/* a lone continuation, Latin-1, a cut sequence at the end */
	assert_string_equal(quoted("a\x80" "b\xe9" "c\xe2\x82", UI_Q_JSON),
			    "\"a\\\\x80b\\\\xe9c\\\\xe2\\\\x82\"");
	assert_string_equal(quoted("a\x80", UI_Q_CSV), "\"a\\x80\"");
	assert_string_equal(quoted("a\x80", UI_Q_LABEL), "\"a\\\\x80\"");
	/* overlong forms, a surrogate, past U+10FFFF, 0xc0/0xf5 leads */
	assert_string_equal(quoted("\xc0\xaf", UI_Q_CSV), "\"\\xc0\\xaf\"");
	assert_string_equal(quoted("\xe0\x80\xaf", UI_Q_CSV),
			    "\"\\xe0\\x80\\xaf\"");
	assert_string_equal(quoted("\xed\xa0\x80", UI_Q_CSV),
			    "\"\\xed\\xa0\\x80\"");
	assert_string_equal(quoted("\xf4\x90\x80\x80", UI_Q_CSV),
			    "\"\\xf4\\x90\\x80\\x80\"");
	assert_string_equal(quoted("\xf5", UI_Q_CSV), "\"\\xf5\"");
}

static void test_quotes_and_controls(void **state)
{
	(void)state;
	assert_string_equal(quoted("q\"b\\\x01\n", UI_Q_JSON),
			    "\"q\\\"b\\\\\\u0001\\u000a\"");
	assert_string_equal(quoted("q\"b\\\x01\n", UI_Q_CSV),
			    "\"q\"\"b\\\\x01\\x0a\"");
	assert_string_equal(quoted("q\"b\\\x01\n", UI_Q_LABEL),
			    "\"q\\\"b\\\\\\\\x01\\n\"");
}

static void test_format_table(void **state)
{
	const struct ui_encoder *const *l = ui_format_list();

	(void)state;
	assert_string_equal(l[0]->name, "text");
	assert_non_null(ui_format_find("csv"));
	assert_non_null(ui_format_find("json"));
	assert_non_null(ui_format_find("openmetrics"));
	assert_null(ui_format_find("xml"));
	assert_null(ui_format_find(""));
	assert_string_equal(ui_format_names("|"), "text|csv|json|openmetrics");
	for (; *l; l++) {
		assert_non_null((*l)->interval);
		assert_non_null((*l)->row);
		assert_non_null((*l)->sum);
		assert_non_null((*l)->help);
	}
}

/* an interval of 1 s on 1 CPU with three processes and the sum */
static struct ptop_interval *three_rows(void)
{
	static struct ptop_row rows[3];
	static struct ptop_interval iv;
	int i;

	memset(rows, 0, sizeof(rows));
	memset(&iv, 0, sizeof(iv));
	for (i = 0; i < 3; i++) {
		rows[i].pid = rows[i].tgid = 100 + i;
		rows[i].user = (i + 1) * 100000000ULL;	/* 0.1, 0.2, 0.3 s */
		rows[i].total = rows[i].user;
		rows[i].has = ~PTOP_DATA_STEAL;	/* all but steal */
		snprintf(rows[i].comm, sizeof(rows[i].comm), "p%d", i);
	}
	iv.rows = rows;
	iv.nrows = 3;
	iv.interval_ns = 1000000000ULL;
	iv.time_ns = 5000000000ULL;
	iv.ncpu = 1;
	iv.idle_ns = 400000000ULL;
	iv.sum.user = iv.sum.total = 600000000ULL;
	iv.sum.has = ~PTOP_DATA_STEAL;
	iv.verdict.exact = true;
	return &iv;
}

static char *emit_cols(const char *format, size_t top, const int *cols,
		       size_t ncols, const struct ptop_interval *iv)
{
	struct ui_view_opts o = {
		.format = ui_format_find(format), .cols = cols, .ncols = ncols,
		.sort_id = PTOP_COL_TOTAL, .source = "fake", .top = top,
	};
	struct ui_emit e;
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	assert_non_null(f);
	ui_emit_init(&e, f, o.format, &o);
	assert_int_equal(ui_emit_interval(&e, iv), 0);
	assert_int_equal(ui_emit_end(&e), 0);
	fclose(f);
	return mem;
}

static char *emit_one(const char *format, size_t top)
{
	static const int cols[] = { PTOP_COL_PID, PTOP_COL_UTIME,
				    PTOP_COL_STEAL, PTOP_COL_COMMAND };

	return emit_cols(format, top, cols, 4, three_rows());
}

static void test_json_rows_and_sum(void **state)
{
	char *s = emit_one("json", 2);

	(void)state;
	/* sorted by total, --top 2, the sum over all three; ste null */
	assert_non_null(strstr(s, "\"rows\":[{\"kind\":\"process\",\"PID\":102,"
				  "\"user_pct\":30.0000,\"ste_pct\":null,"
				  "\"COMMAND\":\"p2\"},{\"kind\":\"process\",\"PID\":101,"));
	assert_null(strstr(s, "\"PID\":100"));
	assert_non_null(strstr(s, "\"sum\":{\"kind\":\"sum\",\"PID\":null,"
				  "\"user_pct\":60.0000,\"ste_pct\":null,"
				  "\"COMMAND\":null}}\n"));
	assert_non_null(strstr(s, "{\"schema\":1,"));
	assert_non_null(strstr(s, ",\"exact\":true,\"inexact\":[],"
				  "\"within\":null,"));
	assert_non_null(strstr(s, ",\"source\":\"fake\",\"scope\":\"machine\","));
	free(s);
}

/* One meaning of exact: a wider bound is "within" its reason; a pid ns */
static void test_json_within_and_scope(void **state)
{
	static const int cols[] = { PTOP_COL_PID };
	struct ptop_interval *iv = three_rows();
	char *s;

	(void)state;
	iv->verdict.exact = false;
	iv->verdict.within = true;
	iv->res_what = "procfs ticks";
	s = emit_cols("json", 0, cols, 1, iv);
	assert_non_null(strstr(s, ",\"exact\":false,\"inexact\":[],"
				  "\"within\":\"procfs ticks at 1.0 s\","));
	free(s);
	s = emit_cols("openmetrics", 0, cols, 1, iv);
	assert_non_null(strstr(s, "\nptop_exact 0\n"));
	assert_non_null(strstr(s, "\nptop_within 1\n"));
	assert_non_null(strstr(s, "\nptop_pid_namespace_only 0\n"));
	free(s);
	iv->verdict.within = false;
	iv->verdict.pidns = true;
	s = emit_cols("csv", 0, cols, 1, iv);
	assert_non_null(strstr(s, ",\"fake\",\"pid_namespace\",false,,,"));
	free(s);
}

static void test_csv_header_once_sum_row(void **state)
{
	char *s = emit_one("csv", 0), *l2;

	(void)state;
	assert_true(!strncmp(s, "schema,time_epoch_s,", 20));
	l2 = strchr(s, '\n') + 1;
	assert_non_null(strstr(s, ",kind,PID,user_pct,ste_pct,COMMAND\n"));
	assert_null(strstr(l2, "schema"));
	assert_non_null(strstr(l2, ",\"process\",102,30.0000,,\"p2\"\n"));
	assert_non_null(strstr(l2, ",\"sum\",,60.0000,,\n"));
	free(s);
}

static void test_openmetrics_top_other(void **state)
{
	char *s = emit_one("openmetrics", 1);
	size_t n = strlen(s);

	(void)state;
	assert_non_null(strstr(s, "ptop_process_cpu_seconds{pid=\"102\",comm=\"p2\","));
	assert_null(strstr(s, "pid=\"101\""));
	/* p0 + p1 in other; steal is unmeasured: no steal series at all */
	assert_non_null(strstr(s, "ptop_process_cpu_seconds{comm=\"other\",mode=\"user\"} 0.300000000\n"));
	assert_null(strstr(s, "mode=\"steal\""));
	assert_non_null(strstr(s, "ptop_other_processes 2\n"));
	assert_non_null(strstr(s, "ptop_accounted_ratio 1.000000000\n"));
	assert_true(n > 6 && !strcmp(s + n - 6, "# EOF\n"));
	free(s);
}

/*
 * The folded columns (own = user+sys+ste, c*, x*) are the sum of their
 * parts in every format, with an unmeasured part (ste) as 0: the machine
 * formats once gave only the first part (own = user).
 */
static void test_folded_columns_sum_parts(void **state)
{
	static const int cols[] = { PTOP_COL_PID, PTOP_COL_OWN,
				    PTOP_COL_CSUM, PTOP_COL_XSUM };
	struct ptop_interval *iv = three_rows();
	char *s;

	(void)state;
	iv->nrows = 1;
	iv->rows[0].sys = 200000000ULL;		/* 0.1 s user + 0.2 s sys */
	iv->rows[0].cuser = 10000000ULL;	/* c*: 0.01 + 0.02 s */
	iv->rows[0].csys = 20000000ULL;
	iv->rows[0].xsys = 40000000ULL;		/* x*: 0.04 s */
	iv->rows[0].total = 370000000ULL;
	s = emit_cols("json", 0, cols, 4, iv);
	assert_non_null(strstr(s, "\"PID\":100,\"own_pct\":30.0000,"
				  "\"cdead_pct\":3.0000,\"xdead_pct\":4.0000}"));
	free(s);
	s = emit_cols("csv", 0, cols, 4, iv);
	assert_non_null(strstr(s, ",\"process\",100,30.0000,3.0000,4.0000\n"));
	free(s);
	s = emit_cols("text", 0, cols, 4, iv);
	assert_non_null(strstr(s, "    100   30.00    3.00    4.00\n"));
	free(s);
}

static void test_text_sum_row(void **state)
{
	char *s = emit_one("text", 0);

	(void)state;
	assert_non_null(strstr(s, "    sum   60.00       - \n"));
	assert_non_null(strstr(s, "    102   30.00       - p2\n"));
	free(s);
}

/* the text encoder's row as it was: fprintf per cell (main before one line per fwrite) */
static void ref_cell(FILE *out, const struct ptop_col *c, const char *s,
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

static void ref_row(FILE *out, const struct ui_view_opts *o,
		    const struct ptop_interval *iv, const struct ui_vrow *vr,
		    const struct ptop_row *r)
{
	char cell[64], pre[160], tree[sizeof(cell) + sizeof(pre)];
	const char *shown;
	int i;

	for (i = 0; i < o->ncols; i++) {
		const struct ptop_col *c = &ptop_cols[o->cols[i]];

		if (!vr && i == 0)
			snprintf(cell, sizeof(cell), "sum");
		else if (!vr && !c->sum)
			cell[0] = '\0';
		else
			ptop_col_format(c, r, iv, cell, sizeof(cell));
		shown = cell;
		if (o->tree && vr && o->cols[i] == PTOP_COL_COMMAND) {
			ui_tree_prefix(vr, false, pre, sizeof(pre));
			snprintf(tree, sizeof(tree), "%s%s", pre, cell);
			shown = tree;
		}
		ref_cell(out, c, shown, i == o->ncols - 1);
	}
	fputc('\n', out);
}

/*
 * --format=text writes the bytes it wrote with a printf per cell: 300
 * random processes in a tree (every column, COMMAND in the middle, long
 * names, figures of every size), flat and --tree, 12 intervals on one
 * emitter (the lines it keeps from one to the next); rows and the sum
 * row compared with the reference above.
 */
static void test_text_rows_like_printf(void **state)
{
	static struct ptop_row rows[300];
	struct ptop_interval iv;
	int cols[PTOP_COL__COUNT], ncols, tree, i;
	char bad[64];
	size_t k;

	(void)state;
	srandom(7);
	memset(&iv, 0, sizeof(iv));
	for (k = 0; k < ARRAY_SIZE(rows); k++) {
		struct ptop_row *r = &rows[k];

		memset(r, 0, sizeof(*r));
		r->pid = r->tgid = 100 + (uint32_t)k;
		r->ppid = k ? 100 + (uint32_t)(random() % k) : 1;
		r->uid = 3000000000U + (uint32_t)(random() % 5);
		r->state = "RSDI"[k % 4];
		r->nthreads = 1 + random() % 40;
		r->has = k % 9 ? ~0U : ~PTOP_DATA_STEAL;
		r->user = (uint64_t)random() * (random() % 3 ? 1 : 1000);
		r->sys = (uint64_t)random() % 1000000;
		r->cuser = k % 5 ? 0 : (uint64_t)random();
		r->xsys = k % 7 ? 0 : (uint64_t)random();
		r->total = r->user + r->sys + r->cuser + r->xsys;
		r->time_ns = (uint64_t)random() * (random() % 5000);
		r->nvcsw = random() % 100000;
		r->minflt = random() % 10;
		r->rss_kb = random();
		snprintf(r->comm, sizeof(r->comm), "%.*s", (int)(k % 16),
			 "kworker/u16:3-events");
		iv.sum.user += r->user;
		iv.sum.total += r->total;
	}
	iv.rows = rows;
	iv.nrows = ARRAY_SIZE(rows);
	iv.interval_ns = 1000000007ULL;
	iv.time_ns = 5000000000ULL;
	iv.ncpu = 8;
	iv.sum.has = ~0U;
	ncols = ptop_col_parse_list("PID,TGID,PPID,USER,STATE,THREADS,user,sys,ste,cuser,csys,cste,xuser,xsys,xste,COMMAND,total,TIME,RDELAY,nvcsw,nivcsw,minflt,majflt,RSS,own,cdead,xdead",
				    cols, PTOP_COL__COUNT, bad, sizeof(bad));
	assert_true(ncols > 20);
	for (tree = 0; tree < 2; tree++) {
		struct ui_view_opts o = {
			.cols = cols, .ncols = ncols, .sort_id = PTOP_COL_TOTAL,
			.source = "fake", .tree = tree,
		};
		char *got = NULL, *want = NULL, *p;
		size_t glen = 0, wlen = 0, at = 0;
		FILE *g = open_memstream(&got, &glen);
		struct ui_emit e;
		int round;

		assert_non_null(g);
		ui_emit_init(&e, g, NULL, &o);
		/*
		 * Intervals one after another on one emitter (the text
		 * encoder keeps the last one's lines): rows that go quiet
		 * (every figure 0), that change, that stay, intervals of the
		 * same and of another length.
		 */
		for (round = 0; round < 12; round++) {
			FILE *w = open_memstream(&want, &wlen);

			assert_non_null(w);
			if (round) {
				iv.interval_ns = round % 3 ? 1000000007ULL + round :
						 iv.interval_ns;
				for (k = 0; k < ARRAY_SIZE(rows); k++) {
					struct ptop_row *r = &rows[k];

					if (random() % 4)
						continue;
					if (random() % 2) {
						r->user = r->sys = r->cuser = 0;
						r->xsys = r->total = 0;
						r->nvcsw = r->minflt = 0;
					} else {
						r->user = (uint64_t)random() % 100000000;
						r->total = r->user + r->sys + r->cuser +
							   r->xsys;
						r->nvcsw = random() % 3;
					}
					r->time_ns += random() % 2 ? 0 : 10000000;
				}
			}
			assert_int_equal(ui_emit_interval(&e, &iv), 0);
			assert_int_equal(e.view.nrows, ARRAY_SIZE(rows));
			for (i = 0; i < (int)e.view.nrows; i++)
				ref_row(w, &o, &iv, &e.view.rows[i],
					&e.view.rows[i].r);
			ref_row(w, &o, &iv, NULL, &iv.sum);
			fputc('\n', w);
			fclose(w);
			fflush(g);
			/* the rows follow the headline, the system line, the header */
			p = got + at;
			for (i = 0; i < 3; i++)
				p = strchr(p, '\n') + 1;
			if (tree)
				assert_non_null(strstr(want, "|- "));
			assert_memory_equal(p, want, wlen);
			assert_int_equal(got + glen - p, wlen);
			at = glen;
			free(want);
		}
		assert_int_equal(ui_emit_end(&e), 0);
		fclose(g);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_utf8_kept),
		cmocka_unit_test(test_invalid_bytes_escaped),
		cmocka_unit_test(test_quotes_and_controls),
		cmocka_unit_test(test_format_table),
		cmocka_unit_test(test_json_rows_and_sum),
		cmocka_unit_test(test_json_within_and_scope),
		cmocka_unit_test(test_csv_header_once_sum_row),
		cmocka_unit_test(test_openmetrics_top_other),
		cmocka_unit_test(test_text_sum_row),
		cmocka_unit_test(test_text_rows_like_printf),
		cmocka_unit_test(test_folded_columns_sum_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
