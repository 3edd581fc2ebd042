/*
 * vendor_util.h - helpers of the vendor-tool parser tests (test_ssacli.c,
 * test_vendor.c): fixture paths, importing into a fresh inventory, and
 * lookups that fail the test with both values printed.
 */
#ifndef RB_VENDOR_UTIL_H
#define RB_VENDOR_UTIL_H

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "hw/inventory.h"
#include "hw/raidtool.h"
#include "hw/raidtool_tools.h"

static struct inventory inv;
static char err[4096];

static inline const char *fixture(const char *rel)
{
	static char buf[PATH_MAX];
	const char *src = getenv("SRCDIR") ? getenv("SRCDIR") : ".";

	snprintf(buf, sizeof(buf), "%s/tests/fixtures/vendor/%s", src, rel);
	return buf;
}

static inline void inv_reset(void)
{
	inventory_release(&inv);
	memset(&inv, 0, sizeof(inv));
	err[0] = '\0';
}

static inline void import_ok(const char *tool, const char *rel)
{
	int ret;

	inv_reset();
	ret = raidtool_import(&inv, tool, fixture(rel), err, sizeof(err));
	ck_assert_msg(ret == 0, "import %s:%s returned %d: %s", tool, rel, ret, err);
}

static inline int import_into(const char *tool, const char *rel)
{
	err[0] = '\0';
	return raidtool_import(&inv, tool, fixture(rel), err, sizeof(err));
}

/* Reads a whole fixture (for the change-output checks). Caller frees. */
static inline char *slurp(const char *rel)
{
	FILE *f = fopen(fixture(rel), "r");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", fixture(rel));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static inline const struct inv_controller *ctrl(size_t i)
{
	ck_assert_msg(i < inv.nr_controllers, "controller %zu of %zu", i, inv.nr_controllers);
	return &inv.controllers[i];
}

/* The array with this id; "?" = the one without id. */
static inline const struct inv_array *array_of(const struct inv_controller *c, const char *id)
{
	for (size_t i = 0; i < c->nr_arrays; i++)
		if (!strcmp(id, "?") ? !c->arrays[i].id :
		    (c->arrays[i].id && !strcmp(c->arrays[i].id, id)))
			return &c->arrays[i];
	ck_abort_msg("no array %s on %s (%zu arrays)", id, c->id ? c->id : "(null)",
		     c->nr_arrays);
	return NULL;
}

static inline const struct inv_ld *ld_of(const struct inv_array *a, const char *id)
{
	for (size_t i = 0; i < a->nr_lds; i++)
		if (a->lds[i].id && !strcmp(a->lds[i].id, id))
			return &a->lds[i];
	ck_abort_msg("no logical drive %s in array %s", id, a->id ? a->id : "?");
	return NULL;
}

/*
 * The drive with this address and where it is: "A" (an array id), "?" (the
 * array without id), "unassigned" or "passthrough".
 */
static inline const struct inv_pd *pd_of(const struct inv_controller *c, const char *id,
				  const char *where)
{
	const struct inv_pd *list = NULL;
	size_t nr = 0;

	if (!strcmp(where, "unassigned")) {
		list = c->unassigned;
		nr = c->nr_unassigned;
	} else if (!strcmp(where, "passthrough")) {
		list = c->passthrough;
		nr = c->nr_passthrough;
	} else {
		const struct inv_array *a = array_of(c, where);

		list = a->pds;
		nr = a->nr_pds;
	}
	for (size_t i = 0; i < nr; i++)
		if (list[i].id && !strcmp(list[i].id, id))
			return &list[i];
	ck_abort_msg("no drive %s in %s", id, where);
	return NULL;
}

static inline void pd_is(const struct inv_pd *pd, const char *role, int64_t size, const char *iface,
		  const char *media, enum inv_status st, const char *text)
{
	ck_assert_pstr_eq(pd->role, role);
	ck_assert_int_eq(pd->size_bytes, size);
	ck_assert_pstr_eq(pd->interface, iface);
	ck_assert_pstr_eq(pd->media, media);
	ck_assert_str_eq(inv_status_name(pd->status), inv_status_name(st));
	ck_assert_pstr_eq(pd->status_text, text);
}

static inline void ld_is(const struct inv_ld *ld, const char *level, int64_t size, int64_t strip,
		  enum inv_status st, const char *text, double pct, const char *os)
{
	ck_assert_pstr_eq(ld->raid_level, level);
	ck_assert_int_eq(ld->size_bytes, size);
	ck_assert_int_eq(ld->strip_size_bytes, strip);
	ck_assert_str_eq(inv_status_name(ld->status), inv_status_name(st));
	ck_assert_pstr_eq(ld->status_text, text);
	ck_assert_msg(fabs(ld->progress_pct - pct) < 1e-9, "progress %g, expected %g",
		      ld->progress_pct, pct);
	ck_assert_pstr_eq(ld->os_device, os);
}

/* A vendor size within 0.5% of what the drives make (binary labels, rounding). */
static inline void size_near(int64_t got, double want)
{
	ck_assert_msg(fabs((double)got - want) <= want * 0.005, "size %lld, expected about %.0f",
		      (long long)got, want);
}

#endif
