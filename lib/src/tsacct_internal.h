/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files of the taskstats_nl source's accounting hierarchy
 * (tsacct.c: groups, threads, deaths and events; tsacct_scan.c: the /proc
 * scan and the generation's end; tsacct_exit_path.c: the exit paths from
 * the kernel's c). Not for other callers: they use tsacct.h.
 */
#ifndef PTOP_TSACCT_INTERNAL_H
#define PTOP_TSACCT_INTERNAL_H

#include "tsacct.h"

struct ptop_rec;

/* Copy a comm, terminated. */
void ptop_tsacct_comm(char *dst, const char *src);

struct ptop_tsacct_group *
ptop_tsacct_group_new(struct ptop_tsacct *a, uint32_t tgid,
		      struct ptop_tsacct_group *aparent);
void ptop_tsacct_group_put(struct ptop_tsacct_group *g);
void ptop_tsacct_group_drop(struct ptop_tsacct *a,
			    struct ptop_tsacct_group *g);
int ptop_tsacct_group_flush(struct ptop_tsacct *a,
			    struct ptop_tsacct_group *g);
/* The live ancestor a dead group's time folds into, or NULL. */
struct ptop_tsacct_group *ptop_tsacct_fold_target(struct ptop_tsacct_group *g);

struct ptop_tsacct_thread *ptop_tsacct_thread_new(struct ptop_tsacct *a,
						  uint32_t tid,
						  struct ptop_tsacct_group *g);
void ptop_tsacct_thread_free(struct ptop_tsacct *a,
			     struct ptop_tsacct_thread *t);
void ptop_tsacct_take_counters(struct ptop_tsacct_thread *t,
			       const struct ptop_tsacct_counters *c);
int ptop_tsacct_thread_die(struct ptop_tsacct *a, struct ptop_tsacct_thread *t,
			   const struct ptop_tsacct_counters *c,
			   uint64_t exit_ns);

/* Records appended to a->out. NULL on ENOMEM. */
struct ptop_rec *ptop_tsacct_group_rec(struct ptop_tsacct *a,
				       struct ptop_tsacct_group *g,
				       unsigned int flags);
struct ptop_rec *ptop_tsacct_thread_rec(struct ptop_tsacct *a,
					struct ptop_tsacct_thread *t,
					unsigned int flags, uint64_t user_ns,
					uint64_t sys_ns);

/* Dead g was a child of ppid (its parent at death): who waits for it. */
void ptop_tsacct_credit_parent(struct ptop_tsacct *a,
			       struct ptop_tsacct_group *g, uint32_t ppid);

#endif /* PTOP_TSACCT_INTERNAL_H */
