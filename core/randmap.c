/*
 * randmap.c - the random map: every block of a region exactly once per pass,
 * in an order that changes from pass to pass.
 *
 * fio keeps a bitmap (lib/axmap.c) of the blocks already done. A 10 TB device
 * at 4 KiB has 2.7e9 blocks, 320 MiB of bitmap per worker, and the bitmap
 * gets slow to search near the end of a pass. Instead this walks a counter
 * through a keyed bijection of [0, 2^k) (a 4-round Feistel network, 2^k the
 * smallest power of two >= nr_blocks) and skips the images that fall past
 * nr_blocks. Because the network is a permutation, each block comes out
 * exactly once before the counter would run out, with fewer than two
 * evaluations per draw on average (2^k < 2 * nr_blocks; tiny maps aside)
 * and a few dozen bytes of state. Re-keying with the pass number gives each
 * pass its own order.
 */
#include <errno.h>
#include <stdlib.h>
#include "rand.h"

#define FEISTEL_ROUNDS 4

struct rb_randmap {
	uint64_t nr_blocks;
	uint64_t seed;
	uint64_t pass;
	uint64_t ctr;		/* next input of the permutation */
	uint64_t left;		/* blocks still to hand out in this pass */
	unsigned rbits;		/* width of the right half; the left has the rest */
	uint64_t lmask;
	uint64_t rmask;
	uint64_t key[FEISTEL_ROUNDS];
};

/* A strong 64-bit finaliser (splitmix64's); the round function of the network. */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void randmap_rekey(struct rb_randmap *m)
{
	uint64_t base = mix64(m->seed ^ mix64(m->pass + 0x9e3779b97f4a7c15ull));
	int i;

	for (i = 0; i < FEISTEL_ROUNDS; i++)
		m->key[i] = mix64(base + (uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull);
	m->ctr = 0;
	m->left = m->nr_blocks;
}

/*
 * Halves of unequal width are fine: each round xors one half with a function
 * of the other, which is invertible whatever the widths.
 */
static inline uint64_t randmap_permute(const struct rb_randmap *m, uint64_t x)
{
	uint64_t l = x >> m->rbits, r = x & m->rmask;

	l ^= mix64(r ^ m->key[0]) & m->lmask;
	r ^= mix64(l ^ m->key[1]) & m->rmask;
	l ^= mix64(r ^ m->key[2]) & m->lmask;
	r ^= mix64(l ^ m->key[3]) & m->rmask;
	return (l << m->rbits) | r;
}

struct rb_randmap *rb_randmap_new(uint64_t nr_blocks, uint64_t seed)
{
	struct rb_randmap *m;
	unsigned bits = 2;	/* two one-bit halves at least, so tiny maps still shuffle */

	if (!nr_blocks) {
		errno = EINVAL;
		return NULL;
	}
	while (bits < 64 && (1ull << bits) < nr_blocks)
		bits++;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->nr_blocks = nr_blocks;
	m->seed = seed;
	m->rbits = bits - bits / 2;
	m->rmask = (1ull << m->rbits) - 1;
	m->lmask = (1ull << (bits / 2)) - 1;
	randmap_rekey(m);
	return m;
}

uint64_t rb_randmap_next(struct rb_randmap *m, bool *new_pass)
{
	bool wrapped = false;
	uint64_t x;

	if (!m->left) {
		m->pass++;
		randmap_rekey(m);
		wrapped = true;
	}
	/* terminates: the permutation maps some remaining counter value to each unseen block */
	do
		x = randmap_permute(m, m->ctr++);
	while (x >= m->nr_blocks);
	m->left--;
	if (new_pass)
		*new_pass = wrapped;
	return x;
}

void rb_randmap_free(struct rb_randmap *m)
{
	free(m);
}
