/*
 * rand.h - random numbers for offsets, directions and block sizes: a fast
 * seedable generator, the random map and the lfsr that visit every block
 * once per pass, and the zipf/pareto/normal offset distributions.
 *
 * Threading contract: each object belongs to one worker thread.
 */
#ifndef RB_RAND_H
#define RB_RAND_H

#include <stdbool.h>
#include <stdint.h>
#include "job.h"

/* 64-bit generator with 2^-64 granularity (xoshiro256** or tausworthe88). */
struct rb_rand {
	uint64_t s[4];
};

void rb_rand_seed(struct rb_rand *r, uint64_t seed);
uint64_t rb_rand_u64(struct rb_rand *r);
/* Uniform in [0, n); n > 0. */
uint64_t rb_rand_below(struct rb_rand *r, uint64_t n);
/* Uniform in [0, 1). */
double rb_rand_double(struct rb_rand *r);

/*
 * One of fio 3.33's per-purpose generators: a 32-bit three-component
 * Tausworthe generator seeded from randseed, the job's thread number and a
 * slot of fio's seed table (0, 1, 2: block sizes of reads, writes, trims;
 * 4: the read/write mix), so sizes drawn from it are fio's sizes.
 */
struct rb_taus {
	uint32_t s1, s2, s3;
	uint32_t seed;
};

void rb_taus_init(struct rb_taus *t, uint64_t randseed, unsigned thread_nr, unsigned slot);
/* A taus88 generator from a seed of fio's table (rb_seed_slot) or any other 32-bit seed. */
void rb_taus_seed(struct rb_taus *t, uint32_t seed);
/* Back to the state rb_taus_init left (fio reseeds each loop of a repeatable job). */
void rb_taus_restart(struct rb_taus *t);
/* One step of L'Ecuyer's three-component Tausworthe generator (taus88). */
static inline uint32_t rb_taus_next(struct rb_taus *t)
{
	t->s1 = ((t->s1 & 0xfffffffeu) << 12) ^ (((t->s1 << 13) ^ t->s1) >> 19);
	t->s2 = ((t->s2 & 0xfffffff8u) << 4) ^ (((t->s2 << 2) ^ t->s2) >> 25);
	t->s3 = ((t->s3 & 0xfffffff0u) << 17) ^ (((t->s3 << 3) ^ t->s3) >> 11);
	return t->s1 ^ t->s2 ^ t->s3;
}

/*
 * fio 3.33's seed table: slot i of a job is randseed * k^(4+i) * thread_nr + i
 * with k = 0x9e370001 (mod 2^64). Slots used here: 0-2 block sizes, 4 the
 * read/write mix, 6 random offsets (unless randrepeat, see RB_RANDSEED_BLOCK),
 * 7 the sizes of filesize=LOW-HIGH,
 * 10 percentage_random, 16 random_distribution=zoned.
 */
enum {
	RB_SEED_BS = 0, RB_SEED_MIX = 4, RB_SEED_BLOCK = 6, RB_SEED_FILE_SIZE = 7,
	RB_SEED_SEQ_RAND = 10, RB_SEED_ZONE = 16,
};
uint64_t rb_seed_slot(uint64_t randseed, unsigned thread_nr, unsigned slot);
/* With randrepeat (and no randseed), fio seeds random offsets from this times thread_nr. */
#define RB_RANDSEED_BLOCK 0xb1899bedull

/* 1 + a taus88 draw scaled onto [0, 100): fio's rand_between(1, 100). */
unsigned rb_taus_pct(struct rb_taus *t);

/*
 * fio's offset generator: taus88, or L'Ecuyer's five-component taus258 when
 * a 32-bit draw cannot address every block (random_generator=tausworthe64,
 * or more than 2^32 - 1 blocks and no random_generator given). Offsets are
 * nr_blocks * (draw / (max + 1)), as fio scales them.
 */
struct rb_frand {
	bool use64;
	uint64_t seed;
	struct rb_taus t32;
	uint64_t s[5];
	uint64_t ahead;		/* the next draw, known early so its map word can be fetched */
};

