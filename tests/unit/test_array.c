/*
 * test_array.c - hw/array.c: validation of every change against a known
 * inventory (the seeds' H240 states, a MegaRAID with unconfigured drives,
 * md) with a fake guard, and the exact argv each tool gets. Nothing runs.
 */
#include <errno.h>

#include "vendor_util.h"
#include "hw/array.h"
#include "hw/raidtool_tools.h"
#include "core/guard.h"

/* ---- a fake OS: which devices are mounted, held or carry data ------------------ */

static int fake_examine(const char *path, struct guard_report *rep)
{
	memset(rep, 0, sizeof(*rep));
	if (!strcmp(path, "/dev/sdm") || !strcmp(path, "/dev/sda")) {
		rep->verdict = GUARD_NEVER;
		snprintf(rep->reasons, sizeof(rep->reasons), "%s is mounted at /mnt/dasd3", path + 5);
	} else if (!strcmp(path, "/dev/sdh")) {
		rep->verdict = GUARD_NEEDS_CONSENT;
		snprintf(rep->reasons, sizeof(rep->reasons), "sdh is held by dm-0 (LVM volume 'vg-x')");
	} else if (!strcmp(path, "/dev/sdf")) {
		rep->verdict = GUARD_NEEDS_CONSENT;
		snprintf(rep->reasons, sizeof(rep->reasons), "sdf has an ext4 file system labelled 'old'");
	} else if (!strncmp(path, "/dev/md", 7)) {
		return -ENOENT;
	}
	return 0;
}

static int fake_stat(const char *path)
{
	return !strncmp(path, "/dev/sd", 7) ? 0 : -ENOTBLK;
}

static const struct raidtool_osdev os_devs[] = { { "sdm", "naa.5000c500ae31d0a1" } };
static const struct array_env env = { fake_examine, fake_stat, os_devs, 1 };
static struct array_plan plan;

static struct array_op op_for(const struct raid_tool_ops *ops, enum array_verb verb,
			      const char *ctrl_id)
{
	struct array_op op;

	memset(&op, 0, sizeof(op));
	op.verb = verb;
	op.ops = ops;
	snprintf(op.controller, sizeof(op.controller), "%s", ctrl_id);
	op.strip_bytes = INV_UNSET;
	op.size_bytes = INV_UNSET;
	return op;
}

static int validate(const struct array_op *op)
{
	array_plan_release(&plan);
	err[0] = '\0';
	return array_validate(op, &inv, &env, &plan, err, sizeof(err));
}

/* Validates (must pass) and builds; the argv must read exactly as expected. */
static void builds(const struct array_op *op, const char *bin, const char *expected)
{
	struct raidtool_argv av;
	char *line;

	ck_assert_msg(validate(op) == 0, "validate: %s", err);
	ck_assert_msg(array_build(op, &plan, &inv, bin, &av, err, sizeof(err)) == 0, "build: %s", err);
	line = raidtool_argv_format((const char *const *)av.v);
	ck_assert_str_eq(line, expected);
	free(line);
	raidtool_argv_release(&av);
}

static void refused(const struct array_op *op, int ret, const char *words)
{
	ck_assert_int_eq(validate(op), ret);
	ck_assert_msg(strstr(err, words), "'%s' not in: %s", words, err);
}

static void teardown(void)
{
	array_plan_release(&plan);
	inv_reset();
}

/* ---- ssacli on the seed's H240 ------------------------------------------------- */

static char *drives3[] = { "1I:0:5", "1I:0:6", "1I:0:7" };

