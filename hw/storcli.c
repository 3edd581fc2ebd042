/*
 * storcli.c - Broadcom MegaRAID through storcli / storcli64 and Dell's
 * perccli (same syntax, same JSON): reading `/call show all J`,
 * `/call/vall show all J`, `/call/eall/sall show all J` (and the top-level
 * `show all J` overview) into the inventory, and building add vd / del /
 * hotsparedrive / erase / jbod commands.
 *
 * Parsed with json-c, never by whitespace; output without `J` is first
 * turned into the same document (storcli_text.c). Several JSON documents may
 * follow each other (a capture of all three commands); a "Status" :
 * "Failure" that still carries a "Response Data" body is read, with a
 * note; one without a body is the vendor's error in its words.
 */
#include "raidtool.h"
#include "raidtool_int.h"
#include "raidtool_tools.h"
#include "array.h"
#include "storcli_text.h"
#include "bufcat.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

static const char *const binaries[] = { "storcli64", "storcli", "perccli64", "perccli", NULL };

struct sc {
	struct inventory *inv;
	const struct raidtool_src *src;
	char *err;
	size_t errlen;
	char answer[160];	/* a Success without data: what a change answers */
	bool told_none;		/* the output says there is nothing ("No VDs", 0 controllers) */
	bool iec;		/* sizes spelled "GiB" somewhere: then a bare "GB" is decimal */
};

/* ---- json helpers -------------------------------------------------------- */

static struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	json_object_object_get_ex(o, key, &v);
	return v;
}

/* A string or number as text, trimmed ("MG07SCA12TEY    " -> "MG07SCA12TEY"). */
static const char *jstr(struct json_object *o, const char *key, char *buf, size_t len)
{
	struct json_object *v = jget(o, key);

	if (!v || json_object_is_type(v, json_type_null))
		return NULL;
	snprintf(buf, len, "%s", json_object_get_string(v));
	return rt_trim(buf);
}

/* An integer (also when printed as a string, as perccli2 does); -1 for "-". */
static long jint(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);
	const char *s;
	char *end;
	long n;

	if (!v)
		return -1;
	if (json_object_is_type(v, json_type_int))
		return (long)json_object_get_int64(v);
	if (!json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	n = strtol(s, &end, 10);
	return end != s && !*rt_trim(end) ? n : -1;
}

/*
 * A drive or virtual drive size. Older storcli prints binary sizes as "GB";
 * one that also prints "GiB" (007.2x on newer controllers: "744.687 GiB"
 * for the RAID 1 of two "800.00 GB" drives) means decimal by the bare unit.
 */
static int64_t size_of(const struct sc *p, const char *v)
{
	return inv_parse_vendor_size(v, p->iec ? 1000 : 1024);
}

/* Does the output spell a binary unit ("223.062 GiB") anywhere? */
static bool spells_iec(const char *text)
{
	for (const char *s = strstr(text, "iB"); s; s = strstr(s + 2, "iB"))
		if (s - text >= 3 && strchr("KMGTP", s[-1]) && s[-2] == ' ' &&
		    isdigit((unsigned char)s[-3]))
			return true;
	return false;
}

/* ---- words ------------------------------------------------------------------ */

struct word {
	const char *w;
	enum inv_status st;
};

static enum inv_status lookup(const struct word *t, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcasecmp(s, t[i].w))
			return t[i].st;
	return INV_UNKNOWN;
}

static enum inv_status vd_state(const char *s)
{
	static const struct word t[] = {
		{ "Optl", INV_OK }, { "Optimal", INV_OK }, { "Cac", INV_OK },
		{ "Pdgd", INV_DEGRADED }, { "Dgrd", INV_DEGRADED }, { "Degraded", INV_DEGRADED },
		{ "OfLn", INV_FAILED }, { "Offline", INV_FAILED }, { "Rec", INV_REBUILDING },
	};
	return lookup(t, sizeof(t) / sizeof(t[0]), s);
}

static enum inv_status pd_state(const char *s)
{
	static const struct word t[] = {
		{ "Onln", INV_OK }, { "UGood", INV_OK }, { "GHS", INV_OK }, { "DHS", INV_OK },
		{ "JBOD", INV_OK }, { "Offln", INV_OFFLINE }, { "UBad", INV_FAILED },
		{ "Failed", INV_FAILED }, { "Rbld", INV_REBUILDING }, { "Cpybck", INV_REBUILDING },
		{ "Sntze", INV_ERASING }, { "Msng", INV_OFFLINE }, { "Missing", INV_OFFLINE },
	};
	return lookup(t, sizeof(t) / sizeof(t[0]), s);
}

/* "/c0/e252/s3" -> "252:3", "/c0/s3" -> ":3" */
static bool drive_id(const char *path, char *buf, size_t len)
{
	unsigned c, e, s;
	int n = 0;

	if (sscanf(path, "/c%u/e%u/s%u%n", &c, &e, &s, &n) == 3 && n > 0) {
		snprintf(buf, len, "%u:%u", e, s);
		return true;
	}
	if (sscanf(path, "/c%u/s%u%n", &c, &s, &n) == 2 && n > 0) {
		snprintf(buf, len, ":%u", s);
		return true;
	}
	return false;
}

/* ---- rows ------------------------------------------------------------------- */

