// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the ptoprc parser (config/cfg.c, and the column list
 * parser of lib/col.c behind it). The input is a ptoprc file. A file
 * that loads must save, and what was saved must load again and save the
 * same bytes (a save that loses or changes a setting aborts).
 */
#include <stdint.h>

#include "config/cfg.h"
#include "fuzz_common.h"

static char in_path[300], out1[300], out2[300];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *d = fuzz_scratch_dir("config");

	snprintf(in_path, sizeof(in_path), "%s/in", d);
	snprintf(out1, sizeof(out1), "%s/out1", d);
	snprintf(out2, sizeof(out2), "%s/out2", d);
	return 0;
}

/* the whole file, NUL terminated; NULL when unreadable */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "re");
	char *b = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	*n = 0;
	for (;;) {
		char *nb = realloc(b, cap + 4096);

		if (!nb)
			abort();
		b = nb;
		cap += 4096;
		*n += fread(b + *n, 1, cap - *n - 1, f);
		if (*n < cap - 1)
			break;
	}
	b[*n] = '\0';
	fclose(f);
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg c, d, before;
	char err[512];
	char *s1, *s2;
	size_t n1, n2;

	fuzz_put(in_path, data, size);
	cfg_defaults(&c);
	before = c;
	if (cfg_load(in_path, &c, err, sizeof(err))) {
		/* all or nothing: a refused file changes nothing */
		if (memcmp(&c, &before, sizeof(c)))
			abort();
		return 0;
	}
	if (cfg_save(out1, &c, err, sizeof(err)))
		abort();
	cfg_defaults(&d);
	if (cfg_load(out1, &d, err, sizeof(err)))
		abort();	/* ptop wrote a file it refuses */
	if (cfg_save(out2, &d, err, sizeof(err)))
		abort();
	s1 = slurp(out1, &n1);
	s2 = slurp(out2, &n2);
	if (!s1 || !s2 || n1 != n2 || memcmp(s1, s2, n1))
		abort();	/* the round trip changed a setting */
	free(s1);
	free(s2);
	return 0;
}
