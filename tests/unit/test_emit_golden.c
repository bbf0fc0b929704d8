// SPDX-License-Identifier: GPL-2.0
/*
 * --format=json, csv and openmetrics write the bytes they wrote with a
 * printf per field (main before the writers without printf, 8b885be):
 * the reference below is that code, kept as it was (ui/emit.c's quoting
 * and values, ui/enc_{json,csv,openmetrics}.c's lines). Over random
 * intervals of 200 rows (comm with quotes, backslashes, controls, DEL,
 * valid and invalid UTF-8; unknown uids; fields the source cannot fill;
 * figures of every size; ties of the rounding; every verdict reason,
 * negative off, steal and irq apart or not, exit paths or not), flat and
 * --tree, --top 0, 3 and all, 12 intervals on one emitter (in every
 * other one few rows change and the length stays: lines kept), the output of
 * each encoder is compared with the reference's, byte for byte (the wall
 * clock fixed for both). And the figures: ptop_fmt_fixed() against
 * snprintf "%.*f" for every precision the formats use.
 */
#include <math.h>
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

/* --- the reference: the printf writers as they were ---------------------- */
static size_t ref_utf8_len(const unsigned char *s)
{
	unsigned int cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void ref_str(FILE *out, const char *str, enum ui_quote q)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', out);
	while (*s) {
		n = ref_utf8_len(s);
		if (!n) {
			fprintf(out, q == UI_Q_CSV ? "\\x%02x" : "\\\\x%02x", *s);
			s++;
			continue;
		}
		if (*s == '"')
			fputs(q == UI_Q_CSV ? "\"\"" : "\\\"", out);
		else if (*s == '\\')
			fputs(q == UI_Q_CSV ? "\\" : "\\\\", out);
		else if (*s == '\n' && q == UI_Q_LABEL)
			fputs("\\n", out);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(out, q == UI_Q_JSON ? "\\u%04x" :
				     q == UI_Q_CSV ? "\\x%02x" : "\\\\x%02x", *s);
		else
			fwrite(s, 1, n, out);
		s += n;
	}
	fputc('"', out);
}

static void ref_list(FILE *out, const char *items, enum ui_quote q)
{
	char one[sizeof(((struct ui_field *)0)->str_buf)], *joined = one;
	const char *nl;
	size_t n, pos = 0;

	if (q == UI_Q_JSON)
		fputc('[', out);
	for (; (nl = strchr(items, '\n')); items = nl + 1) {
		n = nl - items;
		if (q == UI_Q_JSON) {
			snprintf(one, sizeof(one), "%.*s", (int)n, items);
			if (pos++)
				fputc(',', out);
			ref_str(out, one, q);
		} else {
			pos += snprintf(joined + pos, sizeof(one) - pos, "%s%.*s",
					pos ? "; " : "", (int)n, items);
			if (pos >= sizeof(one))
				pos = sizeof(one) - 1;
		}
	}
	if (q == UI_Q_JSON)
		fputc(']', out);
	else if (pos)
		ref_str(out, joined, q);
}

static void ref_value(FILE *out, const struct ui_field *f, enum ui_quote q)
{
	switch (f->type) {
	case UI_V_NULL:
		if (q == UI_Q_JSON)
			fputs("null", out);
		break;
	case UI_V_INT:
		fprintf(out, "%lld", f->i);
		break;
	case UI_V_NUM:
		if (isfinite(f->d))
			fprintf(out, "%.*f", f->prec, f->d);
		else if (q == UI_Q_JSON)
			fputs("null", out);
		break;
	case UI_V_BOOL:
		fputs(f->b ? "true" : "false", out);
		break;
	case UI_V_STR:
		ref_str(out, f->s, q);
		break;
	case UI_V_LIST:
		ref_list(out, f->str_buf, q);
		break;
	}
}

/* the wall clock of every interval, both writers */
static const struct timespec wall = { 1796226050, 458785295 };

static void ref_json_object(struct ui_emit *e, const struct ptop_row *r,
			    bool is_sum)
{
	struct ui_field f;
	size_t i;

	fputc('{', e->out);
	for (i = 0; ui_emit_row_field(e, r, is_sum, i, &f); i++) {
		fprintf(e->out, "%s\"%s\":", i ? "," : "", f.name);
		ref_value(e->out, &f, UI_Q_JSON);
	}
	fputc('}', e->out);
}

