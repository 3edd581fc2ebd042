/*
 * test_vendor.c - hw/storcli.c (JSON and text), hw/megacli.c and hw/mdadm.c
 * against captures in tests/fixtures/vendor/{storcli,megacli,mdadm}
 * (SOURCES.md), field by field; the three storcli outputs of one controller
 * joined into one; text and JSON of the same rows giving one model; change
 * results through ops->check; and outputs that cannot be understood (neither
 * JSON nor text, truncated, a Failure without body, no header). Every
 * capture is also checked against its expected model by
 * tests/integration/vendor_corpus.sh.
 */
#include <errno.h>

#include "vendor_util.h"

#include <json-c/json.h>

#define TIB(x) ((int64_t)llround((x) * 1099511627776.0))
#define GIB(x) ((int64_t)llround((x) * 1073741824.0))

static int parse_with(const struct raid_tool_ops *ops, const char *text, const char *cmd)
{
	struct raidtool_src src = { ops->name, cmd, NULL, NULL, 0 };

	inv_reset();
	return ops->parse(&inv, text, &src, err, sizeof(err));
}

/* ---- storcli / perccli ------------------------------------------------------ */

static void h755_drives(const struct inv_controller *c, bool details)
{
	for (int s = 0; s < 8; s++) {
		char id[16];
		const struct inv_pd *pd;

		snprintf(id, sizeof(id), "252:%d", s);
		pd = pd_of(c, id, s < 7 ? "0" : "unassigned");
		pd_is(pd, s < 7 ? "data" : "unassigned", TIB(10.691), "SAS", "hdd", INV_OK,
		      s < 7 ? "Onln" : "UGood");
		ck_assert_pstr_eq(pd->model, "MG07SCA12TEY");
		ck_assert_pstr_eq(pd->serial, details ? "XXXXXXXXXXXXX" : NULL);
		ck_assert_pstr_eq(pd->wwn, details ? "5000039XXXXXXXXX" : NULL);
	}
}

START_TEST(perccli_controller)
{
	const struct inv_controller *c;
	const struct inv_array *a;

	import_ok("storcli", "storcli/perccli_call-show-all-j_PERC-H755.json");
	ck_assert_int_eq(inv.nr_controllers, 1);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "/c0");
	ck_assert_pstr_eq(c->source, "storcli");
	ck_assert_pstr_eq(c->model, "PERC H755 Front");
	ck_assert_pstr_eq(c->serial, "21XXXXX");
	ck_assert_pstr_eq(c->firmware, "5.260.02-3940");
	ck_assert_pstr_eq(c->driver, "megaraid_sas");
	ck_assert_pstr_eq(c->pci, "0000:65:00.0");	/* "00:65:00:00", Bus Number 101 */
	ck_assert_pstr_eq(c->mode, "raid");		/* "RAID-Mode " */
	ck_assert_int_eq(c->status, INV_OK);
	ck_assert_pstr_eq(c->status_text, "Optimal");
	ck_assert_ptr_null(c->slot);
	ck_assert_int_eq(c->nr_arrays, 1);
	a = array_of(c, "0");
	ck_assert_int_eq(a->status, INV_OK);
	ck_assert_pstr_eq(a->status_text, "Optl");
	ld_is(ld_of(a, "239"), "5", TIB(64.151), INV_UNSET, INV_OK, "Optl", -1, NULL);
	size_near(ld_of(a, "239")->size_bytes, 6 * (double)TIB(10.691));	/* 7 drives, one parity */
	ck_assert_int_eq(a->nr_pds, 7);
	ck_assert_int_eq(c->nr_unassigned, 1);
	h755_drives(c, false);
}
END_TEST

START_TEST(perccli_vall)
{
	const struct inv_array *a;

	import_ok("perccli", "storcli/perccli_call-vall-show-all-j_PERC-H755-raid5.json");
	a = array_of(ctrl(0), "0");
	ld_is(ld_of(a, "239"), "5", TIB(64.151), 262144, INV_OK, "Optl", -1, "/dev/sda");
	ck_assert_int_eq(a->nr_pds, 7);
	ck_assert_ptr_null(ctrl(0)->model);
}
END_TEST

START_TEST(perccli_drives)
{
	import_ok("storcli", "storcli/perccli_call-eall-sall-show-all-j_PERC-H755.json");
	ck_assert_int_eq(array_of(ctrl(0), "0")->nr_lds, 0);
	h755_drives(ctrl(0), true);
}
END_TEST

/* The three reads of one controller become one controller. */
START_TEST(perccli_joined)
{
	const struct inv_array *a;

	import_ok("storcli", "storcli/perccli_call-show-all-j_PERC-H755.json");
	ck_assert_int_eq(import_into("storcli", "storcli/perccli_call-vall-show-all-j_PERC-H755-raid5.json"), 0);
	ck_assert_int_eq(import_into("storcli", "storcli/perccli_call-eall-sall-show-all-j_PERC-H755.json"), 0);
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_int_eq(ctrl(0)->nr_arrays, 1);
	a = array_of(ctrl(0), "0");
	ck_assert_int_eq(a->nr_lds, 1);
	ld_is(ld_of(a, "239"), "5", TIB(64.151), 262144, INV_OK, "Optl", -1, "/dev/sda");
	ck_assert_int_eq(a->nr_pds, 7);
	h755_drives(ctrl(0), true);
	ck_assert_pstr_eq(ctrl(0)->model, "PERC H755 Front");
}
END_TEST

START_TEST(storcli_overview)
{
	import_ok("storcli", "storcli/storcli_show-all-J_system-overview.json");
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_pstr_eq(ctrl(0)->id, "/c0");
	ck_assert_pstr_eq(ctrl(0)->model, "HPEMR216i-aGen10+");
	ck_assert_int_eq(ctrl(0)->status, INV_OK);
	ck_assert_pstr_eq(ctrl(0)->status_text, "Opt");
}
END_TEST

