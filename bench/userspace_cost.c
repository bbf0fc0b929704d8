// SPDX-License-Identifier: GPL-2.0
/*
 * What user space does per refresh when few tasks changed (it must follow
 * what changed, not the number of tasks): a generated source gives one full
 * answer of N single-threaded processes, then incremental ones ("since N",
 * as the module's) in which only A processes ran: the first A each time, or
 * (-m) A others each time, so that the A of the last refresh go quiet. Each
 * refresh is the interactive view's work: merge the answer into a snapshot,
 * the interval math, the view's select and sort, and formatting the rows of
 * one 80x24 screen window plus the sum row. No terminal and no system calls
 * are involved, so callgrind's instruction counts of the refreshes are the
 * library's and the view's alone:
 *
 *   valgrind --tool=callgrind --collect-atstart=no \
 *	build/bench/userspace_cost -n 10000 -a 10 -r 20
 *
 * collects only the measured refreshes (after -w warm-up ones); without
 * valgrind it prints the mean wall time per refresh.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include "lib/col.h"
#include "lib/snap.h"
#include "ui/emit.h"
#include "ui/view.h"

#define MS 1000000ULL
#define VISIBLE_ROWS 14		/* an 80x24 screen under the meters */

struct gen {
	unsigned int n, active;
	bool rotate;		/* -m: other tasks run each refresh */
	bool exits;		/* -x: a task dies each refresh */
	unsigned int reads;
	uint64_t t_ns;
	uint64_t *ran;		/* per task, ns */
};

/* The first active task of this refresh. */
static unsigned int first_active(const struct gen *g)
{
	return g->rotate ? (g->reads * g->active) % g->n : 0;
}

static bool is_active(const struct gen *g, unsigned int i)
{
	unsigned int a = first_active(g);

	return g->reads && (i - a + g->n) % g->n < g->active;
}

static void gen_proc(struct ptop_sample *s, const struct gen *g,
		     unsigned int i)
{
	struct ptop_rec *gr = ptop_sample_add(s, PTOP_REC_GROUP);
	struct ptop_rec *t = ptop_sample_add(s, PTOP_REC_THREAD);
	uint32_t pid = 1000 + i;
	/* the active ones ran 5 ms per refresh, the others not this time */
	uint64_t ran = g->ran[i];

	gr->pid = gr->tgid = pid;
	gr->ppid = gr->acct_ptgid = 1;
	gr->uid = 1000;
	gr->nthreads = 1;
	gr->state = is_active(g, i) ? 'R' : 'S';
	gr->start_ns = 1000 + i;
	gr->flags = PTOP_RECF_HAS_X | PTOP_RECF_HAS_C;
	gr->rss_kb = 1000;
	snprintf(gr->comm, sizeof(gr->comm), "%s%u",
		 i < g->active ? "busy" : "task", i);
	gr->utime_ns = ran + 1 * MS;
	gr->stime_ns = ran / 2;
	*t = *gr;
	t->kind = PTOP_REC_THREAD;
	t->flags = 0;
}

static int gen_read(struct ptop_src *src, struct ptop_sample *out)
{
	struct gen *g = src->priv;
	unsigned int i, k;

	g->t_ns += 1000 * MS;
	out->time_ns = g->t_ns;
	out->ncpu = 2;
	/* two CPUs: what the active ones did not use was idle */
	out->cpu.idle_ns = 2 * g->t_ns - (uint64_t)g->reads * g->active * 15 / 2 * MS;
	out->flags = g->reads ? PTOP_SAMPLE_INCREMENTAL : 0;
	if (!g->reads) {
		for (i = 0; i < g->n; i++)
			gen_proc(out, g, i);
	} else {
		/* a "since N" answer: the tasks that ran (the caller sorts) */
		for (k = 0; k < g->active; k++) {
			i = (first_active(g) + k) % g->n;
			g->ran[i] += 5 * MS;
			gen_proc(out, g, i);
		}
		if (g->exits) {
			/* -x: the last live sleeper's final records */
			struct ptop_rec *gr, *t;

			i = g->n - g->reads;
			gen_proc(out, g, i);
			gr = &out->recs[out->nrecs - 2];
			t = &out->recs[out->nrecs - 1];
			gr->flags |= PTOP_RECF_EXIT;
			t->flags |= PTOP_RECF_EXIT;
			gr->state = t->state = 'X';
		}
	}
	g->reads++;
	return 0;
}

