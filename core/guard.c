/*
 * guard.c - the write guard (DESIGN.md "Safety model"). Before anything
 * writes a block device, this file decides from the kernel's own view
 * (/proc/self/mountinfo, /proc/swaps, sysfs holders, loop backing files)
 * and from libblkid's low-level probes whether the device is in use or
 * carries data, and words the refusal. guard_open_write() also takes the
 * kernel's exclusive claim on the device, so nothing can mount or assemble
 * it between the check and the last write.
 *
 * Nothing here writes to a device: every probe opens read-only. It never
 * trusts udev's database (absent in containers and initramfs), never
 * prints, and when it cannot tell, it refuses.
 */
#include "guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid/blkid.h>

#define MAX_REASONS 32
/* md on dm on loop on ... deeper than this is a loop in sysfs or a bug. */
#define MAX_HOLDER_DEPTH 8
#define MAX_LISTED_MOUNTS 3

/* Kinds of reason, as bits so the refusal can say which rules applied. */
enum {
	R_MOUNT = 1u << 0,
	R_SWAP = 1u << 1,
	R_ROOT = 1u << 2,
	R_UNKNOWN = 1u << 3,	/* could not examine: refuse rather than guess */
	R_HOLDER = 1u << 4,
	R_SIGNATURE = 1u << 5,
	R_CHARDEV = 1u << 6,
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

/* A block device as sysfs knows it. */
struct blockdev {
	char name[64];		/* kernel name: "sdb1", "cciss!c0d0" (at most 31) */
	char sys[PATH_MAX];	/* /sys/devices/.../block/sdb/sdb1 */
	dev_t dev;
	bool is_part;
};

struct mount_ent {
	dev_t dev;		/* major:minor field; anonymous for btrfs */
	dev_t src;		/* the source's device node, when it has one */
	char *dir;
};

struct loop_ent {
	char name[NAME_MAX + 1];
	dev_t backing;		/* the block device behind it, or 0 for a file */
};

/* Who uses which device, read afresh for every check. */
struct sysview {
	struct mount_ent *mounts;
	size_t nr_mounts;
	dev_t *swaps;
	size_t nr_swaps;
	dev_t root[2];
	size_t nr_root;
	struct loop_ent *loops;
	size_t nr_loops;
};

enum target_type { T_NONE, T_FILE, T_CHAR, T_BLOCK };

/* What the check learned about a path, for the refusal and for the open. */
struct target {
	enum target_type type;
	dev_t rdev;
	char canon[PATH_MAX];	/* "/dev/sdb" for devices, else empty */
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

/* Bounded appender: output is cut, never overrun. */
struct out {
	char *buf;
	size_t len, pos;
};

static void out_add(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_add(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!o->len || o->pos >= o->len - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->pos, o->len - o->pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	o->pos += (size_t)n;
	if (o->pos > o->len - 1)
		o->pos = o->len - 1;
}

/* Names read from the kernel or a disk label go into one-line messages. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* Undoes the \ooo escapes of /proc/self/mountinfo and /proc/swaps in place. */
static void unescape_octal(char *s)
{
	char *w = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int rc = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		rc = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!rc)
		buf[strcspn(buf, "\n")] = '\0';
	return rc;
}

static int parse_devno(const char *s, dev_t *dev)
{
	unsigned int maj, min;

	if (sscanf(s, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*dev = makedev(maj, min);
	return 0;
}

static int blockdev_from_sysdir(const char *dir, struct blockdev *bd)
{
	char path[PATH_MAX + 16], line[64];
	const char *base;
	size_t len;
	int rc;

	if (!realpath(dir, bd->sys))
		return -errno;
	base = strrchr(bd->sys, '/');
	base = base ? base + 1 : bd->sys;
	len = strlen(base);
	if (len >= sizeof(bd->name))
		return -ENAMETOOLONG;
	memcpy(bd->name, base, len + 1);
	snprintf(path, sizeof(path), "%s/dev", bd->sys);
	rc = read_line(path, line, sizeof(line));
	if (rc)
		return rc;
	rc = parse_devno(line, &bd->dev);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/partition", bd->sys);
	bd->is_part = access(path, F_OK) == 0;
	return 0;
}

static int blockdev_from_dev(dev_t dev, struct blockdev *bd)
{
	char dir[64];

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return blockdev_from_sysdir(dir, bd);
}

static int blockdev_from_name(const char *name, struct blockdev *bd)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
	return blockdev_from_sysdir(dir, bd);
}

/* The partition's disk is the sysfs directory above it. */
static int blockdev_parent(const struct blockdev *part, struct blockdev *disk)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", part->sys);
	slash = strrchr(dir, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return blockdev_from_sysdir(dir, disk);
}

/*
 * "/dev/NAME" when that node is this device ("!" in a kernel name is a
 * "/" under /dev, as in cciss!c0d0); -ENOENT when /dev has no such node.
 */
static int blockdev_node(const struct blockdev *bd, char *node, size_t len)
{
	struct stat st;
	char *p;

	snprintf(node, len, "/dev/%s", bd->name);
	for (p = node + 5; *p; p++)
		if (*p == '!')
			*p = '/';
	if (stat(node, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode) || st.st_rdev != bd->dev)
		return -ENOENT;
	return 0;
}

/*
 * Fills parts with the partitions of disk (subdirectories that have a
 * "partition" file). Returns the count or -errno; *parts is freed by the
 * caller.
 */
static int blockdev_partitions(const struct blockdev *disk, struct blockdev **parts)
{
	struct blockdev *arr = NULL, *tmp;
	size_t nr = 0;
	struct dirent *de;
	char path[PATH_MAX * 2];
	DIR *d;

	*parts = NULL;
	if (disk->is_part)
		return 0;
	d = opendir(disk->sys);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", disk->sys, de->d_name);
		if (access(path, F_OK) < 0)
			continue;
		tmp = realloc(arr, (nr + 1) * sizeof(*arr));
		if (!tmp) {
			free(arr);
			closedir(d);
			return -ENOMEM;
		}
		arr = tmp;
		snprintf(path, sizeof(path), "%s/%s", disk->sys, de->d_name);
		if (blockdev_from_sysdir(path, &arr[nr]) < 0)
			continue;	/* removed while we looked: it holds nothing */
		nr++;
	}
	closedir(d);
	*parts = arr;
	return (int)nr;
}

static void sysview_release(struct sysview *v)
{
	size_t i;

	for (i = 0; i < v->nr_mounts; i++)
		free(v->mounts[i].dir);
	free(v->mounts);
	free(v->swaps);
	free(v->loops);
	memset(v, 0, sizeof(*v));
}

/* The device behind a path, when the path is (or links to) a device node. */
static dev_t node_rdev(const char *path)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

static int sysview_load_mounts(struct sysview *v)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int rc = 0;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *field[64], *save = NULL, *tok, *source = NULL;
		struct mount_ent *tmp, *m;
		size_t n = 0, i;

