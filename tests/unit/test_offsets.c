/*
 * test_offsets.c - where the worker puts each I/O: sequential offsets with
 * holes and wrap-around, one cursor per direction for rw=rw, random offsets
 * through the random map (every block once per pass), uniform offsets
 * aligned to blockalign, mixed block sizes that never cross the region's end.
 */
#include <errno.h>
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
	/* fio's seeds for the first job with randrepeat */
	rb_frand_init(&fx->w.off_rand, RB_RANDSEED_BLOCK, false);
	rb_taus_init(&fx->w.seq_rand[DDIR_READ], 0x89, 1, RB_SEED_SEQ_RAND);
	rb_taus_init(&fx->w.zone_rand, 0x89, 1, RB_SEED_ZONE);
	fx->f.size = fx->f.reach = fx->f.seq_end = region;
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
	fx.job.rw_gap = 8192;	/* rw=write:8k: 8 KiB hole after each I/O */
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
	fx.f.map = rb_randmap_new(nr);
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

/*
 * fio 3.33's write_iolog of `--ioengine=null --rw=randread --bs=4k --size=64k`:
 * the blocks in its order, a covered block moved on to the next free one.
 */
START_TEST(random_map_follows_fio)
{
	static const uint64_t want[] = { 0, 11, 13, 7, 6, 14, 8, 5, 15, 1, 2, 10, 3, 4, 9, 12 };
	struct fixture fx;
	size_t i;

	setup(&fx, RW_READ | RW_RANDOM, 65536, 4096);
	fx.f.map = rb_randmap_new(16);
	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096), want[i] * 4096);
	/* the pass is over: nothing is free */
	ck_assert_int_eq(worker_rand_offset(&fx.w, &fx.f, DDIR_READ, &(uint64_t){ 0 }), -ENOSPC);
	rb_randmap_free(fx.f.map);
	job_spec_release(&fx.job);
}
END_TEST

/*
 * fio 3.33, `--rw=randread --bsrange=1k-4k --size=16k`, logs (offset, size)
 * (0, 1k) (11k, 3k) (14k, 2k) (7k, 4k) (6k, 1k) (1k, 4k) (5k, 1k): given fio's
 * size at each drawn offset, the map cuts it to the free run the same way.
 */
START_TEST(random_map_fits_sizes_like_fio)
{
	static const uint64_t off[] = { 0, 11264, 14336, 7168, 6144, 1024, 5120 };
	static const uint64_t len[] = { 1024, 3072, 2048, 4096, 1024, 4096, 1024 };
	struct fixture fx;
	size_t i;

	setup(&fx, RW_READ | RW_RANDOM, 16384, 1024);
	fx.job.bs_max[DDIR_READ] = 4096;
	fx.f.map = rb_randmap_new(16);
	for (i = 0; i < 7; i++) {
		uint64_t o;

		ck_assert_int_eq(worker_rand_offset(&fx.w, &fx.f, DDIR_READ, &o), 0);
		ck_assert_uint_eq(o, off[i]);
		ck_assert_uint_eq(worker_map_mark(&fx.w, &fx.f, DDIR_READ, o, len[i]), len[i]);
	}
	rb_randmap_reset(fx.f.map);
	/* 2k covered: a 4k I/O at 0 is cut to the 2k free before it */
	ck_assert_uint_eq(worker_map_mark(&fx.w, &fx.f, DDIR_READ, 2048, 1024), 1024);
	ck_assert_uint_eq(worker_map_mark(&fx.w, &fx.f, DDIR_READ, 0, 4096), 2048);
	rb_randmap_free(fx.f.map);
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
	fx.f.map = rb_randmap_new(fx.f.size / 512);
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

/* rw=read:-8k with bs=4k reads backwards; fio 3.33's write_iolog of size=64k:
 * 0, 57344, 53248, ..., 4096, 0, then the same walk again */
START_TEST(sequential_backwards)
{
	struct fixture fx;
	uint64_t i;

	setup(&fx, RW_READ, 64 * 1024, 4096);
	fx.job.rw_gap = -8192;
	ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096), 0);
	for (i = 0; i < 15; i++)
		ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096),
				  57344 - i * 4096);
	ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096), 57344);
	job_spec_release(&fx.job);
}
END_TEST

/*
 * A region that is not a whole number of blocks, as fio 3.33's write_iolog:
 * size=1022k rw=read:8k reads 0, 12k, ... 1020k (85), then the file is done
 * (the I/O at 1032k would cross the end); rw=read:8k over 341.33k (size=1m,
 * nrfiles=3) wraps after 336k; rw=write:-8k there walks down from 341333.
 */
