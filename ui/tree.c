// SPDX-License-Identifier: GPL-2.0
/*
 * Tree order: depth first from the roots, siblings in sort order. An
 * explicit stack instead of recursion, and a visited mark, so a deep
 * chain cannot overflow and a ppid cycle cannot loop.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"

struct pid_idx {
	uint32_t pid;
	size_t idx;
};

static int pid_idx_cmp(const void *a, const void *b)
{
	const struct pid_idx *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	/* a duplicate pid (a process and its leader thread): the process */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static long find_pid(const struct pid_idx *map, size_t n, uint32_t pid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (map[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && map[lo].pid == pid ? (long)map[lo].idx : -1;
}

/* The parent's pid: a thread hangs under its process, a process its ppid. */
static uint32_t parent_pid(const struct ptop_row *r)
{
	if (r->is_thread && r->pid != r->tgid)
		return r->tgid;
	return r->ppid;
}

int ui_tree_order(struct ptop_row *rows, size_t n, int sort_id, bool asc)
{
	struct pid_idx *map = NULL;
	long *parent = NULL, *first = NULL, *last = NULL, *next = NULL;
	size_t *stack = NULL, *order = NULL, sp = 0, k = 0, i, r;
	int *depth = NULL, pass;
	bool *seen = NULL;
	struct ptop_row *out = NULL;
	int ret = -ENOMEM;

	ptop_col_sort(rows, n, sort_id, asc);
	for (i = 0; i < n; i++)
		rows[i].depth = 0;
	if (n < 2)
		return 0;
	map = calloc(n, sizeof(*map));
	parent = calloc(n, sizeof(*parent));
	first = calloc(n, sizeof(*first));
	last = calloc(n, sizeof(*last));
	next = calloc(n, sizeof(*next));
	stack = calloc(n, sizeof(*stack));
	order = calloc(n, sizeof(*order));
	depth = calloc(n, sizeof(*depth));
	seen = calloc(n, sizeof(*seen));
	out = calloc(n, sizeof(*out));
	if (!map || !parent || !first || !last || !next || !stack || !order ||
	    !depth || !seen || !out)
		goto out;

	for (i = 0; i < n; i++) {
		map[i].pid = rows[i].pid;
		map[i].idx = i;
		first[i] = last[i] = next[i] = -1;
	}
	qsort(map, n, sizeof(*map), pid_idx_cmp);
	/* children lists in sort order: append in the (sorted) row order */
	for (i = 0; i < n; i++) {
		uint32_t pp = parent_pid(&rows[i]);
		long p = pp && pp != rows[i].pid ? find_pid(map, n, pp) : -1;

		if (p == (long)i)
			p = -1;
		parent[i] = p;
		if (p < 0)
			continue;
		if (last[p] < 0)
			first[p] = i;
		else
			next[last[p]] = i;
		last[p] = i;
	}

	/*
	 * Two passes over the rows in sort order: first the true roots,
	 * then whatever is still unseen (only rows in a ppid cycle).
	 */
	for (pass = 0; pass < 2; pass++) {
		for (r = 0; r < n; r++) {
			if (seen[r] || (pass == 0 && parent[r] >= 0))
				continue;
			seen[r] = true;
			depth[r] = 0;
			stack[sp++] = r;
			while (sp) {
				size_t cur = stack[--sp];
				long c;
				size_t nkids = 0, j;

				order[k++] = cur;
				/* push children reversed so the first pops first */
				for (c = first[cur]; c >= 0; c = next[c])
					if (!seen[c])
						nkids++;
				j = sp + nkids;
				for (c = first[cur]; c >= 0; c = next[c]) {
					if (seen[c])
						continue;
					seen[c] = true;
					depth[c] = depth[cur] + 1;
					stack[--j] = c;
				}
				sp += nkids;
			}
		}
	}

	for (i = 0; i < k; i++) {
		out[i] = rows[order[i]];
		out[i].depth = depth[order[i]];
	}
	memcpy(rows, out, k * sizeof(*rows));
	ret = 0;
out:
	free(map);
	free(parent);
	free(first);
	free(last);
	free(next);
	free(stack);
	free(order);
	free(depth);
	free(seen);
	free(out);
	return ret;
}