static void ref_json_interval(struct ui_emit *e)
{
	struct ui_field f;
	size_t i;

	e->wall = wall;
	fputc('{', e->out);
	for (i = 0; ui_emit_iv_field(e, i, &f); i++) {
		fprintf(e->out, "%s\"%s\":", i ? "," : "", f.name);
		ref_value(e->out, &f, UI_Q_JSON);
	}
	fputs(",\"rows\":[", e->out);
}

static void ref_json_row(struct ui_emit *e, const struct ptop_row *r)
{
	if (e->nrows)
		fputc(',', e->out);
	ref_json_object(e, r, false);
}

static void ref_json_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	fputs("],\"sum\":", e->out);
	ref_json_object(e, sum, true);
	fputs("}\n", e->out);
}

static void ref_csv_fields(struct ui_emit *e, const struct ptop_row *r,
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
			ref_value(e->out, &f, UI_Q_CSV);
	}
	for (i = 0; ui_emit_row_field(e, r, is_sum, i, &f); i++) {
		fputc(',', e->out);
		if (names)
			fputs(f.name, e->out);
		else
			ref_value(e->out, &f, UI_Q_CSV);
	}
	fputc('\n', e->out);
}

static void ref_csv_interval(struct ui_emit *e)
{
	e->wall = wall;
	if (!e->nintervals)
		ref_csv_fields(e, &e->iv->sum, false, true);
}

static void ref_csv_row(struct ui_emit *e, const struct ptop_row *r)
{
	ref_csv_fields(e, r, false, false);
}

static void ref_csv_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	ref_csv_fields(e, sum, true, false);
}

static const struct {
	int col;
	const char *mode;
} modes[] = {
	{ PTOP_COL_UTIME, "user" },
	{ PTOP_COL_STIME, "system" },
	{ PTOP_COL_STEAL, "steal" },
	{ PTOP_COL_CUTIME, "children_user" },
	{ PTOP_COL_CSTIME, "children_system" },
	{ PTOP_COL_CSTEAL, "children_steal" },
	{ PTOP_COL_XUTIME, "dead_threads_user" },
	{ PTOP_COL_XSTIME, "dead_threads_system" },
	{ PTOP_COL_XSTEAL, "dead_threads_steal" },
};
#define N_MODES ARRAY_SIZE(modes)

static const struct {
	unsigned int bit;
	const char *reason;
} why[] = {
	{ PTOP_WHY_FIRST, "first" },
	{ PTOP_WHY_LOST, "lost" },
	{ PTOP_WHY_CLAMPED, "clamped" },
	{ PTOP_WHY_UNFOLDED, "unfolded" },
	{ PTOP_WHY_SLOW, "slow" },
	{ PTOP_WHY_EXIT_PATHS, "exit_paths" },
	{ PTOP_WHY_OFF, "off" },
	{ PTOP_WHY_LATE, "late" },
};

struct om_other {
	uint64_t ns[N_MODES];
	bool have[N_MODES];
	size_t nrows;
};

static uint64_t ns_of(const struct ptop_row *r, int col)
{
	return ptop_col_value(&ptop_cols[col], r);
}

static void family(FILE *out, const char *name, const char *unit,
		   const char *help)
{
	fprintf(out, "# TYPE %s gauge\n", name);
	if (unit)
		fprintf(out, "# UNIT %s %s\n", name, unit);
	fprintf(out, "# HELP %s %s\n", name, help);
}

static void gauge(FILE *out, const char *name, const char *unit,
		  const char *help, double v)
{
	family(out, name, unit, help);
	fprintf(out, unit ? "%s %.9f\n" : "%s %.0f\n", name, v);
}

static void ref_om_begin(struct ui_emit *e)
{
	e->priv = calloc(1, sizeof(struct om_other));
}

static void ref_om_interval(struct ui_emit *e)
{
	const struct ptop_interval *iv = e->iv;
	struct om_other *other = e->priv;
	FILE *out = e->out;

	e->wall = wall;
	if (other)
		memset(other, 0, sizeof(*other));
	family(out, "ptop_info", NULL,
	       "ptop's source, version and output schema (value 1).");
	fputs("ptop_info{source=", out);
	ref_str(out, e->o->source ? e->o->source : "", UI_Q_LABEL);
	fprintf(out, ",version=\"%s\",schema=\"1\"} 1\n", PTOP_VERSION);
	gauge(out, "ptop_interval_seconds", "seconds",
	      "Length of the interval the other ptop metrics cover.",
	      iv->interval_ns / 1e9);
	gauge(out, "ptop_interval_end_timestamp_seconds", "seconds",
	      "When the interval ended, seconds since the epoch.",
	      e->wall.tv_sec + e->wall.tv_nsec / 1e9);
	gauge(out, "ptop_cpus", NULL, "CPUs the capacity counts (ncpu).",
	      iv->ncpu);
	family(out, "ptop_process_cpu_seconds", "seconds",
	       "CPU seconds of a process in the interval by mode (children_*: its descendants that died in it, dead_threads_*: its threads that died in it); the first --top processes in sort order, the others summed in comm=\"other\".");
}

