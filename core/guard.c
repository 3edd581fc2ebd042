/*
 * guard.c - the write guard's policy (DESIGN.md "Safety model"). Before
 * anything writes a block device, this file decides from the kernel's own
 * view (guard_sys.c: mounts, swap, the root device, sysfs holders, loop
 * backing files) and from libblkid's low-level probes whether the device is
 * in use or carries data, and words the refusal. guard_open.c takes the
 * kernel's exclusive claim once this file says yes.
 *
 * Nothing here writes to a device: every probe opens read-only. It never
 * reads /proc or sysfs itself (guard_sys.c does), never opens a device for
 * writing (guard_open.c does), never prints, and when it cannot tell, it
 * refuses.
 */
#include "guard_int.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <blkid/blkid.h>

#define MAX_REASONS 32
/* md on dm on loop on ... deeper than this is a loop in sysfs or a bug. */
#define MAX_HOLDER_DEPTH 8

/* Kinds of reason, as bits so the refusal can say which rules applied. */
enum {
	R_MOUNT = 1u << 0,
	R_SWAP = 1u << 1,
	R_ROOT = 1u << 2,
	R_UNKNOWN = 1u << 3,	/* could not examine: refuse rather than guess */
	R_HOLDER = 1u << 4,
	R_SIGNATURE = 1u << 5,
	R_CHARDEV = 1u << 6,
	R_SHARED = 1u << 7,	/* held, and reached by a path its holder's claim does not guard */
	R_LOOP = 1u << 8,	/* backs, or shares a backing file with, a loop device */
};

struct reason {
	enum guard_verdict level;
	unsigned kind;
	bool about_target;	/* the refusal line calls the target "it" */
	char subject[128];	/* "/dev/sdb", "partition sdb1", "" */
	char text[512];		/* "is mounted at /mnt/x" */
};

struct reasons {
	struct reason r[MAX_REASONS];
	size_t nr;
	int err;		/* first -errno that left something unexamined */
};