/*
 * storcli2 / perccli2 (8.x) rows carry "PID" for the device id and a
 * "Status" beside "State" ("Conf" + "Online"); their drive groups have
 * "Span" rows. A drive list of that layout is read (pd_row8); a drive-group
 * table is refused, never half read: its group rows say "-" for the state.
 */
static bool storcli2_row(struct json_object *row)
{
	return jget(row, "PID") && (jget(row, "Status") || jget(row, "Span"));
}

static int storcli2_refused(struct sc *p)
{
	return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
			     "a storcli2/perccli2 (8.x) table (PID, State and Status columns) "
			     "of drive groups: that layout is not read; give its drive list "
			     "(`/cX/eall/sall show`) or the output of storcli or perccli 7.x");
}

/* 8.x "Status": the drive's health ("Online", "Good", "Offline", ...). */
static enum inv_status pd_status8(const char *state, const char *status)
{
	static const struct word t[] = {
		{ "Online", INV_OK }, { "Good", INV_OK }, { "Offline", INV_OFFLINE },
		{ "Failed", INV_FAILED }, { "Bad", INV_FAILED }, { "Missing", INV_OFFLINE },
		{ "Rebuild", INV_REBUILDING }, { "Copyback", INV_REBUILDING },
		{ "Sanitize", INV_ERASING },
	};
	enum inv_status st = lookup(t, sizeof(t) / sizeof(t[0]), status);

	/* the state's own suffix: "ConfDgrd" (Configured Degraded), "UConfSntz" */
	if (state && strstr(state, "Dgrd") && st == INV_OK)
		return INV_DEGRADED;
	if (state && strstr(state, "Sntz") && (st == INV_OK || st == INV_UNKNOWN))
		return INV_ERASING;
	if (state && rt_prefix(state, "Unusbl"))
		return INV_FAILED;
	return st;
}

static int pd_row8(struct sc *p, struct inv_controller *c, struct json_object *row)
{
	char sb[64], tb[64], buf[128], idb[64], dg[32], text[160];
	const char *id = jstr(row, "EID:Slt", idb, sizeof(idb)), *v, *role;
	const char *state = jstr(row, "State", sb, sizeof(sb));
	const char *status = jstr(row, "Status", tb, sizeof(tb));
	struct inv_pd **list, *pd;
	size_t *nr;
	long g = jint(row, "DG");
	int ret;

	if (!id || !state || !status)
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
				     "a storcli2 drive without \"EID:Slt\", \"State\" or \"Status\"");
	if (rt_prefix(state, "JBOD") || rt_prefix(state, "Shld")) {
		list = &c->passthrough;
		nr = &c->nr_passthrough;
		role = "passthrough";
	} else if (g >= 0) {
		struct inv_array *a;

		snprintf(dg, sizeof(dg), "%ld", g);
		a = rt_array(c, dg);
		if (!a)
			return -ENOMEM;
		list = &a->pds;
		nr = &a->nr_pds;
		role = rt_prefix(state, "DHS") ? "spare" : "data";
	} else {
		list = &c->unassigned;
		nr = &c->nr_unassigned;
		role = rt_prefix(state, "GHS") || rt_prefix(state, "DHS") ? "spare" : "unassigned";
	}
	pd = rt_pd_place(c, id, list, nr);
	if (!pd)
		return -ENOMEM;
	pd->status = pd_status8(state, status);
	snprintf(text, sizeof(text), "%s %s", state, status);
	ret = rt_set(&pd->role, role) ?: rt_set(&pd->status_text, text);
	if ((v = jstr(row, "Size", buf, sizeof(buf))))
		pd->size_bytes = size_of(p, v);
	if (!ret && (v = jstr(row, "Intf", buf, sizeof(buf))))
		ret = rt_set(&pd->interface, v);
	if (!ret && (v = jstr(row, "Med", buf, sizeof(buf))) &&
	    (!strcasecmp(v, "HDD") || !strcasecmp(v, "SSD")))
		ret = rt_set(&pd->media, !strcasecmp(v, "HDD") ? "hdd" : "ssd");
	if (!ret && (v = jstr(row, "Model", buf, sizeof(buf))))
		ret = rt_set_squeezed(&pd->model, v);
	return ret;
}

static int vd_row(struct sc *p, struct inv_controller *c, struct json_object *row)
{
	char buf[128], dg[32], vd[32];
	const char *dgvd = jstr(row, "DG/VD", buf, sizeof(buf)), *v;
	struct inv_array *a;
	struct inv_ld *ld;
	int ret = 0;

	if (!dgvd || sscanf(dgvd, "%31[^/]/%31s", dg, vd) != 2)
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
				     "a virtual drive without \"DG/VD\"");
	a = rt_array(c, dg);
	ld = a ? rt_ld(a, vd) : NULL;
	if (!ld)
		return -ENOMEM;
	if ((v = jstr(row, "TYPE", buf, sizeof(buf))) && inv_normalize_raid_level(v))
		ret = rt_set(&ld->raid_level, inv_normalize_raid_level(v));
	if (!ret && (v = jstr(row, "State", buf, sizeof(buf)))) {
		ld->status = vd_state(v);
		ret = rt_set(&ld->status_text, v);
	}
	if ((v = jstr(row, "Size", buf, sizeof(buf))))
		ld->size_bytes = size_of(p, v);
	return ret;
}

