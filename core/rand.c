/*
 * rand.c - the generator behind every random choice a worker makes:
 * xoshiro256** seeded through splitmix64.
 *
 * It is a per-thread object with no locking and no allocation; it must stay
 * cheap enough to draw several numbers per I/O. Not for cryptography.
 */
#include "rand.h"

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* splitmix64: spreads a seed, even 0 or 1, over all four state words. */
static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void rb_rand_seed(struct rb_rand *r, uint64_t seed)
{
	uint64_t x = seed;
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
	/* all-zero is xoshiro's one fixed point; splitmix64 cannot produce it, but be sure */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

uint64_t rb_rand_u64(struct rb_rand *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/*
 * Lemire's multiply-shift: the high word of x * n is uniform in [0, n) once
 * the few low words that would bias it are rejected. The division that
 * computes the rejection threshold only runs when a draw lands in the
 * suspicious zone, which for block counts is almost never.
 */
uint64_t rb_rand_below(struct rb_rand *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rb_rand_u64(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t threshold = -n % n;

		while (lo < threshold) {
			m = (unsigned __int128)rb_rand_u64(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double rb_rand_double(struct rb_rand *r)
{
	/* the top 53 bits fill a double's mantissa exactly, so 1.0 is never reached */
	return (double)(rb_rand_u64(r) >> 11) * 0x1.0p-53;
}
