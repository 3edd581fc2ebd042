/*
 * test_discover.c - discovery (hw/discover*.c, hw/md_sysfs.c) against the
 * recorded sysfs trees of tests/fixtures/sysfs/mktree.sh: an hpsa Smart
 * Array with two logical volumes, a megaraid_sas controller on a degraded
 * link, an mpt3sas HBA with JBOD disks, an NVMe drive behind a multipath
 * subsystem, an AHCI SATA disk, an md RAID 5 with a faulty member and a
 * recovery in progress, and a RAID 5 with a write journal. Each asserts the
 * inventory JSON: controller <-> block device links, NUMA node, PCIe link,
 * firmware, usage and md health.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "check_util.h"
#include "hw/discover.h"
#include "hw/inventory.h"

static char tmpdir[PATH_MAX];

/* Builds every tree once, in the parent, before the forked tests run. */
static void trees_build(void)
{
	static const char *const trees[] = { "hpsa", "megaraid", "mpt3sas", "nvme", "ahci", "md",
					     "mdjournal", "rootbus" };
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char cmd[PATH_MAX * 3];

	rb_test_tmpl(tmpdir, sizeof(tmpdir), "discover");
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

/* The JSON of one tree; the caller puts it. */
static struct json_object *discover_tree(const char *tree)
{
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char sys[PATH_MAX], proc[PATH_MAX], dev[PATH_MAX], ids[PATH_MAX], err[256] = "";
	struct discover_opts o = { sys, proc, dev, ids };
	struct inventory inv = { 0 };
	struct json_object *j;
	int rc;

	snprintf(sys, sizeof(sys), "%s/%s/sys", tmpdir, tree);
	snprintf(proc, sizeof(proc), "%s/%s/proc", tmpdir, tree);
	/* no device nodes: nothing on this host can be probed in its place */
	snprintf(dev, sizeof(dev), "%s/%s/dev", tmpdir, tree);
	snprintf(ids, sizeof(ids), "%s/tests/fixtures/sysfs/pci.ids", src);
	rc = discover_inventory(&inv, &o, err, sizeof(err));
	ck_assert_msg(rc == 0, "discover_inventory(%s) = %d: %s", tree, rc, err);
	j = inventory_to_json(&inv);
	ck_assert_ptr_nonnull(j);
	inventory_release(&inv);
	return j;
}

/*
 * A value by path: "controllers.0.pcie.width". Fails the test when a key
 * or index is missing; a JSON null comes back as NULL.
 */
static struct json_object *at(struct json_object *root, const char *path)
{
	char buf[256], *save = NULL, *tok;
	struct json_object *o = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); tok; tok = strtok_r(NULL, ".", &save)) {
		char *end;
		long idx = strtol(tok, &end, 10);

		ck_assert_msg(o != NULL, "%s: null before \"%s\"", path, tok);
		if (!*end) {
			ck_assert_msg(json_object_is_type(o, json_type_array) &&
					      (size_t)idx < json_object_array_length(o),
				      "%s: no index %ld in %s", path, idx,
				      json_object_to_json_string(o));
			o = json_object_array_get_idx(o, (size_t)idx);
		} else {
			struct json_object *next = NULL;

			ck_assert_msg(json_object_object_get_ex(o, tok, &next),
				      "%s: no key \"%s\" in %s", path, tok,
				      json_object_to_json_string(o));
			o = next;
		}
	}
	return o;
}

static const char *str(struct json_object *root, const char *path)
{
	struct json_object *o = at(root, path);

	ck_assert_msg(json_object_is_type(o, json_type_string), "%s is %s, not a string", path,
		      json_object_to_json_string(o));
	return json_object_get_string(o);
}

static int64_t num(struct json_object *root, const char *path)
{
	struct json_object *o = at(root, path);

	ck_assert_msg(json_object_is_type(o, json_type_int), "%s is %s, not an integer", path,
		      json_object_to_json_string(o));
	return json_object_get_int64(o);
}

