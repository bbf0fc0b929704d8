// SPDX-License-Identifier: GPL-2.0
/*
 * The help screen's text: the keys (from the binding table), every label
 * the view draws, then the columns; and its lines wrapped to the
 * terminal's width, each continuation indented under its text, so that
 * nothing is cut at 80 columns (the screen scrolls instead). The status
 * line's long messages wrap the same way (cv_wrap).
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curses_help.h"
#include "curses_paint.h"

/* each a paragraph, wrapped when drawn; "" is an empty line */
static const char *const help_head[] = {
	"Keys (htop's where htop has them; Up/Down/PgUp/PgDn/Home/End scroll this help, any other key leaves it)",
};

static const char *const help_tail[] = {
	"  0-9                type a pid: its row is selected (as htop)",
	"",
	"In a prompt: Left/Right, Home/End, Ctrl-A/E, Ctrl-K (to the end), Ctrl-U, Ctrl-W, Up/Down (this prompt's history), Enter, Esc. The mouse: a click on a column's title sorts by it (again: reversed), on a row selects it; the wheel scrolls.",
	"",
	"The top line: ptop, the time the interval ended, interval (its length), ncpu, source (where the figures come from: kmod_proc, kmod_nl, taskstats or procfs; ptop -b --list-sources), then exact (the sum within 1% of ncpu x 100%, 0.5% with the module), within +-X% (why) where the source's own bound is wider than that (procfs ticks at N s: procfs counts whole clock ticks; idle in ticks: no cpuidle times here), pid namespace only (tasks of this pid namespace only: machine total not accounted), or inexact: with the reasons, in brief: first (a first reading the source cannot vouch for), lost N (exits whose last counters were lost), clamped X% (counters held back so that no delta went negative), unfolded X% (time of dead tasks with no live ancestor to take it), slow N ms (a snapshot read so slowly that the rows can be off by more than the tolerance), exit paths X% (the stock kernel's exit paths, time no row can get), late N (exits whose records come with the next snapshot), off +-X% (what the sum misses or exceeds beyond those). What gives way at a narrow width: ncpu, the interval, the source. Without the All bar the line also says accounted X% of Y%.",
	"",
	"Meters: one bar per CPU (or group of CPUs) from the kernel's per-CPU counters: user (green) sys (red) irq+steal (yellow) idle (as text: usr, sys, irq+st); Mem and Swp (used/total; as text: used, buffers, cache); Tasks: processes, thr (threads), running; Load average; Uptime. The All bar is the interval as ptop accounts it, exactly ncpu x 100% wide: user (green), sys (red), steal (cyan), c* dead descendants (magenta), x* dead threads (blue), irq kept apart (yellow), unacc: what no part accounts for, the sum short of ncpu x 100% (white on red), idle (blank); in monochrome | # ~ * + ! ? and blank. Then accounted X% of Y% (the rows plus idle and the system parts, of ncpu x 100%), exact, within, pid namespace only or inexact (the top line says why).",
	"  The line under it: each part's share in % of one CPU (a part at 0 is left out, but user, sys and idle); over X: the parts add up to more than ncpu x 100% by X (the bar stays full); exited N: the thread groups that exited in the interval.",
	"  Under 16 lines (or with #) one system line instead: idle, iowait, steal and irq (in-tasks: the kernel charged that time to the tasks already), exited, clamped, unfolded, exit paths, snapshot N ms (how long the snapshot took to read).",
	"",
	"The bottom line, as htop's: the function keys F1 Help, F2 Setup, F3 Search, F4 Filter, F5 Tree (List in the tree: back to the list), F6 SortBy, F7 Nice -, F8 Nice +, F9 Kill, F10 Quit; a click on one presses it. F2's Meters section (or fkeys=0 in ptoprc) hides it.",
	"",
	"The status line: sort COLUMN, processes or threads, tree, filter, user, tagged, follow PID, PAUSED, N rows (N exited: dead rows shown; at 0.00: those too small to show), branch PID: the selected branch's sum (tree).",
	"",
	"Rows plus idle and the system parts add up to ncpu x 100%. sum: the last line, every task's figures added up, also those filtered out or not shown. Dimmed rows are tasks that died in the interval, with [exit N] or [signal N]: their time is already in their ancestor's c*, so they are in no sum. A collapsed branch (+) shows the sums of everything under it. The tree's dashed link marks an orphan, shown under the ancestor it came from. The default columns hide what the source cannot fill; a chosen column shows - there. < and > at the ends of the column header: more columns that way (Left, Right).",
	"",
	/* the process screen (ui/curses_task.c) */
	"The process screen (Enter on a row; Esc or q: back to the table, the same row selected; its F1 help comes back to it): "
	"the task's pid, ppid (its parent, by name), user, state, threads, started (the wall-clock time of its fork), command (its command line); "
	"last interval (measuring: until the first interval with it ends): its CPU in % of one CPU, own user and sys (its live threads), c* user and sys (dead descendants, what their own rows had not shown yet), x* user and sys (dead threads), steal and total (- where the source cannot measure it); "
	"sum of N intervals: the same in CPU seconds over the intervals kept (own, c*, x*, steal); since start (age: how long ago it was forked): own+x*, its CPU time since then, the table's TIME; "
	"history, newest first: per interval its end, total in %, and a bar (| user, # sys, * c*, + x*, ~ steal; full: the % of a full bar), gone when the task had no row; "
	"threads (H: thread mode reads them where the source reads no threads for processes) and live children (pid, state, name, % of one CPU in the last interval; + N more: what did not fit); "
	"exited children of the intervals kept, newest first: pid, name, [exit N] or [signal N] (core: it dumped core) and the CPU seconds of their life, - where the source sees no exits. "
	"A task that exits while shown says exited (with its status when the source knows it) or gone, and keeps its last figures.",
	"",
	"Columns (name for -o and the config, header, unit, meaning)",
};

