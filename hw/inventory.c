/*
 * inventory.c - the storage inventory of DESIGN.md "The inventory model":
 * building it (append helpers that start every field "unset"), freeing and
 * merging it, writing it as the DESIGN JSON schema, and the two normalizers
 * the vendor parsers share (RAID level names and vendor size strings).
 *
 * It only holds data: no sysfs, no vendor tools, never prints. A field that
 * no source filled stays unset and becomes JSON null, never a guess.
 */
#include "inventory.h"
#include "pd_index.h"
#include "grow.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <json-c/json.h>

static const char *const status_names[] = {
	[INV_OK] = "ok",
	[INV_DEGRADED] = "degraded",
	[INV_REBUILDING] = "rebuilding",
	[INV_INITIALIZING] = "initializing",
	[INV_TRANSFORMING] = "transforming",
	[INV_FAILED] = "failed",
	[INV_OFFLINE] = "offline",
	[INV_PREDICTIVE_FAILURE] = "predictive_failure",
	[INV_ERASING] = "erasing",
	[INV_UNKNOWN] = "unknown",
};

const char *inv_status_name(enum inv_status s)
{
	if ((unsigned)s >= sizeof(status_names) / sizeof(status_names[0]))
		return "unknown";
	return status_names[s];
}

/*
 * Grows *arr by one zeroed element of size sz, NULL (errno ENOMEM or E2BIG)
 * past max elements. Elements move on growth, so callers hold indexes, not
 * pointers, across appends.
 */
static void *grow(void *arrp, size_t *nr, size_t sz, size_t max)
{
	char **arr = arrp;

	if (*nr >= max) {
		errno = E2BIG;
		return NULL;
	}
	if (grow_room(arr, *nr, sz))
		return NULL;
	memset(*arr + *nr * sz, 0, sz);
	return *arr + (*nr)++ * sz;
}

struct inv_controller *inv_add_controller(struct inventory *inv)
{
	struct inv_controller *c = grow(&inv->controllers, &inv->nr_controllers, sizeof(*c),
					 INV_MAX_CONTROLLERS);

	if (c) {
		c->numa_node = INV_NO_NUMA;
		c->status = INV_UNKNOWN;
	}
	return c;
}

struct inv_array *inv_add_array(struct inv_controller *c)
{
	struct inv_array *a = grow(&c->arrays, &c->nr_arrays, sizeof(*a), INV_MAX_ARRAYS);

	if (a)
		a->status = INV_UNKNOWN;
	return a;
}

struct inv_ld *inv_add_ld(struct inv_array *a)
{
	struct inv_ld *ld = grow(&a->lds, &a->nr_lds, sizeof(*ld), INV_MAX_LDS);

	if (ld) {
		ld->size_bytes = INV_UNSET;
		ld->strip_size_bytes = INV_UNSET;
		ld->status = INV_UNKNOWN;
		ld->progress_pct = -1;
	}
	return ld;
}

struct inv_pd *inv_add_pd(struct inv_pd **arr, size_t *nr)
{
	struct inv_pd *pd = grow(arr, nr, sizeof(*pd), INV_MAX_PDS);

	if (pd) {
		pd->status = INV_UNKNOWN;
		pd->size_bytes = INV_UNSET;
	}
	return pd;
}

struct inv_md *inv_add_md(struct inventory *inv)
{
	struct inv_md *md = grow(&inv->md, &inv->nr_md, sizeof(*md), INV_MAX_MD);

	if (md) {
		md->size_bytes = INV_UNSET;
		md->status = INV_UNKNOWN;
		md->progress_pct = -1;
	}
	return md;
}

struct inv_md_member *inv_add_md_member(struct inv_md *md)
{
	struct inv_md_member *m = grow(&md->members, &md->nr_members, sizeof(*m), INV_MAX_MD_MEMBERS);

	if (m)
		m->slot = INV_UNSET;
	return m;
}

struct inv_blockdev *inv_add_blockdev(struct inventory *inv)
{
	struct inv_blockdev *b = grow(&inv->blockdevs, &inv->nr_blockdevs, sizeof(*b), SIZE_MAX);

	if (b) {
		b->size_bytes = INV_UNSET;
		b->rotational = INV_UNSET;
		b->logical_block_size = INV_UNSET;
		b->physical_block_size = INV_UNSET;
		b->queue_depth = INV_UNSET;
		b->numa_node = INV_NO_NUMA;
	}
	return b;
}