static int pd_row(struct sc *p, struct inv_controller *c, struct json_object *row)
{
	char buf[128], idb[64], dg[32];
	const char *id = jstr(row, "EID:Slt", idb, sizeof(idb)), *state, *v, *role;
	struct inv_pd **list, *pd;
	size_t *nr;
	long g = jint(row, "DG");
	int ret = 0;

	if (storcli2_row(row))
		return pd_row8(p, c, row);
	if (!id)
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
				     "a drive without \"EID:Slt\"");
	state = jstr(row, "State", buf, sizeof(buf));
	if (state && !strcasecmp(state, "JBOD")) {
		list = &c->passthrough;
		nr = &c->nr_passthrough;
		role = "passthrough";
	} else if (g >= 0) {
		struct inv_array *a;

		snprintf(dg, sizeof(dg), "%ld", g);
		a = rt_array(c, dg);
		if (!a)
			return -ENOMEM;
		list = &a->pds;
		nr = &a->nr_pds;
		role = state && !strcasecmp(state, "DHS") ? "spare" : "data";
	} else {
		/* global spares are in no drive group: unassigned, with the spare role */
		list = &c->unassigned;
		nr = &c->nr_unassigned;
		role = state && !strcasecmp(state, "GHS") ? "spare" : "unassigned";
	}
	pd = rt_pd_place(c, id, list, nr);
	if (!pd)
		return -ENOMEM;
	ret = rt_set(&pd->role, role);
	if (!ret && state) {
		pd->status = pd_state(state);
		ret = rt_set(&pd->status_text, state);
	}
	if ((v = jstr(row, "Size", buf, sizeof(buf))))
		pd->size_bytes = size_of(p, v);
	if (!ret && (v = jstr(row, "Intf", buf, sizeof(buf))))
		ret = rt_set(&pd->interface, v);
	if (!ret && (v = jstr(row, "Med", buf, sizeof(buf))) &&
	    (!strcasecmp(v, "HDD") || !strcasecmp(v, "SSD")))
		ret = rt_set(&pd->media, !strcasecmp(v, "HDD") ? "hdd" : "ssd");
	if (!ret && (v = jstr(row, "Model", buf, sizeof(buf))))
		ret = rt_set_squeezed(&pd->model, v);
	return ret;
}

static int rows(struct sc *p, struct inv_controller *c, struct json_object *arr,
		int (*fn)(struct sc *, struct inv_controller *, struct json_object *))
{
	int ret = 0;

	if (!json_object_is_type(arr, json_type_array))
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL, "a list that is not a list");
	for (size_t i = 0; !ret && i < json_object_array_length(arr); i++)
		ret = fn(p, c, json_object_array_get_idx(arr, i));
	return ret;
}

/* TOPOLOGY: the drive-group rows (Arr and Row "-") carry the group's state. */
static int topology_row(struct sc *p, struct inv_controller *c, struct json_object *row)
{
	char buf[64], dg[32], type[32];
	const char *state = jstr(row, "State", buf, sizeof(buf)), *t;
	struct inv_array *a;
	long g = jint(row, "DG");

	if (storcli2_row(row))
		return storcli2_refused(p);
	t = jstr(row, "Type", type, sizeof(type));
	if (g < 0 || jint(row, "Arr") >= 0 || jint(row, "Row") >= 0 || !state ||
	    (t && !strcasecmp(t, "DRIVE")))
		return 0;
	snprintf(dg, sizeof(dg), "%ld", g);
	a = rt_array(c, dg);
	if (!a)
		return -ENOMEM;
	a->status = vd_state(state);
	return rt_set(&a->status_text, state);
}

/* ---- objects ------------------------------------------------------------------ */

static struct inv_ld *find_ld(struct inv_controller *c, const char *id)
{
	for (size_t i = 0; i < c->nr_arrays; i++)
		for (size_t k = 0; k < c->arrays[i].nr_lds; k++)
			if (c->arrays[i].lds[k].id && !strcmp(c->arrays[i].lds[k].id, id))
				return &c->arrays[i].lds[k];
	return NULL;
}

static int vd_properties(struct sc *p, struct inv_controller *c, const char *vd,
			 struct json_object *o)
{
	struct inv_ld *ld = find_ld(c, vd);
	char buf[256];
	const char *v, *dev = NULL;
	int ret = 0;

	if (!ld)
		return 0;
	if ((v = jstr(o, "Strip Size", buf, sizeof(buf))))
		ld->strip_size_bytes = inv_parse_vendor_size(v, 1024);
	if ((v = jstr(o, "SCSI NAA Id", buf, sizeof(buf)))) {
		dev = raidtool_join_wwn(v, p->src->osdevs, p->src->nr_osdevs);
		if (rt_set(&ld->uid, v))
			return -ENOMEM;
	}
	if (dev) {
		snprintf(buf, sizeof(buf), "/dev/%s", dev);
		ret = rt_set(&ld->os_device, buf);
	} else if ((v = jstr(o, "OS Drive Name", buf, sizeof(buf))) && !strncmp(v, "/dev/", 5)) {
		ret = rt_set(&ld->os_device, v);
	}
	/* "Active Operations" : "None", or an operation with its progress */
	if (!ret && (v = jstr(o, "Active Operations", buf, sizeof(buf))) && strcasecmp(v, "None")) {
		char text[320];

		if (rt_percent(v) >= 0)
			ld->progress_pct = rt_percent(v);
		if (ld->status == INV_OK || ld->status == INV_UNKNOWN) {
			if (strcasestr(v, "Rebuild"))
				ld->status = INV_REBUILDING;
			else if (strcasestr(v, "Init") || strcasestr(v, "BGI"))
				ld->status = INV_INITIALIZING;
			else if (strcasestr(v, "Migrat") || strcasestr(v, "Recon"))
				ld->status = INV_TRANSFORMING;
		}
		snprintf(text, sizeof(text), "%s, %s", ld->status_text ? ld->status_text : "", v);
		ret = rt_set(&ld->status_text, text);
	}
	return ret;
}

