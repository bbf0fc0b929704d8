// SPDX-License-Identifier: GPL-2.0
/*
 * procfs source against a fixture proc tree built in a temp dir:
 * a multi-threaded process whose comm has spaces and ')', with a dead-thread
 * remainder (group stat > sum of threads); a single-threaded process with a
 * thread directory that vanished; a process that vanished (no files);
 * /proc/stat and config.gz. Exact records are asserted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/src/procfs_read.h"
#include "lib/src.h"
#include "tests/unit/fixture_fs.h"

struct fx {
	char root[256];
	uint64_t tick;	/* ns per clock tick */
};

static void dir(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

/* A stat line per proc_pid_stat(5) with the fields the source reads. */
static void stat_file(const char *root, const char *rel, int pid,
		      const char *comm, char state, int ppid,
		      unsigned minflt, unsigned majflt, unsigned ut, unsigned st,
		      unsigned cut, unsigned cst, unsigned nthr, unsigned start,
		      unsigned rss)
{
	char line[1024];

	snprintf(line, sizeof(line),
		 "%d (%s) %c %d %d %d 0 -1 4194304 %u 0 %u 0 %u %u %u %u "
		 "20 0 %u 0 %u 1234567 %u 18446744073709551615 1 1 0 0 0 0 0 "
		 "0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
		 pid, comm, state, ppid, pid, pid, minflt, majflt, ut, st, cut,
		 cst, nthr, start, rss);
	fx_put(root, rel, line);
}

static void status_file(const char *root, const char *rel, unsigned uid,
			unsigned hwm, unsigned vcs, unsigned ivcs)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "Name:\tx\nState:\tS (sleeping)\nTgid:\t1\nPid:\t1\n"
		 "PPid:\t1\nUid:\t%u\t%u\t%u\t%u\nGid:\t0\t0\t0\t0\n"
		 "VmHWM:\t    %u kB\nVmRSS:\t    100 kB\n"
		 "voluntary_ctxt_switches:\t%u\n"
		 "nonvoluntary_ctxt_switches:\t%u\n",
		 uid, uid + 1, uid + 2, uid + 3, hwm, vcs, ivcs);
	fx_put(root, rel, text);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char path[512];
	gzFile gz;

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/ptop-procfs-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	f->tick = 1000000000ULL / sysconf(_SC_CLK_TCK);

	fx_put(f->root, "stat",
	    "cpu  100 5 50 1000 20 3 2 7 0 0\n"
	    "cpu0 50 5 25 500 10 3 1 4 0 0\n"
	    "cpu1 50 0 25 500 10 0 1 3 0 0\n"
	    "intr 1 2 3\nctxt 99\nbtime 1700000000\n");
	snprintf(path, sizeof(path), "%s/config.gz", f->root);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	gzputs(gz, "CONFIG_TICK_CPU_ACCOUNTING=y\n"
		   "CONFIG_PARAVIRT_TIME_ACCOUNTING=y\n"
		   "CONFIG_IRQ_TIME_ACCOUNTING=y\n");
	gzclose(gz);

	/* 100: two live threads; group times include a dead thread */
	dir(f->root, "100");
	dir(f->root, "100/task");
	dir(f->root, "100/task/100");
	dir(f->root, "100/task/101");
	stat_file(f->root, "100/stat", 100, "a) (b c)", 'S', 1, 70, 3,
		  50, 30, 7, 3, 2, 1234, 10);
	status_file(f->root, "100/status", 1000, 4096, 0, 0);
	stat_file(f->root, "100/task/100/stat", 100, "a) (b c)", 'S', 1, 40,
		  2, 20, 10, 0, 0, 2, 1234, 10);
	status_file(f->root, "100/task/100/status", 1000, 4096, 11, 12);
	fx_put(f->root, "100/task/100/schedstat", "987654321 5555 42\n");
	fx_put(f->root, "100/schedstat", "987654322 12332 45\n");
	stat_file(f->root, "100/task/101/stat", 101, "worker 1", 'R', 1, 20,
		  1, 10, 5, 0, 0, 2, 1300, 10);
	status_file(f->root, "100/task/101/status", 1000, 4096, 21, 22);
	fx_put(f->root, "100/task/101/schedstat", "1 7777 3\n");
	if (symlink("100", strcat(strcpy(path, f->root), "/self")))
		fail();

	/* 200: one thread; thread 201 vanished (empty directory) */
	dir(f->root, "200");
	dir(f->root, "200/task");
	dir(f->root, "200/task/200");
	dir(f->root, "200/task/201");
	stat_file(f->root, "200/stat", 200, "sh", 'S', 100, 5, 0, 4, 2, 1, 1,
		  1, 5000, 20);
	status_file(f->root, "200/status", 0, 512, 0, 0);
	stat_file(f->root, "200/task/200/stat", 200, "sh", 'S', 100, 5, 0,
		  4, 2, 0, 0, 1, 5000, 20);
	status_file(f->root, "200/task/200/status", 0, 512, 1, 2);
	fx_put(f->root, "200/task/200/schedstat", "100 200 3\n");

	/* 300: vanished between readdir and open: no files at all */
	dir(f->root, "300");
	/* not tasks */
	dir(f->root, "sys");
	fx_put(f->root, "uptime", "1.0 1.0\n");
	*state = f;
	return 0;
}

