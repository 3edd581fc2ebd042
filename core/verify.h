/*
 * verify.h - data verification: each written block carries a header and a
 * checksum (crc32c or md5) of its payload, so the read-back can say which
 * block at which offset came back wrong.
 *
 * Nothing here does I/O; the worker fills and checks buffers.
 */
#ifndef RB_VERIFY_H
#define RB_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "job.h"

/* Smallest block a verify header fits in. */
#define VERIFY_MIN_BS 512

uint32_t rb_crc32c(uint32_t crc, const void *buf, size_t len);

/*
 * The two implementations rb_crc32c chooses between, exposed so tests can
 * hold them to the same answers. rb_crc32c_hw returns false (and leaves
 * *out alone) when the CPU has no SSE4.2 crc32 instruction.
 */
uint32_t rb_crc32c_sw(uint32_t crc, const void *buf, size_t len);
bool rb_crc32c_hw(uint32_t crc, const void *buf, size_t len, uint32_t *out);

/*
 * Fills buf (len bytes, len >= VERIFY_MIN_BS) with pseudo-random payload
 * derived from seed and offset, and writes the header: magic, type, len,
 * offset, numberio, checksum.
 */
void verify_fill(enum verify_type type, void *buf, uint32_t len, uint64_t offset,
		 uint64_t seed, uint64_t numberio);

/*
 * The length a good header at buf says its block has (at most avail), or 0
 * when buf holds no intact header: a reader that does not know the writer's
 * block sizes walks the blocks by it.
 */
uint32_t verify_block_len(const void *buf, uint32_t avail);

/*
 * Checks a block read back from offset. Returns 0 when good, -EILSEQ when
 * not, with msg naming the offset and what was expected and found
 * ("bad magic 0x0000 (expected 0xacca)", "crc32c 0x1234abcd, expected
 * 0x9e3c22f1", "header says offset 8192, read from 4096").
 */
int verify_check(enum verify_type type, const void *buf, uint32_t len, uint64_t offset,
		 char *msg, size_t msglen);

#endif
