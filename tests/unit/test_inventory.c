/*
 * test_inventory.c - the inventory model (hw/inventory.c): append helpers
 * start every field unset, unset fields are JSON null, the schema's keys,
 * merge, and the normalizers the vendor parsers share (RAID levels, sizes).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "check_util.h"
#include "hw/inventory.h"

static struct json_object *key(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, k, &v), "key \"%s\" missing in %s", k,
		      json_object_to_json_string(o));
	return v;
}

static void assert_null(struct json_object *o, const char *k)
{
	struct json_object *v = key(o, k);

	ck_assert_msg(v == NULL, "\"%s\" is %s, expected null", k, json_object_to_json_string(v));
}

START_TEST(added_elements_are_unset)
{
	struct inventory inv = { 0 };
	struct inv_controller *c = inv_add_controller(&inv);
	struct inv_blockdev *b;
	struct inv_md *md;
	struct inv_ld *ld;
	struct inv_pd *pd;

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->numa_node, INV_NO_NUMA);
	ck_assert_int_eq(c->status, INV_UNKNOWN);
	ck_assert(!c->pcie.known);
	ld = inv_add_ld(inv_add_array(c));
	ck_assert_int_eq(ld->size_bytes, INV_UNSET);
	ck_assert_int_eq(ld->strip_size_bytes, INV_UNSET);
	ck_assert(ld->progress_pct < 0);
	pd = inv_add_pd(&c->unassigned, &c->nr_unassigned);
	ck_assert_int_eq(pd->size_bytes, INV_UNSET);
	ck_assert_int_eq(pd->status, INV_UNKNOWN);
	md = inv_add_md(&inv);
	ck_assert(md->progress_pct < 0);
	ck_assert_int_eq(inv_add_md_member(md)->slot, INV_UNSET);
	b = inv_add_blockdev(&inv);
	ck_assert_int_eq(b->rotational, INV_UNSET);
	ck_assert_int_eq(b->queue_depth, INV_UNSET);
	ck_assert_int_eq(b->numa_node, INV_NO_NUMA);
	ck_assert_int_eq(inv_add_note(&inv, "needs %s", "root"), 0);
	ck_assert_str_eq(inv.notes[0], "needs root");
	inventory_release(&inv);
	ck_assert_uint_eq(inv.nr_controllers, 0);
}
END_TEST

START_TEST(json_schema_and_nulls)
{
	struct inventory inv = { 0 };
	struct inv_controller *c = inv_add_controller(&inv);
	struct inv_blockdev *b;
	struct json_object *j, *jc, *jb, *jp, *jmd;
	struct inv_md *md;

	c->id = strdup("0000:05:00.0");
	c->pcie.known = true;
	c->pcie.speed_gts = 5.0;
	c->pcie.width = 1;
	c->pcie.max_speed_gts = 8.0;
	c->pcie.max_width = 8;
	c->status = INV_OK;
	b = inv_add_blockdev(&inv);
	b->name = strdup("sda");
	ck_assert_int_eq(inv_add_str(&b->mounts, &b->nr_mounts, "/boot"), 0);
	md = inv_add_md(&inv);
	md->name = strdup("md0");
	md->status = INV_REBUILDING;
	md->progress_pct = 12.5;

	j = inventory_to_json(&inv);
	ck_assert_ptr_nonnull(j);
	jc = json_object_array_get_idx(key(j, "controllers"), 0);
	ck_assert_str_eq(json_object_get_string(key(jc, "id")), "0000:05:00.0");
	ck_assert_str_eq(json_object_get_string(key(jc, "status")), "ok");
	assert_null(jc, "numa_node");
	assert_null(jc, "model");
	assert_null(jc, "status_text");
	ck_assert_uint_eq(json_object_array_length(key(jc, "arrays")), 0);
	ck_assert_uint_eq(json_object_array_length(key(jc, "unassigned_drives")), 0);
	ck_assert_uint_eq(json_object_array_length(key(jc, "passthrough_drives")), 0);
	jp = key(jc, "pcie");
	ck_assert_double_eq(json_object_get_double(key(jp, "speed_gts")), 5.0);
	ck_assert_int_eq(json_object_get_int(key(jp, "width")), 1);
	ck_assert_double_eq(json_object_get_double(key(jp, "max_speed_gts")), 8.0);
	ck_assert_int_eq(json_object_get_int(key(jp, "max_width")), 8);
	ck_assert(json_object_get_boolean(key(jp, "degraded")));
	jb = json_object_array_get_idx(key(j, "block_devices"), 0);
	assert_null(jb, "size_bytes");
	assert_null(jb, "rotational");
	assert_null(jb, "controller");
	assert_null(jb, "signature");
	assert_null(jb, "why_not_write_safe");
	ck_assert(!json_object_get_boolean(key(jb, "write_safe")));
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(key(jb, "mounts"), 0)),
			 "/boot");
	jmd = json_object_array_get_idx(key(j, "md_arrays"), 0);
	ck_assert_str_eq(json_object_get_string(key(jmd, "status")), "rebuilding");
	ck_assert_double_eq(json_object_get_double(key(jmd, "progress_pct")), 12.5);
	ck_assert_uint_eq(json_object_array_length(key(j, "notes")), 0);
	json_object_put(j);

	/* an unknown link is null, and a full-speed link is not degraded */
	inv.controllers[0].pcie.known = false;
	j = inventory_to_json(&inv);
	assert_null(json_object_array_get_idx(key(j, "controllers"), 0), "pcie");
	json_object_put(j);
	inv.controllers[0].pcie = (struct inv_pcie){ true, 8.0, 8, 8.0, 8 };
	j = inventory_to_json(&inv);
	jp = key(json_object_array_get_idx(key(j, "controllers"), 0), "pcie");
	ck_assert(!json_object_get_boolean(key(jp, "degraded")));
	json_object_put(j);
	inventory_release(&inv);
}
END_TEST

