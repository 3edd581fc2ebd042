/*
 * test_ring.c - the live ring on one thread: empty and full, FIFO order,
 * batch pop across the wrap, indices that wrap past UINT32_MAX, drop
 * counting, the in-place calls (reserve/commit, peek/consume). Layout (record size, head/tail on separate cache lines) is
 * checked at compile time in core/ring.h.
 */
#include <stdint.h>
#include <string.h>

#include "check_util.h"
#include "ring.h"

static struct live_rec rec(uint32_t seq)
{
	struct live_rec r;

	memset(&r, 0, sizeof(r));
	r.seq = seq;
	r.type = LIVE_IO;
	r.u.io.tot_ios = (uint64_t)seq * 3 + 1;
	return r;
}

START_TEST(empty_and_full)
{
	struct ring r;
	struct live_rec out;
	uint32_t i;

	ck_assert_int_eq(ring_init(&r, 8), 0);
	ck_assert(!ring_pop(&r, &out));
	for (i = 0; i < 8; i++) {
		struct live_rec x = rec(i);

		ck_assert(ring_push(&r, &x));
	}
	{
		struct live_rec x = rec(99);

		ck_assert(!ring_push(&r, &x));
	}
	ck_assert_uint_eq(ring_dropped(&r), 1);
	for (i = 0; i < 8; i++) {
		ck_assert(ring_pop(&r, &out));
		ck_assert_uint_eq(out.seq, i);
		ck_assert_uint_eq(out.u.io.tot_ios, (uint64_t)i * 3 + 1);
	}
	ck_assert(!ring_pop(&r, &out));
	ring_release(&r);
}
END_TEST

START_TEST(bad_capacity)
{
	struct ring r;

	ck_assert_int_eq(ring_init(&r, 0), -22);
	ck_assert_int_eq(ring_init(&r, 1), -22);
	ck_assert_int_eq(ring_init(&r, 12), -22);
	ck_assert_int_eq(ring_init(&r, 2), 0);
	ring_release(&r);
}
END_TEST

START_TEST(fifo_interleaved)
{
	struct ring r;
	struct live_rec out;
	uint32_t pushed = 0, popped = 0, round;

	ck_assert_int_eq(ring_init(&r, 4), 0);
	for (round = 0; round < 1000; round++) {
		uint32_t n = round % 5, k;

		for (k = 0; k < n; k++) {
			struct live_rec x = rec(pushed);

			if (ring_push(&r, &x))
				pushed++;
		}
		for (k = 0; k < (round * 7) % 4; k++)
			if (ring_pop(&r, &out)) {
				ck_assert_uint_eq(out.seq, popped);
				popped++;
			}
	}
	while (ring_pop(&r, &out)) {
		ck_assert_uint_eq(out.seq, popped);
		popped++;
	}
	ck_assert_uint_eq(popped, pushed);
	ring_release(&r);
}
END_TEST

START_TEST(batch_pop_across_wrap)
{
	struct ring r;
	struct live_rec out[16];
	uint32_t i, n;

	ck_assert_int_eq(ring_init(&r, 8), 0);
	for (i = 0; i < 6; i++) {
		struct live_rec x = rec(i);

		ck_assert(ring_push(&r, &x));
	}
	ck_assert_uint_eq(ring_pop_batch(&r, out, 5), 5);
	for (i = 6; i < 13; i++) {	/* wraps the slot array */
		struct live_rec x = rec(i);

		ck_assert(ring_push(&r, &x));
	}
	n = ring_pop_batch(&r, out, 16);
	ck_assert_uint_eq(n, 8);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(out[i].seq, 5 + i);
	ck_assert_uint_eq(ring_pop_batch(&r, out, 16), 0);
	ring_release(&r);
}
END_TEST

START_TEST(indices_wrap_past_uint32_max)
{
	struct ring r;
	struct live_rec out[4];
	uint32_t i, seq = 0, expect = 0;

	ck_assert_int_eq(ring_init_at(&r, 4, UINT32_MAX - 5), 0);
	for (i = 0; i < 40; i++) {
		struct live_rec x = rec(seq);
		uint32_t n, k;

		if (ring_push(&r, &x))
			seq++;
		if (i % 3 == 2) {
			n = ring_pop_batch(&r, out, 4);
			for (k = 0; k < n; k++)
				ck_assert_uint_eq(out[k].seq, expect++);
		}
	}
	/* full detection still right after the wrap */
	while (ring_pop(&r, out))
		ck_assert_uint_eq(out[0].seq, expect++);
	for (i = 0; i < 4; i++) {
		struct live_rec x = rec(seq++);

		ck_assert(ring_push(&r, &x));
	}
	{
		struct live_rec x = rec(seq);

		ck_assert(!ring_push(&r, &x));
	}
	ck_assert_uint_eq(ring_dropped(&r), 1);
	ring_release(&r);
}
END_TEST

