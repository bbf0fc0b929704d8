/* SPDX-License-Identifier: GPL-2.0 */
/* The state of one walk: its answer, the room left, what it may skip. */
#ifndef _PTOP_TS_WALK_H
#define _PTOP_TS_WALK_H

#include <linux/compiler.h>
#include <linux/types.h>
#include "answer.h"
#include "compat.h"	/* __cond_lock() where 7.x dropped it */
#include "record.h"

struct sighand_struct;
struct task_struct;

#define WALK_CHUNK	256	/* groups per rcu_read_lock() section */
#define WALK_GROW	1	/* walk_group(): grow the answer, then again */

struct ptop_ts_walk {
	const struct ptop_ts_query *q;
	struct ptop_ts_snap *snap;
	u64 seq;
	u64 exit_head;		/* EXIT records written before this pass */
	u64 late_head;		/* and up to here: late groups (late.c) */
	u64 since_pass;		/* 0: report every task */
	u32 cap;		/* records the walk may use */
	u32 grow;		/* WALK_GROW: records the answer must hold */
	bool threads;
	bool full;
	bool no_room;		/* the answer could not grow (budget, memory) */
	u16 recf;		/* flags every record gets (HAS_STEAL) */
	struct ptop_ts_spans spans;
	/* the group being walked: exiting threads given a live row */
	const struct task_struct *live[PTOP_GONE_KEPT];
	u32 nlive;
};

bool ptop_ts_walk_wants(const struct ptop_ts_walk *w, struct task_struct *t);
struct ptop_ts_record *ptop_ts_walk_add(struct ptop_ts_walk *w,
					const struct ptop_ts_record *r);
void ptop_ts_walk_stop_at(struct ptop_ts_walk *w, u32 tgid);
void ptop_ts_walk_room(struct ptop_ts_walk *w, u32 cap);
void ptop_ts_walk_grow(struct ptop_ts_walk *w);

struct sighand_struct *__ptop_ts_lock_sighand(struct task_struct *t,
					      unsigned long *flags);

#define ptop_ts_lock_sighand(t, flags)					\
({	struct sighand_struct *__ss;					\
	__cond_lock(&(t)->sighand->siglock,				\
		    (__ss = __ptop_ts_lock_sighand(t, flags)));		\
	__ss;								\
})

#endif /* _PTOP_TS_WALK_H */