START_TEST(merge_moves_everything)
{
	struct inventory a = { 0 }, b = { 0 };

	inv_add_controller(&a)->id = strdup("a");
	inv_add_controller(&b)->id = strdup("b");
	inv_add_md(&b)->name = strdup("md1");
	inv_add_note(&b, "from b");
	ck_assert_int_eq(inventory_merge(&a, &b), 0);
	ck_assert_uint_eq(a.nr_controllers, 2);
	ck_assert_str_eq(a.controllers[1].id, "b");
	ck_assert_uint_eq(a.nr_md, 1);
	ck_assert_uint_eq(a.nr_notes, 1);
	ck_assert_uint_eq(b.nr_controllers, 0);
	ck_assert_ptr_null(b.controllers);
	inventory_release(&a);
	inventory_release(&b);
}
END_TEST

static void level(const char *vendor, const char *want)
{
	const char *got = inv_normalize_raid_level(vendor);

	if (!want)
		ck_assert_msg(!got, "\"%s\" -> \"%s\", expected NULL", vendor ? vendor : "(null)",
			      got ? got : "(null)");
	else
		ck_assert_msg(got && !strcmp(got, want), "\"%s\" -> \"%s\", expected \"%s\"",
			      vendor, got ? got : "(null)", want);
}

START_TEST(raid_levels)
{
	level("RAID 1+0", "10");
	level("RAID10", "10");
	level("1+0", "10");
	level("raid5", "5");
	level("RAID 5", "5");
	level("RAID5", "5");
	level("RAID 6 (ADG)", "6");
	level("RAID 1(1+0)", "1");
	level("1ADM", "1adm");
	level("RAID 1(ADM)", "1adm");
	level("RAID 10(ADM)", "10adm");
	level("1+0 ADM", "10adm");
	level("RAID 50", "50");
	level("RAID60", "60");
	level("0", "0");
	level("linear", "linear");
	level("JBOD", "jbod");
	level("Primary-1, Secondary-0, RAID Level Qualifier-0", "1");
	level("Primary-5, Secondary-0, RAID Level Qualifier-3", "5");
	level("Primary-1, Secondary-3, RAID Level Qualifier-0", "10");
	level("Primary-6, Secondary-3, RAID Level Qualifier-3", "60");
	level("raid4", NULL);
	level("", NULL);
	level(NULL, NULL);
	level("RAID 5+1", NULL);
}
END_TEST

START_TEST(vendor_sizes)
{
	ck_assert_int_eq(inv_parse_vendor_size("3.64 TB", 1024), 4002222325105ll);
	ck_assert_int_eq(inv_parse_vendor_size("558.9 GB", 1000), 558900000000ll);
	ck_assert_int_eq(inv_parse_vendor_size("931.0 GiB", 1000), 999653638144ll);
	ck_assert_int_eq(inv_parse_vendor_size("1.818 TB", 1000), 1818000000000ll);
	ck_assert_int_eq(inv_parse_vendor_size("256 KB", 1024), 262144);
	ck_assert_int_eq(inv_parse_vendor_size("256KB", 1000), 256000);
	ck_assert_int_eq(inv_parse_vendor_size("512 B", 1000), 512);
	ck_assert_int_eq(inv_parse_vendor_size("4096", 1024), 4096);
	ck_assert_int_eq(inv_parse_vendor_size(" 2 TiB ", 1000), 2199023255552ll);
	ck_assert_int_eq(inv_parse_vendor_size("1 G", 1000), 1000000000);
	ck_assert_int_eq(inv_parse_vendor_size("abc", 1000), INV_UNSET);
	ck_assert_int_eq(inv_parse_vendor_size("12 XB", 1000), INV_UNSET);
	ck_assert_int_eq(inv_parse_vendor_size("1 TB extra", 1000), INV_UNSET);
	ck_assert_int_eq(inv_parse_vendor_size("1 TB", 999), INV_UNSET);
	ck_assert_int_eq(inv_parse_vendor_size(NULL, 1000), INV_UNSET);
	ck_assert_int_eq(inv_parse_vendor_size("-5 GB", 1000), INV_UNSET);
}
END_TEST

START_TEST(status_names)
{
	ck_assert_str_eq(inv_status_name(INV_OK), "ok");
	ck_assert_str_eq(inv_status_name(INV_PREDICTIVE_FAILURE), "predictive_failure");
	ck_assert_str_eq(inv_status_name(INV_UNKNOWN), "unknown");
	ck_assert_str_eq(inv_status_name((enum inv_status)99), "unknown");
}
END_TEST

static Suite *inventory_suite(void)
{
	Suite *s = suite_create("inventory");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, added_elements_are_unset);
	tcase_add_test(tc, json_schema_and_nulls);
	tcase_add_test(tc, merge_moves_everything);
	tcase_add_test(tc, raid_levels);
	tcase_add_test(tc, vendor_sizes);
	tcase_add_test(tc, status_names);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(inventory_suite)
