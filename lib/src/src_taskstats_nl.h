/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The taskstats_nl source's parts (src_taskstats_nl.c: the ops;
 * src_taskstats_nl_events.c: exit records and connector events merged in
 * kernel order; src_taskstats_nl_scan.c: the /proc scan and the tight
 * window). Private to them.
 */
#ifndef PTOP_SRC_TASKSTATS_NL_H
#define PTOP_SRC_TASKSTATS_NL_H

#include <stddef.h>
#include <stdint.h>

#include "../cnproc.h"
#include "procfs_read.h"
#include "../src.h"
#include "tsacct.h"
#include "../tsnl.h"

/* A queued exit listener record, waiting for its connector EXIT. */
struct taskstats_nl_exit {
	struct ptop_tsnl_stats st;
	uint64_t seq;		/* 1, 2, ... as received (tsacct.h) */
	uint32_t live_for;	/* see struct ptop_tsacct_counters */
	int done;
};


struct taskstats_nl_priv {
	struct ptop_tsnl ts;
	struct ptop_cnproc cn;
	struct ptop_pfs pfs;
	struct ptop_tsacct acct;
	struct taskstats_nl_exit *exits;
	size_t nexits, exits_cap;
	uint64_t exit_seq;	/* exit records received so far */
	int lost_at_open;	/* the open's walk drained a loss: first read's */
	uint32_t *hot;		/* tids to read again in the tight window */
	size_t nhot, hot_cap;
	struct ptop_pfs_marks marks;	/* who did not run */
	int has_schedstat;
	uint64_t boot_off;	/* CLOCK_BOOTTIME - CLOCK_MONOTONIC */
	int precise;		/* runtime = cpu_run_virtual_total */
	int old_delayacct;	/* -1: untouched, 0: we turned it on (left on) */
};

/* The kernel's counters in the hierarchy's terms. */
void taskstats_nl_counters(const struct taskstats_nl_priv *p,
			   const struct ptop_tsnl_stats *st,
			   struct ptop_tsacct_counters *c);

/* src_taskstats_nl_events.c */
int taskstats_nl_drain_exits(struct taskstats_nl_priv *p);
int taskstats_nl_read_stat_of(struct taskstats_nl_priv *p, uint32_t pid,
			      struct ptop_pfs_stat *ps);
int taskstats_nl_zombie(struct taskstats_nl_priv *p, uint32_t tid,
			const struct ptop_pfs_stat *ps);
int taskstats_nl_process_events(struct taskstats_nl_priv *p);

/* src_taskstats_nl_scan.c */
int taskstats_nl_first_kernel_c_begin(struct taskstats_nl_priv *p, int tgid,
				      uint64_t *seq);
int taskstats_nl_first_kernel_c_again(struct taskstats_nl_priv *p);
int taskstats_nl_scan(struct taskstats_nl_priv *p, int get, int at_open);
int taskstats_nl_window(struct ptop_src *src, struct ptop_sample *out);
int taskstats_nl_kernel_c_again(struct taskstats_nl_priv *p);

#endif /* PTOP_SRC_TASKSTATS_NL_H */
