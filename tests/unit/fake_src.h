/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake source that replays scripted samples, for unit tests of the
 * snapshot and interval math. A script is a list of samples built with
 * the helpers below; each ops->read() returns the next one.
 */
#ifndef TESTS_FAKE_SRC_H
#define TESTS_FAKE_SRC_H

#include "lib/snap.h"

#define FAKE_MAX_SAMPLES 16
#define MS 1000000ULL	/* ns */

struct fake_script {
	struct ptop_sample samples[FAKE_MAX_SAMPLES];
	int nsamples;
	int next;
	unsigned int caps;
	/* the source's tolerance (struct ptop_src.tol_ppm, res_ns) */
	unsigned int tol_ppm;
	uint64_t res_ns;
	const char *res_what;
	/* a read's own res_ns where not 0 (a source whose idle fell back) */
	uint64_t res_at[FAKE_MAX_SAMPLES];
};

/* Start a new sample at time t_ns with ncpu CPUs and cumulative idle. */
struct ptop_sample *fake_sample(struct fake_script *fs, uint64_t t_ns,
				unsigned int ncpu, uint64_t idle_ns);
/* A single-threaded process: GROUP + its leader THREAD (own = u, s). */
void fake_proc(struct ptop_sample *s, uint32_t tgid, uint32_t ppid,
	       uint64_t start, uint64_t u, uint64_t st, const char *comm);
/* An extra thread of a group. */
void fake_thread(struct ptop_sample *s, uint32_t pid, uint32_t tgid,
		 uint64_t start, uint64_t u, uint64_t st);
/* The group record of tgid in this sample (to set x*, c*). */
struct ptop_rec *fake_group(struct ptop_sample *s, uint32_t tgid);
/* EXIT records */
void fake_exit_group(struct ptop_sample *s, uint32_t tgid, uint64_t start,
		     uint64_t xu, uint64_t xs, uint64_t cu, uint64_t cs,
		     uint32_t into, uint64_t into_start);
void fake_exit_thread(struct ptop_sample *s, uint32_t pid, uint32_t tgid,
		      uint64_t start, uint64_t u, uint64_t st);

/* Open a source replaying fs (caps as given). */
struct ptop_src *fake_src_open(struct fake_script *fs, unsigned int caps);
void fake_script_free(struct fake_script *fs);

#endif
