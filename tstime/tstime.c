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
#include <sys/resource.h>
#include <unistd.h>

#include "lib/caps.h"
#include "tstime.h"

enum {
	OPT_SOURCE = 256,
	OPT_JSON,
	OPT_TREE,
	OPT_NO_WAIT,
	OPT_WARMUP,
	OPT_EXPLAIN,
	OPT_DROP_CAPS,
	OPT_NO_CGROUP,
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
	{ "no-cgroup", no_argument, NULL, OPT_NO_CGROUP },
	{ "repeat", required_argument, NULL, 'r' },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "drop-capabilities", required_argument, NULL, OPT_DROP_CAPS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* --repeat and --warmup at most this many runs */
#define TSTIME_MAX_RUNS	1000000

struct tstime_opts {
	const char *out_path;
	int append;
	const char *format;
	const char *format_from;	/* "-f" or "TIME" */
	int posix, json, tree, quiet, verbose, explain, no_wait, no_cgroup;
	long repeat, warmup;		/* repeat 0: one plain run */
	const char *source;
	enum ptop_caps_mode caps;	/* --drop-capabilities, strict by default */
	struct tstime_how how;		/* the above, for tstime_measure() */
};

static void usage(FILE *f)
{
	fputs("usage: tstime [options] command [args...]\n"
	      "Run command and report the CPU time of its whole process tree.\n"
	      "  -o, --output FILE    write the report to FILE (default stderr)\n"
	      "  -a, --append         append to FILE instead of overwriting\n"
	      "  -f, --format FORMAT  GNU time style format (default: $TIME if\n"
	      "                       set); GNU time's directives (%e %E %U %S\n"
	      "                       %P %M %x %C %c %w %F %R %I %O %W %k %r %s\n"
	      "                       %Z %D %p %X %K %t) and %T steal, %G total\n"
	      "                       CPU, %n processes, %N threads, %% \\n \\t\n"
	      "  -p, --portability    POSIX format: real/user/sys\n"
	      "  -v, --verbose        the full report, as GNU time -v\n"
	      "      --json           one JSON object\n"
	      "      --tree           CPU time per command name (user, sys)\n"
	      "  -r, --repeat N       run the command N times: min, mean, median,\n"
	      "                       max and stddev of each field\n"
	      "      --warmup N       with --repeat: N unmeasured runs first\n"
	      "      --source=NAME    kmod, taskstats or rusage (default: best)\n"
	      "      --no-wait        stop when the command exits\n"
	      "      --no-cgroup      no cgroup of the run's own: the total from\n"
	      "                       wait4 and the per-task records\n"
	      "      --explain        say which source was used, and why\n"
	      "      --drop-capabilities=off|basic|strict\n"
	      "                       what tstime keeps once its source is open\n"
	      "                       (default strict: only what the source asks\n"
	      "                       for; the command is not limited)\n"
	      "  -q, --quiet          no warnings\n"
	      "  -h, --help, -V, --version\n", f);
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "tstime: %s (see tstime --help)\n", msg);
}

