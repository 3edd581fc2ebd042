/*
 * test_ssacli.c - hw/ssacli.c against real outputs: every ssacli/hpssacli/
 * hpacucli capture in tests/fixtures/vendor/ssacli (SOURCES.md) and every
 * hpssacli transcript of seeds/000 (README.md there), field by field; the
 * change outputs through ops->check; and the damage real captures carry
 * (tab indents, banners, echoed prompts, words broken mid-line, Error:
 * lines, truncation), which must give an error naming the line, never a
 * half-filled inventory.
 */
#include <errno.h>

#include "vendor_util.h"

#define TB(x) ((int64_t)llround((x) * 1099511627776.0))	/* ssacli's binary "TB" of LDs */
#define GB(x) ((int64_t)llround((x) * 1073741824.0))

static int parse(const char *text, const char *cmd)
{
	struct raidtool_src src = { "ssacli", cmd, NULL, NULL, 0 };

	inv_reset();
	return raidtool_ssacli.parse(&inv, text, &src, err, sizeof(err));
}

/* ---- fixtures/vendor (SOURCES.md) ----------------------------------------- */

START_TEST(p440ar_config_detail)
{
	const struct inv_controller *c;
	const struct inv_array *a, *b;
	const char *ssd[] = { "1I:1:1", "1I:1:2", "1I:1:3", "2I:1:5", "2I:1:6", "2I:1:7" };

	import_ok("ssacli", "ssacli/ssacli_ctrl-all-show-config-detail_P440ar-2arrays.txt");
	ck_assert_int_eq(inv.nr_controllers, 1);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=0");
	ck_assert_pstr_eq(c->source, "ssacli");
	ck_assert_pstr_eq(c->model, "Smart Array P440ar");
	ck_assert_pstr_eq(c->slot, "0");
	ck_assert_pstr_eq(c->serial, "REDACTED");
	ck_assert_pstr_eq(c->firmware, "3.56-0");
	ck_assert_pstr_eq(c->driver, "hpsa");
	ck_assert_pstr_eq(c->pci, "0000:03:00.0");
	ck_assert_pstr_eq(c->mode, "raid");
	ck_assert_int_eq(c->status, INV_OK);
	ck_assert_pstr_eq(c->status_text, "OK");
	ck_assert(c->pcie.known);
	ck_assert_int_eq(c->pcie.width, 8);
	ck_assert(c->pcie.speed_gts == 8.0);
	ck_assert_int_eq(c->nr_arrays, 2);
	ck_assert_int_eq(c->nr_unassigned, 0);
	ck_assert_int_eq(c->nr_passthrough, 0);

	a = array_of(c, "A");
	ck_assert_int_eq(a->status, INV_OK);
	ck_assert_pstr_eq(a->status_text, "OK");
	ck_assert_int_eq(a->nr_lds, 1);
	ld_is(ld_of(a, "1"), "10", TB(5.2), 262144, INV_OK, "OK", -1, "/dev/sda");
	size_near(ld_of(a, "1")->size_bytes, 3 * 1.9e12);	/* 6 x 1.9 TB mirrored */
	ck_assert_int_eq(a->nr_pds, 6);
	for (size_t i = 0; i < 6; i++) {
		const struct inv_pd *pd = pd_of(c, ssd[i], "A");

		pd_is(pd, "data", 1900000000000, "SATA", "ssd", INV_OK, "OK");
		ck_assert_pstr_eq(pd->model, "ATA INTEL SSDSC2KB01");
		ck_assert_pstr_eq(pd->serial, "REDACTED");	/* also "Serial Number:REDACTED" */
		ck_assert_pstr_eq(pd->wwn, "REDACTED");
	}

	b = array_of(c, "B");
	ck_assert_int_eq(b->status, INV_OK);
	ld_is(ld_of(b, "2"), "1", GB(931.5), 262144, INV_OK, "OK", -1, "/dev/sdb");
	ck_assert_int_eq(b->nr_pds, 2);
	pd_is(pd_of(c, "1I:1:4", "B"), "data", 1000000000000, "SATA", "hdd", INV_OK, "OK");
	pd_is(pd_of(c, "2I:1:8", "B"), "data", 1000000000000, "SATA", "hdd", INV_OK, "OK");
	ck_assert_pstr_eq(pd_of(c, "2I:1:8", "B")->model, "ATA ST1000LM024 HN-M");
	ck_assert_int_eq(inv.nr_notes, 0);
}
END_TEST

