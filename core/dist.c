/*
 * dist.c - non-uniform block choice for random_distribution=zipf, pareto
 * and normal, drawn as fio 3.33 draws it so that a job file gives the same
 * offsets under both (same seeds, same sizes).
 *
 * zipf and pareto draw a popularity rank (0 = hottest); normal averages a
 * dozen uniform draws, nudged by a deviation. All three then scatter the
 * result over the range with a multiplicative (golden ratio) hash and shift
 * it by an offset: a random one for zipf and pareto, center times the range
 * when center is given (so zipf's hottest block sits at center). The hash
 * is fio's too, which makes normal a popularity like the others, not a bell
 * around a place on the device.
 *
 * The arithmetic (its order, its casts, 32-bit draws over 2^32 - 1) is
 * fio's on purpose: a different rounding would move draws.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "rand.h"

/* fio sums at most this many zeta terms, whatever the range. */
#define ZETA_MAX_TERMS 10000000ull
/* normal: uniform draws averaged per block */
#define NORMAL_DRAWS 12

struct rb_dist {
	enum rand_dist kind;
	uint64_t nranges;
	uint64_t shift;		/* added to the hashed rank, mod nranges */
	double center;		/* -1 when unset */
	bool unhashed;		/* the rank as drawn, not scattered (fio's choice of a file) */
	struct rb_taus rand;
	/* zipf */
	double theta;
	double zetan;		/* sum of (1/i)^theta, i = 1..min(nranges, ZETA_MAX_TERMS) */
	double zeta2;		/* the same over the two hottest ranks */
	double alpha;
	double eta;
	/* pareto */
	double pareto_pow;
	/* normal: the deviation's span in blocks, 0 for none */
	unsigned span;
};

static inline uint64_t golden_hash(uint64_t v)
{
	return v * 0x61c8864680b583ebull;
}

/* A draw in [0, 1], over 2^32 - 1 as fio divides (1.0 is reachable). */
static inline double unit_draw(struct rb_dist *d)
{
	return (double)rb_taus_next(&d->rand) / 4294967295.0;
}

/*
 * The last sum, kept (under a lock: workers may set up in parallel):
 * numjobs= clones and files of one size ask for the same one, and ten
 * million pow() calls take a quarter of a second.
 */
static struct {
	pthread_mutex_t lock;
	uint64_t terms;
	double theta, sum;
} zeta_memo = { .lock = PTHREAD_MUTEX_INITIALIZER };

static double zeta(uint64_t terms, double theta)
{
	double sum = 0.0;
	uint64_t i;

	pthread_mutex_lock(&zeta_memo.lock);
	if (zeta_memo.terms == terms && zeta_memo.theta == theta) {
		sum = zeta_memo.sum;
		pthread_mutex_unlock(&zeta_memo.lock);
		return sum;
	}
	pthread_mutex_unlock(&zeta_memo.lock);
	/* largest terms first, one at a time: fio's order, hence its rounding */
	for (i = 1; i <= terms; i++)
		sum += pow(1.0 / (double)i, theta);
	pthread_mutex_lock(&zeta_memo.lock);
	zeta_memo.terms = terms;
	zeta_memo.theta = theta;
	zeta_memo.sum = sum;
	pthread_mutex_unlock(&zeta_memo.lock);
	return sum;
}

static void zipf_init(struct rb_dist *d, double theta)
{
	uint64_t terms = d->nranges < ZETA_MAX_TERMS ? d->nranges : ZETA_MAX_TERMS;
	double n = (double)d->nranges;

	d->theta = theta;
	d->zetan = zeta(terms, theta);
	d->zeta2 = pow(1.0, theta) + pow(0.5, theta);
	d->alpha = 1.0 / (1.0 - theta);
	d->eta = (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - d->zeta2 / d->zetan);
}

static uint64_t zipf_rank(struct rb_dist *d)
{
	double u = unit_draw(d), uz = u * d->zetan;
	double x;

	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + pow(0.5, d->theta))
		return 1;
	/* past the two hottest: Gray et al.'s closed form (eta is 0/0 below 3 ranks, never reached) */
	x = (double)d->nranges * pow(d->eta * u - d->eta + 1.0, d->alpha);
	return isfinite(x) && x >= 0 ? (uint64_t)x : 0;
}

static uint64_t pareto_rank(struct rb_dist *d)
{
	return (uint64_t)((double)(d->nranges - 1) * pow(unit_draw(d), d->pareto_pow));
}

