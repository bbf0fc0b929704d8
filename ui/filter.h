/* SPDX-License-Identifier: GPL-2.0 */
/* The view's substring filter on COMMAND and USER: pure functions. */
#ifndef UI_FILTER_H
#define UI_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/col.h"

/*
 * Keep only the rows whose COMMAND or USER contains needle (case
 * insensitive), in order; returns how many are kept. An empty or NULL
 * needle keeps every row.
 */
size_t ui_filter_rows(struct ptop_row *rows, size_t n, const char *needle);
bool ui_filter_match(const struct ptop_row *r, const char *needle);

#endif /* UI_FILTER_H */