START_TEST(p410_show_config)
{
	const struct inv_controller *c;
	const struct inv_array *a;
	const char *ids[] = { "1I:1:1", "1I:1:2", "1I:1:3", "1I:1:4",
			      "2I:1:5", "2I:1:6", "2I:1:7", "2I:1:8" };

	import_ok("ssacli", "ssacli/hpacucli_ctrl-all-show-config_P410-P410i.txt");
	ck_assert_int_eq(inv.nr_controllers, 2);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=1");
	ck_assert_pstr_eq(c->model, "Smart Array P410");
	ck_assert_pstr_eq(c->serial, "PACCRID10331H80");
	ck_assert_int_eq(c->nr_arrays, 0);	/* only an enclosure processor */
	ck_assert_int_eq(c->nr_unassigned, 0);
	ck_assert_int_eq(c->status, INV_UNKNOWN);	/* show config has no status */
	ck_assert_ptr_null(c->mode);

	c = ctrl(1);
	ck_assert_pstr_eq(c->id, "slot=0");
	ck_assert_pstr_eq(c->model, "Smart Array P410i");
	ck_assert_pstr_eq(c->serial, "50014380095E2C50");
	a = array_of(c, "A");
	/* show config gives no array status: the array takes its logical drive's */
	ck_assert_int_eq(a->status, INV_OK);
	ck_assert_pstr_eq(a->status_text, "as logical drive 1");
	ld_is(ld_of(a, "1"), "10", TB(2.2), INV_UNSET, INV_OK, "OK", -1, NULL);
	ck_assert_int_eq(a->nr_pds, 8);
	for (size_t i = 0; i < 8; i++)
		pd_is(pd_of(c, ids[i], "A"), "data", 600000000000, "SAS", NULL, INV_OK, "OK");
}
END_TEST

START_TEST(e200i_interim_recovery)
{
	const struct inv_controller *c;

	import_ok("ssacli",
		  "ssacli/hpacucli_ctrl-slot0-ld-all-show_E200i-interim-recovery-mode-DEGRADED.txt");
	ck_assert_int_eq(inv.nr_controllers, 1);	/* the FIRMWARE UPGRADE banner is not one */
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=0");
	ck_assert_pstr_eq(c->model, "Smart Array E200i");
	ld_is(ld_of(array_of(c, "A"), "1"), "5", GB(136.7), INV_UNSET, INV_DEGRADED,
	      "Interim Recovery Mode", -1, NULL);
	/* a failed drive shows on the array's line too, not only under it */
	ck_assert_int_eq(array_of(c, "A")->status, INV_DEGRADED);
}
END_TEST

START_TEST(status_hba_and_raid_mode)
{
	import_ok("ssacli", "ssacli/hpssacli_ctrl-all-show-status_P840-HBA-mode_H244br-RAID-mode.txt");
	ck_assert_int_eq(inv.nr_controllers, 2);
	ck_assert_pstr_eq(ctrl(0)->model, "Smart Array P840");
	ck_assert_pstr_eq(ctrl(0)->id, "slot=1");
	ck_assert_pstr_eq(ctrl(0)->mode, "hba");
	ck_assert_int_eq(ctrl(0)->status, INV_OK);
	ck_assert_pstr_eq(ctrl(1)->model, "Smart HBA H244br");
	ck_assert_pstr_eq(ctrl(1)->mode, "raid");
	ck_assert_int_eq(ctrl(1)->status, INV_OK);
	ck_assert_pstr_eq(ctrl(1)->status_text, "OK");
}
END_TEST

START_TEST(no_controllers_detected)
{
	import_ok("ssacli", "ssacli/hpssacli_ctrl-all-show-status_error-no-controllers.txt");
	ck_assert_int_eq(inv.nr_controllers, 0);
	ck_assert_int_eq(inv.nr_notes, 1);
	ck_assert_str_eq(inv.notes[0], "ssacli: No controllers detected.");
}
END_TEST

