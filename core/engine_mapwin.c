/*
 * engine_mapwin.c - the mapping table shared by the mmap, libpmem and
 * dev-dax engines: grow by file index, map the whole file on first use,
 * remap when the unit's fd is not the mapped one, clip an I/O to the
 * window, unmap everything at cleanup.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "engine_mapwin.h"
#include "grow.h"
#include "job.h"

int mapwin_get(struct mapwin_table *t, const struct io_unit *u, const struct mapwin_ops *ops,
	       struct mapwin **out)
{
	struct mapwin *w;
	struct stat st;
	uint64_t bytes;
	int prot = PROT_READ, fl, ret;

	if (grow_to_index(&t->w, &t->nr, u->file_idx, sizeof(*t->w)))
		return -ENOMEM;
	w = &t->w[u->file_idx];
	*out = w;
	if (w->p && w->fd == u->fd)
		return 0;
	if (w->p)
		munmap(w->p, w->len);	/* another fd on the file: map that one */
	w->p = NULL;
	w->fd = u->fd;
	w->pmem = false;
	if (fstat(u->fd, &st) < 0)
		return -errno;
	ret = ops->size(u->fd, &st, u->path, &bytes);
	if (ret)
		return ret;
	if (bytes > SIZE_MAX)
		return -EFBIG;	/* a 32-bit address space cannot hold it whole */
	w->len = (size_t)bytes;
	fl = fcntl(u->fd, F_GETFL);
	w->writable = fl >= 0 && (fl & O_ACCMODE) == O_RDWR;
	if (w->writable)
		prot |= PROT_WRITE;
	if (ops->map)
		ops->map(w, u->fd, prot);
	else
		w->p = mmap(NULL, w->len, prot, MAP_SHARED, u->fd, 0);
	if (w->p == MAP_FAILED) {
		w->p = NULL;
		return -errno;
	}
	return 0;
}

char *mapwin_at(const struct mapwin *w, const struct io_unit *u, size_t *len)
{
	if (u->offset >= w->len)
		return NULL;
	/* over the end of the file: a short transfer */
	*len = u->offset + u->len > w->len ? (size_t)(w->len - u->offset) : u->len;
	return (char *)w->p + u->offset;
}

int mapwin_done(struct io_unit *u, size_t moved)
{
	u->error = 0;
	u->resid = u->len - (uint32_t)moved;
	return ENGINE_COMPLETED;
}

int mapwin_check_bs(const struct job_spec *job, const char *engine, char *err, size_t errlen)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), min_bs = UINT64_MAX;
	unsigned d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (job->bs[d] && job->bs[d] < min_bs)
			min_bs = job->bs[d];
	/* fio's rule: a sync every N blocks covers whole pages of the mapping */
	if (min_bs % page && (job->fsync_blocks || job->fdatasync_blocks)) {
		snprintf(err, errlen, "ioengine=%s: with fsync= or fdatasync= the block size "
			 "must be a multiple of the page size (%llu bytes); bs=%llu is not",
			 engine, (unsigned long long)page, (unsigned long long)min_bs);
		return -EINVAL;
	}
	return 0;
}

void mapwin_free(struct mapwin_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (t->w[i].p)
			munmap(t->w[i].p, t->w[i].len);
	free(t->w);
	t->w = NULL;
	t->nr = 0;
}
