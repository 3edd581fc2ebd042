/*
 * test_hist.c - core/stats.c against fio 3.33's arithmetic: histogram
 * index/value, the percentile rule, Welford moments and their merge, the
 * latency and depth buckets, group_reporting merges and group totals.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "stats.h"

static const double fio_plist[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99,
				    99.5, 99.9, 99.95, 99.99 };
#define FIO_PLIST_NR (sizeof(fio_plist) / sizeof(fio_plist[0]))

/* Deterministic xorshift64*, so a failure reproduces. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

/* Log-uniform latencies from 1 ns to about 2^36 ns, like real spreads. */
static uint64_t rng_lat(void)
{
	unsigned bits = (unsigned)(rng() % 36) + 1;

	return (rng() & ((1ULL << bits) - 1)) | 1;
}

START_TEST(test_hist_index_known)
{
	ck_assert_uint_eq(hist_index(0), 0);
	ck_assert_uint_eq(hist_index(1), 1);
	ck_assert_uint_eq(hist_index(127), 127);
	ck_assert_uint_eq(hist_index(128), 128);
	ck_assert_uint_eq(hist_index(129), 128);	/* 1 error bit: 128 and 129 share */
	ck_assert_uint_eq(hist_index(130), 129);
	ck_assert_uint_eq(hist_index(1000), 317);
	/* the sample's read p50: msb 16, 1024-ns buckets, slot 34 */
	ck_assert_uint_eq(hist_index(100864), 738);
	ck_assert_uint_eq(hist_index(100000), 737);
}
END_TEST

START_TEST(test_hist_value_known)
{
	ck_assert_uint_eq(hist_value(0), 0);
	ck_assert_uint_eq(hist_value(127), 127);
	ck_assert_uint_eq(hist_value(128), 129);	/* [128,130): midpoint 129 */
	ck_assert_uint_eq(hist_value(hist_index(1000)), 1004);
	ck_assert_uint_eq(hist_value(738), 100864);
	ck_assert_uint_eq(hist_value(738), 65536 + 34 * 1024 + 512);
	ck_assert_uint_eq(hist_value(HIST_NR - 1), (1ULL << 33) + 63 * (1ULL << 27) +
			  (1ULL << 26));
	/* out of range asks are clamped rather than read past the array */
	ck_assert_uint_eq(hist_value(HIST_NR + 5), hist_value(HIST_NR - 1));
}
END_TEST

START_TEST(test_hist_clamp)
{
	ck_assert_uint_eq(hist_index((1ULL << 34) - 1), HIST_NR - 1);
	ck_assert_uint_eq(hist_index(1ULL << 34), HIST_NR - 1);
	ck_assert_uint_eq(hist_index(1ULL << 40), HIST_NR - 1);
	ck_assert_uint_eq(hist_index(UINT64_MAX), HIST_NR - 1);
	ck_assert_uint_eq(hist_index((1ULL << 33) - 1), HIST_NR - 65);
}
END_TEST

START_TEST(test_hist_roundtrip)
{
	unsigned idx;

	/* every bucket's representative falls back into that bucket */
	for (idx = 0; idx < HIST_NR; idx++)
		ck_assert_msg(hist_index(hist_value(idx)) == idx, "idx %u -> value %llu -> idx %u",
			      idx, (unsigned long long)hist_value(idx),
			      hist_index(hist_value(idx)));
	/* and buckets are ordered */
	for (idx = 1; idx < HIST_NR; idx++)
		ck_assert_uint_gt(hist_value(idx), hist_value(idx - 1));
}
END_TEST

START_TEST(test_hist_error_bound)
{
	int i;

	/* fio's promise: at most 1/2^(6+1) relative error below 2^34 ns */
	for (i = 0; i < 100000; i++) {
		uint64_t v = rng_lat() & ((1ULL << 34) - 1);
		double err;

		if (!v)
			continue;
		err = fabs((double)hist_value(hist_index(v)) - (double)v) / (double)v;
		ck_assert_msg(err <= 1.0 / 128.0, "value %llu -> %llu, error %f",
			      (unsigned long long)v,
			      (unsigned long long)hist_value(hist_index(v)), err);
	}
}
END_TEST

START_TEST(test_percentiles_identical)
{
	static uint64_t hist[HIST_NR];
	uint64_t out[FIO_PLIST_NR];
	unsigned i;

	memset(hist, 0, sizeof(hist));
	hist[hist_index(5000)] = 1000;
	ck_assert_uint_eq(hist_percentiles(hist, fio_plist, FIO_PLIST_NR, out), 1000);
	for (i = 0; i < FIO_PLIST_NR; i++)
		ck_assert_uint_eq(out[i], hist_value(hist_index(5000)));
	ck_assert_uint_eq(out[0], 5024);
}
END_TEST

