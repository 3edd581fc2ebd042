/*
 * test_live.c - the engine thread's sampler on synthetic workers: each tick
 * reports only what completed since the previous one (counts, bytes, mean,
 * percentiles and max from histogram deltas), per job and in total, while
 * the cumulative totals stay exact; a worker's latest text goes out once per
 * put. Deterministic, so the arithmetic is checked here and the integration
 * test (live.sh) checks only invariants that machine noise cannot break.
 */
#include <stdint.h>
#include <string.h>

#include "check_util.h"
#include "job.h"
#include "live.h"
#include "live_view.h"
#include "ring.h"
#include "stats.h"
#include "worker.h"

/* Completes n reads of lat_ns each on w, the way the worker publishes them. */
static void complete(struct worker *w, unsigned n, uint64_t lat_ns)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		live_bump(&w->ts.dir[DDIR_READ].clat_hist[hist_index(lat_ns)]);
		atomic_fetch_add(&w->pub_ios[DDIR_READ], 1);
		atomic_fetch_add(&w->pub_bytes[DDIR_READ], 4096);
		atomic_fetch_add(&w->pub_lat_sum[DDIR_READ], lat_ns);
	}
}

/* Pops one tick; copies the read record of job (or LIVE_TOTAL) into out. */
static bool find_io(struct ring *r, uint16_t job, struct live_rec *out, bool *saw_write)
{
	struct live_rec rec;
	bool found = false;

	*saw_write = false;
	while (ring_pop(r, &rec)) {
		if (rec.type == LIVE_IO && rec.job == job && rec.ddir == DDIR_READ) {
			*out = rec;
			found = true;
		}
		if (rec.type == LIVE_IO && rec.job == LIVE_TOTAL && rec.ddir == DDIR_WRITE)
			*saw_write = true;
		if (rec.type == LIVE_TICK_END)
			break;
	}
	return found;
}

static uint32_t bucket(uint64_t ns)
{
	return (uint32_t)hist_value(hist_index(ns));
}

struct fixture {
	struct job_spec job;
	struct worker ws[2];
	struct ring ring;
	struct live_sampler *ls;
};

static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->job.rw = RW_READ | RW_RANDOM;
	f->ws[0].job = &f->job;
	f->ws[1].job = &f->job;
	f->ws[0].index = 0;
	f->ws[1].index = 1;
	atomic_store(&f->ws[0].phase, PHASE_RUN);
	atomic_store(&f->ws[1].phase, PHASE_RUN);
	ck_assert_int_eq(ring_init(&f->ring, 256), 0);
	f->ls = live_sampler_new(f->ws, 2, NULL, 0);
	ck_assert_ptr_nonnull(f->ls);
}

static void teardown(struct fixture *f)
{
	live_sampler_free(f->ls);
	ring_release(&f->ring);
}

START_TEST(interval_from_deltas)
{
	static struct fixture f;
	const uint64_t t0 = 1000, tick = 100000000;
	struct live_rec rec;
	bool saw_write;

	setup(&f);
	complete(&f.ws[0], 100, 1000);
	complete(&f.ws[1], 100, 3000);
	ck_assert_uint_eq(live_sample(f.ls, &f.ring, 0, 2, t0, t0 + tick), 2);
	ck_assert(find_io(&f.ring, LIVE_TOTAL, &rec, &saw_write));
	ck_assert(!saw_write);		/* a read job reports no write direction */
	ck_assert_uint_eq(rec.u.io.ios, 200);
	ck_assert_uint_eq(rec.u.io.bytes, 200 * 4096);
	ck_assert_uint_eq(rec.u.io.mean_ns, 2000);
	/* fio's rule: the first bucket where the running count reaches 50% */
	ck_assert_uint_eq(rec.u.io.p50_ns, bucket(1000));
	ck_assert_uint_eq(rec.u.io.p99_ns, bucket(3000));
	ck_assert_uint_eq(rec.u.io.max_ns, bucket(3000));
	ck_assert_uint_eq(rec.t_ns, tick);

	/* second interval: only job 0's ten slow reads count, not the first 200 */
	complete(&f.ws[0], 10, 50000);
	live_sample(f.ls, &f.ring, 0, 2, t0, t0 + 2 * tick);
	ck_assert(find_io(&f.ring, LIVE_TOTAL, &rec, &saw_write));
	ck_assert_uint_eq(rec.u.io.ios, 10);
	ck_assert_uint_eq(rec.u.io.tot_ios, 210);
	ck_assert_uint_eq(rec.u.io.tot_bytes, 210 * 4096);
	ck_assert_uint_eq(rec.u.io.mean_ns, 50000);
	ck_assert_uint_eq(rec.u.io.p50_ns, bucket(50000));
	ck_assert_uint_eq(rec.u.io.p999_ns, bucket(50000));
	ck_assert_uint_eq(rec.u.io.max_ns, bucket(50000));

	/* per job: job 1 completed nothing, and says so with zero latencies */
	complete(&f.ws[0], 5, 7000);
	live_sample(f.ls, &f.ring, 0, 2, t0, t0 + 3 * tick);
	ck_assert(find_io(&f.ring, 1, &rec, &saw_write));
	ck_assert_uint_eq(rec.u.io.ios, 0);
	ck_assert_uint_eq(rec.u.io.tot_ios, 100);
	ck_assert_uint_eq(rec.u.io.p50_ns, 0);
	ck_assert_uint_eq(rec.u.io.max_ns, 0);
	teardown(&f);
}
END_TEST

