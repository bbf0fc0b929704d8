/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A screen of text lines with a title, scrolled, Esc back (htop's
 * environment, command line, strace and lsof screens). The lines are
 * given, or they come from a command run with its output on a pipe,
 * read as it comes (strace -p goes on until the screen closes; closing
 * it ends the command).
 */
#ifndef UI_CURSES_TEXT_H
#define UI_CURSES_TEXT_H

#include <stdbool.h>
#include "curses_screen.h"

struct cv_text;

extern const struct cv_screen_ops cv_text_ops;
/* Open an empty text screen; NULL (with a message) when it cannot be. */
struct cv_text *cv_text_open(struct cv *cv, const char *title, bool wrap);
/* Add a line (copied; bytes that are not printable shown as '?'). */
void cv_text_add(struct cv_text *t, const char *line);
/*
 * Open a text screen showing what argv (argv[0] looked up in PATH)
 * writes to stdout and stderr. 0, or -1 with the reason in cv->msg
 * (not installed: what the key runs and that it is missing).
 */
int cv_text_run(struct cv *cv, const char *title, char *const argv[]);
/* Is prog an executable in PATH? */
bool cv_in_path(const char *prog);
/* The text screen on top; its line i (NULL past the end), how many. */
struct cv_text *cv_text_top(const struct cv *cv);
const char *cv_text_line(const struct cv_text *t, size_t i);
size_t cv_text_count(const struct cv_text *t);

#endif /* UI_CURSES_TEXT_H */