#define N_HEAD ((int)(sizeof(help_head) / sizeof(help_head[0])))
#define N_TAIL ((int)(sizeof(help_tail) / sizeof(help_tail[0])))
/* where a column's meaning starts: "  %-8s %-7s %-6s " */
#define COL_HANG 26
#define KEY_HANG 21

/* Logical line i and the indent of its continuation lines; -1: none. */
static int help_line(const struct cv_keys *k, int i, char *buf, size_t len,
		     int *hang)
{
	int nb = 0;
	size_t b;

	for (b = 0; b < k->n; b++)
		nb += k->b[b].help != NULL;
	if (i < 0)
		return -1;
	*hang = 2;
	if (i < N_HEAD) {
		snprintf(buf, len, "%s", help_head[i]);
		return 0;
	}
	i -= N_HEAD;
	if (i < nb) {
		for (b = 0; b < k->n; b++) {
			if (!k->b[b].help)
				continue;
			if (!i--)
				break;
		}
		snprintf(buf, len, "  %-18s %s", k->b[b].keynames, k->b[b].help);
		*hang = KEY_HANG;
		return 0;
	}
	i -= nb;
	if (i < N_TAIL) {
		snprintf(buf, len, "%s", help_tail[i]);
		*hang = help_tail[i][0] == ' ' ? 4 : 2;
		return 0;
	}
	i -= N_TAIL;
	if (i >= PTOP_COL__COUNT)
		return -1;
	buf[0] = buf[1] = ' ';
	ptop_col_describe(i, buf + 2, len - 2);
	*hang = COL_HANG;
	return 0;
}

int cv_help_wrapped(const struct cv_keys *k, int i, int width, char *buf,
		    size_t len)
{
	char line[2048];
	int l, hang, n;

	if (i < 0)
		return -1;
	for (l = 0; !help_line(k, l, line, sizeof(line), &hang); l++) {
		n = cv_wrap(line, width, hang, i, buf, len);
		if (i < n)
			return 0;
		i -= n;
	}
	return -1;
}

int cv_help_count(const struct cv_keys *k, int width)
{
	char line[2048], piece[2048];
	int l, hang, n = 0;

	for (l = 0; !help_line(k, l, line, sizeof(line), &hang); l++)
		n += cv_wrap(line, width, hang, -1, piece, sizeof(piece));
	return n;
}

struct help_state {
	struct cv_keys keys;
	int top, lines;
};

static void help_draw(struct cv *cv, void *st)
{
	struct help_state *h = st;
	char line[512];
	int y, n, w = COLS > 1 ? COLS - 1 : 1;

	(void)cv;
	/* wrapped to the width: nothing cut, the lines scroll */
	n = cv_help_count(&h->keys, w);
	h->lines = n;
	if (h->top > n - LINES + 1)
		h->top = n - LINES + 1;
	if (h->top < 0)
		h->top = 0;
	snprintf(line, sizeof(line), "ptop %s help  lines %d-%d of %d  (Up Down PgUp PgDn; other keys: back)",
		 PTOP_VERSION, h->top + 1,
		 h->top + LINES - 1 < n ? h->top + LINES - 1 : n, n);
	cv_put(0, line, 0, cv_attr_header());
	for (y = 1; y < LINES; y++) {
		if (cv_help_wrapped(&h->keys, h->top + y - 1, w, line,
				    sizeof(line)))
			line[0] = '\0';
		cv_put(y, line, 0, A_NORMAL);
	}
}

static bool help_key(struct cv *cv, void *st, int ch)
{
	struct help_state *h = st;
	int page = LINES > 2 ? LINES - 2 : 1;

	switch (ch) {
	case KEY_UP:
		h->top--;
		break;
	case KEY_DOWN:
		h->top++;
		break;
	case KEY_PPAGE:
		h->top -= page;
		break;
	case KEY_NPAGE:
	case ' ':
		h->top += page;
		break;
	case KEY_HOME:
		h->top = 0;
		break;
	case KEY_END:
		h->top = h->lines;
		break;
	case KEY_RESIZE:
		break;
	default:
		cv_screen_pop(cv);
		break;
	}
	return true;
}

static bool help_mouse(struct cv *cv, void *st, int y, int x, int button)
{
	(void)x;
	if (button == 4 || button == 5)
		return help_key(cv, st, button == 4 ? KEY_UP : KEY_DOWN);
	(void)y;
	return true;
}

const struct cv_screen_ops cv_help_ops = {
	.name = "help",
	.draw = help_draw,
	.key = help_key,
	.mouse = help_mouse,
};

void cv_help_open(struct cv *cv, const struct cv_binding *b, size_t n)
{
	struct help_state *h = calloc(1, sizeof(*h));

	if (!h) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	h->keys.b = b;
	h->keys.n = n;
	cv_screen_push(cv, &cv_help_ops, h);
}
