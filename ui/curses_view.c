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

uint64_t cv_now_ns(void)
{
	return ui_now_ns();
}

void cv_clamp(struct cv *cv)
{
	size_t i, nvis = cv->nvis > 0 ? (size_t)cv->nvis : 0;
	size_t n = cv->v.nrows;

	if (cv->follow && cv->have_iv) {
		for (i = 0; i < n; i++)
			if (cv->v.rows[i].r.pid == cv->follow_pid &&
			    !cv->v.rows[i].exited) {
				cv->sel = i;
				break;
			}
		/* gone: say so, rather than go on naming a pid not selected */
		if (i == n) {
			cv->follow = false;
			snprintf(cv->msg, sizeof(cv->msg),
				 "followed pid %u is gone (exited or filtered out): follow off",
				 cv->follow_pid);
		}
	}
	if (!n) {
		cv->sel = cv->top = 0;
		return;
	}
	if (cv->sel >= n)
		cv->sel = n - 1;
	if (cv->top > cv->sel)
		cv->top = cv->sel;
	if (!nvis)
		cv->top = cv->sel;
	else if (cv->sel >= cv->top + nvis)
		cv->top = cv->sel - nvis + 1;
	/* no empty space below the last row when scrolled */
	if (nvis && cv->top + nvis > n)
		cv->top = n > nvis ? n - nvis : 0;
}

bool cv_sel_shown(const struct cv *cv)
{
	return cv->have_iv && cv->sel < cv->v.nrows && cv->nvis > 0 &&
	       cv->sel >= cv->top && cv->sel < cv->top + (size_t)cv->nvis;
}

/* Is a column's data missing for every row of this interval? */
static bool unfillable(const struct cv *cv, int id)
{
	const struct ptop_col *c = &ptop_cols[id];

	return cv->have_iv && (c->needs & ~cv->app->iv.sum.has);
}

void cv_columns(struct cv *cv)
{
	struct ui_app *app = cv->app;
	int i, j, n = 0;

	for (i = 0; i < app->ncols && n < CV_MAX_DCOLS; i++) {
		int id = app->cols[i];
		const struct ptop_col *c = &ptop_cols[id];

		if (cv->expand_groups && c->nsum > 1) {
			for (j = 0; j < c->nsum && n < CV_MAX_DCOLS; j++)
				if (!app->cols_default || !unfillable(cv, c->fold_of + j))
					cv->dcols[n++] = c->fold_of + j;
			continue;
		}
		/* the default set hides what this source cannot fill */
		if (app->cols_default && unfillable(cv, id))
			continue;
		cv->dcols[n++] = id;
	}
	if (!n)		/* never an empty table */
		cv->dcols[n++] = PTOP_COL_PID;
	cv->ndcols = n;
}

/*
 * The selection is a task, not a line: after a build the selected task
 * (pid and start time: a reused pid is another task) is selected again
 * wherever it went, on the same screen line when it can be. Gone (or a
 * first build): the line number stays.
 */
static void reselect(struct cv *cv, const struct ptop_row *was, size_t line)
{
	size_t i;

	for (i = 0; i < cv->v.nrows; i++) {
		const struct ptop_row *r = &cv->v.rows[i].r;

		if (r->pid == was->pid && r->start_ns == was->start_ns &&
		    r->is_thread == was->is_thread)
			break;
	}
	if (i == cv->v.nrows)
		return;
	cv->sel = i;
	cv->top = i >= line ? i - line : 0;
}

