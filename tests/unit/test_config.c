// SPDX-License-Identifier: GPL-2.0
/*
 * ptoprc: load/save round trip, every kind of broken file is refused with
 * file:line and leaves the target untouched, saving is atomic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/cfg.h"

struct fixture {
	char dir[64];
	char path[128];
	char err[512];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/ptop_cfg_XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/ptop/ptoprc", f->dir);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void write_file(const char *path, const char *data, size_t len)
{
	char dir[128], *p;
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	*p = '\0';
	mkdir(dir, 0755);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

static void test_defaults_and_path(void **state)
{
	struct cfg c;
	char buf[256];

	(void)state;
	cfg_defaults(&c);
	assert_int_equal(c.sort_id, PTOP_COL_TOTAL);
	assert_false(c.sort_asc);
	assert_int_equal(c.ncols, 0);
	assert_string_equal(c.source, "auto");
	assert_true(c.delay_s == 2.0);

	setenv("XDG_CONFIG_HOME", "/x/y", 1);
	assert_int_equal(cfg_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/y/ptop/ptoprc");
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(cfg_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.config/ptop/ptoprc");
}

static void test_missing_file(void **state)
{
	struct fixture *f = *state;
	struct cfg c, before;

	cfg_defaults(&c);
	before = c;
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), -ENOENT);
	assert_memory_equal(&c, &before, sizeof(c));
}

static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct cfg c, d;
	char bad[64];
	struct stat st;

	cfg_defaults(&c);
	c.ncols = ptop_col_parse_list("PID,user,USER,sys,total,COMMAND",
				      c.cols, CFG_MAX_COLS, bad, sizeof(bad));
	assert_int_equal(c.ncols, 6);
	c.sort_id = PTOP_COL_STIME;
	c.sort_asc = true;
	c.delay_s = 0.5;
	c.tree = true;
	c.threads = true;
	snprintf(c.source, sizeof(c.source), "procfs");
	/* the view's settings, all away from their defaults */
	assert_true(c.show_exited && c.meters && !c.hide_kthreads && c.fkeys);
	assert_int_equal(c.colors, CFG_COLORS_DEFAULT);
	c.show_exited = false;
	c.meters = false;
	c.fkeys = false;
	c.hide_kthreads = true;
	c.colors = CFG_COLORS_MONO;
	/* the directory does not exist yet: created */
	assert_int_equal(cfg_save(f->path, &c, f->err, sizeof(f->err)), 0);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);

	cfg_defaults(&d);
	assert_int_equal(cfg_load(f->path, &d, f->err, sizeof(f->err)), 0);
	assert_int_equal(d.ncols, 6);
	assert_memory_equal(d.cols, c.cols, 6 * sizeof(int));
	assert_int_equal(d.cols[1], PTOP_COL_UTIME);
	assert_int_equal(d.cols[2], PTOP_COL_USER);
	assert_int_equal(d.sort_id, PTOP_COL_STIME);
	assert_true(d.sort_asc);
	assert_true(d.delay_s == 0.5);
	assert_true(d.tree);
	assert_true(d.threads);
	assert_string_equal(d.source, "procfs");
	assert_false(d.show_exited);
	assert_false(d.meters);
	assert_false(d.fkeys);
	assert_true(d.hide_kthreads);
	assert_int_equal(d.colors, CFG_COLORS_MONO);
}

static void test_comments_blank_spaces(void **state)
{
	struct fixture *f = *state;
	const char *text = "# a comment\n\n  version = 1 \ncolumns= PID, COMMAND\r\n"
			   "sort=-PID\n\ttree=1\n";
	struct cfg c;

	write_file(f->path, text, strlen(text));
	cfg_defaults(&c);
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), 0);
	assert_int_equal(c.ncols, 2);
	assert_int_equal(c.cols[0], PTOP_COL_PID);
	assert_int_equal(c.cols[1], PTOP_COL_COMMAND);
	assert_int_equal(c.sort_id, PTOP_COL_PID);
	assert_true(c.sort_asc);
	assert_true(c.tree);
}