/*
 * The mean of NORMAL_DRAWS uniform draws over [0, nranges], rounded up,
 * then a uniform deviation of up to span/2 either way, halved until the
 * block stays below nranges. fio mixes int and 64-bit unsigned here; the
 * wrap of a negative deviation below block 0 is kept, it is what halves it.
 */
static uint64_t normal_block(struct rb_dist *d)
{
	uint64_t sum = 0;
	int i, dev;

	for (i = 0; i < NORMAL_DRAWS; i++)
		sum += rb_taus_next(&d->rand) % (d->nranges + 1);
	sum = (sum + NORMAL_DRAWS - 1) / NORMAL_DRAWS;
	if (!d->span)
		return sum;
	dev = (int)(d->span * (rb_taus_next(&d->rand) / 4294967296.0)) - (int)(d->span / 2);
	/* a deviation of 0 that still leaves the block at nranges would loop for ever in fio */
	while (dev && (uint64_t)(int64_t)dev + sum >= d->nranges)
		dev /= 2;
	return sum + (uint64_t)(int64_t)dev;
}

/* zipf and pareto: the shift is the generator's first draw unless center is given */
static void first_shift(struct rb_dist *d)
{
	d->shift = rb_taus_next(&d->rand);
	if (d->center >= 0)
		d->shift = (uint64_t)((double)d->nranges * d->center);
}

static int check_param(enum rand_dist kind, double param, double center, char *err,
		       size_t errlen)
{
	if (center >= 0 && !(center <= 1.0)) {
		snprintf(err, errlen, "center must be between 0.0 and 1.0 (got %g)", center);
		return -EINVAL;
	}
	switch (kind) {
	case DIST_ZIPF:
		/* fio takes any theta but 1 (0 is uniform, below 0 favours the high ranks) */
		if (param == 1.0 || !isfinite(param)) {
			snprintf(err, errlen, "zipf theta must be a number other than 1 (got %g)",
				 param);
			return -EINVAL;
		}
		return 0;
	case DIST_PARETO:
		if (!(param > 0.0 && param < 1.0)) {
			snprintf(err, errlen, "pareto h must be between 0 and 1, exclusive (got %g)",
				 param);
			return -EINVAL;
		}
		return 0;
	case DIST_NORMAL:
		if (!(param >= 0.0 && param < 100.0)) {
			snprintf(err, errlen, "normal deviation must be a percentage from 0 to "
				 "below 100 (got %g)", param);
			return -EINVAL;
		}
		return 0;
	default:
		snprintf(err, errlen, "unknown random distribution %d", (int)kind);
		return -EINVAL;
	}
}

struct rb_dist *rb_dist_new(enum rand_dist kind, double param, double center,
			    uint64_t nranges, uint32_t seed, char *err, size_t errlen)
{
	struct rb_dist *d;
	int ret;

	if (!nranges) {
		snprintf(err, errlen, "the region has no block to choose from");
		errno = EINVAL;
		return NULL;
	}
	ret = check_param(kind, param, center, err, errlen);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->kind = kind;
	d->nranges = nranges;
	d->center = center;
	rb_taus_seed(&d->rand, seed);
	if (kind == DIST_NORMAL) {
		/* fio's width is 32 bits, kept to the half range (taken as its cast wraps) */
		if (param != 0.0) {
			d->span = (uint32_t)(int64_t)ceil((double)nranges * param / 100.0);
			if (d->span > nranges / 2)
				d->span = (uint32_t)(nranges / 2);
		}
		/*
		 * fio keeps this shift in 32 bits: below the middle it wraps to
		 * 2^32 less, so it is no plain shift back (fio's, kept)
		 */
		d->shift = center < 0 ? 0 : (uint32_t)(int64_t)((double)nranges * (center - 0.5));
		return d;
	}
	first_shift(d);
	if (kind == DIST_ZIPF)
		zipf_init(d, param);
	else
		d->pareto_pow = log(param) / log(1.0 - param);
	return d;
}

void rb_dist_restart(struct rb_dist *d)
{
	rb_taus_restart(&d->rand);
	if (d->kind != DIST_NORMAL)
		first_shift(d);
}

void rb_dist_unhash(struct rb_dist *d)
{
	d->unhashed = true;
}

uint64_t rb_dist_next(struct rb_dist *d)
{
	uint64_t v;

	switch (d->kind) {
	case DIST_ZIPF:
		v = zipf_rank(d);
		break;
	case DIST_PARETO:
		v = pareto_rank(d);
		break;
	default:
		v = normal_block(d);
		break;
	}
	return ((d->unhashed ? v : golden_hash(v)) + d->shift) % d->nranges;
}

void rb_dist_free(struct rb_dist *d)
{
	free(d);
}
