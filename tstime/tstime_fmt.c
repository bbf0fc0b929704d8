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
#include <unistd.h>

#include "tstime.h"
#include "ui/emit.h"

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

/* "exact" or "inexact: within ±X% (why)", ptop's headline words */
static const char *verdict(const struct tstime_result *r)
{
	if (r->verdict[0])
		return r->verdict;
	return r->exact ? "exact" : "not exact";
}

static void put_count(FILE *f, int64_t v)
{
	if (v < 0)
		fputc('-', f);
	else
		fprintf(f, "%lld", (long long)v);
}

static int64_t page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? n : -1;
}

/*
 * GNU time's "average size": an integral of KiB over clock ticks of CPU
 * time, divided by those ticks. Linux never fills the integrals: 0.
 */
static int64_t ru_avg_kb(const struct tstime_result *r, int64_t integral)
{
	uint64_t ticks = (r->user_ns + r->sys_ns) / 10000000ULL;

	return ticks ? integral / (int64_t)ticks : 0;
}

static void put_cmdline(FILE *f, char *const *argv)
{
	for (int i = 0; argv && argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
}

/*
 * The directives tstime knows: all of GNU time's, same letters, same
 * meaning (the rusage counters as wait4() gives them), plus its own
 * (%T steal, %G total CPU, %n processes, %N threads).
 */
static const char fmt_directives[] = "eEUSPMxCTnNGcwFRIOWkrsZDpXKt%";

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
	case 'c':
		put_count(f, r->ru.nivcsw);
		break;
	case 'w':
		put_count(f, r->ru.nvcsw);
		break;
	case 'F':
		put_count(f, r->ru.majflt);
		break;
	case 'R':
		put_count(f, r->ru.minflt);
		break;
	case 'I':
		put_count(f, r->ru.inblock);
		break;
	case 'O':
		put_count(f, r->ru.oublock);
		break;
	case 'W':
		put_count(f, r->ru.nswap);
		break;
	case 'k':
		put_count(f, r->ru.nsignals);
		break;
	case 'r':
		put_count(f, r->ru.msgrcv);
		break;
	case 's':
		put_count(f, r->ru.msgsnd);
		break;
	case 'Z':
		put_count(f, page_size());
		break;
	case 'D':
		put_count(f, ru_avg_kb(r, r->ru.idrss + r->ru.isrss));
		break;
	case 'p':
		put_count(f, ru_avg_kb(r, r->ru.isrss));
		break;
	case 'X':
		put_count(f, ru_avg_kb(r, r->ru.ixrss));
		break;
	case 'K':
		put_count(f, ru_avg_kb(r, r->ru.ixrss + r->ru.idrss + r->ru.isrss));
		break;
	case 't':
		put_count(f, ru_avg_kb(r, r->ru.idrss));
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
	fprintf(f, " KiB\nsource   %s (%s)\n", r->source, verdict(r));
	if (r->total_from)
		fprintf(f, "total    from %s\n", r->total_from);
	if (r->total_from) {
		fputs("own      ", f);
		put_s(f, r->own_ns);
		fputs(" s (tstime itself, not in the total)\n", f);
	}
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
	all += r->exit_paths_ns;
	fprintf(f, "%-16s %8s %8s %14s %14s %14s %7s\n", "COMMAND", "PROCS",
		"THREADS", "USER(s)", "SYS(s)", "CPU(s)", "SHARE");
	for (i = 0; i < r->ncomms; i++) {
		const struct ptop_tree_comm *c = &r->comms[i];

		fprintf(f, "%-16.16s %8llu %8llu %14.6f %14.6f %14.6f %6.2f%%\n",
			c->comm, (unsigned long long)c->procs,
			(unsigned long long)c->threads, c->user_ns / 1e9,
			c->sys_ns / 1e9, c->cpu_ns / 1e9,
			all ? 100.0 * (double)c->cpu_ns / (double)all : 0.0);
	}
	/* what the kernel counted and no record explains: not lost */
	if (r->exit_paths_ns)
		fprintf(f, "%-50s %14.6f %6.2f%%\n",
			"exit paths (not attributable on this kernel)",
			r->exit_paths_ns / 1e9,
			100.0 * (double)r->exit_paths_ns / (double)all);
	if (r->total_from) {
		fputs("total ", f);
		put_s(f, cpu_ns(r));
		fprintf(f, " s from %s (%s)\n", r->total_from, verdict(r));
	}
}