/* A broken file: -EINVAL, "path:line:" in the message, cfg untouched. */
static void check_broken(struct fixture *f, const char *data, size_t len,
			 unsigned int line, const char *words)
{
	struct cfg c, before;
	char want[200];

	write_file(f->path, data, len);
	cfg_defaults(&c);
	c.delay_s = 7;		/* something not the default */
	c.tree = true;
	before = c;
	f->err[0] = '\0';
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), -EINVAL);
	assert_memory_equal(&c, &before, sizeof(c));
	snprintf(want, sizeof(want), "%s:%u:", f->path, line);
	if (strncmp(f->err, want, strlen(want)))
		fail_msg("message '%s' does not start with '%s'", f->err, want);
	if (!strstr(f->err, words))
		fail_msg("message '%s' does not say '%s'", f->err, words);
}

#define BROKEN(f, s, line, words) check_broken(f, s, strlen(s), line, words)

static void test_broken(void **state)
{
	struct fixture *f = *state;
	/* the good keys come first: nothing of them may stick */
	const char *head = "version=1\ndelay=1\ntree=0\n";
	char buf[8192];

	snprintf(buf, sizeof(buf), "%sdelay=fast\n", head);
	BROKEN(f, buf, 4, "bad delay 'fast'");
	BROKEN(f, "delay=0\n", 1, "bad delay");
	BROKEN(f, "delay=1e9\n", 1, "bad delay");
	BROKEN(f, "delay=nan\n", 1, "bad delay");
	BROKEN(f, "tree=yes\n", 1, "bad value 'yes' for tree");
	BROKEN(f, "threads=2\n", 1, "bad value '2' for threads");
	BROKEN(f, "version=0\n", 1, "unsupported version '0'");
	BROKEN(f, "version=-1\n", 1, "unsupported version");
	BROKEN(f, "version=\n", 1, "unsupported version");
	/* a newer ptop's key does not excuse a broken value after it */
	snprintf(buf, sizeof(buf), "%sgraphs=cpu\ndelay=fast\n", head);
	BROKEN(f, buf, 5, "bad delay 'fast'");
	snprintf(buf, sizeof(buf), "%scolumns=PID,bogus,COMMAND\n", head);
	BROKEN(f, buf, 4, "unknown column 'bogus'");
	BROKEN(f, "columns=\n", 1, "unknown column");
	BROKEN(f, "sort=nope\n", 1, "unknown sort column 'nope'");
	BROKEN(f, "source=magic\n", 1, "unknown source 'magic'");
	BROKEN(f, "colors=rainbow\n", 1, "bad colors 'rainbow'");
	BROKEN(f, "exited=2\n", 1, "bad value '2' for exited");
	BROKEN(f, "meters=\n", 1, "bad value '' for meters");
	BROKEN(f, "fkeys=on\n", 1, "bad value 'on' for fkeys");
	BROKEN(f, "columns=PID,total,PID\n", 1, "column 'PID' listed twice");
	BROKEN(f, "just some words\n", 1, "expected key=value");
	/* the meters: a broken list changes nothing, not even the other
	 * column that a good list before it had changed */
	snprintf(buf, sizeof(buf), "%smeters_right=mem\nmeters_left=cpu:pie\n", head);
	BROKEN(f, buf, 5, "unknown style 'pie' for meter cpu (bar or text)");
	BROKEN(f, "meters_left=cpu,gpu\n", 1, "unknown meter 'gpu'");
	BROKEN(f, "meters_right=load:bar\n", 1, "meter load has no bar (text only)");
	BROKEN(f, "meters_left=mem,cpu,mem\n", 1, "meter 'mem' listed twice");
	BROKEN(f, "meter_all=graph\n", 1, "bad meter_all 'graph' (bar or text)");
	/* over-long line */
	memset(buf, 'a', sizeof(buf));
	memcpy(buf, "columns=", 8);
	buf[sizeof(buf) - 2] = '\n';
	buf[sizeof(buf) - 1] = '\0';
	BROKEN(f, buf, 1, "line too long");
	/* binary garbage */
	check_broken(f, "version=1\n\x7f" "ELF\x02\x01\x01\0\0\0", 14, 2,
		     "binary data");
	check_broken(f, "tree=1\0\n", 8, 1, "binary data");
}

