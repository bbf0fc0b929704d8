// SPDX-License-Identifier: GPL-2.0
/* PLACEHOLDER until the kmod_proc source lands: reports itself unavailable. */
#include <errno.h>
#include "src.h"

static int kmod_proc_open(struct ptop_src *src)
{
	ptop_src_set_err(src, "not built in this tree yet");
	return -ENOENT;
}

static int kmod_proc_read(struct ptop_src *src, struct ptop_sample *out)
{
	return -ENOSYS;
}

const struct ptop_src_ops ptop_src_kmod_proc_ops = {
	.name = "kmod_proc",
	.desc = "placeholder",
	.open = kmod_proc_open,
	.read = kmod_proc_read,
};
