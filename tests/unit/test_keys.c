// SPDX-License-Identifier: GPL-2.0
/*
 * The curses view's key dispatch table: htop's keys bound to what the
 * help says, no key bound twice, a key bound to nothing answered in the
 * status line; the live filter and the incremental search as keys come.
 * The handlers only change the view's state, so no terminal is needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "ui/curses_help.h"
#include "ui/curses_input.h"
#include "ui/curses_menu.h"
#include "ui/curses_proc.h"
#include "ui/curses_setup.h"
#include "ui/curses_signal.h"
#include "ui/curses_table.h"

static struct ui_app app;
static struct ptop_src src;
static struct cv cv;
static struct ptop_row rows[4];

static const char *const comms[] = { "bash", "make", "cc1", "kworker/0" };

static int setup(void **state)
{
	int i;

	(void)state;
	memset(&app, 0, sizeof(app));
	memset(&src, 0, sizeof(src));
	memset(&cv, 0, sizeof(cv));
	app.src = &src;
	app.cols[0] = PTOP_COL_PID;
	app.cols[1] = PTOP_COL_TOTAL;
	app.cols[2] = PTOP_COL_COMMAND;
	app.ncols = 3;
	app.view.cols = app.cols;
	app.view.ncols = 3;
	app.view.sort_id = PTOP_COL_PID;
	app.view.sort_asc = true;
	app.delay_s = 2;
	for (i = 0; i < 4; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].pid = rows[i].tgid = 100 + i;
		rows[i].ppid = i ? 100 : 1;
		rows[i].total = (uint64_t)(i + 1) * 1000000;
		rows[i].time_ns = (uint64_t)(4 - i) * 1000000000ULL;
		snprintf(rows[i].comm, sizeof(rows[i].comm), "%s", comms[i]);
	}
	rows[3].ppid = 2;	/* a kernel thread */
	app.iv.rows = rows;
	app.iv.nrows = 4;
	app.iv.ncpu = 1;
	app.iv.interval_ns = 1000000000ULL;
	cv.app = &app;
	cv.have_iv = true;
	cv.nvis = 10;
	ui_view_init(&cv.v);
	for (i = 0; i < CV_IN__COUNT; i++)
		ui_prompt_hist_init(&cv.hist[i]);
	cv_screen_push(&cv, &cv_table_ops, NULL);
	cv_rebuild(&cv);
	return 0;
}

static int teardown(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < CV_IN__COUNT; i++)
		ui_prompt_hist_free(&cv.hist[i]);
	cv_screen_close_all(&cv);
	ui_view_free(&cv.v);
	return 0;
}

static void keys(const char *s)
{
	for (; *s; s++)
		cv_key(&cv, (unsigned char)*s);
}

static void test_table_is_sound(void **state)
{
	size_t i, j, k, l;

	(void)state;
	for (i = 0; i < cv_nbindings; i++) {
		const struct cv_binding *b = &cv_bindings[i];

		assert_non_null(b->fn);
		assert_true(b->keys[0] != 0);
		/* what the help lists has a name and words */
		if (b->help)
			assert_true(b->keynames && b->keynames[0] && b->help[0]);
		for (j = 0; j < 4 && b->keys[j]; j++)
			for (k = i; k < cv_nbindings; k++)
				for (l = k == i ? j + 1 : 0; l < 4 && cv_bindings[k].keys[l]; l++)
					if (b->keys[j] == cv_bindings[k].keys[l])
						fail_msg("key %d bound twice", b->keys[j]);
	}
	/* htop's function keys all do something */
	for (i = 1; i <= 10; i++)
		assert_non_null(cv_binding_of(KEY_F((int)i)));
	assert_null(cv_binding_of('j'));
}

