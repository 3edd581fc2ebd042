/*
 * engine_pmemblk.c - ioengine=pmemblk: a libpmemblk pool (an array of
 * atomically updated blocks in a file on persistent memory), read and
 * written a block at a time with pmemblk_read/pmemblk_write, as fio's
 * pmemblk engine. fio's file name syntax: filename=PATH[,BSIZE,MiB] creates
 * a missing pool with BSIZE-byte blocks in a MiB-sized file; the job's
 * region is the pool's usable blocks. Every write is durable when it
 * completes (direct= and sync= change nothing).
 *
 * A pool can be opened once per process (libpmemblk locks its file), so
 * every job and clone naming it shares one handle, counted, closed with the
 * last (and unlinked then if a job asked for unlink=1). Pools are opened by
 * name at setup (target_open), after the write guard has heard the path.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libpmemblk.h>
#include "engine.h"
#include "guard.h"
#include "job.h"

struct pool {
	struct pool *next;
	char *path;
	PMEMblkpool *pbp;
	size_t bsize;
	size_t nblocks;
	unsigned refs;
	bool unlink;		/* a job holding it asked for unlink=1 */
};

/* The pools open in this process; pools_lock guards the list and every refs. */
static struct pool *pools;
static pthread_mutex_t pools_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * fio's "path,bsize,fsizemib": the last two comma-separated numbers when both
 * are non-zero, else the whole spec is the path. Returns the path (caller
 * frees) or NULL for no memory.
 */
static char *parse_spec(const char *spec, uint64_t *bsize, uint64_t *fsize)
{
	char *path = strdup(spec), *c1, *c2, *end;
	unsigned long long b, mib;

	*bsize = *fsize = 0;
	if (!path)
		return NULL;
	c2 = strrchr(path, ',');
	if (!c2)
		return path;
	*c2 = '\0';
	c1 = strrchr(path, ',');
	*c2 = ',';
	if (!c1)
		return path;
	b = strtoull(c1 + 1, &end, 10);
	if (end != c2 || !b)
		return path;
	mib = strtoull(c2 + 1, &end, 10);
	if (*end || !mib || mib > (UINT64_MAX >> 20))
		return path;
	*c1 = '\0';
	*bsize = b;
	*fsize = (uint64_t)mib << 20;
	return path;
}

static int pmemblk_target_open(const char *spec, const struct job_spec *job,
			       const struct guard_consent *consent, void **target,
			       uint64_t *bytes, unsigned *lbs, char *err, size_t errlen)
{
	uint64_t bsize, fsize;
	char *path = parse_spec(spec, &bsize, &fsize);
	struct pool *p;
	int ret;

	if (!path) {
		snprintf(err, errlen, "pmemblk: out of memory");
		return -ENOMEM;
	}
	if (consent && consent->readonly) {
		snprintf(err, errlen, "%s: --readonly: libpmemblk opens a pool only for writing "
			 "(it may write the pool's metadata even for reads)", path);
		free(path);
		return -EPERM;
	}
	/* the pool is opened for writing and may be created: the guard hears it first */
	ret = guard_check_write(path, consent, err, errlen);
	if (ret) {
		free(path);
		return ret;
	}
	pthread_mutex_lock(&pools_lock);
	for (p = pools; p && strcmp(p->path, path); p = p->next)
		;
	if (!p) {
		PMEMblkpool *pbp = pmemblk_open(path, (size_t)bsize);

		if (!pbp && errno == ENOENT && bsize && fsize)
			pbp = pmemblk_create(path, (size_t)bsize, (size_t)fsize, 0644);
		if (!pbp) {
			ret = -errno;
			if (errno == ENOENT && !fsize)
				snprintf(err, errlen, "%s does not exist; to create the pool name its "
					 "block size and size in MiB: filename=%s,4096,1024", path,
					 path);
			else
				snprintf(err, errlen, "pmemblk: cannot %s the pool %s: %s",
					 errno == ENOENT ? "create" : "open", path,
					 pmemblk_errormsg());
			pthread_mutex_unlock(&pools_lock);
			free(path);
			return ret ? ret : -EIO;
		}
		p = calloc(1, sizeof(*p));
		if (!p) {
			pmemblk_close(pbp);
			pthread_mutex_unlock(&pools_lock);
			free(path);
			snprintf(err, errlen, "pmemblk: out of memory");
			return -ENOMEM;
		}
		p->path = path;
		path = NULL;
		p->pbp = pbp;
		p->bsize = pmemblk_bsize(pbp);
		p->nblocks = pmemblk_nblock(pbp);
		p->next = pools;
		pools = p;
	}
	p->refs++;
	pthread_mutex_unlock(&pools_lock);
	free(path);
	*target = p;
	*bytes = (uint64_t)p->bsize * p->nblocks;
	*lbs = (unsigned)p->bsize;
	(void)job;
	return 0;
}

static void pmemblk_target_close(void *target, bool unlink_it)
{
	struct pool *p = target, **pp;

	pthread_mutex_lock(&pools_lock);
	p->unlink |= unlink_it;
	if (--p->refs) {
		pthread_mutex_unlock(&pools_lock);
		return;
	}
	for (pp = &pools; *pp != p; pp = &(*pp)->next)
		;
	*pp = p->next;
	pthread_mutex_unlock(&pools_lock);
	pmemblk_close(p->pbp);
	if (p->unlink)
		unlink(p->path);
	free(p->path);
	free(p);
}

static int pmemblk_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct pool *p = u->target;
	uint64_t blk, n, done;
	char *buf = u->buf;

	if (u->ddir == DDIR_SYNC)
		return engine_sync_done(u, 0);	/* every block write is durable already */
	if ((u->ddir != DDIR_READ && u->ddir != DDIR_WRITE) || !p)
		return engine_sync_done(u, -EINVAL);
	/* whole blocks inside the pool only, as fio's */
	if (u->offset % p->bsize || u->len % p->bsize ||
	    (u->offset + u->len) / p->bsize > p->nblocks)
		return engine_sync_done(u, -EINVAL);
	blk = u->offset / p->bsize;
	n = u->len / p->bsize;
	for (done = 0; done < n; done++, buf += p->bsize) {
		int r = u->ddir == DDIR_READ ? pmemblk_read(p->pbp, buf, (long long)(blk + done))
					     : pmemblk_write(p->pbp, buf, (long long)(blk + done));

		if (r) {
			u->error = errno ? errno : EIO;
			u->resid = (uint32_t)((n - done) * p->bsize);
			return ENGINE_COMPLETED;
		}
	}
	u->error = 0;
	u->resid = 0;
	return ENGINE_COMPLETED;
}

const struct io_engine_ops engine_pmemblk_ops = {
	.name = "pmemblk",
	.flags = ENGINE_F_SYNC,
	.init = engine_sync_init,
	.queue = pmemblk_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = engine_sync_cleanup,
	.target_open = pmemblk_target_open,
	.target_close = pmemblk_target_close,
};