		line[strcspn(line, "\n")] = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 64;
		     tok = strtok_r(NULL, " ", &save))
			field[n++] = tok;
		if (n < 7)
			continue;
		for (i = 6; i + 2 < n; i++)
			if (!strcmp(field[i], "-")) {
				source = field[i + 2];
				break;
			}
		tmp = realloc(v->mounts, (v->nr_mounts + 1) * sizeof(*tmp));
		if (!tmp) {
			rc = -ENOMEM;
			break;
		}
		v->mounts = tmp;
		m = &v->mounts[v->nr_mounts];
		if (parse_devno(field[2], &m->dev) < 0)
			m->dev = 0;
		m->src = 0;
		/* Only /dev sources are stat()ed: others may sit on a hung network fs. */
		if (source && !strncmp(source, "/dev/", 5)) {
			unescape_octal(source);
			m->src = node_rdev(source);
		}
		unescape_octal(field[4]);
		m->dir = strdup(field[4]);
		if (!m->dir) {
			rc = -ENOMEM;
			break;
		}
		sanitize(m->dir);	/* it goes into one-line messages */
		v->nr_mounts++;
	}
	if (!rc && ferror(f))
		rc = -EIO;
	free(line);
	fclose(f);
	return rc;
}

static int sysview_load_swaps(struct sysview *v)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/swaps", "re");
	bool header = true;

	if (!f)
		return errno == ENOENT ? 0 : -errno;	/* kernel without swap */
	while (fgets(line, sizeof(line), f)) {
		dev_t dev, *tmp;

		if (header) {
			header = false;
			continue;
		}
		line[strcspn(line, " \t\n")] = '\0';
		unescape_octal(line);
		dev = node_rdev(line);
		if (!dev)
			continue;	/* a swap file: its file system is mounted */
		tmp = realloc(v->swaps, (v->nr_swaps + 1) * sizeof(*tmp));
		if (!tmp) {
			fclose(f);
			return -ENOMEM;
		}
		v->swaps = tmp;
		v->swaps[v->nr_swaps++] = dev;
	}
	fclose(f);
	return 0;
}

