/*
 * build_plan.c - the Array builder's model: which drives can join a new
 * array and why not, the logical drives already there, the picks, and the
 * hw/array.h ops they become. Validation proper (and the exact argv) stays
 * in hw/array.c; this only decides what to offer and dims the rest.
 *
 * No curses, no tools run: the write guard is asked about md candidates
 * (read-only probes), nothing else touches the machine.
 */
#include "build_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "guard.h"

static const struct {
	const char *name;
	int64_t bytes;
} strips[] = {
	{ "default", INV_UNSET }, { "64 KiB", 64 << 10 }, { "128 KiB", 128 << 10 },
	{ "256 KiB", 256 << 10 }, { "512 KiB", 512 << 10 }, { "1 MiB", 1 << 20 },
};

void build_plan_init(struct build_plan *bp, const struct raid_tool_ops *ops)
{
	memset(bp, 0, sizeof(*bp));
	bp->ops = ops;
	bp->md = ops && !ops->controller_id;	/* software RAID over block devices */
	bp->level = -1;
}

void build_plan_release(struct build_plan *bp)
{
	free(bp->drives);
	free(bp->lds);
	bp->drives = NULL;
	bp->lds = NULL;
	bp->nr_drives = bp->nr_lds = 0;
}

static struct bp_drive *add_drive(struct build_plan *bp)
{
	struct bp_drive *d = realloc(bp->drives, (bp->nr_drives + 1) * sizeof(*d));

	if (!d)
		return NULL;
	bp->drives = d;
	d = &bp->drives[bp->nr_drives++];
	memset(d, 0, sizeof(*d));
	d->size = INV_UNSET;
	return d;
}

static struct bp_ld *add_ld(struct build_plan *bp)
{
	struct bp_ld *l = realloc(bp->lds, (bp->nr_lds + 1) * sizeof(*l));

	if (!l)
		return NULL;
	bp->lds = l;
	l = &bp->lds[bp->nr_lds++];
	memset(l, 0, sizeof(*l));
	l->size = INV_UNSET;
	l->progress = -1;
	return l;
}

static void cpy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* ---- a controller --------------------------------------------------------------- */

static int pd_row(struct build_plan *bp, const struct inv_pd *p, const struct inv_array *a)
{
	struct bp_drive *d = add_drive(bp);
	const char *role = p->role ? p->role : "";

	if (!d)
		return -ENOMEM;
	cpy(d->id, sizeof(d->id), p->id);
	cpy(d->model, sizeof(d->model), p->model);
	cpy(d->media, sizeof(d->media), p->media);
	d->size = p->size_bytes;
	d->status = p->status;
	snprintf(d->state, sizeof(d->state), "%s",
		 p->status == INV_PREDICTIVE_FAILURE ? "failing soon" : inv_status_name(p->status));
	if (a)
		cpy(d->array, sizeof(d->array), a->id ? a->id : "?");
	d->spare = !strcmp(role, "spare");
	d->passthrough = !strcmp(role, "passthrough");
	if (a && d->spare)
		snprintf(d->why, sizeof(d->why), "spare of array %s", d->array);
	else if (a)
		snprintf(d->why, sizeof(d->why), "in array %s", d->array);
	else if (d->spare)
		snprintf(d->why, sizeof(d->why), "a global spare");
	else if (d->passthrough)
		snprintf(d->why, sizeof(d->why), "pass-through (HBA mode): build md over it");
	else if (strcmp(role, "unassigned"))
		snprintf(d->why, sizeof(d->why), "%s drive", *role ? role : "not an unassigned");
	else if (p->status != INV_OK)
		snprintf(d->why, sizeof(d->why), "%s: %s", d->state,
			 p->status_text ? p->status_text : "not healthy");
	else if (!p->id)
		snprintf(d->why, sizeof(d->why), "the tool gives it no address");
	else
		d->usable = true;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	return strverscmp(((const struct bp_drive *)a)->id, ((const struct bp_drive *)b)->id);
}