START_TEST(storcli_change_results)
{
	char *ok = slurp("storcli/storcli_c0-add-vd-r1-drives-35_12-13-strip512-J_success_reserialized.json");
	char *bad = slurp("storcli/storcli_c0-e252-s7-set-good-J_failure-ErrCd255_reserialized.json");
	struct raidtool_run run = { .out = ok, .errout = (char *)"" };

	ck_assert_msg(raidtool_storcli.check(&run, err, sizeof(err)) == 0, "%s", err);
	run.out = bad;
	run.status = 255;	/* the exit status is the ErrCd */
	ck_assert_int_eq(raidtool_storcli.check(&run, err, sizeof(err)), -EIO);
	ck_assert_str_eq(err, "Set Drive Good Failed.; /c0/e252/s7: Operation not allowed. "
			 "(ErrCd 255)");
	run.out = (char *)"storcli: command not found\n";
	run.status = 127;
	ck_assert_int_eq(raidtool_storcli.check(&run, err, sizeof(err)), -EIO);
	ck_assert_ptr_nonnull(strstr(err, "exit status 127"));

	/* imported: a success without body is a change's answer, refused; a failure says why */
	ck_assert_int_eq(import_into("storcli", "storcli/storcli_c0-add-vd-r1-drives-35_12-13-strip512-J_success_reserialized.json"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "only the answer to a command (\"Add VD Succeeded.\")"));
	ck_assert_int_eq(inv.nr_controllers, 0);
	inv_reset();
	ck_assert_int_eq(import_into("storcli", "storcli/storcli_c0-e252-s7-set-good-J_failure-ErrCd255_reserialized.json"), -EIO);
	ck_assert_ptr_nonnull(strstr(err, "Operation not allowed. (ErrCd 255)"));
	ck_assert_int_eq(inv.nr_controllers, 0);
	free(ok);
	free(bad);
}
END_TEST

/* raid-cli.md 3.4: "Status" : "Failure" can carry a complete, valid body. */
START_TEST(storcli_failure_with_body)
{
	char *text = slurp("storcli/perccli_call-show-all-j_PERC-H755.json");
	char *p = strstr(text, "\"Status\" : \"Success\"");

	ck_assert_ptr_nonnull(p);
	memcpy(p, "\"Status\" : \"Failure\"", 20);
	ck_assert_msg(parse_with(&raidtool_storcli, text, "/c0 show all J") == 0, "%s", err);
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_int_eq(array_of(ctrl(0), "0")->nr_pds, 7);
	ck_assert_int_eq(inv.nr_notes, 1);
	ck_assert_ptr_nonnull(strstr(inv.notes[0], "Failure"));
	free(text);
}
END_TEST

START_TEST(storcli_unreadable)
{
	/* neither JSON nor storcli's text (a text without J is read: storcli_text_*) */
	ck_assert_int_eq(parse_with(&raidtool_storcli, "Generating detailed summary\nnothing\n",
				    "/call show all"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "neither storcli's JSON nor its text"));
	ck_assert_int_eq(parse_with(&raidtool_storcli, "{\n\"Controllers\":[\n{\n\t\"Command",
				    "/call show all J"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "storcli: cannot understand the output of "
				     "`/call show all J`"));
	ck_assert_ptr_nonnull(strstr(err, "line 4"));
	ck_assert_int_eq(parse_with(&raidtool_storcli, "{\"Other\": 1}", "x"), -EBADMSG);
	ck_assert_int_eq(inv.nr_controllers, 0);
	/* perccli2 8.x's table (rows of thomas-krenn/check_lsi_raid#41): refused, not half read */
	ck_assert_int_eq(parse_with(&raidtool_storcli,
				    "CLI Version = 008.0004.0000.0022 Apr 28, 2023\nController = 0\n"
				    "Status = Success\nDescription = Show Drive Group succeeded.\n\n"
				    "TOPOLOGY :\n========\n\n"
				    "-------------------------------------------------------------------"
				    "------------\n"
				    "DG Span Row EID:Slot PID Type   State Status BT       Size PDC  "
				    "Secured FSpace\n"
				    "-------------------------------------------------------------------"
				    "------------\n"
				    " 0 -    -   -        -   RAID10 -     -      N   2.618 TiB dflt N       "
				    "N\n"
				    " 0 0    0   268:0    257 DRIVE  Conf  Online N  893.75 GiB dflt N       "
				    "-\n"
				    "-------------------------------------------------------------------"
				    "------------\n", "/c0/dall show all"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "storcli2/perccli2 (8.x) table"));
	/* two documents back to back (one capture of two commands) */
	ck_assert_int_eq(parse_with(&raidtool_storcli,
				    "Generating detailed summary of the adapter\n"
				    "{\"Controllers\":[{\"Command Status\":{\"Controller\":0,\"Status\":"
				    "\"Success\"},\"Response Data\":{\"/c0/v1\":[{\"DG/VD\":\"0/1\","
				    "\"TYPE\":\"RAID10\",\"State\":\"Dgrd\",\"Size\":\"1.5 TB\"}]}}]}\n"
				    "{\"Controllers\":[{\"Command Status\":{\"Controller\":\"0\",\"Status\":"
				    "\"Success\"},\"Response Data\":{\"Drive /c0/e252/s3\":[{\"EID:Slt\":"
				    "\"252:3\",\"State\":\"Rbld\",\"DG\":0,\"Size\":\"800 GB\"}],"
				    "\"Drive /c0/e252/s4\":[{\"EID:Slt\":\"252:4\",\"State\":\"GHS\",\"DG\":"
				    "\"-\",\"Size\":\"800 GB\"}]}}]}", "x"), 0);
	ld_is(ld_of(array_of(ctrl(0), "0"), "1"), "10", TIB(1.5), INV_UNSET, INV_DEGRADED, "Dgrd",
	      -1, NULL);
	pd_is(pd_of(ctrl(0), "252:3", "0"), "data", GIB(800), NULL, NULL, INV_REBUILDING, "Rbld");
	pd_is(pd_of(ctrl(0), "252:4", "unassigned"), "spare", GIB(800), NULL, NULL, INV_OK, "GHS");
}
END_TEST

/* A storcli text capture with the header a whole paste starts with. */
static int parse_text_with_header(const char *rel)
{
	char *body = slurp(rel), *text;
	int ret;

	ck_assert_int_ne(asprintf(&text, "CLI Version = 007.1912.0000.0000 Jun 30, 2021\n"
				  "Operating system = Linux\nController = 0\nStatus = Success\n"
				  "Description = None\n\n%s", body), -1);
	ret = parse_with(&raidtool_storcli, text, "/c0 show");
	free(text);
	free(body);
	return ret;
}