static void test_function_keys(void **state)
{
	(void)state;
	cv_key(&cv, KEY_F(1));
	assert_ptr_equal(cv_screen_top(&cv), &cv_help_ops);
	cv_key(&cv, 'x');		/* any other key leaves help */
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	cv_key(&cv, KEY_F(2));
	assert_ptr_equal(cv_screen_top(&cv), &cv_setup_ops);
	cv_key(&cv, 27);
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	cv_key(&cv, KEY_F(3));
	assert_ptr_equal(cv_screen_top(&cv), &cv_input_ops);
	assert_int_equal(cv_input_top(&cv)->kind, CV_IN_SEARCH);
	cv_key(&cv, 27);
	cv_key(&cv, KEY_F(4));
	assert_int_equal(cv_input_top(&cv)->kind, CV_IN_FILTER);
	cv_key(&cv, 27);
	assert_false(cv.v.tree);
	cv_key(&cv, KEY_F(5));
	assert_true(cv.v.tree);
	cv_key(&cv, 't');
	assert_false(cv.v.tree);
	cv_key(&cv, KEY_F(6));
	assert_non_null(cv_menu_top(&cv));
	assert_ptr_equal(cv_menu_top(&cv)->def, &cv_sort_menu);
	cv_key(&cv, KEY_DOWN);
	cv_key(&cv, '\n');		/* the column after PID: TGID */
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	assert_int_equal(app.view.sort_id, PTOP_COL_TGID);
	cv_key(&cv, KEY_F(9));
	assert_non_null(cv_menu_top(&cv));
	assert_ptr_equal(cv_menu_top(&cv)->def, &cv_signal_menu);
	assert_string_equal(cv_signal_name(cv_menu_top(&cv)->sel), "SIGTERM");
	cv_key(&cv, 27);
	assert_string_equal(cv.msg, "not sent");
	assert_false(cv.quit);
	cv_key(&cv, KEY_F(10));
	assert_true(cv.quit);
}

static void test_sort_keys(void **state)
{
	(void)state;
	cv_key(&cv, 'P');
	assert_int_equal(app.view.sort_id, PTOP_COL_TOTAL);
	assert_false(app.view.sort_asc);
	assert_int_equal(cv.v.rows[0].r.pid, 103);	/* the biggest total */
	cv_key(&cv, 'T');
	assert_int_equal(app.view.sort_id, PTOP_COL_TIME);
	assert_int_equal(cv.v.rows[0].r.pid, 100);
	cv_key(&cv, 'M');
	assert_int_equal(app.view.sort_id, PTOP_COL_RSS);
	assert_true(src.cfg.need & PTOP_DATA_MEM);
	cv_key(&cv, 'N');
	assert_int_equal(app.view.sort_id, PTOP_COL_PID);
	assert_true(app.view.sort_asc);
	cv_key(&cv, 'I');
	assert_false(app.view.sort_asc);
	cv_key(&cv, '>');		/* PID -> total, the next shown column */
	assert_int_equal(app.view.sort_id, PTOP_COL_TOTAL);
}

static void test_tags_and_kthreads(void **state)
{
	(void)state;
	keys("  ");			/* tag 100 and 101 (moves down) */
	assert_int_equal(cv.v.tagged.n, 2);
	assert_true(cv.v.rows[0].tagged && cv.v.rows[1].tagged);
	cv_key(&cv, 'U');
	assert_int_equal(cv.v.tagged.n, 0);
	cv.sel = 0;
	cv_key(&cv, 'c');		/* 100 and all below it */
	assert_int_equal(cv.v.tagged.n, 3);
	assert_false(ui_pidset_has(&cv.v.tagged, 103));
	cv_key(&cv, 'K');
	assert_int_equal(cv.v.nrows, 3);	/* kworker hidden */
	cv_key(&cv, 'K');
	assert_int_equal(cv.v.nrows, 4);
	/* collapse and expand in the tree */
	cv_key(&cv, 't');
	cv.sel = 0;
	cv_key(&cv, '-');
	assert_int_equal(cv.v.nrows, 2);	/* 100 (+2), 103 */
	assert_true(cv.v.rows[0].collapsed);
	cv_key(&cv, '+');
	assert_int_equal(cv.v.nrows, 4);
	cv_key(&cv, 'Z');
	assert_true(cv.paused);
	cv_key(&cv, 'x');
	assert_true(cv.expand_groups);
}

static void test_unbound_key_says_so(void **state)
{
	(void)state;
	cv_key(&cv, 'j');
	assert_non_null(strstr(cv.msg, "'j' does nothing"));
	cv_key(&cv, KEY_DOWN);	/* a bound key clears it */
	assert_string_equal(cv.msg, "");
}

static void test_live_filter(void **state)
{
	(void)state;
	cv_key(&cv, '\\');
	keys("ma");			/* live: no Enter needed */
	assert_string_equal(cv.v.filter, "ma");
	assert_int_equal(cv.v.nrows, 1);
	assert_string_equal(cv.v.rows[0].r.comm, "make");
	cv_key(&cv, 27);		/* Esc undoes */
	assert_string_equal(cv.v.filter, "");
	assert_int_equal(cv.v.nrows, 4);
	/* a regex (Tab) */
	cv_key(&cv, KEY_F(4));
	cv_key(&cv, '\t');
	keys("^(cc|ba)");
	assert_true(cv.v.filter_regex);
	assert_int_equal(cv.v.nrows, 2);
	cv_key(&cv, '\n');
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	assert_int_equal(cv.v.nrows, 2);
	/* a broken regex keeps the last good filter and says why */
	cv_key(&cv, KEY_F(4));
	keys("(");
	assert_non_null(strstr(cv.msg, "bad regex"));
	assert_int_equal(cv.v.nrows, 2);
	cv_key(&cv, 27);
}

