/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The procfs source's reading of a process as one record, when only
 * process rows are shown (PTOP_DATA_GROUPS_ONLY): what top reads of a
 * thread pool is its processes, and reading every thread of it cost
 * ptop up to 12x top.
 *
 * A group's own time is its total (/proc/PID/stat sums its live threads
 * and the dead ones' signal sums) less x*, its dead threads' time, and
 * x* grows only when a thread dies. So a group whose threads of its last
 * read are all still there (one readdir of task/, no file opened) keeps
 * the x* of that read, and none of its threads is read: it gives one
 * THREAD record (pid = tgid, own = total - x*) and its GROUP record. A
 * group new to the source, or one that lost a thread, is read thread by
 * thread (stat only): x* measured = total - live threads, and the x*
 * given grows by what the measured one grew, at most by the growth of
 * the total, so that own never goes back. The part of a dead thread's
 * time that earlier intervals showed in own is then shown again in x*
 * and taken from own: the row's total, and so the sum, stay exact.
 */
#ifndef PTOP_PROCFS_GX_H
#define PTOP_PROCFS_GX_H

#include <stddef.h>
#include <stdint.h>

struct ptop_pfs;

struct ptop_pfs_gx {
	uint32_t tgid;
	uint64_t start_ns;
	uint64_t tu, ts;	/* the group's total at this read */
	uint64_t xu, xs;	/* x* given */
	uint64_t mu, ms;	/* x* measured at its last read of every thread */
	size_t tid_off;		/* its threads at this read: in tids[] */
	size_t ntids;
};

struct ptop_pfs_gxs {
	struct ptop_pfs_gx *v[2];	/* [cur] this read, [!cur] the last */
	size_t n[2], cap[2];
	uint32_t *tids[2];
	size_t ntids[2], tcap[2];
	uint32_t *scratch;		/* the tids of the group being read */
	size_t nscratch, scap;
	int cur;
	int unsorted;
};

void ptop_pfs_gx_begin(struct ptop_pfs_gxs *g);
/* Sort this read's groups for the next read's look-ups. */
void ptop_pfs_gx_end(struct ptop_pfs_gxs *g);
void ptop_pfs_gx_free(struct ptop_pfs_gxs *g);
/* Empty both reads (a read that read every thread kept none). */
void ptop_pfs_gx_reset(struct ptop_pfs_gxs *g);

/*
 * The tids of gdirfd/task into g->scratch, ascending: 0, -ENOENT when
 * the group is gone, -errno. Opens no file of a thread.
 */
int ptop_pfs_gx_list(struct ptop_pfs *p, struct ptop_pfs_gxs *g, int gdirfd);
/*
 * A group single-threaded at its last read (was, may be NULL), that
 * still has one thread and a live leader: its thread list is the
 * leader's alone, without a listing (1). A thread born and dead between
 * two reads is in no listing either: its time shows in own. 0: list.
 */
int ptop_pfs_gx_single(struct ptop_pfs_gxs *g, const struct ptop_pfs_gx *was,
		       uint32_t tgid, uint64_t nthreads, char state);
/* The last read's state of (tgid, start), or NULL. */
const struct ptop_pfs_gx *ptop_pfs_gx_last(const struct ptop_pfs_gxs *g,
					   uint32_t tgid, uint64_t start_ns);
/* Did a thread of the last read's group vanish from g->scratch? */
int ptop_pfs_gx_lost(const struct ptop_pfs_gxs *g,
		     const struct ptop_pfs_gx *was);
/*
 * This read's state of a group with total (tu, ts): was (may be NULL)
 * and, when every thread was read (measured = 1), live (lu, ls). The
 * state is added with g->scratch as its threads; *out gets it.
 */
int ptop_pfs_gx_add(struct ptop_pfs_gxs *g, const struct ptop_pfs_gx *was,
		    uint32_t tgid, uint64_t start_ns, uint64_t tu, uint64_t ts,
		    int measured, uint64_t lu, uint64_t ls,
		    struct ptop_pfs_gx *out);
/* A group not read again (quiet): its last state, as it was. */
int ptop_pfs_gx_keep(struct ptop_pfs_gxs *g, const struct ptop_pfs_gx *was);

#endif /* PTOP_PROCFS_GX_H */
