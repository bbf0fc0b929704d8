/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tstime: time(1) for a whole process tree. Shared between
 * tstime.c (argv, output), tstime_run.c (spawn, signals, wait),
 * tstime_src.c (picks the source: tstime_kmod.c, tstime_taskstats.c, or
 * the rusage of tstime_run.c) and tstime_fmt.c (output formats).
 */
#ifndef PTOP_TSTIME_H
#define PTOP_TSTIME_H

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "tstime/tstime_tree_acct.h"

/* tstime's own failure (bad option, cannot fork, ...), like env(1) */
#define TSTIME_EXIT_ERR		125

/*
 * wait4() rusage of the children tstime reaped (the command, the orphans
 * it reaped as subreaper) with their waited-for descendants: GNU time's
 * counters. Linux leaves nswap, nsignals, msg*, *rss (but maxrss) at 0.
 */
struct tstime_ru {
	int64_t minflt, majflt;
	int64_t nvcsw, nivcsw;
	int64_t inblock, oublock;
	int64_t nswap, nsignals;
	int64_t msgsnd, msgrcv;
	int64_t ixrss, idrss, isrss;
};

/* What tstime measured; -1 / has_* = 0 mean "not measured". */
struct tstime_result {
	uint64_t real_ns;
	uint64_t user_ns, sys_ns;
	uint64_t steal_ns;
	int has_steal;
	int64_t procs, threads;		/* processes / threads started */
	int64_t max_rss_kb;
	struct tstime_ru ru;
	int exit_status;		/* as a shell reports it */
	int signal;			/* killed by it, else 0 */
	const char *source;		/* "kmod", "taskstats", "rusage" */
	int exact;
	/*
	 * Where the total came from ("cgroup", "rusage", "records") and
	 * what each counter said; tstime_total() explains the choice.
	 */
	const char *total_from;
	int has_counter, has_records;
	uint64_t counter_ns;		/* the run's cgroup: usage_usec */
	uint64_t rusage_ns;		/* wait4 of what tstime reaped */
	uint64_t ru_user_ns, ru_sys_ns;
	uint64_t records_ns;		/* per-task records (--source) */
	/*
	 * The records of tasks wait4 did not reap (self-reaped children,
	 * orphans reparented elsewhere), when known (has_unwaited): what
	 * the total adds to wait4's without a cgroup.
	 */
	int has_unwaited;
	uint64_t unwaited_ns, unwaited_user_ns;
	uint64_t exit_paths_ns;		/* counter beyond the records */
	uint64_t own_ns;		/* tstime's own CPU time */
	char verdict[256];		/* "exact" or "inexact: within ..." */
	char *const *argv;		/* the command */
	/* --tree: per command name, sorted by CPU time descending */
	int tree_avail;
	const char *tree_note;		/* why it is not available */
	const struct ptop_tree_comm *comms;
	size_t ncomms;
};

/* How to measure (tstime_measure.c). */
struct tstime_how {
	const char *prog;		/* for messages: "tstime", GNU's argv[0] */
	const char *source;		/* --source, NULL: best */
	int tree, no_cgroup, quiet;
	int caps;			/* enum ptop_caps_mode */
};

/*
 * One run of the command, measured: the source opened (and left open for
 * the report: res->comms points into it), the command started and waited
 * for. 0, or -errno with the message printed. first: the first run of
 * this process (its own time counts tstime's start).
 */
struct tstime_src;
struct tstime_run;
int tstime_measure(const struct tstime_how *o, struct tstime_run *run,
		   struct tstime_src *src, struct tstime_result *res,
		   int explain, int first);

/* tstime_gnu.c: called as "time": GNU time's command line and report */
int tstime_gnu_main(int argc, char **argv);