/* A run count: digits only, 1 to TSTIME_MAX_RUNS (0 allowed for warmup). */
static int parse_runs(const char *opt, const char *arg, long min, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || arg[0] == '+' ||
	    v < min || v > TSTIME_MAX_RUNS) {
		fprintf(stderr, "tstime: %s: '%s' is not a count from %ld to %d (see tstime --help)\n",
			opt, arg, min, TSTIME_MAX_RUNS);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* Check the report options against each other, and take $TIME. */
static int check_opts(struct tstime_opts *o)
{
	const char *time_env = getenv("TIME");
	char err[128];
	int nfmt = !!o->format + o->posix + o->json + o->verbose;

	if (nfmt > 1) {
		usage_error("-f, -p, -v and --json choose the report: give one");
		return -EINVAL;
	}
	if (o->warmup && !o->repeat) {
		usage_error("--warmup needs --repeat");
		return -EINVAL;
	}
	if (o->repeat && (o->format || o->posix || o->verbose || o->tree)) {
		usage_error("--repeat reports statistics (text or --json); -f, -p, -v and --tree report one run");
		return -EINVAL;
	}
	/* GNU time: $TIME is the format when no option chose another */
	if (!nfmt && !o->repeat && time_env) {
		if (tstime_fmt_check(time_env, err, sizeof(err))) {
			fprintf(stderr, "tstime: TIME environment variable: %s (unset it, or give -f)\n",
				err);
			return -EINVAL;
		}
		o->format = time_env;
		o->format_from = "TIME";
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct tstime_opts *o)
{
	char err[128];
	int c;

	while ((c = getopt_long(argc, argv, "+o:af:pr:qvhV", long_opts,
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
			o->format_from = "-f";
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
		case OPT_NO_CGROUP:
			o->no_cgroup = 1;
			break;
		case 'r':
			if (parse_runs("--repeat", optarg, 1, &o->repeat))
				return -EINVAL;
			break;
		case OPT_WARMUP:
			if (parse_runs("--warmup", optarg, 0, &o->warmup))
				return -EINVAL;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case OPT_EXPLAIN:
			o->explain = 1;
			break;
		case OPT_DROP_CAPS:
			c = ptop_caps_parse(optarg);
			if (c < 0) {
				fprintf(stderr, "tstime: bad --drop-capabilities '%s' (off, basic, strict)\n",
					optarg);
				return -EINVAL;
			}
			o->caps = c;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("tstime %s\n", PTOP_VERSION);
			exit(0);
		default:
			/* getopt named the option already */
			fputs("tstime: see tstime --help\n", stderr);
			return -EINVAL;
		}
	}
	if (optind >= argc) {
		usage_error("no command given");
		return -EINVAL;
	}
	if (check_opts(o))
		return -EINVAL;
	o->how = (struct tstime_how){
		.prog = "tstime",
		.source = o->source,
		.tree = o->tree,
		.no_cgroup = o->no_cgroup,
		.quiet = o->quiet,
		.caps = o->caps,
	};
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
	else if (o->verbose)
		tstime_print_verbose(f, res);
	else
		tstime_print_default(f, res);
	if (o->tree)
		tstime_print_tree(f, res);
}

static int run_once(const struct tstime_opts *o, struct tstime_run *run,
		    FILE *out)
{
	struct tstime_result res;
	struct tstime_src src;

	if (tstime_measure(&o->how, run, &src, &res, o->explain, 1))
		return TSTIME_EXIT_ERR;
	if (!o->quiet && src.warn[0])
		fprintf(stderr, "tstime: warning: %s\n", src.warn);
	report(out, o, &res);
	tstime_src_close(&src);
	return res.exit_status;
}

/*
 * --warmup W --repeat N: W runs unmeasured, then N measured ones. A run
 * that fails (non-zero exit, a signal) ends the series: the statistics of
 * the runs before it are reported, and its status is tstime's.
 */
static int run_repeat(const struct tstime_opts *o, struct tstime_run *run,
		      FILE *out)
{
	struct tstime_runs rs = {
		.want = (size_t)o->repeat,
		.warmup = (size_t)o->warmup,
	};
	char warn[sizeof(((struct tstime_src *)0)->warn)] = "";
	long i, total = o->warmup + o->repeat;
	struct tstime_result res;
	struct tstime_src src;
	int status = 0;

	rs.res = calloc((size_t)o->repeat, sizeof(*rs.res));
	if (!rs.res) {
		fprintf(stderr, "tstime: %s\n", strerror(ENOMEM));
		return TSTIME_EXIT_ERR;
	}
	for (i = 0; i < total; i++) {
		if (tstime_measure(&o->how, run, &src, &res,
				   o->explain && i == 0, i == 0)) {
			status = TSTIME_EXIT_ERR;
			break;
		}
		if (!warn[0] && src.warn[0])
			snprintf(warn, sizeof(warn), "%s", src.warn);
		tstime_src_close(&src);
		res.comms = NULL;
		res.ncomms = 0;
		if (res.exit_status) {
			status = res.exit_status;
			if (!o->quiet)
				fprintf(stderr, "tstime: %s run %ld of %ld %s %d; %zu measured runs before it\n",
					i < o->warmup ? "warmup" : "measured",
					i < o->warmup ? i + 1 : i - o->warmup + 1,
					i < o->warmup ? o->warmup : o->repeat,
					res.signal ? "was killed by signal" :
					"exited with status",
					res.signal ? res.signal : res.exit_status,
					rs.n);
			break;
		}
		if (i >= o->warmup)
			rs.res[rs.n++] = res;
	}
	if (!o->quiet && warn[0])
		fprintf(stderr, "tstime: warning: %s\n", warn);
	if (rs.n) {
		if (o->json)
			tstime_print_repeat_json(out, &rs);
		else
			tstime_print_repeat(out, &rs);
	}
	free(rs.res);
	return status;
}

int main(int argc, char **argv)
{
	struct tstime_opts o = { .caps = PTOP_CAPS_STRICT };
	struct tstime_run run;
	FILE *out = stderr;
	const char *base = strrchr(argv[0], '/');
	int first, ret, status;

	/* a "time" link: GNU time's command line and report */
	if (!strcmp(base ? base + 1 : argv[0], "time"))
		return tstime_gnu_main(argc, argv);
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
	status = o.repeat ? run_repeat(&o, &run, out) : run_once(&o, &run, out);
	tstime_run_close(&run);
	if (out != stderr && fclose(out)) {
		fprintf(stderr, "tstime: %s: %s\n", o.out_path,
			strerror(errno));
		return TSTIME_EXIT_ERR;
	}
	return status;
}
