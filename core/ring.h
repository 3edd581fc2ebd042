/*
 * ring.h - single-producer/single-consumer lock-free ring of fixed-size
 * records: the engine thread pushes live records (their layout is
 * core/live_rec.h), the UI (or the headless runner) pops them.
 *
 * Threading contract: exactly one producer thread calls ring_push(); exactly
 * one consumer thread calls ring_pop()/ring_pop_batch(). No locking is needed
 * for one reader and one writer. ring_dropped() and ring_count() may be
 * called from either side. The producer never waits: a full ring drops the
 * record and counts it.
 *
 * Indices run free (uint32_t, wrapping) and are masked on access, so the ring
 * holds exactly `capacity` records. Head (producer) and tail (consumer) live
 * on separate cache lines; each side caches the other's index and reloads it
 * only when the cached value says full (producer) or empty (consumer).
 */
#ifndef RB_RING_H
#define RB_RING_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "live_rec.h"

struct ring {
	/* producer side */
	alignas(RB_CACHELINE) _Atomic uint32_t head;
	uint32_t tail_cache;		/* producer's view of tail */
	uint64_t dropped;		/* written by the producer only */
	_Atomic uint64_t dropped_pub;
	/* consumer side */
	alignas(RB_CACHELINE) _Atomic uint32_t tail;
	uint32_t head_cache;		/* consumer's view of head */
	/* shared, read-only after init */
	alignas(RB_CACHELINE) uint32_t mask;
	struct live_rec *slots;
};

_Static_assert(offsetof(struct ring, tail) - offsetof(struct ring, head) >= RB_CACHELINE,
	       "head and tail on separate cache lines");

/* capacity: a power of two >= 2. Returns 0, -EINVAL or -ENOMEM. */
int ring_init(struct ring *r, uint32_t capacity);
/* The same with both indices starting at start (tests wrap-around near UINT32_MAX). */
int ring_init_at(struct ring *r, uint32_t capacity, uint32_t start);
void ring_release(struct ring *r);

/* Producer: copies rec in; returns false (and counts a drop) when full. */
bool ring_push(struct ring *r, const struct live_rec *rec);

/*
 * Producer: copies up to n records in and publishes them with one index
 * store (a tick's records at once); returns how many went in, the rest are
 * dropped and counted.
 */
uint32_t ring_push_batch(struct ring *r, const struct live_rec *recs, uint32_t n);

/* Consumer: pops up to max records into out; returns how many. */
uint32_t ring_pop_batch(struct ring *r, struct live_rec *out, uint32_t max);

static inline bool ring_pop(struct ring *r, struct live_rec *out)
{
	return ring_pop_batch(r, out, 1) == 1;
}

/* Records dropped because the ring was full (either side may ask). */
uint64_t ring_dropped(struct ring *r);

#endif