int inv_add_str(char ***arr, size_t *nr, const char *s)
{
	char *copy = strdup(s);
	char **slot;

	if (!copy)
		return -ENOMEM;
	slot = grow(arr, nr, sizeof(*slot), SIZE_MAX);
	if (!slot) {
		free(copy);
		return -ENOMEM;
	}
	*slot = copy;
	return 0;
}

int inv_add_vstrf(char ***arr, size_t *nr, const char *fmt, va_list ap)
{
	char *s;
	int ret;

	if (vasprintf(&s, fmt, ap) < 0)
		return -ENOMEM;
	ret = inv_add_str(arr, nr, s);
	free(s);
	return ret;
}

int inv_add_note(struct inventory *inv, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = inv_add_vstrf(&inv->notes, &inv->nr_notes, fmt, ap);
	va_end(ap);
	return ret;
}

/* ---- release and merge ----------------------------------------------- */

static void strv_free(char **v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

void inv_pd_release(struct inv_pd *pd)
{
	free(pd->id);
	free(pd->status_text);
	free(pd->role);
	free(pd->interface);
	free(pd->media);
	free(pd->model);
	free(pd->serial);
	free(pd->wwn);
	memset(pd, 0, sizeof(*pd));
}

void inv_pds_free(struct inv_pd *pds, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		inv_pd_release(&pds[i]);
	free(pds);
}

static void array_release(struct inv_array *a)
{
	free(a->id);
	free(a->status_text);
	for (size_t i = 0; i < a->nr_lds; i++) {
		free(a->lds[i].id);
		free(a->lds[i].raid_level);
		free(a->lds[i].status_text);
		free(a->lds[i].os_device);
		free(a->lds[i].uid);
	}
	free(a->lds);
	inv_pds_free(a->pds, a->nr_pds);
}

void inv_controller_release(struct inv_controller *c)
{
	free(c->id);
	free(c->source);
	free(c->model);
	free(c->slot);
	free(c->serial);
	free(c->firmware);
	free(c->driver);
	free(c->pci);
	free(c->mode);
	free(c->status_text);
	for (size_t i = 0; i < c->nr_arrays; i++)
		array_release(&c->arrays[i]);
	free(c->arrays);
	inv_pds_free(c->unassigned, c->nr_unassigned);
	inv_pds_free(c->passthrough, c->nr_passthrough);
	pd_index_free(c);
	memset(c, 0, sizeof(*c));
}

static void md_release(struct inv_md *md)
{
	free(md->name);
	free(md->raid_level);
	free(md->status_text);
	for (size_t i = 0; i < md->nr_members; i++) {
		free(md->members[i].device);
		free(md->members[i].role);
	}
	free(md->members);
}

static void blockdev_release(struct inv_blockdev *b)
{
	free(b->name);
	free(b->path);
	free(b->model);
	free(b->serial);
	free(b->wwn);
	strv_free(b->stable_names, b->nr_stable_names);
	free(b->stable_names_source);
	free(b->scheduler);
	free(b->controller);
	strv_free(b->partitions, b->nr_partitions);
	strv_free(b->mounts, b->nr_mounts);
	strv_free(b->holders, b->nr_holders);
	free(b->signature);
	free(b->why_not_write_safe);
}

void inventory_release(struct inventory *inv)
{
	for (size_t i = 0; i < inv->nr_controllers; i++)
		inv_controller_release(&inv->controllers[i]);
	free(inv->controllers);
	for (size_t i = 0; i < inv->nr_md; i++)
		md_release(&inv->md[i]);
	free(inv->md);
	for (size_t i = 0; i < inv->nr_blockdevs; i++)
		blockdev_release(&inv->blockdevs[i]);
	free(inv->blockdevs);
	strv_free(inv->notes, inv->nr_notes);
	memset(inv, 0, sizeof(*inv));
}

/* Appends *src (nsrc elements of sz) to *dst; src's buffer is freed. */
static int append_moved(void *dstp, size_t *ndst, void *srcp, size_t *nsrc, size_t sz)
{
	void **dst = dstp, **src = srcp;
	char *p;

	if (*nsrc == 0)
		return 0;
	p = realloc(*dst, (*ndst + *nsrc) * sz);
	if (!p)
		return -ENOMEM;
	memcpy(p + *ndst * sz, *src, *nsrc * sz);
	*dst = p;
	*ndst += *nsrc;
	free(*src);
	*src = NULL;
	*nsrc = 0;
	return 0;
}

int inventory_merge(struct inventory *dst, struct inventory *src)
{
	int ret;

	/*
	 * Each list moves whole or not at all, so on ENOMEM both inventories
	 * stay valid and releasable; only the lists already moved are in dst.
	 */
	ret = append_moved(&dst->controllers, &dst->nr_controllers, &src->controllers,
			   &src->nr_controllers, sizeof(*src->controllers));
	if (!ret)
		ret = append_moved(&dst->md, &dst->nr_md, &src->md, &src->nr_md,
				   sizeof(*src->md));
	if (!ret)
		ret = append_moved(&dst->blockdevs, &dst->nr_blockdevs, &src->blockdevs,
				   &src->nr_blockdevs, sizeof(*src->blockdevs));
	if (!ret)
		ret = append_moved(&dst->notes, &dst->nr_notes, &src->notes, &src->nr_notes,
				   sizeof(*src->notes));
	return ret;
}

/* ---- JSON ------------------------------------------------------------- */

/*
 * json-c's add functions take ownership even on failure in the versions
 * Debian ships, so a NULL value only records that memory ran out.
 */
struct jctx {
	bool oom;
};

static void jadd(struct jctx *j, struct json_object *o, const char *key, struct json_object *v,
		 bool may_be_null)
{
	if (!v && !may_be_null)
		j->oom = true;
	if (json_object_object_add(o, key, v))
		j->oom = true;
}

static void jstr(struct jctx *j, struct json_object *o, const char *key, const char *s)
{
	jadd(j, o, key, s ? json_object_new_string(s) : NULL, !s);
}

static void jint(struct jctx *j, struct json_object *o, const char *key, int64_t v)
{
	jadd(j, o, key, v >= 0 ? json_object_new_int64(v) : NULL, v < 0);
}

static void jnuma(struct jctx *j, struct json_object *o, int node)
{
	jadd(j, o, "numa_node", node != INV_NO_NUMA ? json_object_new_int(node) : NULL,
	     node == INV_NO_NUMA);
}

static void jpct(struct jctx *j, struct json_object *o, double pct)
{
	jadd(j, o, "progress_pct", pct >= 0 ? json_object_new_double(pct) : NULL, pct < 0);
}

static void jstatus(struct jctx *j, struct json_object *o, enum inv_status s, const char *text)
{
	jstr(j, o, "status", inv_status_name(s));
	jstr(j, o, "status_text", text);
}

static void jbool(struct jctx *j, struct json_object *o, const char *key, bool v)
{
	jadd(j, o, key, json_object_new_boolean(v), false);
}

static void jpush(struct jctx *j, struct json_object *arr, struct json_object *v)
{
	if (!v || json_object_array_add(arr, v)) {
		j->oom = true;
		json_object_put(v);
	}
}

static struct json_object *jstrv(struct jctx *j, char *const *v, size_t nr)
{
	struct json_object *arr = json_object_new_array();

	if (!arr) {
		j->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < nr; i++)
		jpush(j, arr, json_object_new_string(v[i]));
	return arr;
}

static struct json_object *pd_to_json(struct jctx *j, const struct inv_pd *pd)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	jstr(j, o, "id", pd->id);
	jstatus(j, o, pd->status, pd->status_text);
	jstr(j, o, "role", pd->role);
	jint(j, o, "size_bytes", pd->size_bytes);
	jstr(j, o, "interface", pd->interface);
	jstr(j, o, "media", pd->media);
	jstr(j, o, "model", pd->model);
	jstr(j, o, "serial", pd->serial);
	jstr(j, o, "wwn", pd->wwn);
	return o;
}

