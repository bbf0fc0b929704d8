// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the stock taskstats netlink parser (lib/src/tsnl.c) on
 * what one recv() could return: the exit multicast (every record then
 * goes into the taskstats source's accounting, lib/src/tsacct.c, as the
 * source does) and a query reply.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/src/tsacct.h"
#include "lib/tsnl.h"

/* as the taskstats source applies an exit record (taskstats_nl_apply_exit) */
static int on_exit_rec(void *arg, const struct ptop_tsnl_stats *pid,
		       const struct ptop_tsnl_stats *tgid)
{
	struct ptop_tsacct *a = arg;
	uint64_t el = pid->etime_us * 1000, exit_ns = a->now_ns;
	struct ptop_tsacct_counters c = {
		.runtime_ns = pid->run_virtual_ns,
		.raw_user = pid->utime_us,
		.raw_sys = pid->stime_us,
		.counts = {
			.rdelay_ns = pid->cpu_delay_ns,
			.nvcsw = pid->nvcsw,
			.nivcsw = pid->nivcsw,
			.minflt = pid->minflt,
			.majflt = pid->majflt,
		},
		.hiwater_kb = pid->hiwater_rss_kb,
		.uid = pid->uid,
		.ppid = pid->ppid,
		.exit_code = pid->exitcode,
	};
	int ret;

	memcpy(c.comm, pid->comm, sizeof(c.comm) - 1);
	/* a fork event first when the record says its parent (AFORK) */
	if (pid->flag & 1)
		ptop_tsacct_fork(a, pid->pid, pid->tgid, pid->ppid,
				 exit_ns > el ? exit_ns - el : 0);
	ret = ptop_tsacct_exit(a, pid->pid, pid->tgid, pid->ppid,
			       exit_ns > el ? exit_ns - el : 0, &c, exit_ns);
	/* the path of an exit whose record was lost, on the group's tgid */
	if (!ret && tgid)
		ret = ptop_tsacct_lost(a, tgid->tgid, exit_ns);
	return ret == -ENOMEM ? -ENOMEM : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ptop_tsacct acct;	/* 64 KiB of hash heads */
	struct ptop_tsnl_stats st;
	struct ptop_sample out;
	uint8_t *buf;
	uint32_t seq;

	/* a recv() buffer of exactly this size: ASan sees a read past it */
	buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ptop_sample_init(&out);
	ptop_tsacct_init(&acct, 4000000);
	acct.out = &out;
	acct.gen = 1;
	acct.now_ns = 1000000000000000ULL;
	ptop_tsnl_parse_exits(buf, size, on_exit_rec, &acct);
	ptop_tsacct_sweep(&acct);
	ptop_tsacct_emit(&acct);
	ptop_tsacct_free(&acct);
	ptop_sample_free(&out);

	seq = size >= 12 ? (uint32_t)buf[8] | buf[9] << 8 | buf[10] << 16 |
			   (uint32_t)buf[11] << 24 : 0;
	ptop_tsnl_parse_reply(buf, size, seq, &st);
	free(buf);
	return 0;
}
