/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the accounting hierarchy: the records and their lock, shared by
 * acct.c (the tree: records, links, folds, reaping), acct_exit.c (a
 * group's death and the time its threads run after their exit probe) and
 * reaper.c (where a dead group's real children go). Nothing else
 * includes this.
 */
#ifndef _PTOP_TS_ACCT_INTERNAL_H
#define _PTOP_TS_ACCT_INTERNAL_H

#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include "record.h"

struct pid;
struct task_struct;

#define PTOP_ACCT_REAP_BATCH	8
#define PTOP_ACCT_REP_BITS	8

struct ptop_acct {
	struct hlist_node hnode;	/* acct_hash, by (tgid, start_ns) */
	struct list_head children;	/* accounting children */
	struct list_head sibling;	/* in parent->children */
	struct list_head dead_node;	/* ptop_acct_dead_list, once dead */
	struct ptop_acct *parent;	/* accounting parent, or NULL */
	struct pid *tgid_pid;		/* reference held */
	u64 start_ns;
	struct ptop_tri c;		/* dead descendants folded in */
	struct ptop_tri c_snap;		/* c before the first fold of pass snap_gen */
	u64 snap_gen;
	struct ptop_tri x_prev;		/* x* as last reported: never backwards */
	struct ptop_tri folded;		/* dead: T + C given to the parent so far */
	u64 x_steal;			/* steal of the group's dead threads */
	struct list_head dying;		/* tail entries: exited, not freed */
	struct list_head running_node;	/* ptop_acct_running: dead, entries run */
	struct ptop_tri x_freed;	/* own x*: freed dead threads */
	/*
	 * what x_freed took of runs after the instant of pass x_post_gen
	 * (threads freed during it): left out of that pass's walks
	 */
	struct ptop_tri x_post;
	u64 x_post_gen;
	bool x_own;			/* x* counted here, not by the kernel */
	bool own_reported;		/* its one group-exit report is made */
	/*
	 * Own x*, its report made: its totals then (own, x*), and the
	 * generation of the reporting CPU's latest pass instant then. A
	 * pass whose instant came after the report answers these, live
	 * until its EXIT record (acct_exit.c, at_report()).
	 */
	struct ptop_tri rep_own, rep_x;
	u64 rep_gen;
	/*
	 * Real children taken in as their reaper (a subreaper, a namespace's
	 * init) whose accounting parent is another group: on fostered,
	 * linked by their foster_node, foster pointing here (reaper.c).
	 */
	struct list_head fostered;
	struct list_head foster_node;
	struct ptop_acct *foster;
	/*
	 * A real child's record could not be made: the group may have real
	 * children neither list holds. Never cleared.
	 */
	bool adopts;
	struct hlist_node rnode;	/* rep_hash, while reporter is set */
	/*
	 * The thread that reported the group dead, until it is freed:
	 * ptop_ts_acct_free() takes it out under ptop_acct_lock before the task
	 * struct goes, so it may be read under ptop_acct_lock while here.
	 */
	struct task_struct *reporter;
	u64 reporter_rt;		/* its runtime in the fold */
	struct pid *exec_pid;		/* a non-leader exec'er's pid before */
	u64 exec_old_start;		/* its start_ns before the exec */
	/*
	 * Its GROUP EXIT record's ring position + 1 (0: none yet), set with
	 * the push under ptop_acct_lock: a pass decides the group by it in
	 * O(1), whatever the records written since (snapshot.c,
	 * group_gone_locked(); the ring's own look-up sees its 1,024 newest
	 * only), and a twin report replaces that record.
	 */
	u64 exit_pos;
	u32 tgid;			/* global tgid */
	bool dead;
};


extern spinlock_t ptop_acct_lock;
/* records with a reporter, by reporter task */
extern struct hlist_head ptop_acct_rep_hash[1 << PTOP_ACCT_REP_BITS];
extern struct list_head ptop_acct_dead_list;
extern struct list_head ptop_acct_running;
extern u64 ptop_acct_gen;
extern long ptop_acct_live, ptop_acct_dead, ptop_acct_nomem;
extern u64 ptop_acct_folds, ptop_acct_unfolded, ptop_acct_late_ns;

static inline void ptop_tri_add(struct ptop_tri *a, const struct ptop_tri *b)
{
	a->u += b->u;
	a->s += b->s;
	a->st += b->st;
}

/* all under ptop_acct_lock */
struct ptop_acct *ptop_acct_lookup(struct task_struct *leader);
void ptop_acct_set_parent(struct ptop_acct *a, struct ptop_acct *p);
void ptop_acct_fold(struct ptop_acct *to, const struct ptop_tri *amount);
struct ptop_acct *ptop_acct_ancestor(struct task_struct *t);
void ptop_acct_reap(unsigned int max);

#endif /* _PTOP_TS_ACCT_INTERNAL_H */
