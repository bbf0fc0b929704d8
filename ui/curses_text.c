// SPDX-License-Identifier: GPL-2.0
/*
 * The text screen: a title line, the lines (cut at the width, or
 * wrapped), a key line at the bottom. A command's output is read
 * without blocking at every draw; the loop wakes every CV_TEXT_TICK_MS
 * while it runs, so its lines show as they come.
 */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "curses_paint.h"
#include "curses_text.h"

#define CV_TEXT_TICK_MS 200
#define CV_TEXT_MAX_LINES 100000

struct cv_text {
	char title[512];
	char **lines;
	size_t n, cap;
	char part[4096];	/* a line not yet ended */
	size_t plen;
	int fd;			/* the command's output; -1: none */
	pid_t child;		/* 0: none */
	char status[128];	/* how the command ended */
	long top;
	bool wrap, at_end;	/* at_end: stays on the newest line */
};

void cv_text_add(struct cv_text *t, const char *line)
{
	char **nl, *s;
	size_t i;

	if (t->n == CV_TEXT_MAX_LINES)
		return;
	if (t->n == t->cap) {
		nl = realloc(t->lines, (t->cap ? t->cap * 2 : 64) * sizeof(*nl));
		if (!nl)
			return;
		t->lines = nl;
		t->cap = t->cap ? t->cap * 2 : 64;
	}
	s = strdup(line);
	if (!s)
		return;
	for (i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20)
			s[i] = s[i] == '\t' ? ' ' : '?';
	t->lines[t->n++] = s;
}

static void reap(struct cv_text *t, bool kill_it)
{
	int st = 0, i;
	pid_t got = 0;

	if (!t->child)
		return;
	if (kill_it)
		kill(t->child, SIGTERM);
	/* strace detaches on SIGTERM at once; a stuck one gets SIGKILL */
	for (i = 0; i < 100 && (got = waitpid(t->child, &st, WNOHANG)) == 0; i++) {
		struct timespec ts = { 0, 10000000 };

		if (i == 50)
			kill(t->child, SIGKILL);
		nanosleep(&ts, NULL);
	}
	if (got == t->child && WIFEXITED(st))
		snprintf(t->status, sizeof(t->status), "(exited %d)",
			 WEXITSTATUS(st));
	else
		snprintf(t->status, sizeof(t->status), "(ended)");
	t->child = 0;
}