START_TEST(test_percentiles_small)
{
	static uint64_t hist[HIST_NR];
	static const double p[] = { 1, 50, 99, 99.5, 100 };
	uint64_t out[5];
	unsigned v;

	/* 1..100 ns are exact buckets: p-th percentile is the ceil(p)-th value */
	memset(hist, 0, sizeof(hist));
	for (v = 1; v <= 100; v++)
		hist[v] = 1;
	ck_assert_uint_eq(hist_percentiles(hist, p, 5, out), 100);
	ck_assert_uint_eq(out[0], 1);
	ck_assert_uint_eq(out[1], 50);
	ck_assert_uint_eq(out[2], 99);
	ck_assert_uint_eq(out[3], 100);
	ck_assert_uint_eq(out[4], 100);
}
END_TEST

START_TEST(test_percentiles_empty)
{
	static uint64_t hist[HIST_NR];
	uint64_t out[FIO_PLIST_NR];
	unsigned i;

	/* fio prints 0 for every slot of a direction that did nothing (terse) */
	memset(hist, 0, sizeof(hist));
	ck_assert_uint_eq(hist_percentiles(hist, fio_plist, FIO_PLIST_NR, out), 0);
	for (i = 0; i < FIO_PLIST_NR; i++)
		ck_assert_uint_eq(out[i], 0);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

START_TEST(test_percentiles_vs_sorted)
{
	enum { N = 4999 };
	static uint64_t hist[HIST_NR], v[N];
	uint64_t out[FIO_PLIST_NR];
	unsigned i;

	/*
	 * fio's rule restated on raw samples: the first bucket where the
	 * running count reaches p/100*N holds the ceil(p/100*N)-th smallest.
	 */
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < N; i++) {
		v[i] = rng_lat();
		hist[hist_index(v[i])]++;
	}
	qsort(v, N, sizeof(v[0]), cmp_u64);
	ck_assert_uint_eq(hist_percentiles(hist, fio_plist, FIO_PLIST_NR, out), N);
	for (i = 0; i < FIO_PLIST_NR; i++) {
		long double rank = ceill((long double)fio_plist[i] / 100.0L * N);
		uint64_t want = hist_value(hist_index(v[(size_t)rank - 1]));

		ck_assert_msg(out[i] == want, "p%g: got %llu, want %llu", fio_plist[i],
			      (unsigned long long)out[i], (unsigned long long)want);
	}
}
END_TEST

START_TEST(test_welford_vs_two_pass)
{
	enum { N = 10000 };
	static uint64_t v[N];
	struct lat_stat s;
	double sum = 0, mean, ss = 0, sd;
	uint64_t min = UINT64_MAX, max = 0;
	unsigned i;

	memset(&s, 0, sizeof(s));
	for (i = 0; i < N; i++) {
		v[i] = rng() % 10000000 + 1000;
		lat_stat_add(&s, v[i]);
		sum += (double)v[i];
		if (v[i] < min)
			min = v[i];
		if (v[i] > max)
			max = v[i];
	}
	mean = sum / N;
	for (i = 0; i < N; i++)
		ss += ((double)v[i] - mean) * ((double)v[i] - mean);
	sd = sqrt(ss / (N - 1));

	ck_assert_uint_eq(s.n, N);
	ck_assert_uint_eq(s.min, min);
	ck_assert_uint_eq(s.max, max);
	ck_assert_double_eq_tol(s.mean, mean, mean * 1e-12);
	ck_assert_double_eq_tol(lat_stat_stddev(&s), sd, sd * 1e-9);
}
END_TEST

START_TEST(test_stddev_small_n)
{
	struct lat_stat s;

	memset(&s, 0, sizeof(s));
	ck_assert_double_eq(lat_stat_stddev(&s), 0.0);
	lat_stat_add(&s, 42);
	ck_assert_double_eq(lat_stat_stddev(&s), 0.0);
	ck_assert_uint_eq(s.min, 42);
	ck_assert_uint_eq(s.max, 42);
	lat_stat_add(&s, 44);
	/* sample stddev of {42, 44}: sqrt(2 / 1) */
	ck_assert_double_eq_tol(lat_stat_stddev(&s), sqrt(2.0), 1e-12);
}
END_TEST

