/*
 * iostat.c - the sampler behind hw/iostat.h: reads SYSFS/block/NAME/stat
 * for every whole disk and applies sysstat's iostat -x formulas to the
 * deltas. Kept free of curses and of the inventory so the live view can
 * sample member drives every tick cheaply.
 *
 * Read-only; never prints.
 */
#include "iostat.h"
#include "grow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct iostat {
	char *root;
	struct iostat_dev *devs;
	size_t nr;
	char **parallel;	/* names marked by iostat_set_parallel() */
	size_t nr_parallel;
};

struct iostat *iostat_new(const char *sysfs_root)
{
	struct iostat *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->root = strdup(sysfs_root ? sysfs_root : "/sys");
	if (!s->root) {
		free(s);
		return NULL;
	}
	return s;
}

void iostat_free(struct iostat *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_parallel; i++)
		free(s->parallel[i]);
	free(s->parallel);
	free(s->devs);
	free(s->root);
	free(s);
}

size_t iostat_count(const struct iostat *s)
{
	return s->nr;
}

const struct iostat_dev *iostat_get(const struct iostat *s, size_t i)
{
	return i < s->nr ? &s->devs[i] : NULL;
}

const struct iostat_dev *iostat_find(const struct iostat *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->devs[i].name, name))
			return &s->devs[i];
	return NULL;
}

int iostat_set_parallel(struct iostat *s, const char *name)
{
	char **p;

	if (grow_room(&s->parallel, s->nr_parallel, sizeof(*p)))
		return -ENOMEM;
	p = s->parallel;
	p[s->nr_parallel] = strdup(name);
	if (!p[s->nr_parallel])
		return -ENOMEM;
	s->nr_parallel++;
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->devs[i].name, name))
			s->devs[i].util_meaningful = false;
	return 0;
}

static double delta(const uint64_t *a, const uint64_t *b, int f)
{
	return (double)(b[f] - a[f]);
}

void iostat_compute(const uint64_t *a, const uint64_t *b, double secs, struct iostat_rates *r)
{
	double rios = delta(a, b, IOSTAT_READ_IOS), wios = delta(a, b, IOSTAT_WRITE_IOS);

	memset(r, 0, sizeof(*r));
	if (secs <= 0)
		return;
	r->r_s = rios / secs;
	r->w_s = wios / secs;
	/* sectors are 512 bytes whatever the device's block size */
	r->rmb_s = delta(a, b, IOSTAT_READ_SECTORS) * 512.0 / (1024.0 * 1024.0) / secs;
	r->wmb_s = delta(a, b, IOSTAT_WRITE_SECTORS) * 512.0 / (1024.0 * 1024.0) / secs;
	/* ticks are milliseconds: queue time per second of wall time is the mean depth */
	r->aqu_sz = delta(a, b, IOSTAT_TIME_IN_QUEUE) / 1000.0 / secs;
	r->r_await = rios > 0 ? delta(a, b, IOSTAT_READ_TICKS) / rios : 0;
	r->w_await = wios > 0 ? delta(a, b, IOSTAT_WRITE_TICKS) / wios : 0;
	r->util_pct = delta(a, b, IOSTAT_IO_TICKS) / 10.0 / secs;
	if (r->util_pct > 100.0)
		r->util_pct = 100.0;
}

/* NVMe, md and hardware RAID volumes keep many requests in flight: busy is not full. */
static bool util_meaningful(const struct iostat *s, const char *name)
{
	char path[PATH_MAX], buf[16];
	ssize_t n = -1;
	int fd;

	if (!strncmp(name, "nvme", 4) || !strncmp(name, "md", 2))
		return false;
	for (size_t i = 0; i < s->nr_parallel; i++)
		if (!strcmp(s->parallel[i], name))
			return false;
	/* hpsa, smartpqi and aacraid volumes say "RAID 5"; plain disks "N/A" or nothing */
	if (snprintf(path, sizeof(path), "%s/block/%s/device/raid_level", s->root, name) <
	    (int)sizeof(path)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
		}
	}
	return !(n >= 4 && !strncmp(buf, "RAID", 4));
}

static int read_counters(const char *root, const char *name, uint64_t *v)
{
	char path[PATH_MAX], buf[512];
	const char *p = buf;
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/block/%s/stat", root, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	for (int i = 0; i < IOSTAT_NR_FIELDS; i++) {
		char *end;

		v[i] = strtoull(p, &end, 10);
		if (end == p)
			return -EIO;
		p = end;
	}
	return 0;
}

static const struct iostat_dev *find_old(const struct iostat_dev *old, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(old[i].name, name))
			return &old[i];
	return NULL;
}

/* A counter went backwards: the device was re-created (a loop re-attached). */
static bool went_back(const uint64_t *a, const uint64_t *b)
{
	for (int i = 0; i < IOSTAT_NR_FIELDS; i++)
		if (i != IOSTAT_IN_FLIGHT && b[i] < a[i])
			return true;
	return false;
}

int iostat_sample(struct iostat *s, uint64_t now_ns, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct iostat_dev *devs = NULL;
	struct dirent *de;
	size_t nr = 0;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/block", s->root);
	dp = opendir(path);
	if (!dp) {
		int ret = -errno;

		if (err && errlen)
			snprintf(err, errlen, "cannot list %s: %s", path, strerror(errno));
		return ret;
	}
	while ((de = readdir(dp))) {
		uint64_t v[IOSTAT_NR_FIELDS];
		const struct iostat_dev *old;
		struct iostat_dev *d, *grown;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(d->name) ||
		    read_counters(s->root, de->d_name, v))
			continue;
		grown = grow_room(&devs, nr, sizeof(*devs)) ? NULL : devs;
		if (!grown) {
			closedir(dp);
			free(devs);
			if (err && errlen)
				snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		devs = grown;
		d = &devs[nr++];
		memset(d, 0, sizeof(*d));
		snprintf(d->name, sizeof(d->name), "%s", de->d_name);
		memcpy(d->last, v, sizeof(v));
		d->last_ns = now_ns;
		old = find_old(s->devs, s->nr, d->name);
		d->util_meaningful = old ? old->util_meaningful : util_meaningful(s, d->name);
		if (old && now_ns > old->last_ns && !went_back(old->last, v)) {
			iostat_compute(old->last, v, (double)(now_ns - old->last_ns) / 1e9,
				       &d->rates);
			d->valid = true;
		}
	}
	closedir(dp);
	free(s->devs);
	s->devs = devs;
	s->nr = nr;
	return 0;
}
