/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interactive curses view. It only reads the model (struct ui_app's
 * last interval); what it shows is built by ui/view.c into rows of its
 * own, and drawn with header meters above the table.
 */
#ifndef UI_CURSES_VIEW_H
#define UI_CURSES_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include "app.h"
#include "config/cfg.h"
#include "evlog.h"
#include "meters.h"
#include "prompt.h"
#include "taskhist.h"
#include "view.h"

/*
 * Run the view. cfg (may be NULL) gives the initial settings and is what
 * the 's' key saves, to cfg_path (NULL: saving is off).
 */
int ui_curses_run_cfg(struct ui_app *app, struct cfg *cfg,
		      const char *cfg_path);

/* --- internal to ui/curses_*.c ------------------------------------------ */
struct ptop_kmod_events;

/* the first interval, so rows show at once whatever the delay */
#define CV_FIRST_STEP_NS 200000000ULL
#define CV_HSTEP 8
#define CV_MAX_DCOLS (PTOP_COL__COUNT * 2)

enum cv_mode {
	CV_TABLE,
	CV_HELP,
	CV_SETUP,	/* F2: columns, meters, colours */
	CV_INPUT,	/* a prompt: search, filter, delay */
	CV_MENU,	/* a list to pick from: sort, signal, user */
	CV_TASK,	/* Enter: one process (ui/curses_task.c) */
};
enum cv_input { CV_IN_SEARCH, CV_IN_FILTER, CV_IN_DELAY, CV_IN__COUNT };
enum cv_menu { CV_MENU_SORT, CV_MENU_SIGNAL, CV_MENU_USER };

struct cv {
	struct ui_app *app;
	struct cfg *cfg;
	const char *cfg_path;
	struct ui_view v;	/* the rows shown, in order */
	bool have_iv;
	size_t sel, top;
	int hscroll;
	int line_w;		/* widest table line of the last draw */
	int nvis;		/* row lines on screen, from the last draw */
	int table_y;		/* the column header's line, from the last draw */
	bool paused, follow, quit;
	bool threads_pending;	/* H pressed: rows change next interval */
	bool expand_groups;	/* x: own, c*, x* shown as their parts */
	bool full_cmd;		/* p: COMMAND is the whole command line */
	bool hide_meters;	/* # */
	/* dead rows: on by default in the tree (a build's compilers), off in
	 * the list; e toggles the current view's */
	bool exited_tree, exited_list;
	bool utf8;		/* the terminal takes UTF-8: tree lines, bars */
	uint32_t follow_pid;
	/* the columns drawn: app->cols expanded and with the unfillable hidden */
	int dcols[CV_MAX_DCOLS];
	int ndcols;
	enum cv_mode mode;
	/* prompts */
	enum cv_input input_kind;
	struct ui_prompt prompt;
	struct ui_prompt_hist hist[CV_IN__COUNT];
	char filter_before[128];	/* restored by Esc on the live filter */
	bool filter_regex;
	/* menus */
	enum cv_menu menu_kind;
	int menu_sel, menu_n, menu_top;
	int menu_ids[PTOP_COL__COUNT > 64 ? PTOP_COL__COUNT : 64];
	uint32_t user_uids[64];
	/* the signal menu's targets, as they were when it opened */
	uint32_t sig_pids[256];
	int sig_n;
	char sig_comm[PTOP_COMM_LEN];
	/* help and setup */
	int help_top;
	int help_lines;
	int setup_sec;		/* 0 columns, 1 meters, 2 colours */
	int chooser[PTOP_COL__COUNT];	/* column ids in list order */
	bool chosen[PTOP_COL__COUNT];
	int ch_sel;
	/* setup's meters: one list, left column, right column, hidden */
	struct cv_meter_choice {
		int id, style;
		int col;	/* 0 left, 1 right, -1 hidden */
	} mch[CFG_M__COUNT];
	int mch_all_style;
	/* the header's meters in effect */
	struct cfg_meter mcol[2][CFG_M__COUNT];
	int nmcol[2];
	int all_style;
	/* meters */
	struct ptop_sysinfo sys;
	char msg[1200];
	uint64_t deadline_ns;	/* next snapshot, CLOCK_MONOTONIC */
	uint64_t last_snap_ns;
	uint64_t last_draw_ns;
	/* htop's 0-9: the pid typed so far selects that row */
	uint32_t pid_typed;
	uint64_t pid_typed_ns;
	bool redraw_due;	/* events came since the last draw */
	/* the event panel (E, ui/curses_events.c) */
	bool ev_on;
	struct ptop_kmod_events *evh;	/* NULL: not listening */
	struct ui_evlog evlog;
	char ev_err[300];	/* why there are no events; "" if none */
	int64_t ev_boot_wall;	/* CLOCK_BOOTTIME -> wall clock */
	/* the process screen (ui/curses_task.c): its task, the history */
	uint32_t task_pid;
	uint64_t task_start;
	char task_comm[PTOP_COMM_LEN];
	bool task_help;		/* help opened from it: goes back to it */
	struct ui_taskhist task_hist;
};