START_TEST(test_merge_is_union)
{
	struct lat_stat a, b, all, empty;
	unsigned i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&all, 0, sizeof(all));
	memset(&empty, 0, sizeof(empty));
	for (i = 0; i < 3000; i++) {
		uint64_t v = rng() % 1000000;

		lat_stat_add(i % 3 ? &a : &b, v + (i % 3 ? 0 : 500000));
		lat_stat_add(&all, v + (i % 3 ? 0 : 500000));
	}
	lat_stat_merge(&a, &b);
	ck_assert_uint_eq(a.n, all.n);
	ck_assert_uint_eq(a.min, all.min);
	ck_assert_uint_eq(a.max, all.max);
	ck_assert_double_eq_tol(a.mean, all.mean, all.mean * 1e-12);
	ck_assert_double_eq_tol(lat_stat_stddev(&a), lat_stat_stddev(&all),
				lat_stat_stddev(&all) * 1e-9);

	/* an empty side changes nothing, and an empty destination copies */
	lat_stat_merge(&a, &empty);
	ck_assert_uint_eq(a.n, all.n);
	lat_stat_merge(&empty, &all);
	ck_assert_uint_eq(empty.n, all.n);
	ck_assert_uint_eq(empty.min, all.min);
	ck_assert_double_eq(empty.mean, all.mean);
}
END_TEST

/* Batches folded in (the worker's completion path) give what adding one by one gives. */
START_TEST(test_fold_is_one_by_one)
{
	struct lat_stat one, folded;
	struct lat_acc acc;
	unsigned i, batch = 0;

	memset(&one, 0, sizeof(one));
	memset(&folded, 0, sizeof(folded));
	memset(&acc, 0, sizeof(acc));
	lat_stat_fold(&folded, &acc);	/* an empty batch changes nothing */
	ck_assert_uint_eq(folded.n, 0);
	for (i = 0; i < 20000; i++) {
		/* a tight cluster far from zero: where a naive sum-of-squares loses digits */
		uint64_t v = 50000000000ull + rng() % 1000;

		lat_stat_add(&one, v);
		lat_acc_add(&acc, v);
		/* batches of 1 to 64, as reaps return them */
		if (++batch >= i % 64 + 1) {
			lat_stat_fold(&folded, &acc);
			ck_assert_uint_eq(acc.n, 0);
			batch = 0;
		}
	}
	lat_stat_fold(&folded, &acc);
	ck_assert_uint_eq(folded.n, one.n);
	ck_assert_uint_eq(folded.min, one.min);
	ck_assert_uint_eq(folded.max, one.max);
	ck_assert_double_eq_tol(folded.mean, one.mean, one.mean * 1e-12);
	ck_assert_double_eq_tol(lat_stat_stddev(&folded), lat_stat_stddev(&one),
				lat_stat_stddev(&one) * 1e-6);

	/* values too large for the exact sums (n * max >= 2^64) still fold sanely */
	memset(&one, 0, sizeof(one));
	memset(&folded, 0, sizeof(folded));
	for (i = 0; i < 4; i++) {
		uint64_t v = (1ull << 63) + i * 1000000000ull;

		lat_stat_add(&one, v);
		lat_acc_add(&acc, v);
	}
	lat_stat_fold(&folded, &acc);
	ck_assert_uint_eq(folded.n, 4);
	ck_assert_double_eq_tol(folded.mean, one.mean, one.mean * 1e-12);
	ck_assert(folded.m2 >= 0);
}
END_TEST

START_TEST(test_clat_buckets)
{
	static const struct {
		uint64_t ns;
		char unit;	/* n, u, m */
		unsigned idx;
	} cases[] = {
		{ 0, 'n', 0 }, { 1, 'n', 0 }, { 2, 'n', 1 }, { 3, 'n', 1 }, { 4, 'n', 2 },
		{ 9, 'n', 2 }, { 10, 'n', 3 }, { 249, 'n', 6 }, { 250, 'n', 7 },
		{ 999, 'n', 9 },
		{ 1000, 'u', 0 }, { 1999, 'u', 0 }, { 2000, 'u', 1 }, { 3999, 'u', 1 },
		{ 4000, 'u', 2 }, { 49999, 'u', 4 }, { 50000, 'u', 5 }, { 749999, 'u', 8 },
		{ 750000, 'u', 9 }, { 999999, 'u', 9 },
		{ 1000000, 'm', 0 }, { 1999999, 'm', 0 }, { 2000000, 'm', 1 },
		{ 999999999, 'm', 9 }, { 1000000000, 'm', 10 }, { 1999999999, 'm', 10 },
		{ 2000000000, 'm', 11 }, { UINT64_MAX / 2, 'm', 11 },
	};
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct thread_stat ts;
		const uint64_t *map;
		unsigned nr, k;

		memset(&ts, 0, sizeof(ts));
		stat_add_clat_bucket(&ts, cases[i].ns);
		map = cases[i].unit == 'n' ? ts.lat_n : cases[i].unit == 'u' ? ts.lat_u : ts.lat_m;
		nr = cases[i].unit == 'n' ? LAT_N_NR : cases[i].unit == 'u' ? LAT_U_NR : LAT_M_NR;
		for (k = 0; k < nr; k++)
			ck_assert_msg(map[k] == (k == cases[i].idx), "%llu ns: lat_%c[%u] = %llu",
				      (unsigned long long)cases[i].ns, cases[i].unit, k,
				      (unsigned long long)map[k]);
	}
}
END_TEST

