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
#include "engine_mapwin.h"
#include "job.h"

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

struct libpmem_ctx {
	unsigned flags;		/* pmem_memcpy's, from direct= and sync= */
	bool sync;		/* sync=: every write is made durable before it completes */
	struct mapwin_table maps;
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
	int ret = mapwin_check_bs(job, "libpmem", err, errlen);

	if (ret)
		return ret;
	c->sync = job->sync != SYNC_NONE;
	c->flags = (c->sync ? 0 : PMEM_F_MEM_NODRAIN) |
		   (job->direct ? PMEM_F_MEM_NONTEMPORAL : PMEM_F_MEM_TEMPORAL);
	return 0;
}

/* A window is the whole regular file. */
static int libpmem_win_size(int fd, const struct stat *st, const char *path, uint64_t *bytes)
{
	if (!S_ISREG(st->st_mode) || !st->st_size)
		return -EINVAL;
	*bytes = (uint64_t)st->st_size;
	return 0;
}

static void libpmem_win_map(struct mapwin *w, int fd, int prot)
{
	/* MAP_SYNC is granted only on a DAX file: then the CPU's flushes are enough */
	w->p = mmap(NULL, w->len, prot, MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	w->pmem = w->p != MAP_FAILED;
	if (w->p == MAP_FAILED)
		w->p = mmap(NULL, w->len, prot, MAP_SHARED, fd, 0);
	if (w->p != MAP_FAILED && !w->pmem)
		w->pmem = pmem_is_pmem(w->p, w->len);
}

/* libpmem maps files (pmem_map_file refuses anything else, as fio shows): say so at setup */
static int libpmem_check_target(const char *path, const struct stat *st, char *err,
				size_t errlen)
{
	if (S_ISREG(st->st_mode))
		return 0;
	snprintf(err, errlen, "ioengine=libpmem cannot use %s: it is a %s, and libpmem maps "
		 "regular files (on a DAX file system for persistent memory); for a pmem device "
		 "use a file on a DAX-mounted file system on it, or ioengine=dev-dax on its "
		 "/dev/daxN.M", path, S_ISBLK(st->st_mode) ? "block device" :
		 S_ISCHR(st->st_mode) ? "character device" : S_ISDIR(st->st_mode) ? "directory" :
		 "special file");
	return -EINVAL;
}

static const struct mapwin_ops libpmem_win = { .size = libpmem_win_size,
					       .map = libpmem_win_map };

static void copy_pmem(void *dst, const void *src, size_t len, void *arg)
{
	pmem_memcpy(dst, src, len, *(const unsigned *)arg);
}

static int libpmem_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct libpmem_ctx *c = (struct libpmem_ctx *)ctx;
	struct mapwin *m;
	size_t len;
	char *at;
	int ret = mapwin_get(&c->maps, u, &libpmem_win, &m);

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
	at = mapwin_at(m, u, &len);
	if (!at)
		return mapwin_done(u, 0);	/* at or past the end: nothing moves, as read(2) */
	if (u->ddir == DDIR_READ)
		ret = engine_bus_copy(u->buf, at, len, NULL, NULL);
	else if (m->pmem)
		ret = engine_bus_copy(at, u->buf, len, copy_pmem, &c->flags);
	else if (!(ret = engine_bus_copy(at, u->buf, len, NULL, NULL)) && c->sync)
		ret = pmem_msync(at, len) ? -errno : 0;	/* not pmem: the page cache holds it */
	if (ret)
		return engine_sync_done(u, ret);
	return mapwin_done(u, len);
}

static void libpmem_cleanup(struct engine_ctx *ctx)
{
	struct libpmem_ctx *c = (struct libpmem_ctx *)ctx;

	if (!c)
		return;
	mapwin_free(&c->maps);
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
	.check_target = libpmem_check_target,
};