static struct json_object *pds_to_json(struct jctx *j, const struct inv_pd *pds, size_t nr)
{
	struct json_object *arr = json_object_new_array();

	if (!arr) {
		j->oom = true;
		return NULL;
	}
	for (size_t i = 0; i < nr; i++)
		jpush(j, arr, pd_to_json(j, &pds[i]));
	return arr;
}

static struct json_object *ld_to_json(struct jctx *j, const struct inv_ld *ld)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	jstr(j, o, "id", ld->id);
	jstr(j, o, "raid_level", ld->raid_level);
	jint(j, o, "size_bytes", ld->size_bytes);
	jint(j, o, "strip_size_bytes", ld->strip_size_bytes);
	jstatus(j, o, ld->status, ld->status_text);
	jpct(j, o, ld->progress_pct);
	jstr(j, o, "os_device", ld->os_device);
	return o;
}

static struct json_object *array_to_json(struct jctx *j, const struct inv_array *a)
{
	struct json_object *o = json_object_new_object();
	struct json_object *lds;

	if (!o)
		return NULL;
	jstr(j, o, "id", a->id);
	jstatus(j, o, a->status, a->status_text);
	lds = json_object_new_array();
	for (size_t i = 0; lds && i < a->nr_lds; i++)
		jpush(j, lds, ld_to_json(j, &a->lds[i]));
	jadd(j, o, "logical_drives", lds, false);
	jadd(j, o, "physical_drives", pds_to_json(j, a->pds, a->nr_pds), false);
	return o;
}

