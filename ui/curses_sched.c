// SPDX-License-Identifier: GPL-2.0
/*
 * a and i on the tagged tasks, else the selected one, as htop: the CPUs
 * a task may run on (sched_setaffinity; Space checks a CPU, Enter sets
 * them) and its I/O priority (ioprio_set, what ionice(1) sets).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "curses_proc.h"

#define MAX_CPUS 1024

struct sched_sel {
	uint32_t pids[256];
	int n, ncpu;
	bool on[MAX_CPUS];
};

static void who(const uint32_t *pids, int n, char *buf, size_t len)
{
	if (n == 1)
		snprintf(buf, len, "%u", pids[0]);
	else
		snprintf(buf, len, "%d tagged tasks", n);
}

static void aff_entry(const struct cv *cv, const void *st, int i, char *buf,
		      size_t len)
{
	const struct sched_sel *a = st;

	(void)cv;
	snprintf(buf, len, "[%c] CPU %d", a->on[i] ? 'x' : ' ', i);
}

static void aff_head(const struct cv *cv, const void *st, char *buf,
		     size_t len)
{
	const struct sched_sel *a = st;
	char w[64];

	(void)cv;
	who(a->pids, a->n, w, sizeof(w));
	snprintf(buf, len, "CPU affinity of %s", w);
}

static bool aff_key(struct cv *cv, void *st, int ch)
{
	struct sched_sel *a = st;
	struct cv_menu *m = cv_menu_top(cv);
	int i;
	bool all = true;

	if (!m)
		return false;
	if (ch == ' ') {
		a->on[m->sel] = !a->on[m->sel];
		m->sel += m->sel < m->n - 1;
	} else if (ch == 'a' || ch == '*') {
		for (i = 0; i < a->ncpu; i++)
			all &= a->on[i];
		for (i = 0; i < a->ncpu; i++)
			a->on[i] = !all;
	} else {
		return false;
	}
	return true;
}

static void aff_pick(struct cv *cv, void *st, int sel)
{
	struct sched_sel *a = st;
	cpu_set_t set;
	int i, ok = 0, err = 0, n = 0;
	char w[64];

	(void)sel;
	CPU_ZERO(&set);
	for (i = 0; i < a->ncpu; i++)
		if (a->on[i]) {
			CPU_SET(i, &set);
			n++;
		}
	if (!n) {
		snprintf(cv->msg, sizeof(cv->msg), "no CPU checked: affinity unchanged");
		return;
	}
	for (i = 0; i < a->n; i++) {
		if (sched_setaffinity((pid_t)a->pids[i], sizeof(set), &set))
			err = errno;
		else
			ok++;
	}
	who(a->pids, a->n, w, sizeof(w));
	if (ok == a->n)
		snprintf(cv->msg, sizeof(cv->msg), "affinity of %s: %d of %d CPUs",
			 w, n, a->ncpu);
	else
		snprintf(cv->msg, sizeof(cv->msg), "affinity of %s: %d of %d set: %s",
			 w, ok, a->n, strerror(err));
}

const struct cv_menu_def cv_affinity_menu = {
	.title = "CPUs (Space: check, a: all, Enter: set, Esc: cancel)",
	.width = 54,
	.entry = aff_entry,
	.pick = aff_pick,
	.key = aff_key,
	.head = aff_head,
};

void cv_affinity_open(struct cv *cv)
{
	struct sched_sel *a = calloc(1, sizeof(*a));
	cpu_set_t set;
	long nconf = sysconf(_SC_NPROCESSORS_CONF);
	int i;

	if (!a) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	a->n = cv_targets(cv, a->pids, 256);
	if (!a->n) {
		free(a);
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	a->ncpu = nconf > 0 && nconf < MAX_CPUS ? (int)nconf : 1;
	/* the first target's CPUs now; all if it cannot be read */
	if (sched_getaffinity((pid_t)a->pids[0], sizeof(set), &set))
		CPU_ZERO(&set);
	for (i = 0; i < a->ncpu; i++)
		a->on[i] = CPU_COUNT(&set) ? CPU_ISSET(i, &set) : true;
	cv_menu_open(cv, &cv_affinity_menu, a->ncpu, 0, a);
}

/* --- I/O priority ----------------------------------------------------------- */

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13
enum { IOC_NONE, IOC_RT, IOC_BE, IOC_IDLE };

/* entry 0 none, 1-8 realtime 0-7, 9-16 best-effort 0-7, 17 idle */
#define IONICE_N 18

static int entry_prio(int i)
{
	if (i == 0)
		return IOC_NONE << IOPRIO_CLASS_SHIFT;
	if (i <= 8)
		return IOC_RT << IOPRIO_CLASS_SHIFT | (i - 1);
	if (i <= 16)
		return IOC_BE << IOPRIO_CLASS_SHIFT | (i - 9);
	return IOC_IDLE << IOPRIO_CLASS_SHIFT;
}

static void prio_name(int prio, char *buf, size_t len)
{
	static const char *const cls[] = { "none (from the nice value)",
					   "realtime", "best-effort", "idle" };
	int c = (prio >> IOPRIO_CLASS_SHIFT) & 3;

	if (c == IOC_RT || c == IOC_BE)
		snprintf(buf, len, "%s %d", cls[c], prio & 7);
	else
		snprintf(buf, len, "%s", cls[c]);
}

static void io_entry(const struct cv *cv, const void *st, int i, char *buf,
		     size_t len)
{
	(void)cv;
	(void)st;
	prio_name(entry_prio(i), buf, len);
}

static void io_head(const struct cv *cv, const void *st, char *buf,
		    size_t len)
{
	const struct sched_sel *a = st;
	char w[64];

	(void)cv;
	who(a->pids, a->n, w, sizeof(w));
	snprintf(buf, len, "I/O priority of %s (ionice; 0 is the highest)", w);
}

static void io_pick(struct cv *cv, void *st, int sel)
{
	const struct sched_sel *a = st;
	int i, ok = 0, err = 0, prio = entry_prio(sel);
	char w[64], name[64];

	for (i = 0; i < a->n; i++) {
		if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)a->pids[i],
			    prio))
			err = errno;
		else
			ok++;
	}
	who(a->pids, a->n, w, sizeof(w));
	prio_name(prio, name, sizeof(name));
	if (ok == a->n)
		snprintf(cv->msg, sizeof(cv->msg), "I/O priority of %s: %s",
			 w, name);
	else
		snprintf(cv->msg, sizeof(cv->msg), "I/O priority of %s: %d of %d set: %s",
			 w, ok, a->n, strerror(err));
}

const struct cv_menu_def cv_ionice_menu = {
	.title = "I/O priority (Enter: set, Esc: cancel)",
	.entry = io_entry,
	.pick = io_pick,
	.head = io_head,
};

void cv_ionice_open(struct cv *cv)
{
	struct sched_sel *a = calloc(1, sizeof(*a));
	long cur;
	int i, sel = 0;

	if (!a) {
		snprintf(cv->msg, sizeof(cv->msg), "out of memory");
		return;
	}
	a->n = cv_targets(cv, a->pids, 256);
	if (!a->n) {
		free(a);
		snprintf(cv->msg, sizeof(cv->msg), "no task selected");
		return;
	}
	cur = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, (int)a->pids[0]);
	for (i = 0; cur >= 0 && i < IONICE_N; i++)
		if (entry_prio(i) == cur)
			sel = i;
	cv_menu_open(cv, &cv_ionice_menu, IONICE_N, sel, a);
}
