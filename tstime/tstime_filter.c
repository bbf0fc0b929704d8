// SPDX-License-Identifier: GPL-2.0
/*
 * tstime's socket filters: the kernel drops the exit records and connector
 * events of tasks that are not of the tree, before they are queued. The
 * exit listener and the proc connector send tstime a message per event
 * of the whole machine; receiving them was most of its own time beside
 * other work's exits.
 *
 * One BPF hash map holds the tree's tgids, the root's first. The
 * connector's filter keeps the fork of a new process whose parent is in
 * it (and adds the child: the map follows the tree in kernel order, as
 * the events are sent) and the exits of its tasks; a fork of another
 * parent takes its child's tgid out (pid reuse). The listener's filter
 * keeps the records whose ac_tgid is in it. With the run's cgroup, whose
 * counter gives the total, tstime needs no event: the connector's filter
 * only follows the tree, and every record read is of it (one message an
 * exit instead of three). Whatever a filter cannot
 * read, or once the map is full (a flag in a second map), is kept: the
 * tree accounting then decides as without filters, or, told every record
 * is of the tree, counts the run's records as lost. Needs CAP_BPF or
 * CAP_SYS_ADMIN; without, the cBPF filter of lib/cnproc.h (exec events
 * and thread forks dropped) remains.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "tstime.h"

#define TREE_MAX	(1U << 16)	/* tgids; allocated as they come */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV32_IMM(d, i)	INSN(BPF_ALU | BPF_MOV | BPF_K, d, 0, 0, i)
#define ADD_IMM(d, i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define AND_IMM(d, i)	INSN(BPF_ALU64 | BPF_AND | BPF_K, d, 0, 0, i)
#define LDX_W(d, s, o)	INSN(BPF_LDX | BPF_W | BPF_MEM, d, s, o, 0)
#define LDX_H(d, s, o)	INSN(BPF_LDX | BPF_H | BPF_MEM, d, s, o, 0)
#define ST_W(d, o, i)	INSN(BPF_ST | BPF_W | BPF_MEM, d, 0, o, i)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
/* 32-bit: PROC_EVENT_EXIT is 0x80000000, negative as an imm */
#define JEQ32_IMM(d, i, o)	INSN(BPF_JMP32 | BPF_JEQ | BPF_K, d, 0, o, i)
#define JNE_IMM(d, i, o)	INSN(BPF_JMP | BPF_JNE | BPF_K, d, 0, o, i)
#define JNE_REG(d, s, o)	INSN(BPF_JMP | BPF_JNE | BPF_X, d, s, o, 0)
#define JA(o)		INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define CALL(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define EXIT()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* two instructions: r = the map of fd */
#define LD_MAP(d, fd) \
	INSN(BPF_LD | BPF_DW | BPF_IMM, d, BPF_PSEUDO_MAP_FD, 0, fd), \
	INSN(0, 0, 0, 0, 0)

/* connector datagram offsets: nlmsghdr, cn_msg, proc_event */
#define CN_EV		(NLMSG_HDRLEN + sizeof(struct cn_msg))
#define CN_WHAT		(CN_EV + offsetof(struct proc_event, what))
#define CN_DATA		(CN_EV + offsetof(struct proc_event, event_data))
#define CN_EXIT_TGID	\
	(CN_DATA + offsetof(struct exit_proc_event, process_tgid))

/* exit record: nlmsghdr, genlmsghdr, AGGR_PID nest, PID, (pad,) STATS */
#define TS_NEST		(NLMSG_HDRLEN + GENL_HDRLEN)
#define TS_ATTR		(TS_NEST + NLA_HDRLEN + NLA_HDRLEN + 4)
#define TS_TGID		offsetof(struct taskstats, ac_tgid)

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int map_create(enum bpf_map_type type, unsigned int max, int flags)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = 4;
	a.value_size = 4;
	a.max_entries = max;
	a.map_flags = flags;
	return bpf(BPF_MAP_CREATE, &a);
}