static void reason_add(struct reasons *rs, enum guard_verdict level, unsigned kind,
		       bool about_target, const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void reason_add(struct reasons *rs, enum guard_verdict level, unsigned kind,
		       bool about_target, const char *subject, const char *fmt, ...)
{
	struct reason *r;
	va_list ap;

	if (rs->nr == MAX_REASONS) {
		/* A full table folds into its last slot, keeping the strongest level. */
		r = &rs->r[MAX_REASONS - 1];
		if (level > r->level)
			r->level = level;
		r->kind |= kind;
		return;
	}
	r = &rs->r[rs->nr++];
	r->level = level;
	r->kind = kind;
	r->about_target = about_target;
	snprintf(r->subject, sizeof(r->subject), "%s", subject);
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
}

/* Something could not be examined: remember why for guard_examine()'s return. */
static void reasons_failed(struct reasons *rs, int err)
{
	if (!rs->err)
		rs->err = err < 0 ? err : -EIO;
}

static enum guard_verdict reasons_verdict(const struct reasons *rs)
{
	enum guard_verdict v = GUARD_OK;
	size_t i;

	for (i = 0; i < rs->nr; i++)
		if (rs->r[i].level > v)
			v = rs->r[i].level;
	return v;
}

struct use_walk {
	const struct sysview *v;
	int depth;
	/*
	 * A holder counts as a use: the path being judged reaches the device
	 * without going through it, so the holder's exclusive claim, which
	 * would refuse our open, guards nothing.
	 */
	bool strict;
	const char *skip;	/* a holder not to follow: where the walk came from */
	const char *held;	/* the device whose holders are being walked */
	unsigned kind;		/* out: R_MOUNT, R_SWAP, R_ROOT, R_SHARED or R_UNKNOWN */
	char what[384];		/* out: "loop5p1 is mounted at /srv" */
};

static int find_use(struct use_walk *w, const struct blockdev *bd);

static int find_use_holder(const char *name, bool is_loop, void *arg)
{
	struct use_walk *w = arg;
	const char *held = w->held;
	struct blockdev hb;
	char desc[256];
	int rc;

	if (w->skip && !strcmp(name, w->skip))
		return 0;
	if (w->strict && !is_loop) {
		/* A loop device claims nothing; md, dm and bcache claim what they hold. */
		guard_describe_holder(name, desc, sizeof(desc));
		w->kind = R_SHARED;
		snprintf(w->what, sizeof(w->what), "%s is held by %s", held, desc);
		return 1;
	}
	rc = blockdev_from_name(name, &hb);
	if (rc == -ENOENT)
		return 0;	/* went away while we looked */
	if (rc) {
		w->kind = R_UNKNOWN;
		snprintf(w->what, sizeof(w->what), "%s cannot be examined (%s)", name,
			 strerror(-rc));
		return 1;
	}
	w->depth++;
	rc = find_use(w, &hb);
	w->depth--;
	w->held = held;
	return rc;
}

/* x itself mounted, swap or the root file system: 1 and w->what says which. */
static int use_direct(struct use_walk *w, const struct blockdev *x)
{
	char where[256];

	if (sysview_mounted_at(w->v, x->dev, where, sizeof(where))) {
		w->kind = R_MOUNT;
		snprintf(w->what, sizeof(w->what), "%s is mounted at %s", x->name, where);
		return 1;
	}
	if (sysview_is_swap(w->v, x->dev)) {
		w->kind = R_SWAP;
		snprintf(w->what, sizeof(w->what), "%s is in use as swap", x->name);
		return 1;
	}
	if (sysview_is_root(w->v, x->dev)) {
		w->kind = R_ROOT;
		snprintf(w->what, sizeof(w->what), "%s holds the root file system", x->name);
		return 1;
	}
	return 0;
}

/* Something stacked on x is in use (or, when strict, x is held). */
static int use_stacked(struct use_walk *w, const struct blockdev *x)
{
	int rc;

	w->held = x->name;
	rc = sysview_for_each_holder(w->v, x, find_use_holder, w);
	if (rc < 0) {
		w->kind = R_UNKNOWN;
		snprintf(w->what, sizeof(w->what), "the holders of %s cannot be listed (%s)",
			 x->name, strerror(-rc));
		rc = 1;
	}
	return rc;
}

/* find_use() for x alone, not its partitions. */
static int find_use_one(struct use_walk *w, const struct blockdev *x)
{
	return use_direct(w, x) || use_stacked(w, x);
}

/*
 * 1 when bd, one of its partitions, or anything stacked on them is mounted,
 * active swap or the root file system (or, when strict, held), w->what
 * saying which, else 0. Errors count as in use: the guard refuses what it
 * cannot see.
 */
static int find_use(struct use_walk *w, const struct blockdev *bd)
{
	struct blockdev *parts = NULL;
	int nr, i, rc = 0;

	if (w->depth > MAX_HOLDER_DEPTH) {
		w->kind = R_UNKNOWN;
		snprintf(w->what, sizeof(w->what),
			 "the devices stacked on %s are nested too deeply to examine", bd->name);
		return 1;
	}
	nr = blockdev_partitions(bd, &parts);
	if (nr < 0) {
		w->kind = R_UNKNOWN;
		snprintf(w->what, sizeof(w->what), "%s cannot be examined (%s)", bd->name,
			 strerror(-nr));
		return 1;
	}
	/* Mounts first, so the refusal names the strongest use. */
	for (i = -1; !rc && i < nr; i++)
		rc = use_direct(w, i < 0 ? bd : &parts[i]);
	for (i = -1; !rc && i < nr; i++)
		rc = use_stacked(w, i < 0 ? bd : &parts[i]);
	free(parts);
	return rc;
}

struct holder_walk {
	const struct sysview *v;
	struct reasons *rs;
	bool about_target;
	const char *subject;
};

static int note_holder(const char *name, bool is_loop, void *arg)
{
	struct holder_walk *hw = arg;
	/* Writing the device writes what a loop over it holds, past any claim on the loop. */
	struct use_walk w = { .v = hw->v, .depth = 1, .strict = is_loop };
	struct blockdev hb;
	char desc[256];
	int rc;

	if (is_loop)
		snprintf(desc, sizeof(desc), "%s (a loop device backed by it)", name);
	else
		guard_describe_holder(name, desc, sizeof(desc));
	rc = blockdev_from_name(name, &hb);
	if (rc == -ENOENT)
		return 0;
	if (rc) {
		reason_add(hw->rs, GUARD_NEVER, R_UNKNOWN, hw->about_target, hw->subject,
			   "is held by %s, which cannot be examined (%s)", desc, strerror(-rc));
		reasons_failed(hw->rs, rc);
		return 0;
	}
	/* A holder that is itself in use makes the device as untouchable as a mount. */
	if (find_use(&w, &hb)) {
		reason_add(hw->rs, GUARD_NEVER, w.kind, hw->about_target, hw->subject,
			   "is held by %s, and %s", desc, w.what);
		if (w.kind == R_UNKNOWN)
			reasons_failed(hw->rs, -EIO);
	} else
		reason_add(hw->rs, GUARD_NEEDS_CONSENT, R_HOLDER, hw->about_target, hw->subject,
			   "is held by %s", desc);
	return 0;
}

/* Mounts, swap, root and holders of one device, as reasons about subject. */
static void check_use(const struct sysview *v, const struct blockdev *bd, bool about_target,
		      const char *subject, struct reasons *rs)
{
	struct holder_walk hw = { v, rs, about_target, subject };
	char where[256];
	int rc;

	if (sysview_mounted_at(v, bd->dev, where, sizeof(where)))
		reason_add(rs, GUARD_NEVER, R_MOUNT, about_target, subject, "is mounted at %s",
			   where);
	if (sysview_is_swap(v, bd->dev))
		reason_add(rs, GUARD_NEVER, R_SWAP, about_target, subject, "is in use as swap");
	if (sysview_is_root(v, bd->dev))
		reason_add(rs, GUARD_NEVER, R_ROOT, about_target, subject,
			   "holds the root file system");
	rc = sysview_for_each_holder(v, bd, note_holder, &hw);
	if (rc < 0) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, about_target, subject,
			   "cannot be examined: its holders cannot be listed (%s)", strerror(-rc));
		reasons_failed(rs, rc);
	}
}

