// SPDX-License-Identifier: GPL-2.0
/*
 * The interactive view's main loop: take a snapshot when it is due, draw,
 * then poll the terminal until the next one is due, so keys are handled
 * at once and snapshots stay on their absolute schedule (ui_sched_next).
 */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "curses_events.h"
#include "curses_paint.h"
#include "curses_setup.h"
#include "curses_table.h"
#include "curses_task.h"
#include "curses_view.h"

static volatile sig_atomic_t cv_stop;
static bool cv_active;	/* curses owns the terminal */

static void on_stop(int sig)
{
	cv_stop = sig;
}

/*
 * The terminal went away (its window closed, a hangup): the input says
 * so by POLLHUP or POLLERR, and so does the output (polled for nothing
 * else: a hangup wakes the loop whatever the delay), or an error where a
 * terminal was (EIO once hung up). Only a terminal can go away: a file
 * or /dev/null on stdin is an input at its end, not a lost view.
 * pfd: the loop's, [0] the input, [2] the output.
 */
static bool term_gone(const struct pollfd *pfd, bool in_tty, bool out_tty)
{
	const short hup = POLLHUP | POLLERR | POLLNVAL;
	struct termios t;

	if (in_tty && pfd[0].revents & hup)
		return true;
	if (out_tty && pfd[2].revents & hup)
		return true;
	return out_tty && tcgetattr(STDOUT_FILENO, &t) && errno != EINTR;
}

static void restore_terminal(void)
{
	if (cv_active)
		endwin();
	cv_active = false;
}

/* Snapshot now; 0 or -errno (the message in app->err). */
static int cv_step(struct cv *cv)
{
	struct ui_app *app = cv->app;
	uint64_t step = (uint64_t)(app->delay_s * 1e9);
	int ret = ui_app_step(app);

	if (app->notice[0]) {	/* the source changed: say so */
		snprintf(cv->msg, sizeof(cv->msg), "%s", app->notice);
		app->notice[0] = '\0';
	}
	cv->last_snap_ns = cv_now_ns();
	/*
	 * Rows at once: the first interval is a short one, the schedule
	 * goes on at the delay from there.
	 */
	if (app->snap.taken == 1 && step > CV_FIRST_STEP_NS)
		step = CV_FIRST_STEP_NS;
	ui_sched_next(&cv->deadline_ns, step, cv->last_snap_ns);
	ptop_sysinfo_read(&cv->sys, app->src->cfg.proc_root);
	if (ret < 0)
		return ret;
	if (ret > 0) {
		cv->have_iv = true;
		if (cv->threads_pending && app->iv.threads == app->threads)
			cv->threads_pending = false;
		cv_rebuild(cv);
		cv_task_step(cv);
	}
	return 0;
}

static int poll_timeout_ms(const struct cv *cv)
{
	uint64_t now = cv_now_ns(), due = cv->deadline_ns, left;

	/* events came: the panel is redrawn at most every 100 ms */
	if (cv->redraw_due && (cv->paused ||
			       cv->last_draw_ns + CV_EV_REDRAW_NS < due))
		due = cv->last_draw_ns + CV_EV_REDRAW_NS;
	else if (cv->paused)	/* only keys: the headline is the snapshot's */
		return cv->tick_ms > 0 ? cv->tick_ms : 60000;
	if (due <= now)
		return 0;
	left = (due - now + 999999) / 1000000;
	if (cv->tick_ms > 0 && left > (uint64_t)cv->tick_ms)
		left = cv->tick_ms;
	return left > 60000 ? 60000 : (int)left;
}

/*
 * Draw now, unless only events came and the last draw is recent: a fork
 * storm would redraw for every batch of events.
 */
static void draw_or_defer(struct cv *cv, bool now)
{
	uint64_t t = cv_now_ns();

	if (!now && t < cv->last_draw_ns + CV_EV_REDRAW_NS) {
		cv->redraw_due = true;
		return;
	}
	curs_set(0);
	if (cv_fits(LINES, COLS)) {
		cv_screen_draw(cv);
	} else {
		cv->nvis = 0;	/* no row shown: none to click or signal */
		cv_draw_too_small();
	}
	refresh();
	cv->last_draw_ns = t;
	cv->redraw_due = false;
}

