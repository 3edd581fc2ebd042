/*
 * test_ring_stress.c - two threads through the live ring: the producer
 * pushes numbered records with derived fields and never waits; the consumer
 * checks order, the derived fields, and that pushed = popped + dropped.
 * Then the same in place: the producer writes batches of varying size into
 * reserved slots (waiting when full), the consumer reads them with
 * ring_peek and frees them with ring_consume; nothing may be lost.
 * Several capacities, including 2. Built plainly for `make check` and with
 * ThreadSanitizer for `make check-tsan`.
 */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

struct stress {
	struct ring r;
	uint64_t n;
	uint64_t pushed;
	bool in_place;
	_Atomic bool done;
};

static void fill(struct live_rec *x, uint64_t i)
{
	memset(x, 0, sizeof(*x));
	x->seq = (uint32_t)i;
	x->type = LIVE_IO;
	x->u.io.tot_ios = i;
	x->u.io.tot_bytes = i * 4096 + 7;
	x->u.io.p99_ns = (uint32_t)(i ^ 0x5a5a5a5a);
}

static void produce_in_place(struct stress *s)
{
	uint64_t i = 0;
	uint32_t want = 1;

	while (i < s->n) {
		struct live_rec *slots;
		uint32_t k, got;

		/* batches of 1 to 7, so they straddle the array's end at every capacity */
		want = want % 7 + 1;
		if (want > s->n - i)
			want = (uint32_t)(s->n - i);
		got = ring_reserve(&s->r, &slots, want);
		if (!got) {
			sched_yield();
			continue;
		}
		for (k = 0; k < got; k++)
			fill(&slots[k], i + k);
		ring_commit(&s->r, got);
		i += got;
	}
	s->pushed = i;
}

static void *producer(void *arg)
{
	struct stress *s = arg;
	uint64_t i;

	if (s->in_place)
		produce_in_place(s);
	else
		for (i = 0; i < s->n; i++) {
			struct live_rec x;

			fill(&x, i);
			if (ring_push(&s->r, &x))
				s->pushed++;
		}
	/* pairs with the consumer's acquire load: pushed is final */
	atomic_store_explicit(&s->done, true, memory_order_release);
	return NULL;
}

/* Checks one record; returns false (and says why) when it is wrong. */
static bool check(uint32_t cap, const struct live_rec *x, bool *first, uint64_t *last)
{
	if (x->u.io.tot_ios != x->seq || x->u.io.tot_bytes != x->u.io.tot_ios * 4096 + 7 ||
	    x->u.io.p99_ns != (uint32_t)(x->u.io.tot_ios ^ 0x5a5a5a5a)) {
		fprintf(stderr, "cap %u: record %llu corrupted\n", cap,
			(unsigned long long)x->u.io.tot_ios);
		return false;
	}
	if (!*first && x->u.io.tot_ios <= *last) {
		fprintf(stderr, "cap %u: order broken: %llu after %llu\n", cap,
			(unsigned long long)x->u.io.tot_ios, (unsigned long long)*last);
		return false;
	}
	*first = false;
	*last = x->u.io.tot_ios;
	return true;
}

static int run(uint32_t cap, uint64_t n, bool in_place)
{
	struct stress s;
	struct live_rec batch[32];
	uint64_t popped = 0, last = 0;
	bool first = true, done = false;
	pthread_t t;

	memset(&s, 0, sizeof(s));
	if (ring_init(&s.r, cap))
		return 1;
	s.n = n;
	s.in_place = in_place;
	pthread_create(&t, NULL, producer, &s);
	while (!done) {
		uint32_t k, got;

		done = atomic_load_explicit(&s.done, memory_order_acquire);
		if (in_place) {
			const struct live_rec *recs;

			while ((got = ring_peek(&s.r, &recs, 32)) > 0) {
				for (k = 0; k < got; k++)
					if (!check(cap, &recs[k], &first, &last))
						return 1;
				ring_consume(&s.r, got);
				popped += got;
			}
			continue;
		}
		while ((got = ring_pop_batch(&s.r, batch, 32)) > 0) {
			for (k = 0; k < got; k++)
				if (!check(cap, &batch[k], &first, &last))
					return 1;
			popped += got;
		}
	}
	pthread_join(t, NULL);
	if (popped != s.pushed || s.pushed + ring_dropped(&s.r) != n) {
		fprintf(stderr, "cap %u: pushed %llu popped %llu dropped %llu of %llu\n", cap,
			(unsigned long long)s.pushed, (unsigned long long)popped,
			(unsigned long long)ring_dropped(&s.r), (unsigned long long)n);
		return 1;
	}
	if (in_place && popped != n) {
		fprintf(stderr, "cap %u in place: %llu of %llu records arrived\n", cap,
			(unsigned long long)popped, (unsigned long long)n);
		return 1;
	}
	printf("PASS: capacity %u%s: %llu records, %llu popped in order, %llu dropped\n", cap,
	       in_place ? " in place" : "",
	       (unsigned long long)n, (unsigned long long)popped,
	       (unsigned long long)ring_dropped(&s.r));
	ring_release(&s.r);
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
	uint32_t caps[] = { 2, 4, 64, 4096 };
	int fails = 0;
	size_t i;

	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		/* in place, a full ring makes the producer wait: fewer records keep it short */
		fails += run(caps[i], n, false) + run(caps[i], n / 8 + 1, true);
	return fails ? 1 : 0;
}