static void test_incremental_search(void **state)
{
	(void)state;
	cv.sel = 0;
	cv_key(&cv, '/');
	keys("c");			/* cc1 is the first with a 'c' */
	assert_string_equal(cv.v.rows[cv.sel].r.comm, "cc1");
	keys("x");
	assert_non_null(strstr(cv.msg, "no task matches 'cx'"));
	cv_key(&cv, KEY_BACKSPACE);
	cv_key(&cv, KEY_F(3));		/* next: kworker has no 'c'... wraps */
	assert_string_equal(cv.v.rows[cv.sel].r.comm, "cc1");
	cv_key(&cv, '\n');
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	/* the history: / Up gives the last search again */
	cv_key(&cv, '/');
	cv_key(&cv, KEY_UP);
	{
		char t[64];

		ui_prompt_text(&cv_input_top(&cv)->prompt, t, sizeof(t));
		assert_string_equal(t, "c");
	}
	cv_key(&cv, 27);
}

#define SETUP() ((struct cv_setup *)cv_screen_find(&cv, &cv_setup_ops))

static const char *meters_of(int c)
{
	static char buf[2][128];

	cfg_meters_format(cv.mcol[c], cv.nmcol[c], buf[c], sizeof(buf[c]));
	return buf[c];
}

/* F2's meters: hide, show, move within and across columns, style */
static void test_setup_meters(void **state)
{
	(void)state;
	cv_meters_default(&cv);
	assert_string_equal(meters_of(0), "cpu:bar,mem:bar,swap:bar");
	assert_string_equal(meters_of(1), "tasks,load,uptime");
	cv_key(&cv, KEY_F(2));
	assert_ptr_equal(cv_screen_top(&cv), &cv_setup_ops);
	cv_key(&cv, '\t');
	assert_int_equal(SETUP()->sec, 1);
	/* line 1: cpu; b makes it text */
	cv_key(&cv, KEY_DOWN);
	cv_key(&cv, 'b');
	/* line 3: swap; + moves it from the bottom of the left column to
	 * the top of the right one, + again below tasks */
	cv_key(&cv, KEY_DOWN);
	cv_key(&cv, KEY_DOWN);
	cv_key(&cv, '+');
	cv_key(&cv, '+');
	/* the selection follows swap (line 4); load (line 5): Space hides it */
	assert_int_equal(SETUP()->sel, 4);
	cv_key(&cv, KEY_DOWN);
	cv_key(&cv, ' ');
	assert_int_equal(SETUP()->sel, 6);	/* load, at the top of the hidden */
	/* tasks (line 3) is text only: b says so and changes nothing */
	cv_key(&cv, KEY_UP);
	cv_key(&cv, KEY_UP);
	cv_key(&cv, KEY_UP);
	cv_key(&cv, 'b');
	assert_non_null(strstr(cv.msg, "text only"));
	/* the All meter: text */
	SETUP()->sel = 1 + CFG_M__COUNT;
	cv_key(&cv, ' ');
	/* nothing changes before Enter */
	assert_string_equal(meters_of(0), "cpu:bar,mem:bar,swap:bar");
	cv_key(&cv, '\n');
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	assert_string_equal(meters_of(0), "cpu:text,mem:bar");
	assert_string_equal(meters_of(1), "tasks,swap:bar,uptime");
	assert_int_equal(cv.all_style, CFG_MS_TEXT);
	/* a hidden meter shown again goes to the end of the right column;
	 * - on the top of the right column puts it under the left one */
	cv_key(&cv, KEY_F(2));
	cv_key(&cv, '\t');
	SETUP()->sel = 1 + 5;	/* the hidden load */
	cv_key(&cv, ' ');
	SETUP()->sel = 1 + 2;	/* tasks, the right column's first */
	cv_key(&cv, '-');
	cv_key(&cv, KEY_ENTER);
	assert_string_equal(meters_of(0), "cpu:text,mem:bar,tasks");
	assert_string_equal(meters_of(1), "swap:bar,uptime,load");
	/* Esc changes nothing */
	cv_key(&cv, KEY_F(2));
	cv_key(&cv, '\t');
	SETUP()->sel = 1;
	cv_key(&cv, ' ');
	cv_key(&cv, 27);
	assert_string_equal(meters_of(0), "cpu:text,mem:bar,tasks");
}

