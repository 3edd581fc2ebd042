/*
 * test_stable_names.c - the by-id and by-path names discovery derives from
 * sysfs (hw/stable_names.c) over the recorded trees of
 * tests/fixtures/sysfs/mktree.sh: qemu's virtio, megasas (vendor-specific and
 * NAA designators), NVMe and AHCI disks as the test guest shows them, and
 * the hardware trees (an hpsa volume, a multipath NVMe namespace, a SATA
 * disk whose model sysfs cuts, SAS disks whose by-path needs more than
 * sysfs). A partition's names end in -partN. No tree has a udev database, so
 * every name here is derived.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "hw/discover.h"
#include "hw/inventory.h"
#include "hw/stable_names.h"

static char tmpdir[PATH_MAX];
static const char *const trees[] = { "qemu", "hpsa", "nvme", "ahci", "mpt3sas" };

static void trees_build(void)
{
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char cmd[PATH_MAX * 3];

	rb_test_tmpl(tmpdir, sizeof(tmpdir), "names");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		snprintf(cmd, sizeof(cmd), "bash '%s/tests/fixtures/sysfs/mktree.sh' %s '%s/%s'", src,
			 trees[i], tmpdir, trees[i]);
		ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
	}
}

static void trees_remove(void)
{
	const char *scratch = getenv(RB_TEST_TMP_ENV);
	char cmd[PATH_MAX + 16];

	if (scratch && tmpdir[0] && !strncmp(tmpdir, scratch, strlen(scratch))) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmpdir);
	}
}

static struct inventory inv;
static char devroot[PATH_MAX];

static void discover(const char *tree)
{
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char sys[PATH_MAX], proc[PATH_MAX], ids[PATH_MAX], err[256] = "";
	struct discover_opts o = { sys, proc, devroot, ids };
	int rc;

	snprintf(sys, sizeof(sys), "%s/%s/sys", tmpdir, tree);
	snprintf(proc, sizeof(proc), "%s/%s/proc", tmpdir, tree);
	snprintf(devroot, sizeof(devroot), "%s/%s/dev", tmpdir, tree);
	snprintf(ids, sizeof(ids), "%s/tests/fixtures/sysfs/pci.ids", src);
	memset(&inv, 0, sizeof(inv));
	rc = discover_inventory(&inv, &o, err, sizeof(err));
	ck_assert_msg(rc == 0, "discover_inventory(%s) = %d: %s", tree, rc, err);
}

/* Joins names, each with the tree's dev root written as "/dev". */
static const char *joined(char **v, size_t nr)
{
	static char buf[4096];
	size_t used = 0, dl = strlen(devroot);

	buf[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		const char *n = v[i];

		ck_assert_msg(!strncmp(n, devroot, dl), "%s is not under %s", n, devroot);
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s/dev%s", i ? " " : "",
					 n + dl);
		ck_assert_uint_lt(used, sizeof(buf));
	}
	return buf;
}

/* The names of block device name, and their source ("-" when none). */
static void expect_names(const char *name, const char *source, const char *want)
{
	for (size_t i = 0; i < inv.nr_blockdevs; i++) {
		const struct inv_blockdev *b = &inv.blockdevs[i];

		if (strcmp(b->name, name))
			continue;
		ck_assert_str_eq(b->stable_names_source ? b->stable_names_source : "-", source);
		ck_assert_str_eq(joined(b->stable_names, b->nr_stable_names), want);
		return;
	}
	ck_abort_msg("no block device %s", name);
}