START_TEST(ssacli_create)
{
	struct array_op op = op_for(&raidtool_ssacli, ARRAY_CREATE, "slot=255");

	import_ok("ssacli", "ssacli/seed000_L261_controller-slot-255-show-config.txt");
	op.level = "5";
	op.drives = drives3;
	op.nr_drives = 3;
	builds(&op, "ssacli", "ssacli ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6,1I:0:7 "
	       "raid=5 forced");
	ck_assert_str_eq(plan.new_array, "A");
	op.strip_bytes = 256 << 10;
	op.size_bytes = 100LL << 30;
	builds(&op, "/usr/sbin/ssacli", "/usr/sbin/ssacli ctrl slot=255 create type=ld "
	       "drives=1I:0:5,1I:0:6,1I:0:7 raid=5 stripsize=256 size=102400 forced");
	op.strip_bytes = 3000;
	refused(&op, -EINVAL, "strip size");
	op.strip_bytes = INV_UNSET;
	op.size_bytes = INV_UNSET;
	op.nr_drives = 2;
	op.level = "10";
	refused(&op, -EINVAL, "RAID 10 needs at least 4 drives with ssacli; 2 given");
	op.level = "1";
	builds(&op, "ssacli", "ssacli ctrl slot=255 create type=ld drives=1I:0:5,1I:0:6 raid=1 forced");
	op.nr_drives = 3;
	refused(&op, -EINVAL, "RAID 1 needs a multiple of 2 drives");
	op.level = "6";
	refused(&op, -EINVAL, "RAID 6 needs at least 4 drives with ssacli; 3 given");
	op.level = "7";
	refused(&op, -EINVAL, "ssacli cannot build RAID 7; it builds: 0 1 10 5 6 50 60 1adm 10adm");
	/* a create's spares become an add-spare to the new array, run after it */
	{
		struct array_op sp;
		char *spare[] = { "1I:0:8" };

		op.level = "5";
		op.spares = spare;
		op.nr_spares = 1;
		ck_assert(array_spare_followup(&op, &plan, &sp));
		ck_assert_int_eq(sp.verb, ARRAY_ADD_SPARE);
		ck_assert_ptr_eq(sp.drives, spare);
		ck_assert_uint_eq(sp.nr_drives, 1);
		ck_assert_uint_eq(sp.nr_spares, 0);
		ck_assert_str_eq(sp.array, plan.new_array);
		op.nr_spares = 0;
		ck_assert(!array_spare_followup(&op, &plan, &sp));
	}
}
END_TEST

START_TEST(ssacli_create_refusals)
{
	struct array_op op = op_for(&raidtool_ssacli, ARRAY_CREATE, "slot=255");
	char *dup[] = { "1I:0:8", "1I:0:8", "1I:0:8" };
	char *missing[] = { "1I:0:8", "1I:0:9", "1I:0:5" };

	import_ok("ssacli", "ssacli/seed000_L362_controller-slot-255-show-config.txt");
	op.level = "5";
	op.drives = drives3;
	op.nr_drives = 3;
	refused(&op, -EBUSY, "drive 1I:0:5 is a data drive of array A, not unassigned "
		"(unassigned drives: 1I:0:8)");
	op.drives = missing;
	refused(&op, -ENOENT, "no drive 1I:0:9 on ssacli slot=255");
	op.drives = dup;
	refused(&op, -EINVAL, "drive 1I:0:8 is named twice");
	snprintf(op.controller, sizeof(op.controller), "slot=3");
	refused(&op, -ENOENT, "ssacli sees no controller slot=3; it sees: slot=255 (Smart HBA H240)");

	/* a drive the OS sees (Mixed mode) and has mounted */
	import_ok("ssacli", "ssacli/seed000_L261_controller-slot-255-show-config.txt");
	((struct inv_pd *)pd_of(ctrl(0), "1I:0:8", "unassigned"))->wwn = strdup("5000C500AE31D0A1");
	snprintf(op.controller, sizeof(op.controller), "slot=255");
	op.level = "0";
	op.drives = (char *[]){ "1I:0:8" };
	op.nr_drives = 1;
	refused(&op, -EBUSY, "drive 1I:0:8 (/dev/sdm) is in use: sdm is mounted at /mnt/dasd3");
	op.verb = ARRAY_ERASE;
	refused(&op, -EBUSY, "sdm is mounted");
	op.verb = ARRAY_CREATE;

	/* a drive being erased is not healthy */
	import_ok("ssacli", "ssacli/seed000_L410_controller-slot-255-show-config.txt");
	op.level = "1";
	op.drives = (char *[]){ "1I:0:7", "1I:0:8" };
	op.nr_drives = 2;
	refused(&op, -EBUSY, "drive 1I:0:8 is not healthy (Erase In Progress)");
}
END_TEST

