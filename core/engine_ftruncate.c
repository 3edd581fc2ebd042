/*
 * engine_ftruncate.c - ioengine=ftruncate: each write sets the file's length
 * to the I/O's offset (ftruncate), as fio's; reads and trims have no meaning
 * here and fail with EINVAL, as they do in fio.
 */
#include <errno.h>
#include <unistd.h>
#include "engine.h"
#include "job.h"

static int ftruncate_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	int r;

	if (u->ddir == DDIR_SYNC)
		return engine_sync_done(u, (u->datasync ? fdatasync(u->fd) : fsync(u->fd)) ? -errno
											 : 0);
	if (u->ddir != DDIR_WRITE)
		return engine_sync_done(u, -EINVAL);
	do
		r = ftruncate(u->fd, (off_t)u->offset);
	while (r < 0 && errno == EINTR);
	return engine_sync_done(u, r < 0 ? -errno : 0);
}

const struct io_engine_ops engine_ftruncate_ops = {
	.name = "ftruncate",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOXFER,
	.init = engine_sync_init,
	.queue = ftruncate_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = engine_sync_cleanup,
};
