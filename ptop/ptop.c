// SPDX-License-Identifier: GPL-2.0
/*
 * ptop: a precise top. argv, source selection, exit codes; the views live
 * in ui/, the data in lib/.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sys/capability.h>

#include "config/cfg.h"
#include "lib/caps.h"

#include "ui/app.h"
#include "ui/batch.h"
#include "ui/curses_view.h"
#include "ui/emit.h"
#include "ui/events.h"
#include "lib/kmod_events.h"

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

/*
 * What the command line asked for. Options override the config file, so
 * each one remembers whether it was given at all.
 */
struct ptop_opts {
	const char *cols, *sort, *source, *cfg_file;
	bool batch, tree, no_config, delay_set, events;
	enum ptop_caps_mode drop_caps;
	char cfg_path[4096];	/* the file loaded (and saved by 's'); "" none */
	char warn[512];		/* shown by the view, printed by batch */
};

/* One line, exit status 2. */
static int usage_error(const char *fmt, const char *what)
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
				return usage_error("option '%s' takes no value (see ptop --help)",
						   name);
		for (l = long_opts; l->name; l++)
			prefix_of += n > 2 && !strncmp(l->name, arg + 2, n - 2);
	} else {
		snprintf(name, sizeof(name), "-%c", optopt);
	}
	if (ret == ':')
		return usage_error("option '%s' needs a value (see ptop --help)",
				   name);
	/* the usage text would bury the error: one line and a pointer */
	return usage_error(prefix_of > 1 ?
			   "ambiguous option '%s' (see ptop --help)" :
			   "unknown option '%s' (see ptop --help)", name);
}

/*
 * Returns -1 to go on, or the exit status (--help, --version, a list, a
 * usage error).
 */
