/*
 * engine_mmap.c - ioengine=mmap: each file is mapped (MAP_SHARED, whole, on
 * its first I/O) and I/O is a memcpy to or from the mapping, as fio's mmap
 * engine. A sync is msync; a trim punches a hole; with direct=1 each I/O's
 * range is synced and dropped from the page cache afterwards (fio's "not
 * really direct").
 *
 * A device error under a mapping arrives as SIGBUS, not as an errno: the
 * copy goes through engine_bus_copy(), which turns it into EIO for that
 * unit, so a failing or vanished disk ends the job with a message instead of
 * killing the program.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate, FALLOC_FL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>
#include "engine.h"
#include "engine_bus.h"
#include "engine_mapwin.h"
#include "job.h"

struct mmap_ctx {
	bool direct;
	struct mapwin_table maps;
};

static int mmap_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen)
{
	struct mmap_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "mmap: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int mmap_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			  size_t errlen)
{
	((struct mmap_ctx *)ctx)->direct = job->direct;
	return 0;
}

/* A window is the whole file, or the whole device. */
static int mmap_size(int fd, const struct stat *st, const char *path, uint64_t *bytes)
{
	if (S_ISBLK(st->st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, bytes) < 0)
			return -errno;
	} else {
		*bytes = (uint64_t)st->st_size;
	}
	return *bytes ? 0 : -EINVAL;
}

static const struct mapwin_ops mmap_win = { .size = mmap_size };

static int mmap_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct mmap_ctx *c = (struct mmap_ctx *)ctx;
	struct mapwin *m;
	size_t len;
	char *at;
	int ret = mapwin_get(&c->maps, u, &mmap_win, &m);

	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir == DDIR_SYNC)
		return engine_sync_done(u, msync(m->p, m->len, MS_SYNC) ? -errno : 0);
	if (u->ddir == DDIR_WRITE && !m->writable)
		return engine_sync_done(u, -EBADF);	/* as write(2) on a read-only fd */
	if (u->ddir == DDIR_TRIM)
		return engine_sync_done(u, fallocate(u->fd, FALLOC_FL_PUNCH_HOLE |
							FALLOC_FL_KEEP_SIZE, (off_t)u->offset,
						     (off_t)u->len) ? -errno : 0);
	at = mapwin_at(m, u, &len);
	if (!at)
		return mapwin_done(u, 0);	/* at or past the end: nothing moves, as read(2) */
	ret = u->ddir == DDIR_READ ? engine_bus_copy(u->buf, at, len, NULL, NULL)
				   : engine_bus_copy(at, u->buf, len, NULL, NULL);
	if (ret)
		return engine_sync_done(u, ret);
	if (c->direct) {
		/* msync and madvise take page-aligned addresses */
		uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
		char *start = (char *)((uintptr_t)at & ~(page - 1));
		size_t span = (size_t)(at + len - start);

		if (msync(start, span, MS_SYNC) < 0 || posix_madvise(start, span, POSIX_MADV_DONTNEED))
			return engine_sync_done(u, -errno);
	}
	return mapwin_done(u, len);
}

static void mmap_cleanup(struct engine_ctx *ctx)
{
	struct mmap_ctx *c = (struct mmap_ctx *)ctx;

	if (!c)
		return;
	mapwin_free(&c->maps);
	free(c);
}

const struct io_engine_ops engine_mmap_ops = {
	.name = "mmap",
	.flags = ENGINE_F_SYNC,
	.init = mmap_init,
	.configure = mmap_configure,
	.queue = mmap_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = mmap_cleanup,
};