static int map_put(int fd, uint32_t key, uint32_t val)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = fd;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&val;
	return bpf(BPF_MAP_UPDATE_ELEM, &a);
}

static int prog_attach(int sock, const struct bpf_insn *insn, size_t n)
{
	union bpf_attr a;
	int fd, ret = 0;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uintptr_t)insn;
	a.insn_cnt = n;
	a.license = (uintptr_t)"GPL";
	fd = bpf(BPF_PROG_LOAD, &a);
	if (fd < 0)
		return -errno;
	if (setsockopt(sock, SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd)))
		ret = -errno;
	close(fd);	/* the socket holds it */
	return ret;
}

/* A program being written: jumps name a label, resolved at the end. */
struct prog {
	struct bpf_insn insn[96];
	int n;
	int label[8];
	int fix[32][2];		/* instruction, label */
	int nfix;
};

enum { L_KEEP, L_DROP, L_FORK, L_EXIT, L_OTHER, L_FULL, L_LOOKUP };

static void emit(struct prog *p, struct bpf_insn i)
{
	if (p->n < (int)(sizeof(p->insn) / sizeof(p->insn[0])))
		p->insn[p->n] = i;
	p->n++;
}

static void jump(struct prog *p, struct bpf_insn i, int label)
{
	if (p->nfix < (int)(sizeof(p->fix) / sizeof(p->fix[0]))) {
		p->fix[p->nfix][0] = p->n;
		p->fix[p->nfix][1] = label;
	}
	p->nfix++;
	emit(p, i);
}

static void here(struct prog *p, int label)
{
	p->label[label] = p->n;
}

/* 0, or -E2BIG when the arrays were short */
static int resolve(struct prog *p)
{
	int i;

	if (p->n > (int)(sizeof(p->insn) / sizeof(p->insn[0])) ||
	    p->nfix > (int)(sizeof(p->fix) / sizeof(p->fix[0])))
		return -E2BIG;
	for (i = 0; i < p->nfix; i++)
		p->insn[p->fix[i][0]].off = p->label[p->fix[i][1]] -
					    p->fix[i][0] - 1;
	return 0;
}

static void emit_map(struct prog *p, int reg, int fd)
{
	emit(p, INSN(BPF_LD | BPF_DW | BPF_IMM, reg, BPF_PSEUDO_MAP_FD, 0,
		     fd));
	emit(p, INSN(0, 0, 0, 0, 0));
}

/* r2 = fp + at: a key or value on the stack */
static void emit_fp(struct prog *p, int reg, int at)
{
	emit(p, MOV_REG(reg, BPF_REG_10));
	emit(p, ADD_IMM(reg, at));
}

/* len bytes of the message at off into the stack at fp + at, else keep */
static void emit_load(struct prog *p, int off, int at, int len)
{
	emit(p, MOV_REG(BPF_REG_1, BPF_REG_6));
	emit(p, MOV_IMM(BPF_REG_2, off));
	emit_fp(p, BPF_REG_3, at);
	emit(p, MOV_IMM(BPF_REG_4, len));
	emit(p, CALL(BPF_FUNC_skb_load_bytes));
	jump(p, JNE_IMM(BPF_REG_0, 0, 0), L_KEEP);
}

/* the tgid at fp + at in the tree: keep, else drop */
static void emit_lookup(struct prog *p, int tree, int at)
{
	emit_map(p, BPF_REG_1, tree);
	emit_fp(p, BPF_REG_2, at);
	emit(p, CALL(BPF_FUNC_map_lookup_elem));
	jump(p, JEQ_IMM(BPF_REG_0, 0, 0), L_DROP);
	jump(p, JA(0), L_KEEP);
}

/* start: r6 = the skb; the map full (flag set): keep everything */
static void emit_start(struct prog *p, int flag)
{
	emit(p, MOV_REG(BPF_REG_6, BPF_REG_1));
	emit(p, ST_W(BPF_REG_10, -4, 0));
	emit_map(p, BPF_REG_1, flag);
	emit_fp(p, BPF_REG_2, -4);
	emit(p, CALL(BPF_FUNC_map_lookup_elem));
	jump(p, JEQ_IMM(BPF_REG_0, 0, 0), L_KEEP);
	emit(p, LDX_W(BPF_REG_0, BPF_REG_0, 0));
	jump(p, JNE_IMM(BPF_REG_0, 0, 0), L_KEEP);
}

