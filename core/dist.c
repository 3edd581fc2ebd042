/*
 * dist.c - non-uniform block choice for random_distribution=zipf, pareto
 * and normal.
 *
 * zipf and pareto draw a popularity rank (0 = hottest) and, as fio does,
 * hash the rank onto the range so the hot blocks are scattered over the
 * device instead of piling up at its start. The hash keeps rank 0 at 0 and
 * the layout is rotated by center (random when unset), so the hottest block
 * sits at center, fio's "most probable outcome".
 * normal is a place on the device, not a popularity: the block is drawn
 * from a bell around center (default the middle), sigma given in percent of
 * the range, so "hot middle of the disk" means what it says.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rand.h"

/* Exact zeta terms summed before the Euler-Maclaurin tail takes over. */
#define ZETA_EXACT_TERMS 65536

struct rb_dist {
	enum rand_dist kind;
	uint64_t nr_blocks;
	uint64_t rand_off;	/* rotation of the hashed layout */
	struct rb_rand rand;
	/* zipf */
	double zetan;		/* sum of 1/i^theta, i = 1..nr_blocks */
	double zipf_two;	/* 1 + 0.5^theta: the CDF of the two hottest ranks */
	double alpha;
	double eta;
	/* pareto */
	double pareto_pow;
	/* normal */
	double mean;
	double sigma;
	double spare;		/* Box-Muller makes two deviates; the second waits here */
	bool have_spare;
};

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * zeta(n, theta) = sum 1/i^theta. fio sums up to ten million terms; past a
 * few thousand the sum is a smooth function, so the tail comes from the
 * Euler-Maclaurin formula (integral + endpoint and first-derivative terms),
 * accurate to ~1e-15 relative, in constant time whatever the device size.
 */
static double zeta(uint64_t n, double theta)
{
	uint64_t k = n < ZETA_EXACT_TERMS ? n : ZETA_EXACT_TERMS;
	double sum = 0.0, fk, fn, dk, dn, dn_k;
	uint64_t i;

	/* smallest terms first keeps the rounding error down */
	for (i = k; i >= 1; i--)
		sum += pow((double)i, -theta);
	if (n == k)
		return sum;
	fk = pow((double)k, -theta);
	fn = pow((double)n, -theta);
	dk = -theta * fk / (double)k;
	dn = -theta * fn / (double)n;
	dn_k = (pow((double)n, 1.0 - theta) - pow((double)k, 1.0 - theta)) / (1.0 - theta);
	return sum + dn_k + (fn - fk) / 2.0 + (dn - dk) / 12.0;
}

static void dist_zipf_init(struct rb_dist *d, double theta)
{
	double n = (double)d->nr_blocks;

	d->zetan = zeta(d->nr_blocks, theta);
	d->zipf_two = 1.0 + pow(0.5, theta);
	d->alpha = 1.0 / (1.0 - theta);
	/* below three blocks the two explicit ranks cover everything and eta is 0/0 */
	if (d->nr_blocks > 2)
		d->eta = (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - d->zipf_two / d->zetan);
}

