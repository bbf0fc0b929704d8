// SPDX-License-Identifier: GPL-2.0
/*
 * The help screen's text: the keys (from the binding table), every label
 * the view draws, then the columns; and its lines wrapped to the
 * terminal's width, each continuation indented under its text, so that
 * nothing is cut at 80 columns (the screen scrolls instead). The status
 * line's long messages wrap the same way (cv_wrap).
 */
#include <stdio.h>
#include <string.h>

#include "curses_view.h"

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
	"The status line: sort COLUMN, processes or threads, tree, filter, user, tagged, follow PID, PAUSED, N rows (N exited: dead rows shown; at 0.00: those too small to show), branch PID: the selected branch's sum (tree).",
	"",
	"Rows plus idle and the system parts add up to ncpu x 100%. sum: the last line, every task's figures added up, also those filtered out or not shown. Dimmed rows are tasks that died in the interval, with [exit N] or [signal N]: their time is already in their ancestor's c*, so they are in no sum. A collapsed branch (+) shows the sums of everything under it. The tree's dashed link marks an orphan, shown under the ancestor it came from. The default columns hide what the source cannot fill; a chosen column shows - there. < and > at the ends of the column header: more columns that way (Left, Right).",
	"",
	cv_task_help,
	"",
	"Columns (name for -o and the config, header, unit, meaning)",
};

#define N_HEAD ((int)(sizeof(help_head) / sizeof(help_head[0])))
#define N_TAIL ((int)(sizeof(help_tail) / sizeof(help_tail[0])))
/* where a column's meaning starts: "  %-8s %-7s %-6s " */
#define COL_HANG 26
#define KEY_HANG 21

/* Logical line i and the indent of its continuation lines; -1: none. */
static int help_line(int i, char *buf, size_t len, int *hang)
{
	int nb = 0;
	size_t b;

	for (b = 0; b < cv_nbindings; b++)
		nb += cv_bindings[b].help != NULL;
	if (i < 0)
		return -1;
	*hang = 2;
	if (i < N_HEAD) {
		snprintf(buf, len, "%s", help_head[i]);
		return 0;
	}
	i -= N_HEAD;
	if (i < nb) {
		for (b = 0; b < cv_nbindings; b++) {
			if (!cv_bindings[b].help)
				continue;
			if (!i--)
				break;
		}
		snprintf(buf, len, "  %-18s %s", cv_bindings[b].keynames,
			 cv_bindings[b].help);
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

int cv_wrap(const char *s, int width, int hang, int k, char *buf, size_t len)
{
	int n = 0, room, take, ind = 0;
	size_t rest = strlen(s);

	if (width < 1)
		width = 1;
	if (hang > width / 2)
		hang = width > 8 ? 2 : 0;
	room = width;
	buf[0] = '\0';
	do {
		take = (int)rest;
		if (take > room) {
			take = room;
			while (take > room / 2 && s[take] != ' ')
				take--;
			if (s[take] != ' ')
				take = room;
		}
		if (n == k)
			snprintf(buf, len, "%*s%.*s", ind, "", take, s);
		s += take;
		rest -= (size_t)take;
		while (*s == ' ') {
			s++;
			rest--;
		}
		n++;
		ind = hang;
		room = width - hang > 1 ? width - hang : 1;
	} while (rest);
	return n;
}

int cv_help_wrapped(int i, int width, char *buf, size_t len)
{
	char line[2048];
	int l, hang, n;

	if (i < 0)
		return -1;
	for (l = 0; !help_line(l, line, sizeof(line), &hang); l++) {
		n = cv_wrap(line, width, hang, i, buf, len);
		if (i < n)
			return 0;
		i -= n;
	}
	return -1;
}

int cv_help_count(int width)
{
	char line[2048], piece[2048];
	int l, hang, n = 0;

	for (l = 0; !help_line(l, line, sizeof(line), &hang); l++)
		n += cv_wrap(line, width, hang, -1, piece, sizeof(piece));
	return n;
}