static void ref_om_row(struct ui_emit *e, const struct ptop_row *r)
{
	struct om_other *other = e->priv;
	char user[64];
	size_t m;

	if (e->top && e->nrows >= e->top) {
		if (!other)
			return;
		for (m = 0; m < N_MODES; m++) {
			if (ptop_col_missing(&ptop_cols[modes[m].col], r))
				continue;
			other->ns[m] += ns_of(r, modes[m].col);
			other->have[m] = true;
		}
		other->nrows++;
		return;
	}
	ptop_col_format(&ptop_cols[PTOP_COL_USER], r, e->iv, user,
			sizeof(user));
	for (m = 0; m < N_MODES; m++) {
		if (ptop_col_missing(&ptop_cols[modes[m].col], r))
			continue;
		fprintf(e->out, "ptop_process_cpu_seconds{pid=\"%u\",comm=",
			r->pid);
		ref_str(e->out, r->comm, UI_Q_LABEL);
		fputs(",user=", e->out);
		ref_str(e->out, user, UI_Q_LABEL);
		fprintf(e->out, ",mode=\"%s\"} %.9f\n", modes[m].mode,
			ns_of(r, modes[m].col) / 1e9);
	}
}

static void system_part(FILE *out, const char *part, uint64_t ns)
{
	fprintf(out, "ptop_system_cpu_seconds{part=\"%s\"} %.9f\n", part,
		ns / 1e9);
}

static void ref_om_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	const struct ptop_interval *iv = e->iv;
	struct om_other *other = e->priv;
	uint64_t cap = ptop_interval_capacity_ns(iv);
	FILE *out = e->out;
	size_t m;

	for (m = 0; other && other->nrows && m < N_MODES; m++)
		if (other->have[m])
			fprintf(out, "ptop_process_cpu_seconds{comm=\"other\",mode=\"%s\"} %.9f\n",
				modes[m].mode, other->ns[m] / 1e9);
	gauge(out, "ptop_other_processes", NULL,
	      "Processes summed in ptop_process_cpu_seconds{comm=\"other\"}.",
	      other ? other->nrows : 0);
	family(out, "ptop_system_cpu_seconds", "seconds",
	       "CPU seconds of the system-wide parts in the interval: idle (without iowait), iowait, and steal and irq when the kernel keeps them apart from tasks.");
	system_part(out, "idle", iv->idle_ns > iv->iowait_ns ?
				 iv->idle_ns - iv->iowait_ns : 0);
	system_part(out, "iowait", iv->iowait_ns);
	if (iv->sys_apart & PTOP_SYS_STEAL_APART)
		system_part(out, "steal", iv->steal_ns);
	if (iv->sys_apart & PTOP_SYS_IRQ_APART)
		system_part(out, "irq", iv->irq_ns);
	gauge(out, "ptop_capacity_cpu_seconds", "seconds",
	      "CPU seconds the machine had in the interval: ncpu x interval.",
	      cap / 1e9);
	gauge(out, "ptop_accounted_cpu_seconds", "seconds",
	      "CPU seconds accounted for: every task plus the system parts.",
	      ptop_interval_accounted_ns(iv) / 1e9);
	gauge(out, "ptop_accounted_ratio", "ratio",
	      "Accounted over capacity: 1 when every CPU second is accounted for.",
	      cap ? (double)ptop_interval_accounted_ns(iv) / cap : 0.0);
	gauge(out, "ptop_exact", NULL,
	      "1 when the interval is exact (nothing lost or clamped, snapshots fast enough, within 1% of capacity, 0.5% with the module), else 0.",
	      iv->verdict.exact);
	gauge(out, "ptop_within", NULL,
	      "1 when the interval is within the source's own bound (ptop_tolerance_cpu_seconds), wider than exact's, else 0.",
	      iv->verdict.within);
	gauge(out, "ptop_pid_namespace_only", NULL,
	      "1 when the rows are one pid namespace's tasks (no machine total is accounted), else 0.",
	      iv->verdict.pidns);
	family(out, "ptop_inexact", NULL,
	       "1 for each reason that makes the interval inexact (first interval, lost exits, clamped, unfolded, slow snapshot, exit paths past the tolerance, off the tolerance, late exit records), else 0.");
	for (m = 0; m < ARRAY_SIZE(why); m++)
		fprintf(out, "ptop_inexact{reason=\"%s\"} %d\n", why[m].reason,
			!!(iv->verdict.why & why[m].bit));
	gauge(out, "ptop_tolerance_cpu_seconds", "seconds",
	      "How far accounted may be from capacity: the source's own bound.",
	      iv->verdict.tol_ns / 1e9);
	gauge(out, "ptop_snapshot_seconds", "seconds",
	      "The wider of the interval's two snapshot reading windows.",
	      iv->verdict.window_ns / 1e9);
	gauge(out, "ptop_exited_processes", NULL,
	      "Processes that died in the interval.", iv->nexited);
	gauge(out, "ptop_clamped_cpu_seconds", "seconds",
	      "CPU seconds dropped to keep a delta from going negative.",
	      iv->clamped_ns / 1e9);
	gauge(out, "ptop_unfolded_cpu_seconds", "seconds",
	      "CPU seconds of dead tasks with no live ancestor to be shown on.",
	      iv->unfolded_ns / 1e9);
	(void)sum;
	fputs("# EOF\n", out);
}

