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

/* every standard signal, by number, as htop's menu */
static const struct {
	int sig;
	const char *name;
} signals[] = {
	{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
	{ SIGILL, "SIGILL" }, { SIGTRAP, "SIGTRAP" }, { SIGABRT, "SIGABRT" },
	{ SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" },
	{ SIGUSR1, "SIGUSR1" }, { SIGSEGV, "SIGSEGV" }, { SIGUSR2, "SIGUSR2" },
	{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
	{ SIGSTKFLT, "SIGSTKFLT" }, { SIGCHLD, "SIGCHLD" },
	{ SIGCONT, "SIGCONT" }, { SIGSTOP, "SIGSTOP" }, { SIGTSTP, "SIGTSTP" },
	{ SIGTTIN, "SIGTTIN" }, { SIGTTOU, "SIGTTOU" }, { SIGURG, "SIGURG" },
	{ SIGXCPU, "SIGXCPU" }, { SIGXFSZ, "SIGXFSZ" },
	{ SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
	{ SIGWINCH, "SIGWINCH" }, { SIGIO, "SIGIO" }, { SIGPWR, "SIGPWR" },
	{ SIGSYS, "SIGSYS" },
};
#define NSIGNALS ((int)(sizeof(signals) / sizeof(signals[0])))
/* a pause longer than this starts a new number */
#define SIG_TYPE_NS 1500000000ULL

static int index_of(int sig)
{
	int i;

	for (i = 0; i < NSIGNALS; i++)
		if (signals[i].sig == sig)
			return i;
	return -1;
}

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
	int typed;		/* the number typed so far */
	uint64_t typed_ns;
};

static void sig_entry(const struct cv *cv, const void *st, int i, char *buf,
		      size_t len)
{
	(void)cv;
	(void)st;
	snprintf(buf, len, "%2d %-9s", signals[i].sig, signals[i].name);
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

/* digits: the signal of that number (9; 1 then 5 for SIGTERM) */
static bool sig_key(struct cv *cv, void *st, int ch)
{
	struct targets *t = st;
	struct cv_menu *m = cv_menu_top(cv);
	uint64_t now = cv_now_ns();
	int i;

	if (!m || ch < '0' || ch > '9')
		return false;
	/* a pause, or a number past the last signal, starts a new one */
	if (now - t->typed_ns > SIG_TYPE_NS ||
	    t->typed * 10 + ch - '0' > signals[NSIGNALS - 1].sig)
		t->typed = 0;
	t->typed = t->typed * 10 + ch - '0';
	t->typed_ns = now;
	i = index_of(t->typed);
	if (i >= 0)
		m->sel = i;
	else
		snprintf(cv->msg, sizeof(cv->msg), "no signal %d", t->typed);
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
	cv_menu_open(cv, &cv_signal_menu, NSIGNALS, index_of(SIGTERM), t);
}