static void sysview_add_root(struct sysview *v, dev_t dev)
{
	size_t i;

	if (!dev || major(dev) == 0)
		return;		/* anonymous: no block device */
	for (i = 0; i < v->nr_root; i++)
		if (v->root[i] == dev)
			return;
	if (v->nr_root < sizeof(v->root) / sizeof(v->root[0]))
		v->root[v->nr_root++] = dev;
}

static int sysview_load_root(struct sysview *v)
{
	struct stat st;
	size_t i;

	if (stat("/", &st) < 0)
		return -errno;
	sysview_add_root(v, st.st_dev);
	/* btrfs and friends give "/" an anonymous st_dev; the mount's source names the disk. */
	for (i = v->nr_mounts; i-- > 0;)
		if (!strcmp(v->mounts[i].dir, "/")) {
			sysview_add_root(v, v->mounts[i].src);
			break;
		}
	return 0;
}

static int sysview_load_loops(struct sysview *v)
{
	char path[PATH_MAX], backing[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/sys/block");

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct loop_ent *tmp;
		int rc;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", de->d_name);
		rc = read_line(path, backing, sizeof(backing));
		if (rc == -ENOENT || rc == -ENODATA)
			continue;	/* not bound to anything */
		if (rc) {
			closedir(d);
			return rc;
		}
		tmp = realloc(v->loops, (v->nr_loops + 1) * sizeof(*tmp));
		if (!tmp) {
			closedir(d);
			return -ENOMEM;
		}
		v->loops = tmp;
		snprintf(v->loops[v->nr_loops].name, sizeof(v->loops[0].name), "%s", de->d_name);
		v->loops[v->nr_loops].backing = node_rdev(backing);
		v->nr_loops++;
	}
	closedir(d);
	return 0;
}

static int sysview_load(struct sysview *v, const char **what)
{
	int rc;

	memset(v, 0, sizeof(*v));
	*what = "/proc/self/mountinfo";
	rc = sysview_load_mounts(v);
	if (!rc) {
		*what = "/proc/swaps";
		rc = sysview_load_swaps(v);
	}
	if (!rc) {
		*what = "the root file system";
		rc = sysview_load_root(v);
	}
	if (!rc) {
		*what = "/sys/block";
		rc = sysview_load_loops(v);
	}
	if (rc)
		sysview_release(v);
	return rc;
}

/* "/a", "/a and /b", "/a, /b and 2 more places"; false when not mounted. */
static bool mounted_at(const struct sysview *v, dev_t dev, char *buf, size_t len)
{
	const char *dirs[MAX_LISTED_MOUNTS];
	size_t i, j, nr = 0, more = 0;
	struct out o = { buf, len, 0 };

	for (i = 0; i < v->nr_mounts; i++) {
		const struct mount_ent *m = &v->mounts[i];
		bool seen = false;

		if (m->dev != dev && m->src != dev)
			continue;
		for (j = 0; j < nr; j++)
			seen |= !strcmp(dirs[j], m->dir);
		if (seen)
			continue;
		if (nr < MAX_LISTED_MOUNTS)
			dirs[nr++] = m->dir;
		else
			more++;
	}
	if (!nr)
		return false;
	buf[0] = '\0';
	for (i = 0; i < nr; i++) {
		const char *sep = i == 0 ? "" : (i + 1 == nr && !more) ? " and " : ", ";

		out_add(&o, "%s%s", sep, dirs[i]);
	}
	if (more)
		out_add(&o, " and %zu more place%s", more, more == 1 ? "" : "s");
	return true;
}

static bool is_swap(const struct sysview *v, dev_t dev)
{
	size_t i;

	for (i = 0; i < v->nr_swaps; i++)
		if (v->swaps[i] == dev)
			return true;
	return false;
}

