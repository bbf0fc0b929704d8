/* SPDX-License-Identifier: GPL-2.0 */
/* The full command line of a task, for the view's COMMAND (the p key). */
#ifndef PTOP_CMDLINE_H
#define PTOP_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * proc_root/pid/cmdline with the NULs as spaces and control bytes as
 * '?'. 0, or -errno (gone, a kernel thread's empty line: -ENOENT).
 */
int ptop_cmdline_read(const char *proc_root, uint32_t pid, char *buf, size_t len);

#endif /* PTOP_CMDLINE_H */