int build_plan_load_controller(struct build_plan *bp, const struct inv_controller *c)
{
	int ret = 0;

	build_plan_release(bp);
	cpy(bp->controller, sizeof(bp->controller), c->id);
	cpy(bp->mode, sizeof(bp->mode), c->mode);
	if (c->model && c->slot)
		snprintf(bp->title, sizeof(bp->title), "%s, slot %s", c->model, c->slot);
	else if (c->model && c->id)
		snprintf(bp->title, sizeof(bp->title), "%s, %s", c->model, c->id);
	else
		snprintf(bp->title, sizeof(bp->title), "%s", c->model ? c->model : c->id ? c->id : "?");
	cpy(bp->confirm, sizeof(bp->confirm), raidtool_id_short(bp->ops, c->id));
	for (size_t i = 0; !ret && i < c->nr_unassigned; i++)
		ret = pd_row(bp, &c->unassigned[i], NULL);
	for (size_t i = 0; !ret && i < c->nr_arrays; i++)
		for (size_t k = 0; !ret && k < c->arrays[i].nr_pds; k++)
			ret = pd_row(bp, &c->arrays[i].pds[k], &c->arrays[i]);
	for (size_t i = 0; !ret && i < c->nr_passthrough; i++)
		ret = pd_row(bp, &c->passthrough[i], NULL);
	if (bp->nr_drives)
		qsort(bp->drives, bp->nr_drives, sizeof(*bp->drives), by_id);
	for (size_t i = 0; !ret && i < c->nr_arrays; i++)
		for (size_t k = 0; k < c->arrays[i].nr_lds; k++) {
			const struct inv_ld *src = &c->arrays[i].lds[k];
			struct bp_ld *l = add_ld(bp);

			if (!l) {
				ret = -ENOMEM;
				break;
			}
			cpy(l->id, sizeof(l->id), src->id);
			cpy(l->array, sizeof(l->array), c->arrays[i].id);
			cpy(l->level, sizeof(l->level), src->raid_level);
			l->size = src->size_bytes;
			l->status = src->status;
			cpy(l->state, sizeof(l->state),
			    src->status_text ? src->status_text : inv_status_name(src->status));
			l->progress = src->progress_pct;
			cpy(l->os_device, sizeof(l->os_device), src->os_device);
		}
	return ret;
}

/* ---- md over block devices ---------------------------------------------------------- */

static const struct inv_md *md_of(const struct inventory *md_inv, const char *name,
				  const char **role)
{
	for (size_t i = 0; md_inv && i < md_inv->nr_md; i++)
		for (size_t k = 0; k < md_inv->md[i].nr_members; k++) {
			const char *dev = md_inv->md[i].members[k].device;

			if (dev && (!strcmp(dev, name) ||
				    (!strncmp(dev, "/dev/", 5) && !strcmp(dev + 5, name)))) {
				*role = md_inv->md[i].members[k].role;
				return &md_inv->md[i];
			}
		}
	return NULL;
}

static bool is_md(const struct inventory *md_inv, const char *name)
{
	if (!strncmp(name, "md", 2))
		return true;
	for (size_t i = 0; md_inv && i < md_inv->nr_md; i++)
		if (md_inv->md[i].name && !strcmp(md_inv->md[i].name, name))
			return true;
	return false;
}

/* The guard's first reason, without the device's own name in front. */
static void first_reason(const char *reasons, const char *path, char *buf, size_t len)
{
	size_t n = strcspn(reasons, "\n"), p = strlen(path);

	if (p && !strncmp(reasons, path, p) && reasons[p] == ' ') {
		reasons += p + 1;
		n -= p + 1;
	}
	snprintf(buf, len, "%.*s", (int)n, reasons);
}

