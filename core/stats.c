/*
 * stats.c - the arithmetic behind a run's numbers: fio's log-linear
 * histogram, its percentile rule, latency moments and their merge, the
 * depth and latency distributions, and the reporting-group totals.
 *
 * Every formula here mirrors fio 3.33 (stat.c, io_u.c) so that the reports
 * read the same as fio's for the same measurements. Nothing here prints or
 * allocates except group_stats_build().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* fio plat_idx_to_val: the middle of the bucket's range. */
uint64_t hist_value(unsigned idx)
{
	unsigned error_bits;
	uint64_t base, k;

	if (idx >= HIST_NR)
		idx = HIST_NR - 1;
	/* the first two groups hold one value per bucket */
	if (idx < 2 * HIST_VAL)
		return idx;

	error_bits = (idx >> HIST_BITS) - 1;
	base = (uint64_t)1 << (error_bits + HIST_BITS);
	k = idx % HIST_VAL;
	/* error_bits >= 1 here, so (k + 0.5) << error_bits is a whole number */
	return base + (uint64_t)((k + 0.5) * (double)((uint64_t)1 << error_bits));
}

uint64_t hist_percentiles(const uint64_t *hist, const double *plist, unsigned nr,
			  uint64_t *out)
{
	uint64_t total = 0, sum = 0;
	unsigned i, j = 0;

	for (i = 0; i < HIST_NR; i++)
		total += hist[i];
	for (i = 0; i < nr; i++)
		out[i] = 0;
	if (!nr)
		return total;

	/*
	 * fio compares in long double; keep it so a count sitting exactly on
	 * p/100 * N falls in the same bucket as fio puts it.
	 */
	for (i = 0; i < HIST_NR && j < nr; i++) {
		sum += hist[i];
		while (j < nr &&
		       (long double)sum >= (long double)plist[j] / 100.0L * (long double)total) {
			out[j] = hist_value(i);
			j++;
		}
	}
	return total;
}

double lat_stat_stddev(const struct lat_stat *s)
{
	if (s->n <= 1)
		return 0.0;
	return sqrt(s->m2 / (double)(s->n - 1));
}

void lat_stat_fold(struct lat_stat *s, struct lat_acc *a)
{
	struct lat_stat b;

	if (!a->n)
		return;
	b.n = a->n;
	b.min = a->min;
	b.max = a->max;
	b.mean = (double)a->sum / (double)a->n;
	if (a->max <= UINT64_MAX / a->n)
		/* n * sum(v^2) - (sum v)^2 is exact in 128 bits while n * max < 2^64 */
		b.m2 = (double)(a->sumsq * a->n - a->sum * a->sum) / (double)a->n;
	else
		b.m2 = (double)((long double)a->sumsq - (long double)a->sum * b.mean);
	if (b.m2 < 0)
		b.m2 = 0;
	lat_stat_merge(s, &b);
	memset(a, 0, sizeof(*a));
}

void lat_stat_merge(struct lat_stat *dst, const struct lat_stat *src)
{
	double delta, n1, n2;

	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}

	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;

	/* Chan et al.'s parallel variance, written as fio's __sum_stat does */
	n1 = (double)dst->n;
	n2 = (double)src->n;
	delta = src->mean - dst->mean;
	dst->mean = (src->mean * n2 + dst->mean * n1) / (n1 + n2);
	dst->m2 = src->m2 + dst->m2 + delta * delta * (n1 * n2) / (n1 + n2);
	dst->n += src->n;
}

/*
 * fio's sum_stat(..., pure_sum): bandwidth and IOPS samples of jobs that
 * ran side by side add up rather than average, so every moment is summed.
 */
