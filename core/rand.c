/*
 * rand.c - the generators behind a worker's random choices: xoshiro256**
 * seeded through splitmix64 for data and the choices fio leaves to chance;
 * fio's own Tausworthe generators and seed table for offsets, block sizes and
 * the read/write mix, so that a job draws the same I/Os as under fio.
 *
 * It is a per-thread object with no locking and no allocation; it must stay
 * cheap enough to draw several numbers per I/O. Not for cryptography.
 */
#include <string.h>

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

/* ---- the read/write mix, as fio 3.33 decides it ---------------------------- */

/* Each component needs a seed above a small floor (1, 7, 15) to be full-period. */
static uint32_t floor_seed(uint32_t x, uint32_t floor)
{
	return x < floor ? x + floor : x;
}

void rb_taus_restart(struct rb_taus *t)
{
	/* fio's starting constant is written (2^31) + (2^17) + (2^7): XORs, i.e. 29+19+5 */
	const uint32_t start = 53;
	int i;

	t->s1 = floor_seed(start * 69069u ^ t->seed, 1);
	t->s2 = floor_seed(t->s1 * 69069u ^ t->seed, 7);
	t->s3 = floor_seed(t->s2 * 69069u ^ t->seed, 15);
	for (i = 0; i < 6; i++)
		rb_taus_next(t);
}

uint64_t rb_seed_slot(uint64_t randseed, unsigned thread_nr, unsigned slot)
{
	const uint64_t k = 0x9e370001ull;
	uint64_t s = randseed;
	unsigned i;

	/* randseed * k^4, then one more factor of k per slot */
	for (i = 0; i < 4 + slot; i++)
		s *= k;
	return s * thread_nr + slot;
}

void rb_taus_seed(struct rb_taus *t, uint32_t seed)
{
	t->seed = seed;
	rb_taus_restart(t);
}

void rb_taus_init(struct rb_taus *t, uint64_t randseed, unsigned thread_nr, unsigned slot)
{
	rb_taus_seed(t, (uint32_t)rb_seed_slot(randseed, thread_nr, slot));
}

unsigned rb_taus_pct(struct rb_taus *t)
{
	return 1 + (unsigned)(100.0 * ((double)rb_taus_next(t) / 4294967296.0));
}

/* ---- fio's seed for a file's distribution -------------------------------- */

static inline uint32_t rol32(uint32_t w, unsigned s)
{
	return (w << s) | (w >> (32 - s));
}

/*
 * Bob Jenkins' lookup2-style hash as fio 3.33 has it, initial value 0. One
 * difference from Jenkins' own: each 12-byte block adds three single bytes
 * (the first of each 4-byte word), not three words; kept, as it is what
 * seeds fio's draws for names longer than 12 bytes.
 */
uint32_t rb_name_hash(const char *name)
{
	const uint8_t *k = (const uint8_t *)name;
	uint32_t len = (uint32_t)strlen(name);
	uint32_t a, b, c;

	a = b = c = 0x61c88647u + len;
	for (; len > 12; len -= 12, k += 12) {
		a += k[0];
		b += k[4];
		c += k[8];
		a -= c; a ^= rol32(c, 4); c += b;
		b -= a; b ^= rol32(a, 6); a += c;
		c -= b; c ^= rol32(b, 8); b += a;
		a -= c; a ^= rol32(c, 16); c += b;
		b -= a; b ^= rol32(a, 19); a += c;
		c -= b; c ^= rol32(b, 4); b += a;
	}
	if (!len)
		return c;
	/* the last 1-12 bytes, little end first into a, then b, then c */
	for (uint32_t i = 0; i < len; i++) {
		uint32_t v = (uint32_t)k[i] << (8 * (i % 4));

		if (i < 4)
			a += v;
		else if (i < 8)
			b += v;
		else
			c += v;
	}
	c ^= b; c -= rol32(b, 14);
	a ^= c; a -= rol32(c, 11);
	b ^= a; b -= rol32(a, 25);
	c ^= b; c -= rol32(b, 16);
	a ^= c; a -= rol32(c, 4);
	b ^= a; b -= rol32(a, 14);
	c ^= b; c -= rol32(b, 24);
	return c;
}

/* ---- fio's offset generator: taus88, or taus258 for more than 2^32 blocks ---- */

static uint64_t floor_seed64(uint64_t x, uint64_t floor)
{
	return x < floor ? x + floor : x;
}

void rb_frand_restart(struct rb_frand *f)
{
	/* each component above its floor (1, 7, 15, 33, 49), seeded by an LCG as fio's */
	static const uint64_t floors[5] = { 1, 7, 15, 33, 49 };
	const uint64_t lcg = 6906969069ull;
	uint64_t x = 53;
	int i;

	if (!f->use64) {
		rb_taus_seed(&f->t32, (uint32_t)f->seed);
	} else {
		for (i = 0; i < 5; i++) {
			x = floor_seed64(x * lcg ^ f->seed, floors[i]);
			f->s[i] = x;
		}
		for (i = 0; i < 6; i++)
			rb_taus258_next(f->s);
	}
	f->ahead = rb_frand_raw(f);
}

void rb_frand_init(struct rb_frand *f, uint64_t seed, bool use64)
{
	f->use64 = use64;
	f->seed = seed;
	rb_frand_restart(f);
}


void rb_mix_init(struct rb_mix *m, uint64_t randseed, unsigned thread_nr, unsigned read_pct)
{
	rb_taus_init(&m->t, randseed, thread_nr, 4);
	m->read_pct = read_pct;
	m->ddir = 0;
	m->until = 0;
	m->issued[0] = m->issued[1] = 0;
}

void rb_mix_new_loop(struct rb_mix *m)
{
	rb_taus_restart(&m->t);
	m->until = 0;
}

void rb_mix_reset_counts(struct rb_mix *m)
{
	m->issued[0] = m->issued[1] = 0;
	m->until = 0;
}

void rb_mix_unissue(struct rb_mix *m)
{
	if (m->issued[m->ddir])
		m->issued[m->ddir]--;
}

int rb_mix_next(struct rb_mix *m)
{
	if (m->issued[m->ddir] >= m->until) {
		unsigned v = rb_taus_pct(&m->t);
		int d = v <= m->read_pct ? 0 : 1;

		/*
		 * Changing direction: the new one runs until its count reaches the
		 * old one's count scaled by the new one's share (fio computes this
		 * from the old direction's count and keeps the comparison).
		 */
		if (d != m->ddir)
			m->until = m->issued[m->ddir] * (d ? 100 - m->read_pct : m->read_pct) / 100;
		m->ddir = d;
	}
	m->issued[m->ddir]++;
	return m->ddir;
}