/* One key binding: the keys (0-terminated), what it does, the help. */
struct cv_binding {
	int keys[4];
	const char *keynames;	/* as the help shows them */
	void (*fn)(struct cv *cv, int ch);
	const char *help;
};
extern const struct cv_binding cv_bindings[];
extern const size_t cv_nbindings;
/* The binding of a key in the table view; NULL: the key does nothing. */
const struct cv_binding *cv_binding_of(int ch);

uint64_t cv_now_ns(void);
/* Rebuild the shown rows from the app's interval (view.c), and columns. */
void cv_rebuild(struct cv *cv);
/* The columns to draw, from app->cols, x and what the source can fill. */
void cv_columns(struct cv *cv);
/* Keep the selection in range and on screen. */
void cv_clamp(struct cv *cv);
void cv_draw(struct cv *cv);
void cv_key(struct cv *cv, int ch);
/* A mouse event at screen cell (y, x): button 1 click, 4/5 wheel. */
void cv_mouse(struct cv *cv, int y, int x, int button);
/*
 * The help screen's line i, wrapped at width (ui/curses_help.c): keys,
 * the labels on screen, the columns; 0, or -1 past the end. How many
 * lines there are at that width.
 */
int cv_help_wrapped(int i, int width, char *buf, size_t len);
int cv_help_count(int width);
/*
 * Piece k of s wrapped at width (the first at column 0, the rest after
 * hang spaces), at spaces where there are any, into buf (k < 0: none);
 * returns how many pieces there are.
 */
int cv_wrap(const char *s, int width, int hang, int k, char *buf, size_t len);
/* Right stops where the widest line ends at the screen's edge */
int cv_hscroll_max(const struct cv *cv);
/* The table's column at screen column x (after hscroll); -1 none. */
int cv_col_at(const struct cv *cv, int x);
/* The colour scheme: 0 default, 1 monochrome; NO_COLOR forces 1. */
void cv_colors_init(int scheme);
/* Save the settings to the config file (the s key, setup's save). */
void cv_save_config(struct cv *cv);
void cv_open_setup(struct cv *cv);
void cv_key_setup(struct cv *cv, int ch);
int cv_setup_items(const struct cv *cv);
/* setup's line i of the current section, and the section's keys */
void cv_setup_line(const struct cv *cv, int i, char *buf, size_t len);
const char *cv_setup_keys(const struct cv *cv);
/* the header's meters: from a configuration, or the defaults */
void cv_meters_from(struct cv *cv, const struct cfg *c);
void cv_meters_default(struct cv *cv);
/* The event panel: E opens (listens) and closes it. */
void cv_events_toggle(struct cv *cv);
void cv_events_close(struct cv *cv);
/* The socket to poll, -1 when not listening. */
int cv_events_fd(const struct cv *cv);
/* Read what the socket has (bounded); returns how many were read. */
int cv_events_drain(struct cv *cv);
/* The panel's title, and its line i of nlines (1 for an error line). */
void cv_events_title(const struct cv *cv, char *buf, size_t len);
int cv_events_line(const struct cv *cv, int i, int nlines, char *buf,
		   size_t len);
/* an event-only wake-up redraws at most this often */
#define CV_EV_REDRAW_NS 100000000ULL

/*
 * The terminal (ui/curses_fit.c): the smallest the view draws, the check
 * before curses starts (0, or -1 with one line in err saying why and to
 * use -b), and the line shown instead of the view when it is smaller.
 */
#define CV_MIN_LINES 6
#define CV_MIN_COLS 40
int cv_term_check(int fd, char *err, size_t len);
bool cv_fits(int h, int w);
void cv_draw_too_small(void);
/*
 * The top line, at most width cells when it can be: the verdict whole,
 * time, interval, ncpu and source as they fit (ui/curses_head.c);
 * with_bar: the All bar below says "accounted X% of Y%", this line not.
 */
void cv_headline(const struct cv *cv, bool with_bar, int width, char *buf,
		 size_t len);
/* Is the selected row on screen (as the last draw left it)? */
bool cv_sel_shown(const struct cv *cv);

/*
 * The process screen (ui/curses_task.c): Enter opens it on the selected
 * row; while open the loop calls its draw and key functions. step: after
 * each interval's rebuild, feeds the history (the selected row's task is
 * followed in the table too). help: its paragraph of the F1 help.
 */
void cv_task_open(struct cv *cv, int ch);
void cv_task_draw(struct cv *cv);
void cv_task_key(struct cv *cv, int ch);
void cv_task_step(struct cv *cv);
extern const char cv_task_help[];

/* The signal menu's entries. */
int cv_signal_count(void);
const char *cv_signal_name(int i);

#endif /* UI_CURSES_VIEW_H */
