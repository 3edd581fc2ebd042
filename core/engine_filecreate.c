/*
 * engine_filecreate.c - ioengine=filecreate: measures creating files. The
 * first I/O on each file creates it (open with O_CREAT, then close); the
 * file's other I/Os move nothing, as in fio, where the I/O count is still
 * filesize / bs per file. The worker neither lays out nor opens the files
 * (ENGINE_F_NOLAYOUT) and has put each path through the write guard.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>
#include "engine.h"

struct filecreate_ctx {
	struct engine_once once;
};

static int filecreate_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			   unsigned nr_units, char *err, size_t errlen)
{
	struct filecreate_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "filecreate: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int filecreate_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct filecreate_ctx *c = (struct filecreate_ctx *)ctx;
	int first = engine_once_first(&c->once, u->file_idx), fd;

	if (first <= 0)
		return engine_sync_done(u, first);
	do
		fd = open(u->path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return engine_sync_done(u, -errno);
	close(fd);
	return engine_sync_done(u, 0);
}

static void filecreate_cleanup(struct engine_ctx *ctx)
{
	struct filecreate_ctx *c = (struct filecreate_ctx *)ctx;

	if (c)
		engine_once_release(&c->once);
	free(c);
}

const struct io_engine_ops engine_filecreate_ops = {
	.name = "filecreate",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOLAYOUT | ENGINE_F_NOXFER,
	.init = filecreate_init,
	.queue = filecreate_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = filecreate_cleanup,
};
