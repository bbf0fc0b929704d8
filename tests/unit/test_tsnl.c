// SPDX-License-Identifier: GPL-2.0
/*
 * The taskstats netlink parsers (lib/src/tsnl.c) on crafted buffers, as one
 * recv() would return them: a query reply, kernel errors (also malformed
 * ones: no error code, a positive code), stale replies, exit records of a
 * thread and of a group's last thread, truncated messages.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>

#include "lib/tsnl.h"

struct nlbuf {
	unsigned char b[8192];
	size_t n;
	size_t msg;	/* offset of the message being built */
};

static void msg_begin(struct nlbuf *o, uint16_t type, uint32_t seq)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_seq = seq };
	struct genlmsghdr g = { .cmd = TASKSTATS_CMD_NEW, .version = 1 };

	o->msg = o->n;
	memcpy(o->b + o->n, &h, sizeof(h));
	o->n += NLMSG_HDRLEN;
	memcpy(o->b + o->n, &g, sizeof(g));
	o->n += GENL_HDRLEN;
}

static void msg_end(struct nlbuf *o)
{
	struct nlmsghdr *h = (void *)(o->b + o->msg);

	h->nlmsg_len = o->n - o->msg;
	o->n = o->msg + NLMSG_ALIGN(h->nlmsg_len);
}

static size_t attr(struct nlbuf *o, uint16_t type, const void *d, size_t len)
{
	struct nlattr a = { .nla_type = type, .nla_len = NLA_HDRLEN + len };
	size_t at = o->n;

	memcpy(o->b + o->n, &a, sizeof(a));
	if (d)
		memcpy(o->b + o->n + NLA_HDRLEN, d, len);
	o->n += NLA_ALIGN(a.nla_len);
	return at;
}

/* AGGR_PID or AGGR_TGID { PID/TGID, STATS } */
static void aggr(struct nlbuf *o, uint16_t type, uint32_t id,
		 const struct taskstats *ts)
{
	size_t at = o->n;
	struct nlattr *a;

	attr(o, type, NULL, 0);
	attr(o, type == TASKSTATS_TYPE_AGGR_PID ? TASKSTATS_TYPE_PID :
	     TASKSTATS_TYPE_TGID, &id, 4);
	attr(o, TASKSTATS_TYPE_STATS, ts, sizeof(*ts));
	a = (void *)(o->b + at);
	a->nla_len = o->n - at;
}

static struct taskstats stats(uint32_t pid, uint32_t tgid)
{
	struct taskstats ts;

	memset(&ts, 0, sizeof(ts));
	ts.version = TASKSTATS_VERSION;
	ts.ac_pid = pid;
	ts.ac_tgid = tgid;
	ts.ac_ppid = 1;
	ts.ac_utime = 1000 * pid;
	ts.cpu_run_virtual_total = 123456789;
	strcpy(ts.ac_comm, "worker");
	return ts;
}

static void error_msg(struct nlbuf *o, uint32_t seq, int code, size_t len)
{
	struct nlmsghdr h = { .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = seq,
			      .nlmsg_len = NLMSG_HDRLEN + len };

	memcpy(o->b + o->n, &h, sizeof(h));
	if (len >= sizeof(code))
		memcpy(o->b + o->n + NLMSG_HDRLEN, &code, sizeof(code));
	o->n += NLMSG_ALIGN(h.nlmsg_len);
}

/* parse from an exact-size heap copy, so that ASan sees any overread */
static int reply(const struct nlbuf *o, uint32_t seq, struct ptop_tsnl_stats *st)
{
	void *b = malloc(o->n ? o->n : 1);
	int ret;

	memcpy(b, o->b, o->n);
	ret = ptop_tsnl_parse_reply(b, o->n, seq, st);
	free(b);
	return ret;
}

static void test_reply(void **state)
{
	struct taskstats ts = stats(42, 40);
	struct ptop_tsnl_stats st;
	struct nlbuf o = { .n = 0 };

	msg_begin(&o, 0x17, 6);		/* a stale answer first */
	aggr(&o, TASKSTATS_TYPE_AGGR_PID, 41, &ts);
	msg_end(&o);
	assert_int_equal(reply(&o, 7, &st), -EAGAIN);
	msg_begin(&o, 0x17, 7);
	aggr(&o, TASKSTATS_TYPE_AGGR_PID, 42, &ts);
	msg_end(&o);
	assert_int_equal(reply(&o, 7, &st), 0);
	assert_int_equal(st.pid, 42);
	assert_int_equal(st.tgid, 40);
	assert_int_equal(st.utime_us, 42000);
	assert_int_equal(st.run_virtual_ns, 123456789);
	assert_string_equal(st.comm, "worker");
}