void cv_rebuild(struct cv *cv)
{
	struct ui_app *app = cv->app;
	struct ptop_row was;
	bool had = false;
	size_t line = 0;

	cv_columns(cv);
	cv->v.show_exited = cv->v.tree ? cv->exited_tree : cv->exited_list;
	if (!cv->have_iv)
		return;
	if (cv->sel < cv->v.nrows) {
		was = cv->v.rows[cv->sel].r;
		line = cv->sel >= cv->top ? cv->sel - cv->top : 0;
		had = true;
	}
	if (ui_view_build(&cv->v, &app->view, &app->iv,
			  ptop_snap_prev(&app->snap), ptop_snap_cur(&app->snap)))
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
	else if (had)
		reselect(cv, &was, line);
	cv_clamp(cv);
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
	else if (cv->paused)
		return 60000;	/* only keys: the headline is the snapshot's */
	if (due <= now)
		return 0;
	left = (due - now + 999999) / 1000000;
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
	cv_draw(cv);
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

int ui_curses_run_cfg(struct ui_app *app, struct cfg *cfg,
		      const char *cfg_path)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term,
			 old_hup;
	struct pollfd pfd[3] = { { .fd = STDIN_FILENO, .events = POLLIN },
				 { .fd = -1, .events = POLLIN },
				 { .fd = -1, .events = 0 } };
	static struct cv cv;
	SCREEN *scr;
	FILE *in = stdin, *tty = NULL;
	int status = 0, ch, idle_wakeups = 0, i;
	bool got, in_tty, out_tty, gone = false;

	memset(&cv, 0, sizeof(cv));
	cv.app = app;
	cv.cfg = cfg;
	cv.cfg_path = cfg_path;
	ui_view_init(&cv.v);
	cv.v.tree = cfg ? cfg->tree : false;
	/* a build's compilers are visible: dead tasks are on in tree view */
	cv.exited_tree = cfg ? cfg->show_exited : true;
	cv.v.hide_kthreads = cfg ? cfg->hide_kthreads : false;
	cv.hide_meters = cfg ? !cfg->meters : false;
	if (cfg)
		cv_meters_from(&cv, cfg);
	else
		cv_meters_default(&cv);
	for (i = 0; i < CV_IN__COUNT; i++)
		ui_prompt_hist_init(&cv.hist[i]);

	/* UTF-8 names; LC_NUMERIC stays "C" so numbers look as in batch */
	setlocale(LC_CTYPE, "");
	cv.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	/* keys from the terminal also when stdin is not one (ptop < file) */
	if (!isatty(STDIN_FILENO)) {
		tty = fopen("/dev/tty", "re");
		if (tty)
			in = tty;
	}
	pfd[0].fd = fileno(in);
	in_tty = isatty(pfd[0].fd);
	out_tty = isatty(STDOUT_FILENO);
	if (out_tty)
		pfd[2].fd = STDOUT_FILENO;
	/* TERM=dumb or a tiny terminal: one line that says so, not garbage */
	if (cv_term_check(STDOUT_FILENO, app->err, sizeof(app->err))) {
		if (tty)
			fclose(tty);
		return 1;
	}
	scr = newterm(NULL, stdout, in);
	if (!scr) {
		if (tty)
			fclose(tty);
		snprintf(app->err, sizeof(app->err),
			 "cannot start the terminal (TERM=%s); try -b",
			 getenv("TERM") ?: "");
		return 1;
	}
	cv_active = true;
	atexit(restore_terminal);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
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
	cv_colors_init(cfg ? cfg->colors : 0);

	cv.deadline_ns = cv_now_ns();
	start_msg(&cv);
	cv_columns(&cv);
	while (!cv_stop && !cv.quit) {
		bool stepped = false, events = false;

		got = false;
		while (!cv.quit && (ch = next_key()) != ERR) {
			if (ch == KEY_MOUSE)
				handle_mouse(&cv);
			else
				cv_key(&cv, ch);
			got = true;
		}
		/*
		 * Input at its end (stdin a file, no terminal to read keys
		 * from, or a hangup) is readable forever: stop polling it, or
		 * the loop would spin on it.
		 */
		if (term_gone(pfd, in_tty, out_tty)) {
			gone = true;
			break;
		}
		if (pfd[0].fd >= 0 && !got &&
		    (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL) ||
		     (pfd[0].revents & POLLIN && ++idle_wakeups >= 3)))
			pfd[0].fd = -1;
		else if (got)
			idle_wakeups = 0;
		if (pfd[1].revents && cv_events_fd(&cv) >= 0)
			events = cv_events_drain(&cv) > 0 || !cv.evh;
		pfd[0].revents = pfd[1].revents = pfd[2].revents = 0;
		if (cv.quit || cv_stop)
			break;
		if (!cv.paused && cv_now_ns() >= cv.deadline_ns) {
			if (cv_step(&cv) < 0) {
				status = 1;
				break;
			}
			stepped = true;
		}
		draw_or_defer(&cv, got || stepped || !events);
		pfd[1].fd = cv_events_fd(&cv);
		/* EINTR: SIGWINCH (getch then says KEY_RESIZE) or a stop */
		if (poll(pfd, 3, poll_timeout_ms(&cv)) < 0 && errno != EINTR) {
			snprintf(app->err, sizeof(app->err), "poll: %s",
				 strerror(errno));
			status = 1;
			break;
		}
	}

	cv_events_close(&cv);
	/* a hangup with the terminal still there (kill -HUP) restores it */
	if (cv_stop == SIGHUP && !gone)
		gone = term_gone(pfd, false, out_tty);
	if (!gone)	/* nothing to restore on a terminal that is gone */
		endwin();
	cv_active = false;
	delscreen(scr);
	if (tty)
		fclose(tty);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	for (i = 0; i < CV_IN__COUNT; i++)
		ui_prompt_hist_free(&cv.hist[i]);
	ui_view_free(&cv.v);
	return status;
}

int ui_curses_run(struct ui_app *app)
{
	return ui_curses_run_cfg(app, NULL, NULL);
}
