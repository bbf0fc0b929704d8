// SPDX-License-Identifier: GPL-2.0
/*
 * ptop: a precise top. argv, source selection, exit codes; the views live
 * in ui/, the data in lib/.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "config/cfg.h"

#include "ui/app.h"
#include "ui/curses_view.h"
#include "ui/events.h"

enum {
	OPT_THREADS = 256,
	OPT_SOURCE,
	OPT_LIST_COLUMNS,
	OPT_LIST_SOURCES,
	OPT_EVENTS,
	OPT_TREE,
	OPT_NO_CONFIG,
	OPT_FORMAT,
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
	{ "config", required_argument, NULL, 'c' },
	{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
	{ "list-columns", no_argument, NULL, OPT_LIST_COLUMNS },
	{ "list-sources", no_argument, NULL, OPT_LIST_SOURCES },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
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
"      --source=NAME      auto, kmod, kmod_nl, taskstats, procfs\n"
"      --tree             interactive view starts in tree mode\n"
"      --events           log process events (fork, exec, exit, reparent)\n"
"                         with ns timestamps, from the ptop_taskstats module\n"
"      --format=FMT       batch output: text (default), csv, json\n"
"  -c, --config=FILE      read (and save to) FILE instead of the default\n"
"                         $XDG_CONFIG_HOME/ptop/ptoprc (~/.config/ptop/ptoprc)\n"
"      --no-config        ignore the config file (built-in defaults)\n"
"      --list-columns     the columns, with what each one means\n"
"      --list-sources     the sources and whether they work here\n"
"  -h, --help             this text\n"
"  -V, --version          version\n"
"\n"
"Options override the config file. Exit status: 0 ok, 1 runtime error,\n"
"2 usage error (also a broken config file).\n");
}

static int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < 0.01 || v > 86400)
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_pids(struct ui_app *app, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL, *end;
	size_t n = app->view.npids;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long v;

		errno = 0;
		v = strtoul(tok, &end, 10);
		if (errno || *end || end == tok || !v || v > INT_MAX ||
		    n == sizeof(app->pids) / sizeof(app->pids[0])) {
			fprintf(stderr, "ptop: bad pid '%s'\n", tok);
			free(copy);
			return -EINVAL;
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
	int i;

	for (i = 0; i < PTOP_COL__COUNT; i++)
		printf("%-8s %-6s %s\n", ptop_cols[i].name, ptop_cols[i].unit,
		       ptop_cols[i].help);
}

/* ptop's version and, when the module is loaded, its version and kernel */
static void print_version(void)
{
	char line[256], ver[64] = "", kern[128] = "";
	FILE *f = fopen("/proc/ptop_taskstats_state", "r");
	struct utsname u;

	printf("ptop %s\n", PTOP_VERSION);
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
	       ver[0] ? ver : "?", kern[0] ? kern : "? (module older than 0.1.0)",
	       u.release);
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