/* One key from curses: a key code, ASCII, or UI_KEY_WIDE(); ERR if none. */
static int next_key(void)
{
	wint_t wc;
	int rc = get_wch(&wc);

	if (rc == ERR)
		return ERR;
	if (rc == KEY_CODE_YES)
		return (int)wc;
	return wc < 0x80 ? (int)wc : UI_KEY_WIDE(wc);
}

static void handle_mouse(struct cv *cv)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return;
	/* a click is a press and a release: act once, on the release */
	if (ev.bstate & (BUTTON1_RELEASED | BUTTON1_CLICKED))
		cv_mouse(cv, ev.y, ev.x, 1);
	else if (ev.bstate & BUTTON4_PRESSED)
		cv_mouse(cv, ev.y, ev.x, 4);
#if NCURSES_MOUSE_VERSION > 1
	else if (ev.bstate & BUTTON5_PRESSED)
		cv_mouse(cv, ev.y, ev.x, 5);
#endif
}

static void start_msg(struct cv *cv)
{
	struct ui_app *app = cv->app;

	/* what batch mode prints on stderr, where curses would hide it */
	snprintf(cv->msg, sizeof(cv->msg), "%s%s%s%s%s", app->warn,
		 app->warn[0] && app->src->note[0] ? "  |  " : "",
		 app->src->note[0] ? "source " : "",
		 app->src->note[0] ? app->src->ops->name : "",
		 app->src->note[0] ? ": " : "");
	if (app->src->note[0])
		snprintf(cv->msg + strlen(cv->msg), sizeof(cv->msg) - strlen(cv->msg),
			 "%s", app->src->note);
}

static void cv_init(struct cv *cv, struct ui_app *app, struct cfg *cfg,
		    const char *cfg_path)
{
	int i;

	memset(cv, 0, sizeof(*cv));
	cv->app = app;
	cv->cfg = cfg;
	cv->cfg_path = cfg_path;
	ui_view_init(&cv->v);
	cv->v.tree = cfg ? cfg->tree : false;
	/* a build's compilers are visible: dead tasks are on in tree view */
	cv->exited_tree = cfg ? cfg->show_exited : true;
	cv->v.hide_kthreads = cfg ? cfg->hide_kthreads : false;
	cv->hide_meters = cfg ? !cfg->meters : false;
	cv->hide_fkeys = cfg ? !cfg->fkeys : false;
	/* COMMAND is the command line, as htop's, filling the width */
	cv->full_cmd = true;
	cv->fkeys_y = -1;
	cv->keys = cv_bindings;
	cv->nkeys = cv_nbindings;
	if (cfg)
		cv_meters_from(cv, cfg);
	else
		cv_meters_default(cv);
	for (i = 0; i < CV_IN__COUNT; i++)
		ui_prompt_hist_init(&cv->hist[i]);
	cv->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
}

static void cv_fini(struct cv *cv)
{
	int i;

	cv_screen_close_all(cv);
	for (i = 0; i < CV_IN__COUNT; i++)
		ui_prompt_hist_free(&cv->hist[i]);
	ui_view_free(&cv->v);
}

/* The terminal as the loop polls it: [0] input, [1] events, [2] output. */
struct term {
	struct pollfd pfd[3];
	bool in_tty, out_tty, gone;
	int idle_wakeups;
};

static void curses_modes(int colors)
{
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	/*
	 * No typeahead check in refresh(): ncurses polls the input and
	 * writes the screen in pieces, a poll and a write each (about 50
	 * system calls per draw); the loop reads the keys itself.
	 */
	typeahead(-1);
	set_escdelay(25);
	curs_set(0);
	mouseinterval(0);
	mousemask(BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON4_PRESSED
#if NCURSES_MOUSE_VERSION > 1
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	cv_colors_init(colors);
}

/* The keys and events that came; false: the terminal is gone. */
static bool take_input(struct cv *cv, struct term *t, bool *got,
		       bool *events)
{
	int ch;

	*got = *events = false;
	while (!cv->quit && (ch = next_key()) != ERR) {
		if (ch == KEY_MOUSE)
			handle_mouse(cv);
		else
			cv_key(cv, ch);
		*got = true;
	}
	if (term_gone(t->pfd, t->in_tty, t->out_tty))
		return false;
	/*
	 * Input at its end (stdin a file, no terminal to read keys from,
	 * or a hangup) is readable forever: stop polling it, or the loop
	 * would spin on it.
	 */
	if (t->pfd[0].fd >= 0 && !*got &&
	    (t->pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL) ||
	     (t->pfd[0].revents & POLLIN && ++t->idle_wakeups >= 3)))
		t->pfd[0].fd = -1;
	else if (*got)
		t->idle_wakeups = 0;
	if (t->pfd[1].revents && cv_events_fd(cv) >= 0)
		*events = cv_events_drain(cv) > 0 || cv_events_fd(cv) < 0;
	t->pfd[0].revents = t->pfd[1].revents = t->pfd[2].revents = 0;
	return true;
}