START_TEST(sequential_unrounded_region)
{
	struct fixture fx;
	uint64_t i, off;

	setup(&fx, RW_READ, 1022 * 1024, 4096);
	fx.f.size = 1020 * 1024;	/* rounded to whole blocks: not where fio ends */
	fx.job.rw_gap = 8192;
	for (i = 0; i < 85; i++) {
		ck_assert_int_eq(worker_seq_offset(&fx.w, &fx.f, DDIR_READ, &off), 0);
		ck_assert_uint_eq(off, i * 12288);
		fx.f.next_seq[DDIR_READ] = off + 4096;
	}
	ck_assert_int_eq(worker_seq_offset(&fx.w, &fx.f, DDIR_READ, &off), -ENOSPC);
	job_spec_release(&fx.job);

	setup(&fx, RW_READ, 349525, 4096);
	fx.job.rw_gap = 8192;
	fx.f.next_seq[DDIR_READ] = 336 * 1024 + 4096;
	ck_assert_int_eq(worker_seq_offset(&fx.w, &fx.f, DDIR_READ, &off), 0);
	ck_assert_uint_eq(off, 0);

	fx.job.rw_gap = -8192;
	fx.f.next_seq[DDIR_READ] = 4096;
	ck_assert_int_eq(worker_seq_offset(&fx.w, &fx.f, DDIR_READ, &off), 0);
	ck_assert_uint_eq(off, 341333);
	job_spec_release(&fx.job);
}
END_TEST

/* zonemode=strided zonesize=16k zonerange=32k zoneskip=16k bs=8k over 1m, as fio 3.33's
 * write_iolog: 0 8192 49152 57344 98304 ... 1032192 1040384, then 0 again */
START_TEST(strided_zones)
{
	struct fixture fx;
	uint64_t i, off;

	setup(&fx, RW_READ, 1 << 20, 8192);
	fx.job.zone_strided = true;
	fx.job.zonesize = 16384;
	fx.job.zonerange = 32768;
	fx.job.zoneskip = 16384;
	for (i = 0; i < 44; i++) {
		off = worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 8192);
		ck_assert_uint_eq(off, (i / 2) * 49152 + (i % 2) * 8192);
	}
	ck_assert_uint_eq(worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 8192), 0);
	/* random I/O stays inside the current zone */
	fx.job.rw |= RW_RANDOM;
	memset(&fx.f, 0, sizeof(fx.f));
	fx.f.size = 1 << 20;
	for (i = 0; i < 44; i++) {
		off = worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 8192);
		ck_assert_uint_ge(off, (i / 2) * 49152);
		ck_assert_uint_lt(off, (i / 2) * 49152 + 32768);
	}
	job_spec_release(&fx.job);
}
END_TEST

/* random_distribution=zoned:50/5:30/15:20/ : half the I/O in the first 5% */
START_TEST(zoned_distribution)
{
	struct fixture fx;
	unsigned i, in[3] = { 0 };

	setup(&fx, RW_READ | RW_RANDOM, 100 * 4096 * 100, 4096);
	fx.job.norandommap = true;
	fx.job.nr_dzones = 3;
	fx.job.dzones[0].access = 50;
	fx.job.dzones[0].size = 5;
	fx.job.dzones[1].access = 30;
	fx.job.dzones[1].size = 15;
	fx.job.dzones[2].access = 20;
	fx.job.dzones[2].size = 80;
	for (i = 0; i < 10000; i++) {
		uint64_t pct = worker_pick_offset(&fx.w, &fx.f, DDIR_READ, 4096) * 100 /
			       fx.f.size;

		in[pct < 5 ? 0 : pct < 20 ? 1 : 2]++;
	}
	ck_assert_uint_gt(in[0], 4700);
	ck_assert_uint_lt(in[0], 5300);
	ck_assert_uint_gt(in[1], 2700);
	ck_assert_uint_lt(in[1], 3300);
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
	tcase_add_test(tc, random_map_follows_fio);
	tcase_add_test(tc, random_map_fits_sizes_like_fio);
	tcase_add_test(tc, norandommap_aligned_to_blockalign);
	tcase_add_test(tc, mixed_sizes_stay_inside);
	tcase_add_test(tc, percentage_random_mixes_sequential);
	tcase_add_test(tc, sequential_backwards);
	tcase_add_test(tc, sequential_unrounded_region);
	tcase_add_test(tc, strided_zones);
	tcase_add_test(tc, zoned_distribution);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(offsets_suite)
