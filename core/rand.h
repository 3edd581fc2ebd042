/*
 * rand.h - random numbers for offsets, directions and block sizes: a fast
 * seedable generator, the random map that visits every block once per pass,
 * and the zipf/pareto/normal offset distributions.
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
/* Back to the state rb_taus_init left (fio reseeds each loop of a repeatable job). */
void rb_taus_restart(struct rb_taus *t);
uint32_t rb_taus_next(struct rb_taus *t);

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

/*
 * Random map over nr_blocks blocks: hands out each block exactly once per
 * pass in a random order, then starts a new pass. Memory is O(nr_blocks) bits
 * at most; a full-period permutation (LFSR/Feistel-style) is fine as long as
 * coverage is exact and blocks never repeat within a pass.
 */
struct rb_randmap;

/* Returns NULL on ENOMEM; the caller frees with rb_randmap_free. */
struct rb_randmap *rb_randmap_new(uint64_t nr_blocks, uint64_t seed);
/* Next block index in [0, nr_blocks); *new_pass set true when a pass just wrapped. */
uint64_t rb_randmap_next(struct rb_randmap *m, bool *new_pass);
void rb_randmap_free(struct rb_randmap *m);

/*
 * Non-uniform block choice. Hot blocks are spread over the range (fio hashes
 * the rank), so zipf:1.2 concentrates I/O on a few scattered blocks.
 */
struct rb_dist;

/* Returns NULL on ENOMEM or bad parameters (err filled). */
struct rb_dist *rb_dist_new(enum rand_dist kind, double param, double center,
			    uint64_t nr_blocks, uint64_t seed, char *err, size_t errlen);
uint64_t rb_dist_next(struct rb_dist *d);
void rb_dist_free(struct rb_dist *d);

#endif