static int gen_open(struct ptop_src *src)
{
	src->priv = src->cfg.arg;
	src->caps = PTOP_CAP_NS | PTOP_DATA_X | PTOP_DATA_C | PTOP_CAP_EXITS |
		    PTOP_CAP_C_COMPLETE | PTOP_CAP_INCREMENTAL;
	src->tol_ppm = 5000;
	return 0;
}

static const struct ptop_src_ops gen_ops = {
	.name = "generated",
	.desc = "N sleepers, A active (bench)",
	.open = gen_open,
	.read = gen_read,
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The screen's share of a refresh: the visible rows and the sum row. */
static size_t format_window(const struct ui_view *v,
			    const struct ptop_interval *iv, const int *cols,
			    int ncols, bool print)
{
	char cell[256];
	size_t i, bytes = 0;
	int c;

	for (i = 0; i <= VISIBLE_ROWS && i <= v->nrows; i++) {
		const struct ptop_row *r = i < VISIBLE_ROWS && i < v->nrows ?
					   &v->rows[i].r : &iv->sum;

		for (c = 0; c < ncols; c++) {
			ptop_col_format(&ptop_cols[cols[c]], r, iv, cell,
					sizeof(cell));
			bytes += strlen(cell);
			if (print)
				printf("%s%c", cell, c + 1 < ncols ? ' ' : '\n');
		}
	}
	return bytes;
}

/* -b's output: counted and dropped, as a reader at the other end of a pipe */
static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	(void)buf;
	*(size_t *)cookie += len;
	return (ssize_t)len;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: userspace_cost [-n TASKS] [-a ACTIVE] [-r REFRESHES] [-w WARMUP] [-m] [-x] [-H] [-t] [-b] [-f FORMAT]\n"
		"  -m: other ACTIVE tasks run in each refresh (those of the last go quiet)\n"
		"  -x: a sleeper dies in each refresh (its final records in the answer)\n"
		"  -H: thread mode (a row per thread, ptop -H)\n"
		"  -t: the tree view, with the dead of the interval (ptop's t)\n"
		"  -b: batch mode (ptop -b): every row of every interval in the text\n"
		"      format, ptop -b's columns, to /dev/null (USERSPACE_COST_PRINT:\n"
		"      to stdout), instead of the view's window\n"
		"  -f FORMAT: batch mode in --format=FORMAT (text, csv, json,\n"
		"      openmetrics); -b is -f text\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct gen g = { .n = 10000, .active = 10 };
	struct ptop_src_cfg cfg = { .arg = &g };
	struct ui_view_opts o = { .sort_id = PTOP_COL_TOTAL };
	unsigned int refreshes = 20, warmup = 3, k;
	struct ptop_interval iv;
	struct ptop_snapper sn;
	struct ptop_src *src;
	struct ui_view v;
	char err[256], bad[64];
	int cols[PTOP_COL__COUNT], ncols, opt, ret;
	uint64_t t0 = 0;
	size_t bytes = 0, quick = 0;
	bool print = getenv("USERSPACE_COST_PRINT");	/* the rows, to compare */
	bool threads = false, tree = false, batch = false;
	const struct ui_encoder *enc = NULL;	/* -b: text */
	struct ui_emit e;
	FILE *out = NULL;

	while ((opt = getopt(argc, argv, "n:a:r:w:mxHtbf:")) != -1) {
		switch (opt) {
		case 'n': g.n = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'a': g.active = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'r': refreshes = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'w': warmup = (unsigned int)strtoul(optarg, NULL, 10); break;
		case 'm': g.rotate = true; break;
		case 'x': g.exits = true; break;
		case 'H': threads = true; break;
		case 't': tree = true; break;
		case 'b': batch = true; break;
		case 'f':
			batch = true;
			enc = ui_format_find(optarg);
			if (!enc)
				usage();
			break;
		default: usage();
		}
	}
	if (!g.n || g.active > g.n || !refreshes ||
	    (g.exits && g.n < g.active + 1 + warmup + refreshes))
		usage();
	g.ran = calloc(g.n, sizeof(*g.ran));
	if (!g.ran)
		return 1;
	/* ptop -b's columns are ptop_cols_default, the view's fit 80 */
	ncols = ptop_col_parse_list(batch ? (threads ? ptop_cols_default_threads :
						    ptop_cols_default) :
				    (threads ? ptop_cols_default_view_threads :
					       ptop_cols_default_view),
				    cols, PTOP_COL__COUNT, bad, sizeof(bad));
	if (ncols < 0)
		return 1;
	o.cols = cols;
	o.ncols = ncols;
	o.source = "generated";
	o.tree = batch && tree;
	if (batch) {
		/* what ptop -b writes to: a pipe or a file, fully buffered */
		static const cookie_io_functions_t sink = { .write = sink_write };

		out = print ? stdout : fopencookie(&bytes, "w", sink);
		if (!out || (!print && setvbuf(out, NULL, _IOFBF, 4096)))
			return 1;
		o.format = enc;
		ui_emit_init(&e, out, enc, &o);
	}
	ui_view_init(&v);
	v.tree = v.show_exited = tree;	/* ptop's tree shows the dead */
	ret = ptop_src_open_ops(&src, &gen_ops, &cfg, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "userspace_cost: %s\n", err);
		return 1;
	}
	ptop_snapper_init(&sn, src);
	ptop_interval_init(&iv);
	/* the first answer (full), then warm-up refreshes, then the measured */
	for (k = 0; k < 1 + warmup + refreshes; k++) {
		if (k == 1 + warmup) {
			t0 = now_ns();
			CALLGRIND_TOGGLE_COLLECT;
		}
		ret = ptop_snap_update(&sn);
		if (ret)
			break;
		if (!k)
			continue;
		ret = ptop_interval_compute(&iv, ptop_snap_prev(&sn),
					    ptop_snap_cur(&sn), threads);
		if (!ret && batch) {
			/* ptop -b: ui_batch_run()'s ui_emit_interval() */
			ret = ui_emit_interval(&e, &iv);
			quick += k > warmup && iv.quick;
			if (ret)
				break;
			continue;
		}
		if (!ret)
			ret = ui_view_build(&v, &o, &iv, ptop_snap_prev(&sn),
					    ptop_snap_cur(&sn));
		if (ret)
			break;
		bytes += format_window(&v, &iv, cols, ncols, print);
		quick += k > warmup && iv.quick;
	}
	if (k == 1 + warmup + refreshes)
		CALLGRIND_TOGGLE_COLLECT;
	if (ret) {
		fprintf(stderr, "userspace_cost: refresh %u: %s\n", k,
			strerror(-ret));
		return 1;
	}
	/* the check that the refreshes did what they say */
	if (iv.nrows != g.n - (g.exits ? warmup + refreshes : 0) ||
	    ptop_interval_pct(&iv, iv.sum.total) < 0.01 * g.active) {
		fprintf(stderr, "userspace_cost: %zu rows, %.2f%% busy: wrong\n",
			iv.nrows, ptop_interval_pct(&iv, iv.sum.total));
		return 1;
	}
	printf("tasks %u active %u refreshes %u: %.3f ms per refresh (%zu bytes formatted, %zu intervals by the quick path",
	       g.n, g.active, refreshes,
	       (now_ns() - t0) / 1e6 / refreshes, bytes, quick);
	if (tree)
		printf(", %lu tree builds by the quick path", v.ntree_quick);
	if (batch) {
		printf("), top row %s %.2f%%\n", e.view.rows[0].r.comm,
		       ptop_interval_pct(&iv, e.view.rows[0].r.total));
		ui_emit_end(&e);
		if (out != stdout)
			fclose(out);
	} else {
		printf("), top row %s %.2f%%\n", v.rows[0].r.comm,
		       ptop_interval_pct(&iv, v.rows[0].r.total));
	}
	ui_view_free(&v);
	ptop_interval_free(&iv);
	ptop_snapper_free(&sn);
	ptop_src_close(src);
	free(g.ran);
	return 0;
}