START_TEST(push_batch_fills_then_drops)
{
	struct ring r;
	struct live_rec in[6], out[8];
	uint32_t i, n;

	ck_assert_int_eq(ring_init_at(&r, 8, UINT32_MAX - 2), 0);
	for (i = 0; i < 6; i++)
		in[i] = rec(i);
	ck_assert_uint_eq(ring_push_batch(&r, in, 6), 6);
	ck_assert_uint_eq(ring_pop_batch(&r, out, 3), 3);
	/* 5 free: 5 of the next 6 go in (across the slot array's end), 1 is dropped */
	for (i = 0; i < 6; i++)
		in[i] = rec(6 + i);
	ck_assert_uint_eq(ring_push_batch(&r, in, 6), 5);
	ck_assert_uint_eq(ring_dropped(&r), 1);
	n = ring_pop_batch(&r, out, 8);
	ck_assert_uint_eq(n, 8);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(out[i].seq, 3 + i);
	ck_assert_uint_eq(ring_push_batch(&r, in, 0), 0);
	ring_release(&r);
}
END_TEST

START_TEST(in_place_across_wrap)
{
	struct ring r;
	struct live_rec *slots;
	const struct live_rec *recs;
	struct live_rec out[8];
	uint32_t i, n;

	ck_assert_int_eq(ring_init_at(&r, 8, UINT32_MAX - 7), 0);	/* index 0; 12 records carry it past UINT32_MAX */
	ck_assert_uint_eq(ring_peek(&r, &recs, 8), 0);
	/* 6 slots: not published until the commit */
	ck_assert_uint_eq(ring_reserve(&r, &slots, 6), 6);
	for (i = 0; i < 6; i++)
		slots[i] = rec(i);
	ck_assert_uint_eq(ring_peek(&r, &recs, 8), 0);
	ring_commit(&r, 6);
	/* the consumer sees them in place; consuming 4 frees 4 */
	ck_assert_uint_eq(ring_peek(&r, &recs, 4), 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(recs[i].seq, i);
	ring_consume(&r, 4);
	/* 6 free, but only 2 in a row before the slot array's end */
	ck_assert_uint_eq(ring_reserve(&r, &slots, 6), 2);
	slots[0] = rec(6);
	slots[1] = rec(7);
	ring_commit(&r, 2);
	ck_assert_uint_eq(ring_reserve(&r, &slots, 6), 4);
	for (i = 0; i < 4; i++)
		slots[i] = rec(8 + i);
	ring_commit(&r, 4);
	/* full: nothing to reserve, and nothing counted as dropped */
	ck_assert_uint_eq(ring_reserve(&r, &slots, 1), 0);
	ck_assert_uint_eq(ring_dropped(&r), 0);
	/* a peek stops at the array's end (or at its cached view of head); a pop copies across it */
	n = ring_peek(&r, &recs, 8);
	ck_assert(n >= 1 && n <= 4);
	ck_assert_uint_eq(recs[0].seq, 4);
	n = ring_pop_batch(&r, out, 8);
	ck_assert_uint_eq(n, 8);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(out[i].seq, 4 + i);
		ck_assert_uint_eq(out[i].u.io.tot_ios, (uint64_t)(4 + i) * 3 + 1);
	}
	ck_assert_uint_eq(ring_peek(&r, &recs, 8), 0);
	ring_release(&r);
}
END_TEST

static Suite *ring_suite(void)
{
	Suite *s = suite_create("ring");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, empty_and_full);
	tcase_add_test(tc, bad_capacity);
	tcase_add_test(tc, fifo_interleaved);
	tcase_add_test(tc, batch_pop_across_wrap);
	tcase_add_test(tc, indices_wrap_past_uint32_max);
	tcase_add_test(tc, push_batch_fills_then_drops);
	tcase_add_test(tc, in_place_across_wrap);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(ring_suite)
