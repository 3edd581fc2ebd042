/*
 * devtree.c - the Devices screen's tree as rows and words: which inventory
 * item sits under which, how each is labelled and what its status column
 * says (the detail pane's words are in tui/screens/devdetail.c). It draws nothing;
 * the screen turns tones into colors.
 *
 * Every block device appears once: as the OS device of a logical drive, of
 * a pass-through or unassigned drive, of an md array, under the controller
 * that serves it, or else under "Other block devices".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "devtree.h"
#include "bufcat.h"

void devtree_init(struct devtree *t)
{
	memset(t, 0, sizeof(*t));
}

void devtree_release(struct devtree *t)
{
	size_t i;

	for (i = 0; i < t->nr_collapsed; i++)
		free(t->collapsed[i]);
	free(t->collapsed);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

static bool is_collapsed(const struct devtree *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nr_collapsed; i++)
		if (!strcmp(t->collapsed[i], key))
			return true;
	return false;
}

long devtree_find(const struct devtree *t, const char *key)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->rows[i].key, key))
			return (long)i;
	return -1;
}

int devtree_toggle(struct devtree *t, size_t i)
{
	const char *key;
	size_t j;
	char **n;

	if (i >= t->nr || !t->rows[i].has_children)
		return 0;
	key = t->rows[i].key;
	for (j = 0; j < t->nr_collapsed; j++)
		if (!strcmp(t->collapsed[j], key)) {
			free(t->collapsed[j]);
			t->collapsed[j] = t->collapsed[--t->nr_collapsed];
			t->rows[i].collapsed = false;
			return 0;
		}
	n = realloc(t->collapsed, (t->nr_collapsed + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	t->collapsed = n;
	n[t->nr_collapsed] = strdup(key);
	if (!n[t->nr_collapsed])
		return -ENOMEM;
	t->nr_collapsed++;
	t->rows[i].collapsed = true;
	return 0;
}

/* ---- building ----------------------------------------------------------- */

struct build {
	struct devtree *t;
	const struct inventory *inv;
	bool *claimed;		/* per block device: shown as some other row's OS device */
	int err;
};

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path;
}

static void claim_all(struct build *b)
{
	const struct inventory *inv = b->inv;
	size_t i, j, k, idx;

	for (i = 0; i < inv->nr_controllers; i++) {
		const struct inv_controller *c = &inv->controllers[i];

		for (j = 0; j < c->nr_arrays; j++)
			for (k = 0; k < c->arrays[j].nr_lds; k++)
				if (c->arrays[j].lds[k].os_device &&
				    inv_bdev_by_name(inv, c->arrays[j].lds[k].os_device, &idx))
					b->claimed[idx] = true;
		for (k = 0; k < c->nr_unassigned; k++)
			if (inv_bdev_of_pd(inv, &c->unassigned[k], &idx))
				b->claimed[idx] = true;
		for (k = 0; k < c->nr_passthrough; k++)
			if (inv_bdev_of_pd(inv, &c->passthrough[k], &idx))
				b->claimed[idx] = true;
	}
	for (i = 0; i < inv->nr_md; i++)
		if (inv->md[i].name && inv_bdev_by_name(inv, inv->md[i].name, &idx))
			b->claimed[idx] = true;
}

static const struct inv_controller *controller_by_id(const struct inventory *inv, const char *id)
{
	size_t i;

	for (i = 0; id && i < inv->nr_controllers; i++)
		if (inv->controllers[i].id && !strcmp(inv->controllers[i].id, id))
			return &inv->controllers[i];
	return NULL;
}

