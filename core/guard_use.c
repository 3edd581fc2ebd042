/*
 * guard_use.c - who else uses the data a write would reach, and by which
 * path: the mounts, swap, root and holders of a device and of everything
 * stacked on it, and, since a loop device ties nothing to what it is
 * stored on, the paths around it: the file a loop device is stored on,
 * the device under it, and the other loop devices over the same file or
 * device. Each finding is a reason for guard.c's verdict.
 *
 * It judges from a struct sysview (guard_sys.c) and opens nothing itself
 * except through guard_probe_signatures(), read-only. Where the kernel's
 * exclusive claim cannot guard a path (anything reached around a loop
 * device), being held counts as being in use.
 */
#include "guard_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* md on dm on loop on ... deeper than this is a loop in sysfs or a bug. */
#define MAX_HOLDER_DEPTH 8

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

void guard_check_use(const struct sysview *v, const struct blockdev *bd, bool about_target,
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
		rc = guard_probe_signatures(node, false, false, subject, rs);
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
			   "cannot be examined: its backing device %s (%s)", le->path,
			   rc ? strerror(-rc) : "nested too deeply");
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

void guard_check_lower(const struct sysview *v, const struct blockdev *bd, const char *tsubj,
		       struct reasons *rs)
{
	check_lower(v, bd, 0, tsubj, rs);
}

void guard_check_file(const struct sysview *v, const struct stat *st, const char *subject,
		      struct reasons *rs)
{
	char rel[NAME_MAX + 32];
	size_t i;

	for (i = 0; i < v->nr_loops; i++) {
		const struct loop_ent *le = &v->loops[i];

		if (!le->known || le->backing || le->file_dev != st->st_dev ||
		    le->file_ino != st->st_ino)
			continue;
		snprintf(rel, sizeof(rel), "backs /dev/%s", le->name);
		check_loop_alias(v, le, true, subject, rel, rs);
	}
}
