// SPDX-License-Identifier: GPL-2.0
/* ptop's command line: the options, --help, the lists, --version. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "lib/col.h"
#include "lib/src.h"
#include "ui/emit.h"
#include "ptop.h"

enum {
	OPT_THREADS = 256,
	OPT_SOURCE,
	OPT_LIST_COLUMNS,
	OPT_LIST_SOURCES,
	OPT_EVENTS,
	OPT_TREE,
	OPT_NO_CONFIG,
	OPT_FORMAT,
	OPT_LIST_FORMATS,
	OPT_TOP,
	OPT_DROP_CAPS,
};

static const struct option long_opts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "delay", required_argument, NULL, 'd' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "columns", required_argument, NULL, 'o' },
	{ "sort", required_argument, NULL, 's' },
	{ "pid", required_argument, NULL, 'p' },
	{ "threads", no_argument, NULL, OPT_THREADS },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "tree", no_argument, NULL, OPT_TREE },
	{ "events", no_argument, NULL, OPT_EVENTS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "config", required_argument, NULL, 'c' },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "drop-capabilities", required_argument, NULL, OPT_DROP_CAPS },
	{ "list-columns", no_argument, NULL, OPT_LIST_COLUMNS },
	{ "list-sources", no_argument, NULL, OPT_LIST_SOURCES },
	{ "list-formats", no_argument, NULL, OPT_LIST_FORMATS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	char sources[128];

	ptop_src_names(sources, sizeof(sources), ", ");
	fprintf(f,
"Usage: ptop [options]\n"
"A precise top: every interval, the rows plus idle add up to ncpu x 100%%,\n"
"including the time of tasks that died inside the interval.\n"
"\n"
"  -b, --batch            batch output for scripts (default: interactive)\n"
"  -d, --delay=SECS       seconds between updates, fractional (default 2)\n"
"  -n, --iterations=N     stop after N intervals\n"
"  -o, --columns=LIST     columns to show, e.g. PID,user,sys,total,COMMAND\n"
"  -s, --sort=COL         sort by COL, descending; -s -COL sorts ascending\n"
"  -p, --pid=PID,...      show only these processes (rows; sums stay global)\n"
"      --threads          one row per thread instead of per process\n"
"      --source=NAME      auto, %s\n"
"      --tree             children under their parent: the interactive view\n"
"                         starts so, batch rows are indented (COMMAND)\n"
"      --events           log process events (fork, exec, exit, reparent)\n"
"                         with ns timestamps, from the ptop_taskstats module\n"
"      --format=FMT       batch output: %s\n"
"      --top=N            batch: the first N rows in sort order (openmetrics:\n"
"                         default 10, the rest summed as \"other\")\n"
"  -c, --config=FILE      read (and save to) FILE alone instead of /etc/ptoprc,\n"
"                         $XDG_CONFIG_DIRS/ptop/ptoprc and, over them,\n"
"                         $XDG_CONFIG_HOME/ptop/ptoprc (~/.config/ptop/ptoprc)\n"
"      --no-config        ignore the config file (built-in defaults)\n"
"      --drop-capabilities=off|basic|strict\n"
"                         after opening the source, keep only the capabilities\n"
"                         it needs (strict, default), also CAP_KILL (basic),\n"
"                         or all (off)\n"
"      --list-columns     the columns, with what each one means\n"
"      --list-sources     the sources and whether they work here\n"
"      --list-formats     the batch output formats\n"
"  -h, --help             this text\n"
"  -V, --version          version\n"
"\n"
"Options override the config file. Exit status: 0 ok, 1 runtime error,\n"
"2 usage error (also a broken config file).\n", sources,
		ui_format_names(", "));
}

/*
 * strtod takes "nan", "inf" and hex too: a NaN delay compares false with
 * every bound and would make the wait loop spin without output.
 */
