/*
 * test_series.c - the time series a saved result keeps (core/series.h) fed
 * with synthetic live records: a long run stays within its bound, the
 * buckets' counts add up to the run's totals even when records are dropped,
 * min <= mean <= max survives downsampling, ramp ticks are left out, and
 * phase labels are the ones core/results.c gives.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "ring.h"
#include "run.h"
#include "series.h"
#include "worker.h"

#define NW 3

struct sim {
	struct series *s;
	uint64_t tot_ios[NW], tot_bytes[NW];
	uint64_t t_ns;
	uint64_t max_iops_fed;
	unsigned seed;
};

static const char *names[NW] = { "seq", "seq", "rand" };
static const int groups[NW] = { 0, 0, 1 };
static const char *disks[1] = { "sdz" };

static void sim_init(struct sim *m, const char *const *n, const int *g)
{
	struct run_layout lay = { .nr_workers = NW, .worker_names = n, .worker_groups = g,
				  .nr_disks = 1, .disk_names = disks, .interval_ms = 100 };

	memset(m, 0, sizeof(*m));
	m->s = series_new(&lay);
	m->seed = 12345;
	ck_assert_ptr_nonnull(m->s);
}

static unsigned rnd(struct sim *m)
{
	m->seed = m->seed * 1103515245u + 12345u;
	return (m->seed >> 8) & 0xffff;
}

/* Feeds rec unless the drop rate says the ring lost it. */
static void feed(struct sim *m, const struct live_rec *rec, unsigned drop_pct)
{
	if (drop_pct && rnd(m) % 100 < drop_pct)
		return;
	series_feed(m->s, rec);
}

/*
 * One 100 ms tick in which workers [from, to) read; each does ios_of(tick)
 * I/Os of 4 KiB. state is the workers' phase (PHASE_RUN, PHASE_RAMP).
 */
static void tick(struct sim *m, size_t from, size_t to, int state, unsigned drop_pct)
{
	struct live_rec rec;
	uint64_t tick_ios = 0;
	size_t i;

	m->t_ns += 100000000ull;
	for (i = from; i < to; i++) {
		uint32_t ios = state == PHASE_RAMP ? 0 : 100 + rnd(m) % 900;

		m->tot_ios[i] += ios;
		m->tot_bytes[i] += (uint64_t)ios * 4096;
		tick_ios += ios;
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_IO;
		rec.ddir = DDIR_READ;
		rec.job = (uint16_t)i;
		rec.t_ns = m->t_ns;
		rec.u.io.ios = ios;
		rec.u.io.bytes = (uint64_t)ios * 4096;
		rec.u.io.tot_ios = m->tot_ios[i];
		rec.u.io.tot_bytes = m->tot_bytes[i];
		rec.u.io.p50_ns = 1000 + ios;
		rec.u.io.p99_ns = 5000 + ios;
		rec.u.io.p999_ns = 9000 + ios;
		feed(m, &rec, drop_pct);
		memset(&rec, 0, sizeof(rec));
		rec.type = LIVE_STATUS;
		rec.ddir = (uint8_t)state;
		rec.job = (uint16_t)i;
		rec.t_ns = m->t_ns;
		feed(m, &rec, drop_pct);
	}
	/* the first tick of a phase is partial: it has counts but no rate */
	if (m->t_ns > 100000000ull && tick_ios * 10 > m->max_iops_fed)
		m->max_iops_fed = tick_ios * 10;
	memset(&rec, 0, sizeof(rec));
	rec.type = LIVE_IO;
	rec.ddir = DDIR_READ;
	rec.job = LIVE_TOTAL;
	rec.t_ns = m->t_ns;
	rec.u.io.ios = (uint32_t)tick_ios;
	rec.u.io.p50_ns = 777;
	rec.u.io.p99_ns = 8888;
	rec.u.io.p999_ns = 99999;
	feed(m, &rec, drop_pct);
	memset(&rec, 0, sizeof(rec));
	rec.type = LIVE_DISK;
	rec.job = 0;
	rec.t_ns = m->t_ns;
	rec.u.disk.io_ticks = 50 + rnd(m) % 51;
	rec.u.disk.interval_ms = 100;
	rec.u.disk.util_meaningful = 1;
	feed(m, &rec, drop_pct);
	memset(&rec, 0, sizeof(rec));
	rec.type = LIVE_TICK_END;
	rec.t_ns = m->t_ns;
	feed(m, &rec, drop_pct);
}