static void emit_end(struct prog *p)
{
	here(p, L_KEEP);
	emit(p, MOV32_IMM(BPF_REG_0, -1));
	emit(p, EXIT());
	here(p, L_DROP);
	emit(p, MOV_IMM(BPF_REG_0, 0));
	emit(p, EXIT());
}

/*
 * The connector's filter. Stack: -4 the flag's key, -8 what, -24 the
 * fork (parent pid, tgid, child pid, tgid), -28 a value, -32 a tgid.
 */
static int connector_prog(struct prog *p, int tree, int flag, int events)
{
	int keep = events ? L_KEEP : L_DROP;

	emit_start(p, flag);
	emit_load(p, CN_WHAT, -8, 4);
	emit(p, LDX_W(BPF_REG_7, BPF_REG_10, -8));
	jump(p, JEQ32_IMM(BPF_REG_7, PROC_EVENT_FORK, 0), L_FORK);
	jump(p, JEQ32_IMM(BPF_REG_7, (int32_t)PROC_EVENT_EXIT, 0), L_EXIT);
	jump(p, JA(0), L_DROP);		/* exec, uid, comm: not read */

	here(p, L_FORK);
	emit_load(p, CN_DATA, -24, 16);
	emit(p, LDX_W(BPF_REG_8, BPF_REG_10, -16));
	emit(p, LDX_W(BPF_REG_9, BPF_REG_10, -12));
	jump(p, JNE_REG(BPF_REG_8, BPF_REG_9, 0), L_DROP);	/* a thread */
	emit_map(p, BPF_REG_1, tree);
	emit_fp(p, BPF_REG_2, -20);			/* parent tgid */
	emit(p, CALL(BPF_FUNC_map_lookup_elem));
	jump(p, JEQ_IMM(BPF_REG_0, 0, 0), L_OTHER);
	emit(p, ST_W(BPF_REG_10, -28, 1));
	emit_map(p, BPF_REG_1, tree);
	emit_fp(p, BPF_REG_2, -12);			/* child tgid */
	emit_fp(p, BPF_REG_3, -28);
	emit(p, MOV_IMM(BPF_REG_4, BPF_ANY));
	emit(p, CALL(BPF_FUNC_map_update_elem));
	jump(p, JEQ_IMM(BPF_REG_0, 0, 0), keep);
	jump(p, JA(0), L_FULL);

	/* another parent's child: its tgid, if reused, is not ours now */
	here(p, L_OTHER);
	emit_map(p, BPF_REG_1, tree);
	emit_fp(p, BPF_REG_2, -12);
	emit(p, CALL(BPF_FUNC_map_delete_elem));
	jump(p, JA(0), L_DROP);

	here(p, L_FULL);
	emit(p, ST_W(BPF_REG_10, -28, 1));
	emit_map(p, BPF_REG_1, flag);
	emit_fp(p, BPF_REG_2, -4);
	emit_fp(p, BPF_REG_3, -28);
	emit(p, MOV_IMM(BPF_REG_4, BPF_ANY));
	emit(p, CALL(BPF_FUNC_map_update_elem));
	jump(p, JA(0), L_KEEP);

	here(p, L_EXIT);
	if (events) {
		emit_load(p, CN_EXIT_TGID, -32, 4);
		emit_lookup(p, tree, -32);
	} else {
		jump(p, JA(0), L_DROP);
	}
	emit_end(p);
	return resolve(p);
}

/*
 * The exit listener's filter: the record's ac_tgid. Stack: -4 the flag's
 * key, -24 the AGGR_PID nest's header, the PID attribute and the next
 * attribute's header, -32 the tgid.
 */