static void ref_om_end(struct ui_emit *e)
{
	free(e->priv);
	e->priv = NULL;
}

/* --- the encoders under test, with the same wall clock ------------------- */
static struct ui_encoder tested;	/* a copy of the one under test */
static void (*tested_interval)(struct ui_emit *e);

static void fixed_wall_interval(struct ui_emit *e)
{
	e->wall = wall;
	tested_interval(e);
}

static const struct ui_encoder refs[] = {
	{ .name = "json", .interval = ref_json_interval, .row = ref_json_row,
	  .sum = ref_json_sum },
	{ .name = "csv", .interval = ref_csv_interval, .row = ref_csv_row,
	  .sum = ref_csv_sum },
	{ .name = "openmetrics", .default_top = 10, .folds_rest = true,
	  .begin = ref_om_begin, .interval = ref_om_interval,
	  .row = ref_om_row, .sum = ref_om_sum, .end = ref_om_end },
};

/* --- a varied snapshot ----------------------------------------------------- */
#define NROWS 200

static void random_comm(char *comm, size_t len)
{
	static const char *const bits[] = {
		"a", "Z", "9", " ", "\"", "\\", "\n", "\t", "\x01", "\x1f",
		"\x7f", "ä", "€", "😀", "\x80", "\xe9", "\xe2\x82", "\xc0\xaf",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5", ",", ";", "{", "}",
		"=", "kworker/", "x\"y",
	};
	size_t n = 0, k, want = (size_t)(random() % (long)len);

	while (n < want) {
		const char *b = bits[random() % ARRAY_SIZE(bits)];

		k = strlen(b);
		if (n + k > len - 1)
			break;
		memcpy(comm + n, b, k);
		n += k;
	}
	comm[n] = '\0';
}

static uint64_t random_ns(void)
{
	switch (random() % 7) {
	case 0:
		return 0;
	case 1:
		return (uint64_t)(random() % 100) * 5000000ULL;	/* ties */
	case 2:
		return (uint64_t)random() * (uint64_t)random();	/* huge */
	case 3:
		return (uint64_t)(random() % 1000);
	case 4:
		return (uint64_t)random() * 1000ULL;
	default:
		return (uint64_t)random();
	}
}

