/*
 * test_live_view.c - the one decoder of live records: counts become rates
 * over the tick's interval (which arrives after the I/O records), a tick is
 * shown only once it is closed, device counters become iostat's figures,
 * records for jobs or devices the layout does not have are ignored, a lost
 * tick end sums a device's counts instead of losing them, a flush closes
 * what came after the last tick end, phase names come from the phase,
 * never from a position in a copied list, and a job's text (LIVE_TEXT parts)
 * is taken whole or not at all, printable only.
 */
#include <string.h>

#include "check_util.h"
#include "live_view.h"

static void feed(struct live_view *v, struct live_rec r)
{
	live_view_feed(v, &r);
}

static struct live_rec io(unsigned job, int ddir, uint32_t ios, uint64_t bytes, uint32_t p99)
{
	struct live_rec r = { .type = LIVE_IO, .ddir = (uint8_t)ddir, .job = (uint16_t)job };

	r.u.io.ios = ios;
	r.u.io.bytes = bytes;
	r.u.io.p99_ns = p99;
	r.u.io.tot_ios = 10ull * ios;
	return r;
}

static struct live_rec status(unsigned job, int phase, uint32_t inflight)
{
	struct live_rec r = { .type = LIVE_STATUS, .ddir = (uint8_t)phase, .job = (uint16_t)job };

	r.u.st.inflight = inflight;
	r.u.st.running = job == LIVE_TOTAL ? 2 : 1;
	r.u.st.interval_ns = 250000000;		/* a quarter second */
	r.u.st.percent = 40;
	r.u.st.drops = 3;
	return r;
}

START_TEST(rates_at_the_tick_end)
{
	static const char *const devs[] = { "nvme0n1" };
	struct live_view v;
	struct live_rec end = { .type = LIVE_TICK_END, .t_ns = 2000000000 }, disk = { .type = LIVE_DISK };

	ck_assert_int_eq(live_view_init(&v, 2, 1, devs), 0);
	feed(&v, io(0, 0, 1000, 4096000, 700));
	feed(&v, io(1, 1, 500, 512000, 900));
	feed(&v, io(LIVE_TOTAL, 0, 1000, 4096000, 700));
	feed(&v, io(LIVE_TOTAL, 1, 500, 512000, 900));
	feed(&v, status(0, PHASE_RUN, 1));
	feed(&v, status(1, PHASE_VERIFY, 1));
	feed(&v, status(7, PHASE_RUN, 1));		/* no such job: ignored */
	feed(&v, io(9, 0, 123, 1, 1));			/* likewise */
	disk.u.disk.r_ios = 200;
	disk.u.disk.r_sectors = 2000;
	disk.u.disk.r_ticks = 50;
	disk.u.disk.queue_ticks = 500;
	disk.u.disk.io_ticks = 240;
	disk.u.disk.interval_ms = 250;
	disk.u.disk.util_meaningful = 0;
	feed(&v, disk);
	feed(&v, status(LIVE_TOTAL, 0, 2));
	/* nothing is shown before the tick closes */
	ck_assert_uint_eq(v.ticks, 0);
	ck_assert(!v.now.total.io[0].seen);
	ck_assert(live_view_feed(&v, &end));
	ck_assert_uint_eq(v.ticks, 1);
	ck_assert_uint_eq(v.now.t_ns, 2000000000);
	ck_assert_double_eq_tol(v.now.total.io[0].iops, 4000, 1e-9);
	ck_assert_double_eq_tol(v.now.total.io[0].bw, 16384000, 1e-6);
	ck_assert_double_eq_tol(v.now.jobs[1].io[1].iops, 2000, 1e-9);
	ck_assert_uint_eq(v.now.jobs[1].io[1].p99_ns, 900);
	ck_assert_uint_eq(v.now.jobs[1].io[1].tot_ios, 5000);
	ck_assert(!v.now.jobs[1].io[0].seen);
	ck_assert_int_eq(v.now.jobs[1].phase, PHASE_VERIFY);
	ck_assert_str_eq(live_phase_name(v.now.jobs[1].phase), "verify");
	ck_assert_int_eq(v.now.total.phase, -1);
	ck_assert_uint_eq(v.now.total.inflight, 2);
	ck_assert_uint_eq(v.now.total.running, 2);
	ck_assert_uint_eq(v.now.drops, 3);
	ck_assert_str_eq(v.now.devs[0].name, "nvme0n1");
	ck_assert_double_eq_tol(v.now.devs[0].r_s, 800, 1e-9);
	ck_assert_double_eq_tol(v.now.devs[0].rmb_s, 2000 * 512.0 / 1e6 / 0.25, 1e-9);
	ck_assert_double_eq_tol(v.now.devs[0].aqu_sz, 2, 1e-9);
	ck_assert_double_eq_tol(v.now.devs[0].r_await_ms, 0.25, 1e-9);
	ck_assert(v.now.devs[0].util_pct < 0);		/* not meaningful for NVMe */
	/* the next tick starts empty: a job without records this tick is not seen */
	ck_assert(live_view_feed(&v, &end));
	ck_assert(!v.now.jobs[0].seen && !v.now.total.io[0].seen);
	ck_assert_str_eq(v.now.devs[0].name, "nvme0n1");
	live_view_release(&v);
}
END_TEST

