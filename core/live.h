/*
 * live.h - the engine thread's sampler: every tick it reads each worker's
 * published counters and latency histogram, subtracts the previous tick, and
 * pushes per-interval records (core/ring.h) per job and in total, plus one
 * record per device the run touches.
 *
 * Threading contract: a struct live_sampler is used by the engine thread
 * only. It reads workers through their pub_* atomics and relaxed atomic
 * loads of the histogram buckets (each bucket has a single writer).
 */
#ifndef RB_LIVE_H
#define RB_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include "ring.h"

struct worker;
struct live_sampler;

/* Devices: kernel names to follow (the targets' disks, partition parents, md members). */
struct live_sampler *live_sampler_new(struct worker *ws, size_t nr_workers,
				      const char *const *disks, size_t nr_disks);
void live_sampler_free(struct live_sampler *ls);

/*
 * One tick over workers [from, to): pushes LIVE_IO and LIVE_STATUS records per
 * job and for the total, LIVE_DISK per device, then LIVE_TICK_END. t0 is the
 * run's start. Returns the number of workers still running.
 */
unsigned live_sample(struct live_sampler *ls, struct ring *r, size_t from, size_t to,
		     uint64_t t0, uint64_t now);

/* Worker-side helper: single-writer increment that a concurrent reader may load. */
static inline void live_bump(uint64_t *p)
{
	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

#endif