START_TEST(p840_hba_drives)
{
	const struct inv_controller *c;

	import_ok("ssacli", "ssacli/hpssacli_ctrl-slot1-pd-all-show_P840-HBA-drives.txt");
	ck_assert_int_eq(inv.nr_controllers, 1);	/* the echoed prompt is not one */
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=1");
	ck_assert_pstr_eq(c->mode, "hba");
	ck_assert_int_eq(c->nr_arrays, 0);
	ck_assert_int_eq(c->nr_passthrough, 68);
	for (size_t i = 0; i < c->nr_passthrough; i++)
		pd_is(&c->passthrough[i], "passthrough", 6001100000000, "SAS", NULL, INV_OK, "OK");
	ck_assert_pstr_eq(c->passthrough[0].id, "1I:1:1");
	ck_assert_ptr_nonnull(pd_of(c, "1I:1:10", "passthrough"));
}
END_TEST

/* ---- seeds/000: show config after each step ---------------------------------- */

struct seed_config {
	const char *file;
	const char *level;	/* NULL: no array */
	double ld_tb;
	enum inv_status ld_status;
	const char *ld_text;
	const char *data, *spare, *unassigned;	/* bays of 1I:0:N */
	const char *erasing;	/* the unassigned bay with "Erase In Progress" */
};

static const struct seed_config seed_configs[] = {
	{ "seed000_L045_controller-all-show-config.txt", "5", 3.64, INV_OK, "OK", "567", "", "", "" },
	{ "seed000_L261_controller-slot-255-show-config.txt", NULL, 0, 0, NULL, "", "", "5678", "" },
	{ "seed000_L279_controller-slot-255-show-config.txt", "0", 3.64, INV_OK, "OK", "56", "", "78", "" },
	{ "seed000_L303_controller-slot-255-show-config.txt", NULL, 0, 0, NULL, "", "", "5678", "" },
	{ "seed000_L321_controller-slot-255-show-config.txt", "1", 1.82, INV_OK, "OK", "56", "", "78", "" },
	{ "seed000_L344_controller-slot-255-show-config.txt", NULL, 0, 0, NULL, "", "", "5678", "" },
	{ "seed000_L362_controller-slot-255-show-config.txt", "5", 3.64, INV_OK, "OK", "567", "", "8", "" },
	{ "seed000_L410_controller-slot-255-show-config.txt", "1", 1.82, INV_OK, "OK", "56", "", "78", "8" },
	{ "seed000_L440_controller-slot-255-show-config.txt", "5", 1.82, INV_TRANSFORMING,
	  "Waiting for Transformation", "567", "", "8", "8" },
	{ "seed000_L464_controller-all-show-config.txt", "5", 3.64, INV_OK, "OK", "567", "", "8", "" },
	{ "seed000_L486_controller-all-show-config.txt", "5", 3.64, INV_OK, "OK", "567", "8", "", "" },
	{ "seed000_L507_controller-all-show-config.txt", "5", 3.64, INV_OK, "OK", "567", "8", "", "" },
	{ "seed000_L526_controller-all-show-config.txt", "5", 3.64, INV_OK, "OK", "567", "", "8", "" },
};

START_TEST(seed_show_config)
{
	const struct seed_config *t = &seed_configs[_i];
	const struct inv_controller *c;
	char rel[256], id[16];

	snprintf(rel, sizeof(rel), "ssacli/%s", t->file);
	import_ok("ssacli", rel);
	ck_assert_int_eq(inv.nr_controllers, 1);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=255");
	ck_assert_pstr_eq(c->slot, "255");
	ck_assert_pstr_eq(c->model, "Smart HBA H240");
	ck_assert_pstr_eq(c->mode, "raid");
	ck_assert_pstr_eq(c->serial, "PDNNK0ARH9M1F5");
	ck_assert_int_eq(c->nr_arrays, t->level ? 1 : 0);
	if (t->level) {
		const struct inv_array *a = array_of(c, "A");

		ck_assert_int_eq(a->nr_lds, 1);
		ld_is(ld_of(a, "1"), t->level, TB(t->ld_tb), INV_UNSET, t->ld_status, t->ld_text,
		      -1, NULL);
		ck_assert_int_eq(a->nr_pds, strlen(t->data) + strlen(t->spare));
	}
	/* what the drives make: RAID 5 of three 2 TB = 4e12, RAID 1 of two = 2e12 */
	if (t->level && !strcmp(t->level, "0"))
		size_near(ld_of(array_of(c, "A"), "1")->size_bytes, 4e12);
	for (const char *b = t->data; *b; b++) {
		snprintf(id, sizeof(id), "1I:0:%c", *b);
		pd_is(pd_of(c, id, "A"), "data", 2000000000000, "SAS", "hdd", INV_OK, "OK");
	}
	for (const char *b = t->spare; *b; b++) {
		snprintf(id, sizeof(id), "1I:0:%c", *b);
		pd_is(pd_of(c, id, "A"), "spare", 2000000000000, "SAS", "hdd", INV_OK, "OK");
	}
	ck_assert_int_eq(c->nr_unassigned, strlen(t->unassigned));
	for (const char *b = t->unassigned; *b; b++) {
		bool erasing = *t->erasing == *b;

		snprintf(id, sizeof(id), "1I:0:%c", *b);
		pd_is(pd_of(c, id, "unassigned"), "unassigned", 2000000000000, "SAS", "hdd",
		      erasing ? INV_ERASING : INV_OK, erasing ? "Erase In Progress" : "OK");
	}
	ck_assert_int_eq(inv.nr_notes, 0);
}
END_TEST

