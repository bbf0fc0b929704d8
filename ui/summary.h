/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The summary block of the text batch output, as top -b's first lines:
 * uptime and load, tasks by state, memory and swap (top's own line
 * formats, MiB), each at most 100 characters on a normal machine.
 */
#ifndef UI_SUMMARY_H
#define UI_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/interval.h"
#include "lib/sysinfo.h"

/* the interval's rows (tasks, or threads with --threads) by state */
struct ui_task_states {
	unsigned long total, running, sleeping, stopped, zombie;
};

/*
 * R running; S, D, I sleeping; T, t stopped; Z zombie (as top counts
 * them); a row in another state is only in total.
 */
void ui_task_states(const struct ptop_interval *iv, struct ui_task_states *t);

/* Line i of the summary into buf; false past the last one. */
bool ui_summary_line(const struct ptop_interval *iv,
		     const struct ptop_sysinfo *s, int i, char *buf,
		     size_t len);

#endif /* UI_SUMMARY_H */