/* storcli without J: a MegaRAID 9361-8i RAID 10 with one mirror rebuilding (real tables). */
START_TEST(storcli_text_megaraid)
{
	const struct inv_controller *c;
	const struct inv_array *a;

	/* the excerpt alone says neither controller nor status: refused, not guessed */
	inv_reset();
	ck_assert_int_eq(import_into("storcli",
		"storcli/storcli_c0-show_9361-8i-RAID10-degraded-Rbld_excerpt_text.txt"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "header"));
	ck_assert_msg(parse_text_with_header(
		"storcli/storcli_c0-show_9361-8i-RAID10-degraded-Rbld_excerpt_text.txt") == 0, "%s", err);
	ck_assert_int_eq(inv.nr_controllers, 1);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "/c0");
	a = array_of(c, "0");
	ck_assert_str_eq(inv_status_name(a->status), "degraded");	/* "RAID10 Dgrd" */
	ck_assert_pstr_eq(a->status_text, "Dgrd");
	ck_assert_int_eq(a->nr_pds, 8);
	pd_is(pd_of(c, "252:0", "0"), "data", TIB(10.913), "SATA", "hdd", INV_REBUILDING, "Rbld");
	for (int s = 1; s < 8; s++) {
		char id[16];

		snprintf(id, sizeof(id), "252:%d", s);
		pd_is(pd_of(c, id, "0"), "data", TIB(10.913), "SATA", "hdd", INV_OK, "Onln");
		ck_assert_pstr_eq(pd_of(c, id, "0")->model, "HGST HUH721212ALE604");
	}
	ck_assert_int_eq(c->nr_unassigned, 0);

	ck_assert_msg(parse_text_with_header(
		"storcli/storcli_c0-show_9361-8i-RAID10-optimal-after-rebuild_excerpt_text.txt") == 0,
		"%s", err);
	ck_assert_str_eq(inv_status_name(array_of(ctrl(0), "0")->status), "ok");
}
END_TEST

/* `/call show` without J: one header block per controller, each its own controller. */
START_TEST(storcli_text_two_controllers)
{
	char *one = slurp("storcli/storcli_c0-show_HBA-9500-16e-IT-16-JBOD_text.txt"), *two, *text;
	char *at = strstr(one, "Controller = 0");

	ck_assert_ptr_nonnull(at);
	two = strdup(at);
	ck_assert_ptr_nonnull(two);
	two[13] = '1';	/* "Controller = 1" */
	ck_assert_int_ne(asprintf(&text, "%s\n%s", one, two), -1);
	ck_assert_msg(parse_with(&raidtool_storcli, text, "/call show") == 0, "%s", err);
	ck_assert_int_eq(inv.nr_controllers, 2);
	ck_assert_pstr_eq(ctrl(0)->id, "/c0");
	ck_assert_pstr_eq(ctrl(1)->id, "/c1");
	for (size_t i = 0; i < 2; i++) {
		ck_assert_pstr_eq(ctrl(i)->model, "HBA 9500-16e");
		ck_assert_pstr_eq(ctrl(i)->driver, "ItSas35");
		ck_assert_int_eq(ctrl(i)->nr_passthrough, 16);
		pd_is(pd_of(ctrl(i), "2:11", "passthrough"), "passthrough", GIB(894.253),
		      "SAS", "ssd", INV_OK, "JBOD");
	}
	free(text);
	free(two);
	free(one);
}
END_TEST

/*
 * storcli2 (8.x) drive rows: the role from "State", the health from
 * "Status", the state's "Dgrd" suffix; a word not known is never "ok".
 * Words from the legend of the Checkmk capture (storcli2_call-eall-sall-*).
 */
START_TEST(storcli2_drive_words)
{
	const struct inv_controller *c;

	ck_assert_msg(parse_with(&raidtool_storcli,
		"{\"Controllers\":[{\"Command Status\":{\"Controller\":0,\"Status\":\"Success\"},"
		"\"Response Data\":{\"Drive Information\":["
		"{\"EID:Slt\":\"308:0\",\"PID\":283,\"State\":\"Conf\",\"Status\":\"Online\","
		"\"DG\":0,\"Size\":\"223.062 GiB\",\"Intf\":\"SATA\",\"Med\":\"SSD\"},"
		"{\"EID:Slt\":\"308:1\",\"PID\":284,\"State\":\"ConfDgrd\",\"Status\":\"Online\","
		"\"DG\":0,\"Size\":\"223.062 GiB\",\"Intf\":\"SATA\",\"Med\":\"SSD\"},"
		"{\"EID:Slt\":\"308:2\",\"PID\":285,\"State\":\"Conf\",\"Status\":\"Sideways\","
		"\"DG\":0,\"Size\":\"223.062 GiB\",\"Intf\":\"SATA\",\"Med\":\"SSD\"},"
		"{\"EID:Slt\":\"308:3\",\"PID\":286,\"State\":\"DHS\",\"Status\":\"Good\","
		"\"DG\":0,\"Size\":\"223.062 GiB\",\"Intf\":\"SATA\",\"Med\":\"SSD\"},"
		"{\"EID:Slt\":\"308:4\",\"PID\":287,\"State\":\"GHS\",\"Status\":\"Good\","
		"\"DG\":\"-\",\"Size\":\"223.062 GiB\",\"Intf\":\"SATA\",\"Med\":\"SSD\"},"
		"{\"EID:Slt\":\"308:5\",\"PID\":288,\"State\":\"UConf\",\"Status\":\"Good\","
		"\"DG\":\"-\",\"Size\":\"223.062 GiB\",\"Intf\":\"SATA\",\"Med\":\"SSD\"},"
		"{\"EID:Slt\":\"308:6\",\"PID\":289,\"State\":\"JBOD\",\"Status\":\"Online\","
		"\"DG\":\"-\",\"Size\":\"223.062 GiB\",\"Intf\":\"SATA\",\"Med\":\"SSD\"}"
		"]}}]}", "/call/eall/sall show J") == 0, "%s", err);
	c = ctrl(0);
	pd_is(pd_of(c, "308:0", "0"), "data", GIB(223.062), "SATA", "ssd", INV_OK, "Conf Online");
	pd_is(pd_of(c, "308:1", "0"), "data", GIB(223.062), "SATA", "ssd", INV_DEGRADED,
	      "ConfDgrd Online");
	pd_is(pd_of(c, "308:2", "0"), "data", GIB(223.062), "SATA", "ssd", INV_UNKNOWN,
	      "Conf Sideways");
	pd_is(pd_of(c, "308:3", "0"), "spare", GIB(223.062), "SATA", "ssd", INV_OK, "DHS Good");
	pd_is(pd_of(c, "308:4", "unassigned"), "spare", GIB(223.062), "SATA", "ssd", INV_OK,
	      "GHS Good");
	pd_is(pd_of(c, "308:5", "unassigned"), "unassigned", GIB(223.062), "SATA", "ssd", INV_OK,
	      "UConf Good");
	pd_is(pd_of(c, "308:6", "passthrough"), "passthrough", GIB(223.062), "SATA", "ssd", INV_OK,
	      "JBOD Online");
}
END_TEST