static double dbl(struct json_object *root, const char *path)
{
	struct json_object *o = at(root, path);

	ck_assert_msg(json_object_is_type(o, json_type_double) ||
			      json_object_is_type(o, json_type_int),
		      "%s is %s, not a number", path, json_object_to_json_string(o));
	return json_object_get_double(o);
}

static bool boolean(struct json_object *root, const char *path)
{
	struct json_object *o = at(root, path);

	ck_assert_msg(json_object_is_type(o, json_type_boolean), "%s is %s, not a boolean", path,
		      json_object_to_json_string(o));
	return json_object_get_boolean(o);
}

static size_t len(struct json_object *root, const char *path)
{
	struct json_object *o = at(root, path);

	ck_assert_msg(json_object_is_type(o, json_type_array), "%s is %s, not an array", path,
		      json_object_to_json_string(o));
	return json_object_array_length(o);
}

#define ASSERT_NULL(root, path)                                                           \
	ck_assert_msg(at(root, path) == NULL, "%s is %s, expected null", path,             \
		      json_object_to_json_string(at(root, path)))

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

START_TEST(hpsa_smart_array)
{
	struct json_object *j = discover_tree("hpsa");

	/* the PCIe root port is not a storage controller */
	ck_assert_uint_eq(len(j, "controllers"), 1);
	ck_assert_str_eq(str(j, "controllers.0.id"), "0000:05:00.0");
	ck_assert_str_eq(str(j, "controllers.0.pci"), "0000:05:00.0");
	ck_assert_str_eq(str(j, "controllers.0.source"), "sysfs");
	ck_assert_str_eq(str(j, "controllers.0.model"),
			 "Hewlett-Packard Company Smart Array Gen9 Controllers (H240)");
	ck_assert_str_eq(str(j, "controllers.0.driver"), "hpsa");
	ck_assert_str_eq(str(j, "controllers.0.firmware"), "7.00");
	ck_assert_str_eq(str(j, "controllers.0.slot"), "1");
	ck_assert_str_eq(str(j, "controllers.0.status"), "ok");
	ck_assert_int_eq(num(j, "controllers.0.numa_node"), 0);
	ASSERT_NULL(j, "controllers.0.mode");
	ASSERT_NULL(j, "controllers.0.serial");
	/* seeds/000: the H240 trained at PCIe 2.0 x8 */
	ck_assert_double_eq(dbl(j, "controllers.0.pcie.speed_gts"), 5.0);
	ck_assert_int_eq(num(j, "controllers.0.pcie.width"), 8);
	ck_assert_double_eq(dbl(j, "controllers.0.pcie.max_speed_gts"), 8.0);
	ck_assert_int_eq(num(j, "controllers.0.pcie.max_width"), 8);
	ck_assert(boolean(j, "controllers.0.pcie.degraded"));

	/* the two logical volumes, from hpsa's raid_level attribute */
	ck_assert_uint_eq(len(j, "controllers.0.arrays"), 1);
	ck_assert_uint_eq(len(j, "controllers.0.arrays.0.logical_drives"), 2);
	ck_assert_str_eq(str(j, "controllers.0.arrays.0.logical_drives.0.id"), "0:1:0:0");
	/* "RAID 1(1+0)" is RAID 1 or 1+0: not guessed */
	ASSERT_NULL(j, "controllers.0.arrays.0.logical_drives.0.raid_level");
	ck_assert_int_eq(num(j, "controllers.0.arrays.0.logical_drives.0.size_bytes"),
			 1172058032ll * 512);
	ck_assert(ends_with(str(j, "controllers.0.arrays.0.logical_drives.0.os_device"),
			    "/dev/sda"));
	ck_assert_str_eq(str(j, "controllers.0.arrays.0.logical_drives.1.raid_level"), "5");
	ck_assert(ends_with(str(j, "controllers.0.arrays.0.logical_drives.1.os_device"),
			    "/dev/sdb"));
	ASSERT_NULL(j, "controllers.0.arrays.0.logical_drives.1.progress_pct");

	ck_assert_uint_eq(len(j, "block_devices"), 3);
	ck_assert_str_eq(str(j, "block_devices.0.name"), "dm-0");
	ck_assert_str_eq(str(j, "block_devices.1.name"), "sda");
	ck_assert_str_eq(str(j, "block_devices.1.controller"), "0000:05:00.0");
	ck_assert_int_eq(num(j, "block_devices.1.numa_node"), 0);
	ck_assert_str_eq(str(j, "block_devices.1.model"), "LOGICAL VOLUME");
	ck_assert_str_eq(str(j, "block_devices.1.serial"), "PDNLN0BRH9Z1QB");
	ck_assert_str_eq(str(j, "block_devices.1.wwn"), "naa.600508b1001c5c7a8b2f1ec4a1e3b7d2");
	ck_assert(boolean(j, "block_devices.1.rotational"));
	ck_assert_int_eq(num(j, "block_devices.1.size_bytes"), 1172058032ll * 512);
	ck_assert_int_eq(num(j, "block_devices.1.logical_block_size"), 512);
	ck_assert_str_eq(str(j, "block_devices.1.scheduler"), "mq-deadline");
	ck_assert_int_eq(num(j, "block_devices.1.queue_depth"), 1020);
	ck_assert_uint_eq(len(j, "block_devices.1.partitions"), 2);
	ck_assert_str_eq(str(j, "block_devices.1.partitions.1"), "sda2");
	ck_assert_uint_eq(len(j, "block_devices.1.mounts"), 1);
	ck_assert_str_eq(str(j, "block_devices.1.mounts.0"), "/boot");
	ck_assert(boolean(j, "block_devices.1.swap"));	/* sda2 */
	ASSERT_NULL(j, "block_devices.1.signature");
	ck_assert(!boolean(j, "block_devices.1.write_safe"));
	ck_assert_str_eq(str(j, "block_devices.1.why_not_write_safe"),
			 "has no device node to examine");
	ck_assert_str_eq(str(j, "block_devices.2.name"), "sdb");
	ck_assert_uint_eq(len(j, "block_devices.2.holders"), 1);
	ck_assert_str_eq(str(j, "block_devices.2.holders.0"), "dm-0");
	ck_assert(!boolean(j, "block_devices.2.swap"));
	/* LVM on top: no controller, mounted at a path with a blank */
	ASSERT_NULL(j, "block_devices.0.controller");
	ASSERT_NULL(j, "block_devices.0.numa_node");
	ck_assert_str_eq(str(j, "block_devices.0.mounts.0"), "/srv/my data");
	ck_assert_uint_eq(len(j, "md_arrays"), 0);
	json_object_put(j);
}
END_TEST

