// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint lookup and probe attach/detach for every probe of the module
 * (exits.c: fork, exit, free; activity_marks.c and steal.c: sched_switch;
 * events.c: exec). The kernel exports no lookup by name for modules:
 * for_each_kernel_tracepoint() finds them.
 */
#include <linux/printk.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "probe.h"

struct tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void find_tp(struct tracepoint *tp, void *priv)
{
	struct tp_find *f = priv;

	if (!strcmp(tp->name, f->name))
		f->tp = tp;
}

static struct tracepoint *find_tracepoint(const char *name)
{
	struct tp_find f = { .name = name };

	for_each_kernel_tracepoint(find_tp, &f);
	if (!f.tp)
		pr_err("tracepoint %s not found\n", name);
	return f.tp;
}

/*
 * Attach the n probes in order, each tracepoint found first (none
 * attached when one is missing). Process context. 0, or -errno with none
 * of them attached.
 */
int ptop_ts_probes_attach(struct ptop_ts_probe *p, unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		if (!p[i].tp)
			p[i].tp = find_tracepoint(p[i].name);
		if (!p[i].tp)
			return -ENOENT;
	}
	for (i = 0; i < n; i++) {
		ret = tracepoint_probe_register(p[i].tp, p[i].fn, NULL);
		if (ret) {
			pr_err("cannot attach to %s: %d\n", p[i].name, ret);
			goto err_unwind;
		}
	}
	return 0;

err_unwind:
	if (i) {
		while (i--)
			tracepoint_probe_unregister(p[i].tp, p[i].fn, NULL);
		tracepoint_synchronize_unregister();
	}
	return ret;
}

/*
 * Detach the n probes, last first; on return none of them runs any more
 * (probes run with preemption off: tracepoint_synchronize_unregister()).
 */
void ptop_ts_probes_detach(struct ptop_ts_probe *p, unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(p[n].tp, p[n].fn, NULL);
	tracepoint_synchronize_unregister();
}
