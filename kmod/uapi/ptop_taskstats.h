/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ptop_taskstats: the one definition of the protocol between the
 * ptop_taskstats kernel module and user space (lib/ of ptop).
 *
 * Both transports carry the same structs:
 *  - /proc/taskstats: write() one struct ptop_ts_cmd, then read() returns
 *    struct ptop_ts_answer, ncpu * struct ptop_ts_cpu, then count records,
 *    all taken in ONE pass over the task list.
 *  - genetlink family PTOP_TS_FAMILY_NAME: PTOP_TS_CMD_PIDS as a dump; the
 *    command fields travel as attributes, each reply message carries one
 *    PTOP_TS_A_ANSWER, then PTOP_TS_A_CPUS (the first messages: the
 *    attributes of all of them concatenated hold the ncpu entries, which
 *    may take several messages) and PTOP_TS_A_RECORD attributes.
 *
 * Records are fixed size, naturally aligned, carry their own version and
 * size, and only ever grow at the end: a reader uses rec_size from the
 * answer to step over records, and ignores bytes it does not know.
 *
 * User space also uses struct ptop_ts_record as its one sample type: the
 * stock-kernel sources (procfs, taskstats netlink) fill the same struct.
 */
#ifndef _UAPI_PTOP_TASKSTATS_H
#define _UAPI_PTOP_TASKSTATS_H

#include <linux/types.h>

#define PTOP_TS_FAMILY_NAME	"ptop_taskstats"
#define PTOP_TS_FAMILY_VERSION	1
#define PTOP_TS_PROC_NAME	"taskstats"	/* /proc/taskstats */
#define PTOP_TS_EVENTS_GROUP	"events"	/* genl multicast group */
#define PTOP_TS_COMM_LEN	16
#define PTOP_TS_RECORD_VERSION	1
#define PTOP_TS_ANSWER_VERSION	1

enum ptop_ts_cmd_id {
	PTOP_TS_CMD_UNSPEC,
	PTOP_TS_CMD_PIDS,	/* task records, "active since seq N" */
	PTOP_TS_CMD_EVENT,	/* multicast: one process event */
	PTOP_TS_CMD_LISTEN,	/* A_FLAGS 1: this socket listens to events */
	__PTOP_TS_CMD_MAX,
};
#define PTOP_TS_CMD_MAX (__PTOP_TS_CMD_MAX - 1)

/* struct ptop_ts_cmd.flags */
#define PTOP_TS_CMDF_THREADS	(1U << 0) /* thread records (+ group records) */
#define PTOP_TS_CMDF_STEAL	(1U << 1) /* reader wants per-task steal */
/*
 * Tests (module parameter crosscheck=1, else EOPNOTSUPP): an incremental
 * answer also holds every live task as a full walk of the same pass sees
 * it, flagged PTOP_TS_RECF_CROSSCHECK (read before the incremental walk).
 */
#define PTOP_TS_CMDF_CROSSCHECK	(1U << 2)
#define PTOP_TS_CMDF_ALL	(PTOP_TS_CMDF_THREADS | PTOP_TS_CMDF_STEAL | \
				 PTOP_TS_CMDF_CROSSCHECK)

/* The command written to /proc/taskstats (exactly this size). */
struct ptop_ts_cmd {
	__u32 cmd;		/* enum ptop_ts_cmd_id: PTOP_TS_CMD_PIDS */
	__u32 flags;		/* PTOP_TS_CMDF_* */
	__u64 since_seq;	/* 0: every task; N: active since answer N */
	__u32 start_pid;	/* first pid to report (paging); 0 = all */
	__u32 max_count;	/* records at most; 0 = module's limit */
};

/*
 * next_pid of a MORE answer that is short, not paged (PID_MAX_LIMIT): the
 * walk was whole but records were left out for want of room, and no page
 * holds them.
 */
#define PTOP_TS_NEXT_PID_SHORT	4194304U

/* struct ptop_ts_answer.flags */
/*
 * MORE: the answer stopped at max_count (0: the module's limit, its
 * max_records parameter); start_pid next_pid asks for the rest. The
 * module grows an answer that its tasks outgrow during the pass (forks),
 * so a reader who set no max_count gets one whole answer, MORE only at
 * max_records or with ROOM: stopped short of max_count because the
 * answer could not grow (the reader's answer budget, user_answer_kb and
 * all_answer_kb, or memory); the rest is on the next page as well.
 */
