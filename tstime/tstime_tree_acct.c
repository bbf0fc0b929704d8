// SPDX-License-Identifier: GPL-2.0
/* Descendant accounting over taskstats exit records + proc connector */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cputime.h"
#include "tstime_tree_acct.h"
#include "lib/reserve.h"

#define TA_HASH		1024	/* buckets, power of two */

struct ta_node {
	struct ta_node *next;
	uint32_t tgid;
};

/* A connector EXIT whose exit record has not been read yet. */
struct ta_wait {
	uint32_t pid;
	int desc;
};

/* A live parent's SIGCHLD disposition, asked once until it exits. */
struct ta_parent {
	uint32_t tgid;
	int ignored;
};

#define TA_PARENTS	64	/* parents remembered; the oldest goes */

static unsigned int ta_hash(uint32_t id)
{
	return (id * 2654435761U) & (TA_HASH - 1);
}

static struct ta_node **ta_bucket(const struct ptop_tree_acct *ta,
				  uint32_t tgid)
{
	return (struct ta_node **)ta->groups + ta_hash(tgid);
}

int ptop_tree_acct_is_desc(const struct ptop_tree_acct *ta, uint32_t tgid)
{
	const struct ta_node *n;

	for (n = *ta_bucket(ta, tgid); n; n = n->next)
		if (n->tgid == tgid)
			return 1;
	return 0;
}

static int ta_is_ancestor(const struct ptop_tree_acct *ta, uint32_t tgid)
{
	return tgid == ta->root || ptop_tree_acct_is_desc(ta, tgid);
}

static int ta_add(struct ptop_tree_acct *ta, uint32_t tgid)
{
	struct ta_node **b = ta_bucket(ta, tgid), *n;

	if (ptop_tree_acct_is_desc(ta, tgid))
		return 0;
	n = malloc(sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->tgid = tgid;
	n->next = *b;
	*b = n;
	return 0;
}

static void ta_del(struct ptop_tree_acct *ta, uint32_t tgid)
{
	struct ta_node **pp, *n;

	for (pp = ta_bucket(ta, tgid); (n = *pp); pp = &n->next) {
		if (n->tgid == tgid) {
			*pp = n->next;
			free(n);
			return;
		}
	}
}

int ptop_tree_acct_init(struct ptop_tree_acct *ta, uint32_t root)
{
	memset(ta, 0, sizeof(*ta));
	ta->root = root;
	ta->groups = calloc(TA_HASH, sizeof(struct ta_node *));
	return ta->groups ? 0 : -ENOMEM;
}

void ptop_tree_acct_free(struct ptop_tree_acct *ta)
{
	size_t i;

	if (ta->groups) {
		for (i = 0; i < TA_HASH; i++) {
			struct ta_node **b = (struct ta_node **)ta->groups + i;

			while (*b) {
				struct ta_node *n = *b;

				*b = n->next;
				free(n);
			}
		}
	}
	free(ta->groups);
	free(ta->recs);
	free(ta->waits);
	free(ta->comms);
	free(ta->parents);
	memset(ta, 0, sizeof(*ta));
}

void ptop_tree_acct_lost(struct ptop_tree_acct *ta)
{
	ta->lost = 1;
}

static struct ptop_tree_comm *ta_comm(struct ptop_tree_acct *ta,
				      const char *comm)
{
	struct ptop_tree_comm *c;
	size_t i;

	for (i = 0; i < ta->ncomms; i++)
		if (!strncmp(ta->comms[i].comm, comm, PTOP_TS_COMM_LEN))
			return &ta->comms[i];
	if (ptop_reserve(&ta->comms, &ta->comms_cap, ta->ncomms + 1,
			 sizeof(*ta->comms), 16))
		return NULL;
	c = &ta->comms[ta->ncomms++];
	memset(c, 0, sizeof(*c));
	memcpy(c->comm, comm, strnlen(comm, PTOP_TS_COMM_LEN - 1));
	return c;
}

static int ta_parent_ignores(struct ptop_tree_acct *ta, uint32_t tgid)
{
	struct ta_parent *p;
	size_t i;

	for (i = 0; i < ta->nparents; i++)
		if (ta->parents[i].tgid == tgid)
			return ta->parents[i].ignored;
	if (!ta->parents) {
		ta->parents = calloc(TA_PARENTS, sizeof(*ta->parents));
		if (!ta->parents)
			return 0;
	}
	if (ta->nparents == TA_PARENTS) {
		memmove(ta->parents, ta->parents + 1,
			(TA_PARENTS - 1) * sizeof(*ta->parents));
		ta->nparents--;
	}
	p = &ta->parents[ta->nparents++];
	p->tgid = tgid;
	p->ignored = ta->sigchld_ignored(ta->sigchld_arg, tgid) == 1;
	return p->ignored;
}

/* A new process: a parent of that pid is gone. */
static void ta_parent_gone(struct ptop_tree_acct *ta, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < ta->nparents; i++) {
		if (ta->parents[i].tgid != tgid)
			continue;
		ta->parents[i] = ta->parents[--ta->nparents];
		return;
	}
}

