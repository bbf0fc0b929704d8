/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The curses view's screens, as hyptop's windows: each screen (the main
 * table, help, setup, a menu, a prompt, the event panel...) is one file
 * that owns its drawing and its keys behind a struct cv_screen_ops. The
 * open screens are a stack over the table; the main loop draws the top
 * one and gives it the keys and clicks, and only dispatches.
 *
 * Adding a screen (ui/curses_task.c, the process screen, is one):
 *  1. ui/curses_NAME.c with its state in a struct of its own, and a
 *     const struct cv_screen_ops cv_NAME_ops = { .name, .draw, .key,
 *     .mouse, .close } (mouse and close may be NULL).
 *  2. A function that opens it, cv_NAME_open(cv, ...), declared in
 *     ui/curses_NAME.h: it allocates the state and cv_screen_push()es it.
 *  3. A key in the table's binding table (ui/curses_bindings.c) that
 *     calls it, with the line the help shows for it.
 * draw paints the whole screen (or draws the screen below first with
 * cv_screen_draw_below() and paints over it: a menu beside the table);
 * key returns false for a key it leaves to the screen below; a screen
 * leaves with cv_screen_pop(). Rows, the selection, the message line
 * and the settings are struct cv's, shared by all screens.
 */
#ifndef UI_CURSES_SCREEN_H
#define UI_CURSES_SCREEN_H

#include <stdbool.h>
#include <stdint.h>
#include "app.h"
#include "config/cfg.h"
#include "meters.h"
#include "prompt.h"
#include "taskhist.h"
#include "view.h"

/* the first interval, so rows show at once whatever the delay */
#define CV_FIRST_STEP_NS 200000000ULL
#define CV_HSTEP 8
#define CV_MAX_DCOLS (PTOP_COL__COUNT * 2)
#define CV_MAX_SCREENS 8
#define KEY_ESC 27
#define CV_CTRL(x) ((x) & 0x1f)

struct cv;

struct cv_screen_ops {
	const char *name;
	void (*draw)(struct cv *cv, void *st);
	/* true: taken; false: the screen below gets the key */
	bool (*key)(struct cv *cv, void *st, int ch);
	/* button 1 a click, 4/5 the wheel, at cell (y, x); as key */
	bool (*mouse)(struct cv *cv, void *st, int y, int x, int button);
	/* free the state (NULL: free() it) */
	void (*close)(struct cv *cv, void *st);
};

/* the prompts' kinds, each with its own history */
enum cv_input { CV_IN_SEARCH, CV_IN_FILTER, CV_IN_DELAY, CV_IN__COUNT };

