// SPDX-License-Identifier: GPL-2.0
/*
 * The batch emitter: the encoder table, the loop over one interval's rows,
 * the fields CSV and JSON share, and UTF-8-safe quoting.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "emit.h"

/*
 * The version of the machine formats' field set (JSON "schema", a CSV
 * column, OpenMetrics ptop_schema): raised when a field changes meaning
 * or goes away; new fields may appear without a raise.
 */
#define UI_SCHEMA 1

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

/* --- the shared fields --------------------------------------------------- */
static void set_num(struct ui_field *f, double d, int prec)
{
	f->type = UI_V_NUM;
	f->d = d;
	f->prec = prec;
}

static void set_int(struct ui_field *f, long long v)
{
	f->type = UI_V_INT;
	f->i = v;
}

static void set_bool(struct ui_field *f, bool b)
{
	f->type = UI_V_BOOL;
	f->b = b;
}

static void set_str(struct ui_field *f, const char *s)
{
	f->type = UI_V_STR;
	f->s = s;
}

static void pct_field(const struct ui_emit *e, struct ui_field *f,
		      uint64_t ns)
{
	set_num(f, ptop_interval_pct(e->iv, ns), 4);
}

/* steal and irq: a share when the kernel keeps it apart, else null */
static void apart_field(const struct ui_emit *e, struct ui_field *f,
			unsigned int bit, uint64_t ns)
{
	if (e->iv->sys_apart & bit)
		pct_field(e, f, ns);
	else
		f->type = UI_V_NULL;
}

enum iv_field_id {
	IVF_SCHEMA,
	IVF_EPOCH,
	IVF_RFC3339,
	IVF_MONOTONIC,
	IVF_INTERVAL,
	IVF_NCPU,
	IVF_SOURCE,
	IVF_SCOPE,
	IVF_EXACT,
	IVF_INEXACT,
	IVF_WITHIN,
	IVF_OFF,
	IVF_TOLERANCE,
	IVF_SNAPSHOT,
	IVF_SKEW,
	IVF_LOST,
	IVF_ACCOUNTED,
	IVF_CAPACITY,
	IVF_IDLE,
	IVF_IOWAIT,
	IVF_STEAL,
	IVF_STEAL_IN_TASKS,
	IVF_IRQ,
	IVF_IRQ_IN_TASKS,
	IVF_EXITED,
	IVF_CLAMPED,
	IVF_UNFOLDED,
	IVF_EXIT_PATHS,
	IVF__COUNT
};

static const char *const iv_field_names[IVF__COUNT] = {
	[IVF_SCHEMA] = "schema",
	[IVF_EPOCH] = "time_epoch_s",
	[IVF_RFC3339] = "time_rfc3339",
	[IVF_MONOTONIC] = "time_monotonic_s",
	[IVF_INTERVAL] = "interval_s",
	[IVF_NCPU] = "ncpu",
	[IVF_SOURCE] = "source",
	[IVF_SCOPE] = "scope",
	[IVF_EXACT] = "exact",
	[IVF_INEXACT] = "inexact",
	[IVF_WITHIN] = "within",
	[IVF_OFF] = "off_pct",
	[IVF_TOLERANCE] = "tolerance_pct",
	[IVF_SNAPSHOT] = "snapshot_ms",
	[IVF_SKEW] = "skew_pct",
	[IVF_LOST] = "lost",
	[IVF_ACCOUNTED] = "accounted_pct",
	[IVF_CAPACITY] = "capacity_pct",
	[IVF_IDLE] = "idle_pct",
	[IVF_IOWAIT] = "iowait_pct",
	[IVF_STEAL] = "steal_pct",
	[IVF_STEAL_IN_TASKS] = "steal_in_tasks",
	[IVF_IRQ] = "irq_pct",
	[IVF_IRQ_IN_TASKS] = "irq_in_tasks",
	[IVF_EXITED] = "exited",
	[IVF_CLAMPED] = "clamped_pct",
	[IVF_UNFOLDED] = "unfolded_pct",
	[IVF_EXIT_PATHS] = "exit_paths_pct",
};

