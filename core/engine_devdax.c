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
#include "engine_mapwin.h"
#include "job.h"

struct devdax_ctx {
	struct mapwin_table maps;
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
	return mapwin_check_bs(job, "dev-dax", err, errlen);
}

/* A window is the whole device, its size from sysfs. */
static int devdax_win_size(int fd, const struct stat *st, const char *path, uint64_t *bytes)
{
	char why[256];

	return dax_size(st, path, bytes, why, sizeof(why));
}

static const struct mapwin_ops devdax_win = { .size = devdax_win_size };

static void copy_persist(void *dst, const void *src, size_t len, void *arg)
{
	pmem_memcpy_persist(dst, src, len);
}

static int devdax_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct devdax_ctx *c = (struct devdax_ctx *)ctx;
	struct mapwin *m;
	size_t len;
	char *at;
	int ret = mapwin_get(&c->maps, u, &devdax_win, &m);

	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir == DDIR_SYNC)
		return engine_sync_done(u, 0);	/* every write was persisted already */
	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return engine_sync_done(u, -EINVAL);	/* no trim on a mapping, as fio's */
	if (u->ddir == DDIR_WRITE && !m->writable)
		return engine_sync_done(u, -EBADF);
	at = mapwin_at(m, u, &len);
	if (!at)
		return mapwin_done(u, 0);
	ret = u->ddir == DDIR_READ ? engine_bus_copy(u->buf, at, len, NULL, NULL)
				   : engine_bus_copy(at, u->buf, len, copy_persist, NULL);
	if (ret)
		return engine_sync_done(u, ret);
	return mapwin_done(u, len);
}

static void devdax_cleanup(struct engine_ctx *ctx)
{
	struct devdax_ctx *c = (struct devdax_ctx *)ctx;

	if (!c)
		return;
	mapwin_free(&c->maps);
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
