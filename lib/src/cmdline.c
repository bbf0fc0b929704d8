// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/cmdline, made printable. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "../cmdline.h"

int ptop_cmdline_read(const char *proc_root, uint32_t pid, char *buf, size_t len)
{
	char path[4096];
	ssize_t n;
	int fd;
	size_t i;

	if (len < 2)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%u/cmdline",
		 proc_root ? proc_root : "/proc", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	if (!n)
		return -ENOENT;
	for (i = 0; i < (size_t)n; i++) {
		unsigned char c = buf[i];

		if (!c)
			buf[i] = ' ';
		else if (c < 0x20 || c == 0x7f)
			buf[i] = '?';	/* never an escape to the terminal */
	}
	buf[n] = '\0';
	return 0;
}