/* "an ext4", "an xfs", "an ntfs", "a vfat": by sound, for the usual names. */
static const char *article(const char *word)
{
	static const char *const an[] = { "ntfs", "hfs", "f2fs", "lvm", "mbr", "sgi", "sun" };
	size_t i;

	if (word[0] && strchr("aeioxAEIOX", word[0]))
		return "an";
	for (i = 0; i < sizeof(an) / sizeof(an[0]); i++)
		if (!strncasecmp(word, an[i], strlen(an[i])))
			return "an";
	return "a";
}

/* One blkid finding as the predicate of a sentence: "has a gpt partition table". */
static void describe_signature(const char *pttype, const char *type, const char *usage,
			       const char *label, char *buf, size_t len)
{
	char lab[160] = "";

	if (pttype) {
		snprintf(buf, len, "has %s %s partition table", article(pttype), pttype);
		return;
	}
	if (label && label[0])
		snprintf(lab, sizeof(lab), " labelled '%s'", label);
	if (!strcmp(type, "swap"))
		snprintf(buf, len, "has a swap signature%s", lab);
	else if (!strcmp(type, "LVM2_member") || !strcmp(type, "LVM1_member"))
		snprintf(buf, len, "is an LVM physical volume (%s)", type);
	else if (!strcmp(type, "zfs_member"))
		snprintf(buf, len, "is a ZFS pool member (zfs_member)%s%s%s",
			 label && label[0] ? " of pool '" : "", label && label[0] ? label : "",
			 label && label[0] ? "'" : "");
	else if (!strcmp(type, "linux_raid_member"))
		snprintf(buf, len, "is an md RAID member (linux_raid_member)%s%s%s",
			 label && label[0] ? " of array '" : "", label && label[0] ? label : "",
			 label && label[0] ? "'" : "");
	else if (usage && !strcmp(usage, "raid"))
		snprintf(buf, len, "is a RAID member (%s)%s", type, lab);
	else if (usage && !strcmp(usage, "crypto"))
		snprintf(buf, len, "has %s %s encrypted volume%s", article(type), type, lab);
	else if (usage && !strcmp(usage, "filesystem"))
		snprintf(buf, len, "has %s %s file system%s", article(type), type, lab);
	else
		snprintf(buf, len, "has %s %s signature%s", article(type), type, lab);
}