void tstime_json_str(FILE *f, const char *s, size_t max)
{
	/* ptop's writer: bytes that are not UTF-8 become the text \xNN */
	ui_emit_strn(f, s, max, UI_Q_JSON);
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
	json_int(f, "minor_faults", r->ru.minflt);
	json_int(f, "major_faults", r->ru.majflt);
	json_int(f, "voluntary_ctxsw", r->ru.nvcsw);
	json_int(f, "involuntary_ctxsw", r->ru.nivcsw);
	json_int(f, "fs_inputs", r->ru.inblock);
	json_int(f, "fs_outputs", r->ru.oublock);
	fprintf(f, "\"exit_status\":%d,", r->exit_status);
	json_int(f, "signal", r->signal ? r->signal : -1);
	fputs("\"source\":", f);
	tstime_json_str(f, r->source, 64);
	fprintf(f, ",\"exact\":%s,", r->exact ? "true" : "false");
	if (r->total_from) {
		fputs("\"verdict\":", f);
		tstime_json_str(f, verdict(r), sizeof(r->verdict));
		fputs(",\"total_from\":", f);
		tstime_json_str(f, r->total_from, 16);
		if (r->has_counter)
			fprintf(f, ",\"counter_s\":%.6f", r->counter_ns / 1e9);
		else
			fputs(",\"counter_s\":null", f);
		fprintf(f, ",\"rusage_s\":%.6f", r->rusage_ns / 1e9);
		if (r->has_records)
			fprintf(f, ",\"records_s\":%.6f", r->records_ns / 1e9);
		else
			fputs(",\"records_s\":null", f);
		fprintf(f, ",\"exit_paths_s\":%.6f,\"own_cpu_s\":%.6f,",
			r->exit_paths_ns / 1e9, r->own_ns / 1e9);
	}
	fputs("\"command\":[", f);
	for (i = 0; r->argv && r->argv[i]; i++) {
		if (i)
			fputc(',', f);
		tstime_json_str(f, r->argv[i], (size_t)-1);
	}
	fputc(']', f);
	if (tree) {
		fputs(",\"tree\":", f);
		if (!r->tree_avail) {
			fputs("null", f);
		} else {
			for (i = 0; i < r->ncomms; i++)
				all += r->comms[i].cpu_ns;
			all += r->exit_paths_ns;
			fputc('[', f);
			for (i = 0; i < r->ncomms; i++) {
				const struct ptop_tree_comm *c = &r->comms[i];

				fputs(i ? ",{\"comm\":" : "{\"comm\":", f);
				tstime_json_str(f, c->comm, PTOP_TS_COMM_LEN);
				fprintf(f, ",\"processes\":%llu,\"threads\":%llu,"
					"\"user_s\":%.6f,\"sys_s\":%.6f,"
					"\"cpu_s\":%.6f,\"share_pct\":%.2f}",
					(unsigned long long)c->procs,
					(unsigned long long)c->threads,
					c->user_ns / 1e9, c->sys_ns / 1e9,
					c->cpu_ns / 1e9,
					all ? 100.0 * (double)c->cpu_ns /
					(double)all : 0.0);
			}
			fputc(']', f);
		}
	}
	fputs("}\n", f);
}

/*
 * GNU time -v: its lines and labels, so that what parses GNU's report
 * parses this one (times with 6 decimals instead of 2), then tstime's own.
 */
