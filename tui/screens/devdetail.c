/*
 * devdetail.c - what the Devices screen's detail pane says about one row of
 * the tree (hw/devtree.h): every field the inventory has for it, in words,
 * one field a line, with a tone for the screen to color. Fields a source did
 * not give are left out, never guessed; a slow PCIe link, a refused write
 * test and a failing drive say so in words, not only in color.
 *
 * It draws nothing (the widgets header is here only for fmt_size).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "devtree.h"
#include "widgets.h"
#include "bufcat.h"

struct out {
	devdetail_fn fn;
	void *ctx;
};

static void kv(struct out *o, enum devtone tone, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void kv(struct out *o, enum devtone tone, const char *label, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	o->fn(o->ctx, tone, label, buf);
}

/* A string field: shown only when the source gave it. */
static void ks(struct out *o, const char *label, const char *v)
{
	if (v && *v)
		kv(o, TONE_NONE, label, "%s", v);
}

/*
 * A size; exact says it is the kernel's byte count. A vendor tool's size is
 * exact when it counts sectors (storcli); one that is not a whole number of
 * sectors came from a rounded figure ("3.64 TB") and gets no byte count.
 */
static void ksize(struct out *o, const char *label, int64_t bytes, bool exact)
{
	char s[32];

	if (bytes < 0)
		return;
	fmt_size(s, sizeof(s), (double)bytes);
	if (exact || bytes % 512 == 0)
		kv(o, TONE_NONE, label, "%s (%lld bytes)", s, (long long)bytes);
	else
		kv(o, TONE_NONE, label, "about %s (rounded by the tool)", s);
}

static void kstatus(struct out *o, enum inv_status s, const char *text)
{
	const char *name = inv_status_name(s);

	if (text && *text && strcasecmp(text, name))
		kv(o, devtone_of_status(s), "Status", "%s (the tool says \"%s\")", devtree_status_words(s),
		   text);
	else
		kv(o, devtone_of_status(s), "Status", "%s", devtree_status_words(s));
}

static void kprogress(struct out *o, enum inv_status s, double pct)
{
	if (pct >= 0)
		kv(o, devtone_of_status(s), "Progress", "%s %.1f%% done", inv_status_name(s), pct);
}

static void knuma(struct out *o, int node)
{
	if (node == INV_NO_NUMA)
		return;
	if (node < 0)
		kv(o, TONE_NONE, "NUMA node", "none (the machine reports no NUMA locality)");
	else
		kv(o, TONE_NONE, "NUMA node", "%d (test threads run on this node's CPUs)", node);
}

static void pcie_details(struct out *o, const struct inv_pcie *p)
{
	bool slow_speed, narrow;

	if (!p->known)
		return;
	if (p->max_speed_gts <= 0 || p->max_width <= 0) {
		kv(o, TONE_NONE, "PCIe link", "%.1f GT/s x%d (its maximum is not reported)",
		   p->speed_gts, p->width);
		return;
	}
	kv(o, TONE_NONE, "PCIe link", "%.1f GT/s x%d now, %.1f GT/s x%d at most", p->speed_gts,
	   p->width, p->max_speed_gts, p->max_width);
	slow_speed = p->max_speed_gts > 0 && p->speed_gts + 0.01 < p->max_speed_gts;
	narrow = p->max_width > 0 && p->width < p->max_width;
	if (slow_speed || narrow)
		kv(o, TONE_WARN, "", "the link runs below its maximum (%s%s%s): bandwidth is capped; "
		   "check the slot and its BIOS settings", slow_speed ? "slower" : "",
		   slow_speed && narrow ? ", " : "", narrow ? "fewer lanes" : "");
	else
		kv(o, TONE_OK, "", "at its maximum");
}

static const char *source_words(const char *src)
{
	if (!src)
		return NULL;
	if (!strcmp(src, "sysfs"))
		return "sysfs (the kernel's view)";
	return src;
}

static void controller_details(struct out *o, const struct inv_controller *c)
{
	size_t i, lds = 0;

	kv(o, TONE_TITLE, "", "Controller");
	ks(o, "Model", c->model);
	kv(o, TONE_NONE, "Source", "%s", c->source ? source_words(c->source) : "not reported");
	ks(o, "ID", c->id);
	ks(o, "Slot", c->slot);
	ks(o, "Serial", c->serial);
	ks(o, "Firmware", c->firmware);
	ks(o, "Driver", c->driver);
	ks(o, "PCI address", c->pci);
	pcie_details(o, &c->pcie);
	knuma(o, c->numa_node);
	ks(o, "Mode", c->mode);
	kstatus(o, c->status, c->status_text);
	for (i = 0; i < c->nr_arrays; i++)
		lds += c->arrays[i].nr_lds;
	kv(o, TONE_NONE, "Holds", "%zu array%s, %zu logical drive%s, %zu unassigned, "
	   "%zu pass-through drive%s", c->nr_arrays, c->nr_arrays == 1 ? "" : "s", lds,
	   lds == 1 ? "" : "s", c->nr_unassigned, c->nr_passthrough,
	   c->nr_passthrough == 1 ? "" : "s");
}

