// SPDX-License-Identifier: GPL-2.0
/* The view's substring filter on COMMAND and USER. */
#include <string.h>

#include "filter.h"

bool ui_filter_match(const struct ptop_row *r, const char *needle)
{
	char user[64];

	if (!needle || !needle[0])
		return true;
	if (strcasestr(r->comm, needle))
		return true;
	/* the USER column's own formatting: the name, or the uid number */
	ptop_col_format(&ptop_cols[PTOP_COL_USER], r, NULL, user, sizeof(user));
	return strcasestr(user, needle) != NULL;
}

size_t ui_filter_rows(struct ptop_row *rows, size_t n, const char *needle)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (ui_filter_match(&rows[i], needle))
			rows[k++] = rows[i];
	return k;
}
