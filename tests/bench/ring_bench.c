/*
 * ring_bench.c - records per second through the live ring (core/ring.h)
 * between two threads, for `make bench` case (f). Not a test: it prints a
 * measurement and fails only if the ring loses or reorders a record.
 *
 * The producer writes sequence-numbered records for a fixed time, a batch at
 * a time, straight into the ring's slots (ring_reserve/ring_commit); when the
 * ring is full it waits for room, so every record is delivered and the rate
 * is the ring's, not the drop path's. The consumer reads them in place in
 * batches (ring_peek/ring_consume) and checks the sequence. "copy" measures
 * the copying calls instead (ring_push_batch from a built batch, as the
 * engine thread does, and ring_pop_batch into a buffer, as the UI does); a
 * full ring there refuses a batch, which is retried. Each thread is pinned to
 * its own CPU when there are two.
 *
 * Consumer modes: "paced" (the default) pauses briefly after a pop that did
 * not fill a batch, as a consumer that drains once per frame does; "spin"
 * pops again at once, so it re-reads the producer's head as soon as it has
 * caught up and the head's cache line bounces between the CPUs on every
 * batch: the worst case.
 *
 * usage: ring_bench [SECONDS [CAPACITY [BATCH [paced|spin [PBATCH [inplace|copy]]]]]]
 *        (defaults 1, RING_LIVE_CAPACITY (a run's live ring, ring.h), 32, paced, 32, inplace)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdalign.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ring.h"

struct bench {
	struct ring ring;
	double seconds;
	uint32_t batch;
	uint32_t pbatch;		/* records the producer publishes at once (a tick's worth) */
	struct live_rec pbuf[64];
	bool spin;			/* consumer mode, see the top of the file */
	_Atomic int stop;		/* producer is done; consumer drains */
	_Atomic int go;			/* both threads are ready */
	uint64_t pushed;		/* producer's count */
	uint64_t full_waits;		/* times the producer found the ring full */
	uint64_t drops;			/* pushes the ring refused (must stay 0) */
	bool copy;			/* ring_push_batch/ring_pop_batch instead of in place */
	uint64_t popped;		/* consumer's count */
	uint64_t bad_seq;		/* records out of order (must stay 0) */
	uint64_t t0_ns, t1_ns;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* On one CPU the consumer cannot run while the producer spins. */
static int ncpu;