/* A column with no header, two blanks from the nearest one: refused, never guessed. */
START_TEST(storcli_text_blank_headed_column)
{
	ck_assert_int_eq(parse_with(&raidtool_storcli,
		"Controller = 0\nStatus = Success\nDescription = Show Drive Information Succeeded.\n\n"
		"Drive Information :\n=================\n\n"
		"-----------------------------------------------------\n"
		"EID:Slt DID State DG      Size Intf Med Model\n"
		"-----------------------------------------------------\n"
		"252:0     0 Onln   0 10.691 TB SAS  HDD MG07   SCA12TEY\n"
		"252:1     1 Onln   0 10.691 TB SAS  HDD MG07   SCA12TEY\n"
		"-----------------------------------------------------\n",
		"/call/eall/sall show"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "cannot be told apart"));
	ck_assert_int_eq(inv.nr_controllers, 0);
}
END_TEST

/* A table printed with single blanks (phpsysinfo's ServeRAID M5210): read one value per name. */
START_TEST(storcli_text_single_blank_table)
{
	static const char *const head =
		"Controller = 0\nStatus = Success\nDescription = None\n\nModel = ServeRAID M5210\n\n"
		"VD LIST :\n=======\n\n"
		"---------------------------------------------------------\n"
		"DG/VD TYPE State Access Consist Cache sCC Size Name\n"
		"---------------------------------------------------------\n";
	char text[1024];

	snprintf(text, sizeof(text), "%s0/0 RAID5 Optl RW Yes RWBD - 4.087 TB\n"
		 "1/1 RAID1 Dgrd RW No RWBD - 100 GB data\n"
		 "---------------------------------------------------------\n", head);
	ck_assert_msg(parse_with(&raidtool_storcli, text, "/call show all") == 0, "%s", err);
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_int_eq(inv.controllers[0].nr_arrays, 2);
	ck_assert_pstr_eq(inv.controllers[0].arrays[0].lds[0].raid_level, "5");
	ck_assert_int_eq(inv.controllers[0].arrays[0].lds[0].size_bytes, 4493704022721LL);
	ck_assert_int_eq(inv.controllers[0].arrays[1].lds[0].status, INV_DEGRADED);
	ck_assert_int_eq(inv.controllers[0].arrays[1].lds[0].size_bytes, 100LL << 30);
	/* a name with a blank: one value too many, which is whose is a guess */
	snprintf(text, sizeof(text), "%s0/0 RAID5 Optl RW Yes RWBD - 4.087 TB my data\n"
		 "---------------------------------------------------------\n", head);
	ck_assert_int_eq(parse_with(&raidtool_storcli, text, "/call show all"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "cannot be told apart"));
	/* a paste reflowed into paragraphs: a line holding another row's tail, as many values */
	snprintf(text, sizeof(text), "%sOFF 3.637 TB Data 2/2 RAID0 Optl RW Yes RWBD -\n"
		 "---------------------------------------------------------\n", head);
	ck_assert_int_eq(parse_with(&raidtool_storcli, text, "/call show all"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "cannot be told apart"));
}
END_TEST

/* The same rows as text and as J give one model (text transcribed from the JSON capture). */
START_TEST(storcli_text_json_pair)
{
	struct inventory json_inv;
	const char *text =
		"CLI Version = 007.2707.0000.0000 Dec 18, 2023\nOperating system = Linux\n"
		"Controller = 0\nStatus = Success\nDescription = None\n\n"
		"Product Name = PERC H755 Front\nSerial Number = 21XXXXX\n"
		"FW Version = 5.260.02-3940\nDriver Name = megaraid_sas\n"
		"Current Personality = RAID-Mode \n\n"
		"VD LIST :\n=======\n\n"
		"---------------------------------------------------------------\n"
		"DG/VD TYPE  State Access Consist Cache Cac sCC      Size Name\n"
		"---------------------------------------------------------------\n"
		"0/239 RAID5 Optl  RW     Yes     RWBD  -   ON  64.151 TB\n"
		"---------------------------------------------------------------\n\n"
		"PD LIST :\n=======\n\n"
		"-----------------------------------------------------------------------------\n"
		"EID:Slt DID State DG      Size Intf Med SED PI SeSz Model               Sp Type\n"
		"-----------------------------------------------------------------------------\n"
		"252:0     0 Onln   0 10.691 TB SAS  HDD N   N  512B MG07SCA12TEY        U  -\n"
		"252:7     7 UGood  - 10.691 TB SAS  HDD N   N  512B MG07SCA12TEY        U  -\n"
		"-----------------------------------------------------------------------------\n";
	const char *json =
		"{\"Controllers\":[{\"Command Status\":{\"Controller\":0,\"Status\":\"Success\","
		"\"Description\":\"None\"},\"Response Data\":{\"Product Name\":\"PERC H755 Front\","
		"\"Serial Number\":\"21XXXXX\",\"FW Version\":\"5.260.02-3940\","
		"\"Driver Name\":\"megaraid_sas\",\"Current Personality\":\"RAID-Mode \","
		"\"VD LIST\":[{\"DG/VD\":\"0/239\",\"TYPE\":\"RAID5\",\"State\":\"Optl\","
		"\"Size\":\"64.151 TB\"}],\"PD LIST\":[{\"EID:Slt\":\"252:0\",\"DID\":0,"
		"\"State\":\"Onln\",\"DG\":0,\"Size\":\"10.691 TB\",\"Intf\":\"SAS\",\"Med\":\"HDD\","
		"\"Model\":\"MG07SCA12TEY\"},{\"EID:Slt\":\"252:7\",\"DID\":7,\"State\":\"UGood\","
		"\"DG\":\"-\",\"Size\":\"10.691 TB\",\"Intf\":\"SAS\",\"Med\":\"HDD\","
		"\"Model\":\"MG07SCA12TEY\"}]}}]}";
	struct json_object *ja, *jb;

	ck_assert_msg(parse_with(&raidtool_storcli, json, "/c0 show J") == 0, "%s", err);
	json_inv = inv;
	memset(&inv, 0, sizeof(inv));
	ck_assert_msg(parse_with(&raidtool_storcli, text, "/c0 show") == 0, "%s", err);
	ja = inventory_to_json(&json_inv);
	jb = inventory_to_json(&inv);
	ck_assert_ptr_nonnull(ja);
	ck_assert_ptr_nonnull(jb);
	ck_assert_str_eq(json_object_to_json_string(jb), json_object_to_json_string(ja));
	ck_assert_pstr_eq(ctrl(0)->model, "PERC H755 Front");
	ck_assert_pstr_eq(ctrl(0)->mode, "raid");
	ld_is(ld_of(array_of(ctrl(0), "0"), "239"), "5", TIB(64.151), INV_UNSET, INV_OK, "Optl", -1,
	      NULL);
	pd_is(pd_of(ctrl(0), "252:7", "unassigned"), "unassigned", TIB(10.691), "SAS", "hdd", INV_OK,
	      "UGood");
	json_object_put(ja);
	json_object_put(jb);
	inventory_release(&json_inv);
}
END_TEST