START_TEST(ssacli_delete_spare_erase_mode)
{
	struct array_op op = op_for(&raidtool_ssacli, ARRAY_DELETE, "slot=255");
	char *d8[] = { "1I:0:8" }, *d5[] = { "1I:0:5" };

	import_ok("ssacli", "ssacli/seed000_L362_controller-slot-255-show-config.txt");
	op.ld = "1";
	builds(&op, "ssacli", "ssacli ctrl slot=255 ld 1 delete forced");
	ck_assert_int_eq(plan.nr_warnings, 1);	/* its OS device is unknown */
	ck_assert_ptr_nonnull(strstr(plan.warnings[0], "not known"));
	op.ld = "2";
	refused(&op, -ENOENT, "no logical drive 2 on ssacli slot=255");

	op = op_for(&raidtool_ssacli, ARRAY_ADD_SPARE, "slot=255");
	op.drives = d8;
	op.nr_drives = 1;
	builds(&op, "ssacli", "ssacli ctrl slot=255 array all add spares=1I:0:8");
	op.array = "A";
	builds(&op, "ssacli", "ssacli ctrl slot=255 array A add spares=1I:0:8");
	op.array = "Z";
	refused(&op, -ENOENT, "no array Z");
	op.array = NULL;
	op.drives = d5;
	refused(&op, -EBUSY, "1I:0:5 is a data drive of array A");

	op.verb = ARRAY_REMOVE_SPARE;
	op.drives = d8;
	refused(&op, -EBUSY, "drive 1I:0:8 is unassigned, not a spare");

	op.verb = ARRAY_ERASE;
	builds(&op, "ssacli", "ssacli ctrl slot=255 pd 1I:0:8 modify erase erasepattern=zero forced");
	ck_assert_ptr_nonnull(strstr(plan.warnings[0], "everything on 1I:0:8 will be lost"));
	op.drives = d5;
	refused(&op, -EBUSY, "not unassigned");

	op = op_for(&raidtool_ssacli, ARRAY_MODE, "slot=255");
	op.mode = "hba";
	refused(&op, -EBUSY, "still has 1 logical drive(s): delete them first");
	op.mode = "raid";
	refused(&op, -EINVAL, "already in raid mode");

	import_ok("ssacli", "ssacli/seed000_L486_controller-all-show-config.txt");
	op = op_for(&raidtool_ssacli, ARRAY_REMOVE_SPARE, "slot=255");
	op.drives = d8;
	op.nr_drives = 1;
	builds(&op, "ssacli", "ssacli ctrl slot=255 array all remove spares=1I:0:8");

	/* Smart HBA says raidmode=off (seeds/000), Smart Array hbamode=on */
	import_ok("ssacli", "ssacli/seed000_L261_controller-slot-255-show-config.txt");
	op = op_for(&raidtool_ssacli, ARRAY_MODE, "slot=255");
	op.mode = "hba";
	builds(&op, "ssacli", "ssacli ctrl slot=255 modify raidmode=off forced");
	import_ok("ssacli", "ssacli/hpssacli_ctrl-all-show-status_P840-HBA-mode_H244br-RAID-mode.txt");
	op = op_for(&raidtool_ssacli, ARRAY_MODE, "slot=1");
	op.mode = "raid";
	builds(&op, "ssacli", "ssacli ctrl slot=1 modify hbamode=off forced");
	ck_assert_int_eq(plan.nr_warnings, 1);	/* the reboot; no pass-through drives listed */

	/* RAID mode takes the pass-through drives from the OS: a mounted one refuses it */
	import_ok("ssacli", "ssacli/hpssacli_ctrl-slot1-pd-all-show_P840-HBA-drives.txt");
	op = op_for(&raidtool_ssacli, ARRAY_MODE, "slot=1");
	op.mode = "raid";
	builds(&op, "ssacli", "ssacli ctrl slot=1 modify hbamode=off forced");
	((struct inv_pd *)pd_of(ctrl(0), "1I:1:3", "passthrough"))->wwn = strdup("5000C500AE31D0A1");
	refused(&op, -EBUSY, "pass-through drive 1I:1:3 (/dev/sdm) is in use: sdm is mounted at "
		"/mnt/dasd3; RAID mode would take it from the OS: free it first");
}
END_TEST