/* ---- seeds/000: status and detail --------------------------------------------- */

START_TEST(seed_status_and_detail)
{
	const struct inv_controller *c;
	const char *serials[] = { "ZC2342F10000C95236K1", "ZC2341KE0000C95238CU",
				  "ZC2342EJ0000C95236LU" };
	const char *wwids[] = { "5000C500AE318BC9", "5000C500AE31C189", "5000C500AE318CBD" };

	import_ok("ssacli", "ssacli/seed000_L065_controller-all-show-status.txt");
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_int_eq(ctrl(0)->status, INV_OK);
	ck_assert_pstr_eq(ctrl(0)->status_text, "OK");
	ck_assert_pstr_eq(ctrl(0)->mode, "raid");

	import_ok("ssacli", "ssacli/seed000_L074_controller-slot-255-show-detail.txt");
	c = ctrl(0);
	ck_assert_pstr_eq(c->slot, "255");
	ck_assert_pstr_eq(c->serial, "PDNNK0ARH9M1F5");
	ck_assert_pstr_eq(c->firmware, "6.30-0");
	ck_assert_pstr_eq(c->driver, "hpsa");
	ck_assert_pstr_eq(c->pci, "0000:05:00.0");	/* dmesg: hpsa 0000:05:00.0 */
	ck_assert_pstr_eq(c->mode, "raid");		/* "Controller Mode: RAID Mode" */
	ck_assert(c->pcie.known && c->pcie.width == 8 && c->pcie.speed_gts == 5.0);
	ck_assert_int_eq(c->nr_arrays, 0);

	/* trailing blanks, a blank line of spaces, no "(RAID Mode)" on the header */
	import_ok("ssacli", "ssacli/seed000_L139_controller-slot-255-pd-all-show-detail.txt");
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=255");
	ck_assert_int_eq(array_of(c, "A")->nr_pds, 3);
	for (int i = 0; i < 3; i++) {
		char id[16];
		const struct inv_pd *pd;

		snprintf(id, sizeof(id), "1I:0:%d", 5 + i);
		pd = pd_of(c, id, "A");
		pd_is(pd, "data", 2000000000000, "SAS", "hdd", INV_OK, "OK");
		ck_assert_pstr_eq(pd->model, "SEAGATE ST2000NM0045");
		ck_assert_pstr_eq(pd->serial, serials[i]);
		ck_assert_pstr_eq(pd->wwn, wwids[i]);
	}

	import_ok("ssacli", "ssacli/seed000_L220_controller-slot-255-ld-all-show-detail.txt");
	ld_is(ld_of(array_of(ctrl(0), "A"), "1"), "5", TB(3.64), 262144, INV_OK, "OK", -1,
	      "/dev/sda");
}
END_TEST

