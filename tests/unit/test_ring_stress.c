/*
 * test_ring_stress.c - two threads through the live ring: the producer
 * pushes numbered records with derived fields and never waits; the consumer
 * checks order, the derived fields, and that pushed = popped + dropped.
 * Several capacities, including 2. Built plainly for `make check` and with
 * ThreadSanitizer for `make check-tsan`.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

struct stress {
	struct ring r;
	uint64_t n;
	uint64_t pushed;
	_Atomic bool done;
};

static void *producer(void *arg)
{
	struct stress *s = arg;
	uint64_t i;

	for (i = 0; i < s->n; i++) {
		struct live_rec x;

		memset(&x, 0, sizeof(x));
		x.seq = (uint32_t)i;
		x.type = LIVE_IO;
		x.u.io.tot_ios = i;
		x.u.io.tot_bytes = i * 4096 + 7;
		x.u.io.p99_ns = (uint32_t)(i ^ 0x5a5a5a5a);
		if (ring_push(&s->r, &x))
			s->pushed++;
	}
	/* pairs with the consumer's acquire load: pushed is final */
	atomic_store_explicit(&s->done, true, memory_order_release);
	return NULL;
}

static int run(uint32_t cap, uint64_t n)
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
	pthread_create(&t, NULL, producer, &s);
	while (!done) {
		uint32_t k, got;

		done = atomic_load_explicit(&s.done, memory_order_acquire);
		while ((got = ring_pop_batch(&s.r, batch, 32)) > 0) {
			for (k = 0; k < got; k++) {
				const struct live_rec *x = &batch[k];

				if (x->u.io.tot_ios != x->seq || x->u.io.tot_bytes != x->u.io.tot_ios * 4096 + 7 ||
				    x->u.io.p99_ns != (uint32_t)(x->u.io.tot_ios ^ 0x5a5a5a5a)) {
					fprintf(stderr, "cap %u: record %llu corrupted\n", cap,
						(unsigned long long)x->u.io.tot_ios);
					return 1;
				}
				if (!first && x->u.io.tot_ios <= last) {
					fprintf(stderr, "cap %u: order broken: %llu after %llu\n", cap,
						(unsigned long long)x->u.io.tot_ios,
						(unsigned long long)last);
					return 1;
				}
				first = false;
				last = x->u.io.tot_ios;
				popped++;
			}
		}
	}
	pthread_join(t, NULL);
	if (popped != s.pushed || s.pushed + ring_dropped(&s.r) != n) {
		fprintf(stderr, "cap %u: pushed %llu popped %llu dropped %llu of %llu\n", cap,
			(unsigned long long)s.pushed, (unsigned long long)popped,
			(unsigned long long)ring_dropped(&s.r), (unsigned long long)n);
		return 1;
	}
	printf("PASS: capacity %u: %llu records, %llu popped in order, %llu dropped\n", cap,
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
		fails += run(caps[i], n);
	return fails ? 1 : 0;
}
