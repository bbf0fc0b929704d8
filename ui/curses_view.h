/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interactive curses view. It only reads the model (struct ui_app's
 * last interval); what it shows is a private, filtered, sorted and
 * possibly tree-ordered copy of the rows.
 */
#ifndef UI_CURSES_VIEW_H
#define UI_CURSES_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include "app.h"
#include "config/cfg.h"

/*
 * Run the view. cfg (may be NULL) gives the initial tree mode and is what
 * the 's' key saves, to cfg_path (NULL: saving is off).
 */
int ui_curses_run_cfg(struct ui_app *app, struct cfg *cfg,
		      const char *cfg_path);

/* --- internal to ui/curses_*.c ------------------------------------------ */
/* the first interval, so rows show at once whatever the delay */
#define CV_FIRST_STEP_NS 200000000ULL
enum cv_mode { CV_TABLE, CV_HELP, CV_COLS, CV_INPUT, CV_CONFIRM };
enum cv_input { CV_IN_FILTER, CV_IN_DELAY };

struct cv {
	struct ui_app *app;
	struct cfg *cfg;
	const char *cfg_path;
	struct ptop_row *rows;	/* what is shown, in order */
	size_t nrows, caprows;
	bool have_iv;
	size_t sel, top;
	int hscroll;
	int line_w;		/* widest table line of the last draw */
	int nvis;		/* row lines on screen, from the last draw */
	bool tree, paused, follow, quit;
	bool threads_pending;	/* H pressed: rows change next interval */
	uint32_t follow_pid;
	char filter[128];
	enum cv_mode mode;
	enum cv_input input_kind;
	char input[128];
	size_t inlen;
	int help_top;
	int help_lines;
	int chooser[PTOP_COL__COUNT];	/* column ids in list order */
	bool chosen[PTOP_COL__COUNT];
	int ch_sel;
	uint32_t kill_pid;
	char kill_comm[PTOP_TS_COMM_LEN];
	char msg[1200];
	uint64_t deadline_ns;	/* next snapshot, CLOCK_MONOTONIC */
	uint64_t last_snap_ns;
};

uint64_t cv_now_ns(void);
/* Rebuild the shown rows from the app's interval (filter, sort, tree). */
void cv_rebuild(struct cv *cv);
/* Keep the selection in range and on screen. */
void cv_clamp(struct cv *cv);
void cv_draw(struct cv *cv);
/* Right stops where the widest line ends at the screen's edge */
int cv_hscroll_max(const struct cv *cv);
#define CV_HSTEP 8
void cv_key(struct cv *cv, int ch);
/* Help text lines, for the help screen: keys then columns. */
int cv_help_line(int i, char *buf, size_t len);

#endif /* UI_CURSES_VIEW_H */