/* Bare status lines name no controller: the command does, when known. */
START_TEST(seed_status_lines)
{
	char *text = slurp("ssacli/seed000_L131_controller-slot-255-pd-all-show-status.txt");
	const struct inv_controller *c;

	ck_assert_int_eq(parse(text, "controller slot=255 pd all show status"), 0);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=255");
	ck_assert_pstr_eq(c->slot, "255");
	/* which array they are in is not said: never presented as unassigned */
	ck_assert_int_eq(c->nr_unassigned, 0);
	for (int i = 5; i <= 7; i++) {
		char id[16];

		snprintf(id, sizeof(id), "1I:0:%d", i);
		pd_is(pd_of(c, id, "?"), NULL, 2000000000000, NULL, NULL, INV_OK, "OK");
	}
	ck_assert_int_eq(inv.nr_notes, 1);
	free(text);

	import_ok("ssacli", "ssacli/seed000_L131_controller-slot-255-pd-all-show-status.txt");
	ck_assert_ptr_null(ctrl(0)->id);	/* an import does not know the slot */

	import_ok("ssacli", "ssacli/seed000_L213_controller-slot-255-ld-all-show-status.txt");
	ld_is(ld_of(array_of(ctrl(0), "?"), "1"), "5", TB(3.64), INV_UNSET, INV_OK, "OK", -1, NULL);

	import_ok("ssacli", "ssacli/seed000_L386_controller-slot-255-ld-1-show-status.txt");
	ld_is(ld_of(array_of(ctrl(0), "?"), "1"), "5", TB(3.64), INV_UNSET, INV_TRANSFORMING,
	      "Transforming, 0.13% complete", 0.13, NULL);
}
END_TEST

START_TEST(seed_error_line)
{
	int ret;

	inv_reset();
	ret = import_into("ssacli", "ssacli/seed000_L395_controller-slot-255-ld-1-show-status.txt");
	ck_assert_int_eq(ret, -EIO);
	ck_assert_ptr_nonnull(strstr(err, "Error: The specified device does not have a "
				     "logicaldrive identified by \"1\""));
	ck_assert_ptr_nonnull(strstr(err, "ssacli"));
	ck_assert_int_eq(inv.nr_controllers, 0);
}
END_TEST

/* ---- seeds/000: what the change commands printed -------------------------------- */

static const char *const seed_changes_ok[] = {
	"seed000_L127_rescan.txt",
	"seed000_L251_controller-slot-255-modify-raidmode-off.txt",
	"seed000_L257_controller-slot-255-modify-raidmode-on.txt",
	"seed000_L278_controller-slot-255-create-type-ld-drives-1I_0_5_1I_0_6-raid-0.txt",
	"seed000_L320_controller-slot-255-create-type-ld-drives-1I_0_5_1I_0_6-raid-1.txt",
	"seed000_L361_controller-slot-255-create-type-ld-drives-1I_0_5_1I_0_6_1I_0_7-raid-5.txt",
	"seed000_L390_controller-slot-255-ld-1-delete.txt",
	"seed000_L402_controller-slot-255-pd-1I_0_8-modify-erase.txt",
	"seed000_L431_controller-slot-255-ld-1-add-drives-1I_0_7.txt",
	"seed000_L485_controller-slot-255-array-all-add-spares-1I_0_8.txt",
	"seed000_L525_controller-slot-255-array-all-remove-spares-1I_0_8.txt",
};

START_TEST(seed_change_outputs)
{
	char rel[256], *text;
	struct raidtool_run run = { 0 };
	int ret;

	snprintf(rel, sizeof(rel), "ssacli/%s", seed_changes_ok[_i]);
	text = slurp(rel);
	run.out = text;
	run.errout = (char *)"";
	ck_assert_msg(raidtool_ssacli.check(&run, err, sizeof(err)) == 0, "%s: %s", rel, err);
	/* and as a configuration it is nothing: a clear error, nothing added */
	inv_reset();
	ret = import_into("ssacli", rel);
	ck_assert_int_eq(ret, -EBADMSG);
	/* an empty answer says so; a warning's answer names its line */
	ck_assert_ptr_nonnull(strstr(err, *text ? "line 2: only a warning, the answer to a change"
					       : "it is empty"));
	ck_assert_ptr_nonnull(strstr(err, rel));
	ck_assert_int_eq(inv.nr_controllers, 0);
	free(text);
}
END_TEST

