/*
 * test_offsets.c - where the worker puts each I/O: sequential offsets with
 * holes and wrap-around, one cursor per direction for rw=rw, random offsets
 * through the random map (every block once per pass), uniform offsets
 * aligned to blockalign, mixed block sizes that never cross the region's end.
 */
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "job.h"
#include "rand.h"
#include "worker.h"
#include "worker_int.h"

struct fixture {
	struct job_spec job;
	struct worker w;
	struct worker_file f;
};

static void setup(struct fixture *fx, unsigned rw, uint64_t region, uint64_t bs)
{
	memset(fx, 0, sizeof(*fx));
	job_spec_defaults(&fx->job);
	fx->job.rw = rw;
	fx->job.bs[DDIR_READ] = fx->job.bs[DDIR_WRITE] = bs;
	fx->w.job = &fx->job;
	fx->w.min_bs = bs;
	fx->w.max_bs = bs;
	rb_rand_seed(&fx->w.rand, 42);
	fx->f.size = region;
	fx->f.nr_blocks = region / bs;
	fx->w.files = &fx->f;
	fx->w.nr_files = 1;
}

START_TEST(sequential_steps_and_wraps)
{
	struct fixture fx;
	uint64_t i;

	setup(&fx, RW_READ, 64 * 1024, 4096);
	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096), i * 4096);
	/* past the end: back to the start */
	ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096), 0);
	job_spec_release(&fx.job);
}
END_TEST

START_TEST(sequential_holes)
{
	struct fixture fx;

	setup(&fx, RW_WRITE, 1 << 20, 4096);
	fx.job.rw_nr = 8192;	/* rw=write:8k: 8 KiB hole after each I/O */
	ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_WRITE, 4096), 0);
	ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_WRITE, 4096), 12288);
	ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_WRITE, 4096), 24576);
	job_spec_release(&fx.job);
}
END_TEST

/* rw=rw: reads and writes each walk the region from its start (fio's write_iolog shows
 * read 0, read 64k, read 128k, write 0, read 192k, ...) */
START_TEST(sequential_mix_per_direction)
{
	static const int dirs[] = { DDIR_READ, DDIR_READ, DDIR_READ, DDIR_WRITE, DDIR_READ,
				    DDIR_WRITE, DDIR_WRITE };
	static const uint64_t want[] = { 0, 65536, 131072, 0, 196608, 65536, 131072 };
	struct fixture fx;
	size_t i;

	setup(&fx, RW_READ | RW_WRITE, 1 << 20, 65536);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, dirs[i], 65536), want[i]);
	job_spec_release(&fx.job);
}
END_TEST

START_TEST(random_map_every_block_once)
{
	struct fixture fx;
	const uint64_t nr = 1000;
	unsigned char *seen = calloc(nr, 1);
	uint64_t i;

	setup(&fx, RW_READ | RW_RANDOM, nr * 4096, 4096);
	fx.f.map = rb_randmap_new(nr, 7);
	for (i = 0; i < nr; i++) {
		uint64_t off = worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096);

		ck_assert_uint_eq(off % 4096, 0);
		ck_assert_uint_lt(off / 4096, nr);
		ck_assert_uint_eq(seen[off / 4096], 0);
		seen[off / 4096] = 1;
	}
	rb_randmap_free(fx.f.map);
	free(seen);
	job_spec_release(&fx.job);
}
END_TEST

START_TEST(norandommap_aligned_to_blockalign)
{
	struct fixture fx;
	int i;

	setup(&fx, RW_READ | RW_RANDOM, 1 << 20, 4096);
	fx.job.norandommap = true;
	fx.job.ba[DDIR_READ] = 65536;
	for (i = 0; i < 10000; i++) {
		uint64_t off = worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096);

		ck_assert_uint_eq(off % 65536, 0);
		ck_assert_uint_le(off + 4096, 1 << 20);
	}
	job_spec_release(&fx.job);
}
END_TEST

START_TEST(mixed_sizes_stay_inside)
{
	struct fixture fx;
	uint64_t sizes[] = { 512, 4096, 65536 };
	int i;

	setup(&fx, RW_READ | RW_RANDOM, 3 * 65536 + 512, 512);
	fx.w.max_bs = 65536;
	fx.f.map = rb_randmap_new(fx.f.nr_blocks - 65536 / 512 + 1, 3);
	for (i = 0; i < 20000; i++) {
		uint64_t bs = sizes[i % 3];
		uint64_t off = worker_pick_offset(&fx.w, &fx.f, DDIR_READ, bs);

		ck_assert_uint_eq(off % 512, 0);
		ck_assert_uint_le(off + bs, fx.f.size);
	}
	rb_randmap_free(fx.f.map);
	job_spec_release(&fx.job);
}
END_TEST

START_TEST(percentage_random_mixes_sequential)
{
	struct fixture fx;
	int i, seq = 0;
	uint64_t prev = 0;

	setup(&fx, RW_READ | RW_RANDOM, 64 << 20, 4096);
	fx.job.norandommap = true;
	fx.job.percentage_random[DDIR_READ] = 0;	/* 0% random = all sequential */
	for (i = 0; i < 100; i++) {
		uint64_t off = worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096);

		if (i && off == prev + 4096)
			seq++;
		prev = off;
	}
	ck_assert_int_eq(seq, 99);
	job_spec_release(&fx.job);
}
END_TEST

static Suite *offsets_suite(void)
{
	Suite *s = suite_create("offsets");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, sequential_steps_and_wraps);
	tcase_add_test(tc, sequential_holes);
	tcase_add_test(tc, sequential_mix_per_direction);
	tcase_add_test(tc, random_map_every_block_once);
	tcase_add_test(tc, norandommap_aligned_to_blockalign);
	tcase_add_test(tc, mixed_sizes_stay_inside);
	tcase_add_test(tc, percentage_random_mixes_sequential);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(offsets_suite)