static void end(struct sim *m)
{
	struct live_rec rec = { .type = LIVE_END, .t_ns = m->t_ns + 1000 };

	series_feed(m->s, &rec);
}

static const struct series_track *track_named(struct sim *m, const char *label)
{
	for (size_t i = 0; i < series_nr_tracks(m->s, 0); i++)
		if (!strcmp(series_track_at(m->s, 0, i)->label, label))
			return series_track_at(m->s, 0, i);
	return NULL;
}

static void check_totals(const struct series_track *t, uint64_t ios, uint64_t bytes)
{
	uint64_t sum_ios = 0, sum_bytes = 0;

	ck_assert_ptr_nonnull(t);
	for (size_t i = 0; i < t->nr; i++) {
		sum_ios += t->pts[i].ios;
		sum_bytes += t->pts[i].bytes;
	}
	ck_assert_uint_eq(sum_ios, ios);
	ck_assert_uint_eq(sum_bytes, bytes);
}

/* Sum of a JSON array of integers under key in obj. */
static uint64_t json_sum(json_object *obj, const char *key)
{
	json_object *a;
	uint64_t sum = 0;

	ck_assert(json_object_object_get_ex(obj, key, &a));
	for (size_t i = 0; i < json_object_array_length(a); i++)
		sum += (uint64_t)json_object_get_int64(json_object_array_get_idx(a, i));
	return sum;
}

START_TEST(long_run_stays_bounded)
{
	struct sim m;
	const struct series_track *seq, *rnd_t;
	size_t ticks = 200000, i, len;	/* 5.5 hours of 100 ms ticks */
	json_object *root, *phases, *p, *devs;
	double top = 0;
	char *js;

	sim_init(&m, names, groups);
	for (i = 0; i < ticks; i++)
		tick(&m, 0, 2, PHASE_RUN, 0);
	for (i = 0; i < 1000; i++)
		tick(&m, 2, 3, PHASE_RUN, 0);
	end(&m);
	seq = track_named(&m, "seq");
	rnd_t = track_named(&m, "rand");
	ck_assert_uint_le(seq->nr, SERIES_MAX_POINTS);
	ck_assert_uint_gt(seq->nr, SERIES_MAX_POINTS / 2);
	ck_assert_uint_le(rnd_t->nr, SERIES_MAX_POINTS);
	ck_assert_uint_le(series_track_at(m.s, 1, 0)->nr, SERIES_MAX_POINTS);
	check_totals(seq, m.tot_ios[0] + m.tot_ios[1], m.tot_bytes[0] + m.tot_bytes[1]);
	check_totals(rnd_t, m.tot_ios[2], m.tot_bytes[2]);
	for (i = 0; i < seq->nr; i++) {
		const struct series_stat *st = &seq->pts[i].st[SERIES_IOPS];

		ck_assert(st->min <= st->sum / st->n + 1e-6);
		ck_assert(st->sum / st->n <= st->max + 1e-6);
		if (st->max > top)
			top = st->max;
		/* even resolution: every bucket but the last is full */
		if (i + 1 < seq->nr)
			ck_assert_uint_eq(seq->pts[i].ticks, seq->per_point);
		ck_assert_uint_le(seq->pts[i].ticks, seq->per_point);
		/* buckets are contiguous and in time order */
		if (i)
			ck_assert_uint_eq(seq->pts[i].t0_ns, seq->pts[i - 1].t1_ns);
	}
	/* downsampling keeps the highest tick as a bucket's max */
	ck_assert_double_eq_tol(top, (double)m.max_iops_fed, 1e-3);

	root = series_json(m.s);
	ck_assert_ptr_nonnull(root);
	js = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
	len = strlen(js);
	/* 3 series of at most 256 buckets of 26 numbers: well under 256 KiB */
	ck_assert_uint_lt(len, 256 * 1024);
	ck_assert(json_object_object_get_ex(root, "phases", &phases));
	ck_assert_uint_eq(json_object_array_length(phases), 2);
	p = json_object_array_get_idx(phases, 0);
	ck_assert_uint_eq(json_sum(p, "ios"), m.tot_ios[0] + m.tot_ios[1]);
	ck_assert_uint_eq(json_sum(p, "bytes"), m.tot_bytes[0] + m.tot_bytes[1]);
	ck_assert_uint_eq(json_sum(p, "ticks"), ticks);
	ck_assert(json_object_object_get_ex(root, "devices", &devs));
	ck_assert_uint_eq(json_object_array_length(devs), 1);
	json_object_put(root);
	free(js);
	series_free(m.s);
}
END_TEST