static int listener_prog(struct prog *p, int tree, int flag)
{
	emit_start(p, flag);
	emit_load(p, TS_NEST, -24, 16);
	emit(p, LDX_H(BPF_REG_7, BPF_REG_10, -24 + 2));
	emit(p, AND_IMM(BPF_REG_7, NLA_TYPE_MASK));
	jump(p, JNE_IMM(BPF_REG_7, TASKSTATS_TYPE_AGGR_PID, 0), L_KEEP);
	/* STATS, or a pad before it where 64-bit values need alignment */
	emit(p, LDX_H(BPF_REG_7, BPF_REG_10, -24 + 14));
	emit(p, AND_IMM(BPF_REG_7, NLA_TYPE_MASK));
	emit(p, MOV_IMM(BPF_REG_8, TS_ATTR + NLA_HDRLEN + TS_TGID));
	jump(p, JEQ_IMM(BPF_REG_7, TASKSTATS_TYPE_STATS, 0), L_LOOKUP);
	jump(p, JNE_IMM(BPF_REG_7, TASKSTATS_TYPE_NULL, 0), L_KEEP);
	emit(p, MOV_IMM(BPF_REG_8, TS_ATTR + 2 * NLA_HDRLEN + TS_TGID));

	here(p, L_LOOKUP);
	emit(p, MOV_REG(BPF_REG_1, BPF_REG_6));
	emit(p, MOV_REG(BPF_REG_2, BPF_REG_8));
	emit_fp(p, BPF_REG_3, -32);
	emit(p, MOV_IMM(BPF_REG_4, 4));
	emit(p, CALL(BPF_FUNC_skb_load_bytes));
	jump(p, JNE_IMM(BPF_REG_0, 0, 0), L_KEEP);
	emit_lookup(p, tree, -32);
	emit_end(p);
	return resolve(p);
}

int tstime_filter_attach(struct tstime_src *s, int events, char *why,
			 size_t len)
{
	struct prog p;
	int tree, flag, ret;

	tree = map_create(BPF_MAP_TYPE_HASH, TREE_MAX, BPF_F_NO_PREALLOC);
	if (tree < 0) {
		ret = -errno;
		snprintf(why, len, "BPF map: %s", strerror(-ret));
		return ret;
	}
	flag = map_create(BPF_MAP_TYPE_ARRAY, 1, 0);
	if (flag < 0) {
		ret = -errno;
		snprintf(why, len, "BPF map: %s", strerror(-ret));
		close(tree);
		return ret;
	}
	ret = map_put(tree, (uint32_t)getpid(), 1) ? -errno : 0;
	memset(&p, 0, sizeof(p));
	if (!ret)
		ret = connector_prog(&p, tree, flag, events);
	if (!ret)
		ret = prog_attach(s->connector.fd, p.insn, p.n);
	memset(&p, 0, sizeof(p));
	if (!ret)
		ret = listener_prog(&p, tree, flag);
	if (!ret)
		ret = prog_attach(s->taskstats.lfd, p.insn, p.n);
	/*
	 * Both or neither: the connector's filter alone would leave the
	 * records of other tasks without their EXIT, waiting for good.
	 */
	close(tree);	/* the programs hold it */
	if (ret) {
		ptop_cnproc_only_procs(&s->connector);
		close(flag);
		snprintf(why, len, "BPF socket filter: %s", strerror(-ret));
		return ret;
	}
	s->filter_flag = flag;
	return 0;
}

int tstime_filter_full(const struct tstime_src *s)
{
	union bpf_attr a;
	uint32_t key = 0, val = 0;

	if (s->filter_flag < 0)
		return 0;
	memset(&a, 0, sizeof(a));
	a.map_fd = s->filter_flag;
	a.key = (uintptr_t)&key;
	a.value = (uintptr_t)&val;
	return bpf(BPF_MAP_LOOKUP_ELEM, &a) || val;
}

void tstime_filter_close(struct tstime_src *s)
{
	if (s->filter_flag >= 0)
		close(s->filter_flag);
	s->filter_flag = -1;
}
