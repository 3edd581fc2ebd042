/*
 * test_rand.c - the generator, the random map and the offset distributions.
 *
 * Every test uses fixed seeds, so the statistical bounds are deterministic:
 * they are set loose enough to hold for any decent generator, and a change
 * that trips them has broken the distribution, not been unlucky.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "rand.h"

START_TEST(test_rand_deterministic)
{
	struct rb_rand a, b, c;
	int i, same_c = 0;

	rb_rand_seed(&a, 42);
	rb_rand_seed(&b, 42);
	rb_rand_seed(&c, 43);
	int differ = 0;

	for (i = 0; i < 1000; i++) {
		uint64_t x = rb_rand_u64(&a), y = rb_rand_u64(&b), z = rb_rand_u64(&c);

		differ += x != y;
		same_c += x == z;
	}
	ck_assert_int_eq(differ, 0);
	ck_assert_int_eq(same_c, 0);
	/* seed 0 must not be a degenerate state */
	rb_rand_seed(&a, 0);
	ck_assert_uint_ne(rb_rand_u64(&a) | rb_rand_u64(&a), 0);
}
END_TEST

START_TEST(test_rand_below_range_and_uniformity)
{
	enum { BUCKETS = 100, DRAWS = 1000000 };
	static unsigned count[BUCKETS];
	struct rb_rand r;
	double chi2 = 0, expect = (double)DRAWS / BUCKETS;
	int i;

	memset(count, 0, sizeof(count));
	rb_rand_seed(&r, 12345);
	uint64_t worst = 0;

	for (i = 0; i < DRAWS; i++) {
		uint64_t v = rb_rand_below(&r, BUCKETS);

		/* Check's asserts cost a syscall each: keep them out of the loops */
		worst = v > worst ? v : worst;
		if (v < BUCKETS)
			count[v]++;
	}
	ck_assert_uint_lt(worst, BUCKETS);
	for (i = 0; i < BUCKETS; i++)
		chi2 += (count[i] - expect) * (count[i] - expect) / expect;
	/* 99 degrees of freedom: mean 99, sd 14; 200 is seven sd out */
	ck_assert_double_lt(chi2, 200.0);

	/* n = 1 has one answer; a huge n exercises the rejection path */
	uint64_t big = (1ull << 63) + 12345, worst1 = 0, worst_big = 0, worst3 = 0, v;

	for (i = 0; i < 1000; i++) {
		v = rb_rand_below(&r, 1);
		worst1 = v > worst1 ? v : worst1;
		v = rb_rand_below(&r, big);
		worst_big = v > worst_big ? v : worst_big;
		v = rb_rand_below(&r, 3);
		worst3 = v > worst3 ? v : worst3;
	}
	ck_assert_uint_eq(worst1, 0);
	ck_assert_uint_lt(worst_big, big);
	ck_assert_uint_gt(worst_big, big / 2);
	ck_assert_uint_eq(worst3, 2);
}
END_TEST

START_TEST(test_rand_double_range)
{
	struct rb_rand r;
	double sum = 0, lo = 1.0, hi = 0.0;
	int i;

	rb_rand_seed(&r, 7);
	for (i = 0; i < 100000; i++) {
		double d = rb_rand_double(&r);

		lo = d < lo ? d : lo;
		hi = d > hi ? d : hi;
		sum += d;
	}
	ck_assert_double_ge(lo, 0.0);
	ck_assert_double_lt(hi, 1.0);
	ck_assert_double_gt(sum / 100000, 0.49);
	ck_assert_double_lt(sum / 100000, 0.51);
}
END_TEST

/*
 * Marking every block through next_free from scattered starts: each block
 * handed out once, then NONE; a reset frees them all again.
 */
