/*
 * engine_splice.c - ioengine=splice: data moves between the file and the
 * I/O buffer through a pipe, as fio's splice engine: a read splices file
 * pages into the pipe and reads them out; a write vmsplices the buffer into
 * the pipe and splices it into the file. Syncs and trims are as psync's.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* splice, vmsplice, fallocate, F_SETPIPE_SZ */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "engine.h"
#include "job.h"

struct splice_ctx {
	int pipe[2];
};

static int splice_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		       unsigned nr_units, char *err, size_t errlen)
{
	struct splice_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "splice: cannot allocate a context");
		return -ENOMEM;
	}
	if (pipe2(c->pipe, O_CLOEXEC) < 0) {
		int e = errno;

		snprintf(err, errlen, "splice: cannot make a pipe: %s", strerror(e));
		free(c);
		return -e;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

/*
 * Everything left in the pipe after a failure is thrown away: the next I/O
 * starts clean. Returns err, so a caller can drain and fail in one step.
 */
static int drain(struct splice_ctx *c, int err)
{
	char sink[4096];

	while (fcntl(c->pipe[0], F_SETFL, O_NONBLOCK) == 0 &&
	       read(c->pipe[0], sink, sizeof(sink)) > 0)
		;
	fcntl(c->pipe[0], F_SETFL, 0);
	return err;
}

static int splice_read(struct splice_ctx *c, struct io_unit *u)
{
	loff_t off = (loff_t)u->offset;
	uint32_t done = 0;

	while (done < u->len) {
		ssize_t in = splice(u->fd, &off, c->pipe[1], NULL, u->len - done, SPLICE_F_MOVE);
		ssize_t got = 0;

		if (in < 0 && errno == EINTR)
			continue;
		if (in < 0)
			return drain(c, -errno);
		if (!in)
			break;	/* end of file: a short read */
		while (got < in) {
			ssize_t r = read(c->pipe[0], (char *)u->buf + done + got, (size_t)(in - got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return drain(c, r < 0 ? -errno : -EIO);
			got += r;
		}
		done += (uint32_t)in;
	}
	u->error = 0;
	u->resid = u->len - done;
	return ENGINE_COMPLETED;
}

static int splice_write(struct splice_ctx *c, struct io_unit *u)
{
	loff_t off = (loff_t)u->offset;
	uint32_t done = 0;

	while (done < u->len) {
		struct iovec iov = { (char *)u->buf + done, u->len - done };
		ssize_t in = vmsplice(c->pipe[1], &iov, 1, 0), out = 0;

		if (in < 0 && errno == EINTR)
			continue;
		if (in <= 0)
			return drain(c, in < 0 ? -errno : -EIO);
		while (out < in) {
			ssize_t w = splice(c->pipe[0], NULL, u->fd, &off, (size_t)(in - out),
					   SPLICE_F_MOVE);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return drain(c, w < 0 ? -errno : -EIO);
			out += w;
		}
		done += (uint32_t)in;
	}
	return engine_sync_done(u, 0);
}

static int splice_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct splice_ctx *c = (struct splice_ctx *)ctx;
	int ret;

	switch (u->ddir) {
	case DDIR_READ:
		ret = splice_read(c, u);
		return ret < 0 ? engine_sync_done(u, ret) : ret;
	case DDIR_WRITE:
		ret = splice_write(c, u);
		return ret < 0 ? engine_sync_done(u, ret) : ret;
	case DDIR_TRIM:
		return engine_sync_done(u, fallocate(u->fd, FALLOC_FL_PUNCH_HOLE |
							FALLOC_FL_KEEP_SIZE, (off_t)u->offset,
						     (off_t)u->len) ? -errno : 0);
	default:
		return engine_sync_done(u, (u->datasync ? fdatasync(u->fd) : fsync(u->fd)) ? -errno
											  : 0);
	}
}

static void splice_cleanup(struct engine_ctx *ctx)
{
	struct splice_ctx *c = (struct splice_ctx *)ctx;

	if (!c)
		return;
	close(c->pipe[0]);
	close(c->pipe[1]);
	free(c);
}

const struct io_engine_ops engine_splice_ops = {
	.name = "splice",
	.flags = ENGINE_F_SYNC,
	.init = splice_init,
	.queue = splice_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = splice_cleanup,
};
