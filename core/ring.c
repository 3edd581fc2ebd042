/*
 * ring.c - the SPSC ring of live records. Release/acquire pairs only, no
 * standalone fences, so ThreadSanitizer can check every one of them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

int ring_init_at(struct ring *r, uint32_t capacity, uint32_t start)
{
	memset(r, 0, sizeof(*r));
	if (capacity < 2 || (capacity & (capacity - 1)))
		return -EINVAL;
	r->p_slots = aligned_alloc(RB_CACHELINE, (size_t)capacity * sizeof(*r->p_slots));
	if (!r->p_slots)
		return -ENOMEM;
	r->c_slots = r->p_slots;
	r->p_mask = r->c_mask = capacity - 1;
	atomic_init(&r->head, start);
	atomic_init(&r->tail, start);
	r->p_head = r->tail_cache = start;
	r->c_tail = r->head_cache = start;
	atomic_init(&r->dropped_pub, 0);
	return 0;
}

int ring_init(struct ring *r, uint32_t capacity)
{
	return ring_init_at(r, capacity, 0);
}

void ring_release(struct ring *r)
{
	free(r->p_slots);
	r->p_slots = r->c_slots = NULL;
}

static void count_drops(struct ring *r, uint32_t n)
{
	r->dropped += n;
	atomic_store_explicit(&r->dropped_pub, r->dropped, memory_order_relaxed);
}

bool ring_push(struct ring *r, const struct live_rec *rec)
{
	struct live_rec *slot;

	if (!ring_reserve(r, &slot, 1)) {
		count_drops(r, 1);
		return false;
	}
	*slot = *rec;
	ring_commit(r, 1);
	return true;
}

uint32_t ring_push_batch(struct ring *r, const struct live_rec *recs, uint32_t n)
{
	struct live_rec *slots;
	uint32_t k = 0, got;

	/* at most two runs: up to the end of the array, then from its start */
	while (k < n && (got = ring_reserve(r, &slots, n - k)) > 0) {
		memcpy(slots, recs + k, (size_t)got * sizeof(*recs));
		r->p_head += got;
		k += got;
	}
	if (k < n)
		count_drops(r, n - k);
	if (k)
		ring_commit(r, 0);	/* one store publishes the whole batch */
	return k;
}

uint32_t ring_pop_batch(struct ring *r, struct live_rec *out, uint32_t max)
{
	const struct live_rec *recs;
	uint32_t n = 0, got;

	while (n < max && (got = ring_peek(r, &recs, max - n)) > 0) {
		memcpy(out + n, recs, (size_t)got * sizeof(*out));
		r->c_tail += got;
		n += got;
	}
	if (n)
		ring_consume(r, 0);	/* one store frees the whole batch */
	return n;
}

uint64_t ring_dropped(struct ring *r)
{
	return atomic_load_explicit(&r->dropped_pub, memory_order_relaxed);
}
