// SPDX-License-Identifier: GPL-2.0
/* Fake source: replays scripted samples (see fake_src.h). */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fake_src.h"

struct ptop_sample *fake_sample(struct fake_script *fs, uint64_t t_ns,
				unsigned int ncpu, uint64_t idle_ns)
{
	struct ptop_sample *s;

	assert(fs->nsamples < FAKE_MAX_SAMPLES);
	s = &fs->samples[fs->nsamples++];
	ptop_sample_init(s);
	s->time_ns = t_ns;
	s->ncpu = ncpu;
	s->cpu.idle_ns = idle_ns;
	return s;
}

static struct ptop_rec *add(struct ptop_sample *s, enum ptop_rec_kind k)
{
	struct ptop_rec *r = ptop_sample_add(s, k);

	assert(r);
	return r;
}

void fake_proc(struct ptop_sample *s, uint32_t tgid, uint32_t ppid,
	       uint64_t start, uint64_t u, uint64_t st, const char *comm)
{
	struct ptop_rec *g = add(s, PTOP_REC_GROUP);

	g->pid = g->tgid = tgid;
	g->ppid = g->acct_ptgid = ppid;
	g->start_ns = start;
	g->nthreads = 1;
	g->state = 'R';
	g->flags = PTOP_RECF_HAS_X | PTOP_RECF_HAS_C;
	snprintf(g->comm, sizeof(g->comm), "%s", comm);
	fake_thread(s, tgid, tgid, start, u, st);
	snprintf(s->recs[s->nrecs - 1].comm, sizeof(g->comm), "%s", comm);
}

void fake_thread(struct ptop_sample *s, uint32_t pid, uint32_t tgid,
		 uint64_t start, uint64_t u, uint64_t st)
{
	struct ptop_rec *t = add(s, PTOP_REC_THREAD);

	t->pid = pid;
	t->tgid = tgid;
	t->start_ns = start;
	t->utime_ns = u;
	t->stime_ns = st;
	t->state = 'R';
}

struct ptop_rec *fake_group(struct ptop_sample *s, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < s->nrecs; i++)
		if (s->recs[i].kind == PTOP_REC_GROUP &&
		    s->recs[i].pid == tgid &&
		    !(s->recs[i].flags & PTOP_RECF_EXIT))
			return &s->recs[i];
	assert(!"no such group");
	return NULL;
}

void fake_exit_group(struct ptop_sample *s, uint32_t tgid, uint64_t start,
		     uint64_t xu, uint64_t xs, uint64_t cu, uint64_t cs,
		     uint32_t into, uint64_t into_start)
{
	struct ptop_rec *g = add(s, PTOP_REC_GROUP);

	g->pid = g->tgid = tgid;
	g->start_ns = start;
	g->flags = PTOP_RECF_EXIT | PTOP_RECF_HAS_X | PTOP_RECF_HAS_C;
	g->xutime_ns = xu;
	g->xstime_ns = xs;
	g->cutime_ns = cu;
	g->cstime_ns = cs;
	g->folded_into = into;
	g->folded_start_ns = into_start;
}

void fake_exit_thread(struct ptop_sample *s, uint32_t pid, uint32_t tgid,
		      uint64_t start, uint64_t u, uint64_t st)
{
	fake_thread(s, pid, tgid, start, u, st);
	s->recs[s->nrecs - 1].flags |= PTOP_RECF_EXIT;
}

static int fake_open(struct ptop_src *src)
{
	struct fake_script *fs = src->cfg.arg;

	src->priv = fs;
	src->caps = fs->caps;
	src->tol_ppm = fs->tol_ppm;
	src->res_ns = fs->res_ns;
	src->res_what = fs->res_what;
	return 0;
}

static int fake_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct fake_script *fs = src->priv;
	struct ptop_sample *in;

	if (fs->next >= fs->nsamples)
		return -ENODATA;
	src->res_ns = fs->res_at[fs->next] ? fs->res_at[fs->next] : fs->res_ns;
	in = &fs->samples[fs->next++];
	/* a copy, as a real source fills the caller's buffer */
	return ptop_sample_copy(out, in);
}

static const struct ptop_src_ops fake_ops = {
	.name = "fake",
	.desc = "scripted samples",
	.open = fake_open,
	.read = fake_read,
};

struct ptop_src *fake_src_open(struct fake_script *fs, unsigned int caps)
{
	struct ptop_src_cfg cfg = { .arg = fs };
	struct ptop_src *src = NULL;
	char err[128];

	fs->caps = caps;
	fs->next = 0;
	if (ptop_src_open_ops(&src, &fake_ops, &cfg, err, sizeof(err)))
		return NULL;
	return src;
}

void fake_script_free(struct fake_script *fs)
{
	int i;

	for (i = 0; i < fs->nsamples; i++)
		ptop_sample_free(&fs->samples[i]);
	fs->nsamples = 0;
}
