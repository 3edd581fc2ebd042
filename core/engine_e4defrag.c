/*
 * engine_e4defrag.c - ioengine=e4defrag: online defragmentation load on
 * ext4, as fio's. Each write moves the I/O's range of the target file onto
 * freshly allocated blocks of a donor file (EXT4_IOC_MOVE_EXT): the file's
 * data stays the same, its layout changes. The donor is donorname= (in the
 * job's directory), allocated over the job's region up front, or per I/O
 * and emptied again with inplace=1. Reads and trims fail with EINVAL, as in
 * fio. The donor is checked by the write guard at setup (output_file) and
 * opened through it under the run's consent.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/types.h>
#include "engine.h"
#include "guard.h"
#include "job.h"

/* ext4's ioctl (fs/ext4/ext4.h; not in the exported headers) */
struct move_extent {
	__u32 reserved;
	__u32 donor_fd;
	__u64 orig_start;	/* in file system blocks */
	__u64 donor_start;
	__u64 len;
	__u64 moved_len;
};
#define EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct move_extent)

struct e4defrag_ctx {
	int donor_fd;
	const struct guard_consent *consent;	/* the run's: the donor opens through the guard */
	bool inplace;
	uint64_t bsz;		/* the file system's block size */
};

/* The donor (donorname=): the one file besides its target the engine writes. */
static int e4defrag_output_file(const struct job_spec *job, unsigned i, char *buf, size_t len)
{
	int ret;

	if (i)
		return -ENOENT;
	ret = job_donor_path(job, buf, len);
	if (ret)
		snprintf(buf, len, "%s", ret == -EINVAL ? "needs donorname= (the donor file)" :
			 "has a donorname= path too long");
	return ret;
}

static int e4defrag_init_tuned(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			       unsigned nr_units, const struct engine_tuning *tune, char *err,
			       size_t errlen)
{
	struct e4defrag_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "e4defrag: cannot allocate a context");
		return -ENOMEM;
	}
	c->donor_fd = -1;
	c->consent = tune ? tune->consent : NULL;
	*ctx = (struct engine_ctx *)c;
	return 0;
}

/* Without the run's context (no worker): the donor is guarded with no consent. */
static int e4defrag_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			 unsigned nr_units, char *err, size_t errlen)
{
	return e4defrag_init_tuned(ctx, depth, units, nr_units, NULL, err, errlen);
}

static int e4defrag_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			      size_t errlen)
{
	struct e4defrag_ctx *c = (struct e4defrag_ctx *)ctx;
	char path[4096], why[1024] = "";
	struct stat st;
	int ret;

	ret = job_donor_path(job, path, sizeof(path));
	if (ret) {
		snprintf(err, errlen, "e4defrag: donorname= is required");
		return ret;
	}
	c->inplace = job->e4defrag_inplace;
	/* checked at setup (output_file); through the guard again, the file may have changed */
	c->donor_fd = guard_open_write(path, O_CREAT | O_WRONLY | O_CLOEXEC, c->consent, why,
				       sizeof(why));
	if (c->donor_fd < 0) {
		ret = c->donor_fd;
		snprintf(err, errlen, "e4defrag: donor file: %s", why[0] ? why : strerror(-ret));
		return ret;
	}
	if (fstat(c->donor_fd, &st) < 0) {
		ret = -errno;
		snprintf(err, errlen, "e4defrag: donor file %s: %s", path, strerror(-ret));
		return ret;
	}
	c->bsz = st.st_blksize ? (uint64_t)st.st_blksize : 4096;
	/* the donor's blocks for the whole region, unless each I/O allocates its own */
	if (!c->inplace && (job->filesize || job->size) &&
	    fallocate(c->donor_fd, 0, (off_t)job->offset,
		      (off_t)(job->filesize ? job->filesize : job->size)) < 0) {
		ret = -errno;
		snprintf(err, errlen, "e4defrag: allocating the donor file %s: %s", path,
			 strerror(-ret));
		return ret;
	}
	return 0;
}

static int e4defrag_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct e4defrag_ctx *c = (struct e4defrag_ctx *)ctx;
	struct move_extent me;
	uint64_t moved;
	int ret = 0;

	/* moving extents changes no data, but only a job that may write may do it */
	if (u->ddir != DDIR_WRITE)
		return engine_sync_done(u, -EINVAL);
	if (c->inplace && fallocate(c->donor_fd, 0, (off_t)u->offset, (off_t)u->len) < 0)
		return engine_sync_done(u, -errno);
	memset(&me, 0, sizeof(me));
	me.donor_fd = (__u32)c->donor_fd;
	me.orig_start = u->offset / c->bsz;
	me.donor_start = me.orig_start;
	me.len = (u->offset + u->len + c->bsz - 1) / c->bsz - me.orig_start;
	if (ioctl(u->fd, EXT4_IOC_MOVE_EXT, &me) < 0)
		ret = -errno;
	moved = me.moved_len * c->bsz;
	if (c->inplace && ftruncate(c->donor_fd, 0) < 0 && !ret)
		ret = -errno;
	if (ret)
		return engine_sync_done(u, ret);
	if (!moved)
		return engine_sync_done(u, -EINVAL);	/* past the end of the file */
	u->error = 0;
	u->resid = moved < u->len ? u->len - (uint32_t)moved : 0;
	return ENGINE_COMPLETED;
}

static void e4defrag_cleanup(struct engine_ctx *ctx)
{
	struct e4defrag_ctx *c = (struct e4defrag_ctx *)ctx;

	if (c && c->donor_fd >= 0)
		guard_close(c->donor_fd);
	free(c);
}

const struct io_engine_ops engine_e4defrag_ops = {
	.name = "e4defrag",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOXFER,
	.init = e4defrag_init,
	.init_tuned = e4defrag_init_tuned,
	.output_file = e4defrag_output_file,
	.configure = e4defrag_configure,
	.queue = e4defrag_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = e4defrag_cleanup,
};