static void md_candidate(struct bp_drive *d, const struct inv_blockdev *b,
			 const struct inventory *md_inv, bool examine)
{
	const struct inv_md *md;
	const char *role = NULL;
	struct guard_report rep;

	d->usable = false;
	md = md_of(md_inv, b->name, &role);
	if (md) {
		cpy(d->array, sizeof(d->array), md->name);
		d->spare = role && !strcmp(role, "spare");
		snprintf(d->state, sizeof(d->state), "%s", role ? role : "member");
		snprintf(d->why, sizeof(d->why), "%s of %s", d->spare ? "spare" : "member",
			 md->name ? md->name : "an md array");
		return;
	}
	if (b->nr_mounts || b->swap) {
		snprintf(d->state, sizeof(d->state), "%s", b->swap ? "swap" : "mounted");
		snprintf(d->why, sizeof(d->why), "%s %s", b->swap ? "used as swap" : "mounted on",
			 b->swap ? "" : b->mounts[0]);
		return;
	}
	if (b->nr_holders) {
		snprintf(d->state, sizeof(d->state), "held");
		snprintf(d->why, sizeof(d->why), "held by %s", b->holders[0]);
		return;
	}
	if (examine && b->path) {
		int ret = guard_examine(b->path, &rep);

		if (ret) {
			snprintf(d->state, sizeof(d->state), "unknown");
			snprintf(d->why, sizeof(d->why), "cannot be examined (%s)", strerror(-ret));
			return;
		}
		if (rep.verdict == GUARD_NEVER || strstr(rep.reasons, " is held by ")) {
			snprintf(d->state, sizeof(d->state), "in use");
			first_reason(rep.reasons, b->path, d->why, sizeof(d->why));
			return;
		}
		d->usable = true;
		snprintf(d->state, sizeof(d->state), "%s",
			 rep.verdict == GUARD_OK ? "blank" : "holds data");
		if (rep.verdict != GUARD_OK)
			first_reason(rep.reasons, b->path, d->why, sizeof(d->why));
		return;
	}
	d->usable = b->write_safe || !b->signature;
	snprintf(d->state, sizeof(d->state), "%s", b->write_safe ? "blank" : "holds data");
	if (b->why_not_write_safe)
		first_reason(b->why_not_write_safe, b->path ? b->path : "", d->why, sizeof(d->why));
}

int build_plan_load_md(struct build_plan *bp, const struct inventory *inv,
		       const struct inventory *md_inv, bool examine)
{
	build_plan_release(bp);
	snprintf(bp->title, sizeof(bp->title), "Linux software RAID (md)");
	for (size_t i = 0; inv && i < inv->nr_blockdevs; i++) {
		const struct inv_blockdev *b = &inv->blockdevs[i];
		struct bp_drive *d;

		if (!b->name || is_md(md_inv, b->name) || b->size_bytes == 0)
			continue;
		if (!(d = add_drive(bp)))
			return -ENOMEM;
		snprintf(d->id, sizeof(d->id), "%s", b->path ? b->path : b->name);
		cpy(d->model, sizeof(d->model), b->model);
		d->size = b->size_bytes;
		cpy(d->media, sizeof(d->media), b->rotational == 1 ? "hdd" :
		    b->rotational == 0 ? "ssd" : "");
		d->status = INV_OK;
		md_candidate(d, b, md_inv, examine);
	}
	for (size_t i = 0; md_inv && i < md_inv->nr_md; i++) {
		const struct inv_md *m = &md_inv->md[i];
		struct bp_ld *l = add_ld(bp);

		if (!l)
			return -ENOMEM;
		cpy(l->id, sizeof(l->id), m->name);
		cpy(l->level, sizeof(l->level), m->raid_level);
		l->size = m->size_bytes;
		l->status = m->status;
		cpy(l->state, sizeof(l->state),
		    m->status_text ? m->status_text : inv_status_name(m->status));
		l->progress = m->progress_pct;
		snprintf(l->os_device, sizeof(l->os_device), "/dev/%s", m->name ? m->name : "?");
	}
	return 0;
}

