// SPDX-License-Identifier: GPL-2.0
/*
 * Key bindings of the curses view: ONE table (keys, handler, help) for
 * the table view, which the help screen lists; small handlers per mode
 * for the prompts, menus, help and setup. A key bound to nothing says so.
 */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "curses_view.h"
#include "filter.h"

#define CTRL(x) ((x) & 0x1f)
#define KEY_ESC 27

static size_t page(const struct cv *cv)
{
	return cv->nvis > 1 ? (size_t)cv->nvis - 1 : 1;
}

static const struct ui_vrow *sel_row(const struct cv *cv)
{
	/* none when not drawn: no key acts on a task nobody sees */
	return cv_sel_shown(cv) ? &cv->v.rows[cv->sel] : NULL;
}

static void move_sel(struct cv *cv, long delta)
{
	long s = (long)cv->sel + delta;

	if (s < 0 || !cv->v.nrows)
		s = 0;
	else if ((size_t)s >= cv->v.nrows)
		s = cv->v.nrows - 1;
	cv->sel = s;
	if (cv->follow && cv->sel < cv->v.nrows)	/* before clamp scrolls */
		cv->follow_pid = cv->v.rows[cv->sel].r.pid;
	cv_clamp(cv);
}

/* --- the table view's handlers ------------------------------------------ */

static void k_quit(struct cv *cv, int ch)
{
	cv->quit = true;
}

static void k_help(struct cv *cv, int ch)
{
	cv->mode = CV_HELP;
	cv->help_top = 0;
}

static void k_move(struct cv *cv, int ch)
{
	switch (ch) {
	case KEY_UP:
		move_sel(cv, -1);
		break;
	case KEY_DOWN:
		move_sel(cv, 1);
		break;
	case KEY_PPAGE:
		move_sel(cv, -(long)page(cv));
		break;
	case KEY_NPAGE:
		move_sel(cv, page(cv));
		break;
	case KEY_HOME:
		move_sel(cv, -(long)cv->v.nrows);
		break;
	case KEY_END:
		move_sel(cv, cv->v.nrows);
		break;
	}
}

static void k_hscroll(struct cv *cv, int ch)
{
	if (ch == KEY_LEFT) {
		cv->hscroll = cv->hscroll > CV_HSTEP ? cv->hscroll - CV_HSTEP : 0;
		return;
	}
	/* up to where the widest line's end is at the right edge */
	if (cv->hscroll < cv_hscroll_max(cv))
		cv->hscroll += CV_HSTEP;
	if (cv->hscroll > cv_hscroll_max(cv))
		cv->hscroll = cv_hscroll_max(cv);
}

static void set_sort(struct cv *cv, int id)
{
	cv->app->view.sort_id = id;
	cv_rebuild(cv);
}

/* < and >: the previous / next shown column becomes the sort column. */
static void k_sort_step(struct cv *cv, int ch)
{
	int i, pos = -1, dir = ch == '<' || ch == ',' ? -1 : 1;

	for (i = 0; i < cv->ndcols; i++)
		if (cv->dcols[i] == cv->app->view.sort_id)
			pos = i;
	if (pos < 0)
		pos = dir > 0 ? -1 : cv->ndcols;
	pos += dir;
	if (pos < 0)
		pos = 0;
	if (pos >= cv->ndcols)
		pos = cv->ndcols - 1;
	set_sort(cv, cv->dcols[pos]);
}

static void k_sort_by(struct cv *cv, int ch)
{
	cv->app->view.sort_asc = ch == 'N';
	set_sort(cv, ch == 'P' ? PTOP_COL_TOTAL : ch == 'M' ? PTOP_COL_RSS :
		 ch == 'T' ? PTOP_COL_TIME : PTOP_COL_PID);
	/* sorted by RSS: the source must read it even where no column shows it */
	if (ch == 'M')
		cv->app->src->cfg.need |= PTOP_DATA_MEM;
}

static void k_reverse(struct cv *cv, int ch)
{
	cv->app->view.sort_asc = !cv->app->view.sort_asc;
	cv_rebuild(cv);
}

static void k_tree(struct cv *cv, int ch)
{
	cv->v.tree = !cv->v.tree;
	cv_rebuild(cv);
}

static void k_threads(struct cv *cv, int ch)
{
	struct ui_app *app = cv->app;

	app->threads = !app->threads;
	cv->threads_pending = !cv->have_iv || app->iv.threads != app->threads;
}