START_TEST(megaraid_degraded_link)
{
	struct json_object *j = discover_tree("megaraid");

	ck_assert_uint_eq(len(j, "controllers"), 1);
	ck_assert_str_eq(str(j, "controllers.0.id"), "0000:81:00.0");
	ck_assert_str_eq(str(j, "controllers.0.model"),
			 "Broadcom / LSI MegaRAID Tri-Mode SAS3516 (MegaRAID 9460-16i)");
	ck_assert_str_eq(str(j, "controllers.0.driver"), "megaraid_sas");
	/* megaraid_sas has no firmware attribute: null, never invented */
	ASSERT_NULL(j, "controllers.0.firmware");
	ck_assert_int_eq(num(j, "controllers.0.numa_node"), 1);
	/* seeds/002: trained at 5 GT/s x1 of 8 GT/s x8 */
	ck_assert_double_eq(dbl(j, "controllers.0.pcie.speed_gts"), 5.0);
	ck_assert_int_eq(num(j, "controllers.0.pcie.width"), 1);
	ck_assert_double_eq(dbl(j, "controllers.0.pcie.max_speed_gts"), 8.0);
	ck_assert_int_eq(num(j, "controllers.0.pcie.max_width"), 8);
	ck_assert(boolean(j, "controllers.0.pcie.degraded"));
	/* channel 2 is a virtual drive, channel 0 a JBOD disk */
	ck_assert_uint_eq(len(j, "controllers.0.arrays.0.logical_drives"), 1);
	ck_assert_str_eq(str(j, "controllers.0.arrays.0.logical_drives.0.id"), "1:2:0:0");
	ASSERT_NULL(j, "controllers.0.arrays.0.logical_drives.0.raid_level");
	ck_assert(ends_with(str(j, "controllers.0.arrays.0.logical_drives.0.os_device"),
			    "/dev/sda"));
	ck_assert_uint_eq(len(j, "controllers.0.passthrough_drives"), 1);
	ck_assert_str_eq(str(j, "controllers.0.passthrough_drives.0.id"), "1:0:8:0");
	ck_assert_str_eq(str(j, "controllers.0.passthrough_drives.0.role"), "passthrough");
	ck_assert_str_eq(str(j, "controllers.0.passthrough_drives.0.media"), "ssd");
	ck_assert_str_eq(str(j, "controllers.0.passthrough_drives.0.serial"), "S3Z9NB0K123456X");
	ck_assert_uint_eq(len(j, "block_devices"), 2);
	for (int i = 0; i < 2; i++) {
		char p[64];

		snprintf(p, sizeof(p), "block_devices.%d.controller", i);
		ck_assert_str_eq(str(j, p), "0000:81:00.0");
		snprintf(p, sizeof(p), "block_devices.%d.numa_node", i);
		ck_assert_int_eq(num(j, p), 1);
	}
	ck_assert_int_eq(num(j, "block_devices.0.physical_block_size"), 4096);
	ck_assert(!boolean(j, "block_devices.1.rotational"));
	json_object_put(j);
}
END_TEST