static int drive_details(struct sc *p, struct inv_controller *c, const char *path,
			 struct json_object *o)
{
	char id[64], key[160], buf[256];
	struct rt_pd_ref ref;
	struct inv_pd *pd;
	struct json_object *attr, *state;
	const char *v;
	int ret = 0;

	(void)p;
	if (!drive_id(path, id, sizeof(id)) || !rt_pd_find(c, id, &ref))
		return 0;
	pd = rt_pd_at(&ref);
	snprintf(key, sizeof(key), "Drive %s Device attributes", path);
	attr = jget(o, key);
	snprintf(key, sizeof(key), "Drive %s State", path);
	state = jget(o, key);
	if ((v = jstr(attr, "SN", buf, sizeof(buf))))
		ret = rt_set_squeezed(&pd->serial, v);
	if (!ret && (v = jstr(attr, "WWN", buf, sizeof(buf))))
		ret = rt_set(&pd->wwn, v);
	if (!ret && (v = jstr(attr, "Model Number", buf, sizeof(buf))))
		ret = rt_fill(&pd->model, v);
	if (!ret && jint(state, "Predictive Failure Count") > 0 && pd->status == INV_OK) {
		pd->status = INV_PREDICTIVE_FAILURE;
		snprintf(buf, sizeof(buf), "%s, Predictive Failure Count %ld",
			 pd->status_text ? pd->status_text : "", jint(state, "Predictive Failure Count"));
		ret = rt_set(&pd->status_text, buf);
	}
	return ret;
}

static int pci_address(struct inv_controller *c, const char *s)
{
	unsigned d, b, dev, f;
	char buf[32];

	/* storcli's "00:65:00:00" is hex domain:bus:device:function */
	if (sscanf(s, "%x:%x:%x:%x", &d, &b, &dev, &f) != 4)
		return 0;
	snprintf(buf, sizeof(buf), "%04x:%02x:%02x.%x", d, b, dev, f);
	return rt_fill(&c->pci, buf);
}

/* "PCI Slot Number" : 12 (HPE MR216i-a); "N/A" on boards without one. */
static int pci_slot(struct inv_controller *c, struct json_object *o)
{
	long n = jint(o, "PCI Slot Number");
	char buf[32];

	if (n < 0)
		return 0;
	snprintf(buf, sizeof(buf), "%ld", n);
	return rt_fill(&c->slot, buf);
}

static int basics(struct inv_controller *c, struct json_object *rd)
{
	struct json_object *b = jget(rd, "Basics"), *ver = jget(rd, "Version"),
			   *st = jget(rd, "Status");
	char buf[256];
	const char *v;
	int ret = 0;

	if ((v = jstr(b, "Model", buf, sizeof(buf))))
		ret = rt_fill(&c->model, v);
	if (!ret && (v = jstr(b, "Serial Number", buf, sizeof(buf))))
		ret = rt_fill(&c->serial, v);
	if (!ret && (v = jstr(b, "PCI Address", buf, sizeof(buf))))
		ret = pci_address(c, v);
	if (!ret)
		ret = pci_slot(c, b);
	if (!ret && (v = jstr(ver, "Firmware Version", buf, sizeof(buf))))
		ret = rt_fill(&c->firmware, v);
	if (!ret && (v = jstr(ver, "Driver Name", buf, sizeof(buf))))
		ret = rt_fill(&c->driver, v);
	if (!ret && (v = jstr(st, "Controller Status", buf, sizeof(buf)))) {
		/* MegaRAID "Optimal", IT-mode HBA "OK" */
		c->status = !strcasecmp(v, "Optimal") || !strcasecmp(v, "OK") ? INV_OK :
			    !strcasecmp(v, "Needs Attention") ? INV_DEGRADED : INV_UNKNOWN;
		ret = rt_set(&c->status_text, v);
	}
	/* perccli: "Current Personality" : "RAID-Mode " / "HBA-Mode" */
	if (!ret && (v = jstr(st, "Current Personality", buf, sizeof(buf)))) {
		if (rt_prefix(v, "RAID"))
			ret = rt_set(&c->mode, "raid");
		else if (rt_prefix(v, "HBA"))
			ret = rt_set(&c->mode, "hba");
		else if (rt_prefix(v, "JBOD"))
			ret = rt_set(&c->mode, "jbod");
	}
	return ret;
}