/* What the command wrote since the last draw, as lines. */
static void drain(struct cv *cv, struct cv_text *t)
{
	char buf[4096];
	ssize_t r, i;

	if (t->fd < 0)
		return;
	while (t->fd >= 0 && (r = read(t->fd, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			break;
		}
		for (i = 0; i < r; i++) {
			if (buf[i] == '\n' || t->plen == sizeof(t->part) - 1) {
				t->part[t->plen] = '\0';
				cv_text_add(t, t->part);
				t->plen = 0;
			}
			if (buf[i] != '\n')
				t->part[t->plen++] = buf[i];
		}
	}
	/* the end (or an error): the last piece, and how it ended */
	if (t->plen) {
		t->part[t->plen] = '\0';
		cv_text_add(t, t->part);
		t->plen = 0;
	}
	close(t->fd);
	t->fd = -1;
	cv->tick_ms = 0;
	reap(t, false);
}

/* screen line k of the text: (line, piece) when wrapped */
static void text_piece(const struct cv_text *t, long k, int w, char *buf,
		       size_t len)
{
	size_t i;
	int n;

	buf[0] = '\0';
	if (!t->wrap) {
		if (k >= 0 && (size_t)k < t->n)
			snprintf(buf, len, "%s", t->lines[k]);
		return;
	}
	for (i = 0; i < t->n; i++) {
		n = cv_wrap(t->lines[i], w, 2, -1, buf, len);
		if (k < n) {
			cv_wrap(t->lines[i], w, 2, (int)k, buf, len);
			return;
		}
		k -= n;
	}
	buf[0] = '\0';
}

static long text_rows(const struct cv_text *t, int w)
{
	char piece[CV_LINE_MAX];
	long n = 0;
	size_t i;

	if (!t->wrap)
		return (long)t->n;
	for (i = 0; i < t->n; i++)
		n += cv_wrap(t->lines[i], w, 2, -1, piece, sizeof(piece));
	return n;
}

static void text_draw(struct cv *cv, void *st)
{
	struct cv_text *t = st;
	char line[CV_LINE_MAX];
	int y, nvis = LINES - 2, w = COLS > 1 ? COLS - 1 : 1;
	long rows;

	drain(cv, t);
	rows = text_rows(t, w);
	if (t->at_end || t->top > rows - nvis)
		t->top = rows - nvis;
	if (t->top < 0)
		t->top = 0;
	snprintf(line, sizeof(line), "%s  %s", t->title,
		 t->fd >= 0 ? "(running)" : t->status);
	cv_put(0, line, 0, cv_attr_header());
	for (y = 0; y < nvis; y++) {
		text_piece(t, t->top + y, w, line, sizeof(line));
		cv_put(1 + y, line, 0, A_NORMAL);
	}
	snprintf(line, sizeof(line), "lines %ld-%ld of %ld  Up Down PgUp PgDn Home End: scroll  Esc q: back",
		 rows ? t->top + 1 : 0, t->top + nvis < rows ? t->top + nvis : rows,
		 rows);
	cv_put(LINES - 1, cv->msg[0] ? cv->msg : line, 0, A_BOLD);
}

static bool text_key(struct cv *cv, void *st, int ch)
{
	struct cv_text *t = st;
	int page = LINES > 3 ? LINES - 3 : 1;

	t->at_end = false;
	switch (ch) {
	case KEY_UP:
		t->top--;
		break;
	case KEY_DOWN:
		t->top++;
		break;
	case KEY_PPAGE:
		t->top -= page;
		break;
	case KEY_NPAGE:
	case ' ':
		t->top += page;
		break;
	case KEY_HOME:
		t->top = 0;
		break;
	case KEY_END:
		t->at_end = true;
		break;
	case KEY_ESC:
	case 'q':
	case KEY_F(10):
		cv_screen_pop(cv);
		break;
	default:
		break;
	}
	return true;
}

static bool text_mouse(struct cv *cv, void *st, int y, int x, int button)
{
	(void)y;
	(void)x;
	if (button == 4 || button == 5)
		return text_key(cv, st, button == 4 ? KEY_UP : KEY_DOWN);
	return true;
}

static void text_close(struct cv *cv, void *st)
{
	struct cv_text *t = st;
	size_t i;

	if (t->fd >= 0)
		close(t->fd);
	reap(t, true);
	cv->tick_ms = 0;
	for (i = 0; i < t->n; i++)
		free(t->lines[i]);
	free(t->lines);
	free(t);
}

const struct cv_screen_ops cv_text_ops = {
	.name = "text",
	.draw = text_draw,
	.key = text_key,
	.mouse = text_mouse,
	.close = text_close,
};

struct cv_text *cv_text_open(struct cv *cv, const char *title, bool wrap)
{
	struct cv_text *t = calloc(1, sizeof(*t));

	if (!t) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return NULL;
	}
	snprintf(t->title, sizeof(t->title), "%s", title);
	t->fd = -1;
	t->wrap = wrap;
	return cv_screen_push(cv, &cv_text_ops, t) ? NULL : t;
}

bool cv_in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	char full[4096];

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		snprintf(full, sizeof(full), "%.*s/%s", (int)(e - p), p, prog);
		if (e > p && !access(full, X_OK))
			return true;
	}
	return false;
}

/* The child: output to the pipe, no terminal, then the command. */
static void child(int out, char *const argv[])
{
	int null = open("/dev/null", O_RDONLY);

	if (null >= 0)
		dup2(null, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	setsid();
	execvp(argv[0], argv);
	_exit(127);
}

int cv_text_run(struct cv *cv, const char *title, char *const argv[])
{
	struct cv_text *t;
	int p[2];
	pid_t pid;

	if (!cv_in_path(argv[0])) {
		snprintf(cv->msg, sizeof(cv->msg),
			 "%s is not installed (not in PATH); this key runs it as htop does",
			 argv[0]);
		return -1;
	}
	if (pipe2(p, O_CLOEXEC)) {
		snprintf(cv->msg, sizeof(cv->msg), "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(cv->msg, sizeof(cv->msg), "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid)
		child(p[1], argv);
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	t = cv_text_open(cv, title, false);
	if (!t) {
		close(p[0]);
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
		return -1;
	}
	t->fd = p[0];
	t->child = pid;
	t->at_end = true;
	cv->tick_ms = CV_TEXT_TICK_MS;
	return 0;
}

struct cv_text *cv_text_top(const struct cv *cv)
{
	return cv_screen_top(cv) == &cv_text_ops ?
	       cv->scr[cv->nscr - 1].st : NULL;
}

const char *cv_text_line(const struct cv_text *t, size_t i)
{
	return i < t->n ? t->lines[i] : NULL;
}

size_t cv_text_count(const struct cv_text *t)
{
	return t->n;
}
