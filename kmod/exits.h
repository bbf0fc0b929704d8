/* SPDX-License-Identifier: GPL-2.0 */
/* The fork, exit and free probes: EXIT records, c* and x* bookkeeping. */
#ifndef _PTOP_TS_EXITS_H
#define _PTOP_TS_EXITS_H


int ptop_ts_exits_attach(void);
void ptop_ts_exits_detach(void);

#endif /* _PTOP_TS_EXITS_H */