/* The OS side: a logical drive mounted somewhere is never deleted. */
START_TEST(ssacli_delete_mounted)
{
	struct array_op op = op_for(&raidtool_ssacli, ARRAY_DELETE, "slot=255");

	import_ok("ssacli", "ssacli/seed000_L220_controller-slot-255-ld-all-show-detail.txt");
	op.ld = "1";
	refused(&op, -EBUSY, "logical drive 1 (/dev/sda) is in use: sda is mounted at /mnt/dasd3");
}
END_TEST

/* ---- storcli on a MegaRAID with unconfigured drives --------------------------------- */

static void megaraid(int ugood)
{
	struct inv_controller *c;

	inv_reset();
	c = inv_add_controller(&inv);
	c->source = strdup("storcli");
	c->id = strdup("/c0");
	c->model = strdup("MegaRAID 9460-16i");
	for (int s = 0; s < 8; s++) {
		struct inv_pd *pd = inv_add_pd(&c->unassigned, &c->nr_unassigned);
		char id[16];

		snprintf(id, sizeof(id), "%d:%d", s < 6 ? 252 : 253, s);
		pd->id = strdup(id);
		pd->role = strdup(s < ugood ? "unassigned" : "spare");
		pd->status = INV_OK;
	}
}

START_TEST(storcli_changes)
{
	struct array_op op = op_for(&raidtool_storcli, ARRAY_CREATE, "/c0");
	char *four[] = { "252:0", "252:1", "252:2", "252:3" };
	char *mixed[] = { "252:4", "252:5", "253:6", "253:7" };
	char *one[] = { "252:4" };

	megaraid(8);
	op.level = "10";
	op.drives = four;
	op.nr_drives = 4;
	builds(&op, "storcli64", "storcli64 /c0 add vd r10 drives=252:0,1,2,3 pdperarray=2 J");
	op.drives = mixed;
	op.strip_bytes = 256 << 10;
	op.spares = one;
	op.nr_spares = 1;
	op.spares[0] = "252:0";
	builds(&op, "storcli64", "storcli64 /c0 add vd r10 'drives=252:4,5;253:6,7' pdperarray=2 "
	       "strip=256 spares=252:0 J");
	{
		struct array_op sp;

		ck_assert(!array_spare_followup(&op, &plan, &sp));	/* spares= in the create */
	}
	op.nr_spares = 0;
	op.strip_bytes = 16 << 10;
	refused(&op, -EINVAL, "from 64 KiB");
	op.strip_bytes = INV_UNSET;
	op.level = "5";
	op.nr_drives = 2;
	refused(&op, -EINVAL, "RAID 5 needs at least 3 drives with storcli; 2 given");
	op.level = "1adm";
	refused(&op, -EINVAL, "storcli cannot build RAID 1adm");

	op = op_for(&raidtool_storcli, ARRAY_ADD_SPARE, "/c0");
	one[0] = "252:4";
	op.drives = one;
	op.nr_drives = 1;
	builds(&op, "storcli64", "storcli64 /c0/e252/s4 add hotsparedrive J");
	op.nr_drives = 2;
	op.drives = four;
	refused(&op, -EINVAL, "one drive per spare command");
	op = op_for(&raidtool_storcli, ARRAY_ERASE, "/c0");
	op.drives = one;
	op.nr_drives = 1;
	builds(&op, "storcli64", "storcli64 /c0/e252/s4 start erase simple J");
	op = op_for(&raidtool_storcli, ARRAY_MODE, "/c0");
	op.mode = "hba";
	builds(&op, "storcli64", "storcli64 /c0 set jbod=on J");

	megaraid(6);	/* 253:6 and 253:7 are global spares */
	op = op_for(&raidtool_storcli, ARRAY_REMOVE_SPARE, "/c0");
	op.drives = (char *[]){ "253:7" };
	op.nr_drives = 1;
	builds(&op, "storcli64", "storcli64 /c0/e253/s7 delete hotsparedrive J");
	op = op_for(&raidtool_storcli, ARRAY_CREATE, "/c0");
	op.level = "1";
	op.drives = (char *[]){ "252:0", "253:6" };
	op.nr_drives = 2;
	refused(&op, -EBUSY, "drive 253:6 is a global spare, not unassigned");
}
END_TEST