static int parse_delay(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) ||
	    !(v >= 0.01 && v <= 86400))
		return -EINVAL;
	*out = v;
	return 0;
}

/* decimal digits only, 1 to COUNT_MAX (no sign, no overflow, no 1e3) */
#define COUNT_MAX	1000000000L
#define COUNT_MAX_STR	"1000000000"
static int parse_count(const char *s, long *out)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > COUNT_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_pids(struct ui_app *app, const char *list)
{
	const size_t max = sizeof(app->pids) / sizeof(app->pids[0]);
	char *copy = strdup(list), *tok, *save = NULL, *end;
	size_t n = app->view.npids;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long v;

		errno = 0;
		v = strtoul(tok, &end, 10);
		if (errno || *end || end == tok || !v || v > INT_MAX) {
			fprintf(stderr, "ptop: bad pid '%s' (1 to %d)\n", tok,
				INT_MAX);
			free(copy);
			return -EINVAL;
		}
		if (n == max) {
			/* the pid is fine: the list is what is too long */
			fprintf(stderr, "ptop: too many pids (at most %zu)\n",
				max);
			free(copy);
			return -E2BIG;
		}
		app->pids[n++] = v;
	}
	free(copy);
	app->view.pids = app->pids;
	app->view.npids = n;
	return 0;
}

static void list_columns(void)
{
	char line[512];
	int i;

	for (i = 0; i < PTOP_COL__COUNT; i++) {
		ptop_col_describe(i, line, sizeof(line));
		printf("%s\n", line);
	}
}

/* ptop's version and, when the module is loaded, its version and kernel */
static void print_version(void)
{
	char line[256], ver[64] = "", kern[128] = "";
	FILE *f = fopen("/proc/ptop_taskstats_state", "r");
	struct utsname u;

	printf("ptop %s\n", PTOP_VERSION);
	if (!f && errno == EACCES) {
		/* the state file is for root and the reader group only */
		f = fopen("/sys/module/ptop_taskstats/version", "r");
		if (f && fscanf(f, "%63s", ver) != 1)
			ver[0] = '\0';
		if (f)
			fclose(f);
		printf("module ptop_taskstats %s, built for kernel ? (its state file is for root and the reader group)\n",
		       ver[0] ? ver : "?");
		return;
	}
	if (!f) {
		printf("module ptop_taskstats: not loaded\n");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "version %63s", ver) == 1)
			continue;
		sscanf(line, "built_for %127s", kern);
	}
	fclose(f);
	if (uname(&u))
		u.release[0] = '\0';
	printf("module ptop_taskstats %s, built for kernel %s (running %s)\n",
	       ver[0] ? ver : "?", kern[0] ? kern : "?", u.release);
}

static void list_formats(void)
{
	const struct ui_encoder *const *l;

	for (l = ui_format_list(); *l; l++)
		printf("%-12s %s\n", (*l)->name, (*l)->help);
}

static void list_sources(void)
{
	const struct ptop_src_ops *const *l = ptop_src_list();
	struct ptop_src_cfg cfg = { .proc_root = "/proc" };

	for (; *l; l++) {
		struct ptop_src *src;
		char err[300];

		if (!ptop_src_open_ops(&src, *l, &cfg, err, sizeof(err))) {
			printf("%-13s ok      %s%s%s\n", (*l)->name, (*l)->desc,
			       src->note[0] ? "; " : "", src->note);
			ptop_src_close(src);
		} else {
			printf("%-13s no      %s\n", (*l)->name, err);
		}
	}
}

/* One line, exit status 2. */
int ptop_usage_error(const char *fmt, const char *what)
{
	fputs("ptop: ", stderr);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	return 2;
}