/* A link below what both ends can do: the card sits in a narrower or slower slot. */
static bool pcie_degraded(const struct inv_pcie *p)
{
	return (p->max_speed_gts > 0 && p->speed_gts > 0 && p->speed_gts < p->max_speed_gts) ||
	       (p->max_width > 0 && p->width > 0 && p->width < p->max_width);
}

static struct json_object *pcie_to_json(struct jctx *j, const struct inv_pcie *p)
{
	struct json_object *o;

	if (!p->known)
		return NULL;
	o = json_object_new_object();
	if (!o) {
		j->oom = true;
		return NULL;
	}
	jadd(j, o, "speed_gts", p->speed_gts > 0 ? json_object_new_double(p->speed_gts) : NULL,
	     p->speed_gts <= 0);
	jint(j, o, "width", p->width > 0 ? p->width : INV_UNSET);
	jadd(j, o, "max_speed_gts",
	     p->max_speed_gts > 0 ? json_object_new_double(p->max_speed_gts) : NULL,
	     p->max_speed_gts <= 0);
	jint(j, o, "max_width", p->max_width > 0 ? p->max_width : INV_UNSET);
	jbool(j, o, "degraded", pcie_degraded(p));
	return o;
}

static struct json_object *controller_to_json(struct jctx *j, const struct inv_controller *c)
{
	struct json_object *o = json_object_new_object();
	struct json_object *arrays;

	if (!o)
		return NULL;
	jstr(j, o, "id", c->id);
	jstr(j, o, "source", c->source);
	jstr(j, o, "model", c->model);
	jstr(j, o, "slot", c->slot);
	jstr(j, o, "serial", c->serial);
	jstr(j, o, "firmware", c->firmware);
	jstr(j, o, "driver", c->driver);
	jstr(j, o, "pci", c->pci);
	jnuma(j, o, c->numa_node);
	jstr(j, o, "mode", c->mode);
	jstatus(j, o, c->status, c->status_text);
	jadd(j, o, "pcie", pcie_to_json(j, &c->pcie), !c->pcie.known);
	arrays = json_object_new_array();
	for (size_t i = 0; arrays && i < c->nr_arrays; i++)
		jpush(j, arrays, array_to_json(j, &c->arrays[i]));
	jadd(j, o, "arrays", arrays, false);
	jadd(j, o, "unassigned_drives", pds_to_json(j, c->unassigned, c->nr_unassigned), false);
	jadd(j, o, "passthrough_drives", pds_to_json(j, c->passthrough, c->nr_passthrough),
	     false);
	return o;
}

static struct json_object *md_to_json(struct jctx *j, const struct inv_md *md)
{
	struct json_object *o = json_object_new_object();
	struct json_object *members;

	if (!o)
		return NULL;
	jstr(j, o, "name", md->name);
	jstr(j, o, "raid_level", md->raid_level);
	jint(j, o, "size_bytes", md->size_bytes);
	jstatus(j, o, md->status, md->status_text);
	jpct(j, o, md->progress_pct);
	members = json_object_new_array();
	for (size_t i = 0; members && i < md->nr_members; i++) {
		const struct inv_md_member *m = &md->members[i];
		struct json_object *mo = json_object_new_object();

		if (mo) {
			jstr(j, mo, "device", m->device);
			jstr(j, mo, "role", m->role);
			jint(j, mo, "slot", m->slot);
		}
		jpush(j, members, mo);
	}
	jadd(j, o, "members", members, false);
	return o;
}

