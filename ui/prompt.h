/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The view's one-line prompts (search, filter, delay): a line editor
 * over wide characters (UTF-8 in and out), with the cursor keys, Home /
 * End and Ctrl-A / E / K / U / W, and a history per prompt kind kept
 * by libedit (Up / Down walk it). Not curses: it is fed keys and says
 * what it did, so it is tested on its own.
 */
#ifndef UI_PROMPT_H
#define UI_PROMPT_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define UI_PROMPT_MAX 256
/* a character key that is not ASCII, as cv_key() gets it */
#define UI_KEY_WIDE(wc)	(0x1000000 | (int)(wc))
#define UI_KEY_IS_WIDE(k) (((k) & 0x1000000) != 0)

struct ui_prompt_hist {
	void *h;		/* libedit HistoryW */
};

struct ui_prompt {
	wchar_t buf[UI_PROMPT_MAX];
	size_t len, cur;
	int hist_at;		/* -1: the line being typed; n: n-th newest */
	wchar_t typed[UI_PROMPT_MAX];	/* kept while walking the history */
};

enum ui_prompt_result {
	UI_PROMPT_EDITED,	/* the text changed */
	UI_PROMPT_MOVED,	/* only the cursor moved */
	UI_PROMPT_DONE,		/* Enter */
	UI_PROMPT_CANCEL,	/* Esc, Ctrl-G */
	UI_PROMPT_OTHER,	/* not an editing key (the caller may use it) */
};

void ui_prompt_start(struct ui_prompt *p, const char *utf8);
/*
 * Feed one key: a curses key code (KEY_LEFT ...), an ASCII character, or
 * UI_KEY_WIDE(wc). h (may be NULL) is the history Up / Down walk.
 */
enum ui_prompt_result ui_prompt_key(struct ui_prompt *p,
				    struct ui_prompt_hist *h, int key);
/* The text, UTF-8. */
void ui_prompt_text(const struct ui_prompt *p, char *out, size_t len);
/* Screen columns before the cursor. */
int ui_prompt_cursor_col(const struct ui_prompt *p);

/* 0 or -ENOMEM */
int ui_prompt_hist_init(struct ui_prompt_hist *h);
void ui_prompt_hist_free(struct ui_prompt_hist *h);
/* Remember a line (not an empty one, not the newest again). */
void ui_prompt_hist_add(struct ui_prompt_hist *h, const char *utf8);

#endif /* UI_PROMPT_H */