START_TEST(names)
{
	ck_assert_str_eq(live_phase_name(PHASE_SETUP), "setup");
	ck_assert_str_eq(live_phase_name(PHASE_DONE), "done");
	ck_assert_str_eq(live_phase_name(PHASE_NR), "?");
	ck_assert_str_eq(live_phase_name(-1), "?");
	ck_assert_str_eq(live_ddir_name(2), "trim");
	ck_assert_str_eq(live_ddir_name(3), "?");
}
END_TEST

START_TEST(end_and_short_names)
{
	struct live_view v;
	struct live_rec disk = { .type = LIVE_DISK }, end = { .type = LIVE_END };

	ck_assert_int_eq(live_view_init(&v, 0, 1, NULL), 0);
	memcpy(disk.u.disk.name, "sdq", 4);
	disk.u.disk.interval_ms = 100;
	disk.u.disk.io_ticks = 130;	/* the kernel's busy time ran ahead: capped */
	disk.u.disk.util_meaningful = 1;
	feed(&v, disk);
	ck_assert(!live_view_feed(&v, &end));
	ck_assert(v.ended);
	ck_assert_str_eq(v.next.devs[0].name, "sdq");
	ck_assert_double_eq_tol(v.next.devs[0].util_pct, 100, 1e-9);
	live_view_release(&v);
}
END_TEST

/* Two device records in one tick (the ring dropped the end between them): counts add up. */
START_TEST(lost_tick_end_sums_devices)
{
	struct live_view v;
	struct live_rec disk = { .type = LIVE_DISK, .t_ns = 100000000 };
	struct live_rec tick = { .type = LIVE_TICK_END, .t_ns = 200000000 };
	const struct live_dev *d;

	ck_assert_int_eq(live_view_init(&v, 0, 1, NULL), 0);
	disk.u.disk.interval_ms = 100;
	disk.u.disk.r_ios = 50;
	disk.u.disk.w_sectors = 8;
	disk.u.disk.io_ticks = 20;
	disk.u.disk.util_meaningful = 0;
	feed(&v, disk);
	disk.t_ns = 200000000;
	disk.u.disk.r_ios = 150;
	disk.u.disk.io_ticks = 60;
	feed(&v, disk);
	ck_assert(live_view_feed(&v, &tick));
	d = &v.now.devs[0];
	ck_assert_uint_eq(d->raw.interval_ms, 200);
	ck_assert_uint_eq(d->raw.r_ios, 200);
	ck_assert_uint_eq(d->raw.w_sectors, 16);
	ck_assert_uint_eq(d->t_ns, 200000000);
	ck_assert_double_eq_tol(d->r_s, 1000, 1e-9);
	ck_assert_double_eq_tol(d->busy_pct, 40, 1e-9);
	ck_assert_double_eq_tol(d->util_pct, -1, 1e-9);	/* not meaningful: busy_pct still says */
	/* the next tick starts from zero */
	feed(&v, disk);
	tick.t_ns = 300000000;
	ck_assert(live_view_feed(&v, &tick));
	ck_assert_uint_eq(v.now.devs[0].raw.r_ios, 150);
	live_view_release(&v);
}
END_TEST

