// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the /proc parsers (lib/src/procfs_read.c) and the procfs
 * source that uses them (lib/src/src_procfs.c), on a fixture proc root.
 *
 * Input: up to 7 parts separated by NUL bytes, the files of a one-task
 * proc tree: stat, cpu0's cpuidle state0 time, 1/stat, 1/status, 1/task/1/stat,
 * 1/task/1/status, 1/task/1/schedstat (also self/schedstat). A part that
 * is absent leaves its file out. Each part is also given to its parser
 * directly.
 */
#include <stdint.h>

#include "lib/src/procfs_read.h"
#include "lib/src.h"
#include "fuzz_common.h"

#define NPARTS 7

static const char *const names[NPARTS] = {
	"stat", "sys/devices/system/cpu/cpu0/cpuidle/state0/time", "1/stat", "1/status", "1/task/1/stat",
	"1/task/1/status", "1/task/1/schedstat",
};
static char root[256];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char p[512];
	size_t i;

	snprintf(root, sizeof(root), "%s", fuzz_scratch_dir("procfs"));
	snprintf(p, sizeof(p), "%s/1", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/1/task", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/1/task/1", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/self", root);
	mkdir(p, 0755);
	{
		static const char *const d[] = {
			"sys", "sys/devices", "sys/devices/system",
			"sys/devices/system/cpu", "sys/devices/system/cpu/cpu0",
			"sys/devices/system/cpu/cpu0/cpuidle",
			"sys/devices/system/cpu/cpu0/cpuidle/state0",
		};

		for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
			snprintf(p, sizeof(p), "%s/%s", root, d[i]);
			mkdir(p, 0755);
		}
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ptop_src_cfg cfg = {
		.proc_root = root,
		.need = PTOP_DATA_RDELAY,
	};
	char *part[NPARTS] = { 0 }, path[512], err[256];
	struct ptop_pfs_status status;
	struct ptop_pfs_stat st;
	struct ptop_sample out;
	struct ptop_src *src;
	uint64_t run, delay;
	size_t i, off = 0;

	for (i = 0; i < NPARTS && off <= size; i++) {
		const uint8_t *e = memchr(data + off, 0, size - off);
		size_t n = e ? (size_t)(e - (data + off)) : size - off;

		part[i] = malloc(n + 1);	/* exactly: ASan sees overreads */
		if (!part[i])
			abort();
		memcpy(part[i], data + off, n);
		part[i][n] = '\0';
		off += n + 1;
	}
	for (i = 0; i < NPARTS; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		fuzz_put(path, part[i], part[i] ? (long)strlen(part[i]) : -1);
	}
	snprintf(path, sizeof(path), "%s/self/schedstat", root);
	fuzz_put(path, part[6], part[6] ? (long)strlen(part[6]) : -1);

	/* the parsers on their own */
	if (part[2])
		ptop_pfs_parse_stat(part[2], &st);
	if (part[3])
		ptop_pfs_parse_status(part[3], &status);
	if (part[6])
		ptop_pfs_parse_schedstat(part[6], &run, &delay);

	/* the source: /proc/stat + cpuidle + the task, twice (deltas) */
	if (!ptop_src_open(&src, "procfs", &cfg, err, sizeof(err))) {
		ptop_sample_init(&out);
		ptop_src_read(src, &out);
		ptop_sample_reset(&out);
		ptop_src_read(src, &out);
		ptop_sample_free(&out);
		ptop_src_close(src);
	}
	for (i = 0; i < NPARTS; i++)
		free(part[i]);
	return 0;
}