static void rfc3339(const struct timespec *t, char *buf, size_t len)
{
	struct tm tm;
	size_t n;

	gmtime_r(&t->tv_sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06ldZ", t->tv_nsec / 1000);
}

/* the verdict's reasons, "lost 3 exits", "off -3.20%", in verdict order */
static void reasons(const struct ptop_interval *iv, struct ui_field *f)
{
	size_t pos = 0;
	unsigned int i;
	int n;

	f->type = UI_V_LIST;
	f->str_buf[0] = '\0';
	for (i = 0; i < PTOP_WHY__COUNT; i++) {
		if (!(iv->verdict.why & (1U << i)) ||
		    pos + 2 >= sizeof(f->str_buf))
			continue;
		n = ptop_verdict_reason(iv, 1U << i, f->str_buf + pos,
					sizeof(f->str_buf) - pos - 1);
		if (n <= 0)
			continue;
		pos += (size_t)n < sizeof(f->str_buf) - pos - 1 ?
		       (size_t)n : sizeof(f->str_buf) - pos - 2;
		f->str_buf[pos++] = '\n';
		f->str_buf[pos] = '\0';
	}
}

bool ui_emit_iv_field(const struct ui_emit *e, size_t i, struct ui_field *f)
{
	const struct ptop_interval *iv = e->iv;

	if (i >= IVF__COUNT)
		return false;
	f->name = iv_field_names[i];
	switch ((enum iv_field_id)i) {
	case IVF_SCHEMA:
		set_int(f, UI_SCHEMA);
		break;
	case IVF_EPOCH:
		/* the same microsecond as time_rfc3339 */
		set_num(f, e->wall.tv_sec + (e->wall.tv_nsec / 1000) / 1e6, 6);
		break;
	case IVF_RFC3339:
		rfc3339(&e->wall, f->str_buf, sizeof(f->str_buf));
		set_str(f, f->str_buf);
		break;
	case IVF_MONOTONIC:
		set_num(f, iv->time_ns / 1e9, 6);
		break;
	case IVF_INTERVAL:
		set_num(f, iv->interval_ns / 1e9, 6);
		break;
	case IVF_NCPU:
		set_int(f, iv->ncpu);
		break;
	case IVF_SOURCE:
		set_str(f, e->o->source ? e->o->source : "");
		break;
	case IVF_SCOPE:
		/* what the rows are: the machine's tasks, or a pid namespace's */
		set_str(f, iv->verdict.pidns ? "pid_namespace" : "machine");
		break;
	case IVF_EXACT:
		set_bool(f, iv->verdict.exact);
		break;
	case IVF_INEXACT:
		reasons(iv, f);
		break;
	case IVF_WITHIN:
		/* the bound is tolerance_pct; null unless "within" */
		if (iv->verdict.within) {
			ptop_verdict_within_why(iv, f->str_buf,
						sizeof(f->str_buf));
			set_str(f, f->str_buf);
		} else {
			f->type = UI_V_NULL;
		}
		break;
	case IVF_OFF:
		/* signed: accounted - capacity */
		set_num(f, iv->interval_ns ? (double)iv->verdict.off_ns * 100.0 /
				     iv->interval_ns : 0.0, 4);
		break;
	case IVF_TOLERANCE:
		pct_field(e, f, iv->verdict.tol_ns);
		break;
	case IVF_SNAPSHOT:
		set_num(f, iv->verdict.window_ns / 1e6, 3);
		break;
	case IVF_SKEW:
		pct_field(e, f, iv->verdict.skew_ns);
		break;
	case IVF_LOST:
		set_int(f, iv->verdict.nlost);
		break;
	case IVF_ACCOUNTED:
		pct_field(e, f, ptop_interval_accounted_ns(iv));
		break;
	case IVF_CAPACITY:
		pct_field(e, f, ptop_interval_capacity_ns(iv));
		break;
	case IVF_IDLE:
		pct_field(e, f, iv->idle_ns);
		break;
	case IVF_IOWAIT:
		pct_field(e, f, iv->iowait_ns);
		break;
	case IVF_STEAL:
		apart_field(e, f, PTOP_SYS_STEAL_APART, iv->steal_ns);
		break;
	case IVF_STEAL_IN_TASKS:
		set_bool(f, !(iv->sys_apart & PTOP_SYS_STEAL_APART));
		break;
	case IVF_IRQ:
		apart_field(e, f, PTOP_SYS_IRQ_APART, iv->irq_ns);
		break;
	case IVF_IRQ_IN_TASKS:
		set_bool(f, !(iv->sys_apart & PTOP_SYS_IRQ_APART));
		break;
	case IVF_EXITED:
		set_int(f, iv->nexited);
		break;
	case IVF_CLAMPED:
		pct_field(e, f, iv->clamped_ns);
		break;
	case IVF_UNFOLDED:
		pct_field(e, f, iv->unfolded_ns);
		break;
	case IVF_EXIT_PATHS:
		/* null where a source's rows have them (lib/verdict.h) */
		if (iv->caps & PTOP_CAP_EXIT_TAIL)
			pct_field(e, f, iv->verdict.exit_paths_ns);
		else
			f->type = UI_V_NULL;
		break;
	case IVF__COUNT:
		return false;
	}
	return true;
}

/* the unit a machine format puts into a column's field name */
static const char *unit_suffix(enum ptop_col_type t)
{
	switch (t) {
	case PTOP_CT_PCT:
		return "_pct";
	case PTOP_CT_RATE:
		return "_per_s";
	case PTOP_CT_CUMTIME:
		return "_s";
	case PTOP_CT_KB:
		return "_kib";
	default:
		return "";
	}
}

static uint32_t u32_at(const struct ptop_row *r, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)r + off, sizeof(v));
	return v;
}

