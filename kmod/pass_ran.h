/* SPDX-License-Identifier: GPL-2.0 */
/* The tasks that ran after their CPU's pass instant (pass_ran.c). */
#ifndef _PTOP_TS_PASS_RAN_H
#define _PTOP_TS_PASS_RAN_H

#include <linux/types.h>

struct task_struct;

enum ptop_ts_ran {
	PTOP_TS_RAN_NOT,	/* did not run since the instant */
	PTOP_TS_RAN_AT,		/* ran since: its runtime then is known */
	PTOP_TS_RAN_UNKNOWN,	/* the table was full: not known */
};

void ptop_ts_ran_begin(u64 gen);
void ptop_ts_ran_end(void);
bool ptop_ts_ran_noting(u64 gen);
void ptop_ts_ran_note(const struct task_struct *t, u64 gen, u64 rt,
		      int pending_cpu);
void ptop_ts_ran_switch(struct task_struct *prev, struct task_struct *next,
			u64 cpu_gen);
enum ptop_ts_ran ptop_ts_ran_lookup(const struct task_struct *t, u64 gen,
				    u64 *rt);
long ptop_ts_ran_full_passes(void);

#endif /* _PTOP_TS_PASS_RAN_H */
