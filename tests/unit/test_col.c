// SPDX-License-Identifier: GPL-2.0
/*
 * The column table: list parsing, name case rules, formatting ("-" for
 * missing data, PCT with 2 decimals, RATE per second), sorting.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/col.h"

#define MS 1000000ULL
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_table_complete(void **state)
{
	int i, j;

	(void)state;
	for (i = 0; i < PTOP_COL__COUNT; i++) {
		const struct ptop_col *c = &ptop_cols[i];

		assert_non_null(c->name);
		assert_non_null(c->title);
		assert_non_null(c->unit);
		assert_non_null(c->help);
		assert_true(c->width > 0);
		assert_int_equal(ptop_col_find(c->name), i);
		for (j = 0; j < i; j++)
			assert_int_not_equal(strcmp(c->name, ptop_cols[j].name), 0);
	}
}

static void test_case_rules(void **state)
{
	(void)state;
	/* exact names first: user time vs the owner */
	assert_int_equal(ptop_col_find("user"), PTOP_COL_UTIME);
	assert_int_equal(ptop_col_find("USER"), PTOP_COL_USER);
	/* otherwise case-insensitive when unambiguous */
	assert_int_equal(ptop_col_find("pid"), PTOP_COL_PID);
	assert_int_equal(ptop_col_find("Command"), PTOP_COL_COMMAND);
	assert_int_equal(ptop_col_find("TOTAL"), PTOP_COL_TOTAL);
	assert_int_equal(ptop_col_find("rdelay"), PTOP_COL_RDELAY);
	/* "User" matches both user and USER: ambiguous */
	assert_int_equal(ptop_col_find("User"), -1);
	assert_int_equal(ptop_col_find("nope"), -1);
	assert_int_equal(ptop_col_find(""), -1);
}

/* The header's titles name their columns too: the header shows S, c* */
static void test_find_by_title(void **state)
{
	int ids[PTOP_COL__COUNT], i;
	char bad[32];

	(void)state;
	assert_int_equal(ptop_col_find("S"), PTOP_COL_STATE);
	assert_int_equal(ptop_col_find("THR"), PTOP_COL_THREADS);
	assert_int_equal(ptop_col_find("c*"), PTOP_COL_CSUM);
	assert_int_equal(ptop_col_find("x*"), PTOP_COL_XSUM);
	/* a name still wins over a title, and titles are exact */
	assert_int_equal(ptop_col_find("STATE"), PTOP_COL_STATE);
	assert_int_equal(ptop_col_find("thr"), -1);
	for (i = 0; i < PTOP_COL__COUNT; i++)
		assert_int_equal(ptop_col_find(ptop_cols[i].title), i);
	/* the example config's line; S and STATE are one column */
	assert_int_equal(ptop_col_parse_list("PID,USER,S,user,sys,ste,cuser,"
					     "csys,cste,xuser,xsys,xste,total,"
					     "TIME,COMMAND", ids, PTOP_COL__COUNT,
					     bad, sizeof(bad)), 15);
	assert_int_equal(ids[2], PTOP_COL_STATE);
	assert_int_equal(ptop_col_parse_list("S,STATE", ids, PTOP_COL__COUNT,
					     bad, sizeof(bad)), -EEXIST);
}

static void test_parse_list(void **state)
{
	int ids[8];
	char bad[32];

	(void)state;
	assert_int_equal(ptop_col_parse_list("PID,user,sys,cuser,csys,total,COMMAND",
					     ids, 8, bad, sizeof(bad)), 7);
	assert_int_equal(ids[0], PTOP_COL_PID);
	assert_int_equal(ids[1], PTOP_COL_UTIME);
	assert_int_equal(ids[3], PTOP_COL_CUTIME);
	assert_int_equal(ids[6], PTOP_COL_COMMAND);
	/* spaces are separators too */
	assert_int_equal(ptop_col_parse_list("PID, USER", ids, 8, bad,
					     sizeof(bad)), 2);
	assert_int_equal(ids[1], PTOP_COL_USER);
	/* unknown: -EINVAL and the name */
	assert_int_equal(ptop_col_parse_list("PID,frobs,COMMAND", ids, 8, bad,
					     sizeof(bad)), -EINVAL);
	assert_string_equal(bad, "frobs");
	assert_int_equal(ptop_col_parse_list("", ids, 8, bad, sizeof(bad)),
			 -EINVAL);
	/* too many */
	assert_int_equal(ptop_col_parse_list("PID,TGID,PPID", ids, 2, bad,
					     sizeof(bad)), -EINVAL);
	/* a column twice (also spelled differently) is refused, named */
	assert_int_equal(ptop_col_parse_list("PID,PID,PID", ids, 8, bad,
					     sizeof(bad)), -EEXIST);
	assert_string_equal(bad, "PID");
	assert_int_equal(ptop_col_parse_list("PID,total,TOTAL", ids, 8, bad,
					     sizeof(bad)), -EEXIST);
	assert_string_equal(bad, "TOTAL");
}