/* tstime_fmt.c */
/* Check a -f format; 0 or -EINVAL with a message in err. */
int tstime_fmt_check(const char *fmt, char *err, size_t errlen);
/* Expand a checked -f format (a newline is added at the end). */
void tstime_fmt_print(FILE *f, const char *fmt, const struct tstime_result *r);
void tstime_print_default(FILE *f, const struct tstime_result *r);
void tstime_print_posix(FILE *f, const struct tstime_result *r);
void tstime_print_tree(FILE *f, const struct tstime_result *r);
void tstime_print_json(FILE *f, const struct tstime_result *r, int tree);
/* s (at most max bytes) as a JSON string, quoted and escaped */
void tstime_json_str(FILE *f, const char *s, size_t max);
/* -v: GNU time's full report, its labels, plus tstime's own lines */
void tstime_print_verbose(FILE *f, const struct tstime_result *r);

/* tstime_stats.c: --repeat */
struct tstime_stat {
	double min, mean, median, max;
	double stddev;			/* sample (n - 1); 0 for n == 1 */
	size_t n;
};

/* Statistics of v[0..n-1] (n >= 1); v is reordered. 0 or -EINVAL. */
int tstime_stat_of(double *v, size_t n, struct tstime_stat *st);

/* The measured runs of a --repeat, one result each. */
struct tstime_runs {
	struct tstime_result *res;
	size_t n;			/* measured runs done */
	size_t want;			/* --repeat N */
	size_t warmup;
};

void tstime_print_repeat(FILE *f, const struct tstime_runs *rs);
void tstime_print_repeat_json(FILE *f, const struct tstime_runs *rs);

/* tstime_run.c */
struct tstime_run {
	char *const *argv;
	pid_t pid;			/* the command */
	int status;			/* its wait status */
	int exec_errno;			/* exec failed: errno */
	int wait_orphans;		/* go on until no descendant is left */
	uint64_t t0_ns, t1_ns;		/* CLOCK_MONOTONIC start, end */
	uint64_t ru_user_ns, ru_sys_ns;	/* wait4 rusage of reaped children */
	int64_t ru_maxrss_kb;
	unsigned int reaped;		/* children reaped */
	unsigned int left;		/* descendants not waited for */
	int stop_signal;		/* a signal ended the wait for them */
	struct tstime_ru ru;
	int sfd;			/* signalfd */
	sigset_t oldmask;
	/* drained while waiting (a source's sockets) */
	int xfd[2];
	void (*drain)(void *arg);
	void *drain_arg;
	int tick_ms;			/* also drain this often; -1: never */
	/* the run's cgroup (tstime_cg.c), -1 if none */
	int cg_fd, cg_procs_fd;
	int cg_errno;			/* the command could not move in */
};

int tstime_run_prepare(struct tstime_run *r);
int tstime_run_start(struct tstime_run *r);
int tstime_run_wait(struct tstime_run *r);
void tstime_run_close(struct tstime_run *r);
/* The exit status a shell would show for r->status. */
int tstime_run_exit_status(const struct tstime_run *r, int *sig);

/* tstime_total.c: the total, where it came from, the verdict */
struct tstime_cg_stat;
void tstime_total(struct tstime_result *res, const struct tstime_cg_stat *cs,
		  int kmod_exact, int lost, int left);

/* tstime_cg.c: a cgroup v2 of the run's own */
struct tstime_cg {
	int fd, procs_fd;		/* the directory, its cgroup.procs */
	int made;
	int v1;				/* a cgroup v1 cpuacct one */
	int need_override;		/* rmdir needs CAP_DAC_OVERRIDE */
	int leaf_made;
	char path[PATH_MAX];		/* ours: its counter */
	char leaf[PATH_MAX + 8];	/* the command's: path/run (v1: path) */
};

struct tstime_cg_stat {
	uint64_t usage_ns, user_ns, sys_ns;
	int v1;				/* from cpuacct.usage* */
};