/* ---- MegaCli --------------------------------------------------------------------- */

START_TEST(megacli_ldpdinfo)
{
	const struct inv_controller *c;
	const struct inv_array *a;
	const int slots[] = { 0, 2, 1, 3, 5, 4, 6, 7 };

	import_ok("megacli", "megacli/MegaCli_LDPDInfo-aAll-NoLog_raid1-primary1-8drives-span1.txt");
	ck_assert_int_eq(inv.nr_controllers, 1);
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "a0");
	ck_assert_pstr_eq(c->source, "megacli");
	a = array_of(c, "0");	/* "Drive's position: DiskGroup: 0" */
	ld_is(ld_of(a, "0"), "1", TIB(3.491), 65536, INV_OK, "Optimal", -1, NULL);
	ck_assert_int_eq(a->nr_pds, 8);
	for (size_t i = 0; i < 8; i++) {
		char id[16];
		const struct inv_pd *pd;

		snprintf(id, sizeof(id), "32:%d", slots[i]);
		pd = &a->pds[i];
		ck_assert_str_eq(pd->id, id);
		pd_is(pd, "data", 0x6fc81ab0LL * 512, "SATA", "ssd", INV_OK, "Online, Spun Up");
		ck_assert_pstr_eq(pd->model, "SAMSUNG MZ7LM960HCHP-00003");
	}
	ck_assert_pstr_eq(a->pds[0].serial, "S1YHNXAG804005");
	ck_assert_pstr_eq(a->pds[0].wwn, "5002538c4002e713");
}
END_TEST

START_TEST(megacli_ldinfo)
{
	const struct inv_controller *c;

	import_ok("megacli", "megacli/MegaCli_LdInfo-Lall-aALL_two-VDs.txt");
	c = ctrl(0);
	ck_assert_pstr_eq(c->id, "a0");
	/* no drive group known: each virtual drive its own array, never lumped */
	ck_assert_int_eq(c->nr_arrays, 2);
	ck_assert_ptr_null(c->arrays[0].id);
	ld_is(ld_of(&c->arrays[0], "0"), "1", GIB(136.125), 65536, INV_OK, "Optimal", -1, NULL);
	ld_is(ld_of(&c->arrays[1], "1"), "5", GIB(272.25), 65536, INV_OK, "Optimal", -1, NULL);
}
END_TEST

START_TEST(megacli_pdlist)
{
	const struct inv_controller *c;
	const int online[] = { 0, 2, 4, 6, 8, 10 }, ugood[] = { 1, 3, 5, 7 };

	import_ok("megacli", "megacli/MegaCli_PDList-aALL_unconfigured-good-hotspare.txt");
	c = ctrl(0);
	for (size_t i = 0; i < 6; i++) {
		char id[16];

		snprintf(id, sizeof(id), "9:%d", online[i]);
		pd_is(pd_of(c, id, "?"), "data", 0x22ecb25cLL * 512, "SAS", "hdd", INV_OK,
		      "Online, Spun Up");
	}
	for (size_t i = 0; i < 4; i++) {
		char id[16];
		const struct inv_pd *pd;

		snprintf(id, sizeof(id), "9:%d", ugood[i]);
		pd = pd_of(c, id, "unassigned");
		pd_is(pd, "unassigned", 0x45dd2fb0LL * 512, "SAS", "hdd", INV_OK,
		      "Unconfigured(good), Spun down");
		ck_assert_pstr_eq(pd->model, "HP EG0600FBLSH");
	}
	pd_is(pd_of(c, "9:12", "unassigned"), "spare", 0x22ecb25cLL * 512, "SAS", "hdd", INV_OK,
	      "Hotspare, Spun Up");
	ck_assert_int_eq(c->nr_unassigned, 5);
	ck_assert_int_eq(inv.nr_notes, 1);	/* which array the online drives are in: unsaid */
	ck_assert_ptr_nonnull(strstr(inv.notes[0], "6 drive(s) are in use by an array"));

	/* after -LDPDInfo (the live read's order) drives it placed stay placed */
	import_ok("megacli", "megacli/MegaCli_LDPDInfo-aAll-NoLog_raid1-primary1-8drives-span1.txt");
	{
		struct raidtool_src src = { "megacli", "-PDList -aALL -NoLog", NULL, NULL, 0 };

		ck_assert_int_eq(raidtool_megacli.parse(&inv, "Adapter #0\n\nEnclosure Device ID: 32\n"
			"Slot Number: 0\nFirmware state: Online, Spun Up\nPredictive Failure Count: 3\n"
			"Enclosure Device ID: 32\nSlot Number: 9\nFirmware state: Unconfigured(good)\n"
			"\nExit Code: 0x00\n", &src, err, sizeof(err)), 0);
	}
	ck_assert_int_eq(inv.nr_controllers, 1);
	ck_assert_int_eq(ctrl(0)->nr_arrays, 1);
	ck_assert_int_eq(array_of(ctrl(0), "0")->nr_pds, 8);
	ck_assert_pstr_eq(pd_of(ctrl(0), "32:0", "0")->model, "SAMSUNG MZ7LM960HCHP-00003");
	pd_is(pd_of(ctrl(0), "32:9", "unassigned"), "unassigned", INV_UNSET, NULL, NULL, INV_OK,
	      "Unconfigured(good)");
	ck_assert_int_eq(inv.nr_notes, 0);
}
END_TEST

START_TEST(megacli_unreadable)
{
	ck_assert_int_eq(parse_with(&raidtool_megacli, "nothing to see\n", "-LDPDInfo -aAll -NoLog"),
			 -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "megacli: cannot understand the output of "
				     "`-LDPDInfo -aAll -NoLog`"));
	ck_assert_int_eq(parse_with(&raidtool_megacli, "Adapter #0\nEnclosure Device ID: 32\n"
				    "Firmware state: Online, Spun Up\n", "x"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "line 3"));
}
END_TEST