static void check_randmap(uint64_t n)
{
	struct rb_randmap *m = rb_randmap_new(n);
	uint8_t *seen = calloc((size_t)n, 1);
	uint64_t i, b = n / 3, repeats = 0, gaps = 0;
	int pass;

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(seen);
	for (pass = 0; pass < 2; pass++) {
		memset(seen, 0, (size_t)n);
		for (i = 0; i < n; i++) {
			uint64_t want;

			if (rb_randmap_isset(m, b)) {
				/* the next free block is the first unseen one after b, wrapping */
				want = (b + 1) % n;
				while (seen[want])
					want = (want + 1) % n;
				b = rb_randmap_next_free(m, b);
				gaps += b != want;
			}
			ck_assert_uint_lt(b, n);
			repeats += seen[b];
			seen[b] = 1;
			ck_assert_uint_eq(rb_randmap_set_nr(m, b, 1), 1);
			b = (b * 7 + 13) % n;
		}
		ck_assert_msg(!repeats && !gaps, "n=%llu: %llu repeats, %llu wrong next_free",
			      (unsigned long long)n, (unsigned long long)repeats,
			      (unsigned long long)gaps);
		ck_assert_uint_eq(rb_randmap_next_free(m, b), RB_RANDMAP_NONE);
		rb_randmap_reset(m);
		ck_assert(!rb_randmap_isset(m, n - 1));
	}
	rb_randmap_free(m);
	free(seen);
}

START_TEST(test_randmap_coverage)
{
	check_randmap(1);
	check_randmap(2);
	check_randmap(63);
	check_randmap(64);
	check_randmap(65);
	check_randmap(4097);
	check_randmap(64 * 64 + 1);
	check_randmap(300000);
}
END_TEST

/* A run is marked up to the first covered block or the region's end, as fio's axmap_set_nr. */
START_TEST(test_randmap_runs)
{
	struct rb_randmap *m = rb_randmap_new(200);

	ck_assert_uint_eq(rb_randmap_set_nr(m, 100, 1), 1);
	ck_assert_uint_eq(rb_randmap_set_nr(m, 60, 64), 40);	/* stops at 100 */
	ck_assert_uint_eq(rb_randmap_set_nr(m, 60, 4), 0);	/* already covered */
	ck_assert_uint_eq(rb_randmap_set_nr(m, 190, 64), 10);	/* the region ends */
	ck_assert_uint_eq(rb_randmap_set_nr(m, 0, 60), 60);
	ck_assert(rb_randmap_isset(m, 59) && rb_randmap_isset(m, 99) && !rb_randmap_isset(m, 101));
	/* 0-100 and 190-199 covered: after 199 the search wraps to 101 */
	ck_assert_uint_eq(rb_randmap_next_free(m, 199), 101);
	ck_assert_uint_eq(rb_randmap_next_free(m, 50), 101);
	ck_assert_uint_eq(rb_randmap_set_nr(m, 101, 89), 89);
	ck_assert_uint_eq(rb_randmap_next_free(m, 150), RB_RANDMAP_NONE);
	rb_randmap_free(m);
	ck_assert_ptr_null(rb_randmap_new(0));
}
END_TEST

/*
 * The offset generator against fio 3.33: write_iolog of
 * `fio --name=x --ioengine=null --rw=randread --bs=512 --norandommap
 * --number_ios=5 --size=S [--randseed=1234 --randrepeat=0]`. With size=1t
 * there are 2^31 blocks (taus88, a block is the draw's top 31 bits); with
 * size=16t --random_generator=tausworthe64 2^35 drawn by taus258.
 */
START_TEST(test_frand_matches_fio)
{
	static const uint64_t repeat32[] = { 66315157504ull, 813957614592ull, 927089718784ull,
					     516786446848ull, 441907005952ull };
	static const uint64_t repeat64[] = { 16509120649216ull, 462540735488ull,
					     1419124423680ull, 1749686400512ull,
					     9307731405312ull };
	static const uint64_t seeded[] = { 82002841600ull, 474862909952ull, 80020225536ull,
					   290006108672ull, 280041411584ull };
	struct rb_frand a, b, c;
	int i;

	/* randrepeat: fio's fixed seed times the thread number; randseed: slot 6 of the table */
	rb_frand_init(&a, RB_RANDSEED_BLOCK * 1, false);
	rb_frand_init(&b, RB_RANDSEED_BLOCK * 1, true);
	rb_frand_init(&c, rb_seed_slot(1234, 1, RB_SEED_BLOCK), false);
	for (i = 0; i < 5; i++) {
		ck_assert_uint_eq(rb_frand_scale(&a, 1ull << 31) * 512, repeat32[i]);
		ck_assert_uint_eq(rb_frand_scale(&b, 1ull << 35) * 512, repeat64[i]);
		ck_assert_uint_eq(rb_frand_scale(&c, 1ull << 31) * 512, seeded[i]);
	}
	/* a restart replays the sequence, as fio's reseed at each loop */
	rb_frand_restart(&a);
	ck_assert_uint_eq(rb_frand_scale(&a, 1ull << 31) * 512, repeat32[0]);
}
END_TEST

