/*
 * randmap.c - the random map: which blocks of a region the I/O of this pass
 * has covered, so that random offsets cover each block once per pass the
 * way fio's do (its lib/axmap.c answers the same three questions: is this
 * block covered, which is the next free one, mark a run).
 *
 * Level 0 has a bit per block; a bit of level n+1 is set when its 64-bit
 * word of level n is full. Finding the next free block skips full words
 * level by level, so it stays a few word reads near the end of a pass.
 * Memory is a bit per block plus 1/63 of that.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rand.h"

static inline uint64_t words_for(uint64_t bits)
{
	return (bits + 63) / 64;
}

struct rb_randmap *rb_randmap_new(uint64_t nr_blocks)
{
	struct rb_randmap *m;
	uint64_t bits = nr_blocks, total = 0, *mem;
	unsigned l;

	if (!nr_blocks) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->nr_blocks = nr_blocks;
	/* levels until one word holds the whole level */
	for (l = 0; l < RB_RANDMAP_LEVELS; l++) {
		m->nbits[l] = bits;
		total += words_for(bits);
		m->nr_levels = l + 1;
		if (bits <= 64)
			break;
		bits = words_for(bits);
	}
	mem = calloc(total, sizeof(*mem));
	if (!mem) {
		free(m);
		return NULL;
	}
	for (l = 0; l < m->nr_levels; l++) {
		m->level[l] = mem;
		mem += words_for(m->nbits[l]);
	}
	return m;
}

uint64_t rb_randmap_size(const struct rb_randmap *m)
{
	return m->nr_blocks;
}

void rb_randmap_reset(struct rb_randmap *m)
{
	uint64_t total = 0;
	unsigned l;

	for (l = 0; l < m->nr_levels; l++)
		total += words_for(m->nbits[l]);
	memset(m->level[0], 0, total * sizeof(uint64_t));
}

/* The first clear bit at index >= i of level l, or RB_RANDMAP_NONE. */
static uint64_t first_clear(const struct rb_randmap *m, unsigned l, uint64_t i)
{
	while (i < m->nbits[l]) {
		uint64_t w = i / 64;
		uint64_t clear = ~m->level[l][w] & (~0ull << (i % 64));

		if (clear) {
			uint64_t r = w * 64 + (uint64_t)__builtin_ctzll(clear);

			/* the spare bits of a level's last word are never set */
			return r < m->nbits[l] ? r : RB_RANDMAP_NONE;
		}
		/* the rest of word w is covered: the level above names the next word with room */
		if (l + 1 == m->nr_levels)
			return RB_RANDMAP_NONE;
		w = first_clear(m, l + 1, w + 1);
		if (w == RB_RANDMAP_NONE)
			return RB_RANDMAP_NONE;
		i = w * 64;
	}
	return RB_RANDMAP_NONE;
}

uint64_t rb_randmap_next_free(const struct rb_randmap *m, uint64_t b)
{
	uint64_t next = b + 1, r;

	if (b >= m->nr_blocks)
		return RB_RANDMAP_NONE;
	if (next == m->nr_blocks)
		next = 0;
	r = first_clear(m, 0, next);
	/* nothing free up to the end: once more from the start */
	if (r == RB_RANDMAP_NONE && next)
		r = first_clear(m, 0, 0);
	return r;
}

/* Sets bit i of level l; a word that fills up sets its bit one level up. */
static void set_up(struct rb_randmap *m, unsigned l, uint64_t i)
{
	for (; l < m->nr_levels; l++, i /= 64) {
		m->level[l][i / 64] |= 1ull << (i % 64);
		if (m->level[l][i / 64] != ~0ull)
			return;
	}
}

uint64_t rb_randmap_set_nr(struct rb_randmap *m, uint64_t b, uint64_t n)
{
	uint64_t done = 0;

	if (b >= m->nr_blocks)
		return 0;
	if (n > m->nr_blocks - b)
		n = m->nr_blocks - b;
	while (done < n) {
		uint64_t w = b / 64, bit = b % 64, k = n - done, mask, taken;

		if (k > 64 - bit)
			k = 64 - bit;
		mask = (k == 64 ? ~0ull : (1ull << k) - 1) << bit;
		taken = m->level[0][w] & mask;
		if (taken) {
			/* a covered block ends the run */
			k = (uint64_t)__builtin_ctzll(taken) - bit;
			mask = (k == 64 ? ~0ull : (1ull << k) - 1) << bit;
		}
		if (k) {
			m->level[0][w] |= mask;
			if (m->level[0][w] == ~0ull && m->nr_levels > 1)
				set_up(m, 1, w);
		}
		done += k;
		b += k;
		if (taken)
			break;
	}
	return done;
}

void rb_randmap_free(struct rb_randmap *m)
{
	if (!m)
		return;
	free(m->level[0]);
	free(m);
}