START_TEST(mpt3sas_hba_jbod)
{
	struct json_object *j = discover_tree("mpt3sas");

	ck_assert_uint_eq(len(j, "controllers"), 1);
	ck_assert_str_eq(str(j, "controllers.0.id"), "0000:02:00.0");
	ck_assert_str_eq(str(j, "controllers.0.driver"), "mpt3sas");
	ck_assert_str_eq(str(j, "controllers.0.firmware"), "16.00.10.00");
	ck_assert_str_eq(str(j, "controllers.0.model"),
			 "Broadcom / LSI SAS3008 PCI-Express Fusion-MPT SAS-3 (SAS9300-8i)");
	ck_assert(!boolean(j, "controllers.0.pcie.degraded"));
	ck_assert_int_eq(num(j, "controllers.0.pcie.width"), 8);
	/* an HBA: its disks are plain block devices, no arrays */
	ck_assert_uint_eq(len(j, "controllers.0.arrays"), 0);
	ck_assert_uint_eq(len(j, "controllers.0.passthrough_drives"), 0);
	ck_assert_uint_eq(len(j, "block_devices"), 3);
	for (int i = 0; i < 3; i++) {
		char p[64], want[32];

		snprintf(p, sizeof(p), "block_devices.%d.name", i);
		snprintf(want, sizeof(want), "sd%c", 'a' + i);
		ck_assert_str_eq(str(j, p), want);
		snprintf(p, sizeof(p), "block_devices.%d.controller", i);
		ck_assert_str_eq(str(j, p), "0000:02:00.0");
		snprintf(p, sizeof(p), "block_devices.%d.model", i);
		ck_assert_str_eq(str(j, p), "ST4000NM0025");
	}
	ck_assert_str_eq(str(j, "block_devices.1.mounts.0"), "/data");
	ck_assert_uint_eq(len(j, "block_devices.0.mounts"), 0);
	ck_assert_str_eq(str(j, "block_devices.2.serial"), "ZC1B2C3D2");
	json_object_put(j);
}
END_TEST

