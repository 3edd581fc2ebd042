/*
 * test_iostat.c - the per-device sampler (hw/iostat.c): iostat -x's
 * arithmetic on known counters, and sampling a sysfs tree whose stat files
 * change between samples, including a device that appears, one that goes
 * backwards (re-created) and the %util flag for NVMe, md and RAID volumes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_util.h"
#include "hw/iostat.h"

#define EPS 1e-9

START_TEST(arithmetic)
{
	/* 2 s apart: 200 reads of 8 sectors in 300 ms, 100 writes in 500 ms */
	uint64_t a[IOSTAT_NR_FIELDS] = { 1000, 5, 8000, 900, 500, 2, 4000, 700, 0, 1000, 3000 };
	uint64_t b[IOSTAT_NR_FIELDS] = { 1200, 5, 9600, 1200, 600, 2, 6048, 1200, 3, 2500, 5000 };
	struct iostat_rates r;

	iostat_compute(a, b, 2.0, &r);
	ck_assert_double_eq_tol(r.r_s, 100.0, EPS);
	ck_assert_double_eq_tol(r.w_s, 50.0, EPS);
	ck_assert_double_eq_tol(r.rmb_s, 1600.0 * 512 / 1048576 / 2, EPS);
	ck_assert_double_eq_tol(r.wmb_s, 2048.0 * 512 / 1048576 / 2, EPS);
	ck_assert_double_eq_tol(r.r_await, 1.5, EPS);	/* 300 ms / 200 */
	ck_assert_double_eq_tol(r.w_await, 5.0, EPS);	/* 500 ms / 100 */
	ck_assert_double_eq_tol(r.aqu_sz, 1.0, EPS);	/* 2000 ms queued in 2 s */
	ck_assert_double_eq_tol(r.util_pct, 75.0, EPS);	/* 1500 ms busy of 2000 */
}
END_TEST

START_TEST(idle_and_capped)
{
	uint64_t a[IOSTAT_NR_FIELDS] = { 0 };
	uint64_t b[IOSTAT_NR_FIELDS] = { 0 };
	struct iostat_rates r;

	iostat_compute(a, b, 1.0, &r);
	ck_assert_double_eq(r.r_await, 0);	/* no I/O: no await, not NaN */
	ck_assert_double_eq(r.util_pct, 0);
	b[IOSTAT_IO_TICKS] = 1500;		/* rounding in the kernel's accounting */
	iostat_compute(a, b, 1.0, &r);
	ck_assert_double_eq(r.util_pct, 100.0);
	iostat_compute(a, b, 0, &r);
	ck_assert_double_eq(r.util_pct, 0);
}
END_TEST

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], cmd[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	*strrchr(cmd, '/') = '\0';
	strcat(cmd, "'");
	ck_assert_int_eq(system(cmd), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", text);
	fclose(f);
}

START_TEST(sampler)
{
	struct iostat *s;
	const struct iostat_dev *d;
	char err[256];

	rb_test_tmpl(root, sizeof(root), "iostat");
	ck_assert_ptr_nonnull(mkdtemp(root));
	put("block/sda/stat", "100 0 800 50 0 0 0 0 0 40 50 0 0 0 0 0 0");
	put("block/nvme0n1/stat", "1 0 8 1 0 0 0 0 0 1 1");
	put("block/sdb/stat", "5 0 40 5 0 0 0 0 0 5 5");
	put("block/sdb/device/raid_level", "RAID 5");
	s = iostat_new(root);
	ck_assert_ptr_nonnull(s);
	ck_assert_int_eq(iostat_sample(s, 1000000000ull, err, sizeof(err)), 0);
	ck_assert_uint_eq(iostat_count(s), 3);
	d = iostat_find(s, "sda");
	ck_assert_ptr_nonnull(d);
	ck_assert(!d->valid);	/* one sample: no rates yet */
	ck_assert(d->util_meaningful);
	ck_assert(!iostat_find(s, "nvme0n1")->util_meaningful);
	ck_assert(!iostat_find(s, "sdb")->util_meaningful);

	put("block/sda/stat", "300 0 2400 250 0 0 0 0 1 540 650 0 0 0 0 0 0");
	put("block/sdb/stat", "1 0 8 1 0 0 0 0 0 1 1");	/* went back: re-created */
	put("block/md0/stat", "0 0 0 0 0 0 0 0 0 0 0");
	ck_assert_int_eq(iostat_sample(s, 2000000000ull, err, sizeof(err)), 0);
	ck_assert_uint_eq(iostat_count(s), 4);
	d = iostat_find(s, "sda");
	ck_assert(d->valid);
	ck_assert_double_eq_tol(d->rates.r_s, 200.0, EPS);
	ck_assert_double_eq_tol(d->rates.r_await, 1.0, EPS);
	ck_assert_double_eq_tol(d->rates.util_pct, 50.0, EPS);
	ck_assert_double_eq_tol(d->rates.aqu_sz, 0.6, EPS);
	ck_assert(!iostat_find(s, "sdb")->valid);
	ck_assert(!iostat_find(s, "md0")->valid);
	ck_assert(!iostat_find(s, "md0")->util_meaningful);

	/* a RAID volume known only from the inventory */
	ck_assert_int_eq(iostat_set_parallel(s, "sda"), 0);
	ck_assert(!iostat_find(s, "sda")->util_meaningful);
	iostat_free(s);

	s = iostat_new("/nonexistent");
	ck_assert_int_eq(iostat_sample(s, 1, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "/nonexistent/block"), "err: %s", err);
	iostat_free(s);
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		ck_assert_int_eq(system(cmd), 0);
	}
}
END_TEST

static Suite *iostat_suite(void)
{
	Suite *s = suite_create("iostat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, arithmetic);
	tcase_add_test(tc, idle_and_capped);
	tcase_add_test(tc, sampler);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(iostat_suite)