START_TEST(change_refused)
{
	char *text = slurp("ssacli/seed000_L395_controller-slot-255-ld-1-show-status.txt");
	struct raidtool_run run = { .status = 1, .out = text, .errout = (char *)"" };

	ck_assert_int_eq(raidtool_ssacli.check(&run, err, sizeof(err)), -EIO);
	ck_assert_str_eq(err, "Error: The specified device does not have a logicaldrive "
			 "identified by \"1\"");
	free(text);
	/* the Error: block with its indented continuation, as proliantutils quotes it */
	run.status = 1;
	run.out = (char *)"\nError: \"raid=6\" is not a valid option for array A\n"
			   "       Available options are:\n             0\n             1\n\n";
	ck_assert_int_eq(raidtool_ssacli.check(&run, err, sizeof(err)), -EIO);
	ck_assert_str_eq(err, "Error: \"raid=6\" is not a valid option for array A "
			 "Available options are: 0 1");
	/* a failure without words still fails */
	run.out = (char *)"";
	run.status = 3;
	ck_assert_int_eq(raidtool_ssacli.check(&run, err, sizeof(err)), -EIO);
	ck_assert_ptr_nonnull(strstr(err, "exit status 3"));
}
END_TEST

/* ---- damage real captures carry ------------------------------------------------- */

START_TEST(tabs_crlf_unknown_keys)
{
	const char *text =
		"\r\n"
		"Dynamic Smart Array B140i in Slot 0b (RAID Mode)\r\n"
		"\tSome Future Key: 42\r\n"
		"\tController Status: OK\r\n"
		"\r\n"
		"\tArray A\r\n"
		"\t\tlogicaldrive 1 (1.6 TB, RAID 6 (ADG), Recovering, 26% complete)\r\n"
		"\t\tphysicaldrive 1I:1:1 (port 1I:box 1:bay 1, Solid State SAS, 800 GB, Rebuilding)\r\n"
		"\t\tphysicaldrive 1I:1:2 (port 1I:box 1:bay 2, SAS, --- GB, Failed)\r\n"
		"\t\tphysicaldrive 1I:1:3 (port 1I:box 1:bay 3, SATA SSD, 800 GB, Predictive Failure)\r\n"
		"\t\tphysicaldrive 1I:1:25 (port 1I:box 1:bay 25, SAS HDD, 1.2 TB, OK, spare)\r\n";
	const struct inv_controller *c;
	const struct inv_array *a;

	ck_assert_msg(parse(text, "ctrl all show config") == 0, "%s", err);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "slot=0b");
	ck_assert_pstr_eq(c->model, "Dynamic Smart Array B140i");
	ck_assert_int_eq(c->status, INV_OK);
	a = array_of(c, "A");
	ld_is(ld_of(a, "1"), "6", TB(1.6), INV_UNSET, INV_REBUILDING, "Recovering, 26% complete",
	      26, NULL);
	pd_is(pd_of(c, "1I:1:1", "A"), "data", 800000000000, "SAS", "ssd", INV_REBUILDING,
	      "Rebuilding");
	pd_is(pd_of(c, "1I:1:2", "A"), "data", INV_UNSET, "SAS", NULL, INV_FAILED, "Failed");
	pd_is(pd_of(c, "1I:1:3", "A"), "data", 800000000000, "SATA", "ssd",
	      INV_PREDICTIVE_FAILURE, "Predictive Failure");
	pd_is(pd_of(c, "1I:1:25", "A"), "spare", 1200000000000, "SAS", "hdd", INV_OK, "OK");
}
END_TEST

/* A warning paragraph between a controller's line and its keys (check_raid issue 211). */
START_TEST(warning_inside_a_controller)
{
	import_ok("ssacli", "ssacli/ssacli_ctrl-all-show-detail_P816i-a-Warning-media-errors_"
		  "excerpt_checkraid211.txt");
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_pstr_eq(ctrl(0)->serial, "PWXLH0CRHF002C");
	ck_assert_pstr_eq(ctrl(0)->firmware, "4.11");
	ck_assert_int_eq(ctrl(0)->status, INV_OK);
	ck_assert_int_eq(inv.nr_notes, 1);
	ck_assert_str_eq(inv.notes[0], "ssacli slot=0: Warning: Unrecoverable Media Errors "
			 "Detected on Drives during previous Rebuild or Background Surface Analysis "
			 "(ARM) scan. Errors will be fixed automatically when the sector(s) are "
			 "overwritten. Backup and Restore are recommended. The following logical "
			 "drives are affected: 4, 5");
}
END_TEST

