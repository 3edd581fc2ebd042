/*
 * guard_sys.c - the write guard's read-only view of the system: block
 * devices as sysfs shows them (name, number, partitions, parent, /dev
 * node), and who uses them, read afresh for every check: mounts, swaps
 * and sysfs holders through core/systab.h, the root file system and loop
 * backing files here. Also the small text helpers these need.
 *
 * It reports what is there and judges nothing: the policy (what counts as
 * in use, what may be written) is guard.c's. It never writes, opens no
 * device node but a loop device's, read-only, to ask the loop driver what
 * backs it, never trusts udev's database (absent in containers and
 * initramfs) and never prints.
 */
#include "guard_int.h"
#include "systab.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/loop.h>

#define MAX_LISTED_MOUNTS 3

/* Bounded appender: output is cut, never overrun. */
void guard_out_add(struct guard_out *o, const char *fmt, ...)
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
void guard_sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
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

int blockdev_from_dev(dev_t dev, struct blockdev *bd)
{
	char dir[64];

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return blockdev_from_sysdir(dir, bd);
}

int blockdev_from_name(const char *name, struct blockdev *bd)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "/sys/class/block/%s", name);
	return blockdev_from_sysdir(dir, bd);
}

/* The partition's disk is the sysfs directory above it. */
int blockdev_parent(const struct blockdev *part, struct blockdev *disk)
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
int blockdev_node(const struct blockdev *bd, char *node, size_t len)
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
int blockdev_partitions(const struct blockdev *disk, struct blockdev **parts)
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

void sysview_release(struct sysview *v)
{
	size_t i;

	for (i = 0; i < v->nr_mounts; i++)
		free(v->mounts[i].dir);
	free(v->mounts);
	free(v->swaps);
	for (i = 0; i < v->nr_loops; i++)
		free(v->loops[i].path);
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

/* The mount table, as the guard compares it: device numbers and sanitized mount points. */
static int sysview_load_mounts(struct sysview *v, const struct systab *t)
{
	v->mounts = calloc(t->nr_mounts ? t->nr_mounts : 1, sizeof(*v->mounts));
	if (!v->mounts)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_mounts; i++) {
		const struct systab_mount *s = &t->mounts[i];
		struct mount_ent *m = &v->mounts[v->nr_mounts];

		m->dev = s->dev;
		/* Only /dev sources are stat()ed: others may sit on a hung network fs. */
		m->src = s->source && !strncmp(s->source, "/dev/", 5) ? node_rdev(s->source) : 0;
		m->dir = strdup(s->dir);
		if (!m->dir)
			return -ENOMEM;
		guard_sanitize(m->dir);	/* it goes into one-line messages */
		v->nr_mounts++;
	}
	return 0;
}