START_TEST(qemu_guest_disks)
{
	discover("qemu");
	expect_names("vda", "sysfs",
		     "/dev/disk/by-id/virtio-rb-virtio-0 /dev/disk/by-path/pci-0000:00:04.0 "
		     "/dev/disk/by-path/virtio-pci-0000:00:04.0");
	/* scsi_id: a vendor-specific designator gets INQUIRY's vendor and model before it */
	expect_names("sdb", "sysfs",
		     "/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_rb-megasas-gen2-0 "
		     "/dev/disk/by-path/pci-0000:00:02.0-scsi-0:2:0:0");
	/* ... and an NAA one wins over it, and is the wwn- name too; host2 is host 0 of its card */
	expect_names("sdc", "sysfs",
		     "/dev/disk/by-id/scsi-35000c50015ea71ac /dev/disk/by-id/wwn-0x5000c50015ea71ac "
		     "/dev/disk/by-path/pci-0000:00:02.0-scsi-0:2:1:0");
	expect_names("nvme0n1", "sysfs",
		     "/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_rb-nvme-0 "
		     "/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_rb-nvme-0_1 "
		     "/dev/disk/by-id/nvme-nvme.1b36-72622d6e766d652d30-51454d55204e564d65204374726c-00000001 "
		     "/dev/disk/by-path/pci-0000:00:03.0-nvme-1");
	/* ata_id: model and serial from the IDENTIFY data in VPD page 0x89 */
	expect_names("sda", "sysfs",
		     "/dev/disk/by-id/ata-QEMU_HARDDISK_rb-ahci-0 "
		     "/dev/disk/by-path/pci-0000:00:1f.2-ata-1 /dev/disk/by-path/pci-0000:00:1f.2-ata-1.0");
	inventory_release(&inv);
}
END_TEST

START_TEST(partitions_end_in_part_n)
{
	char dir[PATH_MAX], root[PATH_MAX], **v = NULL;
	size_t nr = 0;
	struct sn_dev d = { dir, "sda", "0000:00:1f.2", root, 1 };

	snprintf(root, sizeof(root), "%s/qemu/dev", tmpdir);
	snprintf(dir, sizeof(dir), "%s/qemu/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/"
		 "target0:0:0/0:0:0:0/block/sda", tmpdir);
	snprintf(devroot, sizeof(devroot), "%s", root);
	ck_assert_int_eq(stable_names_derive(&d, &v, &nr), 0);
	ck_assert_str_eq(joined(v, nr), "/dev/disk/by-id/ata-QEMU_HARDDISK_rb-ahci-0-part1 "
			 "/dev/disk/by-path/pci-0000:00:1f.2-ata-1-part1 "
			 "/dev/disk/by-path/pci-0000:00:1f.2-ata-1.0-part1");
	for (size_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}
END_TEST

START_TEST(hardware_trees)
{
	discover("hpsa");
	/* an NAA IEEE Registered Extended id: scsi-3 + all 32 digits; wwn- with the extension */
	expect_names("sda", "sysfs",
		     "/dev/disk/by-id/scsi-3600508b1001c5c7a8b2f1ec4a1e3b7d2 "
		     "/dev/disk/by-id/wwn-0x600508b1001c5c7a8b2f1ec4a1e3b7d2 "
		     "/dev/disk/by-path/pci-0000:05:00.0-scsi-0:1:0:0");
	expect_names("dm-0", "-", "");	/* dm's names come from udev's dm rules only */
	inventory_release(&inv);

	discover("nvme");
	expect_names("nvme0n1", "sysfs",
		     "/dev/disk/by-id/nvme-Samsung_SSD_970_EVO_Plus_1TB_S4EWNX0R123456A "
		     "/dev/disk/by-id/nvme-Samsung_SSD_970_EVO_Plus_1TB_S4EWNX0R123456A_1 "
		     "/dev/disk/by-id/nvme-eui.0025385b71b0a1c2 "
		     "/dev/disk/by-path/pci-0000:3d:00.0-nvme-1");
	inventory_release(&inv);

	/* sysfs's model is INQUIRY's 16 characters, maybe cut: no ata- name from it */
	discover("ahci");
	expect_names("sda", "sysfs",
		     "/dev/disk/by-id/wwn-0x50014ee2b5c0a1d2 "
		     "/dev/disk/by-path/pci-0000:00:17.0-ata-1 /dev/disk/by-path/pci-0000:00:17.0-ata-1.0");
	inventory_release(&inv);

	/* SAS: by-path needs the phy and SAS address path_id reads; not made up */
	discover("mpt3sas");
	expect_names("sdb", "sysfs", "/dev/disk/by-id/scsi-35000c500a1b2c3d1 "
		     "/dev/disk/by-id/wwn-0x5000c500a1b2c3d1");
	inventory_release(&inv);
}
END_TEST

static Suite *names_suite(void)
{
	Suite *s = suite_create("stable_names");
	TCase *tc = tcase_create("recorded trees");

	tcase_add_unchecked_fixture(tc, trees_build, trees_remove);
	tcase_add_test(tc, qemu_guest_disks);
	tcase_add_test(tc, partitions_end_in_part_n);
	tcase_add_test(tc, hardware_trees);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(names_suite)
