/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixture trees for the parsers' unit tests: a file or a directory path
 * under a temporary root (a fake /proc or /sys), each step asserted.
 */
#ifndef PTOP_TEST_FIXTURE_FS_H
#define PTOP_TEST_FIXTURE_FS_H

/* ROOT/REL holds TEXT (created or truncated) */
void fx_put(const char *root, const char *rel, const char *text);
/* ROOT/REL exists as a directory, with its parents (mkdir -p) */
void fx_mkdirs(const char *root, const char *rel);

#endif