/*
 * Every signature libblkid finds on node, one reason each. Walks all
 * probers (blkid_do_probe, as wipefs does) rather than safeprobe, which
 * gives up on ambivalent devices and hides a second signature.
 */
static int probe_signatures(const char *node, bool about_target, bool skip_pttype,
			    const char *subject, struct reasons *rs)
{
	blkid_probe pr;
	int rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(node);
	if (!pr)
		return errno ? -errno : -EIO;
	if (blkid_probe_enable_superblocks(pr, 1) < 0 ||
	    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_LABEL | BLKID_SUBLKS_TYPE |
						      BLKID_SUBLKS_USAGE |
						      BLKID_SUBLKS_BADCSUM) < 0 ||
	    blkid_probe_enable_partitions(pr, 1) < 0 ||
	    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC) < 0) {
		blkid_free_probe(pr);
		return -ENOMEM;
	}
	errno = 0;
	while ((rc = blkid_do_probe(pr)) == 0) {
		const char *pttype = NULL, *type = NULL, *usage = NULL, *label = NULL;
		char lab[128] = "", text[384];

		if (blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL) < 0)
			pttype = NULL;
		if (!pttype && blkid_probe_lookup_value(pr, "TYPE", &type, NULL) < 0)
			type = NULL;
		if ((!pttype && !type) || (pttype && skip_pttype))
			continue;
		if (type) {
			if (blkid_probe_lookup_value(pr, "USAGE", &usage, NULL) < 0)
				usage = NULL;
			if (blkid_probe_lookup_value(pr, "LABEL", &label, NULL) == 0) {
				snprintf(lab, sizeof(lab), "%s", label);
				guard_sanitize(lab);
			}
		}
		describe_signature(pttype, type, usage, lab, text, sizeof(text));
		guard_sanitize(text);
		reason_add(rs, GUARD_NEEDS_CONSENT, R_SIGNATURE, about_target, subject, "%s", text);
		errno = 0;
	}
	blkid_free_probe(pr);
	if (rc < 0)
		return errno ? -errno : -EIO;
	return 0;
}

/* Probes one device and turns a failure into a refusal. */
static void check_signatures(const char *node, bool about_target, bool skip_pttype,
			     const char *subject, struct reasons *rs)
{
	int rc = probe_signatures(node, about_target, skip_pttype, subject, rs);

	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, about_target, subject,
			   "cannot be examined: probing %s failed (%s)", node, strerror(-rc));
		reasons_failed(rs, rc);
	}
}

/*
 * The signatures on a device the target's writes also reach. A probe that
 * fails only asks for consent: the device being there already does.
 */
static void alias_signatures(const struct blockdev *bd, const char *subject,
			     struct reasons *rs)
{
	char node[PATH_MAX];
	int rc = blockdev_node(bd, node, sizeof(node));

	if (!rc)
		rc = probe_signatures(node, false, false, subject, rs);
	if (rc)
		reason_add(rs, GUARD_NEEDS_CONSENT, R_SIGNATURE, false, subject,
			   "cannot be probed for signatures (%s)", strerror(-rc));
}

/*
 * bd's data is what the target's writes reach by another path (rel says
 * how: "backs /dev/loop5"). In use or held, that is a refusal no consent
 * lifts: the kernel's claims guard bd, not this path. Returns whether it
 * was. skip is a holder of bd that is the target's own way down.
 */
static bool alias_in_use(const struct sysview *v, const struct blockdev *bd, bool with_parts,
			 const char *skip, bool about, const char *subject, const char *rel,
			 struct reasons *rs)
{
	struct use_walk w = { .v = v, .strict = true, .skip = skip };

	if (!(with_parts ? find_use(&w, bd) : find_use_one(&w, bd)))
		return false;
	reason_add(rs, GUARD_NEVER, w.kind, about, subject, "%s, and %s", rel, w.what);
	if (w.kind == R_UNKNOWN)
		reasons_failed(rs, -EIO);
	return true;
}

/*
 * A loop device over the target file, or over what the target loop device
 * is stored on. subject (about: the target) is what the relation rel is of.
 */