static void test_needs(void **state)
{
	int ids[] = { PTOP_COL_RSS, PTOP_COL_CSTEAL, PTOP_COL_RDELAY };

	(void)state;
	assert_int_equal(ptop_col_needs(ids, 0), 0);
	assert_int_equal(ptop_col_needs(ids, 1), PTOP_DATA_MEM);
	assert_int_equal(ptop_col_needs(ids, 3), PTOP_DATA_MEM | PTOP_DATA_C |
			 PTOP_DATA_STEAL | PTOP_DATA_RDELAY);
}

static void fmt(int id, const struct ptop_row *r, const struct ptop_interval *iv,
		const char *want)
{
	char buf[64];

	ptop_col_format(&ptop_cols[id], r, iv, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("%s: '%s', want '%s'", ptop_cols[id].name, buf, want);
}

static void test_format(void **state)
{
	struct ptop_interval iv = { .interval_ns = 2000 * MS, .ncpu = 2 };
	struct ptop_row r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.has = PTOP_DATA_STEAL | PTOP_DATA_X | PTOP_DATA_C | PTOP_DATA_RDELAY |
		PTOP_DATA_CTXSW | PTOP_DATA_MEM;
	r.pid = 42;
	r.state = 'R';
	snprintf(r.comm, sizeof(r.comm), "worker");
	r.user = 1000 * MS;		/* 1 s of 2 s: 50% */
	r.sys = 1;			/* 1 ns: 0.00 */
	r.total = 3333 * MS;		/* 166.65% */
	r.cuser = 2 * MS;		/* 0.10% */
	r.nvcsw = 300;			/* over 2 s: 150/s */
	r.minflt = 1;			/* 0.5/s rounds to even: "0" */
	r.time_ns = 61 * 1000 * MS + 230 * MS;
	r.rss_kb = 1234;

	fmt(PTOP_COL_PID, &r, &iv, "42");
	fmt(PTOP_COL_STATE, &r, &iv, "R");
	fmt(PTOP_COL_COMMAND, &r, &iv, "worker");
	fmt(PTOP_COL_UTIME, &r, &iv, "50.00");
	fmt(PTOP_COL_STIME, &r, &iv, "0.00");
	fmt(PTOP_COL_TOTAL, &r, &iv, "166.65");
	fmt(PTOP_COL_CUTIME, &r, &iv, "0.10");
	fmt(PTOP_COL_NVCSW, &r, &iv, "150");
	fmt(PTOP_COL_MAJFLT, &r, &iv, "0");
	fmt(PTOP_COL_TIME, &r, &iv, "1:01.23");
	fmt(PTOP_COL_RSS, &r, &iv, "1234");
	r.time_ns = 3725ULL * 1000 * MS;	/* 1 h 2 min 5 s */
	fmt(PTOP_COL_TIME, &r, &iv, "1:02:05");

	/* what the source cannot give is "-", never 0 */
	r.has = PTOP_DATA_X | PTOP_DATA_RDELAY;
	fmt(PTOP_COL_STEAL, &r, &iv, "-");
	fmt(PTOP_COL_CUTIME, &r, &iv, "-");
	fmt(PTOP_COL_CSTEAL, &r, &iv, "-");
	fmt(PTOP_COL_XSTEAL, &r, &iv, "-");
	fmt(PTOP_COL_NVCSW, &r, &iv, "-");
	fmt(PTOP_COL_XUTIME, &r, &iv, "0.00");
	fmt(PTOP_COL_UTIME, &r, &iv, "50.00");
	r.has = PTOP_DATA_STEAL | PTOP_DATA_C | PTOP_DATA_CTXSW;
	fmt(PTOP_COL_XSTIME, &r, &iv, "-");
	fmt(PTOP_COL_RDELAY, &r, &iv, "-");
	fmt(PTOP_COL_STEAL, &r, &iv, "0.00");

	/* an empty interval does not divide by zero */
	iv.interval_ns = 0;
	fmt(PTOP_COL_UTIME, &r, &iv, "0.00");
	fmt(PTOP_COL_NVCSW, &r, &iv, "0");
}

/* ptop_col_format() as it was, with snprintf (main before the hand-made cells) */
static void ref_format(const struct ptop_col *c, const struct ptop_row *r,
		       const struct ptop_interval *iv, char *buf, size_t len)
{
	uint64_t v = ptop_col_value(c, r), cs = v / 10000000ULL;
	uint64_t s = cs / 100, m = s / 60, h = m / 60;
	uint32_t u;
	double secs;

	memcpy(&u, (const char *)r + c->offset, sizeof(u));
	if (ptop_col_missing(c, r)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (c->type) {
	case PTOP_CT_U32:
		snprintf(buf, len, "%u", u);
		break;
	case PTOP_CT_CHAR:
		snprintf(buf, len, "%c", *((const char *)r + c->offset) ?: '?');
		break;
	case PTOP_CT_STR:
		snprintf(buf, len, "%s", (const char *)r + c->offset);
		break;
	case PTOP_CT_UID:
		/* a uid no passwd entry names: the number */
		snprintf(buf, len, "%u", u);
		break;
	case PTOP_CT_PCT:
		snprintf(buf, len, "%.2f", ptop_interval_pct(iv, v));
		break;
	case PTOP_CT_RATE:
		secs = iv->interval_ns / 1e9;
		snprintf(buf, len, "%.0f", secs > 0 ? v / secs : 0.0);
		break;
	case PTOP_CT_CUMTIME:
		if (h)
			snprintf(buf, len, "%llu:%02llu:%02llu",
				 (unsigned long long)h,
				 (unsigned long long)(m % 60),
				 (unsigned long long)(s % 60));
		else
			snprintf(buf, len, "%llu:%02llu.%02llu",
				 (unsigned long long)m,
				 (unsigned long long)(s % 60),
				 (unsigned long long)(cs % 100));
		break;
	case PTOP_CT_KB:
		snprintf(buf, len, "%llu", (unsigned long long)v);
		break;
	}
}

static uint64_t rnd64(void)
{
	uint64_t v = (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^
		     (uint64_t)random();

	/* every magnitude: shift a random 64-bit value down 0..63 bits */
	return v >> (random() % 64);
}

/*
 * The hand-made cells are the bytes snprintf wrote: every column over
 * random figures of every magnitude and random intervals, the ties of
 * "%.2f" and "%.0f" (to even), shares past 1e7 % (printf's path), a
 * PID of 2^32 - 1, a long COMMAND, and buffers too small for the cell.
 */
static void test_format_like_printf(void **state)
{
	static const uint64_t ties[][2] = {	/* ns, interval_ns */
		{ 125, 100000 },	/* 0.125%: "0.12" */
		{ 375, 100000 },	/* 0.375%: "0.38" */
		{ 5, 10000000000ULL },	/* rate 0.5/s: "0" */
		{ 25, 10000000000ULL },	/* 2.5/s: "2" */
		{ 35, 10000000000ULL },	/* 3.5/s: "4" */
		{ 1, 1 },
		{ UINT64_MAX, 1 },	/* 1.8e21 %: snprintf */
		{ 0, 0 },
	};
	struct ptop_interval iv = { .ncpu = 4 };
	struct ptop_row r;
	char got[64], want[64];
	size_t lens[] = { 64, 8, 5, 3, 2, 1 };
	unsigned int k, id, t, li;

	(void)state;
	srandom(10);
	for (k = 0; k < 10000 + ARRAY_SIZE(ties); k++) {
		memset(&r, 0, sizeof(r));
		r.has = random() % 4 ? ~0U : (unsigned int)random();
		r.pid = k == 1 ? UINT32_MAX : (uint32_t)rnd64();
		r.uid = 4000000000U + (uint32_t)(random() % 50);
		r.state = k % 7 ? "RSDZTIX"[k % 7] : 0;
		snprintf(r.comm, sizeof(r.comm), "%s", k % 3 ?
			 "kworker/u16:3-e" : "a");
		r.user = rnd64();
		r.sys = rnd64();
		r.ste = rnd64();
		r.cuser = rnd64();
		r.csys = rnd64();
		r.cste = rnd64();
		r.xuser = rnd64();
		r.xsys = rnd64();
		r.xste = rnd64();
		r.total = rnd64();
		r.time_ns = rnd64();
		r.rdelay = rnd64();
		r.nvcsw = rnd64();
		r.nivcsw = rnd64() % 100000;
		r.minflt = rnd64() % 1000;
		r.majflt = rnd64() % 20;
		r.rss_kb = rnd64();
		iv.interval_ns = k % 5 ? rnd64() : 1000000000ULL +
			(uint64_t)(random() % 1000);
		if (k >= 10000) {
			t = k - 10000;
			r.user = r.nvcsw = r.total = ties[t][0];
			iv.interval_ns = ties[t][1];
		}
		for (id = 0; id < PTOP_COL__COUNT; id++) {
			for (li = 0; li < ARRAY_SIZE(lens); li++) {
				memset(got, 'x', sizeof(got));
				memset(want, 'x', sizeof(want));
				ptop_col_format(&ptop_cols[id], &r, &iv, got,
						lens[li]);
				ref_format(&ptop_cols[id], &r, &iv, want,
					   lens[li]);
				if (memcmp(got, want, sizeof(got)))
					fail_msg("%s, row %u, len %zu: '%.*s', want '%.*s'",
						 ptop_cols[id].name, k, lens[li],
						 (int)lens[li], got,
						 (int)lens[li], want);
			}
		}
	}
}

static void test_sort(void **state)
{
	struct ptop_row rows[5];
	static const uint32_t pids[] = { 5, 3, 9, 1, 7 };
	static const uint64_t tot[] = { 10, 20, 10, 20, 5 };
	static const uint32_t desc[] = { 1, 3, 5, 9, 7 };
	static const uint32_t asc[] = { 7, 5, 9, 1, 3 };
	static const uint32_t by_pid_desc[] = { 9, 7, 5, 3, 1 };
	int i;

	(void)state;
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < 5; i++) {
		rows[i].pid = pids[i];
		rows[i].total = tot[i];
		snprintf(rows[i].comm, sizeof(rows[i].comm), "c%d", 5 - i);
	}
	/* descending; ties by ascending pid */
	ptop_col_sort(rows, 5, PTOP_COL_TOTAL, false);
	for (i = 0; i < 5; i++)
		assert_int_equal(rows[i].pid, desc[i]);
	/* ascending; ties still by ascending pid */
	ptop_col_sort(rows, 5, PTOP_COL_TOTAL, true);
	for (i = 0; i < 5; i++)
		assert_int_equal(rows[i].pid, asc[i]);
	ptop_col_sort(rows, 5, PTOP_COL_PID, false);
	for (i = 0; i < 5; i++)
		assert_int_equal(rows[i].pid, by_pid_desc[i]);
	/* strings */
	ptop_col_sort(rows, 5, PTOP_COL_COMMAND, true);
	assert_string_equal(rows[0].comm, "c1");
	assert_string_equal(rows[4].comm, "c5");
	assert_true(ptop_col_compare(&ptop_cols[PTOP_COL_COMMAND], &rows[0],
				     &rows[1]) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_complete),
		cmocka_unit_test(test_case_rules),
		cmocka_unit_test(test_find_by_title),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_needs),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_format_like_printf),
		cmocka_unit_test(test_sort),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
