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
#include "job.h"

struct mapping {
	void *p;		/* NULL = not mapped yet */
	int fd;			/* the fd it maps */
	uint64_t len;
	bool writable;		/* the fd was opened for writing */
};

struct mmap_ctx {
	bool direct;
	struct mapping *maps;	/* per file index */
	size_t nr_maps;
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

/* The mapping of u's file, made on its first I/O: the whole file or device. */
static int unit_map(struct mmap_ctx *c, const struct io_unit *u, struct mapping **out)
{
	struct mapping *m;
	struct stat st;
	int prot = PROT_READ, fl;

	if (u->file_idx >= c->nr_maps) {
		size_t n = (size_t)u->file_idx + 16;
		struct mapping *p = realloc(c->maps, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + c->nr_maps, 0, (n - c->nr_maps) * sizeof(*p));
		c->maps = p;
		c->nr_maps = n;
	}
	m = &c->maps[u->file_idx];
	*out = m;
	if (m->p && m->fd == u->fd)
		return 0;
	if (m->p)
		munmap(m->p, (size_t)m->len);	/* another fd on the file: map that one */
	m->p = NULL;
	m->fd = u->fd;
	if (fstat(u->fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(u->fd, BLKGETSIZE64, &m->len) < 0)
			return -errno;
	} else {
		m->len = (uint64_t)st.st_size;
	}
	fl = fcntl(u->fd, F_GETFL);
	m->writable = fl >= 0 && (fl & O_ACCMODE) == O_RDWR;
	if (m->writable)
		prot |= PROT_WRITE;
	if (!m->len)
		return -EINVAL;
	m->p = mmap(NULL, (size_t)m->len, prot, MAP_SHARED, u->fd, 0);
	if (m->p == MAP_FAILED) {
		m->p = NULL;
		return -errno;
	}
	return 0;
}

static int mmap_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct mmap_ctx *c = (struct mmap_ctx *)ctx;
	struct mapping *m;
	size_t len;
	char *at;
	int ret = unit_map(c, u, &m);

	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir == DDIR_SYNC)
		return engine_sync_done(u, msync(m->p, (size_t)m->len, MS_SYNC) ? -errno : 0);
	if (u->ddir == DDIR_WRITE && !m->writable)
		return engine_sync_done(u, -EBADF);	/* as write(2) on a read-only fd */
	if (u->ddir == DDIR_TRIM)
		return engine_sync_done(u, fallocate(u->fd, FALLOC_FL_PUNCH_HOLE |
							FALLOC_FL_KEEP_SIZE, (off_t)u->offset,
						     (off_t)u->len) ? -errno : 0);
	if (u->offset >= m->len) {
		/* at or past the end of the file: nothing moves, as read(2) there */
		u->error = 0;
		u->resid = u->len;
		return ENGINE_COMPLETED;
	}
	at = (char *)m->p + u->offset;
	/* over the end of the file: a short transfer */
	len = u->offset + u->len > m->len ? (size_t)(m->len - u->offset) : u->len;
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
	u->error = 0;
	u->resid = u->len - (uint32_t)len;
	return ENGINE_COMPLETED;
}

static void mmap_cleanup(struct engine_ctx *ctx)
{
	struct mmap_ctx *c = (struct mmap_ctx *)ctx;
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_maps; i++)
		if (c->maps[i].p)
			munmap(c->maps[i].p, (size_t)c->maps[i].len);
	free(c->maps);
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
