/*
 * engine_libpmem.c - ioengine=libpmem: files on a DAX file system, mapped
 * whole (on their first I/O) and written with libpmem's pmem_memcpy, read
 * with memcpy, as fio's libpmem engine. fio's meaning of the flags: direct=1
 * asks for non-temporal stores, sync=1 drains after every write (otherwise
 * only a sync does).
 *
 * The worker opens and lays out the file through the write guard; the
 * engine maps that fd (pmem_map_file would open the path a second time,
 * behind the guard's back). A mapping is persistent memory when the kernel
 * grants MAP_SYNC (a DAX file) or libpmem says so (PMEM_IS_PMEM_FORCE);
 * anywhere else fio refuses the file, raidbench runs it and makes writes
 * durable with msync instead (sync=1: each write's range; a sync: the file).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* MAP_SHARED_VALIDATE, MAP_SYNC */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libpmem.h>
#include "engine.h"
#include "engine_bus.h"
#include "job.h"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

struct pmap {
	void *p;		/* NULL = not mapped yet */
	int fd;			/* the fd it maps */
	size_t len;
	bool writable;		/* the fd was opened for writing */
	bool pmem;		/* CPU cache flushes make stores durable */
};

struct libpmem_ctx {
	unsigned flags;		/* pmem_memcpy's, from direct= and sync= */
	bool sync;		/* sync=: every write is made durable before it completes */
	struct pmap *maps;	/* per file index */
	size_t nr_maps;
};

static int libpmem_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			unsigned nr_units, char *err, size_t errlen)
{
	struct libpmem_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "libpmem: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int libpmem_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			     size_t errlen)
{
	struct libpmem_ctx *c = (struct libpmem_ctx *)ctx;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), min_bs = UINT64_MAX;
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (job->bs[d] && job->bs[d] < min_bs)
			min_bs = job->bs[d];
	/* fio's rule: a sync every N blocks covers whole pages of the mapping */
	if (min_bs % page && (job->fsync_blocks || job->fdatasync_blocks)) {
		snprintf(err, errlen, "ioengine=libpmem: with fsync= or fdatasync= the block size "
			 "must be a multiple of the page size (%llu bytes); bs=%llu is not",
			 (unsigned long long)page, (unsigned long long)min_bs);
		return -EINVAL;
	}
	c->sync = job->sync != SYNC_NONE;
	c->flags = (c->sync ? 0 : PMEM_F_MEM_NODRAIN) |
		   (job->direct ? PMEM_F_MEM_NONTEMPORAL : PMEM_F_MEM_TEMPORAL);
	return 0;
}

/* The mapping of u's file, made on its first I/O: the whole file. */
static int unit_map(struct libpmem_ctx *c, const struct io_unit *u, struct pmap **out)
{
	struct pmap *m;
	struct stat st;
	int prot = PROT_READ, fl;

	if (u->file_idx >= c->nr_maps) {
		size_t n = (size_t)u->file_idx + 16;
		struct pmap *p = realloc(c->maps, n * sizeof(*p));

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
		munmap(m->p, m->len);	/* another fd on the file: map that one */
	m->p = NULL;
	m->fd = u->fd;
	if (fstat(u->fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || !st.st_size)
		return -EINVAL;
	m->len = (size_t)st.st_size;
	fl = fcntl(u->fd, F_GETFL);
	m->writable = fl >= 0 && (fl & O_ACCMODE) == O_RDWR;
	if (m->writable)
		prot |= PROT_WRITE;
	/* MAP_SYNC is granted only on a DAX file: then the CPU's flushes are enough */
	m->p = mmap(NULL, m->len, prot, MAP_SHARED_VALIDATE | MAP_SYNC, u->fd, 0);
	m->pmem = m->p != MAP_FAILED;
	if (m->p == MAP_FAILED)
		m->p = mmap(NULL, m->len, prot, MAP_SHARED, u->fd, 0);
	if (m->p == MAP_FAILED) {
		m->p = NULL;
		return -errno;
	}
	if (!m->pmem)
		m->pmem = pmem_is_pmem(m->p, m->len);
	return 0;
}

static void copy_pmem(void *dst, const void *src, size_t len, void *arg)
{
	pmem_memcpy(dst, src, len, *(const unsigned *)arg);
}

static int libpmem_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct libpmem_ctx *c = (struct libpmem_ctx *)ctx;
	struct pmap *m;
	size_t len;
	char *at;
	int ret = unit_map(c, u, &m);

	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir == DDIR_SYNC) {
		if (m->pmem) {
			pmem_drain();
			return engine_sync_done(u, 0);
		}
		return engine_sync_done(u, pmem_msync(m->p, m->len) ? -errno : 0);
	}
	if (u->ddir != DDIR_READ && u->ddir != DDIR_WRITE)
		return engine_sync_done(u, -EINVAL);	/* no trim on a mapping, as fio's */
	if (u->ddir == DDIR_WRITE && !m->writable)
		return engine_sync_done(u, -EBADF);	/* as write(2) on a read-only fd */
	if (u->offset >= m->len) {
		/* at or past the end of the file: nothing moves, as read(2) there */
		u->error = 0;
		u->resid = u->len;
		return ENGINE_COMPLETED;
	}
	at = (char *)m->p + u->offset;
	len = u->offset + u->len > m->len ? (size_t)(m->len - u->offset) : u->len;
	if (u->ddir == DDIR_READ)
		ret = engine_bus_copy(u->buf, at, len, NULL, NULL);
	else if (m->pmem)
		ret = engine_bus_copy(at, u->buf, len, copy_pmem, &c->flags);
	else if (!(ret = engine_bus_copy(at, u->buf, len, NULL, NULL)) && c->sync)
		ret = pmem_msync(at, len) ? -errno : 0;	/* not pmem: the page cache holds it */
	if (ret)
		return engine_sync_done(u, ret);
	u->error = 0;
	u->resid = u->len - (uint32_t)len;
	return ENGINE_COMPLETED;
}

static void libpmem_cleanup(struct engine_ctx *ctx)
{
	struct libpmem_ctx *c = (struct libpmem_ctx *)ctx;
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr_maps; i++)
		if (c->maps[i].p)
			munmap(c->maps[i].p, c->maps[i].len);
	free(c->maps);
	free(c);
}

const struct io_engine_ops engine_libpmem_ops = {
	.name = "libpmem",
	.flags = ENGINE_F_SYNC | ENGINE_F_MAPS,
	.init = libpmem_init,
	.configure = libpmem_configure,
	.queue = libpmem_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = libpmem_cleanup,
};
