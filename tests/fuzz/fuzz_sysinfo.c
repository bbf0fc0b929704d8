// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the meters' reader (lib/sysinfo.h) and the /proc/stat
 * cpu-line parser it shares with the stock sources (lib/src/proc_stat.h).
 *
 * Input: up to 4 parts separated by NUL bytes: stat, meminfo, loadavg,
 * uptime. Each part goes to its parser, stat twice (a period), and the
 * parts are also written to a fixture proc root that the reader reads.
 */
#include <stdint.h>

#include "lib/src/proc_stat.h"
#include "lib/sysinfo.h"
#include "fuzz_common.h"

#define NPARTS 4

static const char *const names[NPARTS] = {
	"stat", "meminfo", "loadavg", "uptime",
};
static char root[256];
static struct ptop_sysinfo s;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	snprintf(root, sizeof(root), "%s", fuzz_scratch_dir("sysinfo"));
	return 0;
}

static void parse(int i, const char *text)
{
	struct ptop_stat_cpu c;
	const char *l;

	switch (i) {
	case 0:
		for (l = text; l && *l; l = ptop_stat_next_line(l))
			if (ptop_stat_cpu_line(l, &c) && c.n > PTOP_STAT__NVAL)
				abort();
		ptop_sysinfo_parse_stat(&s, text);
		ptop_sysinfo_parse_stat(&s, text);
		if (s.ncpu > PTOP_SYS_MAX_CPUS)
			abort();
		break;
	case 1:
		ptop_sysinfo_parse_meminfo(&s, text);
		break;
	case 2:
		ptop_sysinfo_parse_loadavg(&s, text);
		break;
	default:
		ptop_sysinfo_parse_uptime(&s, text);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char path[512];
	uint64_t parts[4], whole;
	int i;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < NPARTS; i++) {
		const uint8_t *nul = p < end ? memchr(p, 0, end - p) : NULL;
		size_t n = p < end ? (nul ? (size_t)(nul - p) : (size_t)(end - p)) : 0;
		char *text = malloc(n + 1);

		if (!text)
			abort();
		memcpy(text, p, n);
		text[n] = '\0';
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		fuzz_put(path, text, p < end ? (long)n : -1);
		parse(i, text);
		free(text);
		p += n + 1;
	}
	ptop_sysinfo_cpu_parts(&s, 0, PTOP_SYS_MAX_CPUS, parts, &whole);
	ptop_sysinfo_read(&s, root);
	ptop_sysinfo_read(&s, root);
	ptop_sysinfo_cpu_parts(&s, 0, PTOP_SYS_MAX_CPUS, parts, &whole);
	return 0;
}
