/*
 * engine_libzbc.c - ioengine=libzbc: zoned disks (host-managed or
 * host-aware SMR, ZNS behind the block layer) through the kernel's zoned
 * block interface, not the libzbc library that fio's engine of this name
 * links (Debian packages none): BLKREPORTZONE to learn a zone's write
 * pointer, BLKRESETZONE, reads and writes on the block device.
 *
 * What fio's zonemode=zbd does around its libzbc engine, this file does per
 * I/O: a write in a sequential zone goes to the zone's write pointer, a zone
 * with no room left for it is reset first (fio resets a full zone it comes
 * back to); a trim resets the whole zones it covers. The write pointer is
 * read from the device before each such write, under one lock per process,
 * so jobs sharing a disk never race to the same pointer. Reads go where the
 * job points (fio's read_beyond_wp=0 moves them onto written data instead).
 * With verify=, a write at a zone's start resets the zone (fio resets a
 * verifying job's zones before writing), and a write the device would need
 * elsewhere fails instead of moving: its header names the job's offset.
 *
 * probe() is the gate: a target that is no zoned block device is refused
 * at setup by name.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <linux/blkzoned.h>
#include "engine.h"
#include "job.h"

struct zbc_ctx {
	bool verify;		/* the job verifies: writes never move */
};

/* one writer at a time reads a write pointer and writes at it */
static pthread_mutex_t wp_lock = PTHREAD_MUTEX_INITIALIZER;

/* The zone holding byte off of fd's device; 0 or -errno. */
static int zone_at(int fd, uint64_t off, struct blk_zone *z)
{
	struct {
		struct blk_zone_report r;
		struct blk_zone z[1];
	} rep;

	memset(&rep, 0, sizeof(rep));
	rep.r.sector = off >> 9;
	rep.r.nr_zones = 1;
	if (ioctl(fd, BLKREPORTZONE, &rep) < 0)
		return -errno;
	if (rep.r.nr_zones < 1 || (rep.z[0].start << 9) > off)
		return -ENXIO;
	*z = rep.z[0];
	if (!(rep.r.flags & BLK_ZONE_REP_CAPACITY))
		z->capacity = z->len;
	return 0;
}

static int reset_zone(int fd, const struct blk_zone *z)
{
	struct blk_zone_range r = { .sector = z->start, .nr_sectors = z->len };

	return ioctl(fd, BLKRESETZONE, &r) < 0 ? -errno : 0;
}

static int zbc_probe(int fd, const char *path, uint64_t *bytes, unsigned *lbs, char *err,
		     size_t errlen)
{
	unsigned zone_sectors = 0;
	struct stat st;
	int ssz = 512;

	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "ioengine=libzbc: %s is not a block device; libzbc needs a "
			 "zoned block device", path);
		return -ENOTBLK;
	}
	if (ioctl(fd, BLKGETZONESZ, &zone_sectors) < 0 || !zone_sectors) {
		snprintf(err, errlen, "ioengine=libzbc: %s is not a zoned block device (no zone "
			 "size); libzbc needs a host-managed or host-aware disk", path);
		return -EINVAL;
	}
	if (ioctl(fd, BLKGETSIZE64, bytes) < 0 || ioctl(fd, BLKSSZGET, &ssz) < 0) {
		int e = errno;

		snprintf(err, errlen, "ioengine=libzbc: %s: cannot read its size: %s", path,
			 strerror(e));
		return -e;
	}
	*lbs = (unsigned)ssz;
	return 0;
}

static int zbc_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		    unsigned nr_units, char *err, size_t errlen)
{
	struct zbc_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "libzbc: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int zbc_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			 size_t errlen)
{
	((struct zbc_ctx *)ctx)->verify = job->verify != VERIFY_NONE;
	return 0;
}

static int full_io(const struct io_unit *u)
{
	ssize_t n = u->ddir == DDIR_READ ? pread(u->fd, u->buf, u->len, (off_t)u->offset) :
					   pwrite(u->fd, u->buf, u->len, (off_t)u->offset);

	if (n < 0)
		return -errno;
	return (uint32_t)n == u->len ? 0 : -EIO;
}

/* A write: at the write pointer of a sequential zone, after a reset when it is full. */
static int zbc_write(struct zbc_ctx *c, struct io_unit *u)
{
	struct blk_zone z;
	uint64_t start, wp, end;
	int ret;

	pthread_mutex_lock(&wp_lock);
	ret = zone_at(u->fd, u->offset, &z);
	if (ret || z.type == BLK_ZONE_TYPE_CONVENTIONAL)
		goto io;
	start = z.start << 9;
	end = start + (z.capacity << 9);
	if (u->len > end - start) {
		ret = -EINVAL;	/* no zone holds it: fio's "I/O buflen exceeds zone size" */
		goto out;
	}
	wp = z.cond == BLK_ZONE_COND_FULL ? end : z.wp << 9;
	/* fio resets a verifying job's zones before it writes: here as each zone is begun */
	if (wp + u->len > end || (c->verify && u->offset == start && wp != start)) {
		ret = reset_zone(u->fd, &z);
		if (ret)
			goto out;
		wp = start;
	}
	if (wp != u->offset) {
		if (c->verify) {
			ret = -EINVAL;
			goto out;
		}
		u->offset = wp;
	}
io:
	ret = full_io(u);
out:
	pthread_mutex_unlock(&wp_lock);
	return ret;
}

/* A trim resets every zone it covers; it must cover whole zones. */
static int zbc_trim(const struct io_unit *u)
{
	uint64_t off = u->offset, end = u->offset + u->len;
	struct blk_zone z;
	int ret;

	while (off < end) {
		ret = zone_at(u->fd, off, &z);
		if (ret)
			return ret;
		if ((z.start << 9) != off || off + (z.len << 9) > end)
			return -EINVAL;
		if (z.type != BLK_ZONE_TYPE_CONVENTIONAL) {
			pthread_mutex_lock(&wp_lock);
			ret = reset_zone(u->fd, &z);
			pthread_mutex_unlock(&wp_lock);
			if (ret)
				return ret;
		}
		off += z.len << 9;
	}
	return 0;
}

static int zbc_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct zbc_ctx *c = (struct zbc_ctx *)ctx;

	switch (u->ddir) {
	case DDIR_READ:
		return engine_sync_done(u, full_io(u));
	case DDIR_WRITE:
		return engine_sync_done(u, zbc_write(c, u));
	case DDIR_TRIM:
		return engine_sync_done(u, zbc_trim(u));
	default:
		return engine_sync_done(u, (u->datasync ? fdatasync(u->fd) : fsync(u->fd)) < 0 ?
					   -errno : 0);
	}
}

static void zbc_cleanup(struct engine_ctx *ctx)
{
	free(ctx);
}

const struct io_engine_ops engine_libzbc_ops = {
	.name = "libzbc",
	.flags = ENGINE_F_SYNC | ENGINE_F_ZONED,
	.note = "ioengine=libzbc: raidbench drives the disk through the kernel's zoned block "
		"interface (BLKREPORTZONE, BLKRESETZONE, reads and writes on the block device), "
		"not the libzbc library; writes go to each zone's write pointer",
	.init = zbc_init,
	.configure = zbc_configure,
	.probe = zbc_probe,
	.queue = zbc_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = zbc_cleanup,
};