START_TEST(nvme_multipath_subsystem)
{
	struct json_object *j = discover_tree("nvme");

	ck_assert_uint_eq(len(j, "controllers"), 1);
	ck_assert_str_eq(str(j, "controllers.0.id"), "0000:3d:00.0");
	ck_assert_str_eq(str(j, "controllers.0.driver"), "nvme");
	ck_assert_str_eq(str(j, "controllers.0.firmware"), "2B2QEXM7");
	ck_assert_str_eq(str(j, "controllers.0.serial"), "S4EWNX0R123456A");
	ck_assert_double_eq(dbl(j, "controllers.0.pcie.speed_gts"), 8.0);
	ck_assert_int_eq(num(j, "controllers.0.pcie.width"), 4);
	ck_assert(!boolean(j, "controllers.0.pcie.degraded"));
	ck_assert_uint_eq(len(j, "block_devices"), 1);
	ck_assert_str_eq(str(j, "block_devices.0.name"), "nvme0n1");
	/* reached through nvme-subsys0/nvme0, not the disk's own (virtual) path */
	ck_assert_str_eq(str(j, "block_devices.0.controller"), "0000:3d:00.0");
	ck_assert_int_eq(num(j, "block_devices.0.numa_node"), 0);
	ck_assert_str_eq(str(j, "block_devices.0.model"), "Samsung SSD 970 EVO Plus 1TB");
	ck_assert_str_eq(str(j, "block_devices.0.serial"), "S4EWNX0R123456A");
	ck_assert_str_eq(str(j, "block_devices.0.wwn"), "eui.0025385b71b0a1c2");
	ck_assert(!boolean(j, "block_devices.0.rotational"));
	ck_assert_str_eq(str(j, "block_devices.0.scheduler"), "none");
	ck_assert_uint_eq(len(j, "block_devices.0.partitions"), 2);
	ck_assert_uint_eq(len(j, "block_devices.0.mounts"), 2);
	ck_assert_str_eq(str(j, "block_devices.0.mounts.0"), "/boot/efi");
	ck_assert_str_eq(str(j, "block_devices.0.mounts.1"), "/");
	json_object_put(j);
}
END_TEST

START_TEST(qemu_rootbus_and_t10_wwn)
{
	struct json_object *j = discover_tree("rootbus");

	ck_assert_uint_eq(len(j, "controllers"), 2);
	ck_assert_str_eq(str(j, "controllers.0.driver"), "nvme");
	/* "Unknown", 0 and a max width of 255 are no link: no "PCIe 0 GT/s x0" */
	ASSERT_NULL(j, "controllers.0.pcie");
	/* a T10 designator's fields lose their padding */
	ck_assert_str_eq(str(j, "block_devices.0.wwn"), "t10.ATA QEMU HARDDISK rb-ahci-0");
	json_object_put(j);
}
END_TEST

START_TEST(ahci_sata_disk)
{
	struct json_object *j = discover_tree("ahci");

	ck_assert_uint_eq(len(j, "controllers"), 1);
	ck_assert_str_eq(str(j, "controllers.0.id"), "0000:00:17.0");
	ck_assert_str_eq(str(j, "controllers.0.driver"), "ahci");
	ck_assert_str_eq(str(j, "controllers.0.model"),
			 "Intel Corporation Cannon Lake PCH SATA AHCI Controller (Dell Vostro 3470)");
	/* an integrated function: no link attributes, no NUMA affinity */
	ASSERT_NULL(j, "controllers.0.pcie");
	ASSERT_NULL(j, "controllers.0.numa_node");
	ASSERT_NULL(j, "controllers.0.firmware");
	ck_assert_uint_eq(len(j, "block_devices"), 1);
	ck_assert_str_eq(str(j, "block_devices.0.controller"), "0000:00:17.0");
	ASSERT_NULL(j, "block_devices.0.numa_node");
	ck_assert_str_eq(str(j, "block_devices.0.model"), "WDC WD40EFRX-68N");
	ck_assert_str_eq(str(j, "block_devices.0.serial"), "WD-WCC7K0123456");
	ck_assert_int_eq(num(j, "block_devices.0.logical_block_size"), 512);
	ck_assert_int_eq(num(j, "block_devices.0.physical_block_size"), 4096);
	ck_assert_int_eq(num(j, "block_devices.0.queue_depth"), 32);
	ck_assert_str_eq(str(j, "block_devices.0.mounts.0"), "/home");
	ck_assert_uint_eq(len(j, "controllers.0.arrays"), 0);
	json_object_put(j);
}
END_TEST

