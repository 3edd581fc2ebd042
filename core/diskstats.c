/*
 * diskstats.c - reads /sys/block/NAME/stat and turns two snapshots into
 * fio's disk_util numbers. A partition is reported as itself (its own stat
 * file); a regular file as the block device its file system lives on.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "clock.h"
#include "diskstats.h"

/* /sys/dev/block/MAJ:MIN is a link to .../block/DISK[/PART]; the name is its last part. */
static int name_for_dev(dev_t dev, char *name, size_t len)
{
	char link[64], target[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(name, len, "%s", base ? base + 1 : target);
	return 0;
}

int diskstat_name_for_path(const char *path, char *name, size_t len)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode))
		return name_for_dev(st.st_rdev, name, len);
	return name_for_dev(st.st_dev, name, len);
}

int diskstat_read(const char *name, struct diskstat_snap *s)
{
	char path[PATH_MAX], line[512];
	FILE *f;
	int n;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	s->t_ns = clock_real_ns();
	n = sscanf(line,
		   "%lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu",
		   &s->v[0], &s->v[1], &s->v[2], &s->v[3], &s->v[4], &s->v[5], &s->v[6],
		   &s->v[7], &s->v[8], &s->v[9], &s->v[10], &s->v[11], &s->v[12], &s->v[13],
		   &s->v[14], &s->v[15], &s->v[16]);
	return n >= 11 ? 0 : -EIO;
}

size_t diskstat_slaves(const char *name, char (*names)[64], size_t max)
{
	char path[PATH_MAX];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/block/%s/slaves", name);
	d = opendir(path);
	if (!d)
		return 0;
	while (n < max && (de = readdir(d)))
		if (de->d_name[0] != '.')
			snprintf(names[n++], 64, "%s", de->d_name);
	closedir(d);
	return n;
}

/*
 * stat fields: 0 read ios, 1 read merges, 2 read sectors, 3 read ticks,
 * 4 write ios, 5 write merges, 6 write sectors, 7 write ticks, 8 in flight,
 * 9 io ticks (busy ms), 10 time in queue.
 */
void diskstat_util(const struct diskstat_snap *a, const struct diskstat_snap *b,
		   struct disk_util *out)
{
	uint64_t span_ms = (b->t_ns - a->t_ns) / 1000000;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", a->name);
	out->read_ios = b->v[0] - a->v[0];
	out->read_merges = b->v[1] - a->v[1];
	out->read_ticks = b->v[3] - a->v[3];
	out->write_ios = b->v[4] - a->v[4];
	out->write_merges = b->v[5] - a->v[5];
	out->write_ticks = b->v[7] - a->v[7];
	out->in_queue = b->v[10] - a->v[10];
	if (span_ms) {
		out->util = 100.0 * (double)(b->v[9] - a->v[9]) / (double)span_ms;
		if (out->util > 100.0)
			out->util = 100.0;
	}
}