/* a column's cell as a typed value: numbers as numbers, TIME in seconds */
static void col_field(const struct ui_emit *e, const struct ptop_col *c,
		      const struct ptop_row *r, bool is_sum, struct ui_field *f)
{
	double secs = e->iv->interval_ns / 1e9;
	const char *unit = unit_suffix(c->type);
	size_t nn = strlen(c->name), nu = strlen(unit);

	/* "%s%s", cut as snprintf cuts */
	if (nn > sizeof(f->name_buf) - 1)
		nn = sizeof(f->name_buf) - 1;
	if (nu > sizeof(f->name_buf) - 1 - nn)
		nu = sizeof(f->name_buf) - 1 - nn;
	memcpy(f->name_buf, c->name, nn);
	memcpy(f->name_buf + nn, unit, nu);
	f->name_buf[nn + nu] = '\0';
	f->name = f->name_buf;
	if ((is_sum && !c->sum) || ptop_col_missing(c, r)) {
		f->type = UI_V_NULL;
		return;
	}
	switch (c->type) {
	case PTOP_CT_U32:
		set_int(f, u32_at(r, c->offset));
		break;
	case PTOP_CT_KB:
		set_int(f, (long long)ptop_col_value(c, r));
		break;
	case PTOP_CT_PCT:
		pct_field(e, f, ptop_col_value(c, r));
		break;
	case PTOP_CT_RATE:
		set_num(f, secs > 0 ? ptop_col_value(c, r) / secs : 0.0, 2);
		break;
	case PTOP_CT_CUMTIME:
		set_num(f, ptop_col_value(c, r) / 1e9, 6);
		break;
	case PTOP_CT_STR:
		set_str(f, (const char *)r + c->offset);
		break;
	case PTOP_CT_CHAR:
	case PTOP_CT_UID:
		ptop_col_format(c, r, e->iv, f->str_buf, sizeof(f->str_buf));
		set_str(f, f->str_buf);
		break;
	}
}

