// SPDX-License-Identifier: GPL-2.0
/*
 * tstime --repeat: min, mean, median, max and the sample standard
 * deviation of each measured field over the runs (as hyperfine and
 * perf stat -r report them), in text and JSON. One table of fields; a
 * field one of the runs could not measure is "not measured" (null).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tstime.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int tstime_stat_of(double *v, size_t n, struct tstime_stat *st)
{
	double sum = 0, sq = 0;
	size_t i;

	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(v[i]))
			return -EINVAL;
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	st->n = n;
	st->min = v[0];
	st->max = v[n - 1];
	st->mean = sum / (double)n;
	st->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (i = 0; i < n; i++)
		sq += (v[i] - st->mean) * (v[i] - st->mean);
	st->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	/* rounding must not put the mean outside [min, max] */
	if (st->mean < st->min)
		st->mean = st->min;
	if (st->mean > st->max)
		st->mean = st->max;
	return 0;
}

/* One field of a result; 0 with *v, or -1 when it was not measured. */
typedef int (*field_get)(const struct tstime_result *r, double *v);

static int get_ns(uint64_t ns, double *v)
{
	*v = ns / 1e9;
	return 0;
}

static int get_count(int64_t c, double *v)
{
	if (c < 0)
		return -1;
	*v = (double)c;
	return 0;
}

static uint64_t all_cpu_ns(const struct tstime_result *r)
{
	return r->user_ns + r->sys_ns + (r->has_steal ? r->steal_ns : 0);
}

static int f_real(const struct tstime_result *r, double *v)
{
	return get_ns(r->real_ns, v);
}

static int f_user(const struct tstime_result *r, double *v)
{
	return get_ns(r->user_ns, v);
}

static int f_sys(const struct tstime_result *r, double *v)
{
	return get_ns(r->sys_ns, v);
}

static int f_steal(const struct tstime_result *r, double *v)
{
	return r->has_steal ? get_ns(r->steal_ns, v) : -1;
}

static int f_cpu(const struct tstime_result *r, double *v)
{
	return get_ns(all_cpu_ns(r), v);
}

static int f_cpu_pct(const struct tstime_result *r, double *v)
{
	*v = r->real_ns ? 100.0 * (double)all_cpu_ns(r) / (double)r->real_ns : 0;
	return 0;
}

static int f_rss(const struct tstime_result *r, double *v)
{
	return get_count(r->max_rss_kb, v);
}

static int f_procs(const struct tstime_result *r, double *v)
{
	return get_count(r->procs, v);
}

static int f_threads(const struct tstime_result *r, double *v)
{
	return get_count(r->threads, v);
}

static int f_minflt(const struct tstime_result *r, double *v)
{
	return get_count(r->ru.minflt, v);
}

static int f_majflt(const struct tstime_result *r, double *v)
{
	return get_count(r->ru.majflt, v);
}

static int f_nvcsw(const struct tstime_result *r, double *v)
{
	return get_count(r->ru.nvcsw, v);
}

static int f_nivcsw(const struct tstime_result *r, double *v)
{
	return get_count(r->ru.nivcsw, v);
}

static int f_inblock(const struct tstime_result *r, double *v)
{
	return get_count(r->ru.inblock, v);
}

static int f_oublock(const struct tstime_result *r, double *v)
{
	return get_count(r->ru.oublock, v);
}

static const struct rep_field {
	const char *key;	/* JSON name, as in tstime --json */
	const char *label;	/* text */
	int prec;		/* decimals in text */
	field_get get;
} rep_fields[] = {
	{ .key = "real_s", .label = "real s", .prec = 6, .get = f_real },
	{ .key = "user_s", .label = "user s", .prec = 6, .get = f_user },
	{ .key = "sys_s", .label = "sys s", .prec = 6, .get = f_sys },
	{ .key = "steal_s", .label = "steal s", .prec = 6, .get = f_steal },
	{ .key = "cpu_s", .label = "cpu s", .prec = 6, .get = f_cpu },
	{ .key = "cpu_pct", .label = "cpu %", .prec = 2, .get = f_cpu_pct },
	{ .key = "max_rss_kb", .label = "max rss KiB", .prec = 1, .get = f_rss },
	{ .key = "processes", .label = "processes", .prec = 1, .get = f_procs },
	{ .key = "threads", .label = "threads", .prec = 1, .get = f_threads },
	{ .key = "minor_faults", .label = "minor faults", .prec = 1, .get = f_minflt },
	{ .key = "major_faults", .label = "major faults", .prec = 1, .get = f_majflt },
	{ .key = "voluntary_ctxsw", .label = "vol ctxsw", .prec = 1, .get = f_nvcsw },
	{ .key = "involuntary_ctxsw", .label = "invol ctxsw", .prec = 1, .get = f_nivcsw },
	{ .key = "fs_inputs", .label = "fs inputs", .prec = 1, .get = f_inblock },
	{ .key = "fs_outputs", .label = "fs outputs", .prec = 1, .get = f_oublock },
};