/* ---- md ------------------------------------------------------------------------ */

static void member_is(const struct inv_md *md, size_t i, const char *dev, const char *role,
		      int slot)
{
	ck_assert_msg(i < md->nr_members, "member %zu of %zu", i, md->nr_members);
	ck_assert_pstr_eq(md->members[i].device, dev);
	ck_assert_pstr_eq(md->members[i].role, role);
	ck_assert_int_eq(md->members[i].slot, slot);
}

static void md_is(const struct inv_md *md, const char *name, const char *level, int64_t size,
		  enum inv_status st, const char *text, double pct, size_t members)
{
	ck_assert_pstr_eq(md->name, name);
	ck_assert_pstr_eq(md->raid_level, level);
	ck_assert_int_eq(md->size_bytes, size);
	ck_assert_str_eq(inv_status_name(md->status), inv_status_name(st));
	ck_assert_pstr_eq(md->status_text, text);
	ck_assert_msg(fabs(md->progress_pct - pct) < 1e-9, "progress %g, expected %g",
		      md->progress_pct, pct);
	ck_assert_int_eq(md->nr_members, members);
}

START_TEST(mdadm_detail_recovering)
{
	import_ok("mdadm", "mdadm/mdadm-detail_md126_raid1-degraded-recovering-30pct.txt");
	ck_assert_int_eq(inv.nr_md, 1);
	md_is(&inv.md[0], "md126", "1", 732515712LL * 1024, INV_REBUILDING,
	      "clean, degraded, recovering", 30, 2);
	member_is(&inv.md[0], 0, "sda2", "rebuilding", 0);	/* "spare rebuilding", into slot 0 */
	member_is(&inv.md[0], 1, "sdb2", "active", 1);
}
END_TEST

/* One rebuild seen both ways in the test guest: each names vdd "rebuilding", not "spare". */
START_TEST(md_rebuilding_both_ways)
{
	import_ok("mdstat", "mdadm/proc-mdstat_vm-raid5-virtio-recovery-80.3pct.txt");
	md_is(&inv.md[0], "md0", "5", 61440LL * 1024, INV_REBUILDING,
	      "active [3/2] [U_U], degraded, recovery = 80.3%", 80.3, 4);
	member_is(&inv.md[0], 0, "vdd", "rebuilding", INV_UNSET);
	member_is(&inv.md[0], 2, "vdb", "faulty", INV_UNSET);
	import_ok("mdadm", "mdadm/mdadm-detail_vm-raid5-virtio-recovering-90pct.txt");
	md_is(&inv.md[0], "md0", "5", 61440LL * 1024, INV_REBUILDING,
	      "clean, degraded, recovering", 90, 4);
	member_is(&inv.md[0], 1, "vdd", "rebuilding", 1);
	member_is(&inv.md[0], 3, "vdb", "faulty", INV_UNSET);
}
END_TEST

START_TEST(mdstat_files)
{
	import_ok("mdstat", "mdadm/proc-mdstat_degraded-raid5-faulty-F.txt");
	ck_assert_int_eq(inv.nr_md, 1);
	md_is(&inv.md[0], "md0", "5", 8385664LL * 1024, INV_DEGRADED,
	      "active [3/2] [U_U], degraded", -1, 3);
	member_is(&inv.md[0], 0, "sdc1", "faulty", INV_UNSET);
	member_is(&inv.md[0], 1, "sdb1", "active", INV_UNSET);

	import_ok("mdstat", "mdadm/proc-mdstat_healthy_raid1-raid0-bitmaps-centos6.txt");
	ck_assert_int_eq(inv.nr_md, 5);
	md_is(&inv.md[0], "md4", "1", 238456700LL * 1024, INV_OK, "active [2/2] [UU]", -1, 2);
	md_is(&inv.md[2], "md0", "1", 102388LL * 1024, INV_OK, "active [2/2] [UU]", -1, 2);
	md_is(&inv.md[3], "md1", "0", 8386560LL * 1024, INV_OK, "active", -1, 2);
	member_is(&inv.md[3], 0, "sdb2", "active", INV_UNSET);

	import_ok("mdstat", "mdadm/proc-mdstat_no-arrays.txt");
	ck_assert_int_eq(inv.nr_md, 0);

	import_ok("mdstat", "mdadm/proc-mdstat_raid1-check-98pct.txt");
	ck_assert_int_eq(inv.nr_md, 3);
	md_is(&inv.md[0], "md2", "1", 2927641919LL * 1024, INV_OK,
	      "active [2/2] [UU], check = 98.3%", 98.3, 2);	/* a scrub: healthy, busy */
	md_is(&inv.md[1], "md1", "1", 524276LL * 1024, INV_OK, "active [2/2] [UU]", -1, 2);
	/* "sda3[2]" is a descriptor number: [2/2] [UU] says both members are active */
	member_is(&inv.md[0], 1, "sda3", "active", INV_UNSET);
	member_is(&inv.md[1], 0, "sda2", "active", INV_UNSET);
	member_is(&inv.md[2], 0, "sda1", "active", INV_UNSET);

	import_ok("mdstat", "mdadm/proc-mdstat_raid5-recovery-12pct_pymdstat05.txt");
	md_is(&inv.md[0], "md127", "5", 1464725760LL * 1024, INV_REBUILDING,
	      "active [6/5] [UUUUU_], degraded, recovery = 12.6%", 12.6, 6);
	/* sdh1[6]: numbered past the 6 disks, it is the one being rebuilt, not a healthy member */
	ck_assert_pstr_eq(inv.md[0].members[0].device, "sdh1");
	ck_assert_pstr_eq(inv.md[0].members[0].role, "rebuilding");
	ck_assert_pstr_eq(inv.md[0].members[1].role, "active");
}
END_TEST

