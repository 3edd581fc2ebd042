/*
 * test_identity.c - a target's identity from recorded sysfs trees: an hpsa
 * logical drive (RAID level, VPD serial, PCI controller), an ATA disk, an
 * NVMe namespace, md RAID 5 and RAID 1 arrays, and a loop device that has
 * nothing to say. The trees are built in a temporary directory.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "identity.h"
#include "results.h"

static char root[128];

static void put(const char *rel, const void *data, size_t len)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite(data, 1, len, f);
	fclose(f);
}

static void put_str(const char *rel, const char *s)
{
	put(rel, s, strlen(s));
}

static void link_to(const char *rel, const char *target)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(symlink(target, path), 0);
}

static void probe(const char *rel, struct results_identity *id)
{
	char path[512];

	memset(id, 0, sizeof(*id));
	id->strip_size_bytes = -1;
	id->members = -1;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	identity_disk(path, id);
}

#define HPSA "devices/pci0000:00/0000:00:03.0/0000:05:00.0"
#define SDA HPSA "/host0/target0:0:0/0:0:0:0"
#define ATA "devices/pci0000:00/0000:00:1f.2/ata1/host1/target1:0:0/1:0:0:0"
#define NVME "devices/pci0000:00/0000:00:1d.0/0000:01:00.0/nvme/nvme0"

static void setup(void)
{
	static const unsigned char pg80[] = { 0x00, 0x80, 0x00, 0x0e, 'P', 'D', 'N', 'N', 'K', '0',
					      'A', 'R', 'H', '9', 'M', '1', 'F', '5' };

	rb_test_tmpl(root, sizeof(root), "identity");
	ck_assert_ptr_nonnull(mkdtemp(root));
	/* an HPE Smart Array logical drive: hpsa on 0000:05:00.0 */
	put_str(HPSA "/vendor", "0x103c\n");
	put_str(HPSA "/device", "0x3239\n");
	put_str("bus/pci/drivers/hpsa/bind", "");
	link_to(HPSA "/driver", "../../../../bus/pci/drivers/hpsa");
	put_str(SDA "/vendor", "HP      \n");
	put_str(SDA "/model", "LOGICAL VOLUME  \n");
	put_str(SDA "/raid_level", "RAID 5\n");
	put(SDA "/vpd_pg80", pg80, sizeof(pg80));
	put_str(SDA "/block/sda/wwid", "naa.600508b1001c37f10bde1911e307c368\n");
	link_to(SDA "/block/sda/device", "../../../0:0:0:0");
	/* an ATA SSD: "ATA" is no maker's name; no driver link */
	put_str(ATA "/vendor", "ATA     \n");
	put_str(ATA "/model", "Samsung SSD 860 \n");
	put_str(ATA "/block/sdb/serial", "");
	link_to(ATA "/block/sdb/device", "../../../1:0:0:0");
	/* NVMe: the namespace's device is the controller */
	put_str(NVME "/model", "Samsung SSD 980 PRO 1TB                 \n");
	put_str(NVME "/serial", "S5GXNF0R123456      \n");
	put_str(NVME "/nvme0n1/wwid", "eui.002538b111b22d33\n");
	link_to(NVME "/nvme0n1/device", "..");
	/* md */
	put_str("devices/virtual/block/md0/md/level", "raid5\n");
	put_str("devices/virtual/block/md0/md/raid_disks", "3\n");
	put_str("devices/virtual/block/md0/md/chunk_size", "524288\n");
	put_str("devices/virtual/block/md0/slaves/sdb/x", "");
	put_str("devices/virtual/block/md0/slaves/sdc/x", "");
	put_str("devices/virtual/block/md0/slaves/sdd/x", "");
	put_str("devices/virtual/block/md1/md/level", "raid1\n");
	put_str("devices/virtual/block/md1/md/raid_disks", "2\n");
	put_str("devices/virtual/block/md1/md/chunk_size", "0\n");
	put_str("devices/virtual/block/loop3/loop/backing_file", "/var/tmp/x.img\n");
}