/* `show all J`: one row per controller, no details. */
static int overview(struct sc *p, struct json_object *arr)
{
	int ret = 0;

	if (!json_object_is_type(arr, json_type_array))
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
				     "\"System Overview\" is not a list");
	for (size_t i = 0; !ret && i < json_object_array_length(arr); i++) {
		struct json_object *row = json_object_array_get_idx(arr, i);
		struct inv_controller *c;
		char id[32], buf[128];
		const char *v;
		long n = jint(row, "Ctl");

		if (n < 0)
			return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
					     "a controller row without \"Ctl\"");
		snprintf(id, sizeof(id), "/c%ld", n);
		c = rt_controller(p->inv, "storcli", id);
		if (!c)
			return -ENOMEM;
		if ((v = jstr(row, "Model", buf, sizeof(buf))))
			ret = rt_fill(&c->model, v);
		if (!ret && (v = jstr(row, "PCI Address", buf, sizeof(buf))))
			ret = pci_address(c, v);
		if (!ret && (v = jstr(row, "Hlth", buf, sizeof(buf)))) {
			c->status = rt_prefix(v, "Opt") ? INV_OK :
				    rt_prefix(v, "NdAtn") || rt_prefix(v, "Needs") ? INV_DEGRADED :
				    INV_UNKNOWN;
			ret = rt_set(&c->status_text, v);
		}
		/* drive groups / virtual drives not optimal: never an ok controller */
		if (!ret && (jint(row, "DNOpt") > 0 || jint(row, "VNOpt") > 0) &&
		    (c->status == INV_OK || c->status == INV_UNKNOWN)) {
			snprintf(buf, sizeof(buf), "%s, DNOpt %ld, VNOpt %ld",
				 c->status_text ? c->status_text : "-", jint(row, "DNOpt"),
				 jint(row, "VNOpt"));
			c->status = INV_DEGRADED;
			ret = rt_set(&c->status_text, buf);
		}
	}
	return ret;
}

/* `/cX show`: the controller's identity as keys of the response itself. */
static int top_keys(struct inv_controller *c, struct json_object *rd)
{
	char buf[256];
	const char *v;
	int ret = 0;

	if ((v = jstr(rd, "Product Name", buf, sizeof(buf))))
		ret = rt_fill(&c->model, v);
	if (!ret && (v = jstr(rd, "Serial Number", buf, sizeof(buf))))
		ret = rt_fill(&c->serial, v);
	if (!ret && (v = jstr(rd, "PCI Address", buf, sizeof(buf))))
		ret = pci_address(c, v);
	if (!ret)
		ret = pci_slot(c, rd);
	if (!ret && (v = jstr(rd, "FW Version", buf, sizeof(buf))))
		ret = rt_fill(&c->firmware, v);
	if (!ret && (v = jstr(rd, "Driver Name", buf, sizeof(buf))))
		ret = rt_fill(&c->driver, v);
	if (!ret && !c->mode && (v = jstr(rd, "Current Personality", buf, sizeof(buf))))
		ret = rt_prefix(v, "RAID") ? rt_set(&c->mode, "raid") :
		      rt_prefix(v, "HBA") ? rt_set(&c->mode, "hba") :
		      rt_prefix(v, "JBOD") ? rt_set(&c->mode, "jbod") : 0;
	return ret;
}

static int response(struct sc *p, struct inv_controller *c, struct json_object *rd)
{
	int ret = 0;

	if (jget(rd, "Basics"))
		ret = basics(c, rd);
	if (!ret)
		ret = top_keys(c, rd);
	/* rows first: properties and drive details refer to them */
	json_object_object_foreach(rd, key, val) {
		if (ret)
			break;
		if (!strcmp(key, "TOPOLOGY"))
			ret = rows(p, c, val, topology_row);
		else if (!strcmp(key, "VD LIST") || (!strncmp(key, "/c", 2) && strstr(key, "/v")) ||
			 /* `/cX/vN show J`; in `/cX show J` it is a count */
			 (!strcmp(key, "Virtual Drives") && json_object_is_type(val, json_type_array)))
			ret = rows(p, c, val, vd_row);
		else if (!strcmp(key, "PD LIST") || !strncmp(key, "PDs for VD ", 11) ||
			 !strcmp(key, "Drive Information") ||	/* `/cX/eY/sZ show J` */
			 (!strncmp(key, "Drive /c", 8) && !strstr(key, " - Detailed")))
			ret = rows(p, c, val, pd_row);
		else if (!strcmp(key, "Physical Device Information") &&
			 json_object_is_type(val, json_type_object))
			ret = response(p, c, val);	/* IT-mode HBAs put the drives in here */
	}
	json_object_object_foreach(rd, key2, val2) {
		unsigned vd;
		char path[64];

		if (ret)
			break;
		if (sscanf(key2, "VD%u Propertie%c", &vd, path) == 2) {
			snprintf(path, sizeof(path), "%u", vd);
			ret = vd_properties(p, c, path, val2);
		} else if (!strncmp(key2, "Drive /c", 8) && strstr(key2, " - Detailed Information")) {
			snprintf(path, sizeof(path), "%.*s", (int)strcspn(key2 + 6, " "), key2 + 6);
			ret = drive_details(p, c, path, val2);
		}
	}
	return ret;
}