/*
 * The read/write mix against fio 3.33's own splits of size-bound jobs
 * (null engine, bs=4k, default randseed unless named): picks i of n.
 */
static void mix_split(uint64_t seed, unsigned thread_nr, unsigned read_pct, unsigned n,
		      unsigned loops, uint64_t *reads, uint64_t *writes)
{
	struct rb_mix m;
	unsigned l, i;

	*reads = *writes = 0;
	rb_mix_init(&m, seed, thread_nr, read_pct);
	for (l = 0; l < loops; l++) {
		if (l)
			rb_mix_new_loop(&m);
		for (i = 0; i < n; i++)
			*(rb_mix_next(&m) ? writes : reads) += 1;
	}
}

START_TEST(test_mix_matches_fio)
{
	static const struct {
		uint64_t seed;
		unsigned thread_nr, read_pct, n, loops;
		uint64_t reads, writes;
	} cases[] = {
		{ 0x89, 1, 50, 16384, 1, 8160, 8224 },		/* size=64m */
		{ 0x89, 1, 70, 16384, 1, 11457, 4927 },
		{ 0x89, 1, 30, 16384, 1, 4905, 11479 },		/* numjobs=3: three clones */
		{ 0x89, 2, 30, 16384, 1, 4857, 11527 },
		{ 0x89, 3, 30, 16384, 1, 4830, 11554 },
		{ 0x89, 1, 25, 16384, 3, 12390, 36762 },	/* loops=3 */
		{ 1234, 1, 70, 16384, 1, 11456, 4928 },		/* randseed=1234 */
		{ 0x89, 2, 40, 8192, 1, 3230, 4962 },		/* second job, size=32m */
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t r, w;

		mix_split(cases[i].seed, cases[i].thread_nr, cases[i].read_pct, cases[i].n,
			  cases[i].loops, &r, &w);
		ck_assert_msg(r == cases[i].reads && w == cases[i].writes,
			      "case %zu: %llu/%llu, fio %llu/%llu", i, (unsigned long long)r,
			      (unsigned long long)w, (unsigned long long)cases[i].reads,
			      (unsigned long long)cases[i].writes);
	}
}
END_TEST

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Share of all draws that landed on the hottest `top` blocks. */
static double hot_share(struct rb_dist *d, uint64_t n, unsigned draws, uint64_t top)
{
	unsigned *hits = calloc((size_t)n, sizeof(*hits));
	uint64_t sum = 0, i, worst = 0;
	unsigned k;

	ck_assert_ptr_nonnull(hits);
	for (k = 0; k < draws; k++) {
		uint64_t b = rb_dist_next(d);

		worst = b > worst ? b : worst;
		if (b < n)
			hits[b]++;
	}
	ck_assert_uint_lt(worst, n);
	qsort(hits, (size_t)n, sizeof(*hits), cmp_desc);
	for (i = 0; i < top; i++)
		sum += hits[i];
	free(hits);
	return (double)sum / draws;
}