START_TEST(storcli_delete_and_dgs)
{
	struct array_op op = op_for(&raidtool_storcli, ARRAY_DELETE, "/c0");

	import_ok("storcli", "storcli/perccli_call-vall-show-all-j_PERC-H755-raid5.json");
	ck_assert_int_eq(import_into("storcli", "storcli/perccli_call-show-all-j_PERC-H755.json"), 0);
	op.ld = "239";
	refused(&op, -EBUSY, "logical drive 239 (/dev/sda) is in use");	/* OS Drive Name /dev/sda, mounted here */
	op.ld = "0";
	refused(&op, -ENOENT, "no logical drive 0 on storcli /c0");
	op = op_for(&raidtool_storcli, ARRAY_ADD_SPARE, "/c0");
	op.drives = (char *[]){ "252:7" };
	op.nr_drives = 1;
	op.array = "0";
	builds(&op, "perccli64", "perccli64 /c0/e252/s7 add hotsparedrive dgs=0 J");
	op.array = "3";
	refused(&op, -ENOENT, "no array 3 on storcli /c0");
}
END_TEST

/* ---- mdadm ------------------------------------------------------------------------ */

START_TEST(mdadm_changes)
{
	struct array_op op = op_for(&raidtool_mdadm, ARRAY_CREATE, "");
	char *pair[] = { "/dev/sdb", "/dev/sdc" };

	import_ok("mdadm-detail", "mdadm/mdadm-detail_md126_raid1-degraded-recovering-30pct.txt");
	op.level = "1";
	op.drives = pair;
	op.nr_drives = 2;
	builds(&op, "mdadm", "mdadm --create /dev/md0 --run --level=1 --raid-devices=2 "
	       "/dev/sdb /dev/sdc");
	ck_assert_str_eq(plan.md_name, "/dev/md0");
	op.name = "md0";
	op.level = "5";
	op.drives = (char *[]){ "/dev/sdb", "/dev/sdc", "/dev/sdd" };
	op.nr_drives = 3;
	op.spares = (char *[]){ "/dev/sdf" };
	op.nr_spares = 1;
	op.strip_bytes = 512 << 10;
	builds(&op, "mdadm", "mdadm --create /dev/md0 --run --level=5 --raid-devices=3 "
	       "--spare-devices=1 --chunk=512K /dev/sdb /dev/sdc /dev/sdd /dev/sdf");
	ck_assert_int_eq(plan.nr_warnings, 1);	/* sdf's file system */
	ck_assert_str_eq(plan.warnings[0], "sdf has an ext4 file system labelled 'old': will be lost");
	op.nr_spares = 0;
	op.strip_bytes = INV_UNSET;
	op.drives[2] = "/dev/sdm";
	refused(&op, -EBUSY, "/dev/sdm is in use: sdm is mounted at /mnt/dasd3");
	op.drives[2] = "/dev/sdh";
	refused(&op, -EBUSY, "held by dm-0");
	op.drives[2] = "/dev/sdb2";
	refused(&op, -EBUSY, "/dev/sdb2 is already a member of md126");
	op.drives[2] = "/tmp/file";
	refused(&op, -ENOENT, "/tmp/file is not a block device");
	op.name = "md126";
	op.drives[2] = "/dev/sdd";
	refused(&op, -EBUSY, "md126 already exists");

	op = op_for(&raidtool_mdadm, ARRAY_DELETE, "");
	op.ld = "md126";
	/* a stop alone leaves the members' superblocks: they read as md members afterwards */
	builds(&op, "mdadm", "mdadm --stop /dev/md126 --zero-superblock /dev/sda2 /dev/sdb2");
	op.ld = "/dev/md9";
	refused(&op, -ENOENT, "no md array /dev/md9");
	op = op_for(&raidtool_mdadm, ARRAY_ADD_SPARE, "");
	op.ld = "/dev/md126";
	op.drives = (char *[]){ "/dev/sdd" };
	op.nr_drives = 1;
	builds(&op, "mdadm", "mdadm /dev/md126 --add /dev/sdd");
	op.verb = ARRAY_REMOVE_SPARE;
	op.drives = (char *[]){ "/dev/sdb2" };
	refused(&op, -EBUSY, "/dev/sdb2 is an active member of md126: fail it first");
	op.drives = (char *[]){ "/dev/sda2" };
	builds(&op, "mdadm", "mdadm /dev/md126 --remove /dev/sda2");
	op.verb = ARRAY_FAIL;
	op.drives = (char *[]){ "/dev/sdb2" };
	builds(&op, "mdadm", "mdadm /dev/md126 --fail /dev/sdb2");
	op = op_for(&raidtool_mdadm, ARRAY_ERASE, "");
	op.drives = (char *[]){ "/dev/sdd" };
	op.nr_drives = 1;
	builds(&op, "mdadm", "mdadm --zero-superblock /dev/sdd");
	op = op_for(&raidtool_mdadm, ARRAY_MODE, "");
	op.mode = "hba";
	refused(&op, -EINVAL, "mdadm has no 'mode'");
	op = op_for(&raidtool_mdadm, ARRAY_CREATE, "");
	op.level = "6";
	op.drives = pair;
	op.nr_drives = 2;
	refused(&op, -EINVAL, "RAID 6 needs at least 4 drives with mdadm; 2 given");
}
END_TEST