static struct json_object *blockdev_to_json(struct jctx *j, const struct inv_blockdev *b)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	jstr(j, o, "name", b->name);
	jstr(j, o, "path", b->path);
	jint(j, o, "size_bytes", b->size_bytes);
	jstr(j, o, "model", b->model);
	jstr(j, o, "serial", b->serial);
	jstr(j, o, "wwn", b->wwn);
	jadd(j, o, "stable_names", jstrv(j, b->stable_names, b->nr_stable_names), false);
	jstr(j, o, "stable_names_source", b->stable_names_source);
	jadd(j, o, "rotational", b->rotational >= 0 ? json_object_new_boolean(b->rotational) : NULL,
	     b->rotational < 0);
	jint(j, o, "logical_block_size", b->logical_block_size);
	jint(j, o, "physical_block_size", b->physical_block_size);
	jstr(j, o, "scheduler", b->scheduler);
	jint(j, o, "queue_depth", b->queue_depth);
	jstr(j, o, "controller", b->controller);
	jnuma(j, o, b->numa_node);
	jadd(j, o, "partitions", jstrv(j, b->partitions, b->nr_partitions), false);
	jadd(j, o, "mounts", jstrv(j, b->mounts, b->nr_mounts), false);
	jadd(j, o, "holders", jstrv(j, b->holders, b->nr_holders), false);
	jbool(j, o, "swap", b->swap);
	jstr(j, o, "signature", b->signature);
	jbool(j, o, "write_safe", b->write_safe);
	jstr(j, o, "why_not_write_safe", b->why_not_write_safe);
	return o;
}

struct json_object *inventory_to_json(const struct inventory *inv)
{
	struct jctx j = { false };
	struct json_object *root = json_object_new_object();
	struct json_object *arr;

	if (!root)
		return NULL;

	arr = json_object_new_array();
	for (size_t i = 0; arr && i < inv->nr_controllers; i++)
		jpush(&j, arr, controller_to_json(&j, &inv->controllers[i]));
	jadd(&j, root, "controllers", arr, false);

	arr = json_object_new_array();
	for (size_t i = 0; arr && i < inv->nr_md; i++)
		jpush(&j, arr, md_to_json(&j, &inv->md[i]));
	jadd(&j, root, "md_arrays", arr, false);

	arr = json_object_new_array();
	for (size_t i = 0; arr && i < inv->nr_blockdevs; i++)
		jpush(&j, arr, blockdev_to_json(&j, &inv->blockdevs[i]));
	jadd(&j, root, "block_devices", arr, false);

	jadd(&j, root, "notes", jstrv(&j, inv->notes, inv->nr_notes), false);

	if (j.oom) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

/* ---- normalizers ------------------------------------------------------- */

/*
 * SNIA DDF's words, as MegaCli prints them: "Primary-1, Secondary-3, RAID
 * Level Qualifier-0":
 * secondary 3 means spanned, so primary 1/5/6 become 10/50/60.
 */
static const char *ddf_level(const char *s)
{
	int primary, secondary;

	if (sscanf(s, "primary-%d, secondary-%d", &primary, &secondary) != 2)
		return NULL;
	if (secondary == 3) {
		switch (primary) {
		case 1: return "10";
		case 5: return "50";
		case 6: return "60";
		}
		return NULL;
	}
	switch (primary) {
	case 0: return "0";
	case 1: return "1";
	case 5: return "5";
	case 6: return "6";
	}
	return NULL;
}

const char *inv_normalize_raid_level(const char *vendor)
{
	static const struct {
		const char *key;
		const char *level;
	} table[] = {
		{ "0", "0" }, { "1", "1" }, { "5", "5" }, { "6", "6" },
		{ "10", "10" }, { "1+0", "10" }, { "50", "50" }, { "5+0", "50" },
		{ "60", "60" }, { "6+0", "60" },
		/* HPE's "RAID 6 (ADG)": advanced data guarding is their RAID 6 */
		{ "6(adg)", "6" }, { "adg", "6" },
		/* ssacli's "RAID 1(1+0)": a two-drive 1+0 is a mirror */
		{ "1(1+0)", "1" },
		{ "1adm", "1adm" }, { "1(adm)", "1adm" },
		{ "10adm", "10adm" }, { "1+0adm", "10adm" }, { "10(adm)", "10adm" },
		{ "1+0(adm)", "10adm" }, { "1(1+0adm)", "10adm" },
		{ "linear", "linear" }, { "jbod", "jbod" },
	};
	char buf[64];
	size_t n = 0;
	const char *p;

	if (!vendor)
		return NULL;
	while (isspace((unsigned char)*vendor))
		vendor++;
	if (!strncasecmp(vendor, "primary-", 8)) {
		char low[128];
		size_t i;

		for (i = 0; vendor[i] && i < sizeof(low) - 1; i++)
			low[i] = (char)tolower((unsigned char)vendor[i]);
		low[i] = '\0';
		return ddf_level(low);
	}
	/* Lowercase, drop blanks, dashes and a leading "raid": "RAID 1+0" -> "1+0". */
	for (p = vendor; *p && n < sizeof(buf) - 1; p++) {
		if (isspace((unsigned char)*p) || *p == '-' || *p == '_')
			continue;
		buf[n++] = (char)tolower((unsigned char)*p);
	}
	if (*p)
		return NULL;
	buf[n] = '\0';
	p = buf;
	if (!strncmp(p, "raid", 4))
		p += 4;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(p, table[i].key))
			return table[i].level;
	return NULL;
}