static void bdev_details(struct out *o, const struct inv_blockdev *b);

static void ld_details(struct out *o, const struct devrow *r)
{
	const struct inv_ld *ld = r->ld;
	char lvl[64];

	kv(o, TONE_TITLE, "", "Logical drive %s", ld->id ? ld->id : "");
	devtree_raid_words(ld->raid_level, lvl, sizeof(lvl));
	/* the kernel shows a logical drive but not its level: only the tool knows it */
	if (!ld->raid_level && r->c && r->c->source && !strcmp(r->c->source, "sysfs"))
		snprintf(lvl, sizeof(lvl), "unknown (no vendor tool)");
	kv(o, ld->raid_level ? TONE_NONE : TONE_UNKNOWN, "RAID level", "%s", lvl);
	ksize(o, "Size", ld->size_bytes, false);
	if (ld->strip_size_bytes >= 0) {
		char s[32];

		fmt_size(s, sizeof(s), (double)ld->strip_size_bytes);
		kv(o, TONE_NONE, "Strip size", "%s", s);
	}
	kstatus(o, ld->status, ld->status_text);
	kprogress(o, ld->status, ld->progress_pct);
	if (ld->os_device)
		kv(o, TONE_NONE, "OS device", "%s", ld->os_device);
	else
		kv(o, TONE_UNKNOWN, "OS device", "not matched to a block device of this machine");
	if (r->a && r->a->id)
		kv(o, TONE_NONE, "Array", "%s", r->a->id);
	if (r->c)
		kv(o, TONE_NONE, "Controller", "%s", r->c->model ? r->c->model : r->c->id);
	if (r->bdev)
		bdev_details(o, r->bdev);
}

static void pd_details(struct out *o, const struct devrow *r)
{
	const struct inv_pd *pd = r->pd;

	kv(o, TONE_TITLE, "", "Physical drive %s", pd->id ? pd->id : "");
	ks(o, "Role", pd->role);
	kstatus(o, pd->status, pd->status_text);
	ksize(o, "Size", pd->size_bytes, false);
	ks(o, "Interface", pd->interface);
	if (pd->media)
		kv(o, TONE_NONE, "Media", "%s", !strcmp(pd->media, "ssd") ? "SSD" : "HDD (rotating)");
	ks(o, "Model", pd->model);
	ks(o, "Serial", pd->serial);
	ks(o, "WWN", pd->wwn);
	if (r->a && r->a->id)
		kv(o, TONE_NONE, "Array", "%s", r->a->id);
	if (r->c)
		kv(o, TONE_NONE, "Controller", "%s", r->c->model ? r->c->model : r->c->id);
	if (r->bdev)
		bdev_details(o, r->bdev);
}

static void md_details(struct out *o, const struct devrow *r)
{
	const struct inv_md *md = r->md;
	size_t i, act = 0, rebuilding = 0, spare = 0, faulty = 0, journal = 0;
	char lvl[64], jtext[32] = "";

	kv(o, TONE_TITLE, "", "md array %s", md->name ? md->name : "");
	devtree_raid_words(md->raid_level, lvl, sizeof(lvl));
	kv(o, TONE_NONE, "RAID level", "%s", lvl);
	ksize(o, "Size", md->size_bytes, true);
	kstatus(o, md->status, md->status_text);
	kprogress(o, md->status, md->progress_pct);
	for (i = 0; i < md->nr_members; i++) {
		const char *role = md->members[i].role ? md->members[i].role : "";

		act += !strcmp(role, "active");
		rebuilding += !strcmp(role, "rebuilding");
		spare += !strcmp(role, "spare");
		faulty += !strcmp(role, "faulty");
		journal += !strcmp(role, "journal");
	}
	/* a RAID 4/5/6 write journal: beside the data members, only when there is one */
	if (journal)
		snprintf(jtext, sizeof(jtext), ", %zu journal", journal);
	if (rebuilding)
		kv(o, faulty ? TONE_FAILED : TONE_NONE, "Members",
		   "%zu active, %zu rebuilding, %zu spare, %zu faulty%s", act, rebuilding, spare,
		   faulty, jtext);
	else
		kv(o, faulty ? TONE_FAILED : TONE_NONE, "Members", "%zu active, %zu spare, %zu faulty%s",
		   act, spare, faulty, jtext);
	if (r->bdev)
		bdev_details(o, r->bdev);
}

static void list(struct out *o, const char *label, char **v, size_t n)
{
	char buf[1024];
	size_t i, used = 0;

	if (!n)
		return;
	buf[0] = '\0';
	for (i = 0; i < n && used < sizeof(buf); i++)
		used = bufcat(buf, sizeof(buf), used, "%s%s", i ? ", " : "", v[i]);
	kv(o, TONE_NONE, label, "%s", buf);
}

