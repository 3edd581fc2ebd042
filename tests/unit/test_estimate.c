/*
 * test_estimate.c - hw/raid_estimate.c: capacity, fault tolerance words
 * and the textbook read/write multipliers for each level, the refusals,
 * and the mixed-workload factor.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "check_util.h"
#include "raid_estimate.h"

#define GB 1000000000LL
#define ASSERT_X(got, want) ck_assert_msg(fabs((got) - (want)) < 1e-9, \
					   "%s = %g, want %g", #got, (double)(got), (double)(want))

static struct raid_estimate e;

START_TEST(raid0)
{
	ck_assert_int_eq(raid_estimate("0", 4, 0, 300 * GB, &e), 0);
	ck_assert_int_eq(e.data_drives, 4);
	ck_assert_int_eq(e.capacity_bytes, 1200 * GB);
	ck_assert_int_eq(e.failures_always, 0);
	ck_assert_str_eq(e.tolerance, "no fault tolerance: one drive failure loses the array");
	ASSERT_X(e.rand_read_x, 4);
	ASSERT_X(e.rand_write_x, 4);
	ASSERT_X(e.seq_write_x, 4);
	ck_assert_int_eq(e.write_penalty, 1);
}
END_TEST

START_TEST(raid1_and_10)
{
	ck_assert_int_eq(raid_estimate("1", 2, 0, 300 * GB, &e), 0);
	ck_assert_int_eq(e.capacity_bytes, 300 * GB);
	ck_assert_str_eq(e.tolerance, "survives one drive failure");
	ck_assert_int_eq(e.write_penalty, 2);
	ASSERT_X(e.rand_read_x, 2);
	ASSERT_X(e.rand_write_x, 1);
	ASSERT_X(e.seq_write_x, 1);

	/* a controller's RAID 1 over four drives is mirrored pairs: N/2 writes */
	ck_assert_int_eq(raid_estimate("1", 4, 0, 300 * GB, &e), 0);
	ck_assert_int_eq(e.data_drives, 2);
	ASSERT_X(e.rand_write_x, 2);
	ck_assert_str_eq(e.tolerance,
			 "survives one drive failure (up to two when each mirror set loses no more)");

	/* mdadm's three-way mirror */
	ck_assert_int_eq(raid_estimate("1", 3, 1, 300 * GB, &e), 0);
	ck_assert_int_eq(e.data_drives, 1);
	ck_assert_int_eq(e.write_penalty, 3);
	ck_assert_str_eq(e.tolerance, "survives two drive failures");

	ck_assert_int_eq(raid_estimate("10", 6, 0, 1 * GB, &e), 0);
	ck_assert_int_eq(e.capacity_bytes, 3 * GB);
	ASSERT_X(e.rand_read_x, 6);
	ASSERT_X(e.rand_write_x, 3);
	ck_assert_int_eq(e.failures_best, 3);

	ck_assert_int_eq(raid_estimate("1adm", 3, 0, 1 * GB, &e), 0);
	ck_assert_int_eq(e.failures_always, 2);
	ASSERT_X(e.rand_write_x, 1);
}
END_TEST

START_TEST(parity)
{
	ck_assert_int_eq(raid_estimate("5", 4, 0, 300 * GB, &e), 0);
	ck_assert_int_eq(e.capacity_bytes, 900 * GB);
	ck_assert_str_eq(e.tolerance, "survives one drive failure");
	ck_assert_int_eq(e.write_penalty, 4);
	ASSERT_X(e.rand_read_x, 4);
	ASSERT_X(e.rand_write_x, 1);
	ASSERT_X(e.seq_write_x, 3);

	ck_assert_int_eq(raid_estimate("6", 6, 0, 300 * GB, &e), 0);
	ck_assert_int_eq(e.capacity_bytes, 1200 * GB);
	ck_assert_str_eq(e.tolerance, "survives two drive failures");
	ASSERT_X(e.rand_write_x, 1);
	ASSERT_X(e.seq_write_x, 4);

	ck_assert_int_eq(raid_estimate("50", 8, 0, 1 * GB, &e), 0);
	ck_assert_int_eq(e.groups, 2);
	ck_assert_int_eq(e.data_drives, 6);
	ck_assert_str_eq(e.tolerance,
			 "survives one drive failure (up to two when each parity group loses no more)");
	ck_assert_int_eq(raid_estimate("60", 12, 3, 1 * GB, &e), 0);
	ck_assert_int_eq(e.data_drives, 6);
	ck_assert_int_eq(e.failures_best, 6);
}
END_TEST

START_TEST(refusals)
{
	ck_assert_int_eq(raid_estimate("5", 2, 0, GB, &e), -EINVAL);
	ck_assert_str_eq(e.tolerance, "RAID 5 needs at least 3 drives");
	ck_assert_int_eq(raid_estimate("10", 5, 0, GB, &e), -EINVAL);
	ck_assert_str_eq(e.tolerance, "RAID 10 needs a multiple of 2 drives");
	ck_assert_int_eq(raid_estimate("50", 7, 0, GB, &e), -EINVAL);
	ck_assert_int_eq(raid_estimate("7", 4, 0, GB, &e), -EINVAL);
	ck_assert_str_eq(e.tolerance, "RAID 7: unknown level");
	ck_assert_int_eq(raid_estimate(NULL, 4, 0, GB, &e), -EINVAL);
	ck_assert_int_eq(raid_estimate_min_drives("6"), 3);
	ck_assert_int_eq(raid_estimate_min_drives("10adm"), 6);
	ck_assert_int_eq(raid_estimate_min_drives("x"), 0);
	/* unknown drive size: capacity unknown, the rest still holds */
	ck_assert_int_eq(raid_estimate("0", 2, 0, -1, &e), 0);
	ck_assert_int_eq(e.capacity_bytes, -1);
}
END_TEST

START_TEST(factor)
{
	ck_assert_int_eq(raid_estimate("5", 4, 0, GB, &e), 0);
	ASSERT_X(raid_estimate_factor(&e, 100, false), 4);
	ASSERT_X(raid_estimate_factor(&e, 0, false), 1);
	ASSERT_X(raid_estimate_factor(&e, 0, true), 3);
	/* 50/50 random: 1 / (0.5/4 + 0.5/1) = 1.6 */
	ASSERT_X(raid_estimate_factor(&e, 50, false), 1.6);
	ck_assert_int_eq(raid_estimate("jbod", 1, 0, GB, &e), 0);
	ASSERT_X(raid_estimate_factor(&e, 70, false), 1);
}
END_TEST

static Suite *estimate_suite(void)
{
	Suite *s = suite_create("raid_estimate");
	TCase *tc = tcase_create("levels");

	tcase_add_test(tc, raid0);
	tcase_add_test(tc, raid1_and_10);
	tcase_add_test(tc, parity);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, factor);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(estimate_suite)