static void k_kthreads(struct cv *cv, int ch)
{
	cv->v.hide_kthreads = !cv->v.hide_kthreads;
	snprintf(cv->msg, sizeof(cv->msg), "kernel threads %s",
		 cv->v.hide_kthreads ? "hidden" : "shown");
	cv_rebuild(cv);
}

static void k_exited(struct cv *cv, int ch)
{
	bool *on = cv->v.tree ? &cv->exited_tree : &cv->exited_list;

	*on = !*on;
	snprintf(cv->msg, sizeof(cv->msg), "tasks that died in the interval %s%s",
		 *on ? "shown (dimmed)" : "hidden",
		 cv->v.tree ? " in the tree" : " in the list");
	cv_rebuild(cv);
}

static void k_expand_cols(struct cv *cv, int ch)
{
	cv->expand_groups = !cv->expand_groups;
	cv_rebuild(cv);
}

static void k_full_cmd(struct cv *cv, int ch)
{
	cv->full_cmd = !cv->full_cmd;
	snprintf(cv->msg, sizeof(cv->msg), "COMMAND: %s",
		 cv->full_cmd ? "the full command line" : "the command name");
}

static void k_events(struct cv *cv, int ch)
{
	cv_events_toggle(cv);
}

static void k_meters(struct cv *cv, int ch)
{
	cv->hide_meters = !cv->hide_meters;
}

