// SPDX-License-Identifier: GPL-2.0
/*
 * The interactive view's main loop: take a snapshot when it is due, draw,
 * then poll stdin until the next one is due, so keys are handled at once
 * and snapshots stay on their absolute schedule.
 */
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "curses_view.h"
#include "tree.h"

static volatile sig_atomic_t cv_stop;
static bool cv_active;	/* curses owns the terminal */

static void on_stop(int sig)
{
	cv_stop = sig;
}

static void restore_terminal(void)
{
	if (cv_active)
		endwin();
	cv_active = false;
}

uint64_t cv_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void cv_clamp(struct cv *cv)
{
	size_t i, nvis = cv->nvis > 0 ? (size_t)cv->nvis : 0;

	if (cv->follow) {
		for (i = 0; i < cv->nrows; i++)
			if (cv->rows[i].pid == cv->follow_pid) {
				cv->sel = i;
				break;
			}
	}
	if (!cv->nrows) {
		cv->sel = cv->top = 0;
		return;
	}
	if (cv->sel >= cv->nrows)
		cv->sel = cv->nrows - 1;
	if (cv->top > cv->sel)
		cv->top = cv->sel;
	if (!nvis)
		cv->top = cv->sel;
	else if (cv->sel >= cv->top + nvis)
		cv->top = cv->sel - nvis + 1;
	/* no empty space below the last row when scrolled */
	if (nvis && cv->top + nvis > cv->nrows)
		cv->top = cv->nrows > nvis ? cv->nrows - nvis : 0;
}

void cv_rebuild(struct cv *cv)
{
	struct ui_app *app = cv->app;
	struct ptop_interval view;
	size_t n = app->iv.nrows, i;

	if (!cv->have_iv)
		return;
	if (n > cv->caprows) {
		struct ptop_row *r = realloc(cv->rows, n * sizeof(*r));

		if (!r) {
			snprintf(cv->msg, sizeof(cv->msg), "out of memory");
			return;
		}
		cv->rows = r;
		cv->caprows = n;
	}
	if (n)
		memcpy(cv->rows, app->iv.rows, n * sizeof(*cv->rows));
	/* -p and the sort, as in batch mode, on our copy */
	view = app->iv;
	view.rows = cv->rows;
	view.nrows = n;
	n = ui_view_select(&app->view, &view);
	n = ui_filter_rows(cv->rows, n, cv->filter);
	for (i = 0; i < n; i++)
		cv->rows[i].depth = 0;
	if (cv->tree &&
	    ui_tree_order(cv->rows, n, app->view.sort_id, app->view.sort_asc))
		snprintf(cv->msg, sizeof(cv->msg), "tree: out of memory");
	cv->nrows = n;
	cv_clamp(cv);
}

/* Snapshot now; 0 or -errno (the message in app->err). */
static int cv_step(struct cv *cv)
{
	struct ui_app *app = cv->app;
	uint64_t step = (uint64_t)(app->delay_s * 1e9), now;
	int ret = ui_app_step(app);

	if (app->notice[0]) {	/* the source changed: say so */
		snprintf(cv->msg, sizeof(cv->msg), "%s", app->notice);
		app->notice[0] = '\0';
	}
	now = cv_now_ns();
	cv->last_snap_ns = now;
	/* absolute schedule; restart from now when behind */
	cv->deadline_ns += step;
	if (cv->deadline_ns < now)
		cv->deadline_ns = now + step;
	if (ret < 0)
		return ret;
	if (ret > 0) {
		cv->have_iv = true;
		if (cv->threads_pending && app->iv.threads == app->threads)
			cv->threads_pending = false;
		cv_rebuild(cv);
	}
	return 0;
}

static int poll_timeout_ms(const struct cv *cv)
{
	uint64_t now = cv_now_ns(), left;

	if (cv->paused)
		return 1000;	/* the clock in the headline still moves */
	if (cv->deadline_ns <= now)
		return 0;
	left = (cv->deadline_ns - now + 999999) / 1000000;
	return left > 60000 ? 60000 : (int)left;
}

int ui_curses_run_cfg(struct ui_app *app, struct cfg *cfg,
		      const char *cfg_path)
{
	struct sigaction sa = { .sa_handler = on_stop }, old_int, old_term;
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	struct cv cv = {
		.app = app, .cfg = cfg, .cfg_path = cfg_path,
		.tree = cfg ? cfg->tree : false,
	};
	SCREEN *scr;
	int status = 0, ch;

	/* UTF-8 names; LC_NUMERIC stays "C" so numbers look as in batch */
	setlocale(LC_CTYPE, "");
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
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
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_BLACK, COLOR_GREEN);	/* header */
		init_pair(2, COLOR_BLACK, COLOR_CYAN);	/* selection */
		init_pair(3, COLOR_YELLOW, -1);		/* messages */
	}

	cv.deadline_ns = cv_now_ns();
	while (!cv_stop && !cv.quit) {
		while (!cv.quit && (ch = getch()) != ERR)
			cv_key(&cv, ch);
		if (cv.quit || cv_stop)
			break;
		if (!cv.paused && cv_now_ns() >= cv.deadline_ns &&
		    cv_step(&cv) < 0) {
			status = 1;
			break;
		}
		cv_draw(&cv);
		/* EINTR: SIGWINCH (getch then says KEY_RESIZE) or a stop */
		if (poll(&pfd, 1, poll_timeout_ms(&cv)) < 0 && errno != EINTR) {
			snprintf(app->err, sizeof(app->err), "poll: %s",
				 strerror(errno));
			status = 1;
			break;
		}
	}

	endwin();
	cv_active = false;
	delscreen(scr);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(cv.rows);
	return status;
}

int ui_curses_run(struct ui_app *app)
{
	return ui_curses_run_cfg(app, NULL, NULL);
}
