/*
 * engine_psync.c - the synchronous engines: ioengine=psync (pread/pwrite),
 * ioengine=sync (lseek + read/write), ioengine=pvsync (preadv/pwritev, one
 * vector) and ioengine=pvsync2 (preadv2/pwritev2, RWF_HIPRI with hipri, as
 * fio's engines/sync.c). Every queue() does the I/O on the
 * spot and returns ENGINE_COMPLETED, so commit/getevents/event never have
 * anything to do.
 *
 * A short transfer is reported (resid), never retried: the worker decides
 * what a short read at the end of a device means.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate, FALLOC_FL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/uio.h>
#include "engine.h"
#include "job.h"

struct psync_ctx {
	/* sync: where the last read/write left the file position, to skip an lseek */
	int last_fd;
	uint64_t last_pos;
	int rwf;	/* pvsync2: the RWF_* flags of every transfer */
};

static inline struct psync_ctx *to_psync(struct engine_ctx *ctx)
{
	return (struct psync_ctx *)ctx;
}

static int psync_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		      unsigned nr_units, char *err, size_t errlen)
{
	struct psync_ctx *p = calloc(1, sizeof(*p));

	if (!p) {
		snprintf(err, errlen, "psync: cannot allocate a context");
		return -ENOMEM;
	}
	p->last_fd = -1;
	*ctx = (struct engine_ctx *)p;
	return 0;
}

/* Outcome of a transfer of r bytes (or -1 with errno) into the unit. */
static inline int complete(struct io_unit *u, ssize_t r)
{
	if (r < 0) {
		u->error = errno;
		u->resid = u->len;
	} else {
		u->error = 0;
		u->resid = (size_t)r < u->len ? u->len - (uint32_t)r : 0;
	}
	return ENGINE_COMPLETED;
}

/* fsync, fdatasync, trim: the same for both engines. */
static int psync_other(struct io_unit *u)
{
	int r;

	if (u->ddir == DDIR_SYNC)
		r = u->datasync ? fdatasync(u->fd) : fsync(u->fd);
	else if (u->ddir == DDIR_TRIM)
		r = fallocate(u->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t)u->offset, (off_t)u->len);
	else {
		errno = EINVAL;
		r = -1;
	}
	if (r < 0) {
		u->error = errno;
		u->resid = u->len;
	} else {
		u->error = 0;
		u->resid = 0;
	}
	return ENGINE_COMPLETED;
}

static int psync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	ssize_t r;

	switch (u->ddir) {
	case DDIR_READ:
		do
			r = pread(u->fd, u->buf, u->len, (off_t)u->offset);
		while (r < 0 && errno == EINTR);
		return complete(u, r);
	case DDIR_WRITE:
		do
			r = pwrite(u->fd, u->buf, u->len, (off_t)u->offset);
		while (r < 0 && errno == EINTR);
		return complete(u, r);
	default:
		return psync_other(u);
	}
}

/* pvsync and pvsync2: the unit's buffer as a vector of one, as fio's engines */
static int pvsync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->len };
	ssize_t r;

	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return psync_other(u);
	do
		r = u->ddir == DDIR_READ ? preadv(u->fd, &iov, 1, (off_t)u->offset)
					 : pwritev(u->fd, &iov, 1, (off_t)u->offset);
	while (r < 0 && errno == EINTR);
	return complete(u, r);
}

static int pvsync2_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->len };
	int rwf = to_psync(ctx)->rwf;
	ssize_t r;

	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return psync_other(u);
	do
		r = u->ddir == DDIR_READ ? preadv2(u->fd, &iov, 1, (off_t)u->offset, rwf)
					 : pwritev2(u->fd, &iov, 1, (off_t)u->offset, rwf);
	while (r < 0 && errno == EINTR);
	return complete(u, r);
}

static int pvsync2_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			unsigned nr_units, const struct engine_tuning *tune, char *err,
			size_t errlen)
{
	int ret = psync_init(ctx, depth, units, nr_units, err, errlen);

	if (!ret && tune->hipri)
		to_psync(*ctx)->rwf = RWF_HIPRI;
	return ret;
}

static int sync_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct psync_ctx *p = to_psync(ctx);
	ssize_t r;

	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return psync_other(u);
	/* sequential jobs find the position already there, as fio's sync engine does */
	if (u->fd != p->last_fd || u->offset != p->last_pos) {
		if (lseek(u->fd, (off_t)u->offset, SEEK_SET) < 0) {
			p->last_fd = -1;
			return complete(u, -1);
		}
	}
	do
		r = u->ddir == DDIR_READ ? read(u->fd, u->buf, u->len)
					 : write(u->fd, u->buf, u->len);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		p->last_fd = -1;	/* the position is unknown after a failure */
	} else {
		p->last_fd = u->fd;
		p->last_pos = u->offset + (uint64_t)r;
	}
	return complete(u, r);
}

const struct io_engine_ops engine_psync_ops = {
	.name = "psync",
	.flags = ENGINE_F_SYNC,
	.init = psync_init,
	.queue = psync_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = engine_sync_cleanup,
};

const struct io_engine_ops engine_sync_ops = {
	.name = "sync",
	.flags = ENGINE_F_SYNC,
	.init = psync_init,
	.queue = sync_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = engine_sync_cleanup,
};

const struct io_engine_ops engine_pvsync_ops = {
	.name = "pvsync",
	.flags = ENGINE_F_SYNC,
	.init = psync_init,
	.queue = pvsync_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = engine_sync_cleanup,
};

const struct io_engine_ops engine_pvsync2_ops = {
	.name = "pvsync2",
	.flags = ENGINE_F_SYNC,
	.note = "of its options hipri sets RWF_HIPRI on every transfer; hipri_percentage, "
		"nowait and uncached have no effect",
	.init = psync_init,
	.init_tuned = pvsync2_init,
	.queue = pvsync2_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = engine_sync_cleanup,
};
