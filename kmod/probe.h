/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint probes of the module: looked up by name, attached and
 * detached here only.
 */
#ifndef _PTOP_TS_PROBE_H
#define _PTOP_TS_PROBE_H

struct tracepoint;

struct ptop_ts_probe {
	const char *name;		/* the tracepoint */
	void *fn;			/* its probe */
	struct tracepoint *tp;		/* found at the first attach */
};

#define PTOP_TS_PROBE(tp_name, probe) \
	{ .name = tp_name, .fn = (void *)(probe) }

int ptop_ts_probes_attach(struct ptop_ts_probe *p, unsigned int n);
void ptop_ts_probes_detach(struct ptop_ts_probe *p, unsigned int n);

#endif /* _PTOP_TS_PROBE_H */