START_TEST(test_depth_maps)
{
	static const unsigned n[] = { 0, 1, 4, 5, 8, 9, 16, 17, 32, 33, 64, 65, 1000 };
	static const unsigned want[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6 };
	static const unsigned depth[] = { 0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 1000 };
	static const unsigned level[] = { 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6 };
	unsigned i;

	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		uint64_t map[DEPTH_MAP_NR] = { 0 };

		stat_add_depth(map, n[i]);
		ck_assert_msg(map[want[i]] == 1, "batch of %u: slot %u is %llu", n[i], want[i],
			      (unsigned long long)map[want[i]]);
	}
	for (i = 0; i < sizeof(depth) / sizeof(depth[0]); i++)
		ck_assert_msg(stat_depth_level_idx(depth[i]) == level[i], "depth %u: %u, want %u",
			      depth[i], stat_depth_level_idx(depth[i]), level[i]);
}
END_TEST

static void fake_job(struct thread_stat *ts, struct job_spec *job, const char *name,
		     uint64_t bytes, uint64_t runtime, uint64_t bw_kib)
{
	unsigned i;

	thread_stat_init(ts, job);
	snprintf(ts->name, sizeof(ts->name), "%s", name);
	ts->dir[DDIR_READ].io_bytes = bytes;
	ts->dir[DDIR_READ].total_ios = bytes / 4096;
	ts->dir[DDIR_READ].runtime_ms = runtime;
	for (i = 0; i < 100; i++) {
		uint64_t v = 1000 + rng() % 100000;

		lat_stat_add(&ts->dir[DDIR_READ].clat, v);
		ts->dir[DDIR_READ].clat_hist[hist_index(v)]++;
	}
	lat_stat_add(&ts->dir[DDIR_READ].bw, bw_kib);
	lat_stat_add(&ts->dir[DDIR_READ].bw, bw_kib + 100);
	ts->job_runtime_ms = runtime;
	ts->usr_us = 1000;
	ts->depth_level[3] = bytes / 4096;
}

START_TEST(test_thread_stat_merge)
{
	static struct thread_stat a, b, g;
	struct job_spec ja, jb;
	struct lat_stat all;
	uint64_t hsum = 0;
	unsigned i;

	memset(&ja, 0, sizeof(ja));
	memset(&jb, 0, sizeof(jb));
	ja.name = "first";
	jb.name = "second";
	ja.groupid = jb.groupid = 2;
	ja.iodepth = jb.iodepth = 4;
	fake_job(&a, &ja, "first", 4096 * 1000, 2000, 5000);
	fake_job(&b, &jb, "second", 4096 * 3000, 3000, 7000);
	ck_assert_uint_eq(a.nr_jobs, 1);
	ck_assert_int_eq(a.groupid, 2);
	ck_assert_uint_eq(a.latency_depth, 4);

	thread_stat_init(&g, NULL);
	ck_assert_uint_eq(g.nr_jobs, 0);
	thread_stat_merge(&g, &a);
	thread_stat_merge(&g, &b);

	ck_assert_str_eq(g.name, "first");
	ck_assert_int_eq(g.groupid, 2);
	ck_assert_uint_eq(g.nr_jobs, 2);
	ck_assert_ptr_eq(g.job, &jb);	/* fio: the options of the last job */
	ck_assert_uint_eq(g.dir[0].io_bytes, 4096 * 4000);
	ck_assert_uint_eq(g.dir[0].total_ios, 4000);
	ck_assert_uint_eq(g.dir[0].runtime_ms, 3000);
	ck_assert_uint_eq(g.job_runtime_ms, 5000);
	ck_assert_uint_eq(g.usr_us, 2000);
	ck_assert_uint_eq(g.depth_level[3], 4000);
	for (i = 0; i < HIST_NR; i++)
		hsum += g.dir[0].clat_hist[i];
	ck_assert_uint_eq(hsum, 200);

	all = a.dir[0].clat;
	lat_stat_merge(&all, &b.dir[0].clat);
	ck_assert_uint_eq(g.dir[0].clat.n, 200);
	ck_assert_double_eq(g.dir[0].clat.mean, all.mean);

	/* bandwidth of jobs side by side adds up (fio sum_stat pure_sum) */
	ck_assert_uint_eq(g.dir[0].bw.min, 12000);
	ck_assert_uint_eq(g.dir[0].bw.max, 12200);
	ck_assert_double_eq_tol(g.dir[0].bw.mean, 12100.0, 1e-9);
	ck_assert_uint_eq(g.dir[0].bw.n, 4);
}
END_TEST

