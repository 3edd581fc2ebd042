/*
 * run_summary.h - one run's numbers as the Results screen lists them: per
 * job (or group, under group_reporting) and direction, IOPS, MB/s, mean and
 * p99 completion latency, from a finished run's thread stats or from a
 * saved result (core/results.h); and the CrystalDiskMark-style grid of the
 * cdm-* presets, which pairs each test's read and write.
 *
 * Arithmetic only: no curses, never prints. MB/s is 1,000,000 bytes/s, as
 * `raidbench compare` and CrystalDiskMark count it.
 */
#ifndef RB_RUN_SUMMARY_H
#define RB_RUN_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "run.h"

struct summary_row {
	char name[128];
	char desc[160];
	int ddir;		/* DDIR_READ, DDIR_WRITE, DDIR_TRIM */
	int ts;			/* index into run_result.ts; -1 for a saved result */
	int groupid;
	uint64_t ios;
	double iops;
	double mb_s;
	double mean_ns;		/* completion latency (fio's clat) */
	double p99_ns;		/* < 0 when unknown */
};

struct run_summary {
	struct summary_row *rows;
	size_t nr;
};

/* Rows of a finished run: every ts entry, every direction that did I/O. 0 or -ENOMEM. */
int run_summary_from_run(struct run_summary *s, const struct run_result *res);
/* Rows of a loaded result, one per phase and direction. 0 or -ENOMEM. */
int run_summary_from_result(struct run_summary *s, const struct result *r);
void run_summary_release(struct run_summary *s);

/* The CrystalDiskMark presets are the profiles named cdm-*. */
bool run_summary_is_cdm(const char *profile);

/* A grid row: "SEQ1M Q8T1" with the summary rows of its read and its write. */
struct cdm_row {
	char label[48];
	int row[2];		/* index into s->rows for read, write; -1 when absent */
};

/*
 * The grid: rows are the job names without "-read"/"-write", upper case,
 * in the order they first appear ("seq1m-q8t1-read" -> "SEQ1M Q8T1").
 * Returns the number of rows filled (at most max).
 */
size_t run_summary_cdm(const struct run_summary *s, struct cdm_row *out, size_t max);

/* A result's time as "2025-01-15 10:00" (local time), "?" when unknown (0). */
void run_summary_fmt_time(char *buf, size_t len, int64_t ms);

#endif
