// SPDX-License-Identifier: GPL-2.0
/*
 * The prompts' line editor: cursor keys, Ctrl-A/E/K/U/W, UTF-8 in and
 * out, a history per prompt (libedit) walked with Up / Down.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <locale.h>
#include <cmocka.h>
#include <curses.h>

#include "ui/prompt.h"

#define CTRL(x) ((x) & 0x1f)

static void feed(struct ui_prompt *p, struct ui_prompt_hist *h, const char *s)
{
	for (; *s; s++)
		ui_prompt_key(p, h, (unsigned char)*s);
}

static void text_is(const struct ui_prompt *p, const char *want)
{
	char t[1024];

	ui_prompt_text(p, t, sizeof(t));
	assert_string_equal(t, want);
}

static void test_editing(void **state)
{
	struct ui_prompt p;

	(void)state;
	ui_prompt_start(&p, "");
	feed(&p, NULL, "hello");
	ui_prompt_key(&p, NULL, KEY_LEFT);
	ui_prompt_key(&p, NULL, KEY_LEFT);
	feed(&p, NULL, "X");
	text_is(&p, "helXlo");
	ui_prompt_key(&p, NULL, CTRL('a'));
	feed(&p, NULL, "<");
	ui_prompt_key(&p, NULL, CTRL('e'));
	feed(&p, NULL, ">");
	text_is(&p, "<helXlo>");
	ui_prompt_key(&p, NULL, KEY_HOME);
	ui_prompt_key(&p, NULL, KEY_RIGHT);
	ui_prompt_key(&p, NULL, KEY_RIGHT);
	assert_int_equal(ui_prompt_key(&p, NULL, CTRL('k')), UI_PROMPT_EDITED);
	text_is(&p, "<h");
	ui_prompt_key(&p, NULL, KEY_BACKSPACE);
	text_is(&p, "<");
	feed(&p, NULL, "a b");
	ui_prompt_key(&p, NULL, CTRL('w'));
	text_is(&p, "<a ");
	ui_prompt_key(&p, NULL, CTRL('u'));
	text_is(&p, "");
	/* backspace at the start, Left at the start: nothing breaks */
	ui_prompt_key(&p, NULL, KEY_BACKSPACE);
	ui_prompt_key(&p, NULL, KEY_LEFT);
	text_is(&p, "");
	assert_int_equal(ui_prompt_key(&p, NULL, '\r'), UI_PROMPT_DONE);
	assert_int_equal(ui_prompt_key(&p, NULL, 27), UI_PROMPT_CANCEL);
	assert_int_equal(ui_prompt_key(&p, NULL, KEY_F(5)), UI_PROMPT_OTHER);
}

static void test_utf8(void **state)
{
	struct ui_prompt p;

	(void)state;
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		skip();
	ui_prompt_start(&p, "gr\xc3\xbc\xc3\x9f");	/* grüß */
	assert_int_equal(p.len, 4);
	ui_prompt_key(&p, NULL, KEY_LEFT);
	ui_prompt_key(&p, NULL, UI_KEY_WIDE(0x00e9));	/* é */
	text_is(&p, "gr\xc3\xbc\xc3\xa9\xc3\x9f");
	assert_int_equal(ui_prompt_cursor_col(&p), 4);
	/* a wide CJK character takes two columns */
	ui_prompt_key(&p, NULL, UI_KEY_WIDE(0x4e2d));
	assert_int_equal(ui_prompt_cursor_col(&p), 6);
	ui_prompt_key(&p, NULL, KEY_BACKSPACE);
	ui_prompt_key(&p, NULL, KEY_BACKSPACE);
	text_is(&p, "gr\xc3\xbc\xc3\x9f");
	/* a control character is not text */
	assert_int_equal(ui_prompt_key(&p, NULL, UI_KEY_WIDE(0x0085)),
			 UI_PROMPT_OTHER);
}

static void test_history(void **state)
{
	struct ui_prompt_hist h;
	struct ui_prompt p;
	int i;

	(void)state;
	assert_int_equal(ui_prompt_hist_init(&h), 0);
	ui_prompt_hist_add(&h, "first");
	ui_prompt_hist_add(&h, "");		/* not kept */
	ui_prompt_hist_add(&h, "second");
	ui_prompt_start(&p, "");
	feed(&p, &h, "typ");
	ui_prompt_key(&p, &h, KEY_UP);
	text_is(&p, "second");
	ui_prompt_key(&p, &h, KEY_UP);
	text_is(&p, "first");
	ui_prompt_key(&p, &h, KEY_UP);		/* no older: stays */
	text_is(&p, "first");
	ui_prompt_key(&p, &h, KEY_DOWN);
	text_is(&p, "second");
	ui_prompt_key(&p, &h, KEY_DOWN);	/* back to what was typed */
	text_is(&p, "typ");
	/* a long line is cut, never overflows */
	ui_prompt_start(&p, "");
	for (i = 0; i < 3 * UI_PROMPT_MAX; i++)
		ui_prompt_key(&p, &h, 'a');
	assert_int_equal(p.len, UI_PROMPT_MAX - 1);
	ui_prompt_hist_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_editing),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
