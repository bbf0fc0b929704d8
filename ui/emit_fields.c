// SPDX-License-Identifier: GPL-2.0
/*
 * The fields every batch format shares, in one order: the interval's
 * (schema, times, verdict, system parts) and a row's (kind, tree place,
 * one per shown column), each a typed value (emit.h).
 */
#include <stdio.h>
#include <string.h>

#include "view.h"
#include "emit.h"

/*
 * The version of the machine formats' field set (JSON "schema", a CSV
 * column, OpenMetrics ptop_schema): raised when a field changes meaning
 * or goes away; new fields may appear without a raise.
 */
#define UI_SCHEMA 1
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

/* the times and the verdict: schema .. lost */
static void iv_field_verdict(const struct ui_emit *e, enum iv_field_id id,
			     struct ui_field *f)
{
	const struct ptop_interval *iv = e->iv;

	switch (id) {
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
	default:	/* IVF_LOST */
		set_int(f, iv->verdict.nlost);
		break;
	}
}

/* the system parts: accounted .. exit_paths */
static void iv_field_parts(const struct ui_emit *e, enum iv_field_id id,
			   struct ui_field *f)
{
	const struct ptop_interval *iv = e->iv;

	switch (id) {
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
	default:	/* IVF_EXIT_PATHS */
		/* null where a source's rows have them (lib/verdict.h) */
		if (iv->caps & PTOP_CAP_EXIT_TAIL)
			pct_field(e, f, iv->verdict.exit_paths_ns);
		else
			f->type = UI_V_NULL;
		break;
	}
}

bool ui_emit_iv_field(const struct ui_emit *e, size_t i, struct ui_field *f)
{
	if (i >= IVF__COUNT)
		return false;
	f->name = iv_field_names[i];
	if (i < IVF_ACCOUNTED)
		iv_field_verdict(e, (enum iv_field_id)i, f);
	else
		iv_field_parts(e, (enum iv_field_id)i, f);
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