static void bdev_details(struct out *o, const struct inv_blockdev *b)
{
	const char *why = b->why_not_write_safe;

	kv(o, TONE_TITLE, "", "Block device %s", b->path ? b->path : b->name ? b->name : "");
	ksize(o, "Size", b->size_bytes, true);
	ks(o, "Model", b->model);
	ks(o, "Serial", b->serial);
	ks(o, "WWN", b->wwn);
	/* by-id/by-path: udev's links, or the same names made from sysfs without udev */
	for (size_t i = 0; i < b->nr_stable_names; i++)
		kv(o, TONE_NONE, i ? "" : b->stable_names_source &&
		   !strcmp(b->stable_names_source, "udev") ? "Names (udev)" : "Names", "%s",
		   b->stable_names[i]);
	if (b->rotational != INV_UNSET)
		kv(o, TONE_NONE, "Media", "%s", b->rotational ? "rotating (HDD)" : "non-rotating (SSD, NVMe, virtual)");
	if (b->logical_block_size > 0)
		kv(o, TONE_NONE, "Block size", "%lld logical, %lld physical bytes",
		   (long long)b->logical_block_size, (long long)b->physical_block_size);
	ks(o, "Scheduler", b->scheduler);
	if (b->queue_depth > 0)
		kv(o, TONE_NONE, "Queue depth", "%lld", (long long)b->queue_depth);
	ks(o, "Controller", b->controller);
	knuma(o, b->numa_node);
	list(o, "Partitions", b->partitions, b->nr_partitions);
	list(o, "Mounted at", b->mounts, b->nr_mounts);
	list(o, "Used by", b->holders, b->nr_holders);
	if (b->swap)
		kv(o, TONE_UNSAFE, "Swap", "in use as swap");
	ks(o, "Signature", b->signature);
	if (b->write_safe) {
		kv(o, TONE_SAFE, "Write test", "allowed: nothing on it to lose");
		return;
	}
	kv(o, b->nr_mounts || b->swap ? TONE_UNSAFE : TONE_WARN, "Write test", "refused%s",
	   why && *why ? ", because:" : "");
	/* the guard gives one reason a line */
	while (why && *why) {
		const char *nl = strchr(why, '\n');
		int n = nl ? (int)(nl - why) : (int)strlen(why);

		if (n)
			kv(o, b->nr_mounts || b->swap ? TONE_UNSAFE : TONE_WARN, "", "%.*s", n, why);
		why = nl ? nl + 1 : NULL;
	}
	if (!b->nr_mounts && !b->swap)
		kv(o, TONE_NONE, "", "reads are allowed; a write test needs its name typed on the "
		   "Target screen (F4)");
}

void devtree_details(const struct devrow *r, devdetail_fn fn, void *ctx)
{
	struct out o = { fn, ctx };

	switch (r->kind) {
	case DR_CONTROLLER:
		controller_details(&o, r->c);
		break;
	case DR_ARRAY:
		kv(&o, TONE_TITLE, "", "Array %s", r->a->id ? r->a->id : "");
		if (!r->a->id)
			kv(&o, TONE_UNKNOWN, "Note", "the source shows the volumes but not which "
			   "array holds them");
		kstatus(&o, r->a->status, r->a->status_text);
		kv(&o, TONE_NONE, "Holds", "%zu logical drive%s, %zu physical drive%s", r->a->nr_lds,
		   r->a->nr_lds == 1 ? "" : "s", r->a->nr_pds, r->a->nr_pds == 1 ? "" : "s");
		if (r->c)
			kv(&o, TONE_NONE, "Controller", "%s", r->c->model ? r->c->model : r->c->id);
		break;
	case DR_LD:
		ld_details(&o, r);
		break;
	case DR_PD:
		pd_details(&o, r);
		break;
	case DR_UNASSIGNED:
		kv(&o, TONE_TITLE, "", "Unassigned drives");
		kv(&o, TONE_NONE, "Drives", "%zu in no array: free to build a new array from",
		   r->count);
		break;
	case DR_PASSTHROUGH:
		kv(&o, TONE_TITLE, "", "Pass-through drives");
		kv(&o, TONE_NONE, "Drives", "%zu the controller hands to the OS as plain disks "
		   "(HBA or JBOD mode)", r->count);
		break;
	case DR_MD_GROUP:
		kv(&o, TONE_TITLE, "", "md arrays");
		kv(&o, TONE_NONE, "Arrays", "%zu of Linux software RAID (md)", r->count);
		break;
	case DR_MD:
		md_details(&o, r);
		break;
	case DR_MD_MEMBER:
		kv(&o, TONE_TITLE, "", "Member %s of %s", r->mm->device ? r->mm->device : "",
		   r->md->name ? r->md->name : "");
		kv(&o, devtree_tone(r), "Role", "%s", r->mm->role ? r->mm->role : "not reported");
		if (r->mm->slot != INV_UNSET)
			kv(&o, TONE_NONE, "Slot", "%d", r->mm->slot);
		break;
	case DR_BDEV_GROUP:
		kv(&o, TONE_TITLE, "", "Other block devices");
		kv(&o, TONE_NONE, "Devices", "%zu that no controller above claims: loop devices, "
		   "device-mapper volumes, virtual and USB disks", r->count);
		break;
	case DR_BDEV:
		bdev_details(&o, r->bdev);
		break;
	}
}
