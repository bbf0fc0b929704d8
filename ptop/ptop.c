// SPDX-License-Identifier: GPL-2.0
/*
 * ptop: a precise top. The config, the columns, source selection, exit
 * codes (the command line: ptop_opts.c); the views live in ui/, the data
 * in lib/.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/capability.h>

#include "config/cfg.h"
#include "lib/caps.h"
#include "ptop.h"

#include "ui/app.h"
#include "ui/batch.h"
#include "ui/curses_view.h"
#include "ui/emit.h"
#include "ui/events.h"
#include "lib/kmod_events.h"


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
		/*
		 * The view's own defaults fit 80 columns, and text output
		 * for people takes them too; the machine formats keep
		 * every time field.
		 */
		bool view = !o->batch && isatty(STDOUT_FILENO);
		bool text = !app->view.format ||
			    !strcmp(app->view.format->name, "text");

		app->cols_default = !o->cols;
		if (!o->cols && (view || text))
			o->cols = app->threads ? ptop_cols_default_view_threads :
						 ptop_cols_default_view;
		else if (!o->cols)
			o->cols = app->threads ? ptop_cols_default_threads :
						 ptop_cols_default;
		n = ptop_col_parse_list(o->cols, app->cols, PTOP_COL__COUNT * 2,
					bad, sizeof(bad));
	}
	if (n == -EEXIST)
		return ptop_usage_error("column '%s' listed twice", bad);
	if (n < 0)
		return ptop_usage_error("unknown column '%s' (see --list-columns)", bad);
	app->ncols = n;
	app->view.cols = app->cols;
	app->view.ncols = app->ncols;
	app->view.sort_id = rc->sort_id;
	app->view.sort_asc = rc->sort_asc;
	if (o->sort) {
		app->view.sort_asc = o->sort[0] == '-';
		app->view.sort_id = ptop_col_find(o->sort + app->view.sort_asc);
		if (app->view.sort_id < 0)
			return ptop_usage_error("unknown sort column '%s' (see --list-columns)",
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

	cfg.need = ptop_col_needs(app->cols, app->ncols) |
		   (app->threads ? 0 : PTOP_DATA_GROUPS_ONLY);
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
	return ptop_usage_error("--format=%s writes one exposition: use it with -n 1",
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
	status = ptop_parse_options(argc, argv, &o, &app);
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