static bool is_root(const struct sysview *v, dev_t dev)
{
	size_t i;

	for (i = 0; i < v->nr_root; i++)
		if (v->root[i] == dev)
			return true;
	return false;
}

/* "md0 (an md array)", "dm-0 (LVM volume 'vg-lv')". */
static void describe_holder(const char *name, char *buf, size_t len)
{
	char path[PATH_MAX], dmname[128] = "", uuid[160] = "";

	if (!strncmp(name, "md", 2)) {
		snprintf(buf, len, "%s (an md array)", name);
		return;
	}
	if (!strncmp(name, "dm-", 3)) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/dm/name", name);
		read_line(path, dmname, sizeof(dmname));
		snprintf(path, sizeof(path), "/sys/class/block/%s/dm/uuid", name);
		read_line(path, uuid, sizeof(uuid));
		sanitize(dmname);
		if (!strncmp(uuid, "LVM-", 4))
			snprintf(buf, len, "%s (LVM volume '%s')", name, dmname);
		else if (!strncmp(uuid, "CRYPT-", 6))
			snprintf(buf, len, "%s (dm-crypt mapping '%s')", name, dmname);
		else if (!strncmp(uuid, "mpath-", 6))
			snprintf(buf, len, "%s (multipath map '%s')", name, dmname);
		else if (dmname[0])
			snprintf(buf, len, "%s (device-mapper '%s')", name, dmname);
		else
			snprintf(buf, len, "%s (device-mapper)", name);
		return;
	}
	if (!strncmp(name, "bcache", 6)) {
		snprintf(buf, len, "%s (a bcache device)", name);
		return;
	}
	snprintf(buf, len, "%s", name);
}

/*
 * Calls fn for every device stacked directly on bd: its sysfs holders (md,
 * dm, bcache) and the loop devices whose backing file is bd's node (loop
 * does not register as a holder). Stops at the first nonzero return.
 */
typedef int (*holder_fn)(const char *name, bool is_loop, void *arg);

static int for_each_holder(const struct sysview *v, const struct blockdev *bd, holder_fn fn,
			   void *arg)
{
	char path[PATH_MAX + 16];
	struct dirent *de;
	size_t i;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/holders", bd->sys);
	d = opendir(path);
	if (!d && errno != ENOENT)
		return -errno;
	while (d && !rc && (de = readdir(d)))
		if (de->d_name[0] != '.')
			rc = fn(de->d_name, false, arg);
	if (d)
		closedir(d);
	for (i = 0; !rc && i < v->nr_loops; i++)
		if (v->loops[i].backing == bd->dev)
			rc = fn(v->loops[i].name, true, arg);
	return rc;
}

struct use_walk {
	const struct sysview *v;
	int depth;
	unsigned kind;		/* out: R_MOUNT, R_SWAP, R_ROOT or R_UNKNOWN */
	char what[384];		/* out: "loop5p1 is mounted at /srv" */
};

static int find_use(struct use_walk *w, const struct blockdev *bd);

static int find_use_holder(const char *name, bool is_loop, void *arg)
{
	struct use_walk *w = arg;
	struct blockdev hb;
	int rc;

	(void)is_loop;
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
	return rc;
}

/*
 * 1 when bd, one of its partitions, or anything stacked on them is mounted,
 * active swap or the root file system (w->what says which), else 0. Errors
 * count as in use: the guard refuses what it cannot see.
 */