START_TEST(truncated_line_is_an_error)
{
	const char *text = "Smart HBA H240 in Slot 255 (RAID Mode)\n\n   Array A (SAS)\n"
			   "      logicaldrive 1 (3.64 TB, RAID 5, OK)\n"
			   "      physicaldrive 1I:0:5 (port 1I:box 0:bay 5, SAS HDD, 2 T";

	ck_assert_int_eq(parse(text, "ctrl all show config"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "ssacli"));
	ck_assert_ptr_nonnull(strstr(err, "`ctrl all show config`"));
	ck_assert_ptr_nonnull(strstr(err, "line 5"));
	ck_assert_ptr_nonnull(strstr(err, "physicaldrive 1I:0:5 (port"));

	text = "Smart HBA H240 in Slot 255\n   Array A\n      logicaldrive (3.64 TB, RAID 5, OK)\n";
	ck_assert_int_eq(parse(text, "ctrl all show config"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "line 3"));

	text = "Smart HBA H240 in Slot 255\n   Array A\n   Logical Drive: one\n";
	ck_assert_int_eq(parse(text, "x"), -EBADMSG);

	ck_assert_int_eq(parse("", "ctrl all show config detail"), -EBADMSG);
	ck_assert_int_eq(parse("garbage\n\x01\x02 more garbage: x\n", "ctrl all show config"),
			 -EBADMSG);
	ck_assert_int_eq(parse("Smart HBA H240 in Slot 255\nError: Something broke.\n", "x"), -EIO);
	ck_assert_ptr_nonnull(strstr(err, "Error: Something broke."));
}
END_TEST

/* A failed import leaves what the inventory had untouched. */
START_TEST(failed_import_changes_nothing)
{
	import_ok("ssacli", "ssacli/seed000_L045_controller-all-show-config.txt");
	ck_assert_int_ne(import_into("ssacli", "ssacli/seed000_L390_controller-slot-255-ld-1-delete.txt"), 0);
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_int_eq(ctrl(0)->nr_arrays, 1);
	ck_assert_int_eq(import_into("ssacli", "ssacli/no-such-file.txt"), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "no-such-file.txt"));
	ck_assert_int_eq(import_into("nosuchtool", "ssacli/seed000_L045_controller-all-show-config.txt"),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "nosuchtool"));
	ck_assert_int_eq(inv.nr_controllers, 1);
}
END_TEST

/* The WWN join outranks the "Disk Name" ssacli saw. */
START_TEST(ld_joined_by_wwn)
{
	char *text = slurp("ssacli/seed000_L220_controller-slot-255-ld-all-show-detail.txt");
	struct raidtool_osdev devs[] = {
		{ "sdb", "naa.5000c500ae318bc9" },
		{ "sdc", "naa.600508b1001c37f10bde1911e307c368" },
	};
	struct raidtool_src src = { "ssacli", "ld all show detail", NULL, devs, 2 };

	inv_reset();
	ck_assert_int_eq(raidtool_ssacli.parse(&inv, text, &src, err, sizeof(err)), 0);
	ck_assert_pstr_eq(ld_of(array_of(ctrl(0), "A"), "1")->os_device, "/dev/sdc");
	/* kept as the logical drive's identity: a sweep's cleanup checks it (numbers get reused) */
	ck_assert_pstr_eq(ld_of(array_of(ctrl(0), "A"), "1")->uid,
			  "600508B1001C37F10BDE1911E307C368");
	free(text);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ssacli");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, p440ar_config_detail);
	tcase_add_test(tc, p410_show_config);
	tcase_add_test(tc, e200i_interim_recovery);
	tcase_add_test(tc, status_hba_and_raid_mode);
	tcase_add_test(tc, no_controllers_detected);
	tcase_add_test(tc, p840_hba_drives);
	tcase_add_loop_test(tc, seed_show_config, 0,
			    sizeof(seed_configs) / sizeof(seed_configs[0]));
	tcase_add_test(tc, seed_status_and_detail);
	tcase_add_test(tc, seed_status_lines);
	tcase_add_test(tc, seed_error_line);
	tcase_add_loop_test(tc, seed_change_outputs, 0,
			    sizeof(seed_changes_ok) / sizeof(seed_changes_ok[0]));
	tcase_add_test(tc, change_refused);
	tcase_add_test(tc, tabs_crlf_unknown_keys);
	tcase_add_test(tc, warning_inside_a_controller);
	tcase_add_test(tc, truncated_line_is_an_error);
	tcase_add_test(tc, failed_import_changes_nothing);
	tcase_add_test(tc, ld_joined_by_wwn);
	tcase_add_checked_fixture(tc, NULL, inv_reset);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