static void teardown(void)
{
	char cmd[sizeof(root) + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(hpsa_logical_drive)
{
	struct results_identity id;

	probe(SDA "/block/sda", &id);
	ck_assert_str_eq(id.model, "HP LOGICAL VOLUME");
	ck_assert_str_eq(id.serial, "PDNNK0ARH9M1F5");
	ck_assert_str_eq(id.wwid, "naa.600508b1001c37f10bde1911e307c368");
	ck_assert_str_eq(id.controller, "0000:05:00.0 hpsa [103c:3239]");
	ck_assert_str_eq(id.raid_level, "5");
	/* the controller knows the strip and the drives; sysfs does not */
	ck_assert_int_eq(id.strip_size_bytes, -1);
	ck_assert_int_eq(id.members, -1);
}
END_TEST

START_TEST(ata_disk)
{
	struct results_identity id;

	probe(ATA "/block/sdb", &id);
	ck_assert_str_eq(id.model, "Samsung SSD 860");
	ck_assert_str_eq(id.serial, "");
	ck_assert_str_eq(id.controller, "0000:00:1f.2");
	ck_assert_str_eq(id.raid_level, "");
}
END_TEST

START_TEST(nvme_namespace)
{
	struct results_identity id;

	probe(NVME "/nvme0n1", &id);
	ck_assert_str_eq(id.model, "Samsung SSD 980 PRO 1TB");
	ck_assert_str_eq(id.serial, "S5GXNF0R123456");
	ck_assert_str_eq(id.wwid, "eui.002538b111b22d33");
	ck_assert_str_eq(id.controller, "0000:01:00.0");
}
END_TEST

START_TEST(md_raid5_and_raid1)
{
	struct results_identity id;

	probe("devices/virtual/block/md0", &id);
	ck_assert_str_eq(id.raid_level, "5");
	ck_assert_int_eq(id.members, 3);
	ck_assert_int_eq(id.strip_size_bytes, 524288);
	ck_assert_msg(strstr(id.member_devices, "sdb") && strstr(id.member_devices, "sdc") &&
		      strstr(id.member_devices, "sdd"), "members: %s", id.member_devices);
	ck_assert_str_eq(id.model, "");
	ck_assert_str_eq(id.controller, "");

	probe("devices/virtual/block/md1", &id);
	ck_assert_str_eq(id.raid_level, "1");
	ck_assert_int_eq(id.members, 2);
	ck_assert_int_eq(id.strip_size_bytes, -1);	/* raid1 has no chunk */
}
END_TEST

START_TEST(loop_has_nothing_to_say)
{
	struct results_identity id;

	probe("devices/virtual/block/loop3", &id);
	ck_assert_str_eq(id.model, "");
	ck_assert_str_eq(id.serial, "");
	ck_assert_str_eq(id.controller, "");
	ck_assert_str_eq(id.raid_level, "");
	ck_assert_int_eq(id.members, -1);
}
END_TEST

START_TEST(regular_file_on_this_machine)
{
	struct results_identity id;
	char path[PATH_MAX];
	int fd = mkstemp(rb_test_tmpl(path, sizeof(path), "identity-file"));

	ck_assert_int_ge(fd, 0);
	close(fd);
	memset(&id, 0, sizeof(id));
	id.strip_size_bytes = -1;
	id.members = -1;
	ck_assert_int_eq(identity_probe(path, &id), 0);
	/* whatever the scratch directory is on, its file system is known from mountinfo */
	ck_assert_msg(id.fs_type[0] && id.mount_point[0], "fs '%s' at '%s'", id.fs_type,
		      id.mount_point);
	unlink(path);
	ck_assert_int_eq(identity_probe(path, &id), -ENOENT);
}
END_TEST

static Suite *identity_suite(void)
{
	Suite *s = suite_create("identity");
	TCase *tc = tcase_create("sysfs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, hpsa_logical_drive);
	tcase_add_test(tc, ata_disk);
	tcase_add_test(tc, nvme_namespace);
	tcase_add_test(tc, md_raid5_and_raid1);
	tcase_add_test(tc, loop_has_nothing_to_say);
	tcase_add_test(tc, regular_file_on_this_machine);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(identity_suite)
