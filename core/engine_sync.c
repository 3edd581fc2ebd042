/*
 * engine_sync.c - what every synchronous engine shares: a context that holds
 * nothing and the commit/getevents/event ops that never have work, since
 * such engines finish each unit inside queue() (ENGINE_F_SYNC).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"

/* a context must be a real pointer: the worker treats NULL as "no engine yet" */
struct engine_ctx {
	char unused;
};

int engine_sync_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen)
{
	*ctx = calloc(1, sizeof(**ctx));
	if (!*ctx) {
		snprintf(err, errlen, "cannot allocate an engine context");
		return -ENOMEM;
	}
	return 0;
}

int engine_sync_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	return 0;
}

int engine_sync_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	return 0;
}

struct io_unit *engine_sync_event(struct engine_ctx *ctx, unsigned i)
{
	return NULL;
}

void engine_sync_cleanup(struct engine_ctx *ctx)
{
	free(ctx);
}

int engine_sync_done(struct io_unit *u, int ret)
{
	u->error = ret < 0 ? -ret : 0;
	u->resid = ret < 0 ? u->len : 0;
	return ENGINE_COMPLETED;
}

int engine_once_first(struct engine_once *o, unsigned idx)
{
	if (idx / 8 >= o->len) {
		size_t len = o->len ? o->len : 64;
		uint8_t *bits;

		while (idx / 8 >= len)
			len *= 2;
		bits = realloc(o->bits, len);
		if (!bits)
			return -ENOMEM;
		memset(bits + o->len, 0, len - o->len);
		o->bits = bits;
		o->len = len;
	}
	if (o->bits[idx / 8] & (1u << (idx % 8)))
		return 0;
	o->bits[idx / 8] |= (uint8_t)(1u << (idx % 8));
	return 1;
}

void engine_once_release(struct engine_once *o)
{
	free(o->bits);
	o->bits = NULL;
	o->len = 0;
}
