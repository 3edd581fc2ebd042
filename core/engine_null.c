/*
 * engine_null.c - ioengine=null: moves no data, completes everything at
 * once. It measures raidbench's own per-I/O cost, so it must do as little
 * as fio's engines/null.c and never allocate or make a syscall per I/O.
 *
 * At depth 1 queue() completes on the spot (fio's FIO_SYNCIO shortcut);
 * deeper, queue() holds units, commit() "submits" them all and getevents()
 * hands them back at once, oldest first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "engine.h"

struct null_ctx {
	unsigned depth;
	unsigned head;		/* oldest unit in ring[] */
	unsigned nr_done;	/* committed: ring[head .. head + nr_done) */
	unsigned nr_held;	/* queued after those, not yet committed */
	unsigned ev_base;	/* ring index of event(0) of the last getevents() */
	struct io_unit *ring[];
};

static inline struct null_ctx *to_null(struct engine_ctx *ctx)
{
	return (struct null_ctx *)ctx;
}

/* depth need not be a power of two, so wrap by subtraction, never by modulo */
static inline unsigned null_slot(const struct null_ctx *n, unsigned i)
{
	return i >= n->depth ? i - n->depth : i;
}

static int null_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen)
{
	struct null_ctx *n;

	if (!depth)
		depth = 1;
	n = calloc(1, sizeof(*n) + depth * sizeof(n->ring[0]));
	if (!n) {
		snprintf(err, errlen, "null: cannot allocate a context for depth %u", depth);
		return -ENOMEM;
	}
	n->depth = depth;
	*ctx = (struct engine_ctx *)n;
	return 0;
}

static int null_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct null_ctx *n = to_null(ctx);

	u->error = 0;
	u->resid = 0;
	if (n->depth == 1)
		return ENGINE_COMPLETED;
	if (n->nr_done + n->nr_held >= n->depth)
		return ENGINE_BUSY;
	n->ring[null_slot(n, n->head + n->nr_done + n->nr_held)] = u;
	n->nr_held++;
	return ENGINE_QUEUED;
}

static int null_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	struct null_ctx *n = to_null(ctx);
	unsigned i, nr = n->nr_held;

	if (!nr)
		return 0;
	if (clock) {
		uint64_t now = clock();

		for (i = 0; i < nr; i++)
			n->ring[null_slot(n, n->head + n->nr_done + i)]->issue_ns = now;
	}
	n->nr_done += nr;
	n->nr_held = 0;
	return (int)nr;
}

static int null_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct null_ctx *n = to_null(ctx);
	unsigned nr = n->nr_done < max ? n->nr_done : max;

	n->ev_base = n->head;
	n->head = null_slot(n, n->head + nr);
	n->nr_done -= nr;
	return (int)nr;
}

static struct io_unit *null_event(struct engine_ctx *ctx, unsigned i)
{
	struct null_ctx *n = to_null(ctx);

	return n->ring[null_slot(n, n->ev_base + i)];
}

static void null_cleanup(struct engine_ctx *ctx)
{
	free(ctx);
}

const struct io_engine_ops engine_null_ops = {
	.name = "null",
	.flags = ENGINE_F_NODATA | ENGINE_F_SETS_ISSUE | ENGINE_F_SYNC_AT_DEPTH1,
	.init = null_init,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.event = null_event,
	.cleanup = null_cleanup,
};