void tstime_print_verbose(FILE *f, const struct tstime_result *r)
{
	int64_t rss_all = r->ru.ixrss + r->ru.idrss + r->ru.isrss;

	if (r->signal)
		fprintf(f, "Command terminated by signal %d\n", r->signal);
	else if (r->exit_status)
		fprintf(f, "Command exited with non-zero status %d\n",
			r->exit_status);
	fputs("\tCommand being timed: \"", f);
	put_cmdline(f, r->argv);
	fputs("\"\n\tUser time (seconds): ", f);
	put_s(f, r->user_ns);
	fputs("\n\tSystem time (seconds): ", f);
	put_s(f, r->sys_ns);
	fprintf(f, "\n\tPercent of CPU this job got: %.0f%%\n", cpu_pct(r));
	fputs("\tElapsed (wall clock) time (h:mm:ss or m:ss): ", f);
	put_elapsed(f, r->real_ns);
	fprintf(f, "\n\tAverage shared text size (kbytes): %lld\n",
		(long long)ru_avg_kb(r, r->ru.ixrss));
	fprintf(f, "\tAverage unshared data size (kbytes): %lld\n",
		(long long)ru_avg_kb(r, r->ru.idrss));
	fprintf(f, "\tAverage stack size (kbytes): %lld\n",
		(long long)ru_avg_kb(r, r->ru.isrss));
	fprintf(f, "\tAverage total size (kbytes): %lld\n",
		(long long)ru_avg_kb(r, rss_all));
	fputs("\tMaximum resident set size (kbytes): ", f);
	put_count(f, r->max_rss_kb);
	fprintf(f, "\n\tAverage resident set size (kbytes): %lld\n",
		(long long)ru_avg_kb(r, r->ru.idrss));
	fprintf(f, "\tMajor (requiring I/O) page faults: %lld\n",
		(long long)r->ru.majflt);
	fprintf(f, "\tMinor (reclaiming a frame) page faults: %lld\n",
		(long long)r->ru.minflt);
	fprintf(f, "\tVoluntary context switches: %lld\n",
		(long long)r->ru.nvcsw);
	fprintf(f, "\tInvoluntary context switches: %lld\n",
		(long long)r->ru.nivcsw);
	fprintf(f, "\tSwaps: %lld\n", (long long)r->ru.nswap);
	fprintf(f, "\tFile system inputs: %lld\n", (long long)r->ru.inblock);
	fprintf(f, "\tFile system outputs: %lld\n", (long long)r->ru.oublock);
	fprintf(f, "\tSocket messages sent: %lld\n", (long long)r->ru.msgsnd);
	fprintf(f, "\tSocket messages received: %lld\n",
		(long long)r->ru.msgrcv);
	fprintf(f, "\tSignals delivered: %lld\n", (long long)r->ru.nsignals);
	fprintf(f, "\tPage size (bytes): %lld\n", (long long)page_size());
	fprintf(f, "\tExit status: %d\n", r->signal ? 0 : r->exit_status);
	/* tstime's own */
	fputs("\tSteal time (seconds): ", f);
	if (r->has_steal)
		put_s(f, r->steal_ns);
	else
		fputs("not measured", f);
	fputs("\n\tTotal CPU time (seconds): ", f);
	put_s(f, cpu_ns(r));
	fputs("\n\tProcesses started: ", f);
	put_count(f, r->procs);
	fputs("\n\tThreads started: ", f);
	put_count(f, r->threads);
	fprintf(f, "\n\tSource: %s (%s)\n", r->source, verdict(r));
	if (!r->total_from)
		return;
	fprintf(f, "\tTotal from: %s\n", r->total_from);
	fputs("\tExit paths, not attributable on this kernel (seconds): ", f);
	put_s(f, r->exit_paths_ns);
	fputs("\n\tOwn CPU time of tstime, not in the total (seconds): ", f);
	put_s(f, r->own_ns);
	fputc('\n', f);
}