static void check_loop_alias(const struct sysview *v, const struct loop_ent *le, bool about,
			     const char *subject, const char *rel, struct reasons *rs)
{
	struct blockdev bd;
	int rc = blockdev_from_dev(le->dev, &bd);

	if (rc == -ENOENT)
		return;		/* detached while we looked */
	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, about, subject,
			   "%s, which cannot be examined (%s)", rel, strerror(-rc));
		reasons_failed(rs, rc);
		return;
	}
	if (alias_in_use(v, &bd, true, NULL, about, subject, rel, rs))
		return;
	reason_add(rs, GUARD_NEEDS_CONSENT, R_LOOP, about, subject, "%s", rel);
	alias_signatures(&bd, bd.name, rs);
}

static bool same_file(const struct loop_ent *a, const struct loop_ent *b)
{
	return a->known && b->known && !a->backing && !b->backing && a->file_dev == b->file_dev &&
	       a->file_ino == b->file_ino;
}

/*
 * What lies under bd when it is a loop device: the file or device its
 * writes land on, and every other loop device over that same file (at any
 * offset) or device. The kernel ties none of these to bd, so nothing but
 * this check stops a write through bd from reaching them.
 */
static void check_lower(const struct sysview *v, const struct blockdev *bd, int depth,
			const char *tsubj, struct reasons *rs)
{
	const struct loop_ent *le = sysview_loop(v, bd->dev);
	struct blockdev lower, parent;
	char rel[PATH_MAX + 128], subject[128], below[128];
	bool about = depth == 0;
	size_t i;
	int rc;

	if (!le)
		return;
	/* Below the first level, say which device the finding is about. */
	snprintf(subject, sizeof(subject), "%s%s", about ? "" : "backing device ",
		 about ? tsubj : bd->name);
	if (!le->known) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, false, bd->name,
			   "cannot be examined: its backing file %s cannot be identified", le->path);
		reasons_failed(rs, -ENOENT);
		return;
	}
	if (!le->backing) {
		for (i = 0; i < v->nr_loops; i++) {
			if (&v->loops[i] == le || !same_file(&v->loops[i], le))
				continue;
			snprintf(rel, sizeof(rel), "shares its backing file %s with /dev/%s", le->path,
				 v->loops[i].name);
			check_loop_alias(v, &v->loops[i], about, subject, rel, rs);
		}
		return;
	}
	rc = blockdev_from_dev(le->backing, &lower);
	if (rc || depth >= MAX_HOLDER_DEPTH) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, false, bd->name,
			   "cannot be examined: its backing device %s %s", le->path,
			   rc ? strerror(-rc) : "is nested too deeply");
		reasons_failed(rs, rc ? rc : -ELOOP);
		return;
	}
	snprintf(rel, sizeof(rel), "is stored on /dev/%s", lower.name);
	if (alias_in_use(v, &lower, true, bd->name, about, subject, rel, rs))
		return;
	/* A partition's disk covers it: mounted or held whole, it is in use. */
	if (lower.is_part && blockdev_parent(&lower, &parent) == 0) {
		snprintf(rel, sizeof(rel), "is stored on /dev/%s, a partition of %s", lower.name,
			 parent.name);
		if (alias_in_use(v, &parent, false, NULL, about, subject, rel, rs))
			return;
	}
	/* Loops over the same device: the walk above found those in use. */
	for (i = 0; i < v->nr_loops; i++) {
		if (&v->loops[i] == le || !v->loops[i].known || v->loops[i].backing != lower.dev)
			continue;
		snprintf(rel, sizeof(rel), "shares its backing device /dev/%s with /dev/%s",
			 lower.name, v->loops[i].name);
		check_loop_alias(v, &v->loops[i], about, subject, rel, rs);
	}
	snprintf(below, sizeof(below), "backing device %s", lower.name);
	alias_signatures(&lower, below, rs);
	check_lower(v, &lower, depth + 1, tsubj, rs);
}

/*
 * The informational guard_examine() of many devices in a row (devices --json,
 * the Target screen) shares one view of mounts, swaps and loop devices for a
 * second: rebuilding it per device made enumeration quadratic. The write
 * gate never uses it: guard_check_target() always reads the system afresh.
 */