#define NFIELDS (sizeof(rep_fields) / sizeof(rep_fields[0]))

/*
 * The values of one field over the runs, in run order, into v (n values);
 * -1 when a run did not measure it.
 */
static int field_values(const struct tstime_runs *rs, const struct rep_field *fd,
			double *v)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (fd->get(&rs->res[i], &v[i]))
			return -1;
	return 0;
}

static int runs_exact(const struct tstime_runs *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (!rs->res[i].exact)
			return 0;
	return rs->n > 0;
}

static void put_argv(FILE *f, char *const *argv)
{
	for (int i = 0; argv && argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
}

void tstime_print_repeat(FILE *f, const struct tstime_runs *rs)
{
	double *v = calloc(rs->n ? rs->n : 1, sizeof(*v));
	const struct tstime_result *last = &rs->res[rs->n - 1];
	struct tstime_stat st;
	size_t i;

	fprintf(f, "%zu run%s", rs->n, rs->n == 1 ? "" : "s");
	if (rs->n != rs->want)
		fprintf(f, " of %zu", rs->want);
	fprintf(f, " (%zu warmup) of: ", rs->warmup);
	put_argv(f, last->argv);
	fprintf(f, "\nsource %s (%s)\n", last->source,
		runs_exact(rs) ? "exact" : "not exact");
	fprintf(f, "%-14s %14s %14s %14s %14s %14s\n", "", "min", "mean",
		"median", "max", "stddev");
	for (i = 0; i < NFIELDS; i++) {
		const struct rep_field *fd = &rep_fields[i];

		if (!v || field_values(rs, fd, v) ||
		    tstime_stat_of(v, rs->n, &st)) {
			fprintf(f, "%-14s %s\n", fd->label, "not measured");
			continue;
		}
		fprintf(f, "%-14s %14.*f %14.*f %14.*f %14.*f %14.*f\n",
			fd->label, fd->prec, st.min, fd->prec, st.mean,
			fd->prec, st.median, fd->prec, st.max, fd->prec,
			st.stddev);
	}
	free(v);
}

void tstime_print_repeat_json(FILE *f, const struct tstime_runs *rs)
{
	double *v = calloc(rs->n ? rs->n : 1, sizeof(*v));
	double *sorted = calloc(rs->n ? rs->n : 1, sizeof(*sorted));
	const struct tstime_result *last = &rs->res[rs->n - 1];
	struct tstime_stat st;
	size_t i, j;

	fprintf(f, "{\"runs\":%zu,\"requested_runs\":%zu,\"warmup\":%zu,"
		"\"source\":", rs->n, rs->want, rs->warmup);
	tstime_json_str(f, last->source, SIZE_MAX);
	fprintf(f, ",\"exact\":%s,\"exit_status\":%d,\"command\":[",
		runs_exact(rs) ? "true" : "false", last->exit_status);
	for (i = 0; last->argv && last->argv[i]; i++) {
		if (i)
			fputc(',', f);
		tstime_json_str(f, last->argv[i], SIZE_MAX);
	}
	fputs("],\"stats\":{", f);
	for (i = 0; i < NFIELDS; i++) {
		const struct rep_field *fd = &rep_fields[i];

		fprintf(f, "%s\"%s\":", i ? "," : "", fd->key);
		if (!v || !sorted || field_values(rs, fd, v)) {
			fputs("null", f);
			continue;
		}
		memcpy(sorted, v, rs->n * sizeof(*v));
		if (tstime_stat_of(sorted, rs->n, &st)) {
			fputs("null", f);
			continue;
		}
		fprintf(f, "{\"min\":%.9g,\"mean\":%.9g,\"median\":%.9g,"
			"\"max\":%.9g,\"stddev\":%.9g,\"values\":[", st.min,
			st.mean, st.median, st.max, st.stddev);
		for (j = 0; j < rs->n; j++)
			fprintf(f, "%s%.9g", j ? "," : "", v[j]);
		fputs("]}", f);
	}
	fputs("}}\n", f);
	free(v);
	free(sorted);
}
