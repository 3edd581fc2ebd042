/*
 * engine_mtd.c - ioengine=mtd: raw flash through the kernel's MTD character
 * devices (/dev/mtdN), with fio's mtd engine's semantics: each I/O is cut at
 * erase block boundaries, since flash errors belong to one erase block;
 * reads and writes are plain read/write at the offset; a trim is an erase
 * (MEMERASE64) and must cover whole erase blocks; with skip_bad=1 a block
 * the driver knows bad (MEMGETBADBLOCK) is not touched and its part of the
 * I/O fails with EIO; an EIO from the flash marks that block bad
 * (MEMSETBADBLOCK), as fio does. Every I/O completes in queue().
 *
 * probe() is the gate: a target that does not answer MEMGETINFO is refused
 * at setup by name. Whether the flash is in use (UBI, a mounted jffs2) is
 * the write guard's question (core/guard_mtd.c), not this file's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <mtd/mtd-user.h>
#include "engine.h"
#include "grow.h"
#include "job.h"

struct mtd_file {
	uint32_t eb_size;	/* 0 = not asked yet */
	bool bb_allowed;	/* the driver keeps a bad block table */
};

struct mtd_ctx {
	bool skip_bad;
	struct mtd_file *files;	/* per file index */
	size_t nr_files;
};

/* The size from sysfs (MEMGETINFO's is 32 bits); 0 when not found. */
static uint64_t sysfs_size(int fd)
{
	char path[96];
	unsigned long long v = 0;
	struct stat st;
	FILE *f;

	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/size", major(st.st_rdev),
		 minor(st.st_rdev));
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static int mtd_probe(int fd, const char *path, uint64_t *bytes, unsigned *lbs, char *err,
		     size_t errlen)
{
	struct mtd_info_user info;
	uint64_t sz;

	if (ioctl(fd, MEMGETINFO, &info) < 0) {
		int e = errno;

		snprintf(err, errlen, "ioengine=mtd: %s is not an MTD flash device (MEMGETINFO: "
			 "%s); mtd needs /dev/mtdN", path, strerror(e));
		return -(e == EINVAL ? ENOTTY : e);
	}
	if (!info.erasesize) {
		snprintf(err, errlen, "ioengine=mtd: %s reports an erase size of 0", path);
		return -EIO;
	}
	sz = sysfs_size(fd);
	*bytes = sz ? sz : info.size;
	/* the smallest write the flash takes (1 on NOR and RAM, a page on NAND) */
	*lbs = info.writesize ? info.writesize : 1;
	return 0;
}

static int mtd_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		    unsigned nr_units, char *err, size_t errlen)
{
	struct mtd_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "mtd: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int mtd_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			 size_t errlen)
{
	((struct mtd_ctx *)ctx)->skip_bad = job->mtd_skip_bad;
	return 0;
}

/* u's device's erase block size, asked once per file. */
static int unit_file(struct mtd_ctx *c, const struct io_unit *u, struct mtd_file **out)
{
	struct mtd_info_user info;
	loff_t ofs = 0;

	if (grow_to_index(&c->files, &c->nr_files, u->file_idx, sizeof(*c->files)))
		return -ENOMEM;
	if (!c->files[u->file_idx].eb_size) {
		if (ioctl(u->fd, MEMGETINFO, &info) < 0)
			return -errno;
		if (!info.erasesize)
			return -EIO;
		c->files[u->file_idx].eb_size = info.erasesize;
		/* a driver without a bad block table answers EOPNOTSUPP */
		c->files[u->file_idx].bb_allowed = ioctl(u->fd, MEMGETBADBLOCK, &ofs) >= 0;
	}
	*out = &c->files[u->file_idx];
	return 0;
}

/* After an EIO, the erase block at ofs is marked bad where the driver keeps a table. */
static int mark_bad(const struct mtd_file *mf, int fd, loff_t ofs, int ret)
{
	if (ret == -EIO && mf->bb_allowed && ioctl(fd, MEMSETBADBLOCK, &ofs) < 0)
		return -errno;
	return ret;
}

/* One piece inside one erase block; 0 or -errno. */
static int mtd_piece(const struct mtd_file *mf, const struct io_unit *u, uint64_t off,
		     char *buf, uint32_t len)
{
	loff_t eb = (loff_t)(off - off % mf->eb_size);
	struct erase_info_user64 ei;
	ssize_t n;

	switch (u->ddir) {
	case DDIR_READ:
		n = pread(u->fd, buf, len, (off_t)off);
		break;
	case DDIR_WRITE:
		n = pwrite(u->fd, buf, len, (off_t)off);
		break;
	case DDIR_TRIM:
		/* an erase takes whole erase blocks only */
		if (off % mf->eb_size || len != mf->eb_size)
			return -EINVAL;
		ei.start = (uint64_t)eb;
		ei.length = mf->eb_size;
		if (ioctl(u->fd, MEMERASE64, &ei) < 0)
			return mark_bad(mf, u->fd, eb, -errno);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
	if (n < 0)
		return mark_bad(mf, u->fd, eb, -errno);
	/* MTD transfers all or fails: a short count means the device ended */
	return (uint32_t)n == len ? 0 : -EIO;
}

static int mtd_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct mtd_ctx *c = (struct mtd_ctx *)ctx;
	struct mtd_file *mf = NULL;
	uint32_t done = 0;
	int ret, last = 0;

	ret = unit_file(c, u, &mf);
	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir == DDIR_SYNC)
		return engine_sync_done(u, 0);	/* MTD writes are not cached */
	/* every erase block gets its try: an error in one says nothing of the next */
	while (done < u->len) {
		uint64_t off = u->offset + done;
		uint32_t room = mf->eb_size - (uint32_t)(off % mf->eb_size);
		uint32_t len = u->len - done < room ? u->len - done : room;

		if (c->skip_bad) {
			loff_t eb = (loff_t)(off - off % mf->eb_size);
			int bad = ioctl(u->fd, MEMGETBADBLOCK, &eb);

			if (bad < 0 && errno != EOPNOTSUPP) {
				last = -errno;
				break;
			}
			if (bad > 0) {
				last = -EIO;
				done += len;
				continue;
			}
		}
		ret = mtd_piece(mf, u, off, (char *)u->buf + done, len);
		if (ret)
			last = ret;
		done += len;
	}
	return engine_sync_done(u, last);
}

static void mtd_cleanup(struct engine_ctx *ctx)
{
	struct mtd_ctx *c = (struct mtd_ctx *)ctx;

	if (c)
		free(c->files);
	free(c);
}

const struct io_engine_ops engine_mtd_ops = {
	.name = "mtd",
	.flags = ENGINE_F_SYNC | ENGINE_F_CHARDEV,
	.init = mtd_init,
	.configure = mtd_configure,
	.probe = mtd_probe,
	.queue = mtd_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = mtd_cleanup,
};