bool ui_emit_row_field(const struct ui_emit *e, const struct ptop_row *r,
		       bool is_sum, size_t i, struct ui_field *f)
{
	if (i == 0) {
		f->name = "kind";
		set_str(f, is_sum ? "sum" : r->is_thread ? "thread" : "process");
		return true;
	}
	i--;
	if (e->o->tree && i < 2) {
		f->name = i ? "tree_parent" : "depth";
		if (is_sum || !e->cur || (i && !e->tree_parent))
			f->type = UI_V_NULL;
		else
			set_int(f, i ? e->tree_parent : (long long)e->cur->depth);
		return true;
	}
	i -= e->o->tree ? 2 : 0;
	if (i >= (size_t)e->o->ncols)
		return false;
	col_field(e, &ptop_cols[e->o->cols[i]], r, is_sum, f);
	return true;
}

/* --- strings ------------------------------------------------------------- */
/*
 * Length of the valid UTF-8 sequence at s (1-4), or 0: overlong forms,
 * surrogates and code points past U+10FFFF are not valid.
 */
static size_t utf8_len(const unsigned char *s)
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
			return 0;	/* also stops at the NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* --- the output buffer ---------------------------------------------------- */
void ui_buf_flush(struct ui_buf *b)
{
	if (b->n) {
		fwrite(b->b, 1, b->n, b->out);
		b->nflush++;
	}
	b->n = 0;
}

void ui_buf_put(struct ui_buf *b, const char *s, size_t n)
{
	if (b->n + n > sizeof(b->b)) {
		ui_buf_flush(b);
		if (n > sizeof(b->b)) {
			fwrite(s, 1, n, b->out);
			b->nflush++;
			return;
		}
	}
	memcpy(b->b + b->n, s, n);
	b->n += n;
}

void ui_buf_u64(struct ui_buf *b, uint64_t v)
{
	char tmp[24];

	ui_buf_put(b, tmp, ptop_fmt_u64(v, tmp, sizeof(tmp)));
}

void ui_buf_fixed(struct ui_buf *b, double d, int prec)
{
	char tmp[512];	/* "%.9f" of DBL_MAX is 319 bytes */

	ui_buf_put(b, tmp, ptop_fmt_fixed(d, prec, tmp, sizeof(tmp)));
}

static const char hexd[] = "0123456789abcdef";

/* the text \xNN (bs: backslashes before it: 1 CSV, 2 JSON and labels) */
static void put_hex(struct ui_buf *b, unsigned char c, int bs)
{
	char t[5];
	int n = 0;

	while (bs--)
		t[n++] = '\\';
	t[n++] = 'x';
	t[n++] = hexd[c >> 4];
	t[n++] = hexd[c & 15];
	ui_buf_put(b, t, n);
}

/* s, n bytes (no NUL in them), quoted: the bytes ui_emit_str() wrote with fprintf */
static void put_quoted(struct ui_buf *b, const unsigned char *s, size_t len,
		       enum ui_quote q)
{
	const unsigned char *end = s + len, *run;
	size_t n;

	ui_buf_putc(b, '"');
	while (s < end) {
		/* printable ASCII but " and \: as it is, one copy per run */
		for (run = s; s < end && *s >= 0x20 && *s < 0x7f && *s != '"' &&
			      *s != '\\'; s++)
			;
		if (s > run)
			ui_buf_put(b, (const char *)run, s - run);
		if (s == end)
			break;
		n = utf8_len(s);
		if (!n || n > (size_t)(end - s)) {
			/* the text \xNN; JSON and labels escape the backslash */
			put_hex(b, *s, q == UI_Q_CSV ? 1 : 2);
			s++;
			continue;
		}
		if (*s == '"') {
			ui_buf_put(b, q == UI_Q_CSV ? "\"\"" : "\\\"", 2);
		} else if (*s == '\\') {
			ui_buf_put(b, "\\\\", q == UI_Q_CSV ? 1 : 2);
		} else if (*s == '\n' && q == UI_Q_LABEL) {
			ui_buf_put(b, "\\n", 2);
		} else if (*s < 0x20 || *s == 0x7f) {
			if (q == UI_Q_JSON) {
				char u[6] = { '\\', 'u', '0', '0', hexd[*s >> 4],
					      hexd[*s & 15] };

				ui_buf_put(b, u, sizeof(u));
			} else {
				put_hex(b, *s, q == UI_Q_CSV ? 1 : 2);
			}
		} else {
			ui_buf_put(b, (const char *)s, n);
		}
		s += n;
	}
	ui_buf_putc(b, '"');
}