static int rm_one(const char *p, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(p);
}

static int teardown(void **state)
{
	struct fx *f = *state;

	nftw(f->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

static const struct ptop_rec *find(const struct ptop_sample *s,
					 int kind, uint32_t pid)
{
	size_t i;

	for (i = 0; i < s->nrecs; i++)
		if (s->recs[i].kind == kind && s->recs[i].pid == pid)
			return &s->recs[i];
	return NULL;
}

/* the procfs source on the fixture; hook (may be NULL) between phases */
static struct ptop_src *open_src(struct fx *f, unsigned int need,
				 void (*hook)(void *), void *arg)
{
	struct ptop_src_cfg cfg = {
		.proc_root = f->root,
		.need = need,
		.between_phases = hook,
		.arg = arg,
	};
	struct ptop_src *src = NULL;
	char err[300];

	assert_int_equal(ptop_src_open(&src, "procfs", &cfg, err,
				       sizeof(err)), 0);
	return src;
}

static struct ptop_src *open_fx(struct fx *f)
{
	return open_src(f, PTOP_DATA_RDELAY, NULL, NULL);
}

static void test_open_caps(void **state)
{
	struct ptop_src *src = open_fx(*state);

	assert_int_equal(src->caps, PTOP_DATA_X | PTOP_DATA_C | PTOP_DATA_CTXSW |
			 PTOP_DATA_MEM | PTOP_DATA_RDELAY);
	assert_non_null(strstr(src->note, "clock-tick"));
	assert_non_null(strstr(src->note, "waited-for"));
	assert_string_equal(src->ops->desc, "/proc scan, clock ticks");
	ptop_src_close(src);
}

static void test_cpu(void **state)
{
	struct fx *f = *state;
	struct ptop_src *src = open_fx(f);
	struct ptop_sample s;

	ptop_sample_init(&s);
	assert_int_equal(ptop_src_read(src, &s), 0);
	assert_int_equal(s.ncpu, 2);
	assert_int_equal(s.cpu.idle_ns, 1020 * f->tick);
	assert_int_equal(s.cpu.iowait_ns, 20 * f->tick);
	assert_int_equal(s.cpu.irq_ns, 5 * f->tick);
	assert_int_equal(s.cpu.steal_ns, 7 * f->tick);
	assert_int_equal(s.cpu.busy_ns, 155 * f->tick);
	assert_int_equal(s.sys_apart,
			 PTOP_SYS_STEAL_APART | PTOP_SYS_IRQ_APART);
	assert_true(s.time_ns > 0);
	assert_int_equal(s.flags, 0);
	ptop_sample_free(&s);
	ptop_src_close(src);
}

static void test_records(void **state)
{
	struct fx *f = *state;
	struct ptop_src *src = open_fx(f);
	const struct ptop_rec *r;
	struct ptop_sample s;

	ptop_sample_init(&s);
	assert_int_equal(ptop_src_read(src, &s), 0);
	/* 100: group + 2 threads, 200: group + 1 thread; 201, 300 skipped */
	assert_int_equal(s.nrecs, 5);
	assert_null(find(&s, PTOP_REC_THREAD, 201));
	assert_null(find(&s, PTOP_REC_GROUP, 300));

	r = find(&s, PTOP_REC_GROUP, 100);
	assert_non_null(r);
	assert_int_equal(r->kind, PTOP_REC_GROUP);
	assert_int_equal(r->tgid, 100);
	assert_int_equal(r->ppid, 1);
	assert_int_equal(r->acct_ptgid, 1);
	assert_int_equal(r->uid, 1000);
	assert_int_equal(r->nthreads, 2);
	assert_int_equal(r->state, 'S');
	assert_string_equal(r->comm, "a) (b c)");
	assert_int_equal(r->start_ns, 1234 * f->tick);
	assert_int_equal(r->flags, PTOP_RECF_HAS_X | PTOP_RECF_HAS_C |
			 PTOP_RECF_C_PARTIAL);
	assert_int_equal(r->utime_ns, 0);	/* lib sums threads */
	assert_int_equal(r->stime_ns, 0);
	assert_int_equal(r->xutime_ns, (50 - 20 - 10) * f->tick);
	assert_int_equal(r->xstime_ns, (30 - 10 - 5) * f->tick);
	assert_int_equal(r->cutime_ns, 7 * f->tick);
	assert_int_equal(r->cstime_ns, 3 * f->tick);
	assert_int_equal(r->rss_kb, 10 * (sysconf(_SC_PAGESIZE) / 1024));
	assert_int_equal(r->hiwater_rss_kb, 4096);

	r = find(&s, PTOP_REC_THREAD, 100);
	assert_non_null(r);
	assert_int_equal(r->tgid, 100);
	assert_string_equal(r->comm, "a) (b c)");
	assert_int_equal(r->start_ns, 1234 * f->tick);
	assert_int_equal(r->utime_ns, 20 * f->tick);
	assert_int_equal(r->stime_ns, 10 * f->tick);
	assert_int_equal(r->rdelay_ns, 5555);
	assert_int_equal(r->flags, PTOP_RECF_HAS_RDELAY);
	assert_int_equal(r->nvcsw, 11);
	assert_int_equal(r->nivcsw, 12);
	assert_int_equal(r->minflt, 40);
	assert_int_equal(r->majflt, 2);
	assert_int_equal(r->uid, 1000);

	r = find(&s, PTOP_REC_THREAD, 101);
	assert_non_null(r);
	assert_int_equal(r->tgid, 100);
	assert_int_equal(r->state, 'R');
	assert_string_equal(r->comm, "worker 1");
	assert_int_equal(r->start_ns, 1300 * f->tick);
	assert_int_equal(r->utime_ns, 10 * f->tick);
	assert_int_equal(r->stime_ns, 5 * f->tick);
	assert_int_equal(r->rdelay_ns, 7777);
	assert_int_equal(r->nvcsw, 21);
	assert_int_equal(r->nivcsw, 22);

	r = find(&s, PTOP_REC_GROUP, 200);
	assert_non_null(r);
	assert_int_equal(r->ppid, 100);
	assert_int_equal(r->acct_ptgid, 100);
	assert_int_equal(r->uid, 0);
	assert_int_equal(r->nthreads, 1);
	assert_int_equal(r->start_ns, 5000 * f->tick);
	assert_int_equal(r->xutime_ns, 0);
	assert_int_equal(r->xstime_ns, 0);
	assert_int_equal(r->cutime_ns, 1 * f->tick);
	assert_int_equal(r->cstime_ns, 1 * f->tick);
	r = find(&s, PTOP_REC_THREAD, 200);
	assert_non_null(r);
	assert_int_equal(r->utime_ns, 4 * f->tick);
	assert_int_equal(r->stime_ns, 2 * f->tick);

	/* the identity is stable from one read to the next */
	ptop_sample_reset(&s);
	assert_int_equal(ptop_src_read(src, &s), 0);
	assert_int_equal(s.nrecs, 5);
	r = find(&s, PTOP_REC_THREAD, 101);
	assert_int_equal(r->start_ns, 1300 * f->tick);
	ptop_sample_free(&s);
	ptop_src_close(src);
}

static void test_group_vanishes(void **state)
{
	struct fx *f = *state;
	struct ptop_src *src = open_fx(f);
	struct ptop_sample s;
	char path[512], to[512];

	/* the whole task dir of 200 is gone: the group is skipped */
	snprintf(path, sizeof(path), "%s/200/task/201", f->root);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/200/task/200", f->root);
	snprintf(to, sizeof(to), "%s/gone", f->root);
	assert_int_equal(rename(path, to), 0);
	ptop_sample_init(&s);
	assert_int_equal(ptop_src_read(src, &s), 0);
	assert_int_equal(s.nrecs, 3);
	assert_null(find(&s, PTOP_REC_GROUP, 200));
	ptop_sample_free(&s);
	ptop_src_close(src);
}

static struct ptop_src *open_fx_need(struct fx *f, unsigned int need)
{
	return open_src(f, need, NULL, NULL);
}

/* 200's own utime, in ticks, as a read of src gives it */
static uint64_t utime_200(struct fx *f, struct ptop_src *src)
{
	const struct ptop_rec *r;
	struct ptop_sample s;
	uint64_t v;

	ptop_sample_init(&s);
	assert_int_equal(ptop_src_read(src, &s), 0);
	assert_int_equal(s.nrecs, 5);
	r = find(&s, PTOP_REC_THREAD, 200);
	assert_non_null(r);
	assert_non_null(find(&s, PTOP_REC_GROUP, 200));
	v = r->utime_ns / f->tick;
	ptop_sample_free(&s);
	return v;
}

static void stat_200_at(struct fx *f, char state, unsigned ut,
			unsigned start)
{
	stat_file(f->root, "200/task/200/stat", 200, "sh", state, 100, 5, 0,
		  ut, 2, 0, 0, 1, start, 20);
}

static void stat_200(struct fx *f, char state, unsigned ut)
{
	stat_200_at(f, state, ut, 5000);
}

/*
 * Cheap reads: a single-threaded group whose schedstat (run, pcount) did not
 * move is not read again (its last records stand); any move, a new
 * incarnation, a running state, a counter that never moves or shown
 * memory make a full read.
 */
static void test_quiet_groups(void **state)
{
	struct fx *f = *state;
	struct ptop_src *src;
	char path[512], to[512];

	fx_put(f->root, "200/schedstat", "100 200 3\n");
	src = open_fx_need(f, 0);
	assert_int_equal(utime_200(f, src), 4);
	/* did not run: the stat is not read again */
	stat_200(f, 'S', 9);
	assert_int_equal(utime_200(f, src), 4);
	assert_int_equal(utime_200(f, src), 4);
	/* ran (pcount moved, run the same): read */
	fx_put(f->root, "200/schedstat", "100 200 4\n");
	assert_int_equal(utime_200(f, src), 9);
	/* its time moved at that read: it ran lately, read once more */
	stat_200(f, 'S', 10);
	assert_int_equal(utime_200(f, src), 10);
	assert_int_equal(utime_200(f, src), 10);
	stat_200(f, 'S', 11);
	assert_int_equal(utime_200(f, src), 10);
	/* ran (run moved) */
	fx_put(f->root, "200/schedstat", "101 200 4\n");
	assert_int_equal(utime_200(f, src), 11);
	/* running when read: read every time */
	stat_200(f, 'R', 12);
	fx_put(f->root, "200/schedstat", "102 200 4\n");
	assert_int_equal(utime_200(f, src), 12);
	stat_200(f, 'S', 13);
	assert_int_equal(utime_200(f, src), 13);
	assert_int_equal(utime_200(f, src), 13);
	stat_200(f, 'S', 14);
	assert_int_equal(utime_200(f, src), 13);
	/* a new incarnation of pid 200: a new directory, a new inode */
	snprintf(path, sizeof(path), "%s/200", f->root);
	snprintf(to, sizeof(to), "%s/200.old", f->root);
	assert_int_equal(rename(path, to), 0);
	dir(f->root, "200");
	dir(f->root, "200/task");
	dir(f->root, "200/task/200");
	stat_file(f->root, "200/stat", 200, "sh", 'S', 100, 5, 0, 4, 2, 1, 1,
		  1, 5000, 20);
	status_file(f->root, "200/status", 0, 512, 0, 0);
	status_file(f->root, "200/task/200/status", 0, 512, 1, 2);
	fx_put(f->root, "200/schedstat", "102 200 4\n");
	stat_200(f, 'S', 15);
	assert_int_equal(utime_200(f, src), 15);
	ptop_src_close(src);

	/* memory shown: reclaim moves RSS without the task; always read */
	src = open_fx_need(f, PTOP_DATA_MEM);
	assert_int_equal(utime_200(f, src), 15);
	stat_200(f, 'S', 16);
	assert_int_equal(utime_200(f, src), 16);
	ptop_src_close(src);

	/* sched_info off: "0 0 0" never moves, so it proves nothing */
	fx_put(f->root, "200/schedstat", "0 0 0\n");
	src = open_fx_need(f, 0);
	assert_int_equal(utime_200(f, src), 16);
	stat_200(f, 'S', 17);
	assert_int_equal(utime_200(f, src), 17);
	ptop_src_close(src);
}

static void test_parse_stat(void **state)
{
	struct ptop_pfs_stat st;

	assert_int_equal(ptop_pfs_parse_stat("7 ((x)) y) Z 1 2 3 4 5 6 7 8 "
		"9 10 11 12 13 14 15 16 17 18 19 20 21 22", &st), 0);
	assert_string_equal(st.comm, "(x)) y");
	assert_int_equal(st.state, 'Z');
	assert_int_equal(st.ppid, 1);
	assert_int_equal(st.utime, 11);
	assert_int_equal(st.minflt, 7);
	assert_int_equal(st.cminflt, 8);
	assert_int_equal(st.majflt, 9);
	assert_int_equal(st.cmajflt, 10);
	assert_int_equal(st.starttime, 19);
	assert_int_equal(ptop_pfs_parse_stat("7 (x) S 1 2", &st), -EINVAL);
	assert_int_equal(ptop_pfs_parse_stat("garbage", &st), -EINVAL);
}

static void test_live_proc(void **state)
{
	struct ptop_src_cfg cfg = { .proc_root = "/proc" };
	const struct ptop_rec *r;
	struct ptop_src *src = NULL;
	struct ptop_sample s;
	char err[300];

	assert_int_equal(ptop_src_open(&src, "procfs", &cfg, err,
				       sizeof(err)), 0);
	ptop_sample_init(&s);
	assert_int_equal(ptop_src_read(src, &s), 0);
	r = find(&s, PTOP_REC_GROUP, getpid());
	assert_non_null(r);
	r = find(&s, PTOP_REC_THREAD, getpid());
	assert_non_null(r);
	assert_true(s.ncpu >= 1);
	ptop_sample_free(&s);
	ptop_src_close(src);
}

/*
 * 200 wakes once per interval (a 1 Hz timer beside `-d 1`): at the walk's
 * read it has not run since the last one, then it runs before the window.
 * It ran lately (its time moved at the previous read): the window reads
 * it again, so that run is in this interval, not the next.
 */
struct late_run {
	struct fx *f;
	unsigned int ut;	/* 200's utime after the walk (0: no run) */
	const char *sched;	/* and its schedstat */
	unsigned int start;	/* 200's start (0: the fixture's) */
};

static void run_200_late(void *arg)
{
	struct late_run *l = arg;

	if (!l->ut)
		return;
	stat_200_at(l->f, 'S', l->ut, l->start ? l->start : 5000);
	fx_put(l->f->root, "200/schedstat", l->sched);
	l->ut = 0;
}

static struct ptop_src *open_late_run(struct late_run *l)
{
	return open_src(l->f, 0, run_200_late, l);
}

static void test_ran_lately_read_again(void **state)
{
	struct fx *f = *state;
	struct late_run l = { .f = f };
	struct ptop_src *src;

	fx_put(f->root, "200/schedstat", "100 200 3\n");
	src = open_late_run(&l);
	assert_int_equal(utime_200(f, src), 4);
	stat_200(f, 'S', 6);
	fx_put(f->root, "200/schedstat", "150 200 4\n");
	assert_int_equal(utime_200(f, src), 6);	/* moved at this read */
	l.ut = 8;
	l.sched = "200 200 5\n";
	assert_int_equal(utime_200(f, src), 8);	/* the window's */
	assert_int_equal(utime_200(f, src), 8);
	assert_int_equal(utime_200(f, src), 8);
	/* two reads without a move: quiet, a late run shows at the next */
	l.ut = 9;
	l.sched = "250 200 6\n";
	assert_int_equal(utime_200(f, src), 8);
	assert_int_equal(utime_200(f, src), 9);
	ptop_src_close(src);
}

/*
 * At the open a single reading shows no move: a thread that spent 10% of
 * its 10 s on a CPU counts as having run lately (the first read's window
 * reads it again), one that spent 0.1% does not (ptop_pfs_busy_life()).
 */
static void open_busy_or_not(struct fx *f, unsigned ut, unsigned expect)
{
	unsigned start = ptop_pfs_boot_ns() / f->tick - 1000;
	struct late_run l = { .f = f, .start = start };
	struct ptop_src *src;

	stat_200_at(f, 'S', ut, start);
	src = open_late_run(&l);
	l.ut = ut + 5;
	l.sched = "900 200 9\n";
	assert_int_equal(utime_200(f, src), expect);
	ptop_src_close(src);
}

static void test_open_busy_life(void **state)
{
	struct fx *f = *state;

	open_busy_or_not(f, 100, 105);
	open_busy_or_not(f, 1, 1);
}

/*
 * A parent is read early in the walk, its child dies and is reaped before
 * the walk reaches it (vanished), or after the walk has read it (gone by
 * the window): the window reads the parent's c* again, first, and drops
 * the child that is gone, so the child is either in the sample or in its
 * parent's c*, never in both nor in neither.
 */
struct reap {
	struct fx *f;
	int armed;	/* at the next read's window */
	int move;	/* 200 goes then (else it went before the walk) */
};

static void move_200(struct fx *f)
{
	char path[512], to[512];

	snprintf(path, sizeof(path), "%s/200", f->root);
	snprintf(to, sizeof(to), "%s/reaped", f->root);
	assert_int_equal(rename(path, to), 0);
}

static void reap_200(void *arg)
{
	struct reap *r = arg;

	if (!r->armed)
		return;
	r->armed = 0;
	if (r->move)
		move_200(r->f);
	/* 100's cutime now: 7 ticks + 200's 4 + 1 of its exit path */
	stat_file(r->f->root, "100/stat", 100, "a) (b c)", 'S', 1, 70, 3,
		  50, 30, 12, 3, 2, 1234, 10);
}

static struct ptop_src *open_reap(struct fx *f, struct reap *r)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	return open_src(f, PTOP_DATA_RDELAY, reap_200, r);
}

static void read_n(struct ptop_src *src, struct ptop_sample *s, size_t n)
{
	ptop_sample_reset(s);
	assert_int_equal(ptop_src_read(src, s), 0);
	assert_int_equal(s->nrecs, n);
}

/* 200 was reaped after the walk read 100 and before it got to 200 */
static void test_reaped_in_walk(void **state)
{
	struct fx *f = *state;
	struct reap r;
	struct ptop_src *src;
	struct ptop_sample s;

	/* 100 did not run: the window would not read it again for itself */
	stat_file(f->root, "100/task/101/stat", 101, "worker 1", 'S', 1, 20,
		  1, 10, 5, 0, 0, 2, 1300, 10);
	src = open_reap(f, &r);
	ptop_sample_init(&s);
	read_n(src, &s, 5);
	assert_int_equal(find(&s, PTOP_REC_GROUP, 100)->cutime_ns, 7 * f->tick);
	move_200(f);
	r.armed = 1;
	read_n(src, &s, 3);
	assert_null(find(&s, PTOP_REC_GROUP, 200));
	assert_int_equal(find(&s, PTOP_REC_GROUP, 100)->cutime_ns,
			 12 * f->tick);
	ptop_sample_free(&s);
	ptop_src_close(src);
}

/* 200, running, was read by the walk and reaped before the window */
static void test_reaped_before_window(void **state)
{
	struct fx *f = *state;
	struct reap r;
	struct ptop_src *src;
	struct ptop_sample s;

	stat_200(f, 'R', 4);
	src = open_reap(f, &r);
	ptop_sample_init(&s);
	read_n(src, &s, 5);
	r.armed = 1;
	r.move = 1;
	read_n(src, &s, 3);
	assert_null(find(&s, PTOP_REC_GROUP, 200));
	assert_null(find(&s, PTOP_REC_THREAD, 200));
	assert_int_equal(find(&s, PTOP_REC_GROUP, 100)->cutime_ns,
			 12 * f->tick);
	/* the marks of the walk moved with the records: a read more */
	read_n(src, &s, 3);
	assert_int_equal(find(&s, PTOP_REC_GROUP, 100)->cutime_ns,
			 12 * f->tick);
	ptop_sample_free(&s);
	ptop_src_close(src);
}

/* 400, forked during the walk after the walk's last directory chunk */
static void fork_400(void *arg)
{
	struct reap *r = arg;

	if (!r->armed)
		return;
	r->armed = 0;
	dir(r->f->root, "400");
	dir(r->f->root, "400/task");
	dir(r->f->root, "400/task/400");
	stat_file(r->f->root, "400/stat", 400, "cc1", 'R', 200, 9, 0, 6, 3,
		  0, 0, 1, 7000, 30);
	status_file(r->f->root, "400/status", 0, 900, 0, 0);
	stat_file(r->f->root, "400/task/400/stat", 400, "cc1", 'R', 200, 9,
		  0, 6, 3, 0, 0, 1, 7000, 30);
	status_file(r->f->root, "400/task/400/status", 0, 900, 1, 0);
	fx_put(r->f->root, "400/task/400/schedstat", "90000000 100 2\n");
}

/*
 * The catch-up pass: what 400 ran before the snapshot is in this one, not
 * all of it in the next (which would have this interval short by that
 * and the next one over by as much).
 */
static void test_forked_behind_walk(void **state)
{
	struct fx *f = *state;
	struct ptop_src_cfg cfg = {
		.proc_root = f->root, .need = PTOP_DATA_RDELAY,
		.after_walk = fork_400,
	};
	struct ptop_src *src = NULL;
	const struct ptop_rec *g, *t;
	struct ptop_sample s;
	struct reap r = { .f = f };
	char err[300];

	cfg.arg = &r;
	assert_int_equal(ptop_src_open(&src, "procfs", &cfg, err,
				       sizeof(err)), 0);
	ptop_sample_init(&s);
	read_n(src, &s, 5);
	assert_null(find(&s, PTOP_REC_GROUP, 400));
	r.armed = 1;
	read_n(src, &s, 7);
	g = find(&s, PTOP_REC_GROUP, 400);
	t = find(&s, PTOP_REC_THREAD, 400);
	assert_non_null(g);
	assert_non_null(t);
	assert_int_equal(t->utime_ns, 6 * f->tick);
	assert_int_equal(t->stime_ns, 3 * f->tick);
	assert_int_equal(g->ppid, 200);
	/* met once: the catch-up pass skips what the walk read */
	read_n(src, &s, 7);
	ptop_sample_free(&s);
	ptop_src_close(src);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_caps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_records, setup, teardown),
		cmocka_unit_test_setup_teardown(test_group_vanishes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_quiet_groups, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ran_lately_read_again,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_busy_life, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reaped_in_walk, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reaped_before_window,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_forked_behind_walk,
						setup, teardown),
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_live_proc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
