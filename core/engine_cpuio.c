/*
 * engine_cpuio.c - ioengine=cpuio: no storage I/O, a CPU load beside the
 * jobs that do some, as fio's cpuio. Each "I/O" busies the CPU for
 * cpuchunks microseconds (cpumode=noop: spinning on the clock; qsort:
 * sorting a 1 MiB array of random numbers, three ways), then sleeps so the
 * busy share is cpuload percent. It counts as a read of no bytes, as in fio.
 * The worker gives it no files (ENGINE_F_DISKLESS); the job needs runtime=.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "clock.h"
#include "engine.h"
#include "job.h"

#define QSORT_N (256 * 1024)	/* int32 values: 1 MiB, as fio's qsort mode */

struct cpuio_ctx {
	unsigned load;		/* percent busy */
	uint64_t chunk_us;	/* busy time per unit; qsort: what one sort pass took */
	bool qsort;
	int32_t *data;
	uint32_t seed;
	uint64_t deadline_ns;	/* the job's end: no idle time reaches past it */
};

static int cmp_up(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_down(const void *a, const void *b)
{
	return cmp_up(b, a);
}

static int cmp_bytes(const void *a, const void *b)
{
	return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

static int cpuio_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		      unsigned nr_units, char *err, size_t errlen)
{
	struct cpuio_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		snprintf(err, errlen, "cpuio: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int cpuio_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			   size_t errlen)
{
	struct cpuio_ctx *c = (struct cpuio_ctx *)ctx;
	size_t i;

	c->load = job->cpuload;
	c->chunk_us = job->cpuchunks_us;
	c->qsort = job->cpumode_qsort;
	/* configure() runs as the job starts: its end is ramp and runtime away */
	c->deadline_ns = rb_now_ns() + (job->ramp_time_us + job->runtime_us) * 1000;
	if (!c->qsort)
		return 0;
	c->data = malloc(QSORT_N * sizeof(*c->data));
	if (!c->data) {
		snprintf(err, errlen, "cpuio: cannot allocate the qsort array");
		return -ENOMEM;
	}
	c->seed = 0x5eed;
	for (i = 0; i < QSORT_N; i++) {
		c->seed = c->seed * 1103515245u + 12345u;
		c->data[i] = (int32_t)c->seed;
	}
	return 0;
}

static int cpuio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct cpuio_ctx *c = (struct cpuio_ctx *)ctx;
	uint64_t t0 = rb_now_ns(), busy_us;

	if (c->qsort) {
		/* sorted up, down, by bytes, down again: fio's pass; its length sets the chunk */
		int step;

		for (step = 0; step < 4 && rb_now_ns() < c->deadline_ns; step++)
			if (step == 2)
				qsort(c->data, QSORT_N * sizeof(*c->data), 1, cmp_bytes);
			else
				qsort(c->data, QSORT_N, sizeof(*c->data), step ? cmp_down : cmp_up);
	} else {
		while (rb_now_ns() - t0 < c->chunk_us * 1000)
			;
	}
	busy_us = (rb_now_ns() - t0) / 1000;
	if (c->load < 100) {
		uint64_t idle = busy_us * (100 - c->load) / c->load, now = rb_now_ns();

		if (now + idle * 1000 > c->deadline_ns)
			idle = now < c->deadline_ns ? (c->deadline_ns - now) / 1000 : 0;
		rb_sleep_ns(idle * 1000ull);
	}
	u->error = 0;
	u->resid = u->len;	/* no bytes: fio's cpuio counts the I/O and nothing moved */
	return ENGINE_COMPLETED;
}

static void cpuio_cleanup(struct engine_ctx *ctx)
{
	struct cpuio_ctx *c = (struct cpuio_ctx *)ctx;

	if (c)
		free(c->data);
	free(c);
}

const struct io_engine_ops engine_cpuio_ops = {
	.name = "cpuio",
	.flags = ENGINE_F_SYNC | ENGINE_F_DISKLESS | ENGINE_F_NOXFER,
	.init = cpuio_init,
	.configure = cpuio_configure,
	.queue = cpuio_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = cpuio_cleanup,
};
