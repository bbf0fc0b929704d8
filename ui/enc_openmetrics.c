// SPDX-License-Identifier: GPL-2.0
/*
 * --format=openmetrics: one OpenMetrics exposition per interval, ending in
 * "# EOF", for node_exporter's textfile collector (write it with -n 1 to a
 * temporary file and rename it to *.prom) or any OpenMetrics reader.
 *
 * Every metric is a gauge over the interval just measured (no sample
 * timestamps: the textfile collector refuses them):
 *   ptop_process_cpu_seconds{pid,comm,user,mode}  CPU seconds by mode
 *     (user, system, steal, and the same for dead children and dead
 *     threads) of the first --top rows in sort order (default 10); every
 *     other task is summed into comm="other", so the series stay bounded;
 *   ptop_system_cpu_seconds{part}  idle, iowait, and steal and irq when
 *     the kernel keeps them apart from tasks;
 *   ptop_accounted_ratio  processes + system parts over ncpu x interval.
 * A mode the source cannot measure is left out, never a made-up 0.
 */
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "emit.h"

/* the process modes: a time column each, its label value */
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
#define N_MODES (sizeof(modes) / sizeof(modes[0]))

/* the verdict's reasons as bounded label values */
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
#define N_WHY (sizeof(why) / sizeof(why[0]))

/* the rows past --top, summed per mode */
struct om_other {
	uint64_t ns[N_MODES];
	bool have[N_MODES];	/* some folded row has this mode */
	size_t nrows;
};

static uint64_t ns_of(const struct ptop_row *r, int col)
{
	return ptop_col_value(&ptop_cols[col], r);
}

static void family(struct ui_buf *b, const char *name, const char *unit,
		   const char *help)
{
	ui_buf_puts(b, "# TYPE ");
	ui_buf_puts(b, name);
	ui_buf_puts(b, " gauge\n");
	if (unit) {
		ui_buf_puts(b, "# UNIT ");
		ui_buf_puts(b, name);
		ui_buf_putc(b, ' ');
		ui_buf_puts(b, unit);
		ui_buf_putc(b, '\n');
	}
	ui_buf_puts(b, "# HELP ");
	ui_buf_puts(b, name);
	ui_buf_putc(b, ' ');
	ui_buf_puts(b, help);
	ui_buf_putc(b, '\n');
}

static void gauge(struct ui_buf *b, const char *name, const char *unit,
		  const char *help, double v)
{
	family(b, name, unit, help);
	ui_buf_puts(b, name);
	ui_buf_putc(b, ' ');
	/* seconds and ratios to the ns; the rest are counts */
	ui_buf_fixed(b, v, unit ? 9 : 0);
	ui_buf_putc(b, '\n');
}

/* a sample's value: ns as seconds, "%.9f" */
static void seconds(struct ui_buf *b, uint64_t ns)
{
	ui_buf_fixed(b, ns / 1e9, 9);
	ui_buf_putc(b, '\n');
}

static void om_begin(struct ui_emit *e)
{
	e->priv = calloc(1, sizeof(struct om_other));
}

static void om_interval(struct ui_emit *e)
{
	const struct ptop_interval *iv = e->iv;
	struct om_other *other = e->priv;
	struct ui_buf b;

	if (other)
		memset(other, 0, sizeof(*other));
	ui_buf_init(&b, e->out);
	family(&b, "ptop_info", NULL,
	       "ptop's source, version and output schema (value 1).");
	ui_buf_puts(&b, "ptop_info{source=");
	ui_buf_str(&b, e->o->source ? e->o->source : "", UI_Q_LABEL);
	ui_buf_puts(&b, ",version=\"" PTOP_VERSION "\",schema=\"1\"} 1\n");
	gauge(&b, "ptop_interval_seconds", "seconds",
	      "Length of the interval the other ptop metrics cover.",
	      iv->interval_ns / 1e9);
	gauge(&b, "ptop_interval_end_timestamp_seconds", "seconds",
	      "When the interval ended, seconds since the epoch.",
	      e->wall.tv_sec + e->wall.tv_nsec / 1e9);
	gauge(&b, "ptop_cpus", NULL, "CPUs the capacity counts (ncpu).",
	      iv->ncpu);
	family(&b, "ptop_process_cpu_seconds", "seconds",
	       "CPU seconds of a process in the interval by mode (children_*: its descendants that died in it, dead_threads_*: its threads that died in it); the first --top processes in sort order, the others summed in comm=\"other\".");
	ui_buf_flush(&b);
}

static void om_row(struct ui_emit *e, const struct ptop_row *r)
{
	struct om_other *other = e->priv;
	char user[64];
	struct ui_buf b;
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
	ui_buf_init(&b, e->out);
	for (m = 0; m < N_MODES; m++) {
		if (ptop_col_missing(&ptop_cols[modes[m].col], r))
			continue;
		ui_buf_puts(&b, "ptop_process_cpu_seconds{pid=\"");
		ui_buf_u64(&b, r->pid);
		ui_buf_puts(&b, "\",comm=");
		ui_buf_str(&b, r->comm, UI_Q_LABEL);
		ui_buf_puts(&b, ",user=");
		ui_buf_str(&b, user, UI_Q_LABEL);
		ui_buf_puts(&b, ",mode=\"");
		ui_buf_puts(&b, modes[m].mode);
		ui_buf_puts(&b, "\"} ");
		seconds(&b, ns_of(r, modes[m].col));
	}
	ui_buf_flush(&b);
}

static void system_part(struct ui_buf *b, const char *part, uint64_t ns)
{
	ui_buf_puts(b, "ptop_system_cpu_seconds{part=\"");
	ui_buf_puts(b, part);
	ui_buf_puts(b, "\"} ");
	seconds(b, ns);
}

static void om_sum(struct ui_emit *e, const struct ptop_row *sum)
{
	const struct ptop_interval *iv = e->iv;
	struct om_other *other = e->priv;
	uint64_t cap = ptop_interval_capacity_ns(iv);
	struct ui_buf b, *out = &b;
	size_t m;

	ui_buf_init(&b, e->out);
	for (m = 0; other && other->nrows && m < N_MODES; m++)
		if (other->have[m]) {
			ui_buf_puts(out, "ptop_process_cpu_seconds{comm=\"other\",mode=\"");
			ui_buf_puts(out, modes[m].mode);
			ui_buf_puts(out, "\"} ");
			seconds(out, other->ns[m]);
		}
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
	for (m = 0; m < N_WHY; m++) {
		ui_buf_puts(out, "ptop_inexact{reason=\"");
		ui_buf_puts(out, why[m].reason);
		ui_buf_puts(out, iv->verdict.why & why[m].bit ? "\"} 1\n" :
								"\"} 0\n");
	}
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
	ui_buf_puts(out, "# EOF\n");
	ui_buf_flush(&b);
}

static void om_end(struct ui_emit *e)
{
	free(e->priv);
	e->priv = NULL;
}

const struct ui_encoder ui_enc_openmetrics = {
	.name = "openmetrics",
	.help = "OpenMetrics text (node_exporter textfile): CPU seconds of the top processes, the rest as \"other\", the system parts, # EOF",
	.order = 30,
	.default_top = 10,
	.folds_rest = true,
	/* a second exposition after "# EOF" makes a parser refuse the file */
	.one_interval = true,
	.begin = om_begin,
	.interval = om_interval,
	.row = om_row,
	.sum = om_sum,
	.end = om_end,
};
