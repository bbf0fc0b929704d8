/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The procfs source's parts (lib/src/src_procfs.c says how it reads):
 * its state, the walk (procfs_walk.c: every task, or its last records
 * when it did not run) and the tight window (procfs_window.c: what may
 * have run, read again between two reads of the system counters).
 */
#ifndef PTOP_PROCFS_SRC_H
#define PTOP_PROCFS_SRC_H

#include <stddef.h>
#include <stdint.h>

#include "procfs_gx.h"
#include "procfs_read.h"
#include "../src.h"

/* A thread's own time as the previous read saw it. */
struct pfs_seen {
	uint32_t tid;
	uint64_t start_ns;
	uint64_t own_ns;
	int moved;	/* since the read before (at the open: a busy life) */
};

struct pfs_seen_set {
	struct pfs_seen *v;
	size_t n, cap;
};

/* A group with threads to read again: its records in the sample. */
struct pfs_hot {
	size_t first;		/* its first THREAD record */
	size_t group;		/* its GROUP record (after its threads) */
	int tgid;
	int one;		/* one record for its threads (procfs_gx.h) */
	uint64_t xu, xs;	/* then: its x* */
};

struct procfs_priv {
	struct ptop_pfs pfs;
	int has_schedstat;
	struct pfs_seen_set seen[2];	/* previous read, this read */
	int cur;
	int opening;		/* the open's walk: no previous read */
	uint64_t now_ns;	/* CLOCK_BOOTTIME at the open's walk */
	struct pfs_hot *hot;
	size_t nhot, hot_cap;
	uint8_t *hot_thread;	/* per sample record: PFS_* */
	size_t hot_thread_cap;
	size_t *cparents;	/* GROUP records whose c* the window reads */
	size_t ncparents, cparents_cap;
	size_t *remap;		/* scratch of drop_gone() */
	size_t remap_cap;
	struct ptop_pfs_marks marks;	/* who did not run (procfs_read.h) */
	struct ptop_pfs_marks tmarks;	/* the same of threads, by tid */
	struct ptop_rec *last;	/* the last read's records */
	size_t nlast, last_cap;
	uint32_t *met;		/* the groups this walk met, sorted */
	size_t nmet, met_cap;
	struct ptop_pfs_gxs gx;	/* processes as one record (procfs_gx.h) */
	int groups_only;	/* this read gives them so */
	int was_groups_only;	/* the last read did */
};

struct procfs_scan {
	struct ptop_src *src;
	struct procfs_priv *pp;
	struct ptop_sample *out;
	int tgid;
	uint32_t nthreads;
	uint64_t sum_u, sum_s;	/* ns, live threads */
	int any_hot;		/* a thread of this group may have run */
	int moved;		/* a thread of this group moved at this read */
	int use_marks;		/* skip the groups that did not run */
	uint64_t ino;		/* of the group's /proc directory */
	unsigned int nquiet;	/* groups not read again */
	int sum_only;		/* threads: only sum their times */
	int use_tmarks;		/* skip the threads that did not run */
	uint64_t tino;		/* of the thread's task/ directory */
};

/* struct procfs_priv.hot_thread: per record */
#define PFS_HOT		1	/* a thread the window reads again */
#define PFS_CREAD	2	/* a group whose c* the window read first */
#define PFS_GONE	4	/* dropped: gone by the window */

/* struct pfs_seen by (tid, start), for qsort and bsearch */
int ptop_procfs_seen_cmp(const void *a, const void *b);
/* Set PFS_* on sample record idx. 0 or -ENOMEM. */
int ptop_procfs_mark_rec(struct procfs_priv *pp, size_t idx, uint8_t what);

/* The walk's callbacks (ptop_pfs_for_each_group_q()), arg: procfs_scan */
int ptop_procfs_quiet(void *arg, int tgid, uint64_t ino);
int ptop_procfs_group(void *arg, int tgid, int dfd);
/* The catch-up pass: the groups the walk met are skipped. */
int ptop_procfs_note_met(struct procfs_priv *pp,
			 const struct ptop_sample *out);
int ptop_procfs_met(void *arg, int tgid, uint64_t ino);

/* Phase two: the tight window, between two reads of the system counters. */
int ptop_procfs_window(struct ptop_src *src, struct ptop_sample *out);

#endif /* PTOP_PROCFS_SRC_H */
