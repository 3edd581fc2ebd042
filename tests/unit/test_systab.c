/*
 * test_systab.c - the one reader of the kernel's mount, swap and holder
 * tables: escapes undone, every field where it belongs, a missing swaps
 * file (no swap in the kernel), the longest mount point winning, holders
 * in version order.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "check_util.h"
#include "systab.h"

static char top[256];

static void setup(void)
{
	char path[PATH_MAX];

	ck_assert_ptr_nonnull(mkdtemp(rb_test_tmpl(top, sizeof(top), "systab")));
	snprintf(path, sizeof(path), "%s/self", top);
	ck_assert_int_eq(mkdir(path, 0700), 0);
}

static void teardown(void)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static const char mountinfo[] =
	"22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n"
	"36 22 8:17 / /mnt/my\\040disk rw,noatime shared:5 master:1 - xfs /dev/sdb1 rw\n"
	"37 22 0:45 / /srv rw - btrfs /dev/sdc rw,space_cache\n"
	"38 36 8:17 /sub /mnt/my\\040disk/deeper rw - xfs /dev/sdb1 rw\n"
	"39 22 0:25 / /run rw,nosuid - tmpfs tmpfs rw\n"
	"short line\n";

START_TEST(mounts_parsed)
{
	struct systab t = { 0 };
	const struct systab_mount *m;

	put("self/mountinfo", mountinfo);
	ck_assert_int_eq(systab_read_mounts(&t, top), 0);
	ck_assert_uint_eq(t.nr_mounts, 5);
	m = &t.mounts[1];
	ck_assert_str_eq(m->dir, "/mnt/my disk");	/* \040 undone */
	ck_assert_str_eq(m->fstype, "xfs");
	ck_assert_str_eq(m->source, "/dev/sdb1");
	ck_assert(m->dev == makedev(8, 17));
	ck_assert_str_eq(t.mounts[2].source, "/dev/sdc");
	ck_assert_str_eq(t.mounts[4].fstype, "tmpfs");
	/* the longest mount point holding the path, of that device only */
	m = systab_mount_of(&t, makedev(8, 17), "/mnt/my disk/deeper/f");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->dir, "/mnt/my disk/deeper");
	m = systab_mount_of(&t, makedev(8, 17), "/mnt/my disk/f");
	ck_assert_str_eq(m->dir, "/mnt/my disk");
	ck_assert_str_eq(systab_mount_of(&t, makedev(8, 2), "/etc/x")->dir, "/");
	ck_assert_str_eq(systab_mount_of(&t, makedev(8, 17), NULL)->dir, "/mnt/my disk/deeper");
	ck_assert_ptr_null(systab_mount_of(&t, makedev(8, 99), NULL));
	systab_release(&t);
	ck_assert_uint_eq(t.nr_mounts, 0);
	ck_assert_ptr_null(t.mounts);
}
END_TEST

START_TEST(swaps_and_missing_files)
{
	struct systab t = { 0 };

	ck_assert_int_eq(systab_read_mounts(&t, top), -ENOENT);
	ck_assert_int_eq(systab_read_swaps(&t, top), 0);	/* no swap in the kernel */
	ck_assert_uint_eq(t.nr_swaps, 0);
	put("swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sda3                               partition\t8388604\t\t0\t\t-2\n"
	    "/swap\\040file                           file\t\t1048572\t\t0\t\t-3\n");
	ck_assert_int_eq(systab_read_swaps(&t, top), 0);
	ck_assert_uint_eq(t.nr_swaps, 2);
	ck_assert_str_eq(t.swaps[0], "/dev/sda3");
	ck_assert_str_eq(t.swaps[1], "/swap file");
	systab_release(&t);
}
END_TEST

START_TEST(unescape)
{
	char s[] = "a\\040b\\011c\\134d\\012e\\400f\\04";

	systab_unescape(s);
	/* \400 is no byte and \04 is cut short: both stay as they were */
	ck_assert_str_eq(s, "a b\tc\\d\ne\\400f\\04");
}
END_TEST

START_TEST(holders_in_version_order)
{
	char path[PATH_MAX], **names;
	size_t nr;

	ck_assert_int_eq(systab_holders(top, &names, &nr), 0);	/* no holders directory */
	ck_assert_uint_eq(nr, 0);
	snprintf(path, sizeof(path), "%s/holders", top);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	put("holders/md10", "");
	put("holders/md9", "");
	put("holders/dm-0", "");
	ck_assert_int_eq(systab_holders(top, &names, &nr), 0);
	ck_assert_uint_eq(nr, 3);
	ck_assert_str_eq(names[0], "dm-0");
	ck_assert_str_eq(names[1], "md9");
	ck_assert_str_eq(names[2], "md10");
	systab_names_free(names, nr);
}
END_TEST

static Suite *systab_suite(void)
{
	Suite *s = suite_create("systab");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, mounts_parsed);
	tcase_add_test(tc, swaps_and_missing_files);
	tcase_add_test(tc, unescape);
	tcase_add_test(tc, holders_in_version_order);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(systab_suite)
