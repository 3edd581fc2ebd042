/*
 * ring.h - single-producer/single-consumer lock-free ring of fixed-size
 * records: the engine thread pushes live records, the UI (or the headless
 * runner) pops them.
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

#define RB_CACHELINE 64

enum live_type {
	LIVE_IO = 1,		/* one job (or the total) in one direction, one interval */
	LIVE_STATUS,		/* one job (or the total): phase, depth, errors, progress */
	LIVE_DISK,		/* one device the run touches, one interval */
	LIVE_TICK_END,		/* closes the records of one tick */
	LIVE_ERROR,		/* a job failed; text in the worker's error, job says which */
	LIVE_END,		/* the run is over */
};

#define LIVE_TOTAL 0xffffu

/* A record: one cache line. */
struct live_rec {
	uint32_t seq;		/* producer's sequence number, gaps = drops */
	uint8_t type;		/* enum live_type */
	uint8_t ddir;		/* LIVE_IO: enum rb_ddir; LIVE_STATUS: phase */
	uint16_t job;		/* worker index or LIVE_TOTAL; LIVE_DISK: device index */
	uint64_t t_ns;		/* elapsed since the run started, at the sample */
	union {
		struct {
			uint32_t ios;		/* completed in the interval */
			uint32_t max_ns;	/* interval max completion latency (bucket value) */
			uint64_t bytes;
			uint64_t tot_ios;	/* cumulative, exact even after drops */
			uint64_t tot_bytes;
			uint32_t mean_ns;	/* interval mean completion latency */
			uint32_t p50_ns;
			uint32_t p99_ns;
			uint32_t p999_ns;
		} io;
		struct {
			uint32_t running;	/* workers not done (total) or 1/0 */
			uint32_t inflight;
			uint64_t errors;
			uint64_t eta_s;
			uint64_t interval_ns;
			float percent;
			uint32_t ramp;		/* workers in ramp */
			uint64_t drops;		/* records the ring dropped so far */
		} st;
		struct {
			uint32_t r_ios, w_ios;		/* interval completions */
			uint32_t r_sectors, w_sectors;
			uint32_t r_ticks, w_ticks;	/* ms spent by completed I/Os */
			uint32_t io_ticks;		/* ms busy */
			uint32_t queue_ticks;		/* weighted ms in queue */
			uint32_t interval_ms;
			uint32_t util_meaningful;	/* 0 for NVMe and RAID volumes */
			char name[8];			/* short name; full names in the run result */
		} disk;
		uint8_t raw[48];
	} u;
};

_Static_assert(sizeof(struct live_rec) == RB_CACHELINE, "a live record is one cache line");

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
