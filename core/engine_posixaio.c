/*
 * engine_posixaio.c - ioengine=posixaio: POSIX asynchronous I/O (aio_read,
 * aio_write, aio_fsync), as fio's engine of that name. queue() submits at
 * once (there is no batch call in POSIX AIO); getevents() polls the units in
 * flight with aio_error and sleeps in aio_suspend until enough are done.
 *
 * Trims are not a POSIX AIO operation: they are done on the spot with a
 * hole punch, as the sync engines do.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate, FALLOC_FL_* */
#endif
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "job.h"

struct posixaio_ctx {
	unsigned depth;
	struct aiocb *cbs;		/* one per unit, by unit index */
	struct io_unit **flight;	/* units submitted and not yet reaped */
	unsigned nr_flight;
	unsigned submitted;		/* since the last commit(), for the worker's count */
	struct io_unit **done;		/* reaped by the last getevents() */
	unsigned nr_done;
	const struct aiocb **wait;	/* aio_suspend's list */
};

static inline struct posixaio_ctx *to_paio(struct engine_ctx *ctx)
{
	return (struct posixaio_ctx *)ctx;
}

static void paio_cleanup(struct engine_ctx *ctx)
{
	struct posixaio_ctx *p = to_paio(ctx);

	if (!p)
		return;
	/* a unit still in flight must not land in a buffer that is about to go */
	while (p->nr_flight) {
		struct io_unit *u = p->flight[--p->nr_flight];

		if (aio_cancel(u->fd, &p->cbs[u->idx]) == AIO_NOTCANCELED) {
			const struct aiocb *one[1] = { &p->cbs[u->idx] };

			while (aio_error(one[0]) == EINPROGRESS)
				aio_suspend(one, 1, NULL);
		}
	}
	free(p->cbs);
	free(p->flight);
	free(p->done);
	free(p->wait);
	free(p);
}

static int paio_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen)
{
	struct posixaio_ctx *p = calloc(1, sizeof(*p));

	if (p) {
		p->depth = nr_units > depth ? nr_units : depth;
		p->cbs = calloc(p->depth, sizeof(*p->cbs));
		p->flight = calloc(p->depth, sizeof(*p->flight));
		p->done = calloc(p->depth, sizeof(*p->done));
		p->wait = calloc(p->depth, sizeof(*p->wait));
	}
	if (!p || !p->cbs || !p->flight || !p->done || !p->wait) {
		paio_cleanup((struct engine_ctx *)p);
		snprintf(err, errlen, "posixaio: cannot allocate %u control blocks", depth);
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)p;
	return 0;
}

/* A trim, or a failed submission: the unit is complete now. */
static int complete_now(struct io_unit *u, int r)
{
	u->error = r < 0 ? errno : 0;
	u->resid = r < 0 ? u->len : 0;
	return ENGINE_COMPLETED;
}

static int paio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct posixaio_ctx *p = to_paio(ctx);
	struct aiocb *cb = &p->cbs[u->idx];
	int r;

	if (u->ddir == DDIR_TRIM)
		return complete_now(u, fallocate(u->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
						 (off_t)u->offset, (off_t)u->len));
	if (p->nr_flight == p->depth)
		return ENGINE_BUSY;
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = u->fd;
	cb->aio_buf = u->buf;
	cb->aio_nbytes = u->len;
	cb->aio_offset = (off_t)u->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	if (u->ddir == DDIR_READ)
		r = aio_read(cb);
	else if (u->ddir == DDIR_WRITE)
		r = aio_write(cb);
	else
		r = aio_fsync(u->datasync ? O_DSYNC : O_SYNC, cb);
	if (r < 0) {
		/* EAGAIN: the library's queue is full; reap and come back */
		if (errno == EAGAIN && p->nr_flight)
			return ENGINE_BUSY;
		return complete_now(u, -1);
	}
	p->flight[p->nr_flight++] = u;
	p->submitted++;
	return ENGINE_QUEUED;
}

static int paio_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	struct posixaio_ctx *p = to_paio(ctx);
	int n = (int)p->submitted;

	/* queue() submitted already: this only reports how many went */
	p->submitted = 0;
	return n;
}

/* Moves every finished unit from the flight list to the done list. */
static void collect(struct posixaio_ctx *p, unsigned max)
{
	unsigned i = 0;

	while (i < p->nr_flight && p->nr_done < max) {
		struct io_unit *u = p->flight[i];
		struct aiocb *cb = &p->cbs[u->idx];
		int e = aio_error(cb);
		ssize_t r;

		if (e == EINPROGRESS) {
			i++;
			continue;
		}
		r = aio_return(cb);
		u->error = e;
		if (e || r < 0)
			u->resid = u->len;
		else
			u->resid = u->ddir == DDIR_SYNC || (size_t)r >= u->len ? 0
									 : u->len - (uint32_t)r;
		p->done[p->nr_done++] = u;
		p->flight[i] = p->flight[--p->nr_flight];
	}
}

static int paio_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct posixaio_ctx *p = to_paio(ctx);

	p->nr_done = 0;
	if (min > p->nr_flight)
		min = p->nr_flight;
	for (;;) {
		unsigned i;

		collect(p, max);
		if (p->nr_done >= min || !p->nr_flight)
			return (int)p->nr_done;
		for (i = 0; i < p->nr_flight; i++)
			p->wait[i] = &p->cbs[p->flight[i]->idx];
		if (aio_suspend(p->wait, (int)p->nr_flight, NULL) < 0 && errno != EINTR &&
		    errno != EAGAIN)
			return -errno;
	}
}

static struct io_unit *paio_event(struct engine_ctx *ctx, unsigned i)
{
	return to_paio(ctx)->done[i];
}

const struct io_engine_ops engine_posixaio_ops = {
	.name = "posixaio",
	.flags = 0,
	.init = paio_init,
	.queue = paio_queue,
	.commit = paio_commit,
	.getevents = paio_getevents,
	.event = paio_event,
	.cleanup = paio_cleanup,
};
