/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PTOP_RESERVE_H
#define PTOP_RESERVE_H

#include <stddef.h>

/*
 * Room for n elements of size bytes in the array *vp (any pointer type,
 * passed as the address of the pointer), whose capacity is *cap: grown
 * by doubling from first (or from *cap), so appending one at a time
 * costs amortised O(1); the array is kept as it is on failure.
 * Returns 0 or -ENOMEM.
 */
int ptop_reserve(void *vp, size_t *cap, size_t n, size_t size, size_t first);

#endif
