// SPDX-License-Identifier: GPL-2.0
/*
 * tstime: start the command, forward signals to it, reap it and, as the
 * child subreaper of its tree, every orphan below it.
 *
 * Signals arrive on a signalfd (blocked in tstime, unblocked in the child
 * before exec). SIGINT, SIGTERM, SIGQUIT and SIGHUP sent to tstime by a
 * process (kill(1), a supervisor) are forwarded to the command; the ones a
 * terminal sends go to the whole foreground process group, the command
 * included, so they are not sent twice. One that tstime was started with
 * ignored stays ignored (the command inherits that). Once the command has
 * exited, any of them ends the wait for orphans still running.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sched.h>

#include "tstime.h"

static const int fwd_sigs[] = { SIGINT, SIGTERM, SIGQUIT, SIGHUP };

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + tv->tv_usec * 1000ULL;
}

int tstime_run_prepare(struct tstime_run *r)
{
	sigset_t mask;
	size_t i;

	r->sfd = -1;
	r->tick_ms = -1;
	r->cg_fd = r->cg_procs_fd = -1;
	r->ru_maxrss_kb = 0;
	/* orphans of the tree come to us, not to init */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
		return -errno;
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	for (i = 0; i < sizeof(fwd_sigs) / sizeof(fwd_sigs[0]); i++) {
		struct sigaction sa;

		/* ignored by whoever started us: the command ignores it too */
		if (!sigaction(fwd_sigs[i], NULL, &sa) &&
		    sa.sa_handler == SIG_IGN)
			continue;
		sigaddset(&mask, fwd_sigs[i]);
	}
	if (sigprocmask(SIG_BLOCK, &mask, &r->oldmask))
		return -errno;
	r->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (r->sfd < 0) {
		int err = -errno;

		sigprocmask(SIG_SETMASK, &r->oldmask, NULL);
		return err;
	}
	return 0;
}

void tstime_run_close(struct tstime_run *r)
{
	if (r->sfd >= 0) {
		close(r->sfd);
		r->sfd = -1;
		sigprocmask(SIG_SETMASK, &r->oldmask, NULL);
	}
}

/*
 * The command's side of the exec pipe: a negative errno if it could not
 * move into the run's cgroup (it runs anyway), then exec's errno if exec
 * failed. EOF (close-on-exec) once exec succeeded.
 */
