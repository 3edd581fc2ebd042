/*
 * guard.c - the write guard's policy (DESIGN.md "Safety model"). Before
 * anything writes a block device or a file, this file decides from the
 * kernel's own view (guard_sys.c: mounts, swap, the root device, sysfs
 * holders, loop backing files; guard_use.c: who uses it, by which path)
 * and from libblkid's low-level probes whether it is in use or carries
 * data, and words the refusal. guard_open.c takes the kernel's exclusive
 * claim once this file says yes.
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

void reason_add(struct reasons *rs, enum guard_verdict level, unsigned kind,
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
void reasons_failed(struct reasons *rs, int err)
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
int guard_probe_signatures(const char *node, bool about_target, bool skip_pttype,
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
	int rc = guard_probe_signatures(node, about_target, skip_pttype, subject, rs);

	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, about_target, subject,
			   "cannot be examined: probing %s failed (%s)", node, strerror(-rc));
		reasons_failed(rs, rc);
	}
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

	guard_check_use(vp, &bd, true, t->canon, rs);
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
		guard_check_use(vp, &parts[i], false, subject, rs);
	}
	/*
	 * A partition overlaps its disk: a file system or holder on the whole
	 * disk covers it too. The disk's other partitions do not.
	 */
	has_parent = bd.is_part && blockdev_parent(&bd, &parent) == 0;
	if (has_parent) {
		snprintf(subject, sizeof(subject), "parent disk %s", parent.name);
		guard_check_use(vp, &parent, false, subject, rs);
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
	guard_check_lower(vp, has_parent ? &parent : &bd, t->canon, rs);
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
	int rc;

	rc = may_cache ? cached_view(&vp, &what) : sysview_load(&own, &what);
	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, path,
			   "cannot be examined: reading %s failed (%s)", what, strerror(-rc));
		reasons_failed(rs, rc);
		return;
	}
	guard_check_file(vp, st, path, rs);
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
void guard_render_refusal(const char *path, const struct target *t, const struct reasons *rs,
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
	guard_render_refusal(path, t, rs, err, errlen);
	free(rs);
	return -EPERM;
}

int guard_check_write(const char *path, const struct guard_consent *consent, char *err,
		      size_t errlen)
{
	struct target t;

	return guard_check_target(path, consent, &t, err, errlen);
}