START_TEST(test_dist_zipf)
{
	char err[128] = "";
	struct rb_dist *d = rb_dist_new(DIST_ZIPF, 1.2, -1, 10000, 5, err, sizeof(err));
	struct rb_dist *e;
	double share;
	uint64_t b, lo = 10000, hi = 0;
	int i;

	ck_assert_msg(d != NULL, "zipf:1.2 refused: %s", err);
	share = hot_share(d, 10000, 200000, 100);
	ck_assert_double_gt(share, 0.20);
	rb_dist_free(d);

	/* theta < 1 is skewed too, less so */
	d = rb_dist_new(DIST_ZIPF, 0.8, -1, 10000, 5, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	share = hot_share(d, 10000, 200000, 100);
	ck_assert_double_gt(share, 0.05);
	rb_dist_free(d);

	/* the hot blocks are scattered, not piled at the start */
	d = rb_dist_new(DIST_ZIPF, 1.2, -1, 1000000, 5, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	for (i = 0; i < 10000; i++) {
		b = rb_dist_next(d);
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	ck_assert_uint_lt(lo, 100000);
	ck_assert_uint_gt(hi, 900000);
	rb_dist_free(d);

	/* the hottest block sits at center */
	d = rb_dist_new(DIST_ZIPF, 1.2, 0.25, 10000, 5, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	{
		static unsigned hits[10000];
		unsigned top = 0;

		memset(hits, 0, sizeof(hits));
		for (i = 0; i < 100000; i++)
			hits[rb_dist_next(d) % 10000]++;
		for (i = 1; i < 10000; i++)
			top = hits[i] > hits[top] ? (unsigned)i : top;
		ck_assert_uint_eq(top, 2500);
	}
	rb_dist_free(d);

	/* huge ranges (fio sums ten million zeta terms, no more) still stay in range */
	d = rb_dist_new(DIST_ZIPF, 1.1, 0.5, 2700000000ull, 5, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	for (hi = 0, i = 0; i < 10000; i++) {
		b = rb_dist_next(d);
		hi = b > hi ? b : hi;
	}
	ck_assert_uint_lt(hi, 2700000000ull);
	rb_dist_free(d);

	/* tiny ranges */
	for (b = 1; b <= 3; b++) {
		d = rb_dist_new(DIST_ZIPF, 1.2, -1, b, 5, err, sizeof(err));
		ck_assert_ptr_nonnull(d);
		for (hi = 0, i = 0; i < 1000; i++) {
			uint64_t v = rb_dist_next(d);

			hi = v > hi ? v : hi;
		}
		ck_assert_uint_lt(hi, b);
		rb_dist_free(d);
	}

	/* same seed, same stream */
	d = rb_dist_new(DIST_ZIPF, 1.2, -1, 10000, 77, err, sizeof(err));
	e = rb_dist_new(DIST_ZIPF, 1.2, -1, 10000, 77, err, sizeof(err));
	for (lo = 0, i = 0; i < 1000; i++)
		lo += rb_dist_next(d) != rb_dist_next(e);
	ck_assert_uint_eq(lo, 0);
	rb_dist_free(d);
	rb_dist_free(e);

	ck_assert_ptr_null(rb_dist_new(DIST_ZIPF, 1.0, -1, 100, 1, err, sizeof(err)));
	ck_assert_msg(strstr(err, "theta") != NULL, "message: %s", err);
	/* fio takes theta 0 (uniform) and below (the high ranks hot): in range too */
	d = rb_dist_new(DIST_ZIPF, 0.0, -1, 100, 1, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	hot_share(d, 100, 1000, 1);
	rb_dist_free(d);
	d = rb_dist_new(DIST_ZIPF, -0.5, -1, 100, 1, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	hot_share(d, 100, 1000, 1);
	rb_dist_free(d);
}
END_TEST

START_TEST(test_dist_pareto)
{
	char err[128] = "";
	struct rb_dist *d = rb_dist_new(DIST_PARETO, 0.2, -1, 10000, 3, err, sizeof(err));
	double share;

	ck_assert_msg(d != NULL, "pareto:0.2 refused: %s", err);
	/* pareto:0.2 is the 80/20 rule: 20% of blocks take about 80% of the I/O */
	share = hot_share(d, 10000, 200000, 2000);
	ck_assert_double_gt(share, 0.70);
	rb_dist_free(d);

	ck_assert_ptr_null(rb_dist_new(DIST_PARETO, 1.0, -1, 100, 1, err, sizeof(err)));
	ck_assert_msg(strstr(err, "pareto") != NULL, "message: %s", err);
	ck_assert_ptr_null(rb_dist_new(DIST_PARETO, 0.0, -1, 100, 1, err, sizeof(err)));
}
END_TEST

START_TEST(test_dist_normal)
{
	char err[128] = "";
	struct rb_dist *d = rb_dist_new(DIST_NORMAL, 10, -1, 100000, 3, err, sizeof(err));
	double share;
	uint64_t b, lo = 100000, hi = 0;
	int i;

	ck_assert_msg(d != NULL, "normal:10 refused: %s", err);
	/*
	 * fio's normal is a popularity like zipf's: the blocks within about a
	 * sigma of the bell's middle (a fifth of them) take ~3/4 of the draws,
	 * scattered over the range by the hash
	 */
	share = hot_share(d, 100000, 200000, 20000);
	ck_assert_double_gt(share, 0.65);
	ck_assert_double_lt(share, 0.85);
	for (i = 0; i < 10000; i++) {
		b = rb_dist_next(d);
		lo = b < lo ? b : lo;
		hi = b > hi ? b : hi;
	}
	ck_assert_uint_lt(lo, 10000);
	ck_assert_uint_gt(hi, 90000);
	rb_dist_free(d);

	/* wide, narrow, off-centre and tiny: everything stays in range */
	d = rb_dist_new(DIST_NORMAL, 80, 0.0, 1000, 3, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	hot_share(d, 1000, 10000, 1);
	rb_dist_free(d);
	d = rb_dist_new(DIST_NORMAL, 0, 0.3, 1000, 3, err, sizeof(err));
	ck_assert_ptr_nonnull(d);
	hot_share(d, 1000, 10000, 1);
	rb_dist_free(d);
	for (b = 1; b <= 3; b++) {
		d = rb_dist_new(DIST_NORMAL, 10, -1, b, 5, err, sizeof(err));
		ck_assert_ptr_nonnull(d);
		hot_share(d, b, 1000, 1);
		rb_dist_free(d);
	}

	ck_assert_ptr_null(rb_dist_new(DIST_NORMAL, 10, 1.5, 100, 1, err, sizeof(err)));
	ck_assert_msg(strstr(err, "center") != NULL, "message: %s", err);
	ck_assert_ptr_null(rb_dist_new(DIST_NORMAL, 100, -1, 100, 1, err, sizeof(err)));
}
END_TEST

/*
 * The first blocks fio 3.33 reads (write_iolog offsets / 4096) for
 * `fio --name=x --ioengine=null --bs=4k --size=1m --rw=randread` plus the
 * option named: 256 ranges, randrepeat, thread 1, so the seed is the hash
 * of the file's name "x.0.0" (or the filename= given).
 */
START_TEST(test_dist_matches_fio)
{
	static const struct {
		enum rand_dist kind;
		double param;
		const char *name;
		uint64_t first[10];
	} cases[] = {
		{ DIST_ZIPF, 1.2, "x.0.0", { 227, 105, 54, 248, 13, 13, 227, 17, 206, 13 } },
		{ DIST_PARETO, 0.5, "x.0.0", { 3, 140, 236, 209, 84, 12, 175, 199, 246, 109 } },
		{ DIST_NORMAL, 10, "x.0.0", { 136, 200, 36, 241, 78, 120, 254, 254, 28, 178 } },
		/* a name past 12 bytes takes the hash's block loop */
		{ DIST_ZIPF, 1.2, "averylongfilename_123456789.dat",
		  { 25, 109, 130, 184, 88, 134, 117, 67, 88, 46 } },
	};
	char err[128] = "";
	unsigned c, i;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct rb_dist *d = rb_dist_new(cases[c].kind, cases[c].param, -1, 256,
						rb_name_hash(cases[c].name), err, sizeof(err));

		ck_assert_msg(d != NULL, "case %u refused: %s", c, err);
		for (i = 0; i < 10; i++) {
			uint64_t b = rb_dist_next(d);

			ck_assert_msg(b == cases[c].first[i], "case %u draw %u: %llu, fio %llu", c, i,
				      (unsigned long long)b, (unsigned long long)cases[c].first[i]);
		}
		rb_dist_free(d);
	}
}
END_TEST

/*
 * file_service_type=zipf/pareto/normal: the file of each of the first I/Os
 * fio 3.33 issues (write_iolog) for `fio --name=x --ioengine=null --bs=4k
 * --nrfiles=4 --size=4m --rw=randread --norandommap --number_ios=20` plus
 * the option: a draw over 4 << 10 values from seed table slot 5 (randseed
 * 0x89, thread 1), unhashed, the top bits naming the file; no file comes to
 * its end, so each I/O is one draw. A restart draws them again. random is
 * the slot's uniform draw scaled onto the files.
 */
START_TEST(test_dist_files_match_fio)
{
	static const struct {
		enum rand_dist kind;
		double param;
		unsigned first[20];
	} cases[] = {
		{ DIST_ZIPF, 1.1, { 3, 3, 3, 3, 3, 3, 1, 3, 0, 3, 3, 3, 3, 0, 3, 3, 3, 3, 3, 3 } },
		{ DIST_PARETO, 0.2, { 0, 3, 3, 3, 3, 3, 1, 3, 1, 0, 3, 3, 3, 1, 3, 3, 3, 3, 3, 3 } },
		{ DIST_NORMAL, 30, { 1, 2, 1, 1, 2, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2, 1 } },
	};
	/* file_service_type=random: uniform over the 4 files, the same slot's taus88 */
	static const unsigned fio_random[] = { 3, 3, 0, 0, 2, 0, 2, 3, 2, 3, 3, 1, 1, 2, 3, 0, 2, 2, 1, 3 };
	struct rb_frand fr;
	char err[128] = "";
	unsigned c, i, pass;

	rb_frand_init(&fr, rb_seed_slot(0x89, 1, 5), false);
	for (i = 0; i < 20; i++) {
		uint64_t f = rb_frand_scale(&fr, 4);

		ck_assert_msg(f == fio_random[i], "random draw %u: file %llu, fio %u", i,
			      (unsigned long long)f, fio_random[i]);
	}
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct rb_dist *d = rb_dist_new(cases[c].kind, cases[c].param, -1, 4 << 10,
						(uint32_t)rb_seed_slot(0x89, 1, 5), err, sizeof(err));

		ck_assert_msg(d != NULL, "case %u refused: %s", c, err);
		rb_dist_unhash(d);
		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < 20; i++) {
				uint64_t f = rb_dist_next(d) >> 10;

				ck_assert_msg(f == cases[c].first[i], "case %u pass %u draw %u: file "
					      "%llu, fio %u", c, pass, i, (unsigned long long)f,
					      cases[c].first[i]);
			}
			rb_dist_restart(d);
		}
		rb_dist_free(d);
	}
}
END_TEST

START_TEST(test_lfsr)
{
	/* fio 3.33, random_generator=lfsr, 256 blocks, randrepeat, thread 1 */
	static const uint64_t fio_first[] = { 235, 205, 163, 196, 114, 41, 154, 93, 135, 248 };
	static const uint64_t sizes[] = { 1, 2, 3, 7, 8, 9, 63, 64, 65, 256, 1000, 4097, 100000 };
	struct rb_lfsr l;
	unsigned s, i;
	uint64_t b;

	ck_assert_int_eq(rb_lfsr_init(&l, 256, RB_RANDSEED_BLOCK * 1), 0);
	for (i = 0; i < 10; i++) {
		ck_assert(rb_lfsr_next(&l, &b));
		ck_assert_uint_eq(b, fio_first[i]);
	}
	/* each block once a pass, then none; a reset starts another pass (even seeds: never all ones) */
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s], k;
		uint8_t *seen = calloc((size_t)n, 1);
		int pass;

		ck_assert_ptr_nonnull(seen);
		ck_assert_int_eq(rb_lfsr_init(&l, n, 0x2468ace0u + 2 * s), 0);
		for (pass = 0; pass < 2; pass++) {
			memset(seen, 0, (size_t)n);
			for (k = 0; k < n; k++) {
				ck_assert_msg(rb_lfsr_next(&l, &b), "%llu blocks: ended after %llu",
					      (unsigned long long)n, (unsigned long long)k);
				ck_assert_uint_lt(b, n);
				ck_assert_msg(!seen[b], "%llu blocks: %llu twice", (unsigned long long)n,
					      (unsigned long long)b);
				seen[b] = 1;
			}
			ck_assert(!rb_lfsr_next(&l, &b));
			ck_assert_int_eq(rb_lfsr_reset(&l, 0x2468ace0u + 2 * s), 0);
		}
		free(seen);
	}
	/* all ones is the register's dead state: 5 blocks take 3 bits, so seed 7 (or 15) */
	ck_assert_int_eq(rb_lfsr_init(&l, 5, 7), -EINVAL);
	ck_assert_int_eq(rb_lfsr_init(&l, 5, 15), -EINVAL);
	ck_assert_int_eq(rb_lfsr_init(&l, 0, 1), -EINVAL);
}
END_TEST

static Suite *rand_suite(void)
{
	Suite *s = suite_create("rand");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rand_deterministic);
	tcase_add_test(tc, test_rand_below_range_and_uniformity);
	tcase_add_test(tc, test_rand_double_range);
	tcase_add_test(tc, test_mix_matches_fio);
	tcase_add_test(tc, test_randmap_coverage);
	tcase_add_test(tc, test_randmap_runs);
	tcase_add_test(tc, test_frand_matches_fio);
	tcase_add_test(tc, test_dist_zipf);
	tcase_add_test(tc, test_dist_pareto);
	tcase_add_test(tc, test_dist_normal);
	tcase_add_test(tc, test_dist_matches_fio);
	tcase_add_test(tc, test_dist_files_match_fio);
	tcase_add_test(tc, test_lfsr);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(rand_suite)
