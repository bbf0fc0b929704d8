// SPDX-License-Identifier: GPL-2.0
/* One growth rule for every dynamic array of lib/ and ui/. */
#include "reserve.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ptop_reserve(void *vp, size_t *cap, size_t n, size_t size, size_t first)
{
	void *v, *nv;
	size_t ncap;

	if (n <= *cap)
		return 0;
	ncap = *cap ? *cap : (first ? first : 1);
	while (ncap < n) {
		if (ncap > ((size_t)-1 / 2) / size)
			return -ENOMEM;
		ncap *= 2;
	}
	/* vp may point at any object pointer type: copy, never cast */
	memcpy(&v, vp, sizeof(v));
	nv = realloc(v, ncap * size);
	if (!nv)
		return -ENOMEM;
	memcpy(vp, &nv, sizeof(nv));
	*cap = ncap;
	return 0;
}
