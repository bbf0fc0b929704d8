// SPDX-License-Identifier: GPL-2.0
/* Descendant accounting over taskstats exit records + proc connector */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cputime.h"
#include "tstime_tree_acct.h"
#include "lib/reserve.h"

#define TREE_HASH		1024	/* buckets, power of two */

struct tree_node {
	struct tree_node *next;
	uint32_t tgid;
};

/* A connector EXIT whose exit record has not been read yet. */
struct tree_wait {
	uint32_t pid;
	int desc;
};

/* A live parent's SIGCHLD disposition, asked once until it exits. */
struct tree_parent {
	uint32_t tgid;
	int ignored;
};

#define TREE_PARENTS	64	/* parents remembered; the oldest goes */

static unsigned int tree_hash(uint32_t id)
{
	return (id * 2654435761U) & (TREE_HASH - 1);
}

static struct tree_node **tree_bucket(const struct ptop_tree_acct *acct,
				      uint32_t tgid)
{
	return (struct tree_node **)acct->groups + tree_hash(tgid);
}

int ptop_tree_acct_is_desc(const struct ptop_tree_acct *acct, uint32_t tgid)
{
	const struct tree_node *n;

	for (n = *tree_bucket(acct, tgid); n; n = n->next)
		if (n->tgid == tgid)
			return 1;
	return 0;
}

static int tree_is_ancestor(const struct ptop_tree_acct *acct, uint32_t tgid)
{
	return tgid == acct->root || ptop_tree_acct_is_desc(acct, tgid);
}

static int tree_add(struct ptop_tree_acct *acct, uint32_t tgid)
{
	struct tree_node **b = tree_bucket(acct, tgid), *n;

	if (ptop_tree_acct_is_desc(acct, tgid))
		return 0;
	n = malloc(sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->tgid = tgid;
	n->next = *b;
	*b = n;
	return 0;
}

static void tree_del(struct ptop_tree_acct *acct, uint32_t tgid)
{
	struct tree_node **pp, *n;

	for (pp = tree_bucket(acct, tgid); (n = *pp); pp = &n->next) {
		if (n->tgid == tgid) {
			*pp = n->next;
			free(n);
			return;
		}
	}
}

int ptop_tree_acct_init(struct ptop_tree_acct *acct, uint32_t root)
{
	memset(acct, 0, sizeof(*acct));
	acct->root = root;
	acct->groups = calloc(TREE_HASH, sizeof(struct tree_node *));
	return acct->groups ? 0 : -ENOMEM;
}

void ptop_tree_acct_free(struct ptop_tree_acct *acct)
{
	size_t i;

	if (acct->groups) {
		for (i = 0; i < TREE_HASH; i++) {
			struct tree_node **b =
				(struct tree_node **)acct->groups + i;

			while (*b) {
				struct tree_node *n = *b;

				*b = n->next;
				free(n);
			}
		}
	}
	free(acct->groups);
	free(acct->recs);
	free(acct->waits);
	free(acct->comms);
	free(acct->parents);
	memset(acct, 0, sizeof(*acct));
}

void ptop_tree_acct_lost(struct ptop_tree_acct *acct)
{
	acct->lost = 1;
}

static struct ptop_tree_comm *tree_comm(struct ptop_tree_acct *acct,
					const char *comm)
{
	struct ptop_tree_comm *c;
	size_t i;

	for (i = 0; i < acct->ncomms; i++)
		if (!strncmp(acct->comms[i].comm, comm, PTOP_TS_COMM_LEN))
			return &acct->comms[i];
	if (ptop_reserve(&acct->comms, &acct->comms_cap, acct->ncomms + 1,
			 sizeof(*acct->comms), 16))
		return NULL;
	c = &acct->comms[acct->ncomms++];
	memset(c, 0, sizeof(*c));
	memcpy(c->comm, comm, strnlen(comm, PTOP_TS_COMM_LEN - 1));
	return c;
}

static int tree_parent_ignores(struct ptop_tree_acct *acct, uint32_t tgid)
{
	struct tree_parent *p;
	size_t i;

	for (i = 0; i < acct->nparents; i++)
		if (acct->parents[i].tgid == tgid)
			return acct->parents[i].ignored;
	if (!acct->parents) {
		acct->parents = calloc(TREE_PARENTS, sizeof(*acct->parents));
		if (!acct->parents)
			return 0;
	}
	if (acct->nparents == TREE_PARENTS) {
		memmove(acct->parents, acct->parents + 1,
			(TREE_PARENTS - 1) * sizeof(*acct->parents));
		acct->nparents--;
	}
	p = &acct->parents[acct->nparents++];
	p->tgid = tgid;
	p->ignored = acct->sigchld_ignored(acct->sigchld_arg, tgid) == 1;
	return p->ignored;
}

/* A new process: a parent of that pid is gone. */
static void tree_parent_gone(struct ptop_tree_acct *acct, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < acct->nparents; i++) {
		if (acct->parents[i].tgid != tgid)
			continue;
		acct->parents[i] = acct->parents[--acct->nparents];
		return;
	}
}

/*
 * Did wait4 miss this task? Its time reaches the root's rusage only when
 * its parent, ours, waited for it (the root reaps what is orphaned).
 */
static int tree_unwaited(struct ptop_tree_acct *acct,
			 const struct ptop_tsnl_stats *st)
{
	if (st->ppid == acct->root || !st->ppid)
		return 0;	/* the root's, or not known: never twice */
	if (!ptop_tree_acct_is_desc(acct, st->ppid))
		return 1;
	return acct->sigchld_ignored && tree_parent_ignores(acct, st->ppid);
}