static void lat_stat_sum(struct lat_stat *dst, const struct lat_stat *src)
{
	if (!src->n)
		return;
	if (!dst->n) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->n += src->n;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

/* Index of the first bound greater than v; nr when there is none. */
static unsigned bucket_of(const unsigned *bounds, unsigned nr, uint64_t v)
{
	unsigned i;

	for (i = 0; i < nr; i++)
		if (v < bounds[i])
			break;
	return i;
}

void stat_add_clat_bucket(struct thread_stat *ts, uint64_t clat_ns)
{
	/* fio io_u_mark_lat_*: the key of bucket k is its exclusive upper bound */
	static const unsigned bounds[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
					   2000 };

	if (clat_ns < 1000)
		ts->lat_n[bucket_of(bounds, LAT_N_NR, clat_ns)]++;
	else if (clat_ns < 1000000)
		ts->lat_u[bucket_of(bounds, LAT_U_NR, clat_ns / 1000)]++;
	else
		ts->lat_m[bucket_of(bounds, LAT_M_NR - 1, clat_ns / 1000000)]++;
}

void stat_add_depth(uint64_t *map, unsigned n)
{
	unsigned idx;

	if (n == 0)
		idx = 0;
	else if (n <= 4)
		idx = 1;
	else if (n <= 8)
		idx = 2;
	else if (n <= 16)
		idx = 3;
	else if (n <= 32)
		idx = 4;
	else if (n <= 64)
		idx = 5;
	else
		idx = 6;
	map[idx]++;
}

unsigned stat_depth_level_idx(unsigned depth)
{
	unsigned idx;

	/* fio never marks depth 0 (an I/O is in flight); count it with 1 */
	if (depth <= 1)
		return 0;
	idx = 31 - (unsigned)__builtin_clz(depth);
	return idx < DEPTH_MAP_NR - 1 ? idx : DEPTH_MAP_NR - 1;
}

/*
 * With a job: that job's own statistics, nr_jobs = 1. Without: an empty
 * accumulator for group_reporting (nr_jobs = 0, groupid = -1) that takes its
 * name, description and group from the first thread_stat merged into it.
 */
void thread_stat_init(struct thread_stat *ts, const struct job_spec *job)
{
	memset(ts, 0, sizeof(*ts));
	ts->groupid = -1;
	if (!job)
		return;

	if (job->name)
		snprintf(ts->name, sizeof(ts->name), "%s", job->name);
	ts->description = job->description;
	ts->groupid = job->groupid;
	ts->nr_jobs = 1;
	ts->job = job;
	ts->latency_depth = job->iodepth;
}

static void hist_sum(uint64_t *dst, const uint64_t *src)
{
	unsigned i;

	for (i = 0; i < HIST_NR; i++)
		dst[i] += src[i];
}

static void ddir_stat_merge(struct ddir_stat *dst, const struct ddir_stat *src)
{
	dst->io_bytes += src->io_bytes;
	dst->total_ios += src->total_ios;
	dst->short_ios += src->short_ios;
	dst->drop_ios += src->drop_ios;
	/* clones run side by side: the group ran as long as its slowest */
	if (src->runtime_ms > dst->runtime_ms)
		dst->runtime_ms = src->runtime_ms;
	lat_stat_merge(&dst->slat, &src->slat);
	lat_stat_merge(&dst->clat, &src->clat);
	lat_stat_merge(&dst->lat, &src->lat);
	hist_sum(dst->clat_hist, src->clat_hist);
	hist_sum(dst->lat_hist, src->lat_hist);
	hist_sum(dst->slat_hist, src->slat_hist);
	lat_stat_sum(&dst->bw, &src->bw);
	lat_stat_sum(&dst->iops, &src->iops);
}

void thread_stat_merge(struct thread_stat *dst, const struct thread_stat *src)
{
	unsigned i;

	if (!dst->nr_jobs && dst->groupid < 0) {
		memcpy(dst->name, src->name, sizeof(dst->name));
		dst->description = src->description;
		dst->groupid = src->groupid;
	}
	if (!dst->error && src->error) {
		dst->error = src->error;
		memcpy(dst->error_msg, src->error_msg, sizeof(dst->error_msg));
	}
	dst->nr_jobs += src->nr_jobs ? src->nr_jobs : 1;
	/* fio reports the options of the last job of a group (fio #2132) */
	if (src->job)
		dst->job = src->job;

	for (i = 0; i < DDIR_RWDIR_CNT; i++)
		ddir_stat_merge(&dst->dir[i], &src->dir[i]);
	dst->sync_total += src->sync_total;
	lat_stat_merge(&dst->sync_lat, &src->sync_lat);
	hist_sum(dst->sync_hist, src->sync_hist);

	if (src->elapsed_ms > dst->elapsed_ms)
		dst->elapsed_ms = src->elapsed_ms;
	/* summed, as fio: CPU% then reads as the average per job */
	dst->job_runtime_ms += src->job_runtime_ms;
	dst->usr_us += src->usr_us;
	dst->sys_us += src->sys_us;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;

	for (i = 0; i < DEPTH_MAP_NR; i++) {
		dst->depth_level[i] += src->depth_level[i];
		dst->submit_map[i] += src->submit_map[i];
		dst->complete_map[i] += src->complete_map[i];
	}
	dst->total_submit += src->total_submit;
	dst->total_complete += src->total_complete;
	dst->total_io_u += src->total_io_u;
	for (i = 0; i < LAT_N_NR; i++)
		dst->lat_n[i] += src->lat_n[i];
	for (i = 0; i < LAT_U_NR; i++)
		dst->lat_u[i] += src->lat_u[i];
	for (i = 0; i < LAT_M_NR; i++)
		dst->lat_m[i] += src->lat_m[i];

	dst->total_err += src->total_err;
	/* fio takes the last job's, even 0; keep the first error that happened */
	if (!dst->first_error)
		dst->first_error = src->first_error;
	if (src->latency_depth)
		dst->latency_depth = src->latency_depth;
}

/* fio convert_agg_kbytes_percent: note the mean is truncated to an integer. */
static double bw_agg_pct(const struct lat_stat *bw, uint64_t agg)
{
	double pct;

	if (!bw->n)
		return 0.0;
	if (agg <= 1024)
		return 100.0;
	pct = (double)(int64_t)bw->mean * 100.0 / ((double)agg / 1024.0);
	return pct > 100.0 ? 100.0 : pct;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The distinct group ids of ts[], ascending; returns how many, -ENOMEM. */
static int group_ids(const struct thread_stat *ts, size_t nr_ts, int **ids)
{
	size_t i, n = 0, k;
	int *v;

	v = malloc((nr_ts ? nr_ts : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < nr_ts; i++)
		if (ts[i].groupid >= 0)
			v[n++] = ts[i].groupid;
	qsort(v, n, sizeof(*v), cmp_int);
	for (i = 0, k = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*ids = v;
	return (int)k;
}

static void group_add(struct group_stat *gs, const struct thread_stat *ts)
{
	unsigned d;

	if (!gs->kb_base && ts->job && ts->job->kb_base)
		gs->kb_base = ts->job->kb_base;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		const struct ddir_stat *ds = &ts->dir[d];
		uint64_t bw;
		bool first;

		/* fio: a job that did not run this direction does not count */
		if (!ds->runtime_ms)
			continue;
		first = !gs->max_run[d];
		bw = ds->io_bytes * 1000 / ds->runtime_ms;
		if (first || ds->runtime_ms < gs->min_run[d])
			gs->min_run[d] = ds->runtime_ms;
		if (ds->runtime_ms > gs->max_run[d])
			gs->max_run[d] = ds->runtime_ms;
		if (first || bw < gs->min_bw[d])
			gs->min_bw[d] = bw;
		if (bw > gs->max_bw[d])
			gs->max_bw[d] = bw;
		gs->io_bytes[d] += ds->io_bytes;
	}
}

int group_stats_build(struct thread_stat *ts, size_t nr_ts, struct group_stat **out,
		      size_t *nr_out)
{
	struct group_stat *gs;
	int *ids = NULL;
	int nr;
	size_t g, i;
	unsigned d;

	*out = NULL;
	*nr_out = 0;
	nr = group_ids(ts, nr_ts, &ids);
	if (nr < 0)
		return nr;
	if (!nr) {
		free(ids);
		return 0;
	}
	gs = calloc((size_t)nr, sizeof(*gs));
	if (!gs) {
		free(ids);
		return -ENOMEM;
	}

	for (g = 0; g < (size_t)nr; g++) {
		gs[g].groupid = ids[g];
		for (i = 0; i < nr_ts; i++)
			if (ts[i].groupid == ids[g])
				group_add(&gs[g], &ts[i]);
		if (!gs[g].kb_base)
			gs[g].kb_base = 1024;
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			if (gs[g].max_run[d])
				gs[g].agg_bw[d] = gs[g].io_bytes[d] * 1000 / gs[g].max_run[d];
		for (i = 0; i < nr_ts; i++) {
			if (ts[i].groupid != ids[g])
				continue;
			for (d = 0; d < DDIR_RWDIR_CNT; d++)
				ts[i].dir[d].bw_agg_pct = bw_agg_pct(&ts[i].dir[d].bw,
								     gs[g].agg_bw[d]);
		}
	}
	free(ids);
	*out = gs;
	*nr_out = (size_t)nr;
	return 0;
}