START_TEST(md_other_forms)
{
	ck_assert_int_eq(parse_with(&raidtool_mdadm,
				    "Personalities : [raid1]\nmd9 : active raid1 sdb[1] sda[0] sdc[2](S)\n"
				    "      100 blocks [2/2] [UU]\n        resync=DELAYED\n"
				    "md8 : inactive sdd[0](S)\n      50 blocks\n"
				    "md7 : active raid6 sde[0] sdf[1] sdg[2] sdh[3]\n"
				    "      200 blocks level 6 [4/4] [UUUU]\n"
				    "      [>....]  reshape =  1.5% (1/2) finish=1min\n"
				    "unused devices: <none> \n", "/proc/mdstat"), 0);
	md_is(&inv.md[0], "md9", "1", 102400, INV_INITIALIZING, "active [2/2] [UU], resync=DELAYED",
	      -1, 3);
	member_is(&inv.md[0], 2, "sdc", "spare", INV_UNSET);
	md_is(&inv.md[1], "md8", NULL, 51200, INV_OFFLINE, "inactive", -1, 1);
	md_is(&inv.md[2], "md7", "6", 204800, INV_TRANSFORMING,
	      "active [4/4] [UUUU], reshape = 1.5%", 1.5, 4);
	/* a paste's prompt line; a rebuild queued behind another (DELAYED) on a degraded array */
	ck_assert_int_eq(parse_with(&raidtool_mdadm,
				    "$ cat /proc/mdstat\nPersonalities : [raid1]\n"
				    "md1 : active raid1 sda2[2] sdb2[1]\n      10 blocks [2/1] [_U]\n"
				    "        resync=DELAYED\n"
				    "md_d0 : active raid5 sde1[0] sdb1[5] sdd1[2](S) sdc1[1]\n"
				    "20 blocks level 5, 64k chunk, algorithm 2 [3/3] [UUU]\n", "/proc/mdstat"), 0);
	md_is(&inv.md[0], "md1", "1", 10240, INV_REBUILDING,
	      "active [2/1] [_U], degraded, resync=DELAYED", -1, 2);
	member_is(&inv.md[0], 0, "sda2", "rebuilding", INV_UNSET);
	member_is(&inv.md[0], 1, "sdb2", "active", INV_UNSET);
	/* it ends on md_d0's state line: a resync line after it may be cut off */
	md_is(&inv.md[1], "md_d0", "5", 20480, INV_UNKNOWN, "active [3/3] [UUU]; the capture ends "
	      "here, before 'unused devices:' (an operation in progress may be cut off)", -1, 4);
	member_is(&inv.md[1], 1, "sdb1", "active", INV_UNSET);
	member_is(&inv.md[1], 2, "sdd1", "spare", INV_UNSET);
	ck_assert_int_eq(parse_with(&raidtool_mdadm, "md0 : active raid1 sda[0]\n", "/proc/mdstat"),
			 -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "line 1"));
	/* cut short: in the name line, before the blocks line, before the member state */
	ck_assert_int_eq(parse_with(&raidtool_mdadm, "Personalities : [raid1]\nmd0 : act",
				    "/proc/mdstat"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "line 2: md0 has no active/inactive state"));
	ck_assert_int_eq(parse_with(&raidtool_mdadm, "Personalities : [raid1]\n"
				    "md0 : active raid1 sdb[1] sda[0]\n", "/proc/mdstat"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "md0 ends before its \"N blocks ...\" line"));
	ck_assert_int_eq(parse_with(&raidtool_mdadm, "Personalities : [raid1]\n"
				    "md0 : active raid1 sdb[1] sda[0]\n      100 blocks [2/",
				    "/proc/mdstat"), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(err, "md0 (RAID 1) has no \"[n/m] [UU]\" member state"));
	ck_assert_int_eq(parse_with(&raidtool_mdadm, "        Version : 1.2\n", "--detail"),
			 -EBADMSG);
	ck_assert_int_eq(parse_with(&raidtool_mdadm,
				    "mdadm: cannot open /dev/md9: No such file or directory\n",
				    "--detail /dev/md9"), -EIO);
	ck_assert_ptr_nonnull(strstr(err, "No such file or directory"));
}
END_TEST

/* Sizes past 8 EiB: refused naming the line, or unknown; never a wrapped number ("0 B"). */
/* forms read in the third round of outside captures (tests/fixtures/vendor/SOURCES.md) */
START_TEST(md_old_and_cut_forms)
{
	static const char *const head = "/dev/md0:\n  Raid Level : raid1\n"
					"  Total Devices : 3\n        State : clean \n";
	char text[512];

	/* 2.2-era: size and state on the array's own line, the state wrapped onto the next */
	ck_assert_msg(parse_with(&raidtool_mdadm, "Personalities : [raid1] [raid5] \n"
				 "md0 : active raid5 sdd1[3](F) sdc6[2] sdb6[1] sda5[0] 633984 blocks\n"
				 " level 5, 32k chunk, algorithm 2 [4/3] [UUU_] \n"
				 "unused devices: <none>\n", "/proc/mdstat") == 0, "%s", err);
	md_is(&inv.md[0], "md0", "5", 633984LL * 1024, INV_DEGRADED, "active [4/3] [UUU_], degraded",
	      -1, 4);
	member_is(&inv.md[0], 0, "sdd1", "faulty", INV_UNSET);
	/* the Personalities line wrapped; a map of 24 slots kept whole */
	ck_assert_msg(parse_with(&raidtool_mdadm, "Personalities : [linear] [raid0] \n"
				 "                [raid4] [raid10] \n"
				 "md9 : active raid1 sdb1[0] sda1[1]\n      530048 blocks super 1.0 "
				 "[24/2] [UU______________________]\n\nunused devices: <none>\n",
				 "/proc/mdstat") == 0, "%s", err);
	md_is(&inv.md[0], "md9", "1", 530048LL * 1024, INV_DEGRADED,
	      "active [24/2] [UU______________________], degraded", -1, 2);
	/* a RAID 5's write journal (J): neither a member being rebuilt nor one in [n/w] */
	ck_assert_msg(parse_with(&raidtool_mdadm, "Personalities : [raid5]\n"
				 "md0 : active raid5 nvme2n1[4] dm-0[3](J) nvme1n1[1] nvme0n1[0]\n"
				 "      100 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/3] [UUU]\n\n"
				 "unused devices: <none>\n", "/proc/mdstat") == 0, "%s", err);
	md_is(&inv.md[0], "md0", "5", 102400, INV_OK, "active [3/3] [UUU]", -1, 4);
	member_is(&inv.md[0], 0, "nvme2n1", "active", INV_UNSET);
	member_is(&inv.md[0], 1, "dm-0", "journal", INV_UNSET);
	ck_assert_msg(parse_with(&raidtool_mdadm, "/dev/md0:\n  Raid Level : raid5\n"
				 "  Total Devices : 2\n        State : clean \n"
				 "    Number   Major   Minor   RaidDevice State\n"
				 "       0     259        1        0      active sync   /dev/nvme0n1\n"
				 "       3     253        0        -      journal   /dev/dm-0\n",
				 "--detail") == 0, "%s", err);
	member_is(&inv.md[0], 1, "dm-0", "journal", INV_UNSET);
	/* --detail: an --examine is named; a capture cut before or inside the member table */
	ck_assert_int_eq(parse_with(&raidtool_mdadm, "/dev/sdc1:\n          Magic : a92b4efc\n"
				    "   Array State : A. ('A' == active, '.' == missing)\n", "--detail"),
			 -EBADMSG);
	ck_assert_msg(strstr(err, "line 2: this is `mdadm --examine`"), "%s", err);
	ck_assert_int_eq(parse_with(&raidtool_mdadm, head, "--detail"), -EBADMSG);
	ck_assert_msg(strstr(err, "md0 ends before its member table"), "%s", err);
	snprintf(text, sizeof(text), "%s    Number   Major   Minor   RaidDevice State\n"
		 "       0     254        1        0      active sync   /dev/vda1\n"
		 "       2     254        2        1      active sync   /dev/vda2\n", head);
	ck_assert_int_eq(parse_with(&raidtool_mdadm, text, "--detail"), -EBADMSG);
	ck_assert_msg(strstr(err, "md0 lists 2 of its 3 devices"), "%s", err);
	/* degraded and a resync pending: degraded first; with a member being rebuilt, rebuilding */
	ck_assert_msg(parse_with(&raidtool_mdadm, "/dev/md1:\n  Raid Level : raid1\n"
				 "  State : clean, degraded, resyncing (PENDING)\n"
				 "    Number   Major   Minor   RaidDevice State\n"
				 "       0       8        1        0      active sync   /dev/sda1\n",
				 "--detail") == 0, "%s", err);
	ck_assert_int_eq(inv.md[0].status, INV_DEGRADED);
	ck_assert_msg(parse_with(&raidtool_mdadm, "/dev/md1:\n  Raid Level : raid1\n"
				 "  State : clean, degraded, resyncing (PENDING)\n"
				 "    Number   Major   Minor   RaidDevice State\n"
				 "       0       8        1        0      active sync   /dev/sda1\n"
				 "       2       8       17        1      spare rebuilding   /dev/sdb1\n",
				 "--detail") == 0, "%s", err);
	ck_assert_int_eq(inv.md[0].status, INV_REBUILDING);
	/* the third: faulty beside a clean mirror, which is then not ok */
	snprintf(text + strlen(text), sizeof(text) - strlen(text),
		 "       3     254        4        -      faulty   /dev/vda4\n");
	ck_assert_msg(parse_with(&raidtool_mdadm, text, "--detail") == 0, "%s", err);
	md_is(&inv.md[0], "md0", "1", INV_UNSET, INV_DEGRADED, "clean", -1, 3);
	member_is(&inv.md[0], 2, "vda4", "faulty", INV_UNSET);
}
END_TEST

