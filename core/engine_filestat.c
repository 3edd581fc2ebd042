/*
 * engine_filestat.c - ioengine=filestat: measures stat(2), lstat(2) or
 * statx(2) (stat_type=) of each file: the first I/O on a file asks for its
 * metadata, the file's other I/Os move nothing, as in fio. The worker lays
 * the files out first so there is something to stat.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* statx */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/stat.h>
#include "engine.h"
#include "job.h"

struct filestat_ctx {
	struct engine_once once;
	enum stat_type type;
};

static int filestat_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			 unsigned nr_units, char *err, size_t errlen)
{
	struct filestat_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "filestat: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int filestat_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			      size_t errlen)
{
	((struct filestat_ctx *)ctx)->type = job->stat_type;
	return 0;
}

static int filestat_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct filestat_ctx *c = (struct filestat_ctx *)ctx;
	int first = engine_once_first(&c->once, u->file_idx), r;
	struct statx stx;
	struct stat st;

	if (first <= 0)
		return engine_sync_done(u, first);
	switch (c->type) {
	case STAT_LSTAT:
		r = lstat(u->path, &st);
		break;
	case STAT_STATX:
		r = statx(AT_FDCWD, u->path, 0, STATX_ALL, &stx);
		break;
	default:
		r = stat(u->path, &st);
		break;
	}
	return engine_sync_done(u, r < 0 ? -errno : 0);
}

static void filestat_cleanup(struct engine_ctx *ctx)
{
	struct filestat_ctx *c = (struct filestat_ctx *)ctx;

	if (c)
		engine_once_release(&c->once);
	free(c);
}

const struct io_engine_ops engine_filestat_ops = {
	.name = "filestat",
	.flags = ENGINE_F_SYNC | ENGINE_F_NOXFER,
	.init = filestat_init,
	.configure = filestat_configure,
	.queue = filestat_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = filestat_cleanup,
};