/* htop's 0-9: the pid typed selects its row; a non-digit starts anew */
static void test_pid_typing(void **state)
{
	(void)state;
	cv.sel = 0;
	keys("10");
	assert_int_equal(cv.v.rows[cv.sel].r.pid, 100);
	assert_non_null(strstr(cv.msg, "pid 10: not shown"));
	keys("2");
	assert_int_equal(cv.v.rows[cv.sel].r.pid, 102);
	assert_string_equal(cv.msg, "pid 102");
	keys("9");
	assert_non_null(strstr(cv.msg, "pid 1029: not shown"));
	assert_int_equal(cv.v.rows[cv.sel].r.pid, 102);
	cv_key(&cv, KEY_UP);
	keys("103");
	assert_int_equal(cv.v.rows[cv.sel].r.pid, 103);
}

/* htop's e s l a i w; ptop's own toggles on D and W */
static void test_htop_task_keys(void **state)
{
	(void)state;
	cv_key(&cv, 'D');
	assert_true(cv.exited_list);
	assert_non_null(strstr(cv.msg, "shown (dimmed) in the list"));
	cv_key(&cv, 'W');
	assert_string_equal(cv.msg, "no config file to save to (--no-config)");
	/* pid 100 is not in this proc root: e and w say why, no screen */
	src.cfg.proc_root = "/nonexistent-proc";
	cv.sel = 0;
	cv_key(&cv, 'e');
	assert_non_null(strstr(cv.msg, "the environment of 100 (bash): "));
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	cv_key(&cv, 'w');
	assert_non_null(strstr(cv.msg, "the command line of 100: "));
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	/* a: the CPUs as a menu, Space unchecks one, Esc changes nothing */
	cv_key(&cv, 'a');
	assert_non_null(cv_menu_top(&cv));
	assert_ptr_equal(cv_menu_top(&cv)->def, &cv_affinity_menu);
	cv_key(&cv, ' ');
	assert_int_equal(cv_menu_top(&cv)->sel, cv_menu_top(&cv)->n > 1 ? 1 : 0);
	cv_key(&cv, 27);
	assert_ptr_equal(cv_screen_top(&cv), &cv_table_ops);
	/* i: the I/O classes, 18 entries */
	cv_key(&cv, 'i');
	assert_ptr_equal(cv_menu_top(&cv)->def, &cv_ionice_menu);
	assert_int_equal(cv_menu_top(&cv)->n, 18);
	cv_key(&cv, 27);
	/* an exited task: nothing to show */
	cv.v.rows[0].exited = true;
	cv_key(&cv, 'e');
	assert_string_equal(cv.msg, "100 has exited: no environment");
	cv.v.rows[0].exited = false;
}

/* every signal with its number; a number typed selects it */
static void test_signal_list(void **state)
{
	int i;

	(void)state;
	assert_int_equal(cv_signal_count(), 31);
	for (i = 0; i < cv_signal_count(); i++)
		assert_int_equal(cv_signal_number(i), i + 1);
	assert_string_equal(cv_signal_name(8), "SIGKILL");
	cv.sel = 0;
	cv_key(&cv, 'k');
	assert_ptr_equal(cv_menu_top(&cv)->def, &cv_signal_menu);
	assert_string_equal(cv_signal_name(cv_menu_top(&cv)->sel), "SIGTERM");
	cv_key(&cv, '9');
	assert_string_equal(cv_signal_name(cv_menu_top(&cv)->sel), "SIGKILL");
	cv_key(&cv, KEY_HOME);
	keys("10");
	assert_string_equal(cv_signal_name(cv_menu_top(&cv)->sel), "SIGUSR1");
	cv_key(&cv, 27);
	assert_string_equal(cv.msg, "not sent");
}

static void test_mouse(void **state)
{
	(void)state;
	cv.table_y = 5;
	cv.top = 0;
	cv_mouse(&cv, 7, 3, 1);		/* the second row */
	assert_int_equal(cv.sel, 1);
	cv_mouse(&cv, 7, 3, 5);		/* wheel down */
	assert_int_equal(cv.sel, 3);
	cv_mouse(&cv, 7, 3, 4);		/* wheel up */
	assert_int_equal(cv.sel, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_table_is_sound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_function_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sort_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tags_and_kthreads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unbound_key_says_so, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incremental_search, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mouse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_setup_meters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pid_typing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_htop_task_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal_list, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