struct rb_dist *rb_dist_new(enum rand_dist kind, double param, double center,
			    uint64_t nr_blocks, uint64_t seed, char *err, size_t errlen)
{
	struct rb_dist *d;

	if (!nr_blocks) {
		snprintf(err, errlen, "the region has no whole block to choose from");
		errno = EINVAL;
		return NULL;
	}
	if (center >= 0 && !(center <= 1.0)) {
		snprintf(err, errlen, "center must be between 0.0 and 1.0 (got %g)", center);
		errno = EINVAL;
		return NULL;
	}
	switch (kind) {
	case DIST_RANDOM:
		break;
	case DIST_ZIPF:
		if (!(param > 0.0) || param == 1.0 || !isfinite(param)) {
			snprintf(err, errlen, "zipf theta must be greater than 0 and not 1 (got %g)",
				 param);
			errno = EINVAL;
			return NULL;
		}
		break;
	case DIST_PARETO:
		if (!(param > 0.0 && param < 1.0)) {
			snprintf(err, errlen, "pareto h must be between 0 and 1, exclusive (got %g)",
				 param);
			errno = EINVAL;
			return NULL;
		}
		break;
	case DIST_NORMAL:
		if (!(param >= 0.0) || !isfinite(param)) {
			snprintf(err, errlen, "normal deviation must be a percentage >= 0 (got %g)",
				 param);
			errno = EINVAL;
			return NULL;
		}
		break;
	default:
		snprintf(err, errlen, "unknown random distribution %d", (int)kind);
		errno = EINVAL;
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	d->kind = kind;
	d->nr_blocks = nr_blocks;
	rb_rand_seed(&d->rand, seed);
	if (center >= 0)
		d->rand_off = (uint64_t)(center * (double)nr_blocks) % nr_blocks;
	else
		d->rand_off = rb_rand_below(&d->rand, nr_blocks);
	switch (kind) {
	case DIST_ZIPF:
		dist_zipf_init(d, param);
		break;
	case DIST_PARETO:
		d->pareto_pow = log(param) / log(1.0 - param);
		break;
	case DIST_NORMAL:
		d->mean = (center >= 0 ? center : 0.5) * (double)nr_blocks;
		d->sigma = param / 100.0 * (double)nr_blocks;
		break;
	default:
		break;
	}
	return d;
}

/* Rank -> block: scatter the hot ranks (mix64(0) is 0), then rotate by the center. */
static inline uint64_t dist_place(const struct rb_dist *d, uint64_t rank)
{
	uint64_t b = mix64(rank) % d->nr_blocks + d->rand_off;

	return b >= d->nr_blocks ? b - d->nr_blocks : b;
}

/* Gray et al., "Quickly generating billion-record synthetic databases", as fio uses it. */
static uint64_t dist_zipf_rank(struct rb_dist *d)
{
	double u = rb_rand_double(&d->rand);
	double uz = u * d->zetan;
	uint64_t rank;

	if (uz < 1.0)
		return 0;
	if (uz < d->zipf_two)
		return 1;
	rank = (uint64_t)((double)d->nr_blocks * pow(d->eta * u - d->eta + 1.0, d->alpha));
	return rank < d->nr_blocks ? rank : d->nr_blocks - 1;
}

static uint64_t dist_normal_block(struct rb_dist *d)
{
	double n = (double)d->nr_blocks, x = d->mean;
	int tries;

	/* truncated normal: redraw what falls off the range; clamp if it keeps doing so */
	for (tries = 0; tries < 32; tries++) {
		double z;

		if (d->have_spare) {
			z = d->spare;
			d->have_spare = false;
		} else {
			double u1 = 1.0 - rb_rand_double(&d->rand);	/* (0, 1]: log is finite */
			double u2 = rb_rand_double(&d->rand);
			double rad = sqrt(-2.0 * log(u1));

			z = rad * cos(2.0 * M_PI * u2);
			d->spare = rad * sin(2.0 * M_PI * u2);
			d->have_spare = true;
		}
		x = d->mean + z * d->sigma;
		if (x >= 0.0 && x < n)
			break;
	}
	if (!(x >= 0.0))
		return 0;
	if (x >= n)
		return d->nr_blocks - 1;
	return (uint64_t)x;
}

uint64_t rb_dist_next(struct rb_dist *d)
{
	uint64_t rank;

	switch (d->kind) {
	case DIST_ZIPF:
		return dist_place(d, dist_zipf_rank(d));
	case DIST_PARETO:
		rank = (uint64_t)((double)(d->nr_blocks - 1) *
				  pow(rb_rand_double(&d->rand), d->pareto_pow));
		return dist_place(d, rank < d->nr_blocks ? rank : d->nr_blocks - 1);
	case DIST_NORMAL:
		return dist_normal_block(d);
	default:
		return rb_rand_below(&d->rand, d->nr_blocks);
	}
}

void rb_dist_free(struct rb_dist *d)
{
	free(d);
}
