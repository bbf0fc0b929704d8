/* SPDX-License-Identifier: GPL-2.0 */
/* Answer memory: charged to the reader's memcg, bounded per uid. */
#ifndef _PTOP_TS_BUDGET_H
#define _PTOP_TS_BUDGET_H

#include <linux/types.h>
#include <linux/uidgid.h>

void ptop_ts_budget_init(void);
void *ptop_ts_answer_alloc(kuid_t uid, size_t size, int *err);
void ptop_ts_answer_free(kuid_t uid, void *buf, size_t size);
void ptop_ts_budget_counts(size_t *nonroot, long *nrefused,
			   unsigned long *user_max_kb,
			   unsigned long *all_max_kb);

#endif /* _PTOP_TS_BUDGET_H */
