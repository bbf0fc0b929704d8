// SPDX-License-Identifier: GPL-2.0
/* PLACEHOLDER until the taskstats_nl source lands: reports itself unavailable. */
#include <errno.h>
#include "src.h"

static int taskstats_nl_open(struct ptop_src *src)
{
	ptop_src_set_err(src, "not built in this tree yet");
	return -ENOENT;
}

static int taskstats_nl_read(struct ptop_src *src, struct ptop_sample *out)
{
	return -ENOSYS;
}

const struct ptop_src_ops ptop_src_taskstats_nl_ops = {
	.name = "taskstats_nl",
	.desc = "placeholder",
	.open = taskstats_nl_open,
	.read = taskstats_nl_read,
};
