/* SPDX-License-Identifier: GPL-2.0 */
/*
 * htop's per-task keys on the selected task: e its environment, w its
 * command line wrapped, s strace -p, l lsof -p (each a text screen);
 * a its CPU affinity, i its I/O priority (each a menu).
 */
#ifndef UI_CURSES_PROC_H
#define UI_CURSES_PROC_H

#include "curses_menu.h"

void cv_proc_environ(struct cv *cv);
void cv_proc_cmdline(struct cv *cv);
void cv_proc_strace(struct cv *cv);
void cv_proc_lsof(struct cv *cv);
void cv_affinity_open(struct cv *cv);
void cv_ionice_open(struct cv *cv);
extern const struct cv_menu_def cv_affinity_menu, cv_ionice_menu;

#endif /* UI_CURSES_PROC_H */