START_TEST(md_raid5_recovering)
{
	struct json_object *j = discover_tree("md");
	static const struct {
		const char *device, *role;
		int slot;
	} want[] = {
		{ "sdb", "active", 0 },
		{ "sdc", "faulty", -1 },
		{ "sdd", "active", 2 },
		{ "sde", "rebuilding", 1 },	/* a spare holding slot 1: rebuilt into it */
	};

	ck_assert_uint_eq(len(j, "md_arrays"), 1);
	ck_assert_str_eq(str(j, "md_arrays.0.name"), "md0");
	ck_assert_str_eq(str(j, "md_arrays.0.raid_level"), "5");
	ck_assert_int_eq(num(j, "md_arrays.0.size_bytes"), 23441323008ll * 512);
	ck_assert_str_eq(str(j, "md_arrays.0.status"), "rebuilding");
	ck_assert_str_eq(str(j, "md_arrays.0.status_text"), "clean, degraded, recovering");
	ck_assert_double_eq(dbl(j, "md_arrays.0.progress_pct"), 12.5);
	ck_assert_uint_eq(len(j, "md_arrays.0.members"), 4);
	for (int i = 0; i < 4; i++) {
		char p[64];

		snprintf(p, sizeof(p), "md_arrays.0.members.%d.device", i);
		ck_assert_str_eq(str(j, p), want[i].device);
		snprintf(p, sizeof(p), "md_arrays.0.members.%d.role", i);
		ck_assert_str_eq(str(j, p), want[i].role);
		snprintf(p, sizeof(p), "md_arrays.0.members.%d.slot", i);
		if (want[i].slot < 0)
			ASSERT_NULL(j, p);
		else
			ck_assert_int_eq(num(j, p), want[i].slot);
	}
	/* md0 is also a block device, the members are held by it and tied to AHCI */
	ck_assert_uint_eq(len(j, "block_devices"), 5);
	ck_assert_str_eq(str(j, "block_devices.0.name"), "md0");
	ASSERT_NULL(j, "block_devices.0.controller");
	for (int i = 1; i < 5; i++) {
		char p[64];

		snprintf(p, sizeof(p), "block_devices.%d.holders.0", i);
		ck_assert_str_eq(str(j, p), "md0");
		snprintf(p, sizeof(p), "block_devices.%d.controller", i);
		ck_assert_str_eq(str(j, p), "0000:00:17.0");
	}
	json_object_put(j);
}
END_TEST

/*
 * A RAID 5 with a write journal, as the Debian 12 guest of tests/vm showed it:
 * dev-vdd's state and slot both read "journal". vdd is the journal, holds no
 * slot, and is not one of the three data members.
 */
START_TEST(md_raid5_write_journal)
{
	struct json_object *j = discover_tree("mdjournal");
	static const struct {
		const char *device, *role;
		int slot;
	} want[] = {
		{ "vda", "active", 0 },
		{ "vdb", "active", 1 },
		{ "vdc", "active", 2 },
		{ "vdd", "journal", -1 },
	};

	ck_assert_uint_eq(len(j, "md_arrays"), 1);
	ck_assert_str_eq(str(j, "md_arrays.0.raid_level"), "5");
	ck_assert_int_eq(num(j, "md_arrays.0.size_bytes"), 122880ll * 512);
	ck_assert_str_eq(str(j, "md_arrays.0.status"), "ok");
	ck_assert_str_eq(str(j, "md_arrays.0.status_text"), "clean");
	ck_assert_uint_eq(len(j, "md_arrays.0.members"), 4);
	for (int i = 0; i < 4; i++) {
		char p[64];

		snprintf(p, sizeof(p), "md_arrays.0.members.%d.device", i);
		ck_assert_str_eq(str(j, p), want[i].device);
		snprintf(p, sizeof(p), "md_arrays.0.members.%d.role", i);
		ck_assert_pstr_eq(str(j, p), want[i].role);
		snprintf(p, sizeof(p), "md_arrays.0.members.%d.slot", i);
		if (want[i].slot < 0)
			ASSERT_NULL(j, p);
		else
			ck_assert_int_eq(num(j, p), want[i].slot);
	}
	json_object_put(j);
}
END_TEST

