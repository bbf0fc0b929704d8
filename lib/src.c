// SPDX-License-Identifier: GPL-2.0
/* Source registry, open/fallback, and sample buffer helpers. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src.h"
#include "reserve.h"

/* Best first: the module, then the stock kernel's taskstats, then /proc. */
static const struct ptop_src_ops *const src_list[] = {
	&ptop_src_kmod_proc_ops,
	&ptop_src_kmod_nl_ops,
	&ptop_src_taskstats_nl_ops,
	&ptop_src_procfs_ops,
	NULL,
};

const struct ptop_src_ops *const *ptop_src_list(void)
{
	return src_list;
}

size_t ptop_src_names(char *buf, size_t len, const char *sep)
{
	size_t i, used = 0;
	int n;

	if (len)
		buf[0] = '\0';
	for (i = 0; src_list[i] && used < len; i++) {
		n = snprintf(buf + used, len - used, "%s%s", i ? sep : "",
			     src_list[i]->name);
		if (n < 0)
			break;
		used += n;
	}
	return used;
}

const struct ptop_src_ops *ptop_src_find(const char *name)
{
	size_t i;

	/* the short names of older releases, still in configs and scripts */
	if (!strcmp(name, "kmod"))
		name = "kmod_proc";
	else if (!strcmp(name, "taskstats"))
		name = "taskstats_nl";
	for (i = 0; src_list[i]; i++)
		if (!strcmp(src_list[i]->name, name))
			return src_list[i];
	return NULL;
}

void ptop_src_set_err(struct ptop_src *src, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(src->err, sizeof(src->err), fmt, ap);
	va_end(ap);
}

int ptop_src_open_ops(struct ptop_src **out, const struct ptop_src_ops *ops,
		      const struct ptop_src_cfg *cfg, char *err, size_t errlen)
{
	struct ptop_src *src;
	int ret;

	src = calloc(1, sizeof(*src));
	if (!src) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	src->ops = ops;
	if (cfg)
		src->cfg = *cfg;
	if (!src->cfg.proc_root)
		src->cfg.proc_root = "/proc";
	ret = ops->open(src);
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", ops->name,
			 src->err[0] ? src->err : strerror(-ret));
		free(src);
		return ret;
	}
	*out = src;
	return 0;
}

int ptop_src_open(struct ptop_src **out, const char *name,
		  const struct ptop_src_cfg *cfg, char *err, size_t errlen)
{
	const struct ptop_src_ops *ops = ptop_src_find(name);

	char names[128];

	if (!ops) {
		ptop_src_names(names, sizeof(names), ", ");
		snprintf(err, errlen, "unknown source '%s' (auto, %s)", name,
			 names);
		return -EINVAL;
	}
	return ptop_src_open_ops(out, ops, cfg, err, errlen);
}

int ptop_src_open_best(struct ptop_src **out, const struct ptop_src_cfg *cfg,
		       char *err, size_t errlen)
{
	size_t i, used = 0;
	int ret = -ENOENT;

	if (errlen)
		err[0] = '\0';
	for (i = 0; src_list[i]; i++) {
		char one[300];

		ret = ptop_src_open_ops(out, src_list[i], cfg, one, sizeof(one));
		if (!ret)
			return 0;
		/* keep why each better source was skipped */
		if (used < errlen)
			used += snprintf(err + used, errlen - used, "%s%s",
					 used ? "; " : "", one);
	}
	return ret;
}

int ptop_src_read(struct ptop_src *src, struct ptop_sample *out)
{
	int ret;

	ptop_sample_reset(out);
	ret = src->ops->read(src, out);
	out->tol_ppm = src->tol_ppm;
	out->res_ns = src->res_ns;
	out->res_what = src->res_what;
	return ret;
}

void ptop_src_close(struct ptop_src *src)
{
	if (!src)
		return;
	if (src->ops->close)
		src->ops->close(src);
	free(src);
}

void ptop_sample_init(struct ptop_sample *s)
{
	memset(s, 0, sizeof(*s));
}

void ptop_sample_reset(struct ptop_sample *s)
{
	struct ptop_rec *recs = s->recs;
	size_t cap = s->cap;

	memset(s, 0, sizeof(*s));
	s->recs = recs;
	s->cap = cap;
}

void ptop_sample_free(struct ptop_sample *s)
{
	free(s->recs);
	memset(s, 0, sizeof(*s));
}

int ptop_sample_copy(struct ptop_sample *out, const struct ptop_sample *in)
{
	struct ptop_rec *recs = out->recs;
	size_t cap = out->cap;

	if (in->nrecs > cap) {
		recs = realloc(out->recs, in->nrecs * sizeof(*recs));
		if (!recs)
			return -ENOMEM;
		cap = in->nrecs;
	}
	*out = *in;
	out->recs = recs;
	out->cap = cap;
	if (in->nrecs)
		memcpy(out->recs, in->recs, in->nrecs * sizeof(*recs));
	out->tol_ppm = 0;
	out->res_ns = 0;
	out->res_what = NULL;
	return 0;
}

struct ptop_rec *ptop_sample_add(struct ptop_sample *s,
				       enum ptop_rec_kind kind)
{
	struct ptop_rec *r;

	if (ptop_reserve(&s->recs, &s->cap, s->nrecs + 1, sizeof(*s->recs),
			 1024))
		return NULL;
	r = &s->recs[s->nrecs++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	return r;
}
