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
	r->slots = aligned_alloc(RB_CACHELINE, (size_t)capacity * sizeof(*r->slots));
	if (!r->slots)
		return -ENOMEM;
	r->mask = capacity - 1;
	atomic_init(&r->head, start);
	atomic_init(&r->tail, start);
	r->tail_cache = start;
	r->head_cache = start;
	atomic_init(&r->dropped_pub, 0);
	return 0;
}

int ring_init(struct ring *r, uint32_t capacity)
{
	return ring_init_at(r, capacity, 0);
}

void ring_release(struct ring *r)
{
	free(r->slots);
	r->slots = NULL;
}

bool ring_push(struct ring *r, const struct live_rec *rec)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	if (head - r->tail_cache > r->mask) {
		/* pairs with the release store of tail in ring_pop_batch: the slot is free */
		r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (head - r->tail_cache > r->mask) {
			r->dropped++;
			atomic_store_explicit(&r->dropped_pub, r->dropped, memory_order_relaxed);
			return false;
		}
	}
	r->slots[head & r->mask] = *rec;
	/* pairs with the acquire load of head in ring_pop_batch: the record is visible */
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return true;
}

uint32_t ring_push_batch(struct ring *r, const struct live_rec *recs, uint32_t n)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint32_t room = r->mask + 1 - (head - r->tail_cache), k, idx, first;

	if (room < n) {
		/* pairs with the release store of tail in ring_pop_batch: the slots are free */
		r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
		room = r->mask + 1 - (head - r->tail_cache);
	}
	k = n < room ? n : room;
	if (k < n) {
		r->dropped += n - k;
		atomic_store_explicit(&r->dropped_pub, r->dropped, memory_order_relaxed);
	}
	if (!k)
		return 0;
	idx = head & r->mask;
	first = r->mask + 1 - idx;
	if (first > k)
		first = k;
	memcpy(&r->slots[idx], recs, (size_t)first * sizeof(*recs));
	memcpy(&r->slots[0], recs + first, (size_t)(k - first) * sizeof(*recs));
	/* pairs with the acquire load of head in ring_pop_batch: the records are visible */
	atomic_store_explicit(&r->head, head + k, memory_order_release);
	return k;
}

uint32_t ring_pop_batch(struct ring *r, struct live_rec *out, uint32_t max)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint32_t avail = r->head_cache - tail, n, first, idx;

	if (avail < max) {
		/* pairs with the release store of head in ring_push */
		r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
		avail = r->head_cache - tail;
	}
	n = avail < max ? avail : max;
	if (!n)
		return 0;
	idx = tail & r->mask;
	first = r->mask + 1 - idx;
	if (first > n)
		first = n;
	memcpy(out, &r->slots[idx], (size_t)first * sizeof(*out));
	memcpy(out + first, &r->slots[0], (size_t)(n - first) * sizeof(*out));
	/* pairs with the acquire load of tail in ring_push: the slots may be reused */
	atomic_store_explicit(&r->tail, tail + n, memory_order_release);
	return n;
}

uint64_t ring_dropped(struct ring *r)
{
	return atomic_load_explicit(&r->dropped_pub, memory_order_relaxed);
}