/* Appends a row; NULL (and b->err) on ENOMEM. */
static struct devrow *push(struct build *b, enum devrow_kind kind, int depth, unsigned long vert,
			   bool last, const char *parent_key, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static struct devrow *push(struct build *b, enum devrow_kind kind, int depth, unsigned long vert,
			   bool last, const char *parent_key, const char *fmt, ...)
{
	struct devtree *t = b->t;
	struct devrow *r;
	va_list ap;
	size_t n;

	if (b->err)
		return NULL;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct devrow *rows = realloc(t->rows, cap * sizeof(*rows));

		if (!rows) {
			b->err = -ENOMEM;
			return NULL;
		}
		t->rows = rows;
		t->cap = cap;
	}
	r = &t->rows[t->nr++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->depth = depth;
	r->vert = vert;
	r->last = last;
	n = parent_key ? bufcat(r->key, sizeof(r->key), 0, "%s/", parent_key) : 0;
	if (n < sizeof(r->key) - 1) {	/* a long parent key leaves no room */
		va_start(ap, fmt);
		vsnprintf(r->key + n, sizeof(r->key) - n, fmt, ap);
		va_end(ap);
	}
	r->collapsed = is_collapsed(t, r->key);
	return r;
}

/* The vert bits a child of a row at depth d passes on. */
static unsigned long child_vert(const struct devrow *r)
{
	return r->vert | (r->depth > 0 && !r->last ? 1ul << r->depth : 0);
}

/* A key part: the item's id, or its position when the source gave none. */
struct idbuf {
	char s[64];
};

static const char *idk(const char *id, size_t i, struct idbuf *b)
{
	if (id)
		return id;
	snprintf(b->s, sizeof(b->s), "#%zu", i);
	return b->s;
}

static void add_pds(struct build *b, const struct devrow *parent, const struct inv_pd *pds, size_t n,
		    const struct inv_controller *c, const struct inv_array *a, bool os_disks)
{
	struct idbuf ib;
	char key[192];
	size_t i, idx;

	snprintf(key, sizeof(key), "%s", parent->key);
	for (i = 0; i < n; i++) {
		struct devrow *r = push(b, DR_PD, parent->depth + 1, child_vert(parent), i + 1 == n, key,
					"P:%s", idk(pds[i].id, i, &ib));

		if (!r)
			return;
		r->c = c;
		r->a = a;
		r->pd = &pds[i];
		if (os_disks)
			r->bdev = inv_bdev_of_pd(b->inv, &pds[i], &idx);
	}
}

static void add_array(struct build *b, const struct inv_controller *c, const struct inv_array *a,
		      size_t ai, const char *ckey, unsigned long vert, bool last)
{
	struct idbuf ib;
	struct devrow *r = push(b, DR_ARRAY, 1, vert, last, ckey, "A:%s", idk(a->id, ai, &ib));
	char key[192];
	size_t i;

	if (!r)
		return;
	r->c = c;
	r->a = a;
	r->has_children = a->nr_lds + a->nr_pds > 0;
	if (r->collapsed)
		return;
	{
		struct devrow parent = *r;

		snprintf(key, sizeof(key), "%s", r->key);
		for (i = 0; i < a->nr_lds; i++) {
			struct devrow *l = push(b, DR_LD, 2, child_vert(&parent),
						i + 1 == a->nr_lds && !a->nr_pds, key, "L:%s", idk(a->lds[i].id, i, &ib));

			if (!l)
				return;
			l->c = c;
			l->a = a;
			l->ld = &a->lds[i];
			if (a->lds[i].os_device)
				l->bdev = inv_bdev_by_name(b->inv, a->lds[i].os_device, NULL);
		}
		add_pds(b, &parent, a->pds, a->nr_pds, c, a, false);
	}
}

static void add_group(struct build *b, enum devrow_kind kind, const char *tag,
		      const struct inv_controller *c, const struct inv_pd *pds, size_t n,
		      const char *ckey, unsigned long vert, bool last)
{
	struct devrow *r = push(b, kind, 1, vert, last, ckey, "%s", tag);
	struct devrow parent;

	if (!r)
		return;
	r->c = c;
	r->count = n;
	r->has_children = true;
	if (r->collapsed)
		return;
	parent = *r;
	add_pds(b, &parent, pds, n, c, NULL, true);
}

static void add_controller(struct build *b, size_t ci)
{
	const struct inventory *inv = b->inv;
	const struct inv_controller *c = &inv->controllers[ci];
	size_t i, nbd = 0, children, k = 0;
	struct idbuf ib;
	struct devrow *r;
	char key[192];

	for (i = 0; i < inv->nr_blockdevs; i++)
		if (!b->claimed[i] && inv->blockdevs[i].controller && c->id &&
		    !strcmp(inv->blockdevs[i].controller, c->id))
			nbd++;
	children = c->nr_arrays + (c->nr_unassigned ? 1 : 0) + (c->nr_passthrough ? 1 : 0) + nbd;
	r = push(b, DR_CONTROLLER, 0, 0, ci + 1 == inv->nr_controllers, NULL, "C:%s", idk(c->id, ci, &ib));
	if (!r)
		return;
	r->c = c;
	r->has_children = children > 0;
	if (r->collapsed)
		return;
	snprintf(key, sizeof(key), "%s", r->key);
	for (i = 0; i < c->nr_arrays; i++, k++)
		add_array(b, c, &c->arrays[i], i, key, 0, k + 1 == children);
	if (c->nr_unassigned) {
		add_group(b, DR_UNASSIGNED, "U", c, c->unassigned, c->nr_unassigned, key, 0,
			  ++k == children);
	}
	if (c->nr_passthrough) {
		add_group(b, DR_PASSTHROUGH, "T", c, c->passthrough, c->nr_passthrough, key, 0,
			  ++k == children);
	}
	for (i = 0; i < inv->nr_blockdevs; i++) {
		const struct inv_blockdev *bd = &inv->blockdevs[i];
		struct devrow *d;

		if (b->claimed[i] || !bd->controller || !c->id || strcmp(bd->controller, c->id))
			continue;
		d = push(b, DR_BDEV, 1, 0, ++k == children, key, "B:%s", bd->name ? bd->name : "?");
		if (!d)
			return;
		d->c = c;
		d->bdev = bd;
		b->claimed[i] = true;
	}
}

static void add_md(struct build *b)
{
	const struct inventory *inv = b->inv;
	struct devrow *g = push(b, DR_MD_GROUP, 0, 0, false, NULL, "M");
	char gkey[192], key[192];
	struct idbuf ib;
	size_t i, j;

	if (!g)
		return;
	g->count = inv->nr_md;
	g->has_children = true;
	if (g->collapsed)
		return;
	snprintf(gkey, sizeof(gkey), "%s", g->key);
	for (i = 0; i < inv->nr_md; i++) {
		const struct inv_md *md = &inv->md[i];
		struct devrow *r = push(b, DR_MD, 1, 0, i + 1 == inv->nr_md, gkey, "%s", idk(md->name, i, &ib));
		struct devrow parent;

		if (!r)
			return;
		r->md = md;
		r->bdev = md->name ? inv_bdev_by_name(inv, md->name, NULL) : NULL;
		r->has_children = md->nr_members > 0;
		if (r->collapsed)
			continue;
		parent = *r;
		snprintf(key, sizeof(key), "%s", r->key);
		for (j = 0; j < md->nr_members; j++) {
			struct devrow *m = push(b, DR_MD_MEMBER, 2, child_vert(&parent),
						j + 1 == md->nr_members, key, "%s", idk(md->members[j].device, j, &ib));

			if (!m)
				return;
			m->md = md;
			m->mm = &md->members[j];
		}
	}
}

static void add_other_bdevs(struct build *b)
{
	const struct inventory *inv = b->inv;
	struct devrow *g;
	size_t i, n = 0, k = 0;
	struct idbuf ib;
	char gkey[192];

	for (i = 0; i < inv->nr_blockdevs; i++)
		if (!b->claimed[i])
			n++;
	if (!n)
		return;
	g = push(b, DR_BDEV_GROUP, 0, 0, true, NULL, "B");
	if (!g)
		return;
	g->count = n;
	g->has_children = true;
	if (g->collapsed)
		return;
	snprintf(gkey, sizeof(gkey), "%s", g->key);
	for (i = 0; i < inv->nr_blockdevs; i++) {
		struct devrow *r;

		if (b->claimed[i])
			continue;
		r = push(b, DR_BDEV, 1, 0, ++k == n, gkey, "%s", idk(inv->blockdevs[i].name, i, &ib));
		if (!r)
			return;
		r->bdev = &inv->blockdevs[i];
		r->c = controller_by_id(inv, inv->blockdevs[i].controller);
	}
}

int devtree_build(struct devtree *t, const struct inventory *inv)
{
	struct build b = { .t = t, .inv = inv };
	size_t i;

	t->nr = 0;
	if (!inv)
		return 0;
	b.claimed = calloc(inv->nr_blockdevs + 1, sizeof(*b.claimed));
	if (!b.claimed)
		return -ENOMEM;
	claim_all(&b);
	for (i = 0; i < inv->nr_controllers; i++)
		add_controller(&b, i);
	if (inv->nr_md)
		add_md(&b);
	add_other_bdevs(&b);
	free(b.claimed);
	return b.err;
}

/* ---- words -------------------------------------------------------------- */

enum devtone devtone_of_status(enum inv_status s)
{
	switch (s) {
	case INV_OK:
		return TONE_OK;
	case INV_DEGRADED:
	case INV_PREDICTIVE_FAILURE:
		return TONE_WARN;
	case INV_REBUILDING:
	case INV_INITIALIZING:
	case INV_TRANSFORMING:
	case INV_ERASING:
		return TONE_BUSY;
	case INV_FAILED:
	case INV_OFFLINE:
		return TONE_FAILED;
	default:
		return TONE_UNKNOWN;
	}
}

const char *devtree_status_words(enum inv_status s)
{
	switch (s) {
	case INV_PREDICTIVE_FAILURE:
		return "failing soon";
	default:
		return inv_status_name(s);
	}
}

/* "rebuild" for "rebuilding 30%": short enough to leave room for the number. */
static const char *status_short(enum inv_status s)
{
	switch (s) {
	case INV_REBUILDING:
		return "rebuild";
	case INV_INITIALIZING:
		return "init";
	case INV_TRANSFORMING:
		return "transform";
	case INV_ERASING:
		return "erase";
	case INV_PREDICTIVE_FAILURE:
		return "failing";
	default:
		return inv_status_name(s);
	}
}

void devtree_raid_words(const char *level, char *buf, size_t len)
{
	if (!level)
		snprintf(buf, len, "RAID level not reported");
	else if (!strcmp(level, "linear"))
		snprintf(buf, len, "linear");
	else if (!strcmp(level, "jbod"))
		snprintf(buf, len, "JBOD");
	else if (!strcmp(level, "1adm") || !strcmp(level, "10adm"))
		snprintf(buf, len, "RAID %.*s ADM", (int)(strlen(level) - 3), level);
	else
		snprintf(buf, len, "RAID %s", level);
}

void devtree_label(const struct devrow *r, char *buf, size_t len)
{
	char lvl[64];

	switch (r->kind) {
	case DR_CONTROLLER:
		if (r->c->model && r->c->slot)
			snprintf(buf, len, "%s, slot %s", r->c->model, r->c->slot);
		else if (r->c->model)
			snprintf(buf, len, "%s", r->c->model);
		else
			snprintf(buf, len, "Controller %s", r->c->id ? r->c->id : "(no id)");
		break;
	case DR_ARRAY:
		if (r->a->id)
			snprintf(buf, len, "Array %s", r->a->id);
		else
			snprintf(buf, len, "Volumes (array not reported)");
		break;
	case DR_LD:
		if (r->ld->raid_level)
			devtree_raid_words(r->ld->raid_level, lvl, sizeof(lvl));
		else
			lvl[0] = '\0';
		snprintf(buf, len, "LD %s%s%s%s%s", r->ld->id ? r->ld->id : "?", lvl[0] ? "  " : "",
			 lvl, r->ld->os_device ? "  " : "",
			 r->ld->os_device ? base_name(r->ld->os_device) : "");
		break;
	case DR_PD:
		snprintf(buf, len, "%s%s%s%s%s%s%s", r->pd->id ? r->pd->id : r->pd->model ? r->pd->model : "?",
			 r->pd->interface ? " " : "", r->pd->interface ? r->pd->interface : "",
			 r->pd->media ? " " : "",
			 r->pd->media ? (!strcmp(r->pd->media, "ssd") ? "SSD" : "HDD") : "",
			 r->bdev ? "  " : "", r->bdev && r->bdev->name ? r->bdev->name : "");
		if (r->pd->role && !strcmp(r->pd->role, "spare"))
			snprintf(buf + strlen(buf), len - strlen(buf), "  spare");
		break;
	case DR_UNASSIGNED: {
		size_t spares = 0;

		/* the tools list global hot spares outside any array, beside the free drives */
		for (size_t i = 0; r->c && i < r->c->nr_unassigned; i++)
			spares += r->c->unassigned[i].role && !strcmp(r->c->unassigned[i].role, "spare");
		snprintf(buf, len, "%s (%zu)", spares ? "Unassigned drives and global spares" :
			 "Unassigned drives", r->count);
		break;
	}
	case DR_PASSTHROUGH:
		snprintf(buf, len, "Pass-through drives (%zu)", r->count);
		break;
	case DR_MD_GROUP:
		snprintf(buf, len, "md arrays (%zu)", r->count);
		break;
	case DR_MD:
		devtree_raid_words(r->md->raid_level, lvl, sizeof(lvl));
		snprintf(buf, len, "%s  %s", r->md->name ? r->md->name : "md?", lvl);
		break;
	case DR_MD_MEMBER:
		if (r->mm->slot != INV_UNSET)
			snprintf(buf, len, "%s  slot %d", r->mm->device ? r->mm->device : "?", r->mm->slot);
		else
			snprintf(buf, len, "%s", r->mm->device ? r->mm->device : "?");
		break;
	case DR_BDEV_GROUP:
		snprintf(buf, len, "Other block devices (%zu)", r->count);
		break;
	case DR_BDEV:
		snprintf(buf, len, "%s%s%s", r->bdev->name ? r->bdev->name : "?",
			 r->bdev->model ? "  " : "", r->bdev->model ? r->bdev->model : "");
		break;
	}
}

static enum inv_status row_status(const struct devrow *r, double *progress)
{
	*progress = -1;
	switch (r->kind) {
	case DR_CONTROLLER:
		return r->c->status;
	case DR_ARRAY:
		return r->a->status;
	case DR_LD:
		*progress = r->ld->progress_pct;
		return r->ld->status;
	case DR_PD:
		return r->pd->status;
	case DR_MD:
		*progress = r->md->progress_pct;
		return r->md->status;
	default:
		return INV_UNKNOWN;
	}
}

static bool has_status(const struct devrow *r)
{
	return r->kind == DR_CONTROLLER || r->kind == DR_ARRAY || r->kind == DR_LD ||
	       r->kind == DR_PD || r->kind == DR_MD;
}

void devtree_status(const struct devrow *r, char *buf, size_t len)
{
	const struct inv_blockdev *b = r->bdev;
	double progress;
	enum inv_status s;

	buf[0] = '\0';
	if (has_status(r)) {
		s = row_status(r, &progress);
		if (progress >= 0)
			snprintf(buf, len, "%s %.0f%%", status_short(s), progress);
		else
			snprintf(buf, len, "%s", devtree_status_words(s));
		return;
	}
	if (r->kind == DR_MD_MEMBER) {
		snprintf(buf, len, "%s", r->mm->role ? r->mm->role : "unknown");
		return;
	}
	if (r->kind != DR_BDEV)
		return;
	if (b->nr_mounts)
		snprintf(buf, len, "mounted");
	else if (b->swap)
		snprintf(buf, len, "swap");
	else if (b->nr_holders)
		snprintf(buf, len, "in use");
	else if (b->signature)
		snprintf(buf, len, "%s", b->signature);
	else if (b->write_safe)
		snprintf(buf, len, "writable");
	else
		snprintf(buf, len, "not writable");
}

enum devtone devtree_tone(const struct devrow *r)
{
	double progress;

	if (has_status(r))
		return devtone_of_status(row_status(r, &progress));
	if (r->kind == DR_MD_MEMBER) {
		if (!r->mm->role)
			return TONE_UNKNOWN;
		return !strcmp(r->mm->role, "faulty") ? TONE_FAILED :
		       !strcmp(r->mm->role, "active") ? TONE_OK : TONE_NONE;
	}
	if (r->kind == DR_BDEV) {
		if (r->bdev->nr_mounts || r->bdev->swap)
			return TONE_UNSAFE;
		return r->bdev->write_safe ? TONE_SAFE : TONE_WARN;
	}
	return TONE_NONE;
}

double devtree_size(const struct devrow *r)
{
	int64_t s = INV_UNSET;

	switch (r->kind) {
	case DR_LD:
		s = r->ld->size_bytes;
		break;
	case DR_PD:
		s = r->pd->size_bytes;
		break;
	case DR_MD:
		s = r->md->size_bytes;
		break;
	case DR_BDEV:
		s = r->bdev->size_bytes;
		break;
	default:
		break;
	}
	if (s < 0 && r->bdev && r->kind != DR_BDEV)
		s = r->bdev->size_bytes;
	return s < 0 ? -1.0 : (double)s;
}

const struct inv_blockdev *devtree_target(const struct devrow *r)
{
	return r->bdev && r->bdev->path ? r->bdev : NULL;
}

/* Appends "3 arrays" to a comma list; nothing for none. */
static void count(char *buf, size_t len, size_t n, const char *one, const char *many)
{
	size_t o = strlen(buf);

	if (n && o < len)
		snprintf(buf + o, len - o, "%s%zu %s", o ? ", " : "", n, n == 1 ? one : many);
}

void devtree_summary(const struct inventory *inv, char *buf, size_t len)
{
	size_t i, j, arrays = 0, lds = 0, pds = 0;

	for (i = 0; i < inv->nr_controllers; i++) {
		const struct inv_controller *c = &inv->controllers[i];

		arrays += c->nr_arrays;
		pds += c->nr_unassigned + c->nr_passthrough;
		for (j = 0; j < c->nr_arrays; j++) {
			lds += c->arrays[j].nr_lds;
			pds += c->arrays[j].nr_pds;
		}
	}
	buf[0] = '\0';
	count(buf, len, inv->nr_controllers, "controller", "controllers");
	count(buf, len, arrays, "array", "arrays");
	count(buf, len, lds, "logical drive", "logical drives");
	count(buf, len, pds, "physical drive", "physical drives");
	count(buf, len, inv->nr_md, "md array", "md arrays");
	count(buf, len, inv->nr_blockdevs, "block device", "block devices");
}