/*
 * Constructed, not seen: state_show would print "in_sync,journal" for a
 * journal with both bits set (super_1_validate sets only Journal, and the
 * guest showed "journal" alone). Such a member is still the journal, not a
 * data member: the recorded tree with only that file changed.
 */
START_TEST(md_journal_in_sync_is_not_active)
{
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char cmd[PATH_MAX * 3], sys[PATH_MAX], err[256] = "";
	struct inventory inv = { 0 };
	FILE *f;

	snprintf(cmd, sizeof(cmd), "bash '%s/tests/fixtures/sysfs/mktree.sh' mdjournal '%s/mdj2'",
		 src, tmpdir);
	ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
	snprintf(sys, sizeof(sys), "%s/mdj2/sys/block/md0/md/dev-vdd/state", tmpdir);
	f = fopen(sys, "w");
	ck_assert_ptr_nonnull(f);
	fputs("in_sync,journal\n", f);
	fclose(f);
	snprintf(sys, sizeof(sys), "%s/mdj2/sys", tmpdir);
	ck_assert_int_eq(md_sysfs_discover(&inv, sys, err, sizeof(err)), 0);
	ck_assert_uint_eq(inv.nr_md, 1);
	ck_assert_uint_eq(inv.md[0].nr_members, 4);
	ck_assert_str_eq(inv.md[0].members[3].device, "vdd");
	ck_assert_pstr_eq(inv.md[0].members[3].role, "journal");
	ck_assert_int_eq(inv.md[0].members[3].slot, INV_UNSET);
	ck_assert_int_eq(inv.md[0].status, INV_OK);
	inventory_release(&inv);
}
END_TEST

START_TEST(missing_root_is_an_error)
{
	struct discover_opts o;
	struct inventory inv = { 0 };
	char err[256] = "";

	discover_opts_init(&o);
	o.sysfs_root = "/nonexistent/sys";
	ck_assert_int_eq(discover_inventory(&inv, &o, err, sizeof(err)), -ENOENT);
	ck_assert_msg(strstr(err, "/nonexistent/sys"), "err: %s", err);
	inventory_release(&inv);
}
END_TEST

/* md alone, as the TUI's health refresh calls it. */
START_TEST(md_sysfs_alone)
{
	struct inventory inv = { 0 };
	char sys[PATH_MAX], err[256] = "";

	snprintf(sys, sizeof(sys), "%s/md/sys", tmpdir);
	ck_assert_int_eq(md_sysfs_discover(&inv, sys, err, sizeof(err)), 0);
	ck_assert_uint_eq(inv.nr_md, 1);
	ck_assert_int_eq(inv.md[0].status, INV_REBUILDING);
	ck_assert_uint_eq(inv.nr_controllers, 0);
	inventory_release(&inv);
}
END_TEST

