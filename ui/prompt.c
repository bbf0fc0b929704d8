// SPDX-License-Identifier: GPL-2.0
/* One-line editor over wide characters, history by libedit. */
#include <curses.h>
#include <errno.h>
#include <histedit.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "prompt.h"

#define CTRL(x) ((x) & 0x1f)

static void set_text(struct ui_prompt *p, const wchar_t *w)
{
	wcsncpy(p->buf, w, UI_PROMPT_MAX - 1);
	p->buf[UI_PROMPT_MAX - 1] = L'\0';
	p->len = p->cur = wcslen(p->buf);
}

void ui_prompt_start(struct ui_prompt *p, const char *utf8)
{
	mbstate_t st = { 0 };
	const char *s = utf8 ? utf8 : "";
	size_t n;

	memset(p, 0, sizeof(*p));
	n = mbsrtowcs(p->buf, &s, UI_PROMPT_MAX - 1, &st);
	if (n == (size_t)-1)
		n = 0;	/* not valid in this locale: start empty */
	p->buf[n] = L'\0';
	p->len = p->cur = n;
	p->hist_at = -1;
}

void ui_prompt_text(const struct ui_prompt *p, char *out, size_t len)
{
	mbstate_t st = { 0 };
	const wchar_t *w = p->buf;
	size_t n;

	if (!len)
		return;
	n = wcsrtombs(out, &w, len - 1, &st);
	if (n == (size_t)-1)
		n = 0;
	out[n] = '\0';
}

int ui_prompt_cursor_col(const struct ui_prompt *p)
{
	int w = wcswidth(p->buf, p->cur);

	return w < 0 ? (int)p->cur : w;
}

static void insert(struct ui_prompt *p, wchar_t c)
{
	if (p->len + 1 >= UI_PROMPT_MAX)
		return;
	wmemmove(p->buf + p->cur + 1, p->buf + p->cur, p->len - p->cur + 1);
	p->buf[p->cur++] = c;
	p->len++;
}

static void delete_range(struct ui_prompt *p, size_t from, size_t to)
{
	wmemmove(p->buf + from, p->buf + to, p->len - to + 1);
	p->len -= to - from;
	p->cur = from;
}

/* n-th newest history line into the buffer; false if there is none */
static bool hist_get(struct ui_prompt_hist *h, int n, struct ui_prompt *p)
{
	HistEventW ev;
	int i;

	if (!h || !h->h || history_w(h->h, &ev, H_FIRST) != 0)
		return false;
	for (i = 0; i < n; i++)
		if (history_w(h->h, &ev, H_NEXT) != 0)
			return false;
	set_text(p, ev.str);
	/* libedit keeps the newline a line was entered with, if any */
	while (p->len && p->buf[p->len - 1] == L'\n')
		p->buf[--p->len] = L'\0';
	p->cur = p->len;
	return true;
}

enum ui_prompt_result ui_prompt_key(struct ui_prompt *p,
				    struct ui_prompt_hist *h, int key)
{
	size_t i;

	switch (key) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		return UI_PROMPT_DONE;
	case 27:
	case CTRL('g'):
		return UI_PROMPT_CANCEL;
	case KEY_LEFT:
	case CTRL('b'):
		if (p->cur)
			p->cur--;
		return UI_PROMPT_MOVED;
	case KEY_RIGHT:
	case CTRL('f'):
		if (p->cur < p->len)
			p->cur++;
		return UI_PROMPT_MOVED;
	case KEY_HOME:
	case CTRL('a'):
		p->cur = 0;
		return UI_PROMPT_MOVED;
	case KEY_END:
	case CTRL('e'):
		p->cur = p->len;
		return UI_PROMPT_MOVED;
	case KEY_BACKSPACE:
	case 127:
	case CTRL('h'):
		if (!p->cur)
			return UI_PROMPT_MOVED;
		delete_range(p, p->cur - 1, p->cur);
		return UI_PROMPT_EDITED;
	case KEY_DC:
	case CTRL('d'):
		if (p->cur == p->len)
			return UI_PROMPT_MOVED;
		delete_range(p, p->cur, p->cur + 1);
		return UI_PROMPT_EDITED;
	case CTRL('k'):
		p->buf[p->cur] = L'\0';
		p->len = p->cur;
		return UI_PROMPT_EDITED;
	case CTRL('u'):
		delete_range(p, 0, p->cur);
		return UI_PROMPT_EDITED;
	case CTRL('w'):
		i = p->cur;
		while (i && p->buf[i - 1] == L' ')
			i--;
		while (i && p->buf[i - 1] != L' ')
			i--;
		delete_range(p, i, p->cur);
		return UI_PROMPT_EDITED;
	case KEY_UP:
		if (p->hist_at < 0)
			wcscpy(p->typed, p->buf);
		if (!hist_get(h, p->hist_at + 1, p))
			return UI_PROMPT_MOVED;
		p->hist_at++;
		return UI_PROMPT_EDITED;
	case KEY_DOWN:
		if (p->hist_at < 0)
			return UI_PROMPT_MOVED;
		p->hist_at--;
		if (p->hist_at < 0)
			set_text(p, p->typed);
		else
			hist_get(h, p->hist_at, p);
		return UI_PROMPT_EDITED;
	default:
		break;
	}
	if (UI_KEY_IS_WIDE(key)) {
		wchar_t c = (wchar_t)(key & 0xffffff);

		if (!iswprint(c))
			return UI_PROMPT_OTHER;
		insert(p, c);
		return UI_PROMPT_EDITED;
	}
	if (key >= 0x20 && key < 0x7f) {
		insert(p, (wchar_t)key);
		return UI_PROMPT_EDITED;
	}
	return UI_PROMPT_OTHER;
}

int ui_prompt_hist_init(struct ui_prompt_hist *h)
{
	HistEventW ev;

	h->h = history_winit();
	if (!h->h)
		return -ENOMEM;
	history_w(h->h, &ev, H_SETSIZE, 100);
	history_w(h->h, &ev, H_SETUNIQUE, 1);
	return 0;
}

void ui_prompt_hist_free(struct ui_prompt_hist *h)
{
	if (h->h)
		history_wend(h->h);
	h->h = NULL;
}

void ui_prompt_hist_add(struct ui_prompt_hist *h, const char *utf8)
{
	struct ui_prompt tmp;
	HistEventW ev;

	if (!h->h || !utf8 || !utf8[0])
		return;
	ui_prompt_start(&tmp, utf8);
	if (tmp.len)
		history_w(h->h, &ev, H_ENTER, tmp.buf);
}