int64_t inv_parse_vendor_size(const char *s, unsigned base)
{
	static const char units[] = "bkmgtpe";
	char *end;
	double v, mult = 1;
	const char *u;
	int exp;

	if (!s || (base != 1000 && base != 1024))
		return INV_UNSET;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return INV_UNSET;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
		return INV_UNSET;
	while (isspace((unsigned char)*end))
		end++;
	if (*end) {
		u = strchr(units, tolower((unsigned char)*end));
		if (!u)
			return INV_UNSET;
		exp = (int)(u - units);
		end++;
		if (exp > 0 && (*end == 'i' || *end == 'I')) {
			/* "GiB" is binary whatever the vendor's habit */
			mult = pow(1024, exp);
			end++;
		} else {
			mult = pow(base, exp);
		}
		/* "G", "GB", "Gb" all seen; a bare "B" after the number is bytes */
		if (exp > 0 && (*end == 'b' || *end == 'B'))
			end++;
		while (isspace((unsigned char)*end))
			end++;
		if (*end)
			return INV_UNSET;
	}
	v *= mult;
	if (v >= 9.2e18)
		return INV_UNSET;
	return (int64_t)llround(v);
}

/* ---- which OS block device is a controller's drive ------------------------------ */

const struct inv_blockdev *inv_bdev_by_name(const struct inventory *inv, const char *dev,
					    size_t *idx)
{
	const char *name;

	if (!dev)
		return NULL;
	name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
	if (!*name)
		return NULL;
	for (size_t i = 0; i < inv->nr_blockdevs; i++) {
		const struct inv_blockdev *b = &inv->blockdevs[i];

		if ((b->name && !strcmp(b->name, name)) || (b->path && !strcmp(b->path, dev))) {
			if (idx)
				*idx = i;
			return b;
		}
	}
	return NULL;
}

/* WWNs come as "naa.5000c5...", "0x5000c5..." or "5000C5...": compare the digits. */
static bool same_wwn(const char *a, const char *b)
{
	if (!a || !b)
		return false;
	if (!strncasecmp(a, "naa.", 4))
		a += 4;
	else if (!strncasecmp(a, "0x", 2))
		a += 2;
	if (!strncasecmp(b, "naa.", 4))
		b += 4;
	else if (!strncasecmp(b, "0x", 2))
		b += 2;
	return *a && !strcasecmp(a, b);
}

const struct inv_blockdev *inv_bdev_of_pd(const struct inventory *inv, const struct inv_pd *pd,
					  size_t *idx)
{
	for (size_t i = 0; i < inv->nr_blockdevs; i++) {
		const struct inv_blockdev *b = &inv->blockdevs[i];

		if (same_wwn(pd->wwn, b->wwn) ||
		    (pd->serial && b->serial && *pd->serial && !strcmp(pd->serial, b->serial))) {
			if (idx)
				*idx = i;
			return b;
		}
	}
	return NULL;
}
