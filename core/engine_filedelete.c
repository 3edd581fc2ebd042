/*
 * engine_filedelete.c - ioengine=filedelete: measures removing files. The
 * worker lays the files out as for any job; the first I/O on each file
 * unlinks it and the file's other I/Os move nothing, as in fio. The worker
 * has put every path through the write guard, since this engine destroys.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>
#include "engine.h"

struct filedelete_ctx {
	struct engine_once once;
};

static int filedelete_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			   unsigned nr_units, char *err, size_t errlen)
{
	struct filedelete_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "filedelete: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int filedelete_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct filedelete_ctx *c = (struct filedelete_ctx *)ctx;
	int first = engine_once_first(&c->once, u->file_idx);

	if (first <= 0)
		return engine_sync_done(u, first);
	return engine_sync_done(u, unlink(u->path) < 0 ? -errno : 0);
}

static void filedelete_cleanup(struct engine_ctx *ctx)
{
	struct filedelete_ctx *c = (struct filedelete_ctx *)ctx;

	if (c)
		engine_once_release(&c->once);
	free(c);
}

const struct io_engine_ops engine_filedelete_ops = {
	.name = "filedelete",
	.flags = ENGINE_F_SYNC | ENGINE_F_UNLINKS | ENGINE_F_NOXFER,
	.init = filedelete_init,
	.queue = filedelete_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = filedelete_cleanup,
};
