// SPDX-License-Identifier: GPL-2.0
/*
 * The signal menu: the targets are taken when it opens, so an update
 * while it is open changes nothing; a digit picks a signal by number.
 */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "curses_signal.h"

static const struct {
	int sig;
	const char *name;
} signals[] = {
	{ SIGTERM, "SIGTERM" }, { SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" },
	{ SIGQUIT, "SIGQUIT" }, { SIGKILL, "SIGKILL" }, { SIGUSR1, "SIGUSR1" },
	{ SIGUSR2, "SIGUSR2" }, { SIGSTOP, "SIGSTOP" }, { SIGCONT, "SIGCONT" },
	{ SIGTSTP, "SIGTSTP" }, { SIGALRM, "SIGALRM" }, { SIGWINCH, "SIGWINCH" },
};
#define NSIGNALS ((int)(sizeof(signals) / sizeof(signals[0])))
#define SIG_DEFAULT 0	/* SIGTERM */

int cv_signal_count(void)
{
	return NSIGNALS;
}

const char *cv_signal_name(int i)
{
	return i >= 0 && i < NSIGNALS ? signals[i].name : "";
}

int cv_signal_number(int i)
{
	return i >= 0 && i < NSIGNALS ? signals[i].sig : 0;
}

struct targets {
	uint32_t pids[256];
	int n;
	char comm[PTOP_COMM_LEN];
};

static void sig_entry(const struct cv *cv, const void *st, int i, char *buf,
		      size_t len)
{
	(void)cv;
	(void)st;
	snprintf(buf, len, "%-9s", signals[i].name);
}

static void sig_head(const struct cv *cv, const void *st, char *buf,
		     size_t len)
{
	const struct targets *t = st;

	(void)cv;
	if (t->n > 1 || (t->n == 1 && !t->comm[0]))
		snprintf(buf, len, "Send to %d tagged tasks", t->n);
	else if (t->n == 1)
		snprintf(buf, len, "Send to %u (%s)", t->pids[0], t->comm);
	else
		snprintf(buf, len, "Send to nothing");
}

static void sig_pick(struct cv *cv, void *st, int idx)
{
	const struct targets *t = st;
	int i, ok = 0, err = 0;

	for (i = 0; i < t->n; i++) {
		if (kill((pid_t)t->pids[i], signals[idx].sig))
			err = errno;
		else
			ok++;
	}
	if (t->n == 1 && ok)
		snprintf(cv->msg, sizeof(cv->msg), "sent %s to %u",
			 signals[idx].name, t->pids[0]);
	else if (t->n == 1)
		snprintf(cv->msg, sizeof(cv->msg), "kill %u: %s", t->pids[0],
			 strerror(err));
	else
		snprintf(cv->msg, sizeof(cv->msg), "sent %s to %d of %d tagged tasks%s%s",
			 signals[idx].name, ok, t->n, err ? ": " : "",
			 err ? strerror(err) : "");
}

static void sig_cancel(struct cv *cv, void *st)
{
	(void)st;
	snprintf(cv->msg, sizeof(cv->msg), "not sent");
}

static bool sig_key(struct cv *cv, void *st, int ch)
{
	struct cv_menu *m = cv_menu_top(cv);
	int i;

	(void)st;
	if (!m || ch < '1' || ch > '9')
		return false;
	for (i = 0; i < NSIGNALS; i++)
		if (signals[i].sig == ch - '0')
			m->sel = i;
	return true;
}

const struct cv_menu_def cv_signal_menu = {
	.title = "Send signal (Enter: send, Esc: cancel)",
	.entry = sig_entry,
	.pick = sig_pick,
	.cancel = sig_cancel,
	.key = sig_key,
	.head = sig_head,
};

void cv_signal_menu_open(struct cv *cv)
{
	const struct ui_vrow *r = cv_sel_row(cv);
	struct targets *t;

	if (!cv->v.tagged.n && !r) {
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	if (!cv->v.tagged.n && r->exited) {
		snprintf(cv->msg, sizeof(cv->msg), "%u has exited", r->r.pid);
		return;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	t->n = cv_targets(cv, t->pids, 256);
	snprintf(t->comm, sizeof(t->comm), "%s", cv->v.tagged.n ? "" : r->r.comm);
	cv_menu_open(cv, &cv_signal_menu, NSIGNALS, SIG_DEFAULT, t);
}