struct cv {
	struct ui_app *app;
	struct cfg *cfg;
	const char *cfg_path;
	struct ui_view v;	/* the rows shown, in order */
	bool have_iv;
	size_t sel, top;
	int hscroll;
	/* the table's layout, from its last draw */
	int line_w;		/* widest table line */
	int nvis;		/* row lines on screen */
	int table_y;		/* the column header's line */
	int status_y;		/* the status line (a prompt's place) */
	int rows_end;		/* the sum row's line: the rows end above it */
	int panel_y, panel_h;	/* a panel's lines under the table (asked: h) */
	bool status_busy;	/* a prompt draws over the status line */
	int fkeys_y;		/* the F-key bar's line; -1: none */
	bool paused, follow, quit;
	bool threads_pending;	/* H pressed: rows change next interval */
	bool expand_groups;	/* x: own, c*, x* shown as their parts */
	bool full_cmd;		/* p: COMMAND is the whole command line */
	bool hide_meters;	/* # */
	bool hide_fkeys;	/* no F-key bar at the bottom */
	/* dead rows: on by default in the tree (a build's compilers), off in
	 * the list; a key toggles the current view's */
	bool exited_tree, exited_list;
	bool utf8;		/* the terminal takes UTF-8: tree lines, bars */
	uint32_t follow_pid;
	/* the columns drawn: app->cols expanded and with the unfillable hidden */
	int dcols[CV_MAX_DCOLS];
	int ndcols;
	int col_start[CV_MAX_DCOLS + 1];	/* in the header line */
	/* the prompts' histories; the filter's kind */
	struct ui_prompt_hist hist[CV_IN__COUNT];
	bool filter_regex;
	/* the header's meters in effect */
	struct cfg_meter mcol[2][CFG_M__COUNT];
	int nmcol[2];
	int all_style;
	struct ptop_sysinfo sys;
	char msg[1200];
	uint64_t deadline_ns;	/* next snapshot, CLOCK_MONOTONIC */
	uint64_t last_snap_ns;
	uint64_t last_draw_ns;
	/* htop's 0-9: the pid typed so far selects that row */
	uint32_t pid_typed;
	uint64_t pid_typed_ns;
	bool redraw_due;	/* events came since the last draw */
	int tick_ms;		/* a screen's output comes: wake this often */
	/* the view's keys (the table's), for a help opened elsewhere */
	const struct cv_binding *keys;
	size_t nkeys;
	/* the process screen (ui/curses_task.c): its task, the history */
	uint32_t task_pid;
	uint64_t task_start;
	char task_comm[PTOP_COMM_LEN];
	struct ui_taskhist task_hist;
	/* the open screens, [0] at the bottom */
	struct cv_open_screen {
		const struct cv_screen_ops *ops;
		void *st;
	} scr[CV_MAX_SCREENS];
	int nscr;
	int drawing;		/* the screen being drawn (draw_below) */
};

/* One key binding of a screen: the keys (0-terminated), what it does, the
 * help line (NULL: not listed). */
struct cv_binding {
	int keys[4];
	const char *keynames;	/* as the help shows them */
	void (*fn)(struct cv *cv, int ch);
	const char *help;
};

/*
 * Open a screen on top with its state st (the screen's close frees it,
 * also when this fails): 0, or -ENOSPC with a message.
 */
int cv_screen_push(struct cv *cv, const struct cv_screen_ops *ops, void *st);
/* Close the top screen (never the bottom one). */
void cv_screen_pop(struct cv *cv);
/* Close the screen with these ops wherever it is in the stack. */
void cv_screen_close(struct cv *cv, const struct cv_screen_ops *ops);
/* Close them all (the view ends). */
void cv_screen_close_all(struct cv *cv);
/* The state of the open screen with these ops; NULL: not open. */
void *cv_screen_find(const struct cv *cv, const struct cv_screen_ops *ops);
/* The top screen's ops; NULL: none. */
const struct cv_screen_ops *cv_screen_top(const struct cv *cv);
/* Draw the top screen; from a draw, the one below it. */
void cv_screen_draw(struct cv *cv);
void cv_screen_draw_below(struct cv *cv);
/* A key to the top screen, down the stack until one takes it. */
void cv_key(struct cv *cv, int ch);
/* A mouse event at screen cell (y, x): button 1 click, 4/5 wheel. */
void cv_mouse(struct cv *cv, int y, int x, int button);

uint64_t cv_now_ns(void);
/* Rebuild the shown rows from the app's interval (view.c), and columns. */
void cv_rebuild(struct cv *cv);
/* The columns to draw, from app->cols, x and what the source can fill. */
void cv_columns(struct cv *cv);
/* Keep the selection in range and on screen. */
void cv_clamp(struct cv *cv);
/* Is the selected row on screen (as the last draw left it)? */
bool cv_sel_shown(const struct cv *cv);
/* The selected row if drawn (no key acts on a task nobody sees). */
const struct ui_vrow *cv_sel_row(const struct cv *cv);
/* The targets of k, F7, F8: the tagged tasks, else the selected one. */
int cv_targets(const struct cv *cv, uint32_t *pids, int max);
/* Move the selection by delta rows (clamped); follow moves with it. */
void cv_move_sel(struct cv *cv, long delta);
/* Sort by column id and rebuild. */
void cv_set_sort(struct cv *cv, int id);

#endif /* UI_CURSES_SCREEN_H */