START_TEST(flush_closes_what_came_after_the_last_end)
{
	struct live_view v;
	struct live_rec tick = { .type = LIVE_TICK_END, .t_ns = 100 };
	struct live_rec r = io(0, 0, 7, 7 * 4096, 900);

	ck_assert_int_eq(live_view_init(&v, 1, 0, NULL), 0);
	ck_assert(!live_view_flush(&v, 50));	/* nothing gathered: nothing closed */
	feed(&v, r);
	ck_assert(live_view_feed(&v, &tick));
	ck_assert(!live_view_flush(&v, 150));
	ck_assert_uint_eq(v.ticks, 1);
	feed(&v, r);
	ck_assert(live_view_flush(&v, 160));
	ck_assert_uint_eq(v.ticks, 2);
	ck_assert_uint_eq(v.now.t_ns, 160);
	ck_assert(v.now.jobs[0].io[0].seen);
	ck_assert_uint_eq(v.now.jobs[0].io[0].tot_ios, 70);
	ck_assert(!live_view_flush(&v, 170));
	live_view_release(&v);
}
END_TEST

/* The parts of text for job as the sampler sends them (as type), from sequence number seq on. */
static size_t typed_parts(struct live_rec *out, uint8_t type, unsigned job, const char *text,
			  uint32_t seq)
{
	size_t len = strlen(text), at = 0, n = 0;

	do {
		struct live_rec r = { .type = type, .job = (uint16_t)job, .seq = seq++ };
		size_t k = len - at < LIVE_TEXT_PART ? len - at : LIVE_TEXT_PART;

		r.u.text.part = (uint8_t)n;
		r.u.text.parts = (uint8_t)((len + LIVE_TEXT_PART - 1) / LIVE_TEXT_PART);
		r.u.text.len = (uint8_t)k;
		memcpy(r.u.text.s, text + at, k);
		at += k;
		out[n++] = r;
	} while (at < len);
	return n;
}

static size_t text_parts(struct live_rec *out, unsigned job, const char *text, uint32_t seq)
{
	return typed_parts(out, LIVE_TEXT, job, text, seq);
}

START_TEST(text_whole_or_not_at_all)
{
	struct live_view v;
	struct live_rec parts[LIVE_TEXT_PARTS];
	char first[201], second[121];
	size_t n, i;

	ck_assert_int_eq(live_view_init(&v, 2, 0, NULL), 0);
	ck_assert_str_eq(v.text[0], "");
	memset(first, 'a', 200);
	first[200] = '\0';
	first[199] = '1';
	n = text_parts(parts, 1, first, 10);
	ck_assert_uint_eq(n, 5);
	for (i = 0; i < n; i++)
		feed(&v, parts[i]);
	ck_assert_str_eq(v.text[1], first);
	ck_assert_str_eq(v.text[0], "");

	/* a part lost (a gap in the sequence): the text before stays */
	memset(second, 'b', 120);
	second[120] = '\0';
	n = text_parts(parts, 1, second, 20);
	ck_assert_uint_eq(n, 3);
	feed(&v, parts[0]);
	feed(&v, parts[2]);
	ck_assert_msg(!strcmp(v.text[1], first), "a torn text was taken: '%.60s'", v.text[1]);
	/* another record between the parts: dropped too */
	feed(&v, parts[0]);
	feed(&v, status(LIVE_TOTAL, PHASE_RUN, 0));
	feed(&v, parts[1]);
	feed(&v, parts[2]);
	ck_assert_msg(!strcmp(v.text[1], first), "a text cut by a record was taken: '%.60s'",
		      v.text[1]);
	/* the last part lost at the end of a batch, then the next tick's whole text */
	feed(&v, parts[0]);
	feed(&v, parts[1]);
	n = text_parts(parts, 1, second, 40);
	for (i = 0; i < n; i++)
		feed(&v, parts[i]);
	ck_assert_str_eq(v.text[1], second);

	/* bytes a terminal would act on never come out; a job the layout lacks is ignored */
	n = text_parts(parts, 0, "ok \033[2J\a", 50);
	feed(&v, parts[0]);
	ck_assert_str_eq(v.text[0], "ok ?[2J?");
	n = text_parts(parts, 7, "nobody", 60);
	feed(&v, parts[0]);
	ck_assert_str_eq(v.text[0], "ok ?[2J?");
	ck_assert_str_eq(v.text[1], second);
	live_view_release(&v);
}
END_TEST

