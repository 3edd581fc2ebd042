/*
 * stats.h - what a run measured: per-job, per-direction counters, latency
 * moments and fio's log-linear latency histogram, and their merge into
 * reporting groups.
 *
 * Threading contract: a struct thread_stat is written by exactly one worker
 * thread while the job runs. Other threads read it only after the worker has
 * been joined, or through the atomic snapshot counters of core/worker.h.
 * Nothing here prints; the reporters (core/report.h) format it.
 */
#ifndef RB_STATS_H
#define RB_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include "job.h"

/* fio's histogram geometry (stat.h): 29 groups of 64 buckets, values in ns. */
#define HIST_BITS 6
#define HIST_VAL (1u << HIST_BITS)
#define HIST_GROUPS 29
#define HIST_NR (HIST_GROUPS * HIST_VAL)	/* 1856 */

/* depth maps: 1,2,4,8,16,32,>=64 and submit/complete 0,4,8,16,32,64,>=64 */
#define DEPTH_MAP_NR 7
#define LAT_N_NR 10	/* 2 4 10 20 50 100 250 500 750 1000 (ns) */
#define LAT_U_NR 10	/* same bounds (us) */
#define LAT_M_NR 12	/* 2 4 10 20 50 100 250 500 750 1000 2000 >=2000 (ms) */

/* Welford running moments; min/max in the sample's unit (ns or KiB/s). */
struct lat_stat {
	uint64_t min;
	uint64_t max;
	uint64_t n;
	double mean;
	double m2;		/* sum of squared deviations */
};

struct ddir_stat {
	uint64_t io_bytes;
	uint64_t total_ios;	/* issued and completed */
	uint64_t short_ios;
	uint64_t drop_ios;
	uint64_t runtime_ms;	/* time this direction ran, ramp excluded */
	struct lat_stat slat;
	struct lat_stat clat;
	struct lat_stat lat;
	uint64_t clat_hist[HIST_NR];
	uint64_t lat_hist[HIST_NR];
	uint64_t slat_hist[HIST_NR];
	struct lat_stat bw;	/* per-interval samples, KiB/s */
	struct lat_stat iops;	/* per-interval samples, IO/s */
	double bw_agg_pct;	/* bw_mean as % of the group aggregate, set at merge */
};

struct thread_stat {
	char name[128];
	char *description;	/* borrowed from the job */
	int groupid;
	int error;		/* first errno, positive; 0 = ok */
	char error_msg[256];	/* "err= 5 (file:..., func=io_u error, error=Input/output error)" */
	unsigned nr_jobs;	/* clones merged into this (group_reporting) */
	const struct job_spec *job;	/* options of the last job merged, as fio */

	struct ddir_stat dir[DDIR_RWDIR_CNT];
	uint64_t sync_total;
	struct lat_stat sync_lat;
	uint64_t sync_hist[HIST_NR];

	uint64_t elapsed_ms;	/* wall time since the run started */
	uint64_t job_runtime_ms;
	uint64_t usr_us;
	uint64_t sys_us;
	uint64_t ctx;
	uint64_t majf;
	uint64_t minf;

	uint64_t depth_level[DEPTH_MAP_NR];
	uint64_t submit_map[DEPTH_MAP_NR];
	uint64_t complete_map[DEPTH_MAP_NR];
	uint64_t total_submit;	/* submit calls */
	uint64_t total_complete;	/* reap calls */
	uint64_t total_io_u;	/* I/Os counted in depth_level */
	uint64_t lat_n[LAT_N_NR];
	uint64_t lat_u[LAT_U_NR];
	uint64_t lat_m[LAT_M_NR];

	uint64_t total_err;
	int first_error;
	unsigned latency_depth;
};