#define PTOP_TS_ANSF_MORE	(1U << 0) /* stopped at max_count: next_pid */
#define PTOP_TS_ANSF_RESYNC	(1U << 1) /* cannot answer since_seq: full */
#define PTOP_TS_ANSF_STEAL	(1U << 2) /* per-task steal is measured */
#define PTOP_TS_ANSF_NO_STEAL_CLOCK (1U << 3) /* the kernel has none */
#define PTOP_TS_ANSF_CHILDREN	(1U << 4) /* c* fields are filled */
#define PTOP_TS_ANSF_STEAL_APART (1U << 5) /* PARAVIRT_TIME_ACCOUNTING */
#define PTOP_TS_ANSF_IRQ_APART	(1U << 6) /* IRQ_TIME_ACCOUNTING */
/*
 * This kernel's sched_process_exit fires before exit_mm() (7.x; seen at
 * run time: an exiting user task still had its mm): an EXIT record's
 * runtimes end before the task's memory teardown, whose time reaches the
 * accounting parent's c* when the task is freed, not the record.
 */
#define PTOP_TS_ANSF_EXIT_BEFORE_MM (1U << 7)
/*
 * Without IRQ_TIME_ACCOUNTING: each CPU's irq_ns is the time its idle
 * task ran outside the kernel's idle count (interrupts on the idle CPU,
 * the idle loop around the idle state), which no record has and idle_ns
 * does not; softirq_ns is 0. Apart from the rows, as IRQ_APART's irq.
 */
#define PTOP_TS_ANSF_IDLE_IRQ	(1U << 8)
#define PTOP_TS_ANSF_ROOM	(1U << 9) /* MORE short of max_count: no room */

struct ptop_ts_answer {
	__u16 version;		/* PTOP_TS_ANSWER_VERSION */
	__u16 size;		/* sizeof(struct ptop_ts_answer) */
	__u32 flags;		/* PTOP_TS_ANSF_* */
	__u64 seq_now;		/* pass this as since_seq next time */
	__u64 time_ns;		/* CLOCK_MONOTONIC of the pass */
	__u64 boottime_ns;	/* CLOCK_BOOTTIME of the pass */
	__u32 count;		/* records that follow */
	__u32 ncpu;		/* struct ptop_ts_cpu entries that follow */
	__u32 rec_size;		/* sizeof(struct ptop_ts_record) */
	__u32 next_pid;		/* with ANSF_MORE: start_pid to continue */
};

/* Per possible CPU, cumulative ns, from the kernel's own counters. */
struct ptop_ts_cpu {
	__u64 idle_ns;
	__u64 iowait_ns;
	__u64 steal_ns;
	__u64 irq_ns;
	__u64 softirq_ns;
	__u32 online;
	__u32 pad;
};

/* struct ptop_ts_record.kind */
enum ptop_ts_kind {
	PTOP_TS_KIND_THREAD = 1,	/* one thread: own counters */
	PTOP_TS_KIND_GROUP = 2,		/* thread group: x*, c*, identity */
};

/* struct ptop_ts_record.flags */
#define PTOP_TS_RECF_EXIT	(1U << 0) /* final counters of a dead task */
#define PTOP_TS_RECF_HAS_X	(1U << 1) /* x* fields are measured */
#define PTOP_TS_RECF_HAS_C	(1U << 2) /* c* fields are measured */
#define PTOP_TS_RECF_HAS_STEAL	(1U << 3) /* steal fields are measured */
#define PTOP_TS_RECF_HAS_RDELAY	(1U << 4) /* rdelay_ns is measured */
#define PTOP_TS_RECF_C_PARTIAL	(1U << 5) /* c* only has waited children */
#define PTOP_TS_RECF_EXEC	(1U << 6) /* a non-leader exec happened */
#define PTOP_TS_RECF_CROSSCHECK	(1U << 7) /* from CMDF_CROSSCHECK's full walk */

/*
 * One task. THREAD records fill the "own" block for that thread; GROUP
 * records fill identity, x* (dead threads) and c* (dead descendants folded
 * into this group). Times are ns; utime + stime = the precise runtime.
 * A task is identified by (pid, start_ns): pid reuse is a new task.
 */
