// SPDX-License-Identifier: GPL-2.0
/* PLACEHOLDER until the procfs source lands: reports itself unavailable. */
#include <errno.h>
#include "src.h"

static int procfs_open(struct ptop_src *src)
{
	ptop_src_set_err(src, "not built in this tree yet");
	return -ENOENT;
}

static int procfs_read(struct ptop_src *src, struct ptop_sample *out)
{
	return -ENOSYS;
}

const struct ptop_src_ops ptop_src_procfs_ops = {
	.name = "procfs",
	.desc = "placeholder",
	.open = procfs_open,
	.read = procfs_read,
};