/* "Description; ErrMsg (ErrCd N)" of a Command Status. */
static void failure_text(struct json_object *cs, char *buf, size_t len)
{
	struct json_object *ds = jget(cs, "Detailed Status");
	char tmp[256];
	const char *d = jstr(cs, "Description", tmp, sizeof(tmp));
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", d ? d : "Failure");
	for (size_t i = 0; ds && json_object_is_type(ds, json_type_array) &&
			   i < json_object_array_length(ds) && n < len; i++) {
		struct json_object *row = json_object_array_get_idx(ds, i);
		char msg[256], who[64];
		const char *m = jstr(row, "ErrMsg", msg, sizeof(msg));
		const char *w = jstr(row, "Drive", who, sizeof(who));

		if (!m)
			continue;
		n = bufcat(buf, len, n, "; %s%s%s (ErrCd %ld)", w ? w : "",
				      w ? ": " : "", m, jint(row, "ErrCd"));
	}
}

static int controller_elem(struct sc *p, struct json_object *elem)
{
	struct json_object *cs = jget(elem, "Command Status"), *rd = jget(elem, "Response Data");
	struct inv_controller *c = NULL;
	char buf[64], why[768];
	const char *status = jstr(cs, "Status", buf, sizeof(buf));
	long n = jint(cs, "Controller");
	bool body = rd && json_object_is_type(rd, json_type_object) &&
		    json_object_object_length(rd) > 0;

	if (!cs || !status)
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
				     "a controller without \"Command Status\".\"Status\"");
	if (strcasecmp(status, "Success")) {
		failure_text(cs, why, sizeof(why));
		/* some versions answer an empty list with Failure: nothing is not an error */
		if (!body && (strcasestr(why, "have been configured") || strcasestr(why, "No VD"))) {
			p->told_none = true;
			return 0;
		}
		if (!body && !jget(cs, "Controller"))	/* `/call ...` with no controller at all */
			return rt_vendor_error(p->err, p->errlen, p->src, "%s: %s", status, why);
		if (!body)
			return rt_vendor_error(p->err, p->errlen, p->src, "controller %ld: %s: %s",
					       n, status, why);
		inv_add_note(p->inv, "%s `%s`: controller %ld answered %s (%s); its data was "
			     "read anyway", p->src->tool, p->src->cmd ? p->src->cmd : "?", n, status,
			     why);
	}
	if (!body) {
		/* e.g. "No VDs have been configured.", or a change's "Add VD Succeeded." */
		const char *d = jstr(cs, "Description", why, sizeof(why));

		if (d && !p->answer[0])
			snprintf(p->answer, sizeof(p->answer), "%s", d);
		if (d && (strcasestr(d, "No VD") || strcasestr(d, "have been configured") ||
			  !strcasecmp(d, "None")))
			p->told_none = true;
		return 0;
	}
	/* `show`: "System Overview" of MegaRAIDs, "IT System Overview" of HBAs */
	if (jget(rd, "System Overview"))
		return overview(p, jget(rd, "System Overview"));
	if (jget(rd, "IT System Overview"))
		return overview(p, jget(rd, "IT System Overview"));
	if (jint(rd, "Number of Controllers") == 0) {
		p->told_none = true;
		return 0;	/* `show` on a machine without one */
	}
	if (n < 0)
		n = jint(jget(rd, "Basics"), "Controller");
	if (n < 0)
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
				     "a response without a controller number");
	snprintf(buf, sizeof(buf), "/c%ld", n);
	c = rt_controller(p->inv, "storcli", buf);
	if (!c)
		return -ENOMEM;
	return response(p, c, rd);
}

static size_t line_of(const char *text, size_t off)
{
	size_t line = 1;

	for (size_t i = 0; i < off && text[i]; i++)
		line += text[i] == '\n';
	return line;
}

/* The "Controllers" list of one document, JSON or converted text. */
static int controllers(struct sc *p, struct json_object *root)
{
	struct json_object *ctrls = jget(root, "Controllers");
	int ret = 0;

	if (!ctrls || !json_object_is_type(ctrls, json_type_array))
		return rt_bad_output(p->err, p->errlen, p->src, 0, NULL, "no \"Controllers\" list");
	for (size_t i = 0; !ret && i < json_object_array_length(ctrls); i++)
		ret = controller_elem(p, json_object_array_get_idx(ctrls, i));
	return ret;
}