START_TEST(test_group_stats)
{
	static struct thread_stat ts[3];
	struct job_spec j0, j1;
	struct group_stat *gs;
	size_t nr;

	memset(&j0, 0, sizeof(j0));
	memset(&j1, 0, sizeof(j1));
	j0.name = "a";
	j1.name = "b";
	j1.groupid = 1;
	fake_job(&ts[0], &j0, "a", 400000000, 4000, 97656);
	fake_job(&ts[1], &j0, "a", 100000000, 2000, 48828);
	fake_job(&ts[2], &j1, "b", 10240, 10, 1000);

	ck_assert_int_eq(group_stats_build(ts, 3, &gs, &nr), 0);
	ck_assert_uint_eq(nr, 2);
	ck_assert_int_eq(gs[0].groupid, 0);
	ck_assert_int_eq(gs[1].groupid, 1);
	ck_assert_uint_eq(gs[0].io_bytes[0], 500000000);
	ck_assert_uint_eq(gs[0].min_run[0], 2000);
	ck_assert_uint_eq(gs[0].max_run[0], 4000);
	/* aggregate is all bytes over the longest runtime */
	ck_assert_uint_eq(gs[0].agg_bw[0], 500000000ULL * 1000 / 4000);
	ck_assert_uint_eq(gs[0].min_bw[0], 50000000);
	ck_assert_uint_eq(gs[0].max_bw[0], 100000000);
	ck_assert_uint_eq(gs[0].max_run[1], 0);
	ck_assert_uint_eq(gs[0].kb_base, 1024);
	ck_assert_uint_eq(gs[1].agg_bw[0], 1024000);

	/* fio: int(bw_mean) * 100 / (agg / 1024.0), at most 100 */
	ck_assert_double_eq_tol(ts[0].dir[0].bw_agg_pct,
				97706.0 * 100.0 / (125000000.0 / 1024.0), 1e-9);
	ck_assert_double_eq_tol(ts[1].dir[0].bw_agg_pct,
				48878.0 * 100.0 / (125000000.0 / 1024.0), 1e-9);
	ck_assert_double_eq(ts[2].dir[0].bw_agg_pct, 100.0);
	ck_assert_double_eq(ts[0].dir[1].bw_agg_pct, 0.0);
	free(gs);

	ck_assert_int_eq(group_stats_build(ts, 0, &gs, &nr), 0);
	ck_assert_uint_eq(nr, 0);
	ck_assert_ptr_null(gs);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hist_index_known);
	tcase_add_test(tc, test_hist_value_known);
	tcase_add_test(tc, test_hist_clamp);
	tcase_add_test(tc, test_hist_roundtrip);
	tcase_add_test(tc, test_hist_error_bound);
	tcase_add_test(tc, test_percentiles_identical);
	tcase_add_test(tc, test_percentiles_small);
	tcase_add_test(tc, test_percentiles_empty);
	tcase_add_test(tc, test_percentiles_vs_sorted);
	tcase_add_test(tc, test_welford_vs_two_pass);
	tcase_add_test(tc, test_stddev_small_n);
	tcase_add_test(tc, test_merge_is_union);
	tcase_add_test(tc, test_fold_is_one_by_one);
	tcase_add_test(tc, test_clat_buckets);
	tcase_add_test(tc, test_depth_maps);
	tcase_add_test(tc, test_thread_stat_merge);
	tcase_add_test(tc, test_group_stats);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(hist_suite)
