/*
 * engine_falloc.c - ioengine=falloc: each I/O is a fallocate() of its range,
 * as fio's: a read reserves blocks without growing the file (KEEP_SIZE), a
 * write allocates and extends, a trim punches a hole. No data moves.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate, FALLOC_FL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "engine.h"
#include "job.h"

static int falloc_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	int mode, r;

	switch (u->ddir) {
	case DDIR_READ:
		mode = FALLOC_FL_KEEP_SIZE;
		break;
	case DDIR_WRITE:
		mode = 0;
		break;
	case DDIR_TRIM:
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
		break;
	default:
		/* fsync and friends keep their meaning */
		return engine_sync_done(u, u->datasync ? (fdatasync(u->fd) ? -errno : 0)
							: (fsync(u->fd) ? -errno : 0));
	}
	do
		r = fallocate(u->fd, mode, (off_t)u->offset, (off_t)u->len);
	while (r < 0 && errno == EINTR);
	return engine_sync_done(u, r < 0 ? -errno : 0);
}

const struct io_engine_ops engine_falloc_ops = {
	.name = "falloc",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOXFER,
	.init = engine_sync_init,
	.queue = falloc_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = engine_sync_cleanup,
};