static void k_tag(struct cv *cv, int ch)
{
	const struct ui_vrow *r = sel_row(cv);

	if (!r) {
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	if (ui_pidset_has(&cv->v.tagged, r->r.pid))
		ui_pidset_del(&cv->v.tagged, r->r.pid);
	else if (ui_pidset_add(&cv->v.tagged, r->r.pid))
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
	cv->v.rows[cv->sel].tagged = ui_pidset_has(&cv->v.tagged, r->r.pid);
	move_sel(cv, 1);
}

static void k_untag_all(struct cv *cv, int ch)
{
	size_t i;

	ui_pidset_clear(&cv->v.tagged);
	for (i = 0; i < cv->v.nrows; i++)
		cv->v.rows[i].tagged = false;
}

/* c: tag the selected task and every task below it (by ppid) */
static void k_tag_children(struct cv *cv, int ch)
{
	const struct ui_vrow *r = sel_row(cv);
	const struct ptop_interval *iv = &cv->app->iv;
	bool grew = true;
	size_t i;

	if (!r) {
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	ui_pidset_add(&cv->v.tagged, r->r.pid);
	while (grew) {
		grew = false;
		for (i = 0; i < iv->nrows; i++) {
			const struct ptop_row *x = &iv->rows[i];
			uint32_t up = x->is_thread && x->pid != x->tgid ? x->tgid :
				      x->ppid;

			if (!ui_pidset_has(&cv->v.tagged, x->pid) &&
			    ui_pidset_has(&cv->v.tagged, up)) {
				ui_pidset_add(&cv->v.tagged, x->pid);
				grew = true;
			}
		}
	}
	snprintf(cv->msg, sizeof(cv->msg), "%zu tasks tagged", cv->v.tagged.n);
	cv_rebuild(cv);
}

static void k_collapse(struct cv *cv, int ch)
{
	const struct ui_vrow *r = sel_row(cv);
	uint32_t pid;

	if (!cv->v.tree) {
		snprintf(cv->msg, sizeof(cv->msg),
			 "'%c' folds a branch in the tree view (t)", ch);
		return;
	}
	if (!r)
		return;
	pid = r->r.pid;
	if (ch == '*') {
		/* all: collapse every branch, or open them all */
		size_t i;

		if (cv->v.collapsed.n) {
			ui_pidset_clear(&cv->v.collapsed);
		} else {
			for (i = 0; i < cv->v.nrows; i++)
				if (cv->v.rows[i].has_kids)
					ui_pidset_add(&cv->v.collapsed,
						      cv->v.rows[i].r.pid);
		}
	} else if (ch == '-' && r->has_kids && !r->collapsed) {
		ui_pidset_add(&cv->v.collapsed, pid);
	} else if (ch == '+' || ch == '=' || ch == '-') {
		ui_pidset_del(&cv->v.collapsed, pid);
	}
	cv_rebuild(cv);
}

static void k_follow(struct cv *cv, int ch)
{
	const struct ui_vrow *r = sel_row(cv);

	cv->follow = !cv->follow && r;
	if (cv->follow)
		cv->follow_pid = r->r.pid;
}

static void k_pause(struct cv *cv, int ch)
{
	cv->paused = !cv->paused;
	if (!cv->paused)	/* an update now, covering the pause */
		cv->deadline_ns = cv_now_ns();
}

static void start_input(struct cv *cv, enum cv_input kind)
{
	cv->mode = CV_INPUT;
	cv->input_kind = kind;
	/* the delay starts empty: typing 1 means 1s, not the old value's 21 */
	if (kind == CV_IN_FILTER) {
		snprintf(cv->filter_before, sizeof(cv->filter_before), "%s",
			 cv->v.filter);
		ui_prompt_start(&cv->prompt, cv->v.filter);
	} else {
		ui_prompt_start(&cv->prompt, "");
	}
}

static void k_search(struct cv *cv, int ch)
{
	start_input(cv, CV_IN_SEARCH);
}

static void k_filter(struct cv *cv, int ch)
{
	start_input(cv, CV_IN_FILTER);
}

static void k_delay(struct cv *cv, int ch)
{
	start_input(cv, CV_IN_DELAY);
}

static void open_menu(struct cv *cv, enum cv_menu kind)
{
	cv->mode = CV_MENU;
	cv->menu_kind = kind;
	cv->menu_sel = cv->menu_top = 0;
}

static void k_sort_menu(struct cv *cv, int ch)
{
	int i;

	open_menu(cv, CV_MENU_SORT);
	cv->menu_n = 0;
	for (i = 0; i < PTOP_COL__COUNT; i++) {
		if (i == cv->app->view.sort_id)
			cv->menu_sel = cv->menu_n;
		cv->menu_ids[cv->menu_n++] = i;
	}
}

static const struct {
	int sig;
	const char *name;
} signals[] = {
	{ SIGTERM, "SIGTERM" }, { SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" },
	{ SIGQUIT, "SIGQUIT" }, { SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" },
	{ SIGUSR2, "SIGUSR2" }, { SIGSTOP, "SIGSTOP" }, { SIGCONT, "SIGCONT" },
	{ SIGTSTP, "SIGTSTP" }, { SIGALRM, "SIGALRM" }, { SIGWINCH, "SIGWINCH" },
};
#define NSIGNALS ((int)(sizeof(signals) / sizeof(signals[0])))

int cv_signal_count(void)
{
	return NSIGNALS;
}

const char *cv_signal_name(int i)
{
	return i >= 0 && i < NSIGNALS ? signals[i].name : "";
}

static int targets(struct cv *cv, uint32_t *pids, int max);

static void k_kill(struct cv *cv, int ch)
{
	if (!cv->v.tagged.n && !sel_row(cv)) {
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	if (!cv->v.tagged.n && sel_row(cv)->exited) {
		snprintf(cv->msg, sizeof(cv->msg), "%u has exited",
			 sel_row(cv)->r.pid);
		return;
	}
	/* the targets now: an update while the menu is open changes nothing */
	cv->sig_n = targets(cv, cv->sig_pids, 256);
	snprintf(cv->sig_comm, sizeof(cv->sig_comm), "%s",
		 cv->v.tagged.n ? "" : sel_row(cv)->r.comm);
	open_menu(cv, CV_MENU_SIGNAL);
	cv->menu_n = NSIGNALS;
}

static void k_user_menu(struct cv *cv, int ch)
{
	const struct ptop_interval *iv = &cv->app->iv;
	size_t i;
	int j, n = 0;

	open_menu(cv, CV_MENU_USER);
	for (i = 0; i < iv->nrows && n < 64; i++) {
		for (j = 0; j < n; j++)
			if (cv->user_uids[j] == iv->rows[i].uid)
				break;
		if (j == n)
			cv->user_uids[n++] = iv->rows[i].uid;
	}
	/* entry 0 is "all users" */
	cv->menu_n = n + 1;
	for (j = 0; j < n; j++)
		if (cv->v.by_user && cv->user_uids[j] == cv->v.uid)
			cv->menu_sel = j + 1;
}

/* The targets of k, F7, F8: the tagged tasks, else the selected one. */
static int targets(struct cv *cv, uint32_t *pids, int max)
{
	const struct ui_vrow *r = sel_row(cv);
	size_t i;
	int n = 0;

	for (i = 0; i < cv->v.tagged.n && n < max; i++)
		pids[n++] = cv->v.tagged.pid[i];
	if (!n && r && !r->exited)
		pids[n++] = r->r.pid;
	return n;
}

static void k_nice(struct cv *cv, int ch)
{
	int delta = ch == KEY_F(7) || ch == ']' ? -1 : 1, n, i, ok = 0, nv = 0;
	uint32_t pids[256];
	int err = 0;

	n = targets(cv, pids, 256);
	if (!n) {
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	for (i = 0; i < n; i++) {
		int who = (int)pids[i], cur;

		errno = 0;
		cur = getpriority(PRIO_PROCESS, who);
		if (cur == -1 && errno) {
			err = errno;
			continue;
		}
		nv = cur + delta;
		if (nv < -20)
			nv = -20;
		if (nv > 19)
			nv = 19;
		if (setpriority(PRIO_PROCESS, who, nv))
			err = errno;
		else
			ok++;
	}
	if (n == 1 && ok)
		snprintf(cv->msg, sizeof(cv->msg), "nice of %u now %d", pids[0], nv);
	else if (ok == n)
		snprintf(cv->msg, sizeof(cv->msg), "nice %+d for %d tasks", delta, n);
	else
		snprintf(cv->msg, sizeof(cv->msg), "nice %+d: %d of %d done: %s",
			 delta, ok, n, strerror(err));
}

static void k_setup(struct cv *cv, int ch)
{
	cv_open_setup(cv);
}

static void k_save(struct cv *cv, int ch)
{
	cv_save_config(cv);
}

static void k_redraw(struct cv *cv, int ch)
{
	clearok(curscr, TRUE);
}

static void k_nothing(struct cv *cv, int ch)
{
}

const struct cv_binding cv_bindings[] = {
	{ { KEY_F(1), 'h', '?' }, "F1 h ?", k_help,
	  "this help (Up/Down/PgUp/PgDn scroll, any other key leaves)" },
	{ { KEY_F(2), 'S' }, "F2 S", k_setup,
	  "setup: columns (add, remove, reorder), meters, colours; saved with s" },
	{ { KEY_F(3), '/' }, "F3 /", k_search,
	  "search: jumps to the next COMMAND or USER with the text as you type; F3 again: the next" },
	{ { KEY_F(4), '\\' }, "F4 \\", k_filter,
	  "filter as you type (COMMAND or USER); Tab: the text is a regex; Enter keeps, Esc undoes" },
	{ { KEY_F(5), 't' }, "F5 t", k_tree,
	  "tree view: children under their parent, with lines; orphans under the ancestor they came from" },
	{ { KEY_F(6) }, "F6", k_sort_menu, "sort by: a menu of the columns" },
	{ { '<', ',', '>', '.' }, "< > , .", k_sort_step,
	  "sort by the previous / next shown column" },
	{ { 'P', 'M', 'T', 'N' }, "P M T N", k_sort_by,
	  "sort by total CPU / memory (RSS) / TIME / PID" },
	{ { 'r', 'I' }, "r I", k_reverse, "reverse the sort order" },
	{ { KEY_F(7), ']' }, "F7 ]", k_nice,
	  "nice -1 (higher priority) for the tagged tasks, else the selected one" },
	{ { KEY_F(8), '[' }, "F8 [", k_nice, "nice +1 (lower priority)" },
	{ { KEY_F(9), 'k' }, "F9 k", k_kill,
	  "send a signal (a menu) to the tagged tasks, else the selected one" },
	{ { KEY_F(10), 'q', 'Q' }, "F10 q", k_quit, "quit" },
	{ { '\r', '\n', KEY_ENTER }, "Enter", cv_task_open,
	  "the process screen of the selected task (its history, threads, children; Esc: back)" },
	{ { KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE }, "Up Down PgUp PgDn", k_move,
	  "select a row; a page up / down" },
	{ { KEY_HOME, KEY_END }, "Home End", k_move, "first / last row" },
	{ { KEY_LEFT, KEY_RIGHT }, "Left Right", k_hscroll,
	  "scroll the columns sideways (< > at the header's ends: more that way)" },
	{ { ' ' }, "Space", k_tag, "tag / untag the selected task (and move down)" },
	{ { 'U' }, "U", k_untag_all, "untag every task" },
	{ { 'c' }, "c", k_tag_children, "tag the selected task and all its descendants" },
	{ { '-', '+', '=', '*' }, "- + *", k_collapse,
	  "tree: collapse / expand the branch (its row then shows the branch's sums); * all" },
	{ { 'K' }, "K", k_kthreads, "hide / show kernel threads" },
	{ { 'H' }, "H", k_threads, "threads / processes (from the next interval on)" },
	{ { 'u' }, "u", k_user_menu, "show only one user's tasks (a menu)" },
	{ { 'e' }, "e", k_exited,
	  "rows for tasks that died in the interval (dimmed, with exit status), on / off" },
	{ { 'E' }, "E", k_events,
	  "the module's event log (fork, exec, exit, reparent) in a panel below the table, on / off" },
	{ { 'x' }, "x", k_expand_cols,
	  "own, c* and x* as one column each, or as their user, sys, steal parts" },
	{ { 'p' }, "p", k_full_cmd, "COMMAND: the command name or the full command line" },
	{ { '#' }, "#", k_meters, "hide / show the header meters" },
	{ { 'F' }, "F", k_follow, "follow the selected pid across updates" },
	{ { 'd' }, "d", k_delay, "change the delay between updates (seconds)" },
	{ { 'Z', 'z' }, "Z z", k_pause, "pause / resume the updates (the headline keeps its time)" },
	{ { 's' }, "s", k_save, "save the settings to the config file" },
	{ { CTRL('l') }, "Ctrl-L", k_redraw, "redraw the screen" },
	{ { KEY_RESIZE }, NULL, k_nothing, NULL },
};
const size_t cv_nbindings = sizeof(cv_bindings) / sizeof(cv_bindings[0]);

const struct cv_binding *cv_binding_of(int ch)
{
	size_t i, j;

	for (i = 0; i < cv_nbindings; i++)
		for (j = 0; j < 4 && cv_bindings[i].keys[j]; j++)
			if (cv_bindings[i].keys[j] == ch)
				return &cv_bindings[i];
	return NULL;
}

/* --- prompts ------------------------------------------------------------- */

static bool row_matches_text(const struct ui_vrow *r, const char *text)
{
	return ui_filter_match(&r->r, text);
}

/* the next row at or after from (wrapping) whose COMMAND/USER has text */
static void search_from(struct cv *cv, size_t from, const char *text)
{
	size_t i, n = cv->v.nrows;

	for (i = 0; i < n; i++) {
		size_t k = (from + i) % n;

		if (row_matches_text(&cv->v.rows[k], text)) {
			cv->sel = k;
			cv->follow = false;
			cv_clamp(cv);
			cv->msg[0] = '\0';
			return;
		}
	}
	snprintf(cv->msg, sizeof(cv->msg), "no task matches '%s'", text);
}

static void apply_delay(struct cv *cv, const char *text)
{
	struct ui_app *app = cv->app;
	char *end;
	double d = strtod(text, &end);

	if (end == text || *end || !(d >= 0.01 && d <= 86400)) {
		snprintf(cv->msg, sizeof(cv->msg),
			 "bad delay '%s' (0.01 to 86400 seconds)", text);
		return;
	}
	app->delay_s = d;
	/* the next snapshot: one new delay after the last one */
	cv->deadline_ns = cv->last_snap_ns + (uint64_t)(d * 1e9);
	snprintf(cv->msg, sizeof(cv->msg), "delay %gs", d);
}

static void live_filter(struct cv *cv, const char *text)
{
	char err[300];

	if (ui_view_set_filter(&cv->v, text, cv->filter_regex, err, sizeof(err))) {
		/* a half-typed regex: keep the last good one, say why */
		snprintf(cv->msg, sizeof(cv->msg), "%s", err);
		return;
	}
	cv->msg[0] = '\0';
	cv->sel = cv->top = 0;
	cv_rebuild(cv);
}

static void key_input(struct cv *cv, int ch)
{
	struct ui_prompt_hist *h = &cv->hist[cv->input_kind];
	enum ui_prompt_result res;
	char text[UI_PROMPT_MAX * 4];

	if (cv->input_kind == CV_IN_SEARCH && ch == KEY_F(3)) {
		ui_prompt_text(&cv->prompt, text, sizeof(text));
		if (text[0] && cv->v.nrows)
			search_from(cv, cv->sel + 1, text);
		return;
	}
	if (cv->input_kind == CV_IN_FILTER && ch == '\t') {
		cv->filter_regex = !cv->filter_regex;
		ui_prompt_text(&cv->prompt, text, sizeof(text));
		live_filter(cv, text);
		return;
	}
	res = ui_prompt_key(&cv->prompt, h, ch);
	ui_prompt_text(&cv->prompt, text, sizeof(text));
	switch (res) {
	case UI_PROMPT_EDITED:
		if (cv->input_kind == CV_IN_FILTER)
			live_filter(cv, text);
		else if (cv->input_kind == CV_IN_SEARCH && text[0])
			search_from(cv, cv->sel, text);
		break;
	case UI_PROMPT_DONE:
		cv->mode = CV_TABLE;
		ui_prompt_hist_add(h, text);
		if (cv->input_kind == CV_IN_DELAY)
			apply_delay(cv, text);
		else if (cv->input_kind == CV_IN_FILTER)
			live_filter(cv, text);
		break;
	case UI_PROMPT_CANCEL:
		cv->mode = CV_TABLE;
		if (cv->input_kind == CV_IN_FILTER)
			live_filter(cv, cv->filter_before);
		break;
	default:
		break;
	}
}

/* --- menus ---------------------------------------------------------------- */

static void send_signal(struct cv *cv, int idx)
{
	const uint32_t *pids = cv->sig_pids;
	int n = cv->sig_n, i, ok = 0, err = 0;

	for (i = 0; i < n; i++) {
		if (kill((pid_t)pids[i], signals[idx].sig))
			err = errno;
		else
			ok++;
	}
	if (n == 1 && ok)
		snprintf(cv->msg, sizeof(cv->msg), "sent %s to %u",
			 signals[idx].name, pids[0]);
	else if (n == 1)
		snprintf(cv->msg, sizeof(cv->msg), "kill %u: %s", pids[0],
			 strerror(err));
	else
		snprintf(cv->msg, sizeof(cv->msg), "sent %s to %d of %d tagged tasks%s%s",
			 signals[idx].name, ok, n, err ? ": " : "",
			 err ? strerror(err) : "");
}

static void menu_pick(struct cv *cv)
{
	switch (cv->menu_kind) {
	case CV_MENU_SORT:
		set_sort(cv, cv->menu_ids[cv->menu_sel]);
		break;
	case CV_MENU_SIGNAL:
		send_signal(cv, cv->menu_sel);
		break;
	case CV_MENU_USER:
		cv->v.by_user = cv->menu_sel > 0;
		if (cv->v.by_user)
			cv->v.uid = cv->user_uids[cv->menu_sel - 1];
		cv->sel = cv->top = 0;
		cv_rebuild(cv);
		break;
	}
}

static void key_menu(struct cv *cv, int ch)
{
	switch (ch) {
	case KEY_UP:
		if (cv->menu_sel > 0)
			cv->menu_sel--;
		break;
	case KEY_DOWN:
		if (cv->menu_sel < cv->menu_n - 1)
			cv->menu_sel++;
		break;
	case KEY_HOME:
		cv->menu_sel = 0;
		break;
	case KEY_END:
		cv->menu_sel = cv->menu_n - 1;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		cv->mode = CV_TABLE;
		menu_pick(cv);
		break;
	case KEY_ESC:
	case 'q':
	case KEY_F(10):
		cv->mode = CV_TABLE;
		if (cv->menu_kind == CV_MENU_SIGNAL)
			snprintf(cv->msg, sizeof(cv->msg), "not sent");
		break;
	default:
		/* a digit picks a signal by its number */
		if (cv->menu_kind == CV_MENU_SIGNAL && ch >= '1' && ch <= '9') {
			int i;

			for (i = 0; i < NSIGNALS; i++)
				if (signals[i].sig == ch - '0')
					cv->menu_sel = i;
		}
		break;
	}
}

/* --- help ----------------------------------------------------------------- */

static void key_help(struct cv *cv, int ch)
{
	switch (ch) {
	case KEY_UP:
		cv->help_top--;
		break;
	case KEY_DOWN:
		cv->help_top++;
		break;
	case KEY_PPAGE:
		cv->help_top -= LINES > 2 ? LINES - 2 : 1;
		break;
	case KEY_NPAGE:
	case ' ':
		cv->help_top += LINES > 2 ? LINES - 2 : 1;
		break;
	case KEY_HOME:
		cv->help_top = 0;
		break;
	case KEY_END:
		cv->help_top = cv->help_lines;
		break;
	case KEY_RESIZE:
		break;
	default:
		cv->mode = cv->task_help ? CV_TASK : CV_TABLE;
		cv->task_help = false;
		break;
	}
}

/* --- mouse ----------------------------------------------------------------- */

void cv_mouse(struct cv *cv, int y, int x, int button)
{
	int id;

	if (cv->mode != CV_TABLE)
		return;
	if (button == 4 || button == 5) {
		move_sel(cv, button == 4 ? -3 : 3);
		return;
	}
	if (y == cv->table_y) {
		/* a header click sorts by that column; again: reversed */
		id = cv_col_at(cv, x + cv->hscroll);
		if (id < 0)
			return;
		if (id == cv->app->view.sort_id)
			cv->app->view.sort_asc = !cv->app->view.sort_asc;
		else	/* a new column: biggest first, as htop */
			cv->app->view.sort_asc = false;
		set_sort(cv, id);
		return;
	}
	if (y > cv->table_y && y <= cv->table_y + cv->nvis) {
		size_t i = cv->top + (size_t)(y - cv->table_y - 1);

		if (i < cv->v.nrows) {
			cv->sel = i;
			if (cv->follow)
				cv->follow_pid = cv->v.rows[i].r.pid;
			cv_clamp(cv);
		}
	}
}

/* --- dispatch --------------------------------------------------------------- */

static void describe_key(int ch, char *buf, size_t len)
{
	const char *n = ch >= 0x20 && ch < 0x7f ? NULL :
			UI_KEY_IS_WIDE(ch) ? "that key" : keyname(ch);

	if (n)
		snprintf(buf, len, "%s", n);
	else
		snprintf(buf, len, "'%c'", ch);
}

/* a pause longer than this starts a new pid */
#define CV_PID_TYPE_NS 1500000000ULL

/*
 * 0-9, as in htop: the digits typed so far are a pid; the row with that
 * pid is selected as soon as it is shown.
 */
static void pid_typed(struct cv *cv, int ch)
{
	uint64_t now = cv_now_ns();
	size_t i;

	if (!cv->pid_typed || now - cv->pid_typed_ns > CV_PID_TYPE_NS ||
	    cv->pid_typed > 99999999)
		cv->pid_typed = 0;
	cv->pid_typed = cv->pid_typed * 10 + (uint32_t)(ch - '0');
	cv->pid_typed_ns = now;
	for (i = 0; i < cv->v.nrows; i++)
		if (cv->v.rows[i].r.pid == cv->pid_typed) {
			cv->sel = i;
			if (cv->follow)
				cv->follow_pid = cv->pid_typed;
			cv_clamp(cv);
			snprintf(cv->msg, sizeof(cv->msg), "pid %u", cv->pid_typed);
			return;
		}
	snprintf(cv->msg, sizeof(cv->msg), "pid %u: not shown", cv->pid_typed);
}

static void key_table(struct cv *cv, int ch)
{
	const struct cv_binding *b = cv_binding_of(ch);

	if (ch != KEY_RESIZE)
		cv->msg[0] = '\0';
	if (ch >= '0' && ch <= '9') {
		pid_typed(cv, ch);
		return;
	}
	if (ch != KEY_RESIZE && ch != KEY_MOUSE)
		cv->pid_typed = 0;
	if (!b) {
		char name[64];

		describe_key(ch, name, sizeof(name));
		snprintf(cv->msg, sizeof(cv->msg), "%s does nothing here (F1 or h: the keys)",
			 name);
		return;
	}
	b->fn(cv, ch);
}

void cv_key(struct cv *cv, int ch)
{
	/*
	 * A terminal that grows may fill the new lines from its scrollback
	 * (tmux does): curses must repaint every cell, not only what it
	 * thinks has changed.
	 */
	if (ch == KEY_RESIZE)
		clearok(curscr, TRUE);
	switch (cv->mode) {
	case CV_INPUT:
		key_input(cv, ch);
		break;
	case CV_MENU:
		key_menu(cv, ch);
		break;
	case CV_HELP:
		key_help(cv, ch);
		break;
	case CV_SETUP:
		cv_key_setup(cv, ch);
		break;
	case CV_TASK:
		cv_task_key(cv, ch);
		break;
	default:
		key_table(cv, ch);
		break;
	}
}
