// SPDX-License-Identifier: GPL-2.0
/* Which tasks did not run since a walk: ptop_pfs_marks (procfs_read.h) */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs_read.h"
#include "../reserve.h"

/* Next unsigned decimal field; *s moves past it. */
static int next_u64(const char **s, uint64_t *v)
{
	const char *c = *s;
	char *end;

	while (*c == ' ')
		c++;
	if (!isdigit((unsigned char)*c))
		return -EINVAL;
	*v = strtoull(c, &end, 10);
	*s = end;
	return 0;
}

int ptop_pfs_read_mark_at(struct ptop_pfs *p, int dirfd, const char *name,
			  uint64_t *run_ns, uint64_t *delay_ns,
			  uint64_t *pcount)
{
	const char *s;
	ssize_t n;

	n = ptop_pfs_read_at(p, dirfd, name);
	if (n == -ENOENT || n == -EACCES || n == -EPERM)
		return 0;
	if (n < 0)
		return n;
	s = p->buf;
	if (next_u64(&s, run_ns) || next_u64(&s, delay_ns) ||
	    next_u64(&s, pcount))
		return 0;
	/* sched_info off: "0 0 0", a counter that never moves */
	return *pcount ? 1 : 0;
}

int ptop_pfs_read_mark(struct ptop_pfs *p, uint32_t tgid, uint64_t *run_ns,
		       uint64_t *pcount)
{
	uint64_t delay;
	char name[32];

	snprintf(name, sizeof(name), "%u/schedstat", tgid);
	return ptop_pfs_read_mark_at(p, p->root_fd, name, run_ns, &delay,
				     pcount);
}

void ptop_pfs_marks_begin(struct ptop_pfs_marks *m)
{
	m->cur = !m->cur;
	m->n[m->cur] = 0;
	m->unsorted = 0;
	m->read_id = 0;
}

static int mark_cmp(const void *a, const void *b)
{
	const struct ptop_pfs_mark *x = a, *y = b;

	return x->tgid < y->tgid ? -1 : x->tgid > y->tgid;
}

const struct ptop_pfs_mark *ptop_pfs_marks_quiet_at(struct ptop_pfs *p,
						    struct ptop_pfs_marks *m,
						    int dirfd, const char *name,
						    uint32_t id, uint64_t ino)
{
	struct ptop_pfs_mark key = { .tgid = id };
	const struct ptop_pfs_mark *was;
	uint64_t run, delay, pcount;
	int prev = !m->cur, ret;

	m->read_id = 0;
	if (!m->n[prev])
		return NULL;
	was = bsearch(&key, m->v[prev], m->n[prev], sizeof(key), mark_cmp);
	if (!was || !was->quiet_ok || was->ino != ino)
		return NULL;
	ret = ptop_pfs_read_mark_at(p, dirfd, name, &run, &delay, &pcount);
	if (ret < 0)
		return NULL;
	m->read_id = id;
	m->read_ok = ret;
	m->read_run = run;
	m->read_delay = delay;
	m->read_pcount = pcount;
	if (ret != 1)
		return NULL;
	return run == was->run_ns && pcount == was->pcount ? was : NULL;
}

const struct ptop_pfs_mark *ptop_pfs_marks_quiet(struct ptop_pfs *p,
						 struct ptop_pfs_marks *m,
						 uint32_t tgid, uint64_t ino)
{
	char name[32];

	snprintf(name, sizeof(name), "%u/schedstat", tgid);
	return ptop_pfs_marks_quiet_at(p, m, p->root_fd, name, tgid, ino);
}

int ptop_pfs_marks_add(struct ptop_pfs_marks *m, const struct ptop_pfs_mark *mk)
{
	int c = m->cur;

	if (ptop_reserve(&m->v[c], &m->cap[c], m->n[c] + 1, sizeof(*m->v[c]),
			 1024))
		return -ENOMEM;
	if (m->n[c] && m->v[c][m->n[c] - 1].tgid >= mk->tgid)
		m->unsorted = 1;
	m->v[c][m->n[c]++] = *mk;
	return 0;
}

void ptop_pfs_marks_end(struct ptop_pfs_marks *m)
{
	/* /proc lists pids ascending: a sort only for other trees */
	if (m->unsorted)
		qsort(m->v[m->cur], m->n[m->cur], sizeof(*m->v[0]), mark_cmp);
}

void ptop_pfs_marks_free(struct ptop_pfs_marks *m)
{
	free(m->v[0]);
	free(m->v[1]);
	memset(m, 0, sizeof(*m));
}
