// SPDX-License-Identifier: GPL-2.0
/*
 * Answer sequence numbers, and the pass lock that serializes passes.
 *
 * An answer's seq is (pass << 32 | low 32 bits of the EXIT ring head the
 * pass answered up to). pass counts passes from a random base, so that a
 * reader holding a number from before a reload is told to RESYNC; the
 * head bits let any later pass find where that answer's exits ended
 * without a table of past answers, so that no number of other readers'
 * passes can push a reader's N out (the 32 bits are unambiguous while
 * fewer than 2^32 exits separate two answers; more than exit_ring_size
 * gives RESYNC anyway).
 */
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/spinlock.h>
#include "seq.h"

static DEFINE_MUTEX(ptop_ts_pass_mutex);
static DEFINE_SPINLOCK(seq_lock);
static u64 pass_base, pass_now;

void ptop_ts_seq_init(void)
{
	/* random base: a reader's N from before a reload is unknown here */
	pass_base = (get_random_u32() >> 2) | 1;
	pass_now = pass_base - 1;
}

/* The number of the pass that begins now; pass lock held. */
u64 ptop_ts_seq_next_pass(void)
{
	u64 pass;

	spin_lock(&seq_lock);
	pass = ++pass_now;
	spin_unlock(&seq_lock);
	return pass;
}

u64 ptop_ts_seq_now(void)
{
	u64 s;

	spin_lock(&seq_lock);
	s = pass_now;
	spin_unlock(&seq_lock);
	return s;
}

u64 ptop_ts_seq_of(u64 pass, u64 exit_head)
{
	return pass << 32 | (u32)exit_head;
}

/*
 * The pass number of since_seq and the ring head its answer ended at,
 * given the head now; false when this module never issued it.
 */
bool ptop_ts_seq_lookup(u64 seq, u64 head, u64 *pass, u64 *exit_head)
{
	u64 p = seq >> 32, now = ptop_ts_seq_now();
	u32 d = (u32)head - (u32)seq;

	if (!seq || p < pass_base || p > now || d > head)
		return false;
	*pass = p;
	*exit_head = head - d;
	return true;
}

int ptop_ts_pass_lock_killable(void)
{
	return mutex_lock_killable(&ptop_ts_pass_mutex);
}

/* for the attaching and detaching of tracking (activity.c) */
void ptop_ts_pass_lock(void)
{
	mutex_lock(&ptop_ts_pass_mutex);
}

void ptop_ts_pass_unlock(void)
{
	mutex_unlock(&ptop_ts_pass_mutex);
}