static int find_use(struct use_walk *w, const struct blockdev *bd)
{
	struct blockdev *parts = NULL;
	char where[256];
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
	for (i = -1; !rc && i < nr; i++) {
		const struct blockdev *x = i < 0 ? bd : &parts[i];

		if (mounted_at(w->v, x->dev, where, sizeof(where))) {
			w->kind = R_MOUNT;
			snprintf(w->what, sizeof(w->what), "%s is mounted at %s", x->name, where);
			rc = 1;
		} else if (is_swap(w->v, x->dev)) {
			w->kind = R_SWAP;
			snprintf(w->what, sizeof(w->what), "%s is in use as swap", x->name);
			rc = 1;
		} else if (is_root(w->v, x->dev)) {
			w->kind = R_ROOT;
			snprintf(w->what, sizeof(w->what), "%s holds the root file system",
				 x->name);
			rc = 1;
		}
	}
	for (i = -1; !rc && i < nr; i++) {
		rc = for_each_holder(w->v, i < 0 ? bd : &parts[i], find_use_holder, w);
		if (rc < 0) {
			w->kind = R_UNKNOWN;
			snprintf(w->what, sizeof(w->what),
				 "the holders of %s cannot be listed (%s)",
				 (i < 0 ? bd : &parts[i])->name, strerror(-rc));
			rc = 1;
		}
	}
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
	struct use_walk w = { .v = hw->v, .depth = 1 };
	struct blockdev hb;
	char desc[256];
	int rc;

	if (is_loop)
		snprintf(desc, sizeof(desc), "%s (a loop device backed by it)", name);
	else
		describe_holder(name, desc, sizeof(desc));
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

	if (mounted_at(v, bd->dev, where, sizeof(where)))
		reason_add(rs, GUARD_NEVER, R_MOUNT, about_target, subject, "is mounted at %s",
			   where);
	if (is_swap(v, bd->dev))
		reason_add(rs, GUARD_NEVER, R_SWAP, about_target, subject, "is in use as swap");
	if (is_root(v, bd->dev))
		reason_add(rs, GUARD_NEVER, R_ROOT, about_target, subject,
			   "holds the root file system");
	rc = for_each_holder(v, bd, note_holder, &hw);
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
				sanitize(lab);
			}
		}
		describe_signature(pttype, type, usage, lab, text, sizeof(text));
		sanitize(text);
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

static void examine_block(const char *path, dev_t rdev, struct target *t, struct reasons *rs)
{
	struct blockdev bd, parent, *parts = NULL;
	struct sysview v;
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
	rc = sysview_load(&v, &what);
	if (rc) {
		reason_add(rs, GUARD_NEVER, R_UNKNOWN, true, t->canon,
			   "cannot be examined: reading %s failed (%s)", what, strerror(-rc));
		reasons_failed(rs, rc);
		return;
	}

	check_use(&v, &bd, true, t->canon, rs);
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
		check_use(&v, &parts[i], false, subject, rs);
	}
	/*
	 * A partition overlaps its disk: a file system or holder on the whole
	 * disk covers it too. The disk's other partitions do not.
	 */
	has_parent = bd.is_part && blockdev_parent(&bd, &parent) == 0;
	if (has_parent) {
		snprintf(subject, sizeof(subject), "parent disk %s", parent.name);
		check_use(&v, &parent, false, subject, rs);
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
	free(parts);
	sysview_release(&v);
}

/*
 * Examines path into t and rs. Returns 0 or -errno when something could not
 * be examined; rs then holds a GUARD_NEVER reason saying what.
 */
static int examine(const char *path, struct target *t, struct reasons *rs)
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
		examine_block(path, st.st_rdev, t, rs);
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
	return 0;
}

static bool consent_covers(const struct guard_consent *c, const struct target *t)
{
	struct stat st;
	size_t i;

	if (!c || (t->type != T_BLOCK && t->type != T_CHAR))
		return false;
	/* By device number, so a /dev/disk/by-id link consents the disk it names. */
	for (i = 0; i < c->nr; i++) {
		if (!c->paths[i] || stat(c->paths[i], &st) < 0)
			continue;
		if (t->type == T_BLOCK && S_ISBLK(st.st_mode) && st.st_rdev == t->rdev)
			return true;
		if (t->type == T_CHAR && S_ISCHR(st.st_mode) && st.st_rdev == t->rdev)
			return true;
	}
	return false;
}