/* What ssacli would add for the H240: joined into the sysfs controller by PCI address. */
START_TEST(vendor_controller_joins_sysfs)
{
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";
	char sys[PATH_MAX], proc[PATH_MAX], dev[PATH_MAX], ids[PATH_MAX], err[256] = "";
	struct discover_opts o = { sys, proc, dev, ids };
	struct inventory inv = { 0 };
	struct inv_controller *v;
	struct inv_ld *ld;
	struct json_object *j;

	snprintf(sys, sizeof(sys), "%s/hpsa/sys", tmpdir);
	snprintf(proc, sizeof(proc), "%s/hpsa/proc", tmpdir);
	snprintf(dev, sizeof(dev), "%s/hpsa/dev", tmpdir);
	snprintf(ids, sizeof(ids), "%s/tests/fixtures/sysfs/pci.ids", src);
	ck_assert_int_eq(discover_inventory(&inv, &o, err, sizeof(err)), 0);
	/* a controller on another card stays apart */
	v = inv_add_controller(&inv);
	v->id = strdup("/c0");
	v->source = strdup("storcli");
	v->pci = strdup("00:81:00:00");
	v = inv_add_controller(&inv);
	v->id = strdup("slot=1");
	v->source = strdup("ssacli");
	v->pci = strdup("0000:05:00.0");
	v->model = strdup("Smart Array H240");
	v->serial = strdup("PDNLN0BRH9Z1QA");
	v->mode = strdup("raid");
	v->status = INV_DEGRADED;
	v->status_text = strdup("Interim Recovery Mode");
	ld = inv_add_ld(inv_add_array(v));
	ld->id = strdup("1");
	ld->raid_level = strdup("10");
	inv_add_pd(&v->unassigned, &v->nr_unassigned)->id = strdup("1I:1:4");

	discover_join_vendor(&inv);
	j = inventory_to_json(&inv);
	inventory_release(&inv);
	ck_assert_uint_eq(len(j, "controllers"), 2);
	ck_assert_str_eq(str(j, "controllers.0.id"), "0000:05:00.0");
	ck_assert_str_eq(str(j, "controllers.0.source"), "ssacli");
	ck_assert_str_eq(str(j, "controllers.0.model"), "Smart Array H240");
	ck_assert_str_eq(str(j, "controllers.0.serial"), "PDNLN0BRH9Z1QA");
	ck_assert_str_eq(str(j, "controllers.0.firmware"), "7.00");	/* kept from sysfs */
	ck_assert_str_eq(str(j, "controllers.0.driver"), "hpsa");
	ck_assert_str_eq(str(j, "controllers.0.mode"), "raid");
	ck_assert_str_eq(str(j, "controllers.0.status"), "degraded");
	ck_assert_str_eq(str(j, "controllers.0.status_text"), "Interim Recovery Mode");
	ck_assert_int_eq(num(j, "controllers.0.numa_node"), 0);
	ck_assert(boolean(j, "controllers.0.pcie.degraded"));
	/* the tool's array replaced the two volumes guessed from sysfs */
	ck_assert_uint_eq(len(j, "controllers.0.arrays"), 1);
	ck_assert_uint_eq(len(j, "controllers.0.arrays.0.logical_drives"), 1);
	ck_assert_str_eq(str(j, "controllers.0.arrays.0.logical_drives.0.raid_level"), "10");
	ck_assert_str_eq(str(j, "controllers.0.unassigned_drives.0.id"), "1I:1:4");
	ck_assert_str_eq(str(j, "controllers.1.id"), "/c0");
	/* block devices still point at the joined controller */
	ck_assert_str_eq(str(j, "block_devices.1.controller"), "0000:05:00.0");
	json_object_put(j);
}
END_TEST

static Suite *discover_suite(void)
{
	Suite *s = suite_create("discover");
	TCase *tc = tcase_create("recorded trees");

	tcase_add_unchecked_fixture(tc, trees_build, trees_remove);
	tcase_add_test(tc, hpsa_smart_array);
	tcase_add_test(tc, megaraid_degraded_link);
	tcase_add_test(tc, mpt3sas_hba_jbod);
	tcase_add_test(tc, nvme_multipath_subsystem);
	tcase_add_test(tc, ahci_sata_disk);
	tcase_add_test(tc, qemu_rootbus_and_t10_wwn);
	tcase_add_test(tc, md_raid5_recovering);
	tcase_add_test(tc, md_raid5_write_journal);
	tcase_add_test(tc, md_journal_in_sync_is_not_active);
	tcase_add_test(tc, missing_root_is_an_error);
	tcase_add_test(tc, md_sysfs_alone);
	tcase_add_test(tc, vendor_controller_joins_sysfs);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(discover_suite)