START_TEST(dropped_records_keep_totals)
{
	struct sim m;
	size_t i;

	sim_init(&m, names, groups);
	for (i = 0; i < 5000; i++)
		tick(&m, 0, 2, PHASE_RUN, 30);
	/* the last tick arrives whole, as the runner's final sample after the join */
	tick(&m, 0, 2, PHASE_RUN, 0);
	end(&m);
	check_totals(track_named(&m, "seq"), m.tot_ios[0] + m.tot_ios[1],
		     m.tot_bytes[0] + m.tot_bytes[1]);
	series_free(m.s);
}
END_TEST

START_TEST(ramp_ticks_are_left_out)
{
	struct sim m;
	const struct series_track *t;
	size_t i;

	sim_init(&m, names, groups);
	for (i = 0; i < 20; i++)
		tick(&m, 0, 2, PHASE_RAMP, 0);
	for (i = 0; i < 10; i++)
		tick(&m, 0, 2, PHASE_RUN, 0);
	end(&m);
	t = track_named(&m, "seq");
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(t->nr, 10);
	ck_assert_uint_eq(t->pts[0].t0_ns, 2000000000ull);
	/* the tick the ramp ended in did I/O for part of it only: no rate, its counts kept */
	ck_assert_uint_eq(t->pts[0].st[SERIES_IOPS].n, 0);
	ck_assert_uint_gt(t->pts[0].ios, 0);
	ck_assert_uint_eq(t->pts[1].st[SERIES_IOPS].n, 1);
	/* the only phase running: the merged histogram's percentiles, not a clone's */
	ck_assert_double_eq(t->pts[0].st[SERIES_P99].max, 8888);
	ck_assert_double_eq(t->pts[0].st[SERIES_P50].max, 777);
	series_free(m.s);
}
END_TEST

START_TEST(labels_follow_results)
{
	static const char *n[NW] = { "mix", "other", "mix" };
	static const int g[NW] = { 0, 0, 1 };
	struct sim m;

	sim_init(&m, n, g);
	tick(&m, 0, 3, PHASE_RUN, 0);
	end(&m);
	ck_assert_ptr_nonnull(track_named(&m, "mix"));
	ck_assert_ptr_nonnull(track_named(&m, "other"));
	ck_assert_ptr_nonnull(track_named(&m, "mix#2"));
	ck_assert_int_eq(track_named(&m, "mix#2")->group, 1);
	/* three phases in the tick: each phase's own (slowest clone's) percentile */
	ck_assert_double_eq(track_named(&m, "other")->pts[0].st[SERIES_P99].max,
			    5000.0 + (double)m.tot_ios[1]);
	series_free(m.s);
}
END_TEST

static Suite *series_suite(void)
{
	Suite *s = suite_create("series");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, long_run_stays_bounded);
	tcase_add_test(tc, dropped_records_keep_totals);
	tcase_add_test(tc, ramp_ticks_are_left_out);
	tcase_add_test(tc, labels_follow_results);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(series_suite)
