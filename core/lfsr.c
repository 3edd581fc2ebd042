/*
 * lfsr.c - random_generator=lfsr: a shift register that visits every block
 * of a region once per pass in a scrambled order, with no map, stepped as
 * fio 3.33 steps its own so that a job's offsets are fio's.
 *
 * The register is the narrowest of fio's widths (3 to 63 bits) whose states
 * outnumber the blocks; it is an XNOR register, so all ones is the state it
 * never leaves and never reaches. States past the last block are stepped
 * over. Per-thread state, no allocation.
 */
#include <errno.h>
#include "rand.h"

/*
 * The taps of a maximal-length register of each width, as the mask of the
 * bits fed back (bit t-1 for tap t): fio's table, so the same sequence.
 */
static const uint64_t tap_mask[64] = {
	[3] = 0x6ull, [4] = 0xcull, [5] = 0x14ull,
	[6] = 0x30ull, [7] = 0x60ull, [8] = 0xb8ull,
	[9] = 0x110ull, [10] = 0x240ull, [11] = 0x500ull,
	[12] = 0x829ull, [13] = 0x100dull, [14] = 0x2015ull,
	[15] = 0x6000ull, [16] = 0xd008ull, [17] = 0x12000ull,
	[18] = 0x20400ull, [19] = 0x40023ull, [20] = 0x90000ull,
	[21] = 0x140000ull, [22] = 0x300000ull, [23] = 0x420000ull,
	[24] = 0xe10000ull, [25] = 0x1200000ull, [26] = 0x2000023ull,
	[27] = 0x4000013ull, [28] = 0x9000000ull, [29] = 0x14000000ull,
	[30] = 0x20000029ull, [31] = 0x48000000ull, [32] = 0xd0000001ull,
	[33] = 0x100080000ull, [34] = 0x204000003ull, [35] = 0x500000000ull,
	[36] = 0x801000000ull, [37] = 0x100000001full, [38] = 0x2000000031ull,
	[39] = 0x4400000000ull, [40] = 0xa000140000ull, [41] = 0x12000000000ull,
	[42] = 0x300000c0000ull, [43] = 0x63000000000ull, [44] = 0xc0000030000ull,
	[45] = 0x1b0000000000ull, [46] = 0x300003000000ull, [47] = 0x420000000000ull,
	[48] = 0xc00000180000ull, [49] = 0x1008000000000ull, [50] = 0x3000000c00000ull,
	[51] = 0x6000c00000000ull, [52] = 0x9000000000000ull, [53] = 0x18003000000000ull,
	[54] = 0x30000000030000ull, [55] = 0x40000040000000ull, [56] = 0xc0000600000000ull,
	[57] = 0x102000000000000ull, [58] = 0x200004000000000ull, [59] = 0x600003000000000ull,
	[60] = 0xc00000000000000ull, [61] = 0x1800300000000000ull, [62] = 0x3000000000000030ull,
	[63] = 0x6000000000000000ull,
};

static inline void step(struct rb_lfsr *l)
{
	/* shift right, the top bit in; a 0 shifted out feeds the taps back */
	uint64_t fb = (l->state & 1) ? 0 : l->xormask;

	l->state = ((l->state >> 1) | l->top) ^ fb;
}

int rb_lfsr_reset(struct rb_lfsr *l, uint64_t seed)
{
	uint64_t all = (l->top << 1) - 1;

	l->drawn = 0;
	l->state = seed & all;
	return l->state == all ? -EINVAL : 0;
}

int rb_lfsr_init(struct rb_lfsr *l, uint64_t nr_blocks, uint64_t seed)
{
	unsigned bits;

	for (bits = 3; bits < 64 && (1ull << bits) <= nr_blocks; bits++)
		;
	if (!nr_blocks || bits == 64)
		return -EINVAL;
	l->xormask = tap_mask[bits];
	l->top = 1ull << (bits - 1);
	l->last = nr_blocks - 1;
	/*
	 * fio's first draw after setup steps twice (its spin bookkeeping starts
	 * one over); a reset does not bring that back
	 */
	l->first = true;
	return rb_lfsr_reset(l, seed);
}

bool rb_lfsr_next(struct rb_lfsr *l, uint64_t *block)
{
	if (l->drawn > l->last)
		return false;
	l->drawn++;
	if (l->first) {
		step(l);
		l->first = false;
	}
	do
		step(l);
	while (l->state > l->last);
	*block = l->state;
	return true;
}
