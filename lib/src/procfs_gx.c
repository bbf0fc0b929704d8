// SPDX-License-Identifier: GPL-2.0
/* A process as one record: x* kept while no thread dies (procfs_gx.h) */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs_gx.h"
#include "procfs_read.h"
#include "../reserve.h"

void ptop_pfs_gx_begin(struct ptop_pfs_gxs *g)
{
	g->cur = !g->cur;
	g->n[g->cur] = 0;
	g->ntids[g->cur] = 0;
	g->unsorted = 0;
}

static int gx_cmp(const void *a, const void *b)
{
	const struct ptop_pfs_gx *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return 0;
}

void ptop_pfs_gx_end(struct ptop_pfs_gxs *g)
{
	/* /proc lists pids ascending; the catch-up pass adds behind */
	if (g->unsorted)
		qsort(g->v[g->cur], g->n[g->cur], sizeof(*g->v[0]), gx_cmp);
}

void ptop_pfs_gx_reset(struct ptop_pfs_gxs *g)
{
	g->n[0] = g->n[1] = 0;
	g->ntids[0] = g->ntids[1] = 0;
}

void ptop_pfs_gx_free(struct ptop_pfs_gxs *g)
{
	free(g->v[0]);
	free(g->v[1]);
	free(g->tids[0]);
	free(g->tids[1]);
	free(g->scratch);
	memset(g, 0, sizeof(*g));
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

int ptop_pfs_gx_list(struct ptop_pfs *p, struct ptop_pfs_gxs *g, int gdirfd)
{
	struct dirent *de;
	int fd, ret = 0, sorted = 1;
	DIR *d;

	(void)p;
	g->nscratch = 0;
	fd = openat(gdirfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ESRCH ? -ENOENT : -errno;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((de = readdir(d))) {
		unsigned long v;
		char *end;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		v = strtoul(de->d_name, &end, 10);
		if (*end || !v || v > 0x7fffffffUL)
			continue;
		if (ptop_reserve(&g->scratch, &g->scap, g->nscratch + 1,
				 sizeof(*g->scratch), 256)) {
			ret = -ENOMEM;
			break;
		}
		if (g->nscratch && g->scratch[g->nscratch - 1] >= v)
			sorted = 0;
		g->scratch[g->nscratch++] = (uint32_t)v;
	}
	closedir(d);
	if (!ret && !sorted)
		qsort(g->scratch, g->nscratch, sizeof(*g->scratch), u32_cmp);
	if (!ret && !g->nscratch)
		ret = -ENOENT;	/* every thread gone: a zombie or a dying group */
	return ret;
}

int ptop_pfs_gx_single(struct ptop_pfs_gxs *g, const struct ptop_pfs_gx *was,
		       uint32_t tgid, uint64_t nthreads, char state)
{
	if (!was || was->ntids != 1 || g->tids[!g->cur][was->tid_off] != tgid ||
	    nthreads != 1 || state == 'Z' || state == 'X')
		return 0;
	if (ptop_reserve(&g->scratch, &g->scap, 1, sizeof(*g->scratch), 256))
		return -ENOMEM;
	g->scratch[0] = tgid;
	g->nscratch = 1;
	return 1;
}

const struct ptop_pfs_gx *ptop_pfs_gx_last(const struct ptop_pfs_gxs *g,
					   uint32_t tgid, uint64_t start_ns)
{
	struct ptop_pfs_gx key = { .tgid = tgid, .start_ns = start_ns };
	int prev = !g->cur;

	if (!g->n[prev])
		return NULL;
	return bsearch(&key, g->v[prev], g->n[prev], sizeof(key), gx_cmp);
}

int ptop_pfs_gx_lost(const struct ptop_pfs_gxs *g,
		     const struct ptop_pfs_gx *was)
{
	const uint32_t *old = g->tids[!g->cur] + was->tid_off;
	size_t i, j = 0;

	/* both ascending: every old tid must be in the new list */
	for (i = 0; i < was->ntids; i++) {
		while (j < g->nscratch && g->scratch[j] < old[i])
			j++;
		if (j == g->nscratch || g->scratch[j] != old[i])
			return 1;
	}
	return 0;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static int gx_push(struct ptop_pfs_gxs *g, const struct ptop_pfs_gx *s,
		   const uint32_t *tids)
{
	int c = g->cur;
	struct ptop_pfs_gx *n;

	if (ptop_reserve(&g->v[c], &g->cap[c], g->n[c] + 1, sizeof(*g->v[c]),
			 256) ||
	    ptop_reserve(&g->tids[c], &g->tcap[c], g->ntids[c] + s->ntids + 1,
			 sizeof(*g->tids[c]), 1024))
		return -ENOMEM;
	n = &g->v[c][g->n[c]];
	*n = *s;
	n->tid_off = g->ntids[c];
	if (s->ntids)
		memcpy(g->tids[c] + n->tid_off, tids, s->ntids * sizeof(*tids));
	g->ntids[c] += s->ntids;
	if (g->n[c] && gx_cmp(&g->v[c][g->n[c] - 1], n) >= 0)
		g->unsorted = 1;
	g->n[c]++;
	return 0;
}

int ptop_pfs_gx_add(struct ptop_pfs_gxs *g, const struct ptop_pfs_gx *was,
		    uint32_t tgid, uint64_t start_ns, uint64_t tu, uint64_t ts,
		    int measured, uint64_t lu, uint64_t ls,
		    struct ptop_pfs_gx *out)
{
	struct ptop_pfs_gx s = { .tgid = tgid, .start_ns = start_ns,
				 .tu = tu, .ts = ts,
				 .ntids = g->nscratch };

	if (measured) {
		s.mu = sub0(tu, lu);
		s.ms = sub0(ts, ls);
	} else if (was) {
		s.mu = was->mu;
		s.ms = was->ms;
	}
	if (!was) {
		s.xu = s.mu;
		s.xs = s.ms;
	} else {
		/* grows by the measured growth, at most by the total's */
		s.xu = was->xu + min64(sub0(s.mu, was->mu), sub0(tu, was->tu));
		s.xs = was->xs + min64(sub0(s.ms, was->ms), sub0(ts, was->ts));
	}
	*out = s;
	return gx_push(g, &s, g->scratch);
}

int ptop_pfs_gx_keep(struct ptop_pfs_gxs *g, const struct ptop_pfs_gx *was)
{
	return gx_push(g, was, g->tids[!g->cur] + was->tid_off);
}