/* The header meters: columns, order, style; saved and read back. */
static void test_meters(void **state)
{
	struct fixture *f = *state;
	const char *data = "meters_left=load,cpu:text\n"
			   "meters_right=mem:bar,uptime\n"
			   "meter_all=text\n";
	struct cfg c, back;
	char list[128];

	write_file(f->path, data, strlen(data));
	cfg_defaults(&c);
	cfg_meters_format(c.mcol[0], c.nmcol[0], list, sizeof(list));
	assert_string_equal(list, "cpu:bar,mem:bar,swap:bar");
	cfg_meters_format(c.mcol[1], c.nmcol[1], list, sizeof(list));
	assert_string_equal(list, "tasks,load,uptime");
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), 0);
	assert_int_equal(c.nmcol[0], 2);
	assert_int_equal(c.mcol[0][0].id, CFG_M_LOAD);
	assert_int_equal(c.mcol[0][1].id, CFG_M_CPU);
	assert_int_equal(c.mcol[0][1].style, CFG_MS_TEXT);
	assert_int_equal(c.nmcol[1], 2);
	assert_int_equal(c.mcol[1][0].id, CFG_M_MEM);
	assert_int_equal(c.mcol[1][0].style, CFG_MS_BAR);
	assert_int_equal(c.all_style, CFG_MS_TEXT);
	/* saved and read back the same */
	assert_int_equal(cfg_save(f->path, &c, f->err, sizeof(f->err)), 0);
	cfg_defaults(&back);
	assert_int_equal(cfg_load(f->path, &back, f->err, sizeof(f->err)), 0);
	assert_memory_equal(back.mcol, c.mcol, sizeof(c.mcol));
	assert_memory_equal(back.nmcol, c.nmcol, sizeof(c.nmcol));
	assert_int_equal(back.all_style, CFG_MS_TEXT);

	/* a meter is in one column: a later list takes it from the other */
	data = "meters_right=cpu,swap:text\n";
	write_file(f->path, data, strlen(data));
	cfg_defaults(&c);
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), 0);
	cfg_meters_format(c.mcol[0], c.nmcol[0], list, sizeof(list));
	assert_string_equal(list, "mem:bar");
	cfg_meters_format(c.mcol[1], c.nmcol[1], list, sizeof(list));
	assert_string_equal(list, "cpu:bar,swap:text");
	/* an empty column is allowed */
	data = "meters_left=\nmeters_right=\n";
	write_file(f->path, data, strlen(data));
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), 0);
	assert_int_equal(c.nmcol[0] + c.nmcol[1], 0);
}

/* A newer ptop's keys and version: warnings with file:line, the rest read. */
static void test_newer_keys_warn(void **state)
{
	struct fixture *f = *state;
	const char *data = "version=3\ncolumns=PID,COMMAND\ngraphs=cpu,mem\n"
			   "delay=0.5\ncolour.header=blue\n";
	char warn[1024] = "", want[1024];
	struct cfg c;

	write_file(f->path, data, strlen(data));
	cfg_defaults(&c);
	assert_int_equal(cfg_load_warn(f->path, &c, f->err, sizeof(f->err),
				       warn, sizeof(warn)), 0);
	assert_int_equal(c.ncols, 2);
	assert_true(c.delay_s == 0.5);
	snprintf(want, sizeof(want),
		 "%s:1: version 3 is newer than this ptop's (1): its keys this ptop does not know are ignored\n"
		 "%s:3: unknown key 'graphs' (from a newer ptop?): ignored\n"
		 "%s:5: unknown key 'colour.header' (from a newer ptop?): ignored\n",
		 f->path, f->path, f->path);
	assert_string_equal(warn, want);
	/* cfg_load() takes the same file, without the warnings */
	cfg_defaults(&c);
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), 0);
	assert_int_equal(c.ncols, 2);
	/* a tiny warning buffer is cut, never overrun */
	memset(warn, 'x', sizeof(warn));
	warn[0] = '\0';
	assert_int_equal(cfg_load_warn(f->path, &c, f->err, sizeof(f->err),
				       warn, 8), 0);
	assert_int_equal(strlen(warn), 7);
	assert_int_equal(warn[8], 'x');
}

/* The system-wide layers, lowest first; tests point them away from /etc. */
static void test_system_paths(void **state)
{
	char p[8][CFG_PATH_MAX];

	(void)state;
	unsetenv("PTOP_SYSCONFDIR");
	unsetenv("XDG_CONFIG_DIRS");
	assert_int_equal(cfg_system_paths(p, 8), 2);
	assert_string_equal(p[0], "/etc/ptoprc");
	assert_string_equal(p[1], "/etc/xdg/ptop/ptoprc");

	setenv("PTOP_SYSCONFDIR", "/t/etc", 1);
	/* the first directory is the most important one: read last */
	setenv("XDG_CONFIG_DIRS", "/a:relative:/b", 1);
	assert_int_equal(cfg_system_paths(p, 8), 3);
	assert_string_equal(p[0], "/t/etc/ptoprc");
	assert_string_equal(p[1], "/b/ptop/ptoprc");
	assert_string_equal(p[2], "/a/ptop/ptoprc");
	assert_int_equal(cfg_system_paths(p, 2), 2);
	assert_string_equal(p[1], "/b/ptop/ptoprc");
	unsetenv("PTOP_SYSCONFDIR");
	unsetenv("XDG_CONFIG_DIRS");
}