static void random_row(struct ptop_row *r, size_t k)
{
	memset(r, 0, sizeof(*r));
	r->pid = r->tgid = 100 + (uint32_t)k;
	r->ppid = k ? 100 + (uint32_t)(random() % k) : 1;
	r->is_thread = random() % 5 == 0;
	r->uid = random() % 3 ? 0 : 3000000000U + (uint32_t)(random() % 5);
	r->state = random() % 9 ? "RSDIZT"[random() % 6] : 0;
	r->nthreads = random() % 4 ? 1 + random() % 40 : 0xffffffffU;
	r->has = random() % 3 ? ~0U : (unsigned int)random();
	r->user = random_ns();
	r->sys = random_ns();
	r->ste = random_ns();
	r->cuser = random() % 3 ? 0 : random_ns();
	r->csys = random() % 3 ? 0 : random_ns();
	r->cste = random() % 3 ? 0 : random_ns();
	r->xuser = random() % 3 ? 0 : random_ns();
	r->xsys = random() % 3 ? 0 : random_ns();
	r->xste = random() % 3 ? 0 : random_ns();
	r->total = r->user + r->sys + r->ste + r->cuser + r->csys + r->cste +
		   r->xuser + r->xsys + r->xste;
	r->time_ns = random_ns() * (uint64_t)(random() % 5000);
	r->rdelay = random_ns();
	r->nvcsw = random_ns();
	r->nivcsw = random() % 1000;
	r->minflt = random_ns();
	r->majflt = random() % 10;
	r->rss_kb = random_ns();
	random_comm(r->comm, sizeof(r->comm));
}

static void random_interval(struct ptop_interval *iv, struct ptop_row *rows,
			    size_t round)
{
	static const uint64_t lengths[] = { 1000000000ULL, 1000000007ULL,
					    250000000ULL, 3ULL, 0ULL,
					    7000000000000ULL };
	size_t k;

	memset(iv, 0, sizeof(*iv));
	memset(&iv->sum, 0, sizeof(iv->sum));
	/*
	 * odd rounds: 1 row in 20 changes, the length stays (the writers
	 * keep the other rows' lines); even: a third, another length
	 */
	for (k = 0; k < NROWS; k++) {
		if (!round || random() % (round % 2 ? 20 : 3) == 0)
			random_row(&rows[k], k);
		iv->sum.user += rows[k].user;
		iv->sum.sys += rows[k].sys;
		iv->sum.total += rows[k].total;
		iv->sum.cuser += rows[k].cuser;
		iv->sum.nvcsw += rows[k].nvcsw;
	}
	iv->sum.has = random() % 2 ? ~0U : ~PTOP_DATA_STEAL;
	iv->rows = rows;
	iv->nrows = NROWS;
	iv->interval_ns = lengths[(round / 2) % ARRAY_SIZE(lengths)];
	iv->time_ns = 5000000000ULL + round * 1000000007ULL;
	iv->ncpu = 1 + random() % 64;
	iv->idle_ns = random_ns();
	iv->iowait_ns = random_ns();
	iv->steal_ns = random_ns();
	iv->irq_ns = random_ns();
	iv->sys_apart = (unsigned int)random() & (PTOP_SYS_STEAL_APART |
						  PTOP_SYS_IRQ_APART);
	iv->caps = random() % 2 ? PTOP_CAP_EXIT_TAIL : 0;
	iv->nexited = random() % 50;
	iv->clamped_ns = random_ns();
	iv->unfolded_ns = random_ns();
	iv->verdict.why = round ? (unsigned int)random() & 0xff : PTOP_WHY_FIRST;
	iv->verdict.exact = !iv->verdict.why;
	/* one meaning of exact: a wider bound says "within"; a pid namespace */
	if (iv->verdict.exact && random() % 2) {
		iv->verdict.exact = false;
		iv->verdict.within = true;
		iv->res_what = "procfs ticks";
	}
	iv->verdict.pidns = !iv->verdict.exact && !iv->verdict.within &&
			    random() % 4 == 0;
	iv->verdict.off_ns = (int64_t)random_ns() * (random() % 2 ? -1 : 1);
	iv->verdict.tol_ns = random_ns();
	iv->verdict.window_ns = random_ns();
	iv->verdict.skew_ns = random_ns();
	iv->verdict.nlost = random() % 5;
	iv->verdict.exit_paths_ns = random_ns();
	iv->verdict.ntask_exits = random() % 100;
}

/* every interval of one run through enc, into a string */
static char *run(const struct ui_encoder *enc, const struct ui_view_opts *o,
		 unsigned int seed, size_t *len)
{
	static struct ptop_row rows[NROWS];
	struct ptop_interval iv;
	struct ui_emit e;
	char *mem = NULL;
	FILE *f = open_memstream(&mem, len);
	size_t round;

	assert_non_null(f);
	srandom(seed);
	ui_emit_init(&e, f, enc, o);
	for (round = 0; round < 12; round++) {
		random_interval(&iv, rows, round);
		assert_int_equal(ui_emit_interval(&e, &iv), 0);
	}
	assert_int_equal(ui_emit_end(&e), 0);
	fclose(f);
	return mem;
}

