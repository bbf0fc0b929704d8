// SPDX-License-Identifier: GPL-2.0
/*
 * tstime called as "time" (a link named time): GNU time's command line,
 * messages, report and exit status, byte for byte, with tstime's numbers
 * (the whole tree's CPU time, see man/tstime.1). Written from GNU time's
 * documented behaviour (its manual and what its test suite checks):
 *
 *   - options +af:o:pqvV, --help, --version; a bad one or no command: a
 *     message, "Try '... --help'", exit 125
 *   - the format: -v wins, else the last of -f and -p, else $TIME, else
 *     the default two lines; -v and -p run the command like any other
 *   - unless -q or -p, a line first when the command did not exit 0
 *   - %e %U %S %E with 2 decimals, truncated; %P an integer percent of
 *     whole milliseconds; %x the exit code (0 after a signal); %Tt %Tx
 *     %Tn %Ts %To how it ended; an unknown directive or escape is printed
 *     as ?%c or ?\c, a lone trailing % or \ as ? or ?\
 *   - exit status: the command's, 128 + N after signal N
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/caps.h"
#include "tstime.h"

static const char gnu_default_fmt[] =
	"%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k\n"
	"%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps";
static const char gnu_posix_fmt[] = "real %e\nuser %U\nsys %S";
static const char gnu_verbose_fmt[] =
	"\tCommand being timed: \"%C\"\n"
	"\tUser time (seconds): %U\n"
	"\tSystem time (seconds): %S\n"
	"\tPercent of CPU this job got: %P\n"
	"\tElapsed (wall clock) time (h:mm:ss or m:ss): %E\n"
	"\tAverage shared text size (kbytes): %X\n"
	"\tAverage unshared data size (kbytes): %D\n"
	"\tAverage stack size (kbytes): %p\n"
	"\tAverage total size (kbytes): %K\n"
	"\tMaximum resident set size (kbytes): %M\n"
	"\tAverage resident set size (kbytes): %t\n"
	"\tMajor (requiring I/O) page faults: %F\n"
	"\tMinor (reclaiming a frame) page faults: %R\n"
	"\tVoluntary context switches: %w\n"
	"\tInvoluntary context switches: %c\n"
	"\tSwaps: %W\n"
	"\tFile system inputs: %I\n"
	"\tFile system outputs: %O\n"
	"\tSocket messages sent: %s\n"
	"\tSocket messages received: %r\n"
	"\tSignals delivered: %k\n"
	"\tPage size (bytes): %Z\n"
	"\tExit status: %x";

static const struct option gnu_opts[] = {
	{ "append", no_argument, NULL, 'a' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "output", required_argument, NULL, 'o' },
	{ "output-file", required_argument, NULL, 'o' },
	{ "portability", no_argument, NULL, 'p' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* What one report needs: GNU's units, from tstime's result. */
struct gnu_report {
	const struct tstime_result *r;
	int status;			/* the wait status */
	long ut_s, ut_us, st_s, st_us;	/* user, sys as a timeval */
	long el_s, el_ns;		/* real as a timespec */
};

static void gnu_usage(FILE *f, const char *prog)
{
	fprintf(f, "Usage: %s [OPTIONS] COMMAND [ARG]...\n"
		"Run COMMAND, then print system resource usage of its whole process tree\n"
		"(tstime %s called as time: GNU time's options and report).\n\n"
		"  -a, --append              with -o FILE, append instead of overwriting\n"
		"  -f, --format=FORMAT       use the specified FORMAT instead of the default\n"
		"  -o, --output=FILE         write to FILE instead of STDERR\n"
		"  -p, --portability         print POSIX standard 1003.2 conformant string:\n"
		"                              real %%e\n"
		"                              user %%U\n"
		"                              sys %%S\n"
		"  -q, --quiet               do not print information about abnormal program\n"
		"                            termination (non-zero exit codes or signals)\n"
		"  -v, --verbose             print all resource usage information instead of\n"
		"                            the default format\n"
		"      --help                display this help and exit\n"
		"  -V, --version             output version information and exit\n\n"
		"Default output format:\n%s\n\nSee tstime(1).\n",
		prog, PTOP_VERSION, gnu_default_fmt);
}

static void try_help(const char *prog)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
}

