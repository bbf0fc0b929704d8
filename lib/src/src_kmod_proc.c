// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_proc source: the ptop_taskstats module through /proc/taskstats.
 * Each read is one write of a PIDS command (threads, since the previous
 * answer) and reads until the answer is consumed: two syscalls for the
 * whole answer, whose cost grows with the tasks that were active.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../reserve.h"
#include "kmod_answer.h"
#include "../src.h"

struct kp_priv {
	int fd;
	struct ptop_kmod_since since;
	char *buf;
	size_t cap;
};

static int kmod_proc_read(struct ptop_src *src, struct ptop_sample *out);
static void kmod_proc_close(struct ptop_src *src);

static int kmod_proc_open(struct ptop_src *src)
{
	struct ptop_sample probe;
	struct kp_priv *p;
	char path[4096];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", src->cfg.proc_root,
		 PTOP_TS_PROC_NAME);
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->fd = open(path, O_RDWR | O_CLOEXEC);
	if (p->fd < 0) {
		ret = -errno;
		if (ret == -ENOENT)
			ptop_src_set_err(src, "%s missing (the module is not loaded): modprobe ptop_taskstats",
					 path);
		else if (ret == -EACCES || ret == -EPERM)
			ptop_src_set_err(src, "%s (not in the module's reader group): join group ptop (see ptop_taskstats(4)), or run as root",
					 path);
		else
			ptop_src_set_err(src, "%s (%s)", path, strerror(-ret));
		free(p);
		return ret;
	}
	src->priv = p;
	ptop_kmod_since_init(&p->since, src->cfg.need);
	/* what the module fills shows in its answers: ask once now */
	ptop_sample_init(&probe);
	ret = kmod_proc_read(src, &probe);
	ptop_sample_free(&probe);
	p->since.seq = 0;
	if (ret) {
		kmod_proc_close(src);
		return ret;
	}
	ptop_kmod_note(src, &p->since);
	return 0;
}

static void kmod_proc_close(struct ptop_src *src)
{
	struct kp_priv *p = src->priv;

	if (!p)
		return;
	close(p->fd);
	free(p->buf);
	free(p);
	src->priv = NULL;
}

/* after rmmod an open /proc file answers EIO */
static const char *kp_gone(int err)
{
	return err == EIO ? " (the module was unloaded)" : "";
}

/* One command, the whole answer into p->buf; returns its length or -errno */
static ssize_t kp_ask(struct ptop_src *src, const struct ptop_ts_cmd *cmd)
{
	struct kp_priv *p = src->priv;
	size_t len = 0;
	ssize_t n;

	if (write(p->fd, cmd, sizeof(*cmd)) != (ssize_t)sizeof(*cmd)) {
		n = -errno;
		ptop_src_set_err(src, "/proc/%s: command: %s%s",
				 PTOP_TS_PROC_NAME, strerror(errno), kp_gone(errno));
		return n;
	}
	for (;;) {
		if (ptop_reserve(&p->buf, &p->cap, len + 1, 1, 1 << 20)) {
			ptop_src_set_err(src, "out of memory");
			return -ENOMEM;
		}
		n = read(p->fd, p->buf + len, p->cap - len);
		if (n < 0) {
			n = -errno;
			ptop_src_set_err(src, "/proc/%s: answer: %s%s",
					 PTOP_TS_PROC_NAME, strerror(errno),
					 kp_gone(errno));
			return n;
		}
		if (!n)
			return len;
		len += n;
	}
}

static int kmod_proc_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct kp_priv *p = src->priv;
	struct ptop_ts_cmd cmd;
	uint64_t since = p->since.seq, first_ns = 0;
	int page = 0, ret;
	ssize_t len;

	ptop_kmod_cmd(&p->since, &cmd);
	for (;; page++) {
		len = kp_ask(src, &cmd);
		if (len < 0)
			return len;
		ret = ptop_kmod_parse(&p->since, since, page, p->buf, len, out,
				      src->err, sizeof(src->err));
		if (!ret) {
			const struct ptop_ts_answer *a = (const void *)p->buf;

			/* each page is a pass of its own: the window spans them */
			if (!page)
				first_ns = a->time_ns;
			else if (a->time_ns > first_ns)
				out->window_ns = a->time_ns - first_ns;
			ret = ptop_kmod_next_page(a, page, &cmd, out, src->err,
						  sizeof(src->err));
		}
		if (ret < 0)
			return ret;
		if (!ret) {
			src->caps = ptop_kmod_caps(&p->since);
			return 0;
		}
	}
}

const struct ptop_src_ops ptop_src_kmod_proc_ops = {
	.name = "kmod_proc",
	.desc = "ptop_taskstats module via /proc/taskstats",
	.open = kmod_proc_open,
	.read = kmod_proc_read,
	.close = kmod_proc_close,
};
