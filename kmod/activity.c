// SPDX-License-Identifier: GPL-2.0
/*
 * "Active since answer N": sequence numbers and per-task change tracking.
 *
 * Every answer gets the next sequence number. The numbers start from a
 * random base, so that a reader holding a number from before a reload is
 * told to RESYNC instead of getting a wrong incremental answer.
 *
 * Which tasks changed since answer N is decided without any clock: each
 * pass over the task list fills every task's record (as it would be
 * reported) and compares a keyed 64-bit hash of it with the hash the task
 * had at the previous pass. A task whose hash differs gets changed_seq =
 * this pass's sequence number; otherwise it keeps the changed_seq it had.
 * A task not in the previous pass's table (new, or not tracked) gets the
 * current sequence number too: a task forked after answer N is always
 * reported, so no sched_process_fork probe is needed for that.
 *
 * Why no task can be missed: if anything a reader saw in answer N changed
 * afterwards, then some later pass M (N < M <= now) was the first to see
 * the new value, found a hash different from its predecessor's and stored
 * changed_seq = M > N; changed_seq only ever grows, so the current pass
 * still has changed_seq > N and reports the task. Passes of other readers
 * in between only move changed_seq forward. A pass that does not see a task
 * drops its entry, which only makes the task look new (reported again).
 * Nothing here compares sched_clock() values across CPUs: the scheduler's
 * own counters are the evidence, and a task that ran without its counters
 * moving yet (still on the CPU since the last tick) is reported with the
 * same values the reader already has, so omitting it loses nothing. The
 * residual risk is a 64-bit siphash collision with a random key.
 *
 * The table is rebuilt by every pass (entries of tasks that are gone
 * vanish with the old table); passes are serialized by ptop_ts_pass_lock
 * in snapshot.c, which protects everything here except the seq ring read
 * by the state file.
 */
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "ptop_ts.h"

#define SEQ_RING	1024		/* answers we can answer "since" for */

struct seq_ent {
	u64 seq;
	u64 exit_head;
};

static DEFINE_SPINLOCK(seq_lock);
static struct seq_ent seq_ring[SEQ_RING];
static u64 seq_now;

struct track_ent {
	u64 start_ns;
	u64 fp;
	u64 changed_seq;
	u32 key;			/* global pid << 1 | group; 0: free */
	u32 pad;
};

struct track_table {
	struct track_ent *ent;
	u32 mask;
	u32 used;
	u32 limit;
};

static struct track_table track_old, track_new;
static siphash_key_t track_key;

int ptop_ts_act_init(void)
{
	get_random_bytes(&track_key, sizeof(track_key));
	/* random base: a reader's N from before a reload is unknown here */
	seq_now = (u64)(get_random_u32() | 1) << 24;
	return 0;
}

static void track_free(struct track_table *t)
{
	kvfree(t->ent);
	memset(t, 0, sizeof(*t));
}

void ptop_ts_act_exit(void)
{
	track_free(&track_new);
	track_free(&track_old);
}

u64 ptop_ts_seq_now(void)
{
	u64 s;

	spin_lock(&seq_lock);
	s = seq_now;
	spin_unlock(&seq_lock);
	return s;
}

u64 ptop_ts_seq_next(u64 exit_head)
{
	struct seq_ent *e;
	u64 s;

	spin_lock(&seq_lock);
	s = ++seq_now;
	e = &seq_ring[s % SEQ_RING];
	e->seq = s;
	e->exit_head = exit_head;
	spin_unlock(&seq_lock);
	return s;
}

bool ptop_ts_seq_lookup(u64 seq, u64 *exit_head)
{
	struct seq_ent *e = &seq_ring[seq % SEQ_RING];
	bool found;

	spin_lock(&seq_lock);
	found = e->seq == seq && seq != 0;
	if (found)
		*exit_head = e->exit_head;
	spin_unlock(&seq_lock);
	return found;
}

void ptop_ts_track_begin(u32 expected)
{
	u32 cap;

	track_free(&track_new);
	cap = roundup_pow_of_two(max_t(u32, 256, expected + expected / 2 + 64));
	track_new.ent = kvcalloc(cap, sizeof(*track_new.ent), GFP_KERNEL);
	if (!track_new.ent)
		return;		/* untracked tasks are simply always reported */
	track_new.mask = cap - 1;
	track_new.limit = cap - cap / 8;
}

static struct track_ent *track_find(struct track_table *t, u32 key,
				    u64 start_ns, bool insert)
{
	u32 i;

	if (!t->ent)
		return NULL;
	for (i = hash_32(key ^ (u32)start_ns ^ (u32)(start_ns >> 32), 32) & t->mask;
	     ; i = (i + 1) & t->mask) {
		struct track_ent *e = &t->ent[i];

		if (!e->key) {
			if (!insert || t->used >= t->limit)
				return NULL;
			t->used++;
			e->key = key;
			e->start_ns = start_ns;
			return e;
		}
		if (e->key == key && e->start_ns == start_ns)
			return e;
	}
}

/*
 * Called by a pass for every task it sees, with the record as it would be
 * reported; returns the pass sequence number of the task's last change.
 */
u64 ptop_ts_track_update(u32 gpid, bool group, u64 start_ns,
			 const struct ptop_ts_record *r, u64 seq)
{
	u32 key = gpid << 1 | group;
	struct track_ent *old, *e;
	u64 fp, changed = seq;

	fp = siphash(r, sizeof(*r), &track_key);
	old = track_find(&track_old, key, start_ns, false);
	if (old && old->fp == fp)
		changed = old->changed_seq;
	e = track_find(&track_new, key, start_ns, true);
	if (e) {
		e->fp = fp;
		e->changed_seq = changed;
	}
	return changed;
}

void ptop_ts_track_end(void)
{
	track_free(&track_old);
	track_old = track_new;
	memset(&track_new, 0, sizeof(track_new));
}

size_t ptop_ts_track_bytes(void)
{
	return (track_old.ent ? (size_t)(track_old.mask + 1) : 0) *
		sizeof(struct track_ent);
}
