// SPDX-License-Identifier: GPL-2.0
/*
 * e, w, s, l on the selected task, as htop: the environment
 * (/proc/PID/environ: its owner may read it, or root with
 * CAP_SYS_PTRACE, which ptop drops unless --drop-capabilities=off), the
 * command line wrapped to the width, and strace and lsof run as htop
 * runs them, their output as it comes. What cannot be shown says why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cmdline.h"
#include "curses_proc.h"
#include "curses_text.h"

/* The selected live task, or NULL with a message saying why not. */
static const struct ui_vrow *live_sel(struct cv *cv, const char *what)
{
	const struct ui_vrow *r = cv_sel_row(cv);

	if (!r)
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
	else if (r->exited)
		snprintf(cv->msg, sizeof(cv->msg), "%u has exited: no %s",
			 r->r.pid, what);
	return r && !r->exited ? r : NULL;
}

/* Read a whole /proc file of NUL-separated strings; its length or -errno. */
static long read_all(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t r;

	if (fd < 0)
		return -errno;
	while (got < len - 1 && (r = read(fd, buf + got, len - 1 - got)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return r;
		}
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return (long)got;
}

void cv_proc_environ(struct cv *cv)
{
	const struct ui_vrow *r = live_sel(cv, "environment");
	size_t cap = 256 * 1024;
	char path[300], title[128], *env;
	struct cv_text *t;
	long n, i;

	if (!r)
		return;
	env = malloc(cap);
	if (!env) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	snprintf(path, sizeof(path), "%s/%u/environ",
		 cv->app->src->cfg.proc_root, r->r.pid);
	n = read_all(path, env, cap);
	if (n < 0) {
		free(env);
		snprintf(cv->msg, sizeof(cv->msg),
			 "the environment of %u (%s): %s%s", r->r.pid, r->r.comm,
			 strerror((int)-n),
			 n == -EACCES || n == -EPERM ?
			 " (only its owner may read it, or root with CAP_SYS_PTRACE, which ptop drops unless --drop-capabilities=off)" :
			 "");
		return;
	}
	snprintf(title, sizeof(title), "Environment of %u (%s)", r->r.pid,
		 r->r.comm);
	t = cv_text_open(cv, title, true);
	for (i = 0; t && i < n; i += (long)strlen(env + i) + 1)
		if (env[i])
			cv_text_add(t, env + i);
	if (t && !n)
		cv_text_add(t, "(empty: a kernel thread, or a process that cleared it)");
	free(env);
}

void cv_proc_cmdline(struct cv *cv)
{
	const struct ui_vrow *r = live_sel(cv, "command line");
	char cmd[64 * 1024], title[128];
	struct cv_text *t;
	int ret;

	if (!r)
		return;
	ret = ptop_cmdline_read(cv->app->src->cfg.proc_root, r->r.pid, cmd,
			      sizeof(cmd));
	if (ret == -ENOENT && ui_view_is_kthread(&r->r)) {
		snprintf(cmd, sizeof(cmd), "[%s] (a kernel thread: no command line)",
			 r->r.comm);
	} else if (ret) {
		snprintf(cv->msg, sizeof(cv->msg), "the command line of %u: %s",
			 r->r.pid, strerror(-ret));
		return;
	}
	snprintf(title, sizeof(title), "Command line of %u (%s), wrapped",
		 r->r.pid, r->r.comm);
	t = cv_text_open(cv, title, true);
	if (t)
		cv_text_add(t, cmd);
}

void cv_proc_strace(struct cv *cv)
{
	const struct ui_vrow *r = live_sel(cv, "system calls");
	char pid[16], title[128];
	char *argv[] = { "strace", "-T", "-tt", "-s", "512", "-p", pid, NULL };

	if (!r)
		return;
	snprintf(pid, sizeof(pid), "%u", r->r.pid);
	snprintf(title, sizeof(title), "strace -T -tt -s 512 -p %u (%s)",
		 r->r.pid, r->r.comm);
	cv_text_run(cv, title, argv);
}

void cv_proc_lsof(struct cv *cv)
{
	const struct ui_vrow *r = live_sel(cv, "open files");
	char pid[16], title[128];
	char *argv[] = { "lsof", "-P", "-o", "-p", pid, NULL };

	if (!r)
		return;
	snprintf(pid, sizeof(pid), "%u", r->r.pid);
	snprintf(title, sizeof(title), "lsof -P -o -p %u (%s): open files",
		 r->r.pid, r->r.comm);
	cv_text_run(cv, title, argv);
}