/* JSON starts a line with '{'; anything else is storcli's text (no J given). */
static bool is_json(const char *text)
{
	for (const char *s = text; s && *s; s = strchr(s, '\n')) {
		while (*s == '\n' || *s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (*s == '{')
			return true;
	}
	return false;
}

/*
 * Nothing read but a "Success" with no data ("Add VD Succeeded."): the
 * answer to a change, not a listing; an empty tree would say the machine
 * has no controllers.
 */
static int only_an_answer(struct sc *p)
{
	if (p->inv->nr_controllers || p->told_none || !p->answer[0])
		return 0;
	return rt_bad_output(p->err, p->errlen, p->src, 0, NULL,
			     "only the answer to a command (\"%s\"), no controller, drive group "
			     "or drive in it", p->answer);
}

static int sc_parse_text(struct sc *p, const char *text)
{
	struct json_object *root;
	size_t line;
	char why[256];
	int ret = storcli_text_to_json(text, &root, &line, why, sizeof(why));

	if (ret == -EBADMSG)
		return rt_bad_output(p->err, p->errlen, p->src, line, NULL, "%s", why);
	if (ret)
		return ret;
	ret = controllers(p, root);
	json_object_put(root);
	return ret ?: only_an_answer(p);
}

static int sc_parse(struct inventory *inv, const char *text, const struct raidtool_src *src,
		    char *err, size_t errlen)
{
	struct sc p = { .inv = inv, .src = src, .err = err, .errlen = errlen,
			.iec = spells_iec(text) };
	const char *start = strchr(text, '{');
	const char *end = start ? start + strlen(start) : NULL;
	size_t docs = 0;
	int ret = 0;

	if (!is_json(text))
		return sc_parse_text(&p, text);

	/* anything before the JSON is a banner ("may take a while to complete") */
	while (!ret && start && *start) {
		struct json_tokener *tok = json_tokener_new();
		struct json_object *root;
		size_t len = (size_t)(end - start);	/* measured once: documents may be many */
		enum json_tokener_error je;

		if (!tok)
			return -ENOMEM;
		root = json_tokener_parse_ex(tok, start, (int)len);
		je = json_tokener_get_error(tok);
		if (!root || je != json_tokener_success) {
			size_t off = (size_t)(start - text) + json_tokener_get_parse_end(tok);

			json_tokener_free(tok);
			json_object_put(root);
			return rt_bad_output(err, errlen, src, line_of(text, off), NULL,
					     "not valid JSON (%s) at line %zu",
					     je == json_tokener_continue ? "it ends too early" :
					     json_tokener_error_desc(je), line_of(text, off));
		}
		start += json_tokener_get_parse_end(tok);
		json_tokener_free(tok);
		docs++;
		ret = controllers(&p, root);
		json_object_put(root);
		while (*start && isspace((unsigned char)*start))
			start++;
	}
	if (!ret && !docs)
		ret = rt_bad_output(err, errlen, src, 0, NULL, "no JSON in it (was J given?)");
	return ret ?: only_an_answer(&p);
}

static int sc_read(const char *bin, struct inventory *inv, const struct raidtool_src *src,
		   const struct raidtool_ctl *ctl, char *err, size_t errlen)
{
	static const char *const cfg[] = { "/call", "show", "all", "J", "nolog", NULL };
	static const char *const vds[] = { "/call/vall", "show", "all", "J", "nolog", NULL };
	static const char *const pds[] = { "/call/eall/sall", "show", "all", "J", "nolog", NULL };
	static const char *const *const cmds[] = { cfg, vds, pds, NULL };

	return rt_read_cmds(&raidtool_storcli, bin, cmds, inv, src, ctl, err, errlen);
}

/* ---- changes ------------------------------------------------------------------ */

static int sc_controller_id(const char *user, char *buf, size_t len)
{
	const char *s = user;
	char *end;
	long n;

	if (*s == '/')
		s++;
	if (*s == 'c' || *s == 'C')
		s++;
	n = strtol(s, &end, 10);
	if (end == s || *end || n < 0)
		return -EINVAL;
	snprintf(buf, len, "/c%ld", n);
	return 0;
}

/* "252:3" -> "/c0/e252/s3"; ":3" -> "/c0/s3" */
static void drive_path(char *buf, size_t len, const char *ctrl, const char *id)
{
	const char *colon = strchr(id, ':');

	if (colon == id)
		snprintf(buf, len, "%s/s%s", ctrl, colon + 1);
	else
		snprintf(buf, len, "%s/e%.*s/s%s", ctrl, (int)(colon - id), id, colon + 1);
}

/* storcli's drive list: slots grouped by enclosure, "252:0,1,2;253:4" (raid-cli.md 3.6). */
static int drive_list(char *buf, size_t len, char *const *v, size_t nr)
{
	size_t n = 0;
	bool *done = calloc(nr, sizeof(*done));

	if (!done)
		return -ENOMEM;
	buf[0] = '\0';
	for (size_t i = 0; i < nr && n < len; i++) {
		size_t el;

		if (done[i])
			continue;
		el = (size_t)(strchr(v[i], ':') - v[i]);
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ";" : "", v[i]);
		for (size_t k = i + 1; k < nr && n < len; k++)
			if (!done[k] && !strncmp(v[k], v[i], el + 1)) {
				n += (size_t)snprintf(buf + n, len - n, ",%s", v[k] + el + 1);
				done[k] = true;
			}
	}
	free(done);
	return n < len ? 0 : -E2BIG;
}

static int sc_build(const struct array_op *op, const struct inventory *inv,
		    struct raidtool_argv *av, char *err, size_t errlen)
{
	char list[2048], path[128];
	int ret;