int main(int argc, char **argv)
{
	static struct ui_app app;
	struct ptop_src_cfg cfg = { .proc_root = "/proc" };
	const char *cols = NULL, *sort = NULL, *source = NULL;
	const char *cfg_file = NULL;
	static struct cfg rc;
	static char rc_path[4096], rc_err[4400];
	bool batch = false, tree = false, no_config = false, delay_set = false;
	bool events = false;
	char bad[64];
	int opt, ret, status;

	app.delay_s = 2.0;
	while ((opt = getopt_long(argc, argv, "bd:n:o:s:p:c:hV", long_opts,
				  NULL)) != -1) {
		switch (opt) {
		case 'b':
			batch = true;
			break;
		case 'd':
			if (parse_double(optarg, &app.delay_s)) {
				fprintf(stderr, "ptop: bad delay '%s' (0.01 to 86400 seconds)\n",
					optarg);
				return 2;
			}
			delay_set = true;
			break;
		case 'n':
			app.count = atol(optarg);
			if (app.count <= 0) {
				fprintf(stderr, "ptop: bad count '%s'\n", optarg);
				return 2;
			}
			break;
		case 'o':
			cols = optarg;
			break;
		case 's':
			sort = optarg;
			break;
		case 'p':
			if (parse_pids(&app, optarg))
				return 2;
			break;
		case OPT_THREADS:
			app.threads = true;
			break;
		case OPT_SOURCE:
			source = optarg;
			break;
		case OPT_FORMAT:
			if (ui_format_parse(optarg) < 0) {
				fprintf(stderr, "ptop: unknown format '%s' (text, csv, json)\n",
					optarg);
				return 2;
			}
			app.view.format = ui_format_parse(optarg);
			break;
		case OPT_TREE:
			tree = true;
			break;
		case OPT_EVENTS:
			events = true;
			break;
		case 'c':
			cfg_file = optarg;
			break;
		case OPT_NO_CONFIG:
			no_config = true;
			break;
		case OPT_LIST_COLUMNS:
			list_columns();
			return 0;
		case OPT_LIST_SOURCES:
			list_sources();
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			print_version();
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "ptop: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}

	if (events) {
		/* a live log, batch only: -d x -n bounds it in seconds */
		signal(SIGPIPE, SIG_IGN);
		return ui_events_run(stdout, app.delay_s, app.count);
	}

	/* the config file first; the options above override it */
	cfg_defaults(&rc);
	if (!no_config) {
		if (cfg_file)
			snprintf(rc_path, sizeof(rc_path), "%s", cfg_file);
		else if (cfg_default_path(rc_path, sizeof(rc_path)))
			rc_path[0] = '\0';
		ret = rc_path[0] ? cfg_load(rc_path, &rc, rc_err, sizeof(rc_err))
				 : -ENOENT;
		if (ret == -EACCES && !cfg_file) {
			/* e.g. sudo -u with $HOME still the caller's: defaults */
			fprintf(stderr, "ptop: %s (using defaults)\n", rc_err);
			rc_path[0] = '\0';
		} else if (ret && ret != -ENOENT) {
			/* never overwritten: the user fixes it */
			fprintf(stderr, "ptop: %s\n", rc_err);
			return 2;
		}
	}
	if (!delay_set)
		app.delay_s = rc.delay_s;
	app.threads = app.threads || rc.threads;
	rc.tree = tree || rc.tree;
	if (!source)
		source = rc.source;

	if (!cols && rc.ncols > 0) {
		memcpy(app.cols, rc.cols, rc.ncols * sizeof(app.cols[0]));
		ret = rc.ncols;
	} else {
		if (!cols)
			cols = app.threads ? ptop_cols_default_threads :
					     ptop_cols_default;
		ret = ptop_col_parse_list(cols, app.cols, PTOP_COL__COUNT * 2,
					  bad, sizeof(bad));
	}
	if (ret < 0) {
		fprintf(stderr, "ptop: unknown column '%s' (see --list-columns)\n",
			bad);
		return 2;
	}
	app.ncols = ret;
	app.view.cols = app.cols;
	app.view.ncols = app.ncols;
	app.view.sort_id = rc.sort_id;
	app.view.sort_asc = rc.sort_asc;
	if (sort) {
		app.view.sort_asc = sort[0] == '-';
		app.view.sort_id = ptop_col_find(sort + app.view.sort_asc);
		if (app.view.sort_id < 0) {
			fprintf(stderr, "ptop: unknown sort column '%s' (see --list-columns)\n",
				sort + app.view.sort_asc);
			return 2;
		}
	}
	cfg.need = ptop_col_needs(app.cols, app.ncols);

	if (!strcmp(source, "auto"))
		ret = ptop_src_open_best(&app.src, &cfg, app.err, sizeof(app.err));
	else
		ret = ptop_src_open(&app.src, source, &cfg, app.err,
				    sizeof(app.err));
	if (ret) {
		fprintf(stderr, "ptop: no usable source: %s\n", app.err);
		return ret == -EINVAL ? 2 : 1;
	}
	/* auto fell back past the better sources: say why (batch: stderr) */
	if (!strcmp(source, "auto") && app.err[0] && batch)
		fprintf(stderr, "ptop: using source %s: %s\n", app.src->ops->name, app.err);
	app.err[0] = '\0';
	app.view.source = app.src->ops->name;
	ptop_snapper_init(&app.snap, app.src);
	ptop_interval_init(&app.iv);

	/* snapshots at real-time priority when allowed: see ui/app.c */
	app.rt_sampling = geteuid() == 0;

	/* a closed pipe is an ordinary end of output: see EPIPE, exit 0 */
	signal(SIGPIPE, SIG_IGN);
	if (batch || !isatty(STDOUT_FILENO))
		status = ui_batch_run(&app, stdout);
	else
		status = ui_curses_run_cfg(&app, &rc,
					   no_config || !rc_path[0] ? NULL : rc_path);
	if (status && app.err[0])
		fprintf(stderr, "ptop: %s\n", app.err);

	ptop_interval_free(&app.iv);
	ptop_snapper_free(&app.snap);
	ptop_src_close(app.src);
	return status;
}