static void sched_yield_if_alone(void)
{
	if (ncpu < 2)
		sched_yield();
	else
		cpu_relax();
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (ncpu < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Waits for room: the ring is full, the consumer is behind. */
static uint32_t reserve_wait(struct bench *b, struct live_rec **slots, uint64_t *full)
{
	uint32_t got = ring_reserve(&b->ring, slots, b->pbatch);

	if (got)
		return got;
	(*full)++;
	while (!(got = ring_reserve(&b->ring, slots, b->pbatch)))
		sched_yield_if_alone();
	return got;
}

static void *producer(void *arg)
{
	struct bench *b = arg;
	struct live_rec rec;
	uint64_t end, n = 0, full = 0, drops = 0;
	uint32_t seq = 0;

	pin(0);
	memset(&rec, 0, sizeof(rec));
	rec.type = LIVE_IO;
	while (!atomic_load_explicit(&b->go, memory_order_acquire))
		;
	b->t0_ns = now_ns();
	end = b->t0_ns + (uint64_t)(b->seconds * 1e9);
	for (;;) {
		uint64_t stop = n + 1024;

		/* read the clock once per 1024 records: the clock would dominate */
		while (n < stop) {
			struct live_rec *slots;
			uint32_t k, got;

			if (b->copy) {
				/* the engine thread's way: a tick's records built, then copied in */
				for (k = 0; k < b->pbatch; k++) {
					b->pbuf[k] = rec;
					b->pbuf[k].seq = seq + k;
					b->pbuf[k].u.io.tot_ios = n + k;
				}
				got = ring_push_batch(&b->ring, b->pbuf, b->pbatch);
				if (!got) {
					/* full: the ring counted a drop; wait and retry, every record counts here */
					full++;
					sched_yield_if_alone();
				}
			} else {
				/* in place: written straight into the ring's slots */
				got = reserve_wait(b, &slots, &full);
				for (k = 0; k < got; k++) {
					slots[k] = rec;
					slots[k].seq = seq + k;
					slots[k].u.io.tot_ios = n + k;
				}
				ring_commit(&b->ring, got);
			}
			seq += got;
			n += got;
		}
		if (now_ns() >= end)
			break;
	}
	b->pushed = n;
	b->full_waits = full;
	b->drops = drops;
	/* pairs with the consumer's acquire load of stop: pushed is final */
	atomic_store_explicit(&b->stop, 1, memory_order_release);
	return NULL;
}

static void *consumer(void *arg)
{
	struct bench *b = arg;
	struct live_rec *out = calloc(b->batch, sizeof(*out));
	uint32_t expect = 0;
	uint64_t n = 0, bad = 0;

	if (!out)
		return NULL;
	pin(1);
	/* pairs with the producer's acquire load of go */
	atomic_store_explicit(&b->go, 1, memory_order_release);
	for (;;) {
		const struct live_rec *recs = out;
		uint32_t got, i;

		if (b->copy)
			got = ring_pop_batch(&b->ring, out, b->batch);
		else
			got = ring_peek(&b->ring, &recs, b->batch);
		for (i = 0; i < got; i++) {
			if (recs[i].seq != expect)
				bad++;
			expect = recs[i].seq + 1;
		}
		if (got && !b->copy)
			ring_consume(&b->ring, got);
		n += got;
		if (got < b->batch && !b->spin) {
			int k;

			for (k = 0; k < 64; k++)
				cpu_relax();
		}
		if (!got && atomic_load_explicit(&b->stop, memory_order_acquire) &&
		    n >= b->pushed)
			break;
	}
	b->t1_ns = now_ns();
	b->popped = n;
	b->bad_seq = bad;
	free(out);
	return NULL;
}

int main(int argc, char **argv)
{
	struct bench b;
	pthread_t pt, ct;
	uint32_t cap;
	double secs;

	memset(&b, 0, sizeof(b));
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	b.seconds = argc > 1 ? atof(argv[1]) : 1.0;
	cap = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 0;
	if (!cap)
		cap = RING_LIVE_CAPACITY;	/* 0 or no argument: the size of a run's live ring */
	b.batch = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 32;
	b.spin = argc > 4 && !strcmp(argv[4], "spin");
	b.pbatch = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 0) : 32;
	b.copy = argc > 6 && !strcmp(argv[6], "copy");
	if (b.seconds <= 0 || !b.batch || !b.pbatch || b.pbatch > 64 ||
	    (b.pbatch & (b.pbatch - 1)) || b.pbatch > cap || ring_init(&b.ring, cap)) {
		fprintf(stderr, "usage: ring_bench [SECONDS [CAPACITY(power of two; 0: a run's, %u) [BATCH "
			"[paced|spin [PRODUCER_BATCH (1..64, power of two; default 32) [inplace|copy]]]]]]\n",
			RING_LIVE_CAPACITY);
		return 2;
	}
	/* warm-up: the ring's pages faulted in before the clock starts, not on first use */
	memset(b.ring.p_slots, 0, (size_t)cap * sizeof(*b.ring.p_slots));
	atomic_init(&b.stop, 0);
	atomic_init(&b.go, 0);
	if (pthread_create(&ct, NULL, consumer, &b) || pthread_create(&pt, NULL, producer, &b)) {
		fprintf(stderr, "ring_bench: cannot start threads\n");
		return 1;
	}
	pthread_join(pt, NULL);
	pthread_join(ct, NULL);
	secs = (double)(b.t1_ns - b.t0_ns) / 1e9;
	printf("records_per_s %.0f\n", (double)b.popped / secs);
	printf("consumer %s\n", b.spin ? "spin" : "paced");
	printf("producer_batch %u\n", b.pbatch);
	printf("api %s\n", b.copy ? "copy" : "inplace");
	printf("records %llu\nseconds %.3f\ncapacity %u\nbatch %u\nfull_waits %llu\n"
	       "drops %llu\nbad_seq %llu\n", (unsigned long long)b.popped, secs, cap, b.batch,
	       (unsigned long long)b.full_waits, (unsigned long long)b.drops,
	       (unsigned long long)b.bad_seq);
	ring_release(&b.ring);
	if (b.bad_seq || b.popped != b.pushed) {
		fprintf(stderr, "ring_bench: %llu of %llu records lost or out of order\n",
			(unsigned long long)(b.bad_seq + b.pushed - b.popped),
			(unsigned long long)b.pushed);
		return 1;
	}
	return 0;
}