/* Reporting group totals ("Run status group N"). */
struct group_stat {
	int groupid;
	uint64_t io_bytes[DDIR_RWDIR_CNT];
	uint64_t agg_bw[DDIR_RWDIR_CNT];	/* bytes/s: io_bytes*1000/max runtime */
	uint64_t min_bw[DDIR_RWDIR_CNT];	/* bytes/s of the slowest job */
	uint64_t max_bw[DDIR_RWDIR_CNT];
	uint64_t min_run[DDIR_RWDIR_CNT];	/* ms */
	uint64_t max_run[DDIR_RWDIR_CNT];
	unsigned kb_base;
};

/* Per device touched, /sys/block/NAME/stat deltas over the run. */
struct disk_util {
	char name[64];
	uint64_t read_ios, write_ios;
	uint64_t read_merges, write_merges;
	uint64_t read_ticks, write_ticks;
	uint64_t in_queue;
	double util;		/* % busy, capped 100 */
};

/* --- histogram (fio stat.c plat_val_to_idx / plat_idx_to_val) --- */

static inline unsigned hist_index(uint64_t ns)
{
	unsigned msb, error_bits, base, offset, idx;

	if (ns < 2 * HIST_VAL)
		return (unsigned)ns;
	msb = 63 - (unsigned)__builtin_clzll(ns);
	error_bits = msb - HIST_BITS;
	base = (error_bits + 1) << HIST_BITS;
	offset = (unsigned)((ns >> error_bits) & (HIST_VAL - 1));
	idx = base + offset;
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

/* Representative (midpoint) value of a bucket, ns. */
uint64_t hist_value(unsigned idx);

/*
 * fio's percentile rule: for each requested p (in the order given, which the
 * caller sorts), the value of the first bucket where the running count reaches
 * p/100 * total. Fills out[0..nr-1]; returns the sample count.
 */
uint64_t hist_percentiles(const uint64_t *hist, const double *plist, unsigned nr,
			  uint64_t *out);

/* --- moments --- */

static inline void lat_stat_add(struct lat_stat *s, uint64_t v)
{
	double delta;

	if (!s->n || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	delta = (double)v - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * ((double)v - s->mean);
}

/*
 * Moments of a batch of samples gathered with no division per sample (exact
 * integer sums), folded into a lat_stat once per batch by lat_stat_fold:
 * the worker's completion path, where a division per I/O per statistic was
 * a visible part of its cost. The fold gives the same mean and variance as
 * adding the samples one by one (to rounding).
 */
struct lat_acc {
	uint64_t n, min, max;
	unsigned __int128 sum, sumsq;
};

static inline void lat_acc_add(struct lat_acc *a, uint64_t v)
{
	if (!a->n || v < a->min)
		a->min = v;
	if (v > a->max)
		a->max = v;
	a->n++;
	a->sum += v;
	a->sumsq += (unsigned __int128)v * v;
}

/* Adds the batch a into s and empties a. */
void lat_stat_fold(struct lat_stat *s, struct lat_acc *a);

double lat_stat_stddev(const struct lat_stat *s);
/* Parallel-variance merge (fio sum_stat). */
void lat_stat_merge(struct lat_stat *dst, const struct lat_stat *src);

/* --- per-I/O accounting, called by the worker on its own thread_stat --- */

void stat_add_clat_bucket(struct thread_stat *ts, uint64_t clat_ns);	/* lat_n/u/m */
void stat_add_depth(uint64_t *map, unsigned n);	/* submit/complete map for a call of n I/Os */
unsigned stat_depth_level_idx(unsigned depth);	/* 1,2,4,...,>=64 index */

/* --- groups --- */

void thread_stat_init(struct thread_stat *ts, const struct job_spec *job);
/* Adds src into dst (group_reporting). */
void thread_stat_merge(struct thread_stat *dst, const struct thread_stat *src);
/* Builds one group_stat per groupid present in ts[], and fills bw_agg_pct. */
int group_stats_build(struct thread_stat *ts, size_t nr_ts, struct group_stat **out,
		      size_t *nr_out);

#endif