static pthread_mutex_t view_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sysview view_cache;
static bool view_cached;
static uint64_t view_time_ns;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Caller holds view_lock. 0 or -errno with *what naming the file that failed. */
static int cached_view(const struct sysview **out, const char **what)
{
	uint64_t now = mono_ns();
	int rc;

	if (view_cached && now - view_time_ns < 1000000000ull) {
		*out = &view_cache;
		return 0;
	}
	if (view_cached)
		sysview_release(&view_cache);
	view_cached = false;
	rc = sysview_load(&view_cache, what);
	if (rc)
		return rc;
	view_cached = true;
	view_time_ns = now;
	*out = &view_cache;
	return 0;
}

static void examine_block(const char *path, dev_t rdev, struct target *t, struct reasons *rs,
			  bool may_cache)
{
	struct blockdev bd, parent, *parts = NULL;
	struct sysview own;
	const struct sysview *vp = &own;
	const char *what;
	char subject[128], node[PATH_MAX];
	bool has_parent;
	int rc, nr, i;

	rc = blockdev_from_dev(rdev, &bd);
	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, path,
			   "cannot be examined: no sysfs entry for device %u:%u (%s)",
			   major(rdev), minor(rdev), strerror(-rc));
		reasons_failed(rs, rc);
		return;
	}
	if (blockdev_node(&bd, t->canon, sizeof(t->canon)) < 0 &&
	    !realpath(path, t->canon))
		snprintf(t->canon, sizeof(t->canon), "%s", path);
	rc = may_cache ? cached_view(&vp, &what) : sysview_load(&own, &what);
	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, t->canon,
			   "cannot be examined: reading %s failed (%s)", what, strerror(-rc));
		reasons_failed(rs, rc);
		return;
	}

	check_use(vp, &bd, true, t->canon, rs);
	nr = blockdev_partitions(&bd, &parts);
	if (nr < 0) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, t->canon,
			   "cannot be examined: its partitions cannot be listed (%s)",
			   strerror(-nr));
		reasons_failed(rs, nr);
		nr = 0;
	}
	for (i = 0; i < nr; i++) {
		snprintf(subject, sizeof(subject), "partition %s", parts[i].name);
		check_use(vp, &parts[i], false, subject, rs);
	}
	/*
	 * A partition overlaps its disk: a file system or holder on the whole
	 * disk covers it too. The disk's other partitions do not.
	 */
	has_parent = bd.is_part && blockdev_parent(&bd, &parent) == 0;
	if (has_parent) {
		snprintf(subject, sizeof(subject), "parent disk %s", parent.name);
		check_use(vp, &parent, false, subject, rs);
	}

	/* Probe through a node known to be this device, never a stale name. */
	if (blockdev_node(&bd, node, sizeof(node)) < 0)
		snprintf(node, sizeof(node), "%s", path);
	check_signatures(node, true, false, t->canon, rs);
	/*
	 * The disk's partition table does not live in the partition, but a
	 * whole-disk signature (md metadata at the end, a hybrid ISO) covers it.
	 */
	if (has_parent) {
		snprintf(subject, sizeof(subject), "parent disk %s", parent.name);
		rc = blockdev_node(&parent, node, sizeof(node));
		if (rc) {
			reason_add(rs, GUARD_NEVER, R_UNKNOWN, false, subject,
				   "cannot be examined: /dev has no node for it (%s)",
				   strerror(-rc));
			reasons_failed(rs, rc);
		} else
			check_signatures(node, false, true, subject, rs);
	}
	for (i = 0; i < nr; i++) {
		snprintf(subject, sizeof(subject), "partition %s", parts[i].name);
		rc = blockdev_node(&parts[i], node, sizeof(node));
		if (rc) {
			reason_add(rs, GUARD_NEVER, R_UNKNOWN, false, subject,
				   "cannot be examined: /dev has no node for it (%s)",
				   strerror(-rc));
			reasons_failed(rs, rc);
		} else
			check_signatures(node, false, false, subject, rs);
	}
	/* A loop device (or a partition of one) writes into its backing file or device. */
	check_lower(vp, has_parent ? &parent : &bd, 0, t->canon, rs);
	free(parts);
	if (!may_cache)
		sysview_release(&own);
}

/*
 * A regular file is in use when it backs a loop device: writing it writes
 * that device, at whatever offset the loop starts. Matched by st_dev and
 * st_ino, so any path to the file (a symlink, a hard link, a bind mount)
 * finds it. A loop device whose file can be identified neither by the loop
 * driver nor by its path is invisible here; sysview_load_loops() says when.
 */
