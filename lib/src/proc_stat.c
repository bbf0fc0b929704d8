// SPDX-License-Identifier: GPL-2.0
/* /proc/stat's cpu lines (proc_stat.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "proc_stat.h"

/* An unsigned decimal after spaces ("-N" reads as 0); *s moves past it. */
static int next_num(const char **s, uint64_t *v)
{
	const char *c = *s;
	char *end;
	int neg = 0;

	while (*c == ' ')
		c++;
	if (*c == '-') {
		neg = 1;
		c++;
	}
	if (*c < '0' || *c > '9')
		return -1;
	*v = strtoull(c, &end, 10);	/* saturates */
	if (neg)
		*v = 0;
	*s = end;
	return 0;
}

int ptop_stat_cpu_line(const char *line, struct ptop_stat_cpu *c)
{
	const char *s = line + 3;
	uint64_t id;

	if (strncmp(line, "cpu", 3))
		return 0;
	memset(c, 0, sizeof(*c));
	if (*s >= '0' && *s <= '9') {
		next_num(&s, &id);
		c->cpu = id > INT_MAX ? INT_MAX : (int)id;
	} else if (*s == ' ') {
		c->cpu = -1;
	} else {
		return 0;
	}
	while (c->n < PTOP_STAT__NVAL && !next_num(&s, &c->v[c->n]))
		c->n++;
	return 1;
}

const char *ptop_stat_next_line(const char *line)
{
	const char *nl = strchr(line, '\n');

	return nl && nl[1] ? nl + 1 : NULL;
}