	(void)inv;
	if (op->nr_drives)
		drive_path(path, sizeof(path), op->controller, op->drives[0]);
	switch (op->verb) {
	case ARRAY_CREATE:
		if (drive_list(list, sizeof(list), op->drives, op->nr_drives))
			return -E2BIG;
		ret = raidtool_argv_push(av, "%s", op->controller) ?: raidtool_argv_push(av, "add") ?:
		      raidtool_argv_push(av, "vd") ?: raidtool_argv_push(av, "r%s", op->level);
		if (!ret && op->name)
			ret = raidtool_argv_push(av, "name=%s", op->name);
		if (!ret)
			ret = raidtool_argv_push(av, "drives=%s", list);
		/* spanned levels: drives per span, two spans (pystorcli2's rule) */
		if (!ret && !strcmp(op->level, "10"))
			ret = raidtool_argv_push(av, "pdperarray=2");
		else if (!ret && (!strcmp(op->level, "50") || !strcmp(op->level, "60")))
			ret = raidtool_argv_push(av, "pdperarray=%zu", op->nr_drives / 2);
		if (!ret && op->strip_bytes > 0)
			ret = raidtool_argv_push(av, "strip=%lld", (long long)(op->strip_bytes / 1024));
		if (!ret && op->size_bytes > 0)
			ret = raidtool_argv_push(av, "size=%lldMB", (long long)(op->size_bytes >> 20));
		if (!ret && op->nr_spares) {
			if (drive_list(list, sizeof(list), op->spares, op->nr_spares))
				return -E2BIG;
			ret = raidtool_argv_push(av, "spares=%s", list);
		}
		return ret ?: raidtool_argv_push(av, "J");
	case ARRAY_DELETE:
		ret = raidtool_argv_push(av, "%s/v%s", op->controller, op->ld) ?:
		      raidtool_argv_push(av, "del");
		if (!ret && op->force)
			ret = raidtool_argv_push(av, "force");
		return ret ?: raidtool_argv_push(av, "J");
	case ARRAY_ADD_SPARE:
		ret = raidtool_argv_push(av, "%s", path) ?: raidtool_argv_push(av, "add") ?:
		      raidtool_argv_push(av, "hotsparedrive");
		if (!ret && op->array)
			ret = raidtool_argv_push(av, "dgs=%s", op->array);
		return ret ?: raidtool_argv_push(av, "J");
	case ARRAY_REMOVE_SPARE:
		return raidtool_argv_push(av, "%s", path) ?: raidtool_argv_push(av, "delete") ?:
		       raidtool_argv_push(av, "hotsparedrive") ?: raidtool_argv_push(av, "J");
	case ARRAY_ERASE:
		return raidtool_argv_push(av, "%s", path) ?: raidtool_argv_push(av, "start") ?:
		       raidtool_argv_push(av, "erase") ?:
		       raidtool_argv_push(av, "%s", op->pattern ? op->pattern : "simple") ?:
		       raidtool_argv_push(av, "J");
	case ARRAY_MODE:
		return raidtool_argv_push(av, "%s", op->controller) ?: raidtool_argv_push(av, "set") ?:
		       raidtool_argv_push(av, "jbod=%s", !strcmp(op->mode, "hba") ? "on" : "off") ?:
		       raidtool_argv_push(av, "J");
	default:
		snprintf(err, errlen, "storcli has no '%s' (that is mdadm's)",
			 array_verb_name(op->verb));
		return -EOPNOTSUPP;
	}
}

/* "Status" : "Success" in every controller's Command Status, else the vendor's words. */
static int sc_check(const struct raidtool_run *run, char *err, size_t errlen)
{
	const char *start = run->out ? strchr(run->out, '{') : NULL;
	struct json_object *root = start ? json_tokener_parse(start) : NULL;
	struct json_object *ctrls = jget(root, "Controllers");
	int ret = 0;

	if (!ctrls || !json_object_is_type(ctrls, json_type_array)) {
		json_object_put(root);
		if (run->status != 0 || run->timed_out)
			return rt_run_failed(err, errlen, "storcli", run);
		snprintf(err, errlen, "storcli printed no JSON status; the change may or may not "
			 "have happened");
		return -EIO;
	}
	for (size_t i = 0; !ret && i < json_object_array_length(ctrls); i++) {
		struct json_object *cs = jget(json_object_array_get_idx(ctrls, i), "Command Status");
		char buf[64];
		const char *st = jstr(cs, "Status", buf, sizeof(buf));

		if (st && !strcasecmp(st, "Success"))
			continue;
		failure_text(cs, err, errlen);
		ret = -EIO;
	}
	json_object_put(root);
	if (!ret && run->status != 0) {
		snprintf(err, errlen, "storcli exited with status %d", run->status);
		ret = -EIO;
	}
	return ret;
}

static const char *const levels[] = { "0", "1", "10", "5", "6", "50", "60", NULL };

/* MegaRAID: spans of two (raid-cli.md 3.6) */
static const struct raidtool_level rules[] = {
	{ "0", 1, 1 }, { "1", 2, 2 }, { "10", 4, 2 }, { "5", 3, 1 }, { "6", 3, 1 },
	{ "50", 6, 2 }, { "60", 6, 2 }, { NULL, 0, 0 },
};

static const struct raidtool_import imports[] = {
	{ "storcli", "/call show all J" }, { NULL, NULL },
};

static const char *const aliases[] = { "perccli", NULL };

const struct raid_tool_ops raidtool_storcli = {
	.name = "storcli",
	.binaries = binaries,
	.aliases = aliases,
	.flags = RT_F_ONE_SPARE_PER_COMMAND,
	.read = sc_read,
	.parse = sc_parse,
	.imports = imports,
	.controller_id = sc_controller_id,
	.id_forms = "/cN or N",
	.levels = levels,
	.rules = rules,
	.strip_min_kib = 64,
	.build = sc_build,
	.check = sc_check,
};