START_TEST(sizes_past_8_eib)
{
	static const char *const huge[] = { "18014398509481984", "9999999999999999999",
					    "99999999999999999999999999" };
	char text[256], *mega, *raw;

	for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		snprintf(text, sizeof(text), "/dev/md126:\n     Array Size : %s (huge)\n", huge[i]);
		ck_assert_int_eq(parse_with(&raidtool_mdadm, text, "--detail /dev/md126"), -EBADMSG);
		ck_assert_msg(strstr(err, "line 2: the array size is beyond 8 EiB"), "%s", err);
	}
	/* the largest that fits is kept exactly */
	ck_assert_msg(parse_with(&raidtool_mdadm, "/dev/md1:\n  Array Size : 9007199254740991 (x)\n"
				 "    Number   Major   Minor   RaidDevice State\n",
				 "--detail /dev/md1") == 0, "%s", err);
	ck_assert_int_eq(inv.md[0].size_bytes, 9007199254740991LL * 1024);

	ck_assert_msg(parse_with(&raidtool_mdadm, "Personalities : [raid1]\n"
				 "md9 : active raid1 sdb[99999999999] sda[0]\n"
				 "      18014398509481984 blocks [2/2] [UU]\n"
				 "      [>....]  resync = 100000000000000000000000000000000000000%\n",
				 "/proc/mdstat") == 0, "%s", err);
	ck_assert_int_eq(inv.md[0].size_bytes, INV_UNSET);
	ck_assert_msg(inv.md[0].progress_pct <= 100, "progress %g", inv.md[0].progress_pct);

	/* megacli's exact sector count: 2^55 sectors are 2^64 bytes */
	mega = slurp("megacli/MegaCli_LDPDInfo-aAll-NoLog_raid1-primary1-8drives-span1.txt");
	raw = strstr(mega, "[0x6fc81ab0 Sectors]");
	ck_assert_ptr_nonnull(raw);
	{
		char *fixed = NULL;

		ck_assert_int_ge(asprintf(&fixed, "%.*s[0x80000000000000 Sectors]%s", (int)(raw - mega),
					  mega, raw + strlen("[0x6fc81ab0 Sectors]")), 0);
		ck_assert_msg(parse_with(&raidtool_megacli, fixed, "-LDPDInfo -aAll -NoLog") == 0,
			      "%s", err);
		free(fixed);
	}
	ck_assert_int_eq(array_of(ctrl(0), "0")->pds[0].size_bytes, INV_UNSET);
	free(mega);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("vendor");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, perccli_controller);
	tcase_add_test(tc, perccli_vall);
	tcase_add_test(tc, perccli_drives);
	tcase_add_test(tc, perccli_joined);
	tcase_add_test(tc, storcli_overview);
	tcase_add_test(tc, storcli_change_results);
	tcase_add_test(tc, storcli_failure_with_body);
	tcase_add_test(tc, storcli_unreadable);
	tcase_add_test(tc, storcli_text_megaraid);
	tcase_add_test(tc, storcli_text_json_pair);
	tcase_add_test(tc, storcli_text_two_controllers);
	tcase_add_test(tc, storcli2_drive_words);
	tcase_add_test(tc, storcli_text_blank_headed_column);
	tcase_add_test(tc, storcli_text_single_blank_table);
	tcase_add_test(tc, megacli_ldpdinfo);
	tcase_add_test(tc, megacli_ldinfo);
	tcase_add_test(tc, megacli_pdlist);
	tcase_add_test(tc, megacli_unreadable);
	tcase_add_test(tc, mdadm_detail_recovering);
	tcase_add_test(tc, mdstat_files);
	tcase_add_test(tc, md_rebuilding_both_ways);
	tcase_add_test(tc, md_other_forms);
	tcase_add_test(tc, md_old_and_cut_forms);
	tcase_add_test(tc, sizes_past_8_eib);
	tcase_add_checked_fixture(tc, NULL, inv_reset);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
