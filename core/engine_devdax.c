/*
 * engine_devdax.c - ioengine=dev-dax: a device DAX character device
 * (/dev/daxX.Y, a devdax namespace of persistent memory) mapped whole and
 * written with pmem_memcpy_persist, read with memcpy, as fio's dev-dax
 * engine. Such a device has no read(2) or write(2) and no block size that
 * the kernel reports: its size comes from sysfs, and probe() refuses
 * anything that sysfs does not place in the dax subsystem.
 *
 * The worker opens the device through the write guard (a character device
 * always needs --allow-destroy for writes); the engine maps that fd.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <libpmem.h>
#include "engine.h"
#include "engine_bus.h"
#include "job.h"

struct dmap {
	void *p;		/* NULL = not mapped yet */
	int fd;
	size_t len;
	bool writable;
};

struct devdax_ctx {
	struct dmap *maps;	/* per file index */
	size_t nr_maps;
};

/*
 * The device's size from /sys/dev/char/M:m/size, after checking that the
 * node is a dax device; 0 or -errno with why.
 */
static int dax_size(const struct stat *st, const char *path, uint64_t *bytes, char *why,
		    size_t len)
{
	char sys[96], real[PATH_MAX], buf[32];
	const char *base;
	unsigned long long v;
	FILE *f;

	if (!S_ISCHR(st->st_mode)) {
		snprintf(why, len, "%s is not a character device: ioengine=dev-dax drives device "
			 "DAX nodes (/dev/daxX.Y); for files on a DAX file system use "
			 "ioengine=libpmem", path);
		return -ENODEV;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/char/%u:%u/subsystem", major(st->st_rdev),
		 minor(st->st_rdev));
	base = realpath(sys, real) ? strrchr(real, '/') : NULL;
	if (!base || strcmp(base + 1, "dax")) {
		snprintf(why, len, "%s is not a DAX device (sysfs puts character device %u:%u in "
			 "%s, not dax); ioengine=dev-dax drives /dev/daxX.Y", path,
			 major(st->st_rdev), minor(st->st_rdev),
			 base ? base + 1 : "no subsystem");
		return -ENODEV;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/char/%u:%u/size", major(st->st_rdev),
		 minor(st->st_rdev));
	f = fopen(sys, "r");
	if (!f || !fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu", &v) != 1 || !v) {
		int e = f ? EIO : errno;

		if (f)
			fclose(f);
		snprintf(why, len, "%s: cannot read the DAX device's size from %s: %s", path, sys,
			 strerror(e));
		return -e;
	}
	fclose(f);
	*bytes = v;
	return 0;
}

static int devdax_probe(int fd, const char *path, uint64_t *bytes, unsigned *lbs, char *err,
			size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	*lbs = 512;	/* no O_DIRECT here: the alignment of the mapping is the device's */
	return dax_size(&st, path, bytes, err, errlen);
}

static int devdax_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		       unsigned nr_units, char *err, size_t errlen)
{
	struct devdax_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "dev-dax: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int devdax_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			    size_t errlen)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), min_bs = UINT64_MAX;
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (job->bs[d] && job->bs[d] < min_bs)
			min_bs = job->bs[d];
	/* fio's rule: a sync every N blocks covers whole pages of the mapping */
	if (min_bs % page && (job->fsync_blocks || job->fdatasync_blocks)) {
		snprintf(err, errlen, "ioengine=dev-dax: with fsync= or fdatasync= the block size "
			 "must be a multiple of the page size (%llu bytes); bs=%llu is not",
			 (unsigned long long)page, (unsigned long long)min_bs);
		return -EINVAL;
	}
	return 0;
}

/* The mapping of u's device, made on its first I/O: the whole device. */
static int unit_map(struct devdax_ctx *c, const struct io_unit *u, struct dmap **out)
{
	struct dmap *m;
	struct stat st;
	uint64_t bytes;
	char why[256];
	int prot = PROT_READ, fl, ret;

	if (u->file_idx >= c->nr_maps) {
		size_t n = (size_t)u->file_idx + 16;
		struct dmap *p = realloc(c->maps, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + c->nr_maps, 0, (n - c->nr_maps) * sizeof(*p));
		c->maps = p;
		c->nr_maps = n;
	}
	m = &c->maps[u->file_idx];
	*out = m;
	if (m->p && m->fd == u->fd)
		return 0;
	if (m->p)
		munmap(m->p, m->len);
	m->p = NULL;
	m->fd = u->fd;
	if (fstat(u->fd, &st) < 0)
		return -errno;
	ret = dax_size(&st, u->path, &bytes, why, sizeof(why));
	if (ret)
		return ret;
	m->len = (size_t)bytes;
	fl = fcntl(u->fd, F_GETFL);
	m->writable = fl >= 0 && (fl & O_ACCMODE) == O_RDWR;
	if (m->writable)
		prot |= PROT_WRITE;
	m->p = mmap(NULL, m->len, prot, MAP_SHARED, u->fd, 0);
	if (m->p == MAP_FAILED) {
		m->p = NULL;
		return -errno;
	}
	return 0;
}

static void copy_persist(void *dst, const void *src, size_t len, void *arg)
{
	pmem_memcpy_persist(dst, src, len);
}

static int devdax_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct devdax_ctx *c = (struct devdax_ctx *)ctx;
	struct dmap *m;
	size_t len;
	char *at;
	int ret = unit_map(c, u, &m);

	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir == DDIR_SYNC)
		return engine_sync_done(u, 0);	/* every write was persisted already */
	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return engine_sync_done(u, -EINVAL);	/* no trim on a mapping, as fio's */
	if (u->ddir == DDIR_WRITE && !m->writable)
		return engine_sync_done(u, -EBADF);
	if (u->offset >= m->len) {
		u->error = 0;
		u->resid = u->len;
		return ENGINE_COMPLETED;
	}
	at = (char *)m->p + u->offset;
	len = u->offset + u->len > m->len ? (size_t)(m->len - u->offset) : u->len;
	ret = u->ddir == DDIR_READ ? engine_bus_copy(u->buf, at, len, NULL, NULL)
				   : engine_bus_copy(at, u->buf, len, copy_persist, NULL);
	if (ret)
		return engine_sync_done(u, ret);
	u->error = 0;
	u->resid = u->len - (uint32_t)len;
	return ENGINE_COMPLETED;
}

static void devdax_cleanup(struct engine_ctx *ctx)
{
	struct devdax_ctx *c = (struct devdax_ctx *)ctx;
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_maps; i++)
		if (c->maps[i].p)
			munmap(c->maps[i].p, c->maps[i].len);
	free(c->maps);
	free(c);
}

const struct io_engine_ops engine_devdax_ops = {
	.name = "dev-dax",
	.flags = ENGINE_F_SYNC | ENGINE_F_CHARDEV | ENGINE_F_MAPS,
	.init = devdax_init,
	.configure = devdax_configure,
	.queue = devdax_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = devdax_cleanup,
	.probe = devdax_probe,
};