/* getopt's complaint, in our words: which option, and what was wrong */
static int bad_option(int ret, char **argv)
{
	const char *arg = optind > 1 ? argv[optind - 1] : "";
	const struct option *l;
	char name[64];
	size_t n;
	int prefix_of = 0;

	if (!strncmp(arg, "--", 2)) {
		/* a long option: getopt stepped over it */
		n = strcspn(arg, "=");
		snprintf(name, sizeof(name), "%.*s", (int)n, arg);
		for (l = long_opts; l->name && ret == '?'; l++)
			if (strlen(l->name) == n - 2 &&
			    !strncmp(l->name, arg + 2, n - 2) && arg[n] == '=')
				return ptop_usage_error("option '%s' takes no value (see ptop --help)",
						   name);
		for (l = long_opts; l->name; l++)
			prefix_of += n > 2 && !strncmp(l->name, arg + 2, n - 2);
	} else {
		snprintf(name, sizeof(name), "-%c", optopt);
	}
	if (ret == ':')
		return ptop_usage_error("option '%s' needs a value (see ptop --help)",
				   name);
	/* the usage text would bury the error: one line and a pointer */
	return ptop_usage_error(prefix_of > 1 ?
			   "ambiguous option '%s' (see ptop --help)" :
			   "unknown option '%s' (see ptop --help)", name);
}

/* --help, --version, a list: printed, 0; -1 for any other option */
static int info_option(int opt)
{
	switch (opt) {
	case OPT_LIST_COLUMNS:
		list_columns();
		return 0;
	case OPT_LIST_SOURCES:
		list_sources();
		return 0;
	case OPT_LIST_FORMATS:
		list_formats();
		return 0;
	case 'h':
		usage(stdout);
		return 0;
	case 'V':
		print_version();
		return 0;
	}
	return -1;
}

int ptop_parse_options(int argc, char **argv, struct ptop_opts *o,
			 struct ui_app *app)
{
	long top;
	int opt;

	opterr = 0;	/* bad_option() says it in one line */
	while ((opt = getopt_long(argc, argv, ":bd:n:o:s:p:c:hV", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'b':
			o->batch = true;
			break;
		case 'd':
			if (parse_delay(optarg, &app->delay_s))
				return ptop_usage_error("bad delay '%s' (0.01 to 86400 seconds)",
						   optarg);
			o->delay_set = true;
			break;
		case 'n':
			if (parse_count(optarg, &app->count))
				return ptop_usage_error("bad count '%s' (1 to " COUNT_MAX_STR ")",
						   optarg);
			break;
		case 'o':
			o->cols = optarg;
			break;
		case 's':
			o->sort = optarg;
			break;
		case 'p':
			if (parse_pids(app, optarg))
				return 2;
			break;
		case OPT_THREADS:
			app->threads = true;
			break;
		case OPT_SOURCE:
			o->source = optarg;
			break;
		case OPT_FORMAT:
			app->view.format = ui_format_find(optarg);
			if (!app->view.format) {
				fprintf(stderr, "ptop: unknown format '%s' (%s)\n",
					optarg, ui_format_names(", "));
				return 2;
			}
			break;
		case OPT_TOP:
			if (parse_count(optarg, &top))
				return ptop_usage_error("bad --top '%s' (1 to " COUNT_MAX_STR ")",
						   optarg);
			app->view.top = top;
			break;
		case OPT_TREE:
			o->tree = true;
			break;
		case OPT_EVENTS:
			o->events = true;
			break;
		case 'c':
			o->cfg_file = optarg;
			break;
		case OPT_NO_CONFIG:
			o->no_config = true;
			break;
		case OPT_DROP_CAPS:
			opt = ptop_caps_parse(optarg);
			if (opt < 0)
				return ptop_usage_error("bad --drop-capabilities '%s' (off, basic, strict)",
						   optarg);
			o->drop_caps = opt;
			break;
		default:
			return info_option(opt) ? bad_option(opt, argv) : 0;
		}
	}
	if (optind < argc)
		return ptop_usage_error("unexpected argument '%s' (see ptop --help)",
				   argv[optind]);
	return -1;
}