/* "mounted devices and active swap devices" for the kinds that applied. */
static void never_tail(unsigned kinds, struct out *o)
{
	static const struct {
		unsigned kind;
		const char *what;
	} rules[] = {
		{ R_MOUNT, "mounted devices" },
		{ R_SWAP, "active swap devices" },
		{ R_ROOT, "devices holding the root file system" },
		{ R_UNKNOWN, "devices the guard cannot examine" },
	};
	size_t i, nr = 0, total = 0;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		total += !!(kinds & rules[i].kind);
	if (!total)
		return;
	out_add(o, "; ");
	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (!(kinds & rules[i].kind))
			continue;
		nr++;
		out_add(o, "%s%s", nr == 1 ? "" : nr == total ? " and " : ", ", rules[i].what);
	}
	out_add(o, " are never written, even with --allow-destroy");
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
	struct out o = { err, errlen, 0 };
	unsigned kinds = 0;
	size_t i, nr = 0;

	if (!err || !errlen)
		return;
	err[0] = '\0';
	out_add(&o, "refusing to write %s", path);
	if (t->canon[0] && strcmp(t->canon, path))
		out_add(&o, " (%s)", t->canon);
	out_add(&o, ": ");
	for (i = 0; i < rs->nr; i++) {
		const struct reason *r = &rs->r[i];

		if (r->level != v)
			continue;
		kinds |= r->kind;
		out_add(&o, "%s", nr++ ? "; " : "");
		if (r->about_target)
			out_add(&o, "it %s", r->text);
		else if (r->subject[0])
			out_add(&o, "%s %s", r->subject, r->text);
		else
			out_add(&o, "%s", r->text);
	}
	if (v == GUARD_NEVER)
		never_tail(kinds, &o);
	else
		out_add(&o, "; to destroy its contents, add --allow-destroy=%s",
			t->canon[0] ? t->canon : path);
}

int guard_examine(const char *path, struct guard_report *rep)
{
	struct reasons *rs;
	struct target t;
	struct out o = { rep->reasons, sizeof(rep->reasons), 0 };
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
	rc = examine(path, &t, rs);
	rep->verdict = reasons_verdict(rs);
	for (i = 0; i < rs->nr; i++) {
		const struct reason *r = &rs->r[i];

		out_add(&o, "%s%s%s%s", i ? "\n" : "", r->subject, r->subject[0] ? " " : "",
			r->text);
	}
	free(rs);
	return rc;
}

/* guard_check_write(), also telling the caller what the path turned out to be. */
static int check_write(const char *path, const struct guard_consent *consent,
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
	examine(path, t, rs);
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

	return check_write(path, consent, &t, err, errlen);
}

/*
 * The kernel lets one open file hold a block device's exclusive claim, so
 * a second O_EXCL open from this process (numjobs=2 on one disk) would
 * fail with EBUSY. The guard therefore holds one claim fd per device and
 * hands out plain fds; the claim ends with the last of them (guard_close).
 */
struct claim {
	dev_t rdev;
	int claim_fd;
};

struct handed_fd {
	int fd;
	dev_t rdev;
};

static pthread_mutex_t claims_lock = PTHREAD_MUTEX_INITIALIZER;
static struct claim *claims;
static size_t nr_claims;
static struct handed_fd *handed;
static size_t nr_handed;

static struct claim *claim_find(dev_t rdev)
{
	size_t i;

	for (i = 0; i < nr_claims; i++)
		if (claims[i].rdev == rdev)
			return &claims[i];
	return NULL;
}

/* Drops the claim on rdev when no handed-out fd uses it any more. Lock held. */
static void claim_put_unused(dev_t rdev)
{
	size_t i;

	for (i = 0; i < nr_handed; i++)
		if (handed[i].rdev == rdev)
			return;
	for (i = 0; i < nr_claims; i++)
		if (claims[i].rdev == rdev) {
			close(claims[i].claim_fd);
			claims[i] = claims[--nr_claims];
			return;
		}
}