static void examine_file(const char *path, const struct stat *st, struct reasons *rs,
			 bool may_cache)
{
	struct sysview own;
	const struct sysview *vp = &own;
	const char *what;
	char rel[NAME_MAX + 32];
	size_t i;
	int rc;

	rc = may_cache ? cached_view(&vp, &what) : sysview_load(&own, &what);
	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, path,
			   "cannot be examined: reading %s failed (%s)", what, strerror(-rc));
		reasons_failed(rs, rc);
		return;
	}
	for (i = 0; i < vp->nr_loops; i++) {
		const struct loop_ent *le = &vp->loops[i];

		if (!le->known || le->backing || le->file_dev != st->st_dev ||
		    le->file_ino != st->st_ino)
			continue;
		snprintf(rel, sizeof(rel), "backs /dev/%s", le->name);
		check_loop_alias(vp, le, true, path, rel, rs);
	}
	if (!may_cache)
		sysview_release(&own);
}

/*
 * Examines path into t and rs. Returns 0 or -errno when something could not
 * be examined; rs then holds a GUARD_NEVER reason saying what.
 */
static int examine(const char *path, struct target *t, struct reasons *rs, bool may_cache)
{
	struct stat st;
	int err;

	memset(t, 0, sizeof(*t));
	if (stat(path, &st) < 0) {
		if (errno == ENOENT) {
			t->type = T_NONE;	/* a file the writer will create */
			return 0;
		}
		err = -errno;
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, path, "cannot be examined (%s)",
			   strerror(-err));
		return err;
	}
	if (S_ISBLK(st.st_mode)) {
		t->type = T_BLOCK;
		t->rdev = st.st_rdev;
		examine_block(path, st.st_rdev, t, rs, may_cache);
		return rs->err;
	}
	if (S_ISCHR(st.st_mode)) {
		t->type = T_CHAR;
		t->rdev = st.st_rdev;
		/* /dev/null, /dev/zero (major 1) hold nothing; /dev/ng0n1 holds a disk. */
		if (major(st.st_rdev) != 1) {
			if (!realpath(path, t->canon))
				snprintf(t->canon, sizeof(t->canon), "%s", path);
			reason_add(rs, GUARD_NEEDS_CONSENT, R_CHARDEV, true, t->canon,
				   "is a character device, which the guard cannot examine");
		}
		return 0;
	}
	t->type = T_FILE;
	t->fdev = st.st_dev;
	t->ino = st.st_ino;
	if (S_ISREG(st.st_mode))
		examine_file(path, &st, rs, may_cache);
	return rs->err;
}

static bool consent_covers(const struct guard_consent *c, const struct target *t)
{
	struct stat st;
	size_t i;

	if (!c || t->type == T_NONE)
		return false;
	/*
	 * By device number, so a /dev/disk/by-id link consents the disk it
	 * names; a file by st_dev and st_ino, so any path to it does.
	 */
	for (i = 0; i < c->nr; i++) {
		if (!c->paths[i] || stat(c->paths[i], &st) < 0)
			continue;
		if (t->type == T_FILE && S_ISREG(st.st_mode) && st.st_dev == t->fdev &&
		    st.st_ino == t->ino)
			return true;
		if (t->type == T_BLOCK && S_ISBLK(st.st_mode) && st.st_rdev == t->rdev)
			return true;
		if (t->type == T_CHAR && S_ISCHR(st.st_mode) && st.st_rdev == t->rdev)
			return true;
	}
	return false;
}

/* "mounted devices and active swap devices" for the kinds that applied. */
static void never_tail(unsigned kinds, struct guard_out *o)
{
	static const struct {
		unsigned kind;
		const char *what;
	} rules[] = {
		{ R_MOUNT, "mounted devices" },
		{ R_SWAP, "active swap devices" },
		{ R_ROOT, "devices holding the root file system" },
		{ R_SHARED, "held devices reached by another path" },
		{ R_UNKNOWN, "devices the guard cannot examine" },
	};
	size_t i, nr = 0, total = 0;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		total += !!(kinds & rules[i].kind);
	if (!total)
		return;
	guard_out_add(o, "; ");
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (!(kinds & rules[i].kind))
			continue;
		nr++;
		guard_out_add(o, "%s%s", nr == 1 ? "" : nr == total ? " and " : ", ",
			      rules[i].what);
	}
	guard_out_add(o, " are never written, even with --allow-destroy");
}

