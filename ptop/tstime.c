// SPDX-License-Identifier: GPL-2.0
/*
 * tstime: time(1) for a whole process tree, exact, with a per-command
 * breakdown. argv, the order of things, output and exit status; see
 * man/tstime.1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tstime.h"

enum {
	OPT_SOURCE = 256,
	OPT_JSON,
	OPT_TREE,
	OPT_NO_WAIT,
};

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "append", no_argument, NULL, 'a' },
	{ "format", required_argument, NULL, 'f' },
	{ "portability", no_argument, NULL, 'p' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "no-wait", no_argument, NULL, OPT_NO_WAIT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

struct tstime_opts {
	const char *out_path;
	int append;
	const char *format;
	int posix, json, tree, quiet, verbose, no_wait;
	const char *source;
};

static void usage(FILE *f)
{
	fputs("usage: tstime [options] command [args...]\n"
	      "Run command and report the CPU time of its whole process tree.\n"
	      "  -o, --output FILE    write the report to FILE (default stderr)\n"
	      "  -a, --append         append to FILE instead of overwriting\n"
	      "  -f, --format FORMAT  GNU time style format (%e %E %U %S %P %M\n"
	      "                       %x %C %T steal %G total CPU %n processes\n"
	      "                       %N threads %% \\n \\t)\n"
	      "  -p, --portability    POSIX format: real/user/sys\n"
	      "      --json           one JSON object\n"
	      "      --tree           CPU time per command name\n"
	      "      --source=NAME    kmod, taskstats or rusage (default: best)\n"
	      "      --no-wait        stop when the command exits\n"
	      "  -q, --quiet          no warnings\n"
	      "  -v, --verbose        say which source was used\n"
	      "  -h, --help, -V, --version\n", f);
}

static int parse_args(int argc, char **argv, struct tstime_opts *o)
{
	char err[128];
	int c;

	while ((c = getopt_long(argc, argv, "+o:af:pqvhV", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			o->out_path = optarg;
			break;
		case 'a':
			o->append = 1;
			break;
		case 'f':
			if (tstime_fmt_check(optarg, err, sizeof(err))) {
				fprintf(stderr, "tstime: -f: %s\n", err);
				return -EINVAL;
			}
			o->format = optarg;
			break;
		case 'p':
			o->posix = 1;
			break;
		case OPT_JSON:
			o->json = 1;
			break;
		case OPT_TREE:
			o->tree = 1;
			break;
		case OPT_SOURCE:
			o->source = optarg;
			break;
		case OPT_NO_WAIT:
			o->no_wait = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("tstime %s\n", PTOP_VERSION);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return -EINVAL;
	}
	return optind;
}

static void report(FILE *f, const struct tstime_opts *o,
		   const struct tstime_result *res)
{
	if (o->json) {
		tstime_print_json(f, res, o->tree);
		return;
	}
	if (o->format)
		tstime_fmt_print(f, o->format, res);
	else if (o->posix)
		tstime_print_posix(f, res);
	else
		tstime_print_default(f, res);
	if (o->tree)
		tstime_print_tree(f, res);
}

int main(int argc, char **argv)
{
	struct tstime_opts o = { 0 };
	struct tstime_result res;
	struct tstime_run run;
	struct tstime_src src;
	char err[512] = "";
	FILE *out = stderr;
	int first, ret, status;

	first = parse_args(argc, argv, &o);
	if (first < 0)
		return TSTIME_EXIT_ERR;
	if (o.out_path) {
		out = fopen(o.out_path, o.append ? "ae" : "we");
		if (!out) {
			fprintf(stderr, "tstime: %s: %s\n", o.out_path,
				strerror(errno));
			return TSTIME_EXIT_ERR;
		}
	}
	memset(&run, 0, sizeof(run));
	run.argv = argv + first;
	run.wait_orphans = !o.no_wait;
	ret = tstime_run_prepare(&run);
	if (ret) {
		fprintf(stderr, "tstime: cannot set up: %s\n", strerror(-ret));
		return TSTIME_EXIT_ERR;
	}
	ret = tstime_src_open(&src, o.source, o.tree, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tstime: %s\n", err);
		goto err_run;
	}
	if (o.verbose)
		fprintf(stderr, "tstime: source %s%s%s%s\n",
			tstime_src_name(&src), src.why[0] ? " (skipped " : "",
			src.why, src.why[0] ? ")" : "");
	ret = tstime_src_begin(&src, &run);
	if (ret) {
		fprintf(stderr, "tstime: source %s: %s\n",
			tstime_src_name(&src), strerror(-ret));
		goto err_src;
	}
	ret = tstime_run_start(&run);
	if (ret) {
		fprintf(stderr, "tstime: cannot start %s: %s\n", run.argv[0],
			strerror(-ret));
		goto err_src;
	}
	ret = tstime_run_wait(&run);
	if (ret) {
		fprintf(stderr, "tstime: waiting: %s\n", strerror(-ret));
		goto err_src;
	}
	if (run.exec_errno)
		fprintf(stderr, "tstime: cannot run %s: %s\n", run.argv[0],
			strerror(run.exec_errno));

	memset(&res, 0, sizeof(res));
	res.real_ns = run.t1_ns - run.t0_ns;
	res.argv = run.argv;
	status = tstime_run_exit_status(&run, &res.signal);
	res.exit_status = status;
	ret = tstime_src_end(&src, &run, &res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tstime: source %s: %s\n",
			tstime_src_name(&src), err);
		goto err_src;
	}
	if (o.verbose && src.info[0])
		fprintf(stderr, "tstime: %s: %s\n", tstime_src_name(&src),
			src.info);
	if (!o.quiet && src.warn[0])
		fprintf(stderr, "tstime: warning: %s\n", src.warn);
	report(out, &o, &res);
	tstime_src_close(&src);
	tstime_run_close(&run);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "tstime: %s: %s\n", o.out_path,
			strerror(errno));
		return TSTIME_EXIT_ERR;
	}
	return status;

err_src:
	tstime_src_close(&src);
err_run:
	tstime_run_close(&run);
	return TSTIME_EXIT_ERR;
}