static void test_formats_like_printf(void **state)
{
	static const char *const sources[] = { "fake", "a\"b\\c\n\x80" };
	int cols[PTOP_COL__COUNT], ncols, tree;
	static const size_t tops[] = { 0, 3, 100000 };
	char bad[64];
	size_t r, t, s, glen, wlen, checked = 0;

	(void)state;
	ncols = ptop_col_parse_list("PID,TGID,PPID,USER,STATE,THREADS,user,sys,ste,cuser,csys,cste,xuser,xsys,xste,COMMAND,total,TIME,RDELAY,nvcsw,nivcsw,minflt,majflt,RSS,own,cdead,xdead",
				    cols, PTOP_COL__COUNT, bad, sizeof(bad));
	assert_true(ncols > 20);
	for (r = 0; r < ARRAY_SIZE(refs); r++) {
		const struct ui_encoder *enc = ui_format_find(refs[r].name);

		assert_non_null(enc);
		tested = *enc;
		tested_interval = enc->interval;
		tested.interval = fixed_wall_interval;
		for (tree = 0; tree < 2; tree++)
			for (t = 0; t < ARRAY_SIZE(tops); t++)
				for (s = 0; s < ARRAY_SIZE(sources); s++) {
					struct ui_view_opts o = {
						.cols = cols, .ncols = ncols,
						/* by pid: rows keep places */
						.sort_id = s ? PTOP_COL_PID :
							       PTOP_COL_TOTAL,
						.source = sources[s], .tree = tree,
						.top = tops[t],
					};
					unsigned int seed = 11 + (unsigned int)(t * 7 + s + tree * 3);
					char *got = run(&tested, &o, seed, &glen);
					char *want = run(&refs[r], &o, seed, &wlen);

					assert_true(wlen > 1000);
					if (glen != wlen || memcmp(got, want, wlen)) {
						size_t i = 0;

						while (i < glen && i < wlen && got[i] == want[i])
							i++;
						print_error("%s tree %d top %zu: differs at byte %zu:\n got %.120s\nwant %.120s\n",
							    refs[r].name, tree, tops[t], i,
							    got + (i > 40 ? i - 40 : 0),
							    want + (i > 40 ? i - 40 : 0));
						fail();
					}
					checked += wlen;
					free(got);
					free(want);
				}
	}
	assert_true(checked > 1000000);
}

/* ptop_fmt_fixed() writes what snprintf "%.*f" writes */
static void test_fixed_like_printf(void **state)
{
	char got[512], want[512];
	int prec, i;
	size_t n;

	(void)state;
	srandom(3);
	for (i = 0; i < 400000; i++) {
		double d;

		prec = (int)(random() % 10);
		switch (i % 6) {
		case 0:	/* ties and near ties at this precision */
			d = (double)(random() % 100000) / pow(10, prec) +
			    0.5 / pow(10, prec) * (random() % 3 - 1) * 1e-12 +
			    0.5 / pow(10, prec);
			break;
		case 1:
			d = (double)random() * (double)random();
			break;
		case 2:
			d = (double)random() / 1e9;
			break;
		case 3:
			d = ldexp((double)random(), (int)(random() % 80) - 60);
			break;
		case 4:
			d = (double)((uint64_t)random() * (uint64_t)random()) / 1e9;
			break;
		default:
			d = (double)random() * 100.0 / 1000000007.0;
			break;
		}
		if (random() % 4 == 0)
			d = -d;
		snprintf(want, sizeof(want), "%.*f", prec, d);
		n = ptop_fmt_fixed(d, prec, got, sizeof(got));
		assert_string_equal(got, want);
		assert_int_equal(n, strlen(want));
		/* cut as snprintf cuts */
		n = ptop_fmt_fixed(d, prec, got, 4);
		snprintf(want, 4, "%.*f", prec, d);
		assert_string_equal(got, want);
	}
	snprintf(want, sizeof(want), "%.4f", -0.0);
	ptop_fmt_fixed(-0.0, 4, got, sizeof(got));
	assert_string_equal(got, want);
	snprintf(want, sizeof(want), "%.6f", 1e300);
	ptop_fmt_fixed(1e300, 6, got, sizeof(got));
	assert_string_equal(got, want);
	snprintf(want, sizeof(want), "%lld", -9223372036854775807LL - 1);
	ptop_fmt_i64(-9223372036854775807LL - 1, got, sizeof(got));
	assert_string_equal(got, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_like_printf),
		cmocka_unit_test(test_formats_like_printf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
