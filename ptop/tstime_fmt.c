// SPDX-License-Identifier: GPL-2.0
/*
 * tstime output: the default report, POSIX -p, GNU time style -f formats,
 * JSON, and the --tree breakdown. Times are printed in seconds with
 * microsecond precision.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "tstime.h"

static uint64_t cpu_ns(const struct tstime_result *r)
{
	return r->user_ns + r->sys_ns + (r->has_steal ? r->steal_ns : 0);
}

static double cpu_pct(const struct tstime_result *r)
{
	return r->real_ns ? 100.0 * (double)cpu_ns(r) / (double)r->real_ns : 0;
}

/* ns as seconds with 6 decimals, rounded to the microsecond (as %.6f) */
static void put_s(FILE *f, uint64_t ns)
{
	ns = (ns + 500) / 1000 * 1000;
	fprintf(f, "%llu.%06llu", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL / 1000));
}

/* [h:]m:ss.uuuuuu */
static void put_elapsed(FILE *f, uint64_t ns)
{
	uint64_t us = (ns + 500) / 1000, s = us / 1000000, h = s / 3600;

	if (h)
		fprintf(f, "%llu:%02llu:%02llu.%06llu", (unsigned long long)h,
			(unsigned long long)(s / 60 % 60),
			(unsigned long long)(s % 60),
			(unsigned long long)(us % 1000000));
	else
		fprintf(f, "%llu:%02llu.%06llu", (unsigned long long)(s / 60),
			(unsigned long long)(s % 60),
			(unsigned long long)(us % 1000000));
}

static void put_count(FILE *f, int64_t v)
{
	if (v < 0)
		fputc('-', f);
	else
		fprintf(f, "%lld", (long long)v);
}

static void put_cmdline(FILE *f, char *const *argv)
{
	for (int i = 0; argv && argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
}

/* The directives tstime knows; GNU time's letters keep their meaning. */
static const char fmt_directives[] = "eEUSPMxCTnNG%";

int tstime_fmt_check(const char *fmt, char *err, size_t errlen)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p == '%') {
			if (!p[1] || !strchr(fmt_directives, p[1])) {
				snprintf(err, errlen, p[1] ?
					 "unknown format directive %%%c" :
					 "format ends with a lone %%", p[1]);
				return -EINVAL;
			}
			p++;
		} else if (*p == '\\') {
			if (!p[1] || !strchr("nt\\", p[1])) {
				snprintf(err, errlen, p[1] ?
					 "unknown escape \\%c" :
					 "format ends with a lone \\", p[1]);
				return -EINVAL;
			}
			p++;
		}
	}
	return 0;
}

static void fmt_directive(FILE *f, char d, const struct tstime_result *r)
{
	switch (d) {
	case 'e':
		put_s(f, r->real_ns);
		break;
	case 'E':
		put_elapsed(f, r->real_ns);
		break;
	case 'U':
		put_s(f, r->user_ns);
		break;
	case 'S':
		put_s(f, r->sys_ns);
		break;
	case 'T':
		if (r->has_steal)
			put_s(f, r->steal_ns);
		else
			fputc('-', f);
		break;
	case 'G':
		put_s(f, cpu_ns(r));
		break;
	case 'P':
		fprintf(f, "%.2f%%", cpu_pct(r));
		break;
	case 'M':
		put_count(f, r->max_rss_kb);
		break;
	case 'x':
		fprintf(f, "%d", r->exit_status);
		break;
	case 'C':
		put_cmdline(f, r->argv);
		break;
	case 'n':
		put_count(f, r->procs);
		break;
	case 'N':
		put_count(f, r->threads);
		break;
	case '%':
		fputc('%', f);
		break;
	}
}

void tstime_fmt_print(FILE *f, const char *fmt, const struct tstime_result *r)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p == '%' && p[1]) {
			fmt_directive(f, *++p, r);
		} else if (*p == '\\' && p[1]) {
			p++;
			fputc(*p == 'n' ? '\n' : *p == 't' ? '\t' : *p, f);
		} else {
			fputc(*p, f);
		}
	}
	fputc('\n', f);
}

