// SPDX-License-Identifier: GPL-2.0
/* Is a proc root a child pid namespace's: see pidns.h. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pidns.h"

/* 1, 0, or -1 when <proc_root>/<who>/ns/pid cannot be looked at */
static int child_of(const char *proc_root, const char *who)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s/ns/pid", proc_root, who);
	if (stat(path, &st))
		return -1;
	return (unsigned long long)st.st_ino != PTOP_PROC_PID_INIT_INO;
}

/* how many pids self/status's NSpid has: the levels the proc root sees */
static int nspid_levels(const char *proc_root)
{
	char path[4096], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/self/status", proc_root);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *s = line + 6;

		if (strncmp(line, "NSpid:", 6))
			continue;
		while (*s) {
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s >= '0' && *s <= '9')
				n++;
			while (*s && *s != ' ' && *s != '\t')
				s++;
		}
		break;
	}
	fclose(f);
	return n;
}

int ptop_pidns_child(const char *proc_root)
{
	int ret = child_of(proc_root, "1");

	if (ret >= 0)
		return ret;
	if (child_of(proc_root, "self") <= 0)
		return 0;
	/* we are in a child: is the proc root our namespace's own? */
	return nspid_levels(proc_root) == 1;
}

int ptop_pidns_self_child(const char *proc_root)
{
	return child_of(proc_root, "self") > 0;
}