START_TEST(per_job_records)
{
	static struct fixture f;
	struct live_rec rec;
	bool saw_write;

	setup(&f);
	complete(&f.ws[0], 3, 800);
	complete(&f.ws[1], 1, 900000);
	live_sample(f.ls, &f.ring, 0, 2, 0, 50000000);
	ck_assert(find_io(&f.ring, 0, &rec, &saw_write));
	ck_assert_uint_eq(rec.u.io.ios, 3);
	ck_assert_uint_eq(rec.u.io.p50_ns, bucket(800));
	ck_assert_uint_eq(rec.u.io.max_ns, bucket(800));
	ck_assert_uint_eq(rec.u.io.mean_ns, 800);

	/* a finished worker is counted out of "running" */
	atomic_store(&f.ws[0].phase, PHASE_DONE);
	atomic_store(&f.ws[1].phase, PHASE_DONE);
	ck_assert_uint_eq(live_sample(f.ls, &f.ring, 0, 2, 0, 100000000), 0);
	teardown(&f);
}
END_TEST

/* A worker's mailbox: the tick after a put carries its text, once; the view puts it together. */
START_TEST(worker_text_once_per_put)
{
	static struct fixture f;
	struct live_view v;
	struct live_rec rec;
	char text[200];
	unsigned texts = 0;

	setup(&f);
	ck_assert_int_eq(live_view_init(&v, 2, 0, NULL), 0);
	memset(text, 'z', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	memcpy(text, "line 1 | line 2", 15);
	mailbox_put(&f.ws[1].text, "older");
	mailbox_put(&f.ws[1].text, text);
	live_sample(f.ls, &f.ring, 0, 2, 0, 100000000);
	while (ring_pop(&f.ring, &rec)) {
		texts += rec.type == LIVE_TEXT;
		live_view_feed(&v, &rec);
	}
	ck_assert_uint_eq(texts, (sizeof(text) - 1 + LIVE_TEXT_PART - 1) / LIVE_TEXT_PART);
	ck_assert_str_eq(v.text[1], text);
	ck_assert_str_eq(v.text[0], "");
	/* nothing new: no text records */
	live_sample(f.ls, &f.ring, 0, 2, 0, 200000000);
	for (texts = 0; ring_pop(&f.ring, &rec);)
		texts += rec.type == LIVE_TEXT;
	ck_assert_uint_eq(texts, 0);
	live_view_release(&v);
	teardown(&f);
}
END_TEST

/* A worker that failed: the next tick carries its error as LIVE_ERROR parts, once. */
START_TEST(worker_error_once)
{
	static struct fixture f;
	struct live_view v;
	struct live_rec rec;
	unsigned errs = 0;

	setup(&f);
	ck_assert_int_eq(live_view_init(&v, 2, 0, NULL), 0);
	/* written but not published: not read, not sent */
	snprintf(f.ws[0].err, sizeof(f.ws[0].err), "job 'a': not yet");
	live_sample(f.ls, &f.ring, 0, 2, 0, 100000000);
	while (ring_pop(&f.ring, &rec))
		errs += rec.type == LIVE_ERROR;
	ck_assert_uint_eq(errs, 0);
	memset(f.ws[0].err, 'x', sizeof(f.ws[0].err) - 1);
	f.ws[0].err[sizeof(f.ws[0].err) - 1] = '\0';
	atomic_store_explicit(&f.ws[0].pub_failed, true, memory_order_release);
	live_sample(f.ls, &f.ring, 0, 2, 0, 200000000);
	while (ring_pop(&f.ring, &rec)) {
		errs += rec.type == LIVE_ERROR;
		live_view_feed(&v, &rec);
	}
	ck_assert_uint_eq(errs, (sizeof(f.ws[0].err) - 1 + LIVE_TEXT_PART - 1) / LIVE_TEXT_PART);
	ck_assert_uint_eq(v.nr_errors, 1);
	ck_assert_uint_eq(v.last_error, 0);
	ck_assert_str_eq(v.error[0], f.ws[0].err);
	ck_assert_str_eq(v.error[1], "");
	/* the next ticks: not again */
	live_sample(f.ls, &f.ring, 0, 2, 0, 300000000);
	for (errs = 0; ring_pop(&f.ring, &rec);)
		errs += rec.type == LIVE_ERROR;
	ck_assert_uint_eq(errs, 0);
	live_view_release(&v);
	teardown(&f);
}
END_TEST

/* A worker's ramp ends when its statistics start: the status says "run" from then on. */
START_TEST(ramp_ends_when_statistics_start)
{
	static struct fixture f;
	struct live_rec rec;
	int phase[2] = { -1, -1 };

	setup(&f);
	/* the worker stays at PHASE_RAMP; its statistics start 1 s after the run's start */
	atomic_store(&f.ws[0].phase, PHASE_RAMP);
	atomic_store(&f.ws[0].pub_stat_start_ns, 1000000000ull);
	for (int k = 0; k < 2; k++) {
		live_sample(f.ls, &f.ring, 0, 1, 0, k ? 1100000000ull : 500000000ull);
		while (ring_pop(&f.ring, &rec))
			if (rec.type == LIVE_STATUS && rec.job == 0)
				phase[k] = rec.ddir;
	}
	ck_assert_int_eq(phase[0], PHASE_RAMP);
	ck_assert_int_eq(phase[1], PHASE_RUN);
	teardown(&f);
}
END_TEST

/* The interval percentiles of consecutive ticks bracket the run's own. */
START_TEST(intervals_bracket_the_whole)
{
	static struct fixture f;
	static const uint64_t lat[4] = { 2000, 40000, 9000, 600000 };
	uint64_t whole[HIST_NR] = { 0 }, p50;
	uint32_t lo = UINT32_MAX, hi = 0;
	const double half = 50.0;
	struct live_rec rec;
	bool saw_write;
	unsigned t;

	setup(&f);
	for (t = 0; t < 4; t++) {
		complete(&f.ws[t & 1], 50 + 30 * t, lat[t]);
		whole[hist_index(lat[t])] += 50 + 30 * t;
		live_sample(f.ls, &f.ring, 0, 2, 0, (t + 1) * 100000000ull);
		ck_assert(find_io(&f.ring, LIVE_TOTAL, &rec, &saw_write));
		lo = rec.u.io.p50_ns < lo ? rec.u.io.p50_ns : lo;
		hi = rec.u.io.p50_ns > hi ? rec.u.io.p50_ns : hi;
	}
	hist_percentiles(whole, &half, 1, &p50);
	ck_assert_uint_le(lo, p50);
	ck_assert_uint_ge(hi, p50);
	teardown(&f);
}
END_TEST

static Suite *live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("sampler");

	tcase_add_test(tc, interval_from_deltas);
	tcase_add_test(tc, per_job_records);
	tcase_add_test(tc, ramp_ends_when_statistics_start);
	tcase_add_test(tc, intervals_bracket_the_whole);
	tcase_add_test(tc, worker_text_once_per_put);
	tcase_add_test(tc, worker_error_once);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(live_suite)
