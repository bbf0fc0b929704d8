/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the fuzz targets: a scratch directory, file writing. */
#ifndef PTOP_FUZZ_COMMON_H
#define PTOP_FUZZ_COMMON_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A private directory on tmpfs when there is one (files per exec). */
static inline const char *fuzz_scratch_dir(const char *name)
{
	static char dir[256];
	const char *base = access("/dev/shm", W_OK) ? (getenv("TMPDIR") ?
			   getenv("TMPDIR") : "/tmp") : "/dev/shm";

	snprintf(dir, sizeof(dir), "%s/ptop_fuzz_%s_XXXXXX", base, name);
	if (!mkdtemp(dir))
		abort();
	return dir;
}

/* path := data[0..n); n < 0: remove path instead */
static inline void fuzz_put(const char *path, const void *data, long n)
{
	int fd;

	if (n < 0) {
		unlink(path);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		abort();
	if (n && write(fd, data, n) != n)
		abort();
	close(fd);
}

#endif /* PTOP_FUZZ_COMMON_H */