static int parse_options(int argc, char **argv, struct ptop_opts *o,
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
				return usage_error("bad delay '%s' (0.01 to 86400 seconds)",
						   optarg);
			o->delay_set = true;
			break;
		case 'n':
			if (parse_count(optarg, &app->count))
				return usage_error("bad count '%s' (1 to " COUNT_MAX_STR ")",
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
				return usage_error("bad --top '%s' (1 to " COUNT_MAX_STR ")",
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
				return usage_error("bad --drop-capabilities '%s' (off, basic, strict)",
						   optarg);
			o->drop_caps = opt;
			break;
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
		default:
			return bad_option(opt, argv);
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s' (see ptop --help)",
				   argv[optind]);
	return -1;
}

/* "; "-separated, as much as fits: the view shows it, batch prints it */
static void add_note(char *note, size_t len, const char *what)
{
	size_t used = strlen(note);

	/* cut when full: the first warnings matter most */
	if (used + 2 < len &&
	    snprintf(note + used, len - used, "%s%s", used ? "; " : "", what) < 0)
		note[used] = '\0';
}

/*
 * One layer of the configuration over *rc: 0 (also when the file does not
 * exist, or is not readable and was not asked for by -c), or 2 for a
 * broken file (said on stderr). Warnings (a newer ptop's keys, a skipped
 * file) go to o->warn: curses would hide stderr.
 */
static int load_layer(struct ptop_opts *o, const char *path, struct cfg *rc,
		      bool asked, bool *unreadable)
{
	static char err[4400], warn[2048];
	char one[600];
	const char *l, *nl;
	int ret;

	warn[0] = '\0';
	ret = cfg_load_warn(path, rc, err, sizeof(err), warn, sizeof(warn));
	for (l = warn; (nl = strchr(l, '\n')); l = nl + 1) {
		snprintf(one, sizeof(one), "warning: %.*s", (int)(nl - l), l);
		add_note(o->warn, sizeof(o->warn), one);
	}
	if (ret == -EACCES && !asked) {
		/* e.g. sudo -u with $HOME still the caller's: skipped */
		snprintf(one, sizeof(one), "%.400s (skipped)", err);
		add_note(o->warn, sizeof(o->warn), one);
		*unreadable = true;
		return 0;
	}
	if (ret == -ENOENT && asked) {
		/* -c names one file: a typo must not fall back to defaults */
		fprintf(stderr, "ptop: %s: %s\n", path, strerror(ENOENT));
		return 2;
	}
	if (ret && ret != -ENOENT) {
		/* never overwritten: the user fixes it */
		fprintf(stderr, "ptop: %s\n", err);
		return 2;
	}
	return 0;
}

/*
 * The configuration under the options: the system-wide files, then the
 * user's (config/cfg.h); -c FILE is that file alone. 0, or 2 for a broken
 * file.
 */
static int load_config(struct ptop_opts *o, struct cfg *rc)
{
	static char sys[8][CFG_PATH_MAX];
	bool unreadable = false;
	int i, n;

	cfg_defaults(rc);
	if (o->no_config)
		return 0;
	if (o->cfg_file) {
		snprintf(o->cfg_path, sizeof(o->cfg_path), "%s", o->cfg_file);
		return load_layer(o, o->cfg_path, rc, true, &unreadable);
	}
	n = cfg_system_paths(sys, 8);
	for (i = 0; i < n; i++)
		if (load_layer(o, sys[i], rc, false, &unreadable))
			return 2;
	if (cfg_default_path(o->cfg_path, sizeof(o->cfg_path)))
		o->cfg_path[0] = '\0';
	unreadable = false;
	if (o->cfg_path[0] &&
	    load_layer(o, o->cfg_path, rc, false, &unreadable))
		return 2;
	if (unreadable)
		o->cfg_path[0] = '\0';	/* and 's' does not save */
	return 0;
}

/* Options over the config: delay, threads, tree, columns, sort. 0 or 2. */
static int resolve_columns(struct ui_app *app, struct ptop_opts *o,
			   struct cfg *rc)
{
	char bad[64];
	int n;

	if (!o->delay_set)
		app->delay_s = rc->delay_s;
	app->threads = app->threads || rc->threads;
	rc->tree = o->tree || rc->tree;
	/* batch output in tree order only when asked: scripts keep their rows */
	app->view.tree = o->tree;
	if (!o->source)
		o->source = rc->source;

	if (!o->cols && rc->ncols > 0) {
		memcpy(app->cols, rc->cols, rc->ncols * sizeof(app->cols[0]));
		n = rc->ncols;
	} else {
		/* the view's own defaults fit 80 columns; batch keeps its set */
		bool view = !o->batch && isatty(STDOUT_FILENO);

		app->cols_default = !o->cols;
		if (!o->cols && view)
			o->cols = app->threads ? ptop_cols_default_view_threads :
						 ptop_cols_default_view;
		else if (!o->cols)
			o->cols = app->threads ? ptop_cols_default_threads :
						 ptop_cols_default;
		n = ptop_col_parse_list(o->cols, app->cols, PTOP_COL__COUNT * 2,
					bad, sizeof(bad));
	}
	if (n == -EEXIST)
		return usage_error("column '%s' listed twice", bad);
	if (n < 0)
		return usage_error("unknown column '%s' (see --list-columns)", bad);
	app->ncols = n;
	app->view.cols = app->cols;
	app->view.ncols = app->ncols;
	app->view.sort_id = rc->sort_id;
	app->view.sort_asc = rc->sort_asc;
	if (o->sort) {
		app->view.sort_asc = o->sort[0] == '-';
		app->view.sort_id = ptop_col_find(o->sort + app->view.sort_asc);
		if (app->view.sort_id < 0)
			return usage_error("unknown sort column '%s' (see --list-columns)",
					   o->sort + app->view.sort_asc);
	}
	return 0;
}

/*
 * A source that cannot open, in one short line: its first clause ("name:
 * what: why (how to fix)" -> "name: what"); --list-sources has the rest.
 */
static void print_open_error(const char *asked, const char *err)
{
	const char *what = strstr(err, ": ");
	const char *end = what ? strstr(what + 2, ": ") : NULL;

	if (!what || !strcmp(asked, "auto"))
		end = NULL;
	fprintf(stderr, "ptop: no usable source: %.*s%s\n",
		end ? (int)(end - err) : (int)strlen(err), err,
		end || !strcmp(asked, "auto") ?
		" (ptop --list-sources says why)" : "");
}

/* The source, asked for only what the shown columns need. 0, 1 or 2. */
static int open_source(struct ui_app *app, const struct ptop_opts *o)
{
	struct ptop_src_cfg cfg = { .proc_root = "/proc" };
	int ret;

	cfg.need = ptop_col_needs(app->cols, app->ncols);
	if (!strcmp(o->source, "auto"))
		ret = ptop_src_open_best(&app->src, &cfg, app->err,
					 sizeof(app->err));
	else
		ret = ptop_src_open(&app->src, o->source, &cfg, app->err,
				    sizeof(app->err));
	if (ret) {
		print_open_error(o->source, app->err);
		return ret == -EINVAL ? 2 : 1;
	}
	/*
	 * auto passed over the better sources: quiet (the # line and the
	 * headline name the source; --list-sources says why the others not)
	 */
	app->err[0] = '\0';
	app->view.source = app->src->ops->name;
	app->auto_source = !strcmp(o->source, "auto");
	ptop_snapper_init(&app->snap, app->src);
	ptop_interval_init(&app->iv);
	return 0;
}

/*
 * The source's sockets and files are open: keep only what the run needs
 * (lib/caps.h), before anything is drawn. 0 or 1.
 */
static int drop_privileges(struct ui_app *app, const struct ptop_opts *o)
{
	char err[256];

	unsigned int needs = PTOP_CAPS_RT;

	if (app->src->ops->asks_net_admin)
		needs |= PTOP_CAPS_NET_ADMIN;
	/* the view's event panel (E) listens to the module when it is asked */
	if (!o->batch && isatty(STDOUT_FILENO) && ptop_kmod_events_present())
		needs |= PTOP_CAPS_NET_ADMIN;
	if (ptop_caps_drop(o->drop_caps, needs, true, err, sizeof(err))) {
		fprintf(stderr, "ptop: %s\n", err);
		return 1;
	}
	/* snapshots at real-time priority when allowed: see ui/app.c */
	app->rt_sampling = ptop_caps_effective(CAP_SYS_NICE);
	return 0;
}

/* Batch or curses until done; the exit status. */
static int run(struct ui_app *app, const struct ptop_opts *o, struct cfg *rc)
{
	int status;

	/* a closed pipe is an ordinary end of output: see EPIPE, exit 0 */
	signal(SIGPIPE, SIG_IGN);
	snprintf(app->warn, sizeof(app->warn), "%s", o->warn);
	if ((o->batch || !isatty(STDOUT_FILENO)) && app->warn[0])
		fprintf(stderr, "ptop: %s\n", app->warn);
	if (o->batch || !isatty(STDOUT_FILENO))
		status = ui_batch_run(app, stdout);
	else
		status = ui_curses_run_cfg(app, rc, o->no_config ||
					   !o->cfg_path[0] ? NULL : o->cfg_path);
	if (status && app->err[0])
		fprintf(stderr, "ptop: %s\n", app->err);
	ptop_interval_free(&app->iv);
	ptop_snapper_free(&app->snap);
	ptop_src_close(app->src);
	return status;
}

/*
 * fds 0-2 closed at exec would be taken by the first files ptop opens: a
 * source's netlink socket as fd 1 would get the output. Each closed one
 * is held by /dev/null; stdout read-only, so that writing the output
 * fails with EBADF and ptop says so and exits 1, as for any bad stdout.
 */
static int reserve_std_fds(void)
{
	static const int mode[3] = { O_RDONLY, O_RDONLY, O_WRONLY };
	int fd;

	for (fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", mode[fd] | O_CLOEXEC) != fd)
			return -1;
	}
	return 0;
}

/* --help, --version, a list: their output failing is an error too */
static int flush_stdout(int status)
{
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return status;
	fprintf(stderr, "ptop: writing output: %s\n",
		strerror(errno ? errno : EIO));
	return status ? status : 1;
}

/* A format that writes one document (openmetrics) takes -n 1 only. */
static int check_format_count(const struct ui_app *app)
{
	const struct ui_encoder *enc = app->view.format;

	if (!enc || !enc->one_interval || app->count == 1)
		return -1;
	return usage_error("--format=%s writes one exposition: use it with -n 1",
			   enc->name);
}

int main(int argc, char **argv)
{
	static struct ui_app app = { .delay_s = 2.0 };
	static struct cfg rc;
	struct ptop_opts o = { .drop_caps = PTOP_CAPS_STRICT };
	int status;

	if (reserve_std_fds())
		return 1;	/* no /dev/null: nowhere to say it either */
	status = parse_options(argc, argv, &o, &app);
	if (status >= 0)
		return flush_stdout(status);
	status = check_format_count(&app);
	if (status >= 0)
		return status;
	if (o.events) {
		/* a live log, batch only: -d x -n bounds it in seconds */
		signal(SIGPIPE, SIG_IGN);
		return ui_events_run(stdout, app.delay_s, app.count);
	}
	status = load_config(&o, &rc);
	if (!status)
		status = resolve_columns(&app, &o, &rc);
	if (!status)
		status = open_source(&app, &o);
	if (status)
		return status;
	if (drop_privileges(&app, &o)) {
		ptop_src_close(app.src);
		return 1;
	}
	return run(&app, &o, &rc);
}
