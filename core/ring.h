/*
 * ring.h - single-producer/single-consumer lock-free ring of fixed-size
 * records: the engine thread pushes live records (their layout is
 * core/live_rec.h), the UI (or the headless runner) pops them.
 *
 * Threading contract: exactly one producer thread calls ring_push(),
 * ring_push_batch(), ring_reserve() and ring_commit(); exactly one consumer
 * thread calls ring_pop(), ring_pop_batch(), ring_peek() and ring_consume().
 * No locking is needed for one reader and one writer. ring_dropped() may be
 * called from either side. ring_push never waits: a full ring drops the
 * record and counts it.
 *
 * Indices run free (uint32_t, wrapping) and are masked on access, so the ring
 * holds exactly `capacity` records (a power of two). Four cache lines keep
 * the sides apart: the published head, the producer's own state, the
 * published tail, the consumer's own state. Each side keeps its own index and
 * a cached copy of the other's, so it touches the other side's line only when
 * the cache says full (producer) or empty (consumer), and publishes its index
 * once per batch. ring_reserve/ring_commit and ring_peek/ring_consume move
 * records in place, without a copy through a caller's buffer.
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
	/* published by the producer, read by the consumer when its cache runs dry */
	alignas(RB_CACHELINE) _Atomic uint32_t head;
	_Atomic uint64_t dropped_pub;	/* drops so far, written on a drop only */
	/* the producer's own: never written by the consumer */
	alignas(RB_CACHELINE) uint32_t p_head;	/* next slot to fill */
	uint32_t tail_cache;		/* producer's view of tail */
	uint32_t p_mask;
	uint64_t dropped;
	struct live_rec *p_slots;
	/* published by the consumer, read by the producer when its cache says full */
	alignas(RB_CACHELINE) _Atomic uint32_t tail;
	/* the consumer's own: never written by the producer */
	alignas(RB_CACHELINE) uint32_t c_tail;	/* next slot to read */
	uint32_t head_cache;		/* consumer's view of head */
	uint32_t c_mask;
	struct live_rec *c_slots;
};

_Static_assert(offsetof(struct ring, tail) - offsetof(struct ring, head) >= 2 * RB_CACHELINE,
	       "head, the producer's state and tail on separate cache lines");
_Static_assert(offsetof(struct ring, c_tail) - offsetof(struct ring, tail) >= RB_CACHELINE,
	       "tail and the consumer's state on separate cache lines");

/* Records in a run's live ring (core/run.c); ring_bench measures at this size by default. */
#define RING_LIVE_CAPACITY 4096u

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

/*
 * Producer, in place: points *slots at up to want free slots in a row (fewer
 * at the end of the array or when the ring is nearly full; 0 when full) and
 * returns how many. Nothing is published or counted as dropped until
 * ring_commit(); a caller that finds no room decides whether to wait or drop.
 */
static inline uint32_t ring_reserve(struct ring *r, struct live_rec **slots, uint32_t want)
{
	uint32_t head = r->p_head, idx = head & r->p_mask;
	uint32_t room = r->p_mask + 1 - (head - r->tail_cache), run = r->p_mask + 1 - idx;

	if (room < want) {
		/* pairs with the release store of tail in ring_consume: the slots are free */
		r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
		room = r->p_mask + 1 - (head - r->tail_cache);
	}
	if (want > room)
		want = room;
	if (want > run)
		want = run;
	*slots = &r->p_slots[idx];
	return want;
}

/* Producer: publishes the first n slots of the last ring_reserve() with one store. */
static inline void ring_commit(struct ring *r, uint32_t n)
{
	r->p_head += n;
	/* pairs with the acquire load of head in ring_peek: the records are visible */
	atomic_store_explicit(&r->head, r->p_head, memory_order_release);
}

/*
 * Consumer, in place: points *recs at up to max records in a row (fewer at
 * the end of the array) and returns how many; they stay valid until
 * ring_consume(). Reloads the producer's head only when its cached copy says
 * empty.
 */
static inline uint32_t ring_peek(struct ring *r, const struct live_rec **recs, uint32_t max)
{
	uint32_t tail = r->c_tail, idx = tail & r->c_mask;
	uint32_t avail = r->head_cache - tail, run = r->c_mask + 1 - idx;

	if (!avail) {
		/* pairs with the release store of head in ring_commit/ring_push */
		r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
		avail = r->head_cache - tail;
	}
	if (max > avail)
		max = avail;
	if (max > run)
		max = run;
	*recs = &r->c_slots[idx];
	return max;
}

/* Consumer: frees the first n records of the last ring_peek() for the producer. */
static inline void ring_consume(struct ring *r, uint32_t n)
{
	r->c_tail += n;
	/* pairs with the acquire load of tail in ring_reserve/ring_push: the slots may be reused */
	atomic_store_explicit(&r->tail, r->c_tail, memory_order_release);
}

/* Consumer: pops up to max records into out; returns how many. */
uint32_t ring_pop_batch(struct ring *r, struct live_rec *out, uint32_t max);

static inline bool ring_pop(struct ring *r, struct live_rec *out)
{
	return ring_pop_batch(r, out, 1) == 1;
}

/* Records dropped because the ring was full (either side may ask). */
uint64_t ring_dropped(struct ring *r);

#endif