/* Until q, a stop signal, a lost terminal or an error; the exit status. */
static int run_loop(struct cv *cv, struct term *t)
{
	struct ui_app *app = cv->app;
	bool got, events, stepped;

	while (!cv_stop && !cv->quit) {
		if (!take_input(cv, t, &got, &events)) {
			t->gone = true;
			break;
		}
		if (cv->quit || cv_stop)
			break;
		stepped = false;
		if (!cv->paused && cv_now_ns() >= cv->deadline_ns) {
			if (cv_step(cv) < 0)
				return 1;
			stepped = true;
		}
		draw_or_defer(cv, got || stepped || !events);
		t->pfd[1].fd = cv_events_fd(cv);
		/* EINTR: SIGWINCH (getch then says KEY_RESIZE) or a stop */
		if (poll(t->pfd, 3, poll_timeout_ms(cv)) < 0 && errno != EINTR) {
			snprintf(app->err, sizeof(app->err), "poll: %s",
				 strerror(errno));
			return 1;
		}
	}
	return 0;
}

int ui_curses_run_cfg(struct ui_app *app, struct cfg *cfg,
		      const char *cfg_path)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term,
			 old_hup;
	struct term t = { .pfd = { { .fd = STDIN_FILENO, .events = POLLIN },
				   { .fd = -1, .events = POLLIN },
				   { .fd = -1, .events = 0 } } };
	static struct cv cv;
	SCREEN *scr;
	FILE *in = stdin, *tty = NULL;
	int status;

	/*
	 * UTF-8 names, before curses starts (it reads the locale then);
	 * LC_NUMERIC stays "C" so numbers look as in batch
	 */
	setlocale(LC_CTYPE, "");
	/* keys from the terminal also when stdin is not one (ptop < file) */
	if (!isatty(STDIN_FILENO)) {
		tty = fopen("/dev/tty", "re");
		if (tty)
			in = tty;
	}
	t.pfd[0].fd = fileno(in);
	t.in_tty = isatty(t.pfd[0].fd);
	t.out_tty = isatty(STDOUT_FILENO);
	if (t.out_tty)
		t.pfd[2].fd = STDOUT_FILENO;
	/* TERM=dumb or a tiny terminal: one line that says so, not garbage */
	scr = NULL;
	if (!cv_term_check(STDOUT_FILENO, app->err, sizeof(app->err))) {
		scr = newterm(NULL, stdout, in);
		if (!scr)
			snprintf(app->err, sizeof(app->err),
				 "cannot start the terminal (TERM=%s); try -b",
				 getenv("TERM") ?: "");
	}
	if (!scr) {
		if (tty)
			fclose(tty);
		return 1;
	}
	cv_init(&cv, app, cfg, cfg_path);
	cv_active = true;
	atexit(restore_terminal);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	curses_modes(cfg ? cfg->colors : 0);

	cv.deadline_ns = cv_now_ns();
	cv_screen_push(&cv, &cv_table_ops, NULL);
	start_msg(&cv);
	cv_columns(&cv);
	status = run_loop(&cv, &t);

	/* a hangup with the terminal still there (kill -HUP) restores it */
	if (cv_stop == SIGHUP && !t.gone)
		t.gone = term_gone(t.pfd, false, t.out_tty);
	if (!t.gone)	/* nothing to restore on a terminal that is gone */
		endwin();
	cv_active = false;
	delscreen(scr);
	if (tty)
		fclose(tty);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	cv_fini(&cv);
	return status;
}

int ui_curses_run(struct ui_app *app)
{
	return ui_curses_run_cfg(app, NULL, NULL);
}