/*
 * A job's error (LIVE_ERROR) longer than a text, whole or not at all, counted
 * once, never mixed with a text's parts; its line names the job once.
 */
START_TEST(error_whole_once_and_its_line)
{
	struct live_view v;
	struct live_rec parts[LIVE_ERROR_PARTS], tparts[LIVE_TEXT_PARTS];
	char err[501], line[LIVE_ERROR_MAX + 64];
	size_t n, i;

	ck_assert_int_eq(live_view_init(&v, 2, 0, NULL), 0);
	ck_assert_uint_eq(v.nr_errors, 0);
	memset(err, 'e', 500);
	err[500] = '\0';
	memcpy(err, "job 'bad': ", 11);
	err[499] = '!';
	n = typed_parts(parts, LIVE_ERROR, 1, err, 10);
	ck_assert_uint_eq(n, 12);
	/* a part lost: nothing taken (the run's end reports it) */
	for (i = 0; i < n; i++)
		if (i != 5)
			feed(&v, parts[i]);
	ck_assert_uint_eq(v.nr_errors, 0);
	ck_assert_str_eq(v.error[1], "");
	/* a text's part in the middle of an error's: neither is taken */
	n = typed_parts(parts, LIVE_ERROR, 1, err, 30);
	text_parts(tparts, 1, "hello", 31);
	feed(&v, parts[0]);
	feed(&v, tparts[0]);
	for (i = 1; i < n; i++)
		feed(&v, parts[i]);
	ck_assert_uint_eq(v.nr_errors, 0);
	ck_assert_str_eq(v.text[1], "hello");
	/* whole: taken, counted once, the job said */
	n = typed_parts(parts, LIVE_ERROR, 1, err, 50);
	for (i = 0; i < n; i++)
		feed(&v, parts[i]);
	ck_assert_uint_eq(v.nr_errors, 1);
	ck_assert_uint_eq(v.last_error, 1);
	ck_assert_str_eq(v.error[1], err);
	ck_assert_str_eq(v.text[1], "hello");
	/* the same again (no sampler sends it twice): not counted twice */
	n = typed_parts(parts, LIVE_ERROR, 1, err, 70);
	for (i = 0; i < n; i++)
		feed(&v, parts[i]);
	ck_assert_uint_eq(v.nr_errors, 1);
	live_view_error_line(&v, 1, "bad", line, sizeof(line));
	ck_assert_msg(!strncmp(line, "job 'bad' failed: eeee", 22), "line '%.40s'", line);
	ck_assert_uint_eq(strlen(line), strlen("job 'bad' failed: ") + 500 - 11);
	/* an error that does not begin with the job's name keeps all of it; escaped */
	n = typed_parts(parts, LIVE_ERROR, 0, "device gone \033[2J", 90);
	feed(&v, parts[0]);
	ck_assert_uint_eq(v.nr_errors, 2);
	ck_assert_uint_eq(v.last_error, 0);
	live_view_error_line(&v, 0, "ok", line, sizeof(line));
	ck_assert_str_eq(line, "job 'ok' failed: device gone ?[2J");
	/* a job that has not failed, or is not in the layout: no line */
	live_view_release(&v);
	ck_assert_int_eq(live_view_init(&v, 2, 0, NULL), 0);
	live_view_error_line(&v, 1, "bad", line, sizeof(line));
	ck_assert_str_eq(line, "");
	live_view_error_line(&v, 5, "x", line, sizeof(line));
	ck_assert_str_eq(line, "");
	live_view_release(&v);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("live_view");
	TCase *tc = tcase_create("live_view");

	tcase_add_test(tc, rates_at_the_tick_end);
	tcase_add_test(tc, names);
	tcase_add_test(tc, end_and_short_names);
	tcase_add_test(tc, lost_tick_end_sums_devices);
	tcase_add_test(tc, flush_closes_what_came_after_the_last_end);
	tcase_add_test(tc, text_whole_or_not_at_all);
	tcase_add_test(tc, error_whole_once_and_its_line);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