START_TEST(names_hints_readonly)
{
	struct array_op op = op_for(&raidtool_megacli, ARRAY_CREATE, "a0");
	enum array_verb v;
	char id[64];

	refused(&op, -EINVAL, "megacli is read-only in raidbench");
	ck_assert_int_eq(array_verb_parse("remove-spare", &v), 0);
	ck_assert_int_eq(v, ARRAY_REMOVE_SPARE);
	ck_assert_str_eq(array_verb_name(ARRAY_ADD_SPARE), "add-spare");
	ck_assert_int_eq(array_verb_parse("explode", &v), -EINVAL);
	op.verb = ARRAY_REMOVE_SPARE;
	ck_assert(!array_destructive(&op));
	op.verb = ARRAY_DELETE;
	ck_assert(array_destructive(&op));
	ck_assert_ptr_nonnull(array_hint(&op, "Error: \"raid=6\" is not a valid option for array A"));
	ck_assert_ptr_nonnull(array_hint(&op, "Set Drive Good Failed.; Operation not allowed."));
	ck_assert_ptr_nonnull(array_hint(&op, "mdadm: cannot open /dev/sdb: Device or resource busy"));
	ck_assert_ptr_null(array_hint(&op, "something nobody has seen"));
	ck_assert_int_eq(raidtool_ssacli.controller_id("0", id, sizeof(id)), 0);
	ck_assert_str_eq(id, "slot=0");
	ck_assert_int_eq(raidtool_ssacli.controller_id("slot=0b", id, sizeof(id)), 0);
	ck_assert_str_eq(id, "slot=0b");
	ck_assert_int_eq(raidtool_ssacli.controller_id("slot=0 x", id, sizeof(id)), -EINVAL);
	ck_assert_int_eq(raidtool_storcli.controller_id("/c1", id, sizeof(id)), 0);
	ck_assert_str_eq(id, "/c1");
	ck_assert_int_eq(raidtool_storcli.controller_id("0", id, sizeof(id)), 0);
	ck_assert_str_eq(id, "/c0");
	ck_assert_int_eq(raidtool_storcli.controller_id("cx", id, sizeof(id)), -EINVAL);
	ck_assert_ptr_null(raidtool_mdadm.controller_id);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("array");
	TCase *tc = tcase_create("validate");

	tcase_add_test(tc, ssacli_create);
	tcase_add_test(tc, ssacli_create_refusals);
	tcase_add_test(tc, ssacli_delete_spare_erase_mode);
	tcase_add_test(tc, ssacli_delete_mounted);
	tcase_add_test(tc, storcli_changes);
	tcase_add_test(tc, storcli_delete_and_dgs);
	tcase_add_test(tc, mdadm_changes);
	tcase_add_test(tc, names_hints_readonly);
	tcase_add_checked_fixture(tc, NULL, teardown);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
