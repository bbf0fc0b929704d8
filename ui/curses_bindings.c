// SPDX-License-Identifier: GPL-2.0
/*
 * The main table's keys: ONE table (keys, handler, help) that the table
 * screen dispatches through and the help screen lists. A handler changes
 * the view's state or opens a screen; a key bound to nothing says so.
 */
#include <curses.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "curses_events.h"
#include "curses_help.h"
#include "curses_input.h"
#include "curses_menu.h"
#include "curses_proc.h"
#include "curses_rows.h"
#include "curses_setup.h"
#include "curses_signal.h"
#include "curses_table.h"
#include "curses_task.h"

static size_t page(const struct cv *cv)
{
	return cv->nvis > 1 ? (size_t)cv->nvis - 1 : 1;
}

static void k_quit(struct cv *cv, int ch)
{
	cv->quit = true;
}

static void k_help(struct cv *cv, int ch)
{
	cv_help_open(cv, cv_bindings, cv_nbindings);
}

static void k_move(struct cv *cv, int ch)
{
	switch (ch) {
	case KEY_UP:
		cv_move_sel(cv, -1);
		break;
	case KEY_DOWN:
		cv_move_sel(cv, 1);
		break;
	case KEY_PPAGE:
		cv_move_sel(cv, -(long)page(cv));
		break;
	case KEY_NPAGE:
		cv_move_sel(cv, page(cv));
		break;
	case KEY_HOME:
		cv_move_sel(cv, -(long)cv->v.nrows);
		break;
	case KEY_END:
		cv_move_sel(cv, cv->v.nrows);
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
	cv_set_sort(cv, cv->dcols[pos]);
}

static void k_sort_by(struct cv *cv, int ch)
{
	cv->app->view.sort_asc = ch == 'N';
	cv_set_sort(cv, ch == 'P' ? PTOP_COL_TOTAL : ch == 'M' ? PTOP_COL_RSS :
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
	app->src->cfg.need ^= PTOP_DATA_GROUPS_ONLY;
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
	const struct ui_vrow *r = cv_sel_row(cv);

	if (!r) {
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	if (ui_pidset_has(&cv->v.tagged, r->r.pid))
		ui_pidset_del(&cv->v.tagged, r->r.pid);
	else if (ui_pidset_add(&cv->v.tagged, r->r.pid))
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
	cv->v.rows[cv->sel].tagged = ui_pidset_has(&cv->v.tagged, r->r.pid);
	cv_move_sel(cv, 1);
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
	const struct ui_vrow *r = cv_sel_row(cv);
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
	const struct ui_vrow *r = cv_sel_row(cv);
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
	const struct ui_vrow *r = cv_sel_row(cv);

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

static void k_search(struct cv *cv, int ch)
{
	cv_input_open(cv, CV_IN_SEARCH);
}

static void k_filter(struct cv *cv, int ch)
{
	cv_input_open(cv, CV_IN_FILTER);
}

static void k_delay(struct cv *cv, int ch)
{
	cv_input_open(cv, CV_IN_DELAY);
}

static void k_sort_menu(struct cv *cv, int ch)
{
	cv_sort_menu_open(cv);
}

static void k_kill(struct cv *cv, int ch)
{
	cv_signal_menu_open(cv);
}

static void k_user_menu(struct cv *cv, int ch)
{
	cv_user_menu_open(cv);
}

static void k_nice(struct cv *cv, int ch)
{
	int delta = ch == KEY_F(7) || ch == ']' ? -1 : 1, n, i, ok = 0, nv = 0;
	uint32_t pids[256];
	int err = 0;

	n = cv_targets(cv, pids, 256);
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
	cv_setup_open(cv);
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

static void k_environ(struct cv *cv, int ch)
{
	cv_proc_environ(cv);
}

static void k_wrap(struct cv *cv, int ch)
{
	cv_proc_cmdline(cv);
}

static void k_strace(struct cv *cv, int ch)
{
	cv_proc_strace(cv);
}

static void k_lsof(struct cv *cv, int ch)
{
	cv_proc_lsof(cv);
}

static void k_affinity(struct cv *cv, int ch)
{
	cv_affinity_open(cv);
}

static void k_ionice(struct cv *cv, int ch)
{
	cv_ionice_open(cv);
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
	  "send a signal (a menu of all, with their numbers; type a number to pick) to the tagged tasks, else the selected one" },
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
	{ { 'D' }, "D", k_exited,
	  "rows for tasks that died (dead) in the interval (dimmed, with exit status), on / off" },
	{ { 'E' }, "E", k_events,
	  "the module's event log (fork, exec, exit, reparent) in a panel below the table, on / off" },
	{ { 'x' }, "x", k_expand_cols,
	  "own, c* and x* as one column each, or as their user, sys, steal parts" },
	{ { 'p' }, "p", k_full_cmd,
	  "COMMAND: the full command line, filling the width (the default, as htop), or the command name" },
	{ { '#' }, "#", k_meters, "hide / show the header meters" },
	{ { 'F' }, "F", k_follow, "follow the selected pid across updates" },
	{ { 'd' }, "d", k_delay, "change the delay between updates (seconds)" },
	{ { 'Z', 'z' }, "Z z", k_pause, "pause / resume the updates (the headline keeps its time)" },
	{ { 'W' }, "W", k_save, "write (save) the settings to the config file" },
	{ { 'e' }, "e", k_environ, "the selected process's environment (a screen; Esc: back)" },
	{ { 'w' }, "w", k_wrap, "the selected process's command line, wrapped (a screen)" },
	{ { 's' }, "s", k_strace,
	  "trace the selected process's system calls: strace -T -tt -s 512 -p PID, as htop runs it (if installed)" },
	{ { 'l' }, "l", k_lsof,
	  "the selected process's open files: lsof -P -o -p PID, as htop runs it (if installed)" },
	{ { 'a' }, "a", k_affinity,
	  "CPU affinity of the tagged tasks, else the selected one: Space checks a CPU, Enter sets" },
	{ { 'i' }, "i", k_ionice,
	  "I/O priority (ionice) of the tagged tasks, else the selected one: a menu" },
	{ { CV_CTRL('l') }, "Ctrl-L", k_redraw, "redraw the screen" },
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