/* Lock held. A reused fd number means the caller close()d the old one. */
static int handed_add(int fd, dev_t rdev)
{
	struct handed_fd *tmp;
	size_t i;

	for (i = 0; i < nr_handed; i++)
		if (handed[i].fd == fd) {
			dev_t old = handed[i].rdev;

			/* Replace before the put, or a claim this fd needs could go. */
			handed[i].rdev = rdev;
			claim_put_unused(old);
			return 0;
		}
	tmp = realloc(handed, (nr_handed + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	handed = tmp;
	handed[nr_handed].fd = fd;
	handed[nr_handed].rdev = rdev;
	nr_handed++;
	return 0;
}

static void msg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static int changed(const char *path, char *err, size_t errlen)
{
	msg(err, errlen, "refusing to write %s: it changed while it was being checked", path);
	return -EAGAIN;
}

static int open_block(const char *path, int flags, const struct guard_consent *consent,
		      const struct target *checked, char *err, size_t errlen)
{
	const char *name = checked->canon[0] ? checked->canon : path;
	struct claim *c;
	struct target t;
	struct stat st;
	int fd, rc;

	pthread_mutex_lock(&claims_lock);
	c = claim_find(checked->rdev);
	if (!c) {
		struct claim *tmp;
		int cfd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);

		if (cfd < 0) {
			rc = -errno;
			pthread_mutex_unlock(&claims_lock);
			if (rc == -EBUSY)
				msg(err, errlen,
				    "%s is in use by another program or the kernel "
				    "(mounted or claimed since the check)", name);
			else
				msg(err, errlen, "cannot open %s: %s", name, strerror(-rc));
			return rc;
		}
		if (fstat(cfd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != checked->rdev) {
			close(cfd);
			pthread_mutex_unlock(&claims_lock);
			return changed(path, err, errlen);
		}
		/*
		 * Check again now that nobody else can claim it: a mount or an
		 * mkfs that finished between the first check and the claim
		 * shows up here.
		 */
		rc = check_write(path, consent, &t, err, errlen);
		if (!rc && (t.type != T_BLOCK || t.rdev != checked->rdev))
			rc = changed(path, err, errlen);
		if (rc) {
			close(cfd);
			pthread_mutex_unlock(&claims_lock);
			return rc;
		}
		tmp = realloc(claims, (nr_claims + 1) * sizeof(*tmp));
		if (!tmp) {
			close(cfd);
			pthread_mutex_unlock(&claims_lock);
			msg(err, errlen, "cannot open %s: %s", name, strerror(ENOMEM));
			return -ENOMEM;
		}
		claims = tmp;
		c = &claims[nr_claims++];
		c->rdev = checked->rdev;
		c->claim_fd = cfd;
	}
	/* O_CREAT|O_EXCL on an existing node is EEXIST; O_TRUNC means nothing here. */
	fd = open(path, flags & ~(O_CREAT | O_EXCL | O_TRUNC));
	if (fd < 0) {
		rc = -errno;
		claim_put_unused(checked->rdev);
		pthread_mutex_unlock(&claims_lock);
		msg(err, errlen, "cannot open %s: %s", name, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != checked->rdev) {
		close(fd);
		claim_put_unused(checked->rdev);
		pthread_mutex_unlock(&claims_lock);
		return changed(path, err, errlen);
	}
	rc = handed_add(fd, checked->rdev);
	if (rc) {
		close(fd);
		claim_put_unused(checked->rdev);
		pthread_mutex_unlock(&claims_lock);
		msg(err, errlen, "cannot open %s: %s", name, strerror(-rc));
		return rc;
	}
	pthread_mutex_unlock(&claims_lock);
	return fd;
}

int guard_open_write(const char *path, int flags, const struct guard_consent *consent,
		     char *err, size_t errlen)
{
	struct target t;
	struct stat st;
	int fd, rc;

	rc = check_write(path, consent, &t, err, errlen);
	if (rc)
		return rc;
	if (t.type == T_BLOCK)
		return open_block(path, flags, consent, &t, err, errlen);

	fd = open(path, flags, 0644);
	if (fd < 0) {
		rc = -errno;
		msg(err, errlen, "cannot open %s: %s", path, strerror(-rc));
		return rc;
	}
	/* A path that was a file at the check and is a disk now gets checked as one. */
	if (fstat(fd, &st) < 0 || S_ISBLK(st.st_mode) ||
	    (S_ISCHR(st.st_mode) && (t.type != T_CHAR || st.st_rdev != t.rdev))) {
		close(fd);
		return changed(path, err, errlen);
	}
	return fd;
}

int guard_close(int fd)
{
	size_t i;
	int rc;

	/* Closed under the lock, so the number cannot be handed out again meanwhile. */
	pthread_mutex_lock(&claims_lock);
	rc = close(fd) < 0 ? -errno : 0;
	for (i = 0; i < nr_handed; i++)
		if (handed[i].fd == fd) {
			dev_t rdev = handed[i].rdev;

			handed[i] = handed[--nr_handed];
			claim_put_unused(rdev);
			break;
		}
	pthread_mutex_unlock(&claims_lock);
	return rc;
}