/*
 * The one-line refusal: "refusing to write P: it is mounted at /x;
 * mounted devices are never written, even with --allow-destroy". Under
 * GUARD_NEVER only the reasons consent cannot lift are named.
 */
static void render_refusal(const char *path, const struct target *t, const struct reasons *rs,
			   char *err, size_t errlen)
{
	enum guard_verdict v = reasons_verdict(rs);
	struct guard_out o = { err, errlen, 0 };
	unsigned kinds = 0;
	size_t i, nr = 0;

	if (!err || !errlen)
		return;
	err[0] = '\0';
	guard_out_add(&o, "refusing to write %s", path);
	if (t->canon[0] && strcmp(t->canon, path))
		guard_out_add(&o, " (%s)", t->canon);
	guard_out_add(&o, ": ");
	for (i = 0; i < rs->nr; i++) {
		const struct reason *r = &rs->r[i];

		if (r->level != v)
			continue;
		kinds |= r->kind;
		guard_out_add(&o, "%s", nr++ ? "; " : "");
		if (r->about_target)
			guard_out_add(&o, "it %s", r->text);
		else if (r->subject[0])
			guard_out_add(&o, "%s %s", r->subject, r->text);
		else
			guard_out_add(&o, "%s", r->text);
	}
	if (v == GUARD_NEVER)
		never_tail(kinds, &o);
	else
		guard_out_add(&o, "; to destroy its contents, add --allow-destroy=%s",
			      t->canon[0] ? t->canon : path);
}

int guard_examine(const char *path, struct guard_report *rep)
{
	struct reasons *rs;
	struct target t;
	struct guard_out o = { rep->reasons, sizeof(rep->reasons), 0 };
	size_t i;
	int rc;

	memset(rep, 0, sizeof(*rep));
	/* 20 KiB: heap, not the stack of whichever worker thread asks. */
	rs = calloc(1, sizeof(*rs));
	if (!rs) {
		rep->verdict = GUARD_NEVER;
		snprintf(rep->reasons, sizeof(rep->reasons), "%s cannot be examined (%s)", path,
			 strerror(ENOMEM));
		return -ENOMEM;
	}
	pthread_mutex_lock(&view_lock);
	rc = examine(path, &t, rs, true);
	pthread_mutex_unlock(&view_lock);
	rep->verdict = reasons_verdict(rs);
	for (i = 0; i < rs->nr; i++) {
		const struct reason *r = &rs->r[i];

		guard_out_add(&o, "%s%s%s%s", i ? "\n" : "", r->subject,
			      r->subject[0] ? " " : "", r->text);
	}
	free(rs);
	return rc;
}

/* guard_check_write(), also telling the caller what the path turned out to be. */
int guard_check_target(const char *path, const struct guard_consent *consent,
		       struct target *t, char *err, size_t errlen)
{
	struct reasons *rs;
	enum guard_verdict v;

	memset(t, 0, sizeof(*t));
	if (consent && consent->readonly) {
		if (err && errlen)
			snprintf(err, errlen,
				 "refusing to write %s: --readonly is set: every write is refused",
				 path);
		return -EPERM;
	}
	rs = calloc(1, sizeof(*rs));
	if (!rs) {
		if (err && errlen)
			snprintf(err, errlen, "refusing to write %s: it cannot be examined (%s)",
				 path, strerror(ENOMEM));
		return -EPERM;
	}
	examine(path, t, rs, false);
	v = reasons_verdict(rs);
	if (v == GUARD_OK || (v == GUARD_NEEDS_CONSENT && consent_covers(consent, t))) {
		free(rs);
		return 0;
	}
	render_refusal(path, t, rs, err, errlen);
	free(rs);
	return -EPERM;
}

int guard_check_write(const char *path, const struct guard_consent *consent, char *err,
		      size_t errlen)
{
	struct target t;

	return guard_check_target(path, consent, &t, err, errlen);
}