/*
 * Did wait4 miss this task? Its time reaches the root's rusage only when
 * its parent, ours, waited for it (the root reaps what is orphaned).
 */
static int ta_unwaited(struct ptop_tree_acct *ta,
		       const struct ptop_tsnl_stats *st)
{
	if (st->ppid == ta->root || !st->ppid)
		return 0;	/* the root's, or not known: never twice */
	if (!ptop_tree_acct_is_desc(ta, st->ppid))
		return 1;
	return ta->sigchld_ignored && ta_parent_ignores(ta, st->ppid);
}

/* Add one dead descendant thread to the results. */
static int ta_count(struct ptop_tree_acct *ta, const struct ptop_tsnl_stats *st)
{
	struct ptop_tree_comm *c;
	uint64_t run, u, s;

	run = st->run_virtual_ns;
	/*
	 * The record is filled in do_exit(), before the scheduler folded
	 * the current slice into sum_exec_runtime (a tick or a switch
	 * does): a task that never left the CPU (one arrival) may show 0.
	 * It ran from its first arrival on: elapsed - run-queue wait.
	 */
	if (st->cpu_count == 1 && st->etime_us * 1000 > st->cpu_delay_ns &&
	    st->etime_us * 1000 - st->cpu_delay_ns > run)
		run = st->etime_us * 1000 - st->cpu_delay_ns;
	if (!run) {
		run = (st->utime_us + st->stime_us) * 1000;
		ta->tick_based++;
	}
	ptop_cputime_split(run, st->utime_us, st->stime_us, &u, &s);
	ta->user_ns += u;
	ta->sys_ns += s;
	if (ta_unwaited(ta, st)) {
		ta->unwaited_user_ns += u;
		ta->unwaited_sys_ns += s;
		ta->unwaited++;
	}
	if (st->pid == st->tgid)
		ta->procs++;
	else
		ta->threads++;
	if (st->hiwater_rss_kb > ta->max_rss_kb)
		ta->max_rss_kb = st->hiwater_rss_kb;
	c = ta_comm(ta, st->comm);
	if (!c)
		return -ENOMEM;
	if (st->pid == st->tgid)
		c->procs++;
	else
		c->threads++;
	c->cpu_ns += run;
	c->user_ns += u;
	c->sys_ns += s;
	return 0;
}