/* gnulib's sig2str: the name without SIG, RTMIN+n / RTMAX-n; else -1 */
static int gnu_sig2str(int sig, char *buf, size_t len)
{
	const char *name = sigabbrev_np(sig);

	if (name) {
		snprintf(buf, len, "%s", name);
		return 0;
	}
	if (sig < SIGRTMIN || sig > SIGRTMAX)
		return -1;
	if (sig <= SIGRTMIN + (SIGRTMAX - SIGRTMIN) / 2)
		snprintf(buf, len, "RTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "RTMAX-%d", SIGRTMAX - sig);
	if (sig == SIGRTMIN || sig == SIGRTMAX)
		snprintf(buf, len, sig == SIGRTMIN ? "RTMIN" : "RTMAX");
	return 0;
}

/* %Tt %Tn %Ts %Tx %To: how the command ended; returns 0 at a lone %T */
static int gnu_T(FILE *f, char c, int st)
{
	char name[32];

	switch (c) {
	case 't':
		fputs(WIFSTOPPED(st) ? "stopped" : WIFSIGNALED(st) ?
		      "signalled" : "normal", f);
		break;
	case 'n':
		if (WIFSIGNALED(st))
			fprintf(f, "%d", WTERMSIG(st));
		break;
	case 's':
		if (!WIFSIGNALED(st))
			break;
		if (gnu_sig2str(WTERMSIG(st), name, sizeof(name)))
			fprintf(f, "(%d)", WTERMSIG(st));
		else
			fputs(name, f);
		break;
	case 'x':
		if (WIFEXITED(st))
			fprintf(f, "%d", WEXITSTATUS(st));
		break;
	case 'o':
		if (WIFEXITED(st) && !WEXITSTATUS(st))
			fputs("ok", f);
		break;
	case '\0':
		fputs("T=missing letter", f);
		return 0;
	default:
		fputs("T?=unknown", f);
	}
	return 1;
}

/* CPU milliseconds, each of user and sys truncated, as GNU sums them */
static unsigned long gnu_cpu_ms(const struct gnu_report *g)
{
	return (unsigned long)(g->ut_s * 1000 + g->ut_us / 1000 +
			       g->st_s * 1000 + g->st_us / 1000);
}

static void gnu_pct(FILE *f, const struct gnu_report *g)
{
	unsigned long r = (unsigned long)(g->el_s * 1000 + g->el_ns / 1000000);
	unsigned long us_r = (unsigned long)(g->el_ns / 1000);
	unsigned long us_v = (unsigned long)(g->ut_us + g->st_us);

	if (r)
		fprintf(f, "%lu%%", gnu_cpu_ms(g) * 100 / r);
	else if (us_r)
		fprintf(f, "%lu%%", us_v * 100 / us_r);
	else
		fputs("?%", f);
}

/* GNU's average sizes: an integral over ticks; Linux leaves them 0 */
static void gnu_avg(FILE *f, const struct gnu_report *g, int64_t integral)
{
	unsigned long ticks = gnu_cpu_ms(g) / 10;

	fprintf(f, "%lld", ticks ? (long long)(integral / (int64_t)ticks) : 0LL);
}

static void gnu_elapsed(FILE *f, const struct gnu_report *g)
{
	if (g->el_s >= 3600)
		fprintf(f, "%ld:%02ld:%02ld", g->el_s / 3600, g->el_s % 3600 / 60,
			g->el_s % 60);
	else
		fprintf(f, "%ld:%02ld.%02ld", g->el_s / 60, g->el_s % 60,
			g->el_ns / 10000000);
}

/* One directive d (after %); p points at it. Returns the chars used. */
static int gnu_directive(FILE *f, const char *p, const struct gnu_report *g)
{
	const struct tstime_result *r = g->r;
	const struct tstime_ru *ru = &r->ru;

	switch (*p) {
	case '%':
		fputc('%', f);
		break;
	case 'C':
		for (int i = 0; r->argv && r->argv[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", r->argv[i]);
		break;
	case 'D':
		gnu_avg(f, g, ru->idrss + ru->isrss);
		break;
	case 'E':
		gnu_elapsed(f, g);
		break;
	case 'F':
		fprintf(f, "%lld", (long long)ru->majflt);
		break;
	case 'I':
		fprintf(f, "%lld", (long long)ru->inblock);
		break;
	case 'K':
		gnu_avg(f, g, ru->idrss + ru->isrss + ru->ixrss);
		break;
	case 'M':
		fprintf(f, "%lld", (long long)(r->max_rss_kb > 0 ? r->max_rss_kb : 0));
		break;
	case 'O':
		fprintf(f, "%lld", (long long)ru->oublock);
		break;
	case 'P':
		gnu_pct(f, g);
		break;
	case 'R':
		fprintf(f, "%lld", (long long)ru->minflt);
		break;
	case 'S':
		fprintf(f, "%ld.%02ld", g->st_s, g->st_us / 10000);
		break;
	case 'T':
		return gnu_T(f, p[1], g->status) ? 2 : 1;
	case 'U':
		fprintf(f, "%ld.%02ld", g->ut_s, g->ut_us / 10000);
		break;
	case 'W':
		fprintf(f, "%lld", (long long)ru->nswap);
		break;
	case 'X':
		gnu_avg(f, g, ru->ixrss);
		break;
	case 'Z':
		fprintf(f, "%d", getpagesize());
		break;
	case 'c':
		fprintf(f, "%lld", (long long)ru->nivcsw);
		break;
	case 'e':
		fprintf(f, "%ld.%02ld", g->el_s, g->el_ns / 10000000);
		break;
	case 'k':
		fprintf(f, "%lld", (long long)ru->nsignals);
		break;
	case 'p':
		gnu_avg(f, g, ru->isrss);
		break;
	case 'r':
		fprintf(f, "%lld", (long long)ru->msgrcv);
		break;
	case 's':
		fprintf(f, "%lld", (long long)ru->msgsnd);
		break;
	case 't':
		gnu_avg(f, g, ru->idrss);
		break;
	case 'w':
		fprintf(f, "%lld", (long long)ru->nvcsw);
		break;
	case 'x':
		fprintf(f, "%d", WIFEXITED(g->status) ? WEXITSTATUS(g->status) : 0);
		break;
	case '\0':
		fputc('?', f);
		return 0;
	default:
		fprintf(f, "?%c", *p);
	}
	return 1;
}

static void gnu_print(FILE *f, const char *fmt, const struct gnu_report *g)
{
	const char *p = fmt;

	while (*p) {
		if (*p == '%') {
			p++;
			p += gnu_directive(f, p, g);
		} else if (*p == '\\') {
			p++;
			if (*p == 't' || *p == 'n' || *p == '\\')
				fputc(*p == 't' ? '\t' : *p == 'n' ? '\n' : '\\', f);
			else if (*p)
				fprintf(f, "?\\%c", *p);
			else
				fputs("?\\", f);
			if (*p)
				p++;
		} else {
			fputc(*p++, f);
		}
	}
	fputc('\n', f);
}

static void gnu_report(FILE *f, const char *fmt, int quiet,
		       const struct tstime_result *r, int status)
{
	struct gnu_report g = { .r = r, .status = status };

	g.ut_s = (long)(r->user_ns / 1000000000ULL);
	g.ut_us = (long)(r->user_ns % 1000000000ULL / 1000);
	g.st_s = (long)(r->sys_ns / 1000000000ULL);
	g.st_us = (long)(r->sys_ns % 1000000000ULL / 1000);
	g.el_s = (long)(r->real_ns / 1000000000ULL);
	g.el_ns = (long)(r->real_ns % 1000000000ULL);
	if (!quiet && fmt != gnu_posix_fmt) {
		if (WIFSIGNALED(status))
			fprintf(f, "Command terminated by signal %d\n",
				WTERMSIG(status));
		else if (WIFEXITED(status) && WEXITSTATUS(status))
			fprintf(f, "Command exited with non-zero status %d\n",
				WEXITSTATUS(status));
	}
	gnu_print(f, fmt, &g);
}

struct gnu_opts {
	const char *fmt, *out;
	int append, quiet, verbose;
};

/* argv as GNU time reads it; the command's index, or -1 (exit 125) */
static int gnu_args(int argc, char **argv, struct gnu_opts *o)
{
	int c;

	while ((c = getopt_long(argc, argv, "+af:o:pqvV", gnu_opts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			o->append = 1;
			break;
		case 'f':
			o->fmt = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'p':
			o->fmt = gnu_posix_fmt;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'h':
			gnu_usage(stdout, argv[0]);
			exit(0);
		case 'V':
			printf("time (tstime) %s\n", PTOP_VERSION);
			exit(0);
		default:
			try_help(argv[0]);
			return -1;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: missing program to run\n", argv[0]);
		try_help(argv[0]);
		return -1;
	}
	if (o->verbose)
		o->fmt = gnu_verbose_fmt;
	else if (!o->fmt)
		o->fmt = getenv("TIME") ? getenv("TIME") : gnu_default_fmt;
	return optind;
}

int tstime_gnu_main(int argc, char **argv)
{
	struct tstime_how how = {
		.prog = argv[0],
		.quiet = 1,		/* GNU's output only */
		.caps = PTOP_CAPS_STRICT,
	};
	struct gnu_opts o = { 0 };
	struct tstime_result res;
	struct tstime_src src;
	struct tstime_run run;
	FILE *out = stderr;
	int first, status, ret;

	first = gnu_args(argc, argv, &o);
	if (first < 0)
		return TSTIME_EXIT_ERR;
	if (o.out) {
		out = fopen(o.out, o.append ? "ae" : "we");
		if (!out) {
			fprintf(stderr, "%s: %s: %s\n", argv[0], o.out,
				strerror(errno));
			return TSTIME_EXIT_ERR;
		}
	}
	memset(&run, 0, sizeof(run));
	run.argv = argv + first;
	run.wait_orphans = 1;
	ret = tstime_run_prepare(&run);
	if (ret) {
		fprintf(stderr, "%s: cannot set up: %s\n", argv[0],
			strerror(-ret));
		return TSTIME_EXIT_ERR;
	}
	if (tstime_measure(&how, &run, &src, &res, 0, 1)) {
		tstime_run_close(&run);
		return TSTIME_EXIT_ERR;
	}
	gnu_report(out, o.fmt, o.quiet, &res, run.status);
	tstime_src_close(&src);
	tstime_run_close(&run);
	status = res.exit_status;
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "%s: write error: %s\n", argv[0],
			strerror(errno));
		return 1;
	}
	return status;
}