int tstime_cg_open(struct tstime_cg *cg, char *why, size_t len);
int tstime_cg_read(const struct tstime_cg *cg, struct tstime_cg_stat *st);
int tstime_cg_settle(const struct tstime_cg *cg, unsigned int max_ms);
int tstime_cg_read_final(struct tstime_cg *cg, struct tstime_cg_stat *st,
			 unsigned int max_ms);
void tstime_cg_close(struct tstime_cg *cg, char *why, size_t len);

enum tstime_src_kind {
	TSTIME_SRC_KMOD,
	TSTIME_SRC_TASKSTATS,
	TSTIME_SRC_RUSAGE,
};

struct tstime_src {
	enum tstime_src_kind kind;
	int tree;			/* --tree asked */
	int no_cgroup;			/* --no-cgroup */
	struct tstime_cg cg;
	int cg_ok;			/* cg is the run's counter */
	char cg_why[384];		/* why there is no cgroup (one line) */
	/* kmod */
	int kfd;
	uint64_t seq0;
	uint64_t start_ns;		/* tstime's own start (kmod) */
	uint64_t cu0, cs0, cst0;	/* c* before */
	unsigned int ansf;
	/* taskstats */
	struct ptop_tsnl taskstats;
	struct ptop_cnproc connector;
	struct ptop_tree_acct tree_acct;
	int taskstats_open, connector_open, tree_acct_open;
	int old_delayacct;		/* -1: untouched */
	int keep_delayacct;		/* re-set task_delayacct if reset */
	uint64_t delayacct_checked;	/* CLOCK_MONOTONIC ns */
	char filter_why[96];		/* why no BPF filter, "" if one */
	int filter_flag;		/* its map-full flag's map, -1 */
	/* kmod --tree */
	struct ptop_tree_comm *kcomms;
	size_t nkcomms;
	char why[512];			/* why better sources were skipped */
	char warn[256];			/* what the result lacks */
	char info[256];			/* for -v: how it went */
};

/* tstime_kmod.c */
int tstime_kmod_open(struct tstime_src *s, char *err, size_t errlen);
int tstime_kmod_begin(struct tstime_src *s);
int tstime_kmod_end(struct tstime_src *s, struct tstime_result *res,
		    char *err, size_t errlen);
void tstime_kmod_close(struct tstime_src *s);

/* tstime_taskstats.c */
int tstime_taskstats_open(struct tstime_src *s, char *err, size_t errlen);
/* Right before the command starts, the run's cgroup known. */
void tstime_taskstats_begin(struct tstime_src *s);
void tstime_taskstats_drain(void *arg);
int tstime_taskstats_end(struct tstime_src *s, const struct tstime_run *r,
			 struct tstime_result *res);
void tstime_taskstats_close(struct tstime_src *s);
/*
 * tstime_filter.c: the kernel drops other tasks' messages, and with
 * events = 0 the connector's events too (every record is the tree's).
 * 0 or -errno (why says so; the cBPF filter of cnproc.h stays).
 */
int tstime_filter_attach(struct tstime_src *s, int events, char *why,
			 size_t len);
/* Did the tree outgrow the filter's map (then it kept everything)? */
int tstime_filter_full(const struct tstime_src *s);
void tstime_filter_close(struct tstime_src *s);
/* No cgroup for the run: tell which records wait4 will not cover. */
void tstime_taskstats_no_cgroup(struct tstime_src *s);

/*
 * tstime_src.c: name NULL = best available, else "kmod", "taskstats",
 * "rusage".
 */
int tstime_src_open(struct tstime_src *s, const char *name, int tree,
		    int no_cgroup, char *err, size_t errlen);
const char *tstime_src_name(const struct tstime_src *s);
/* Right before the command starts. */
int tstime_src_begin(struct tstime_src *s, struct tstime_run *r);
/* After the tree is gone: fill the times of *res. */
int tstime_src_end(struct tstime_src *s, const struct tstime_run *r,
		   struct tstime_result *res, char *err, size_t errlen);
void tstime_src_close(struct tstime_src *s);

#endif /* PTOP_TSTIME_H */