void ui_buf_str(struct ui_buf *b, const char *s, enum ui_quote q)
{
	put_quoted(b, (const unsigned char *)s, strlen(s), q);
}

static void put_list(struct ui_buf *b, const char *items, enum ui_quote q)
{
	char joined[sizeof(((struct ui_field *)0)->str_buf)];
	const char *nl;
	size_t n, pos = 0, room;

	if (q == UI_Q_JSON)
		ui_buf_putc(b, '[');
	for (; (nl = strchr(items, '\n')); items = nl + 1) {
		n = nl - items;
		if (q == UI_Q_JSON) {
			/* snprintf "%.*s" into a buffer of sizeof(joined) */
			if (n > sizeof(joined) - 1)
				n = sizeof(joined) - 1;
			if (pos++)
				ui_buf_putc(b, ',');
			put_quoted(b, (const unsigned char *)items,
				   strnlen(items, n), q);
		} else {
			/* snprintf "%s%.*s" at pos: "; " between, cut at the end */
			room = sizeof(joined) - 1 - pos;
			if (pos) {
				size_t k = room < 2 ? room : 2;

				memcpy(joined + pos, "; ", k);
				pos += k;
				room -= k;
			}
			n = strnlen(items, n);
			if (n > room)
				n = room;
			memcpy(joined + pos, items, n);
			pos += n;
		}
	}
	if (q == UI_Q_JSON)
		ui_buf_putc(b, ']');
	else if (pos)
		put_quoted(b, (const unsigned char *)joined, strnlen(joined, pos), q);
}

void ui_buf_value(struct ui_buf *b, const struct ui_field *f, enum ui_quote q)
{
	char tmp[24];

	switch (f->type) {
	case UI_V_NULL:
		if (q == UI_Q_JSON)
			ui_buf_put(b, "null", 4);
		break;
	case UI_V_INT:
		ui_buf_put(b, tmp, ptop_fmt_i64(f->i, tmp, sizeof(tmp)));
		break;
	case UI_V_NUM:
		if (isfinite(f->d))
			ui_buf_fixed(b, f->d, f->prec);
		else if (q == UI_Q_JSON)	/* JSON has no NaN */
			ui_buf_put(b, "null", 4);
		break;
	case UI_V_BOOL:
		if (f->b)
			ui_buf_put(b, "true", 4);
		else
			ui_buf_put(b, "false", 5);
		break;
	case UI_V_STR:
		ui_buf_str(b, f->s, q);
		break;
	case UI_V_LIST:
		put_list(b, f->str_buf, q);
		break;
	}
}

void ui_emit_str(FILE *out, const char *s, enum ui_quote q)
{
	struct ui_buf b;

	ui_buf_init(&b, out);
	ui_buf_str(&b, s, q);
	ui_buf_flush(&b);
}

void ui_emit_strn(FILE *out, const char *s, size_t max, enum ui_quote q)
{
	struct ui_buf b;

	ui_buf_init(&b, out);
	put_quoted(&b, (const unsigned char *)s, strnlen(s, max), q);
	ui_buf_flush(&b);
}

void ui_emit_value(FILE *out, const struct ui_field *f, enum ui_quote q)
{
	struct ui_buf b;

	ui_buf_init(&b, out);
	ui_buf_value(&b, f, q);
	ui_buf_flush(&b);
}