void build_plan_keep_picks(struct build_plan *bp, const struct build_plan *old)
{
	bp->level = old->level;
	bp->strip = old->strip;
	for (size_t i = 0; i < bp->nr_drives; i++)
		for (size_t k = 0; k < old->nr_drives; k++)
			if (!strcmp(bp->drives[i].id, old->drives[k].id) && bp->drives[i].usable)
				bp->drives[i].use = old->drives[k].use;
}

/* ---- picks --------------------------------------------------------------------------- */

size_t build_plan_count(const struct build_plan *bp, enum bp_use use)
{
	size_t n = 0;

	for (size_t i = 0; i < bp->nr_drives; i++)
		n += bp->drives[i].use == use;
	return n;
}

static size_t nr_levels(const struct build_plan *bp)
{
	size_t n = 0;

	while (bp->ops->levels && bp->ops->levels[n])
		n++;
	return n;
}

const char *build_plan_level(const struct build_plan *bp)
{
	return bp->level >= 0 && (size_t)bp->level < nr_levels(bp) ? bp->ops->levels[bp->level] :
								      NULL;
}

bool build_plan_level_fits(const struct build_plan *bp, int i, size_t n, char *why, size_t len)
{
	unsigned min, multiple;
	const char *level = i >= 0 && (size_t)i < nr_levels(bp) ? bp->ops->levels[i] : NULL;

	if (!level || !array_level_rule(bp->ops, level, &min, &multiple)) {
		snprintf(why, len, "%s cannot build it", bp->ops->name);
		return false;
	}
	if (n < min) {
		snprintf(why, len, "needs at least %u drives", min);
		return false;
	}
	if (n % multiple) {
		snprintf(why, len, "needs a multiple of %u drives", multiple);
		return false;
	}
	why[0] = '\0';
	return true;
}

void build_plan_cycle_level(struct build_plan *bp, int dir)
{
	int n = (int)nr_levels(bp), i = bp->level;
	size_t members = build_plan_count(bp, BP_MEMBER);
	char why[64];

	for (int step = 0; step < n; step++) {
		i = i < 0 ? (dir > 0 ? 0 : n - 1) : (i + (dir > 0 ? 1 : -1) + n) % n;
		if (build_plan_level_fits(bp, i, members, why, sizeof(why))) {
			bp->level = i;
			return;
		}
	}
}

void build_plan_cycle_strip(struct build_plan *bp)
{
	bp->strip = (bp->strip + 1) % (int)(sizeof(strips) / sizeof(strips[0]));
}

const char *build_plan_strip_name(const struct build_plan *bp)
{
	return strips[bp->strip].name;
}

int64_t build_plan_strip_bytes(const struct build_plan *bp)
{
	return strips[bp->strip].bytes;
}

int build_plan_estimate(const struct build_plan *bp, struct raid_estimate *est)
{
	int64_t smallest = -1;
	size_t n = 0;

	for (size_t i = 0; i < bp->nr_drives; i++) {
		const struct bp_drive *d = &bp->drives[i];

		if (d->use != BP_MEMBER)
			continue;
		n++;
		if (d->size > 0 && (smallest < 0 || d->size < smallest))
			smallest = d->size;
	}
	return raid_estimate(build_plan_level(bp), (unsigned)n, 0, smallest, est);
}

/* ---- ops ------------------------------------------------------------------------------- */

static void op_base(const struct build_plan *bp, struct bp_op *o, enum array_verb verb)
{
	memset(o, 0, sizeof(*o));
	o->op.verb = verb;
	o->op.ops = bp->ops;
	snprintf(o->op.controller, sizeof(o->op.controller), "%s", bp->controller);
	o->op.strip_bytes = INV_UNSET;
	o->op.size_bytes = INV_UNSET;
	o->op.drives = o->drives;
	o->op.spares = o->spares;
}