struct ptop_ts_record {
	__u16 version;		/* PTOP_TS_RECORD_VERSION */
	__u16 size;		/* sizeof(struct ptop_ts_record) */
	__u16 kind;		/* enum ptop_ts_kind */
	__u16 flags;		/* PTOP_TS_RECF_* */
	__u32 pid;		/* thread id (GROUP: = tgid) */
	__u32 tgid;
	__u32 ppid;		/* real parent's tgid */
	__u32 acct_ptgid;	/* accounting parent's tgid (c* goes there) */
	__u32 uid;		/* real uid, in the reader's user ns */
	__u32 nthreads;		/* GROUP: live threads */
	__u32 folded_into;	/* EXIT GROUP: tgid that received T + C */
	__u32 exit_code;	/* EXIT: as wait(2) reports it */
	char state;		/* R S D T t Z X I ... */
	char pad[7];
	char comm[PTOP_TS_COMM_LEN];
	__u64 start_ns;		/* CLOCK_BOOTTIME at fork */
	__u64 folded_start_ns;	/* start_ns of folded_into */
	__u64 exit_ns;		/* EXIT: CLOCK_BOOTTIME at exit */
	/* own: THREAD this thread; GROUP the sum of its live threads */
	__u64 utime_ns;
	__u64 stime_ns;
	__u64 steal_ns;
	__u64 rdelay_ns;	/* run-queue wait */
	/* x*: dead threads of the group (GROUP only) */
	__u64 xutime_ns;
	__u64 xstime_ns;
	__u64 xsteal_ns;
	/* c*: dead descendants folded into the group (GROUP only) */
	__u64 cutime_ns;
	__u64 cstime_ns;
	__u64 csteal_ns;
	__u64 nvcsw;
	__u64 nivcsw;
	__u64 minflt;
	__u64 majflt;
	__u64 rss_kb;		/* GROUP: resident set size */
	__u64 hiwater_rss_kb;	/* GROUP: peak resident set size */
	/*
	 * RECF_EXEC (the group leader's THREAD record, and the GROUP record):
	 * a non-leader thread exec'ed and took over the leader's pid and
	 * start_ns; this is the identity it had before, so that its counters
	 * continue from that thread's, not from the old leader's.
	 */
	__u32 exec_old_pid;
	__u32 pad2;
	__u64 exec_old_start_ns;
};

/* genetlink attributes of PTOP_TS_CMD_PIDS and PTOP_TS_CMD_EVENT */
enum ptop_ts_attr {
	PTOP_TS_A_UNSPEC,
	PTOP_TS_A_FLAGS,	/* u32, request: PTOP_TS_CMDF_* */
	PTOP_TS_A_SINCE_SEQ,	/* u64, request */
	PTOP_TS_A_START_PID,	/* u32, request */
	PTOP_TS_A_MAX_COUNT,	/* u32, request */
	PTOP_TS_A_ANSWER,	/* binary struct ptop_ts_answer, reply */
	PTOP_TS_A_CPUS,		/* binary n * struct ptop_ts_cpu, reply */
	PTOP_TS_A_RECORD,	/* binary struct ptop_ts_record, reply */
	PTOP_TS_A_EVENT,	/* binary struct ptop_ts_event, event */
	PTOP_TS_A_PAD,
	__PTOP_TS_A_MAX,
};
#define PTOP_TS_A_MAX (__PTOP_TS_A_MAX - 1)

/* Process events, to each socket that sent PTOP_TS_CMD_LISTEN 1 */
enum ptop_ts_event_type {
	PTOP_TS_EV_FORK = 1,
	PTOP_TS_EV_EXEC = 2,
	PTOP_TS_EV_EXIT = 3,
	PTOP_TS_EV_REPARENT = 4,
};

struct ptop_ts_event {
	__u32 type;		/* enum ptop_ts_event_type */
	__u32 pid;
	__u32 tgid;
	__u32 other_pid;	/* FORK: parent; REPARENT: new parent */
	__u32 other_tgid;
	__u32 exit_code;
	__u64 time_ns;		/* CLOCK_BOOTTIME of the event */
	char comm[PTOP_TS_COMM_LEN];
};

#endif /* _UAPI_PTOP_TASKSTATS_H */