static void test_reply_errors(void **state)
{
	struct ptop_tsnl_stats st;
	struct nlbuf o = { .n = 0 };

	error_msg(&o, 3, -ESRCH, 4 + NLMSG_HDRLEN);
	assert_int_equal(reply(&o, 3, &st), -ESRCH);
	/* an error message too short to hold its code: malformed */
	o.n = 0;
	error_msg(&o, 3, 0, 0);
	assert_int_equal(reply(&o, 3, &st), -EINVAL);
	/* a positive code is no errno (and no bitmask of parts found) */
	o.n = 0;
	error_msg(&o, 3, 3, 4);
	assert_int_equal(reply(&o, 3, &st), -EINVAL);
	/* an ACK is no answer */
	o.n = 0;
	error_msg(&o, 3, 0, 4);
	assert_int_equal(reply(&o, 3, &st), -EINVAL);
	/* a reply without STATS */
	o.n = 0;
	msg_begin(&o, 0x17, 3);
	attr(&o, TASKSTATS_TYPE_AGGR_PID, NULL, 0);
	msg_end(&o);
	assert_int_equal(reply(&o, 3, &st), -EINVAL);
}

/* Every cut of a good reply: never read past it, never a made-up answer */
static void test_reply_truncated(void **state)
{
	struct taskstats ts = stats(42, 42);
	struct ptop_tsnl_stats st;
	struct nlbuf o = { .n = 0 }, t;
	size_t len;
	int ret;

	msg_begin(&o, 0x17, 9);
	aggr(&o, TASKSTATS_TYPE_AGGR_PID, 42, &ts);
	msg_end(&o);
	for (len = 0; len < o.n; len++) {
		memcpy(&t, &o, sizeof(t));
		t.n = len;
		ret = reply(&t, 9, &st);
		assert_true(ret == -EAGAIN || ret == -EINVAL);
	}
}

struct exits {
	int n, groups;
	uint32_t pid[4], tgid_of_group[4];
};

static int on_exit_rec(void *arg, const struct ptop_tsnl_stats *pid,
		       const struct ptop_tsnl_stats *tgid)
{
	struct exits *e = arg;

	if (e->n < 4) {
		e->pid[e->n] = pid->pid;
		e->tgid_of_group[e->n] = tgid ? tgid->tgid : 0;
	}
	e->n++;
	e->groups += !!tgid;
	return 0;
}

static void test_exits(void **state)
{
	struct taskstats t1 = stats(51, 50), t2 = stats(50, 50), g;
	struct nlbuf o = { .n = 0 };
	struct exits e = { 0 };

	msg_begin(&o, 0x17, 0);		/* a thread of 50 */
	aggr(&o, TASKSTATS_TYPE_AGGR_PID, 51, &t1);
	msg_end(&o);
	error_msg(&o, 0, -ENOBUFS, 4);	/* skipped */
	msg_begin(&o, 0x17, 0);		/* its last thread, with the group */
	aggr(&o, TASKSTATS_TYPE_AGGR_PID, 50, &t2);
	g = stats(0, 0);
	aggr(&o, TASKSTATS_TYPE_AGGR_TGID, 50, &g);
	msg_end(&o);
	assert_int_equal(ptop_tsnl_parse_exits(o.b, o.n, on_exit_rec, &e), 0);
	assert_int_equal(e.n, 2);
	assert_int_equal(e.pid[0], 51);
	assert_int_equal(e.pid[1], 50);
	assert_int_equal(e.groups, 1);
	assert_int_equal(e.tgid_of_group[1], 50);	/* from TGID */

	/* the second message cut short: the first one still counts */
	memset(&e, 0, sizeof(e));
	assert_int_equal(ptop_tsnl_parse_exits(o.b, o.n - 8, on_exit_rec, &e),
			 0);
	assert_int_equal(e.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_reply_errors),
		cmocka_unit_test(test_reply_truncated),
		cmocka_unit_test(test_exits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
