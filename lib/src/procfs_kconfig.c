// SPDX-License-Identifier: GPL-2.0
/* What CPU time the kernel keeps apart from tasks, from its config */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "procfs_read.h"

/* Parse "CONFIG_X=y" lines from a (possibly gzipped) config file. */
static int kconfig_file(const char *path, unsigned int *apart)
{
	char line[256];
	gzFile f;

	f = gzopen(path, "rb");	/* also reads plain text */
	if (!f)
		return -ENOENT;
	*apart = 0;
	while (gzgets(f, line, sizeof(line))) {
		if (!strcmp(line, "CONFIG_PARAVIRT_TIME_ACCOUNTING=y\n"))
			*apart |= PTOP_SYS_STEAL_APART;
		else if (!strcmp(line, "CONFIG_IRQ_TIME_ACCOUNTING=y\n"))
			*apart |= PTOP_SYS_IRQ_APART;
	}
	gzclose(f);
	return 0;
}

static pthread_mutex_t kconfig_lock = PTHREAD_MUTEX_INITIALIZER;
static char kconfig_root[256];
static unsigned int kconfig_apart;
static int kconfig_ret, kconfig_valid;

int ptop_pfs_kconfig(const char *proc_root, unsigned int *sys_apart)
{
	char path[512];
	struct utsname u;
	int ret = -ENOENT;

	pthread_mutex_lock(&kconfig_lock);
	if (kconfig_valid && !strcmp(kconfig_root, proc_root)) {
		*sys_apart = kconfig_apart;
		ret = kconfig_ret;
		goto out;
	}
	if (!strcmp(proc_root, "/proc") && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		ret = kconfig_file(path, sys_apart);
	}
	if (ret) {
		snprintf(path, sizeof(path), "%s/config.gz", proc_root);
		ret = kconfig_file(path, sys_apart);
	}
	if (ret)
		*sys_apart = PTOP_SYS_STEAL_APART;
	snprintf(kconfig_root, sizeof(kconfig_root), "%s", proc_root);
	kconfig_apart = *sys_apart;
	kconfig_ret = ret;
	kconfig_valid = 1;
out:
	pthread_mutex_unlock(&kconfig_lock);
	return ret;
}