int ptop_tree_acct_event(struct ptop_tree_acct *ta,
			 const struct ptop_cnproc_event *ev)
{
	struct ta_wait *w;
	size_t i;
	int desc;

	switch (ev->what) {
	case PTOP_CNPROC_FORK:
		if (ev->pid != ev->tgid)
			return 0;	/* a thread: its group is known */
		/* a new process: a reused tgid starts over */
		if (ta->nparents)
			ta_parent_gone(ta, ev->tgid);
		if (!ta_is_ancestor(ta, ev->ptgid)) {
			ta_del(ta, ev->tgid);
			return 0;
		}
		/*
		 * Ask the parent while it is alive: its children's records
		 * may be read after it is gone.
		 */
		if (ta->sigchld_ignored && ev->ptgid != ta->root)
			ta_parent_ignores(ta, ev->ptgid);
		return ta_add(ta, ev->tgid);
	case PTOP_CNPROC_EXIT:
		break;
	default:
		return 0;
	}
	desc = ptop_tree_acct_is_desc(ta, ev->tgid);
	/* pair with the oldest record of this pid */
	for (i = 0; i < ta->nrecs; i++) {
		if (ta->recs[i].pid != ev->pid)
			continue;
		ta->paired++;
		if (desc && ta_count(ta, &ta->recs[i]))
			return -ENOMEM;
		memmove(&ta->recs[i], &ta->recs[i + 1],
			(ta->nrecs - i - 1) * sizeof(*ta->recs));
		ta->nrecs--;
		return 0;
	}
	if (ptop_reserve(&ta->waits, &ta->waits_cap, ta->nwaits + 1,
			 sizeof(*ta->waits), 64))
		return -ENOMEM;
	w = &ta->waits[ta->nwaits++];
	w->pid = ev->pid;
	w->desc = desc;
	return 0;
}

int ptop_tree_acct_exit(struct ptop_tree_acct *ta,
			const struct ptop_tsnl_stats *st)
{
	size_t i;

	for (i = 0; i < ta->nwaits; i++) {
		int desc = ta->waits[i].desc;

		if (ta->waits[i].pid != st->pid)
			continue;
		memmove(&ta->waits[i], &ta->waits[i + 1],
			(ta->nwaits - i - 1) * sizeof(*ta->waits));
		ta->nwaits--;
		ta->paired++;
		return desc ? ta_count(ta, st) : 0;
	}
	if (ptop_reserve(&ta->recs, &ta->recs_cap, ta->nrecs + 1,
			 sizeof(*ta->recs), 64))
		return -ENOMEM;
	ta->recs[ta->nrecs++] = *st;
	return 0;
}

size_t ptop_tree_acct_pending(const struct ptop_tree_acct *ta)
{
	size_t i, n = 0;

	for (i = 0; i < ta->nrecs; i++)
		n += ptop_tree_acct_is_desc(ta, ta->recs[i].tgid);
	for (i = 0; i < ta->nwaits; i++)
		n += !!ta->waits[i].desc;
	return n;
}

static int ta_cmp_comm(const void *a, const void *b)
{
	const struct ptop_tree_comm *x = a, *y = b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns < y->cpu_ns ? 1 : -1;
	return strncmp(x->comm, y->comm, PTOP_TS_COMM_LEN);
}

int ptop_tree_acct_finish(struct ptop_tree_acct *ta)
{
	size_t i;
	int changed, ret;

	/*
	 * Unpaired records: a child dies before its parent, so its ppid's
	 * group may only be known to be ours from a later record: repeat
	 * until nothing changes.
	 */
	do {
		changed = 0;
		for (i = 0; i < ta->nrecs; i++) {
			const struct ptop_tsnl_stats *r = &ta->recs[i];

			if (!ta_is_ancestor(ta, r->ppid) &&
			    !(r->pid != r->tgid &&
			      ptop_tree_acct_is_desc(ta, r->tgid)))
				continue;
			ret = ta_count(ta, r);
			if (!ret)
				ret = ta_add(ta, r->tgid);
			if (ret)
				return ret;
			ta->by_ppid++;
			ta->recs[i] = ta->recs[--ta->nrecs];
			i--;
			changed = 1;
		}
	} while (changed);
	/* still unpaired: not ours as far as anything tells */
	ta->unresolved = ta->nrecs;
	ta->nrecs = 0;
	/* descendants whose record never came */
	for (i = 0; i < ta->nwaits; i++)
		if (ta->waits[i].desc)
			ta->lost = 1;
	ta->nwaits = 0;
	if (ta->ncomms > 1)
		qsort(ta->comms, ta->ncomms, sizeof(*ta->comms), ta_cmp_comm);
	return 0;
}