static void push_use(const struct build_plan *bp, struct bp_op *o, enum bp_use use, char **v,
		     size_t *nr)
{
	(void)o;
	for (size_t i = 0; i < bp->nr_drives && *nr < BP_MAX_OP_DRIVES; i++)
		if (bp->drives[i].use == use)
			v[(*nr)++] = (char *)bp->drives[i].id;
}

void build_plan_create_op(const struct build_plan *bp, struct bp_op *o)
{
	op_base(bp, o, ARRAY_CREATE);
	o->op.level = build_plan_level(bp);
	o->op.strip_bytes = build_plan_strip_bytes(bp);
	push_use(bp, o, BP_MEMBER, o->drives, &o->op.nr_drives);
	push_use(bp, o, BP_SPARE, o->spares, &o->op.nr_spares);
}

void build_plan_delete_op(const struct build_plan *bp, const struct bp_ld *ld, struct bp_op *o)
{
	op_base(bp, o, ARRAY_DELETE);
	snprintf(o->ld, sizeof(o->ld), "%s%s", bp->md ? "/dev/" : "", ld->id);
	o->op.ld = o->ld;
	/* storcli wants `force` for a VD with partitions; what they hold is listed first */
	o->op.force = true;
}

void build_plan_add_spares_op(const struct build_plan *bp, const struct bp_ld *ld,
			      struct bp_op *o)
{
	op_base(bp, o, ARRAY_ADD_SPARE);
	push_use(bp, o, BP_SPARE, o->drives, &o->op.nr_drives);
	if (bp->md) {
		snprintf(o->ld, sizeof(o->ld), "/dev/%s", ld->id);
		o->op.ld = o->ld;
	} else {
		snprintf(o->array, sizeof(o->array), "%s", ld->array);
		o->op.array = o->array;
	}
}

void build_plan_remove_spare_op(const struct build_plan *bp, const struct bp_drive *d,
				struct bp_op *o)
{
	op_base(bp, o, ARRAY_REMOVE_SPARE);
	o->drives[0] = (char *)d->id;
	o->op.nr_drives = 1;
	if (bp->md) {
		snprintf(o->ld, sizeof(o->ld), "/dev/%s", d->array);
		o->op.ld = o->ld;
	} else if (d->array[0]) {
		snprintf(o->array, sizeof(o->array), "%s", d->array);
		o->op.array = o->array;
	}
}

void build_plan_erase_op(const struct build_plan *bp, const struct bp_drive *d, struct bp_op *o)
{
	op_base(bp, o, ARRAY_ERASE);
	o->drives[0] = (char *)d->id;
	o->op.nr_drives = 1;
}

bool build_plan_busy(const struct build_plan *bp)
{
	for (size_t i = 0; i < bp->nr_lds; i++) {
		enum inv_status s = bp->lds[i].status;

		if (bp->lds[i].progress >= 0 || s == INV_INITIALIZING || s == INV_REBUILDING ||
		    s == INV_TRANSFORMING || s == INV_ERASING)
			return true;
	}
	for (size_t i = 0; i < bp->nr_drives; i++)
		if (bp->drives[i].status == INV_ERASING || bp->drives[i].status == INV_REBUILDING)
			return true;
	return false;
}

bool build_plan_confirmed(const struct build_plan *bp, const char *want, const char *typed)
{
	char alt[96];

	if (!want || !*want || !*typed)
		return false;
	if (!strcmp(typed, want))
		return true;
	if (!strncmp(want, "/dev/", 5) && !strcmp(typed, want + 5))
		return true;
	snprintf(alt, sizeof(alt), "/dev/%s", want);
	if (!strcmp(typed, alt))
		return true;
	/* the controller in any form its tool takes ("slot=3" for "3", "c0" for "/c0") */
	return raidtool_same_controller(bp->ops, typed, want);
}