/* Add one dead descendant thread to the results. */
static int tree_count(struct ptop_tree_acct *acct,
		      const struct ptop_tsnl_stats *st)
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
		acct->tick_based++;
	}
	ptop_cputime_split(run, st->utime_us, st->stime_us, &u, &s);
	acct->user_ns += u;
	acct->sys_ns += s;
	if (!acct->all_ours && tree_unwaited(acct, st)) {
		acct->unwaited_user_ns += u;
		acct->unwaited_sys_ns += s;
		acct->unwaited++;
	}
	if (st->pid == st->tgid)
		acct->procs++;
	else
		acct->threads++;
	if (st->hiwater_rss_kb > acct->max_rss_kb)
		acct->max_rss_kb = st->hiwater_rss_kb;
	c = tree_comm(acct, st->comm);
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

int ptop_tree_acct_event(struct ptop_tree_acct *acct,
			 const struct ptop_cnproc_event *ev)
{
	struct tree_wait *w;
	size_t i;
	int desc;

	switch (ev->what) {
	case PTOP_CNPROC_FORK:
		if (ev->pid != ev->tgid)
			return 0;	/* a thread: its group is known */
		/* a new process: a reused tgid starts over */
		if (acct->nparents)
			tree_parent_gone(acct, ev->tgid);
		if (!tree_is_ancestor(acct, ev->ptgid)) {
			tree_del(acct, ev->tgid);
			return 0;
		}
		/*
		 * Ask the parent while it is alive: its children's records
		 * may be read after it is gone.
		 */
		if (acct->sigchld_ignored && ev->ptgid != acct->root)
			tree_parent_ignores(acct, ev->ptgid);
		return tree_add(acct, ev->tgid);
	case PTOP_CNPROC_EXIT:
		break;
	default:
		return 0;
	}
	desc = ptop_tree_acct_is_desc(acct, ev->tgid);
	/* pair with the oldest record of this pid */
	for (i = 0; i < acct->nrecs; i++) {
		if (acct->recs[i].pid != ev->pid)
			continue;
		acct->paired++;
		if (desc && tree_count(acct, &acct->recs[i]))
			return -ENOMEM;
		memmove(&acct->recs[i], &acct->recs[i + 1],
			(acct->nrecs - i - 1) * sizeof(*acct->recs));
		acct->nrecs--;
		return 0;
	}
	if (ptop_reserve(&acct->waits, &acct->waits_cap, acct->nwaits + 1,
			 sizeof(*acct->waits), 64))
		return -ENOMEM;
	w = &acct->waits[acct->nwaits++];
	w->pid = ev->pid;
	w->desc = desc;
	return 0;
}

int ptop_tree_acct_exit(struct ptop_tree_acct *acct,
			const struct ptop_tsnl_stats *st)
{
	size_t i;

	if (acct->all_ours)
		return st->tgid == acct->root ? 0 : tree_count(acct, st);

	for (i = 0; i < acct->nwaits; i++) {
		int desc = acct->waits[i].desc;

		if (acct->waits[i].pid != st->pid)
			continue;
		memmove(&acct->waits[i], &acct->waits[i + 1],
			(acct->nwaits - i - 1) * sizeof(*acct->waits));
		acct->nwaits--;
		acct->paired++;
		return desc ? tree_count(acct, st) : 0;
	}
	if (ptop_reserve(&acct->recs, &acct->recs_cap, acct->nrecs + 1,
			 sizeof(*acct->recs), 64))
		return -ENOMEM;
	acct->recs[acct->nrecs++] = *st;
	return 0;
}

size_t ptop_tree_acct_pending(const struct ptop_tree_acct *acct)
{
	size_t i, n = 0;

	for (i = 0; i < acct->nrecs; i++)
		n += ptop_tree_acct_is_desc(acct, acct->recs[i].tgid);
	for (i = 0; i < acct->nwaits; i++)
		n += !!acct->waits[i].desc;
	return n;
}

static int tree_cmp_comm(const void *a, const void *b)
{
	const struct ptop_tree_comm *x = a, *y = b;

	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns < y->cpu_ns ? 1 : -1;
	return strncmp(x->comm, y->comm, PTOP_TS_COMM_LEN);
}

int ptop_tree_acct_finish(struct ptop_tree_acct *acct)
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
		for (i = 0; i < acct->nrecs; i++) {
			const struct ptop_tsnl_stats *r = &acct->recs[i];

			if (!tree_is_ancestor(acct, r->ppid) &&
			    !(r->pid != r->tgid &&
			      ptop_tree_acct_is_desc(acct, r->tgid)))
				continue;
			ret = tree_count(acct, r);
			if (!ret)
				ret = tree_add(acct, r->tgid);
			if (ret)
				return ret;
			acct->by_ppid++;
			acct->recs[i] = acct->recs[--acct->nrecs];
			i--;
			changed = 1;
		}
	} while (changed);
	/* still unpaired: not ours as far as anything tells */
	acct->unresolved = acct->nrecs;
	acct->nrecs = 0;
	/* descendants whose record never came */
	for (i = 0; i < acct->nwaits; i++)
		if (acct->waits[i].desc)
			acct->lost = 1;
	acct->nwaits = 0;
	if (acct->ncomms > 1)
		qsort(acct->comms, acct->ncomms, sizeof(*acct->comms),
		      tree_cmp_comm);
	return 0;
}
