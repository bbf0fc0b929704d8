// SPDX-License-Identifier: GPL-2.0
/*
 * The prompt screen: a line editor (ui/prompt.h) over the status line,
 * the table drawn under it. Search jumps as keys come; the filter
 * filters as keys come and Esc puts the one before back; the delay is
 * checked on Enter and a bad one changes nothing.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "curses_input.h"
#include "curses_paint.h"
#include "filter.h"

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

static bool input_key(struct cv *cv, void *st, int ch)
{
	struct cv_input_state *in = st;
	struct ui_prompt_hist *h = &cv->hist[in->kind];
	enum ui_prompt_result res;
	char text[UI_PROMPT_MAX * 4];

	if (in->kind == CV_IN_SEARCH && ch == KEY_F(3)) {
		ui_prompt_text(&in->prompt, text, sizeof(text));
		if (text[0] && cv->v.nrows)
			search_from(cv, cv->sel + 1, text);
		return true;
	}
	if (in->kind == CV_IN_FILTER && ch == '\t') {
		cv->filter_regex = !cv->filter_regex;
		ui_prompt_text(&in->prompt, text, sizeof(text));
		live_filter(cv, text);
		return true;
	}
	res = ui_prompt_key(&in->prompt, h, ch);
	ui_prompt_text(&in->prompt, text, sizeof(text));
	switch (res) {
	case UI_PROMPT_EDITED:
		if (in->kind == CV_IN_FILTER)
			live_filter(cv, text);
		else if (in->kind == CV_IN_SEARCH && text[0])
			search_from(cv, cv->sel, text);
		break;
	case UI_PROMPT_DONE:
		ui_prompt_hist_add(h, text);
		if (in->kind == CV_IN_DELAY)
			apply_delay(cv, text);
		else if (in->kind == CV_IN_FILTER)
			live_filter(cv, text);
		cv_screen_close(cv, &cv_input_ops);
		break;
	case UI_PROMPT_CANCEL:
		if (in->kind == CV_IN_FILTER)
			live_filter(cv, in->filter_before);
		cv_screen_close(cv, &cv_input_ops);
		break;
	default:
		break;
	}
	return true;
}

static void prompt_line(struct cv *cv, struct cv_input_state *in, int y)
{
	static const char *const what[CV_IN__COUNT] = {
		[CV_IN_SEARCH] = "search (F3: next)",
		[CV_IN_FILTER] = "filter",
		[CV_IN_DELAY] = "delay in seconds",
	};
	char line[CV_LINE_MAX], text[UI_PROMPT_MAX * 4], head[128];
	int x;

	ui_prompt_text(&in->prompt, text, sizeof(text));
	if (in->kind == CV_IN_DELAY)
		snprintf(head, sizeof(head), "%s (now %g): ", what[in->kind],
			 cv->app->delay_s);
	else if (in->kind == CV_IN_FILTER)
		snprintf(head, sizeof(head), "filter%s (Tab: %s): ",
			 cv->filter_regex ? " regex" : "",
			 cv->filter_regex ? "plain text" : "regex");
	else
		snprintf(head, sizeof(head), "%s: ", what[in->kind]);
	snprintf(line, sizeof(line), "%s%s", head, text);
	cv_put(y, line, 0, cv_attr_msg());
	x = (int)strlen(head) + ui_prompt_cursor_col(&in->prompt);
	if (cv->msg[0] && (int)strlen(line) + 3 < COLS) {
		move(y, (int)strlen(line) + 2);
		attrset(A_NORMAL);
		addnstr(cv->msg, COLS - (int)strlen(line) - 3);
	}
	curs_set(1);
	move(y, x < COLS - 1 ? x : COLS - 1);
}

static void input_draw(struct cv *cv, void *st)
{
	cv->status_busy = true;
	cv_screen_draw_below(cv);
	cv->status_busy = false;
	if (cv->status_y < LINES)
		prompt_line(cv, st, cv->status_y);
}

static bool input_mouse(struct cv *cv, void *st, int y, int x, int button)
{
	(void)cv;
	(void)st;
	(void)y;
	(void)x;
	(void)button;
	return true;	/* the prompt keeps the keys and the clicks */
}

const struct cv_screen_ops cv_input_ops = {
	.name = "prompt",
	.draw = input_draw,
	.key = input_key,
	.mouse = input_mouse,
};

void cv_input_open(struct cv *cv, enum cv_input kind)
{
	struct cv_input_state *in = calloc(1, sizeof(*in));

	if (!in) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	in->kind = kind;
	/* the delay starts empty: typing 1 means 1s, not the old value's 21 */
	if (kind == CV_IN_FILTER) {
		snprintf(in->filter_before, sizeof(in->filter_before), "%s",
			 cv->v.filter);
		ui_prompt_start(&in->prompt, cv->v.filter);
	} else {
		ui_prompt_start(&in->prompt, "");
	}
	cv_screen_push(cv, &cv_input_ops, in);
}

struct cv_input_state *cv_input_top(const struct cv *cv)
{
	return cv_screen_top(cv) == &cv_input_ops ?
	       cv->scr[cv->nscr - 1].st : NULL;
}