void rb_frand_init(struct rb_frand *f, uint64_t seed, bool use64);
/* Back to the state rb_frand_init left. */
void rb_frand_restart(struct rb_frand *f);

/* One step of L'Ecuyer's five-component 64-bit Tausworthe generator (taus258). */
static inline uint64_t rb_taus258_next(uint64_t *s)
{
	s[0] = ((s[0] & 0xfffffffffffffffeull) << 10) ^ (((s[0] << 1) ^ s[0]) >> 53);
	s[1] = ((s[1] & 0xfffffffffffffe00ull) << 5) ^ (((s[1] << 24) ^ s[1]) >> 50);
	s[2] = ((s[2] & 0xfffffffffffff000ull) << 29) ^ (((s[2] << 3) ^ s[2]) >> 23);
	s[3] = ((s[3] & 0xfffffffffffe0000ull) << 23) ^ (((s[3] << 5) ^ s[3]) >> 24);
	s[4] = ((s[4] & 0xffffffffff800000ull) << 8) ^ (((s[4] << 3) ^ s[4]) >> 33);
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

static inline uint64_t rb_frand_raw(struct rb_frand *f)
{
	return f->use64 ? rb_taus258_next(f->s) : rb_taus_next(&f->t32);
}

static inline uint64_t rb_frand_next(struct rb_frand *f)
{
	uint64_t v = f->ahead;

	f->ahead = rb_frand_raw(f);
	return v;
}

static inline uint64_t rb_frand_scaled(const struct rb_frand *f, uint64_t v, uint64_t n)
{
	/* over the maximum plus one (2^64 or 2^32): a power of two, so a multiply is exact */
	return (uint64_t)((double)n * ((double)v * (f->use64 ? 0x1p-64 : 0x1p-32)));
}

/* A block in [0, n): n * (draw / (max + 1)) in double precision, as fio. */
static inline uint64_t rb_frand_scale(struct rb_frand *f, uint64_t n)
{
	return rb_frand_scaled(f, rb_frand_next(f), n);
}

/* What the next rb_frand_scale(f, n) will return, without drawing. */
static inline uint64_t rb_frand_peek_scale(const struct rb_frand *f, uint64_t n)
{
	return rb_frand_scaled(f, f->ahead, n);
}

/*
 * The read/write mix of rw=randrw and rw=rw, decided the way fio 3.33 does so
 * that a size-bound run splits its I/Os between reads and writes exactly as
 * fio does: a draw from a 32-bit three-component Tausworthe generator seeded
 * from randseed and the job's thread number picks a direction, which is kept
 * for a run of I/Os long enough to pull the issued counts toward rwmixread.
 */
struct rb_mix {
	struct rb_taus t;		/* generator, seed table slot 4 */
	unsigned read_pct;		/* rwmixread */
	int ddir;			/* direction of the current run */
	uint64_t until;			/* the run lasts while issued[ddir] < until */
	uint64_t issued[2];		/* reads and writes chosen so far */
};

/*
 * randseed and thread_nr (1-based, in job order, clones consecutive) give
 * the seed fio derives for this job's mix generator.
 */
void rb_mix_init(struct rb_mix *m, uint64_t randseed, unsigned thread_nr, unsigned read_pct);
/* A new loop over the region: the generator restarts, the direction stays. */
void rb_mix_new_loop(struct rb_mix *m);
/* Statistics start (after ramp_time): the issued counts start again. */
void rb_mix_reset_counts(struct rb_mix *m);
/* The direction of the next I/O (DDIR_READ or DDIR_WRITE); counts it as issued. */
int rb_mix_next(struct rb_mix *m);
/* The direction rb_mix_next gave was not issued after all (fio counts at issue). */
void rb_mix_unissue(struct rb_mix *m);

/*
 * The random map: which blocks of a region I/O has covered in this pass
 * (fio's axmap). One bit per block, plus a bit per full 64-bit word one
 * level up, and so on, so the next free block is found in a few word reads
 * however full the map is.
 */
#define RB_RANDMAP_LEVELS 11	/* 64^11 > 2^64 blocks */

/* Members are randmap.c's; here so that the per-I/O lookups inline. */
struct rb_randmap {
	uint64_t nr_blocks;
	unsigned nr_levels;
	uint64_t nbits[RB_RANDMAP_LEVELS];	/* valid bits per level */
	uint64_t *level[RB_RANDMAP_LEVELS];
};

#define RB_RANDMAP_NONE UINT64_MAX

/* Returns NULL on ENOMEM (or nr_blocks 0: EINVAL); the caller frees with rb_randmap_free. */
struct rb_randmap *rb_randmap_new(uint64_t nr_blocks);
uint64_t rb_randmap_size(const struct rb_randmap *m);
/* Every block free again (a new pass). */
void rb_randmap_reset(struct rb_randmap *m);
static inline bool rb_randmap_isset(const struct rb_randmap *m, uint64_t b)
{
	return b < m->nr_blocks && (m->level[0][b / 64] >> (b % 64)) & 1;
}

/* A hint: block b is about to be looked up. */
static inline void rb_randmap_prefetch(const struct rb_randmap *m, uint64_t b)
{
	if (b < m->nr_blocks)
		__builtin_prefetch(&m->level[0][b / 64], 1);
}
/*
 * The first free block after b, wrapping to the start of the region once;
 * RB_RANDMAP_NONE when every block is covered.
 */
uint64_t rb_randmap_next_free(const struct rb_randmap *m, uint64_t b);
/*
 * Marks up to n blocks from b, stopping at the first one already covered or
 * at the region's end; returns how many it marked (0 when b is covered).
 */
uint64_t rb_randmap_set_nr(struct rb_randmap *m, uint64_t b, uint64_t n);
void rb_randmap_free(struct rb_randmap *m);

/*
 * Non-uniform block choice, fio 3.33's: zipf and pareto draw a popularity
 * rank, normal sums a dozen uniform draws; each result is scattered over the
 * range by a multiplicative hash (so "hot" blocks are spread over the device,
 * normal's included) and shifted by center. Each file has its own generator:
 * taus88 from a 32-bit seed (rb_dist_seed).
 */
struct rb_dist;

/*
 * nranges: the file's region in blocks of the smaller of the read and write
 * sizes, a partial last block counted (fio's, so a draw may land where no
 * I/O fits). center -1 when unset. Returns NULL on ENOMEM or bad parameters
 * (err filled); the caller frees with rb_dist_free.
 */
struct rb_dist *rb_dist_new(enum rand_dist kind, double param, double center,
			    uint64_t nranges, uint32_t seed, char *err, size_t errlen);
/* A block in [0, nranges). */
uint64_t rb_dist_next(struct rb_dist *d);
/* Back to the state rb_dist_new left (fio reseeds each loop of a repeatable job). */
void rb_dist_restart(struct rb_dist *d);
/* Draws are the rank itself, shifted, not hashed: fio's for picking a file. */
void rb_dist_unhash(struct rb_dist *d);
void rb_dist_free(struct rb_dist *d);

/* fio's jhash of a file name: with randrepeat, its distribution's seed times thread_nr. */
uint32_t rb_name_hash(const char *name);

/*
 * random_generator=lfsr: a maximal-length XNOR shift register (fio's tap
 * table, by the bits needed for the region's blocks) that steps through
 * every block once per pass, skipping states past the last block; no map.
 */
struct rb_lfsr {
	uint64_t state;
	uint64_t xormask;	/* the taps */
	uint64_t top;		/* the bit a step shifts in */
	uint64_t last;		/* the highest block */
	uint64_t drawn;		/* blocks given since the last reset */
	bool first;		/* the first draw after setup takes one step more (fio's) */
};

/* nr_blocks > 0; -EINVAL when the seed is the register's one dead state (all ones). */
int rb_lfsr_init(struct rb_lfsr *l, uint64_t nr_blocks, uint64_t seed);
/* A new pass (fio resets at each open of the file): every block again, from seed. */
int rb_lfsr_reset(struct rb_lfsr *l, uint64_t seed);
/* The next block; false once every block of the pass has been given. */
bool rb_lfsr_next(struct rb_lfsr *l, uint64_t *block);

#endif