static void __attribute__((noreturn)) run_child(struct tstime_run *r, int efd,
						int in_cg)
{
	int err;

	if (!in_cg && r->cg_procs_fd >= 0 &&
	    write(r->cg_procs_fd, "0\n", 2) != 2) {
		err = -errno;
		if (write(efd, &err, sizeof(err)) < 0)
			_exit(127);
	}
	sigprocmask(SIG_SETMASK, &r->oldmask, NULL);
	execvp(r->argv[0], r->argv);
	err = errno;
	if (write(efd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(err == ENOENT ? 127 : 126);
}

/*
 * fork(), the child born in the run's cgroup where there is one (clone3
 * with CLONE_INTO_CGROUP, Linux 5.7): none of its time, not even the
 * fork's, is charged elsewhere. The child only calls async-signal-safe
 * functions before exec, so glibc's fork handlers are not missed.
 */
static pid_t run_spawn(struct tstime_run *r, int *in_cg)
{
	*in_cg = 0;
#ifdef CLONE_INTO_CGROUP
	if (r->cg_fd >= 0) {
		struct clone_args ca = {
			.flags = CLONE_INTO_CGROUP,
			.exit_signal = SIGCHLD,
			.cgroup = (uint64_t)r->cg_fd,
		};
		long p = syscall(SYS_clone3, &ca, sizeof(ca));

		if (p >= 0) {
			*in_cg = 1;
			return (pid_t)p;
		}
	}
#endif
	return fork();
}

int tstime_run_start(struct tstime_run *r)
{
	int efd[2], err = 0, in_cg;
	ssize_t n;

	/* a new run (--repeat): nothing of the last one stays */
	r->exec_errno = 0;
	r->cg_errno = 0;
	r->status = 0;
	r->reaped = r->left = 0;
	r->stop_signal = 0;
	r->ru_user_ns = r->ru_sys_ns = 0;
	r->ru_maxrss_kb = 0;
	memset(&r->ru, 0, sizeof(r->ru));
	r->t1_ns = 0;
	if (pipe2(efd, O_CLOEXEC))
		return -errno;
	r->t0_ns = mono_ns();
	r->pid = run_spawn(r, &in_cg);
	if (r->pid < 0) {
		err = -errno;
		close(efd[0]);
		close(efd[1]);
		return err;
	}
	if (!r->pid)
		run_child(r, efd[1], in_cg);
	close(efd[1]);
	for (;;) {
		n = read(efd[0], &err, sizeof(err));
		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(err))
			break;
		if (err < 0)
			r->cg_errno = -err;
		else
			r->exec_errno = err;
	}
	close(efd[0]);
	return 0;
}

static void ru_add(struct tstime_ru *t, const struct rusage *ru)
{
	t->minflt += ru->ru_minflt;
	t->majflt += ru->ru_majflt;
	t->nvcsw += ru->ru_nvcsw;
	t->nivcsw += ru->ru_nivcsw;
	t->inblock += ru->ru_inblock;
	t->oublock += ru->ru_oublock;
	t->nswap += ru->ru_nswap;
	t->nsignals += ru->ru_nsignals;
	t->msgsnd += ru->ru_msgsnd;
	t->msgrcv += ru->ru_msgrcv;
	t->ixrss += ru->ru_ixrss;
	t->idrss += ru->ru_idrss;
	t->isrss += ru->ru_isrss;
}

/*
 * Reap what has exited. Returns 1 when no child is left, 0 when some
 * are still running, -errno on error.
 */
static int run_reap(struct tstime_run *r, int *cmd_done)
{
	struct rusage ru;
	int st;
	pid_t p;

	for (;;) {
		p = wait4(-1, &st, WNOHANG, &ru);
		if (p < 0)
			return errno == ECHILD ? 1 : -errno;
		if (!p)
			return 0;
		r->reaped++;
		r->ru_user_ns += tv_ns(&ru.ru_utime);
		r->ru_sys_ns += tv_ns(&ru.ru_stime);
		if (ru.ru_maxrss > r->ru_maxrss_kb)
			r->ru_maxrss_kb = ru.ru_maxrss;
		ru_add(&r->ru, &ru);
		if (p == r->pid) {
			r->status = st;
			*cmd_done = 1;
		}
		r->t1_ns = mono_ns();
	}
}

static int run_forward(struct tstime_run *r, int cmd_done,
		       const struct signalfd_siginfo *si)
{
	if (cmd_done)
		return 1;	/* only orphans left: stop waiting for them */
	/* a terminal's signal already reached the whole process group */
	if (si->ssi_code != SI_KERNEL)
		kill(r->pid, si->ssi_signo);
	return 0;
}

int tstime_run_wait(struct tstime_run *r)
{
	struct signalfd_siginfo si;
	struct pollfd pfd[3];
	int cmd_done = 0, none_left = 0, stop = 0, n, i, ret;

	while (!stop) {
		ret = run_reap(r, &cmd_done);
		if (ret < 0)
			return ret;
		none_left = ret;
		if (r->drain)
			r->drain(r->drain_arg);
		if (cmd_done && (none_left || !r->wait_orphans))
			break;
		if (none_left)
			return -ECHILD;	/* cannot happen: the command is ours */
		pfd[0].fd = r->sfd;
		pfd[0].events = POLLIN;
		for (n = 1, i = 0; i < 2; i++) {
			if (r->xfd[i] < 0)
				continue;
			pfd[n].fd = r->xfd[i];
			pfd[n++].events = POLLIN;
		}
		if (poll(pfd, n, r->tick_ms) < 0 && errno != EINTR)
			return -errno;
		while (read(r->sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGCHLD)
				continue;
			if (run_forward(r, cmd_done, &si)) {
				r->stop_signal = si.ssi_signo;
				stop = 1;
			}
		}
	}
	if (!none_left) {
		siginfo_t wi;

		/* running descendants we did not wait for */
		memset(&wi, 0, sizeof(wi));
		r->left = !waitid(P_ALL, 0, &wi, WEXITED | WNOHANG | WNOWAIT);
	}
	if (!r->t1_ns)
		r->t1_ns = mono_ns();
	return 0;
}

int tstime_run_exit_status(const struct tstime_run *r, int *sig)
{
	*sig = 0;
	if (WIFSIGNALED(r->status)) {
		*sig = WTERMSIG(r->status);
		return 128 + *sig;
	}
	if (WIFEXITED(r->status))
		return WEXITSTATUS(r->status);
	return TSTIME_EXIT_ERR;
}