static void test_unreadable(void **state)
{
	struct fixture *f = *state;
	struct cfg c, before;
	char want[200];

	/* a directory where the file should be */
	assert_int_equal(mkdir(f->dir, 0755) == 0 || errno == EEXIST, 1);
	snprintf(f->path, sizeof(f->path), "%s", f->dir);
	cfg_defaults(&c);
	before = c;
	assert_int_equal(cfg_load(f->path, &c, f->err, sizeof(f->err)), -EISDIR);
	assert_memory_equal(&c, &before, sizeof(c));
	/* the message names the file and why, not just "read error" */
	snprintf(want, sizeof(want), "%s: %s", f->path, strerror(EISDIR));
	assert_string_equal(f->err, want);
}

/*
 * A file without newlines (/dev/zero) is refused at its first line,
 * without reading it whole: in a child with 256 MB of address space
 * (not under ASan, whose shadow needs more) and 20 s at most.
 */
static void test_endless_line(void **state)
{
	char err[512] = "";
	struct cfg c;
	pid_t pid;
	int st;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
#ifndef __SANITIZE_ADDRESS__
		struct rlimit as = { 256 << 20, 256 << 20 };

		setrlimit(RLIMIT_AS, &as);
#endif
		alarm(20);
		cfg_defaults(&c);
		st = cfg_load("/dev/zero", &c, err, sizeof(err));
		_exit(st == -EINVAL &&
		      !strcmp(err, "/dev/zero:1: binary data (not a ptoprc text file)") ?
		      0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_atomic_save(void **state)
{
	struct fixture *f = *state;
	char dirpath[128];
	struct dirent *de;
	struct cfg c, d;
	int files = 0, i;
	DIR *dir;

	cfg_defaults(&c);
	for (i = 0; i < 3; i++) {
		c.delay_s = 1 + i;
		assert_int_equal(cfg_save(f->path, &c, f->err, sizeof(f->err)), 0);
	}
	snprintf(dirpath, sizeof(dirpath), "%s/ptop", f->dir);
	dir = opendir(dirpath);
	assert_non_null(dir);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		assert_string_equal(de->d_name, "ptoprc");
		files++;
	}
	closedir(dir);
	assert_int_equal(files, 1);
	cfg_defaults(&d);
	assert_int_equal(cfg_load(f->path, &d, f->err, sizeof(f->err)), 0);
	assert_true(d.delay_s == 3);

	/* a save that cannot happen leaves the old file and no temp file */
	if (geteuid() != 0) {
		assert_int_equal(chmod(dirpath, 0555), 0);
		c.delay_s = 9;
		assert_true(cfg_save(f->path, &c, f->err, sizeof(f->err)) < 0);
		assert_int_equal(chmod(dirpath, 0755), 0);
		cfg_defaults(&d);
		assert_int_equal(cfg_load(f->path, &d, f->err, sizeof(f->err)), 0);
		assert_true(d.delay_s == 3);
	}
}

static void test_save_cannot_create_dir(void **state)
{
	struct fixture *f = *state;
	char file[128], path[160];
	struct cfg c;

	/* a file where the directory should be */
	snprintf(file, sizeof(file), "%s/blocker", f->dir);
	write_file(file, "x", 1);
	snprintf(path, sizeof(path), "%s/sub/ptoprc", file);
	cfg_defaults(&c);
	assert_true(cfg_save(path, &c, f->err, sizeof(f->err)) < 0);
	assert_non_null(strstr(f->err, path));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_path),
		cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comments_blank_spaces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_broken, setup, teardown),
		cmocka_unit_test_setup_teardown(test_meters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_keys_warn, setup, teardown),
		cmocka_unit_test(test_system_paths),
		cmocka_unit_test_setup_teardown(test_unreadable, setup, teardown),
		cmocka_unit_test(test_endless_line),
		cmocka_unit_test_setup_teardown(test_atomic_save, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_cannot_create_dir, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
