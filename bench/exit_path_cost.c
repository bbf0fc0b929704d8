// SPDX-License-Identifier: GPL-2.0
/*
 * exit_path_cost: how much CPU time of a dying process the stock kernel's
 * taskstats exit record misses (the record is sent from do_exit() before
 * exit_mm(), exit_files(), exit_notify() and the last schedule), measured
 * per exit, for docs/precision.md and the man page (bench/precision.sh
 * runs it).
 *
 *   exit_path_cost [-n N] [-m MB]      (root: CAP_NET_ADMIN)
 *
 * N children one after another (default 500), each touching MB MiB of
 * anonymous memory (default 0), sleeping 1 ms (a task that never left the
 * CPU has a 0 runtime in its record: ptop misses all of it, but that is
 * not the exit path) and exiting. For each: the wait4() rusage
 * of the child (its whole life, the exit path included: the zombie is
 * reaped after its last schedule) minus the runtime in its taskstats exit
 * record (cpu_run_virtual_total, ns). Prints one line:
 *   exit_path_cost mb=MB n=N matched=M zero_runtime=Z median_us=..
 *                  mean_us=.. p90_us=..
 * The module (kmod/) counts this time into the rows; on the stock kernel
 * ptop shows it as the interval's "exit paths" part.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/tsnl.h"

struct child {
	pid_t pid;
	uint64_t rusage_ns;
	uint64_t record_ns;
	int have_record;
};

struct state {
	struct child *c;
	int n;
};

static int on_exit_record(void *arg, const struct ptop_tsnl_stats *st,
			  const struct ptop_tsnl_stats *tgid)
{
	struct state *s = arg;
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->c[i].pid == (pid_t)st->pid && !s->c[i].have_record) {
			s->c[i].record_ns = st->run_virtual_ns;
			s->c[i].have_record = 1;
		}
	}
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct ptop_tsnl ts = { .fd = -1, .lfd = -1 };
	struct state s = { 0 };
	int n = 500, mb = 0, opt, i, m = 0, lost = 0, ret;
	int64_t *d, sum = 0;
	int zero = 0;

	while ((opt = getopt(argc, argv, "n:m:")) != -1) {
		if (opt == 'n')
			n = atoi(optarg);
		else if (opt == 'm')
			mb = atoi(optarg);
		else
			return 2;
	}
	if (n <= 0 || mb < 0) {
		fprintf(stderr, "usage: exit_path_cost [-n N] [-m MB]\n");
		return 2;
	}
	ret = ptop_tsnl_open(&ts);
	if (!ret)
		ret = ptop_tsnl_listen(&ts, NULL, 8 << 20);
	if (ret) {
		fprintf(stderr, "exit_path_cost: taskstats: %s\n", strerror(-ret));
		return 1;
	}
	s.c = calloc(n, sizeof(*s.c));
	d = calloc(n, sizeof(*d));
	if (!s.c || !d)
		return 1;
	for (i = 0; i < n; i++) {
		struct rusage ru;
		pid_t p = fork();

		if (p < 0) {
			perror("fork");
			return 1;
		}
		if (!p) {
			if (mb) {
				char *mem = mmap(NULL, (size_t)mb << 20,
						 PROT_READ | PROT_WRITE,
						 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

				if (mem != MAP_FAILED)
					memset(mem, 1, (size_t)mb << 20);
			}
			/* off the CPU once: what ran so far is in the runtime */
			usleep(1000);
			_exit(0);
		}
		s.c[s.n].pid = p;
		if (wait4(p, NULL, 0, &ru) != p)
			return 1;
		s.c[s.n].rusage_ns =
			(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
		s.n++;
		if (ptop_tsnl_drain(&ts, on_exit_record, &s, &lost))
			return 1;
	}
	usleep(100000);
	if (ptop_tsnl_drain(&ts, on_exit_record, &s, &lost))
		return 1;
	for (i = 0; i < s.n; i++) {
		if (!s.c[i].have_record)
			continue;
		zero += !s.c[i].record_ns;
		d[m] = (int64_t)s.c[i].rusage_ns - (int64_t)s.c[i].record_ns;
		sum += d[m];
		m++;
	}
	if (!m || zero == m) {
		fprintf(stderr, "exit_path_cost: no exit record with a ns runtime%s\n",
			lost ? " (records lost)" : "");
		return 1;
	}
	qsort(d, m, sizeof(*d), cmp_i64);
	printf("exit_path_cost mb=%d n=%d matched=%d zero_runtime=%d median_us=%.1f mean_us=%.1f p90_us=%.1f\n",
	       mb, n, m, zero, d[m / 2] / 1e3, (double)sum / m / 1e3,
	       d[(m * 9) / 10] / 1e3);
	ptop_tsnl_close(&ts);
	free(s.c);
	free(d);
	return 0;
}