void tstime_print_default(FILE *f, const struct tstime_result *r)
{
	if (r->signal)
		fprintf(f, "Command terminated by signal %d (%s)\n", r->signal,
			strsignal(r->signal));
	else if (r->exit_status)
		fprintf(f, "Command exited with non-zero status %d\n",
			r->exit_status);
	fputs("real     ", f);
	put_s(f, r->real_ns);
	fputs(" s\nuser     ", f);
	put_s(f, r->user_ns);
	fputs(" s\nsys      ", f);
	put_s(f, r->sys_ns);
	fputs(" s\nsteal    ", f);
	if (r->has_steal) {
		put_s(f, r->steal_ns);
		fputs(" s\n", f);
	} else {
		fputs("not measured\n", f);
	}
	fputs("cpu      ", f);
	put_s(f, cpu_ns(r));
	fprintf(f, " s  (%.2f%% of real)\n", cpu_pct(r));
	fputs("procs    ", f);
	put_count(f, r->procs);
	fputs(" processes, ", f);
	put_count(f, r->threads);
	fputs(" threads\nmax rss  ", f);
	put_count(f, r->max_rss_kb);
	fprintf(f, " KiB\nsource   %s (%s)\n", r->source,
		r->exact ? "exact" : "not exact");
}

void tstime_print_posix(FILE *f, const struct tstime_result *r)
{
	fprintf(f, "real %.6f\nuser %.6f\nsys %.6f\n", r->real_ns / 1e9,
		r->user_ns / 1e9, r->sys_ns / 1e9);
}

void tstime_print_tree(FILE *f, const struct tstime_result *r)
{
	uint64_t all = 0;
	size_t i;

	if (!r->tree_avail) {
		fprintf(f, "tree: not available (%s)\n",
			r->tree_note ? r->tree_note : r->source);
		return;
	}
	for (i = 0; i < r->ncomms; i++)
		all += r->comms[i].cpu_ns;
	fprintf(f, "%-16s %8s %8s %14s %7s\n", "COMMAND", "PROCS", "THREADS",
		"CPU(s)", "SHARE");
	for (i = 0; i < r->ncomms; i++) {
		const struct ptop_tree_comm *c = &r->comms[i];

		fprintf(f, "%-16.16s %8llu %8llu %14.6f %6.2f%%\n", c->comm,
			(unsigned long long)c->procs,
			(unsigned long long)c->threads, c->cpu_ns / 1e9,
			all ? 100.0 * (double)c->cpu_ns / (double)all : 0.0);
	}
}

static void json_str(FILE *f, const char *s, size_t max)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < max && s[i]; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_int(FILE *f, const char *key, int64_t v)
{
	if (v < 0)
		fprintf(f, "\"%s\":null,", key);
	else
		fprintf(f, "\"%s\":%lld,", key, (long long)v);
}

void tstime_print_json(FILE *f, const struct tstime_result *r, int tree)
{
	uint64_t all = 0;
	size_t i;

	fprintf(f, "{\"real_s\":%.6f,\"user_s\":%.6f,\"sys_s\":%.6f,",
		r->real_ns / 1e9, r->user_ns / 1e9, r->sys_ns / 1e9);
	if (r->has_steal)
		fprintf(f, "\"steal_s\":%.6f,", r->steal_ns / 1e9);
	else
		fputs("\"steal_s\":null,", f);
	fprintf(f, "\"cpu_s\":%.6f,\"cpu_pct\":%.2f,", cpu_ns(r) / 1e9,
		cpu_pct(r));
	json_int(f, "processes", r->procs);
	json_int(f, "threads", r->threads);
	json_int(f, "max_rss_kb", r->max_rss_kb);
	fprintf(f, "\"exit_status\":%d,", r->exit_status);
	json_int(f, "signal", r->signal ? r->signal : -1);
	fputs("\"source\":", f);
	json_str(f, r->source, 64);
	fprintf(f, ",\"exact\":%s,\"command\":[", r->exact ? "true" : "false");
	for (i = 0; r->argv && r->argv[i]; i++) {
		if (i)
			fputc(',', f);
		json_str(f, r->argv[i], (size_t)-1);
	}
	fputc(']', f);
	if (tree) {
		fputs(",\"tree\":", f);
		if (!r->tree_avail) {
			fputs("null", f);
		} else {
			for (i = 0; i < r->ncomms; i++)
				all += r->comms[i].cpu_ns;
			fputc('[', f);
			for (i = 0; i < r->ncomms; i++) {
				const struct ptop_tree_comm *c = &r->comms[i];

				fputs(i ? ",{\"comm\":" : "{\"comm\":", f);
				json_str(f, c->comm, PTOP_TS_COMM_LEN);
				fprintf(f, ",\"processes\":%llu,\"threads\":%llu,"
					"\"cpu_s\":%.6f,\"share_pct\":%.2f}",
					(unsigned long long)c->procs,
					(unsigned long long)c->threads,
					c->cpu_ns / 1e9,
					all ? 100.0 * (double)c->cpu_ns /
					(double)all : 0.0);
			}
			fputc(']', f);
		}
	}
	fputs("}\n", f);
}