static int sysview_load_swaps(struct sysview *v, const struct systab *t)
{
	for (size_t i = 0; i < t->nr_swaps; i++) {
		dev_t dev = node_rdev(t->swaps[i]), *tmp;

		if (!dev)
			continue;	/* a swap file: its file system is mounted */
		tmp = realloc(v->swaps, (v->nr_swaps + 1) * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		v->swaps = tmp;
		v->swaps[v->nr_swaps++] = dev;
	}
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

/* The kernel's 32-bit device encoding (huge_encode_dev) as a dev_t. */
static dev_t kdev_decode(uint64_t k)
{
	return makedev((unsigned)((k >> 8) & 0xfff), (unsigned)((k & 0xff) | ((k >> 12) & 0xfff00)));
}

/*
 * Asks the loop driver which file backs le: LOOP_GET_STATUS64 reports the
 * open file's st_dev and st_ino, right even when the file was renamed,
 * deleted or is reached by another path. Needs read access to the node.
 */
static int loop_ident_ioctl(struct loop_ent *le)
{
	struct loop_info64 info;
	struct blockdev bd;
	struct stat st;
	char node[PATH_MAX];
	int fd, rc = 0;

	memset(&bd, 0, sizeof(bd));
	snprintf(bd.name, sizeof(bd.name), "%s", le->name);
	bd.dev = le->dev;
	if (blockdev_node(&bd, node, sizeof(node)) < 0)
		return -ENOENT;
	/* Read-only and shared: asking changes nothing and claims nothing. */
	fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != le->dev)
		rc = -ENOENT;
	else if (ioctl(fd, LOOP_GET_STATUS64, &info) < 0)
		rc = -errno;
	close(fd);
	if (rc)
		return rc;
	le->file_dev = kdev_decode(info.lo_device);
	le->file_ino = (ino_t)info.lo_inode;
	le->backing = info.lo_rdevice ? kdev_decode(info.lo_rdevice) : 0;
	le->known = true;
	return 0;
}

/*
 * Without access to the node (an unprivileged user, a container without
 * /dev/loopN), the path sysfs names is the next best thing, unless the
 * kernel marks it deleted: then it names nothing that can be written.
 */
static void loop_ident_path(struct loop_ent *le)
{
	static const char deleted[] = " (deleted)";
	size_t len = strlen(le->path);
	struct stat st;

	if (len >= sizeof(deleted) - 1 && !strcmp(le->path + len - (sizeof(deleted) - 1), deleted))
		return;
	if (le->path[0] != '/' || stat(le->path, &st) < 0)
		return;
	le->file_dev = st.st_dev;
	le->file_ino = st.st_ino;
	le->backing = S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	le->known = true;
}

/*
 * Every bound loop device, recognised by its sysfs "loop" directory. A
 * loop device whose backing file can be identified neither way is kept
 * with known == false: the guard then cannot match files against it.
 */
static int sysview_load_loops(struct sysview *v)
{
	char path[PATH_MAX], backing[PATH_MAX], line[64];
	struct dirent *de;
	DIR *d = opendir("/sys/block");

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct loop_ent *tmp, *le;
		int rc;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", de->d_name);
		rc = read_line(path, backing, sizeof(backing));
		if (rc == -ENOENT || rc == -ENODATA)
			continue;	/* not a loop device, or not bound to anything */
		if (!rc) {
			snprintf(path, sizeof(path), "/sys/block/%s/dev", de->d_name);
			rc = read_line(path, line, sizeof(line));
			if (rc == -ENOENT)
				continue;	/* went away while we looked */
		}
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
		le = &v->loops[v->nr_loops];
		memset(le, 0, sizeof(*le));
		snprintf(le->name, sizeof(le->name), "%s", de->d_name);
		le->path = strdup(backing);
		if (!le->path || parse_devno(line, &le->dev) < 0) {
			free(le->path);
			closedir(d);
			return le->path ? -EIO : -ENOMEM;
		}
		v->nr_loops++;
		if (loop_ident_ioctl(le) < 0)
			loop_ident_path(le);
		guard_sanitize(le->path);	/* it goes into one-line messages */
	}
	closedir(d);
	return 0;
}

int sysview_load(struct sysview *v, const char **what)
{
	struct systab t = { 0 };
	int rc;

	memset(v, 0, sizeof(*v));
	*what = "/proc/self/mountinfo";
	rc = systab_read_mounts(&t, NULL);
	if (!rc)
		rc = sysview_load_mounts(v, &t);
	if (!rc) {
		*what = "/proc/swaps";
		rc = systab_read_swaps(&t, NULL);
	}
	if (!rc)
		rc = sysview_load_swaps(v, &t);
	systab_release(&t);
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
bool sysview_mounted_at(const struct sysview *v, dev_t dev, char *buf, size_t len)
{
	const char *dirs[MAX_LISTED_MOUNTS];
	size_t i, j, nr = 0, more = 0;
	struct guard_out o = { buf, len, 0 };

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

		guard_out_add(&o, "%s%s", sep, dirs[i]);
	}
	if (more)
		guard_out_add(&o, " and %zu more place%s", more, more == 1 ? "" : "s");
	return true;
}

bool sysview_is_swap(const struct sysview *v, dev_t dev)
{
	size_t i;

	for (i = 0; i < v->nr_swaps; i++)
		if (v->swaps[i] == dev)
			return true;
	return false;
}

/* The loop device numbered dev, or NULL when dev is no bound loop device. */
const struct loop_ent *sysview_loop(const struct sysview *v, dev_t dev)
{
	size_t i;

	for (i = 0; i < v->nr_loops; i++)
		if (v->loops[i].dev == dev)
			return &v->loops[i];
	return NULL;
}

bool sysview_is_root(const struct sysview *v, dev_t dev)
{
	size_t i;

	for (i = 0; i < v->nr_root; i++)
		if (v->root[i] == dev)
			return true;
	return false;
}

/* "md0 (an md array)", "dm-0 (LVM volume 'vg-lv')". */
void guard_describe_holder(const char *name, char *buf, size_t len)
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
		guard_sanitize(dmname);
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
int sysview_for_each_holder(const struct sysview *v, const struct blockdev *bd, holder_fn fn,
			    void *arg)
{
	char **names;
	size_t i, nr;
	int rc = systab_holders(bd->sys, &names, &nr);

	if (rc)
		return rc;
	for (i = 0; !rc && i < nr; i++)
		rc = fn(names[i], false, arg);
	systab_names_free(names, nr);
	for (i = 0; !rc && i < v->nr_loops; i++)
		if (v->loops[i].known && v->loops[i].backing == bd->dev)
			rc = fn(v->loops[i].name, true, arg);
	return rc;
}
