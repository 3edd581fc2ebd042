/*
 * verify.c - the verify= block format: a header that says what the block
 * should be (where it was written, by which run, with which checksum) and a
 * payload derived from (seed, offset), so a read-back can tell a torn,
 * corrupted or misplaced block apart and say which.
 *
 * Layout at the start of every block, little-endian:
 *    0 u16 magic 0xacca     2 u16 type       4 u32 len (block size)
 *    8 u64 offset          16 u64 numberio  24 u64 seed
 *   32 u8[16] checksum of bytes [VERIFY_HDR_SIZE, len): crc32c in the
 *      first four bytes (rest zero), or md5
 *   48 u32 zero, so the payload starts 8-byte aligned at 56
 *   52 u32 crc32c of bytes [0, 52): every header byte is covered
 *
 * Pure computation: no I/O, no global state beyond the crc32c tables.
 */
#include <endian.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <nettle/md5.h>
#include "verify.h"

#if defined(__x86_64__) || defined(__i386__)
#include <nmmintrin.h>
#define RB_HAVE_SSE42_CRC 1
#endif

#define VERIFY_MAGIC 0xaccau
#define VERIFY_HDR_SIZE 56u
#define HDR_OFF_CSUM 32u
#define HDR_OFF_PAD 48u
#define HDR_OFF_HCRC 52u

/* ---- crc32c ---------------------------------------------------------- */

#define CRC32C_POLY 0x82f63b78u	/* Castagnoli, bit-reflected */

static uint32_t crc32c_table[8][256];
static uint32_t (*crc32c_impl)(uint32_t, const void *, size_t);
static pthread_once_t crc32c_once = PTHREAD_ONCE_INIT;

static void crc32c_make_tables(void)
{
	uint32_t i, j, c;

	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
		crc32c_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			crc32c_table[j][i] = (crc32c_table[j - 1][i] >> 8) ^
					     crc32c_table[0][crc32c_table[j - 1][i] & 0xff];
}

/* Slicing-by-8: eight table lookups per 8 bytes instead of a loop per bit. */
static uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t c = ~crc;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		v = le64toh(v) ^ c;
		c = crc32c_table[7][v & 0xff] ^ crc32c_table[6][(v >> 8) & 0xff] ^
		    crc32c_table[5][(v >> 16) & 0xff] ^ crc32c_table[4][(v >> 24) & 0xff] ^
		    crc32c_table[3][(v >> 32) & 0xff] ^ crc32c_table[2][(v >> 40) & 0xff] ^
		    crc32c_table[1][(v >> 48) & 0xff] ^ crc32c_table[0][v >> 56];
	}
	while (len--)
		c = (c >> 8) ^ crc32c_table[0][(c ^ *p++) & 0xff];
	return ~c;
}

#ifdef RB_HAVE_SSE42_CRC
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
#ifdef __x86_64__
	uint64_t c = ~crc;

	for (; len >= 8; len -= 8, p += 8) {
		uint64_t v;

		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
	}
#else
	uint32_t c = ~crc;
#endif
	for (; len >= 4; len -= 4, p += 4) {
		uint32_t v;

		memcpy(&v, p, 4);
		c = _mm_crc32_u32((uint32_t)c, v);
	}
	while (len--)
		c = _mm_crc32_u8((uint32_t)c, *p++);
	return ~(uint32_t)c;
}
#endif

static void crc32c_setup(void)
{
	crc32c_make_tables();
	crc32c_impl = crc32c_sw;
#ifdef RB_HAVE_SSE42_CRC
	if (__builtin_cpu_supports("sse4.2"))
		crc32c_impl = crc32c_hw;
#endif
}

uint32_t rb_crc32c(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc32c_once, crc32c_setup);
	return crc32c_impl(crc, buf, len);
}

uint32_t rb_crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&crc32c_once, crc32c_setup);
	return crc32c_sw(crc, buf, len);
}

bool rb_crc32c_hw(uint32_t crc, const void *buf, size_t len, uint32_t *out)
{
#ifdef RB_HAVE_SSE42_CRC
	if (__builtin_cpu_supports("sse4.2")) {
		*out = crc32c_hw(crc, buf, len);
		return true;
	}
#endif
	return false;
}

/* ---- the block format ------------------------------------------------ */

struct verify_hdr {
	uint16_t magic;
	uint16_t type;
	uint32_t len;
	uint64_t offset;
	uint64_t numberio;
	uint64_t seed;
	uint8_t csum[16];
	uint32_t hdr_crc;
};

static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The payload is a splitmix64 stream keyed by (seed, offset): word k is a
 * function of k alone, so the expected bytes at any position come back from
 * the header, which lets a failed check point at the first wrong byte; and
 * two blocks never share a payload.
 */
static inline uint64_t payload_key(uint64_t seed, uint64_t offset)
{
	return mix64(seed ^ mix64(offset + 0x9e3779b97f4a7c15ull));
}

/* One multiply a word, half of mix64: the payload must be unique, not perfectly random. */
static inline uint64_t payload_word(uint64_t key, uint64_t k)
{
	uint64_t z = key + (k + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 32)) * 0xd6e8feb86659fd93ull;
	return htole64(z ^ (z >> 32));
}

static void payload_fill(unsigned char *p, size_t len, uint64_t seed, uint64_t offset)
{
	uint64_t key = payload_key(seed, offset), k, v;

	for (k = 0; len >= 8; len -= 8, p += 8, k++) {
		v = payload_word(key, k);
		memcpy(p, &v, 8);
	}
	if (len) {
		v = payload_word(key, k);
		memcpy(p, &v, len);
	}
}

static const char *verify_type_name(unsigned type)
{
	switch (type) {
	case VERIFY_CRC32C:
		return "crc32c";
	case VERIFY_MD5:
		return "md5";
	default:
		return "unknown";
	}
}

/* Checksum of the payload into a 16-byte field (crc32c little-endian, zero padded). */
static void payload_csum(enum verify_type type, const unsigned char *p, size_t len,
			 uint8_t out[16])
{
	memset(out, 0, 16);
	if (type == VERIFY_MD5) {
		struct md5_ctx md5;

		md5_init(&md5);
		md5_update(&md5, len, p);
		md5_digest(&md5, MD5_DIGEST_SIZE, out);
	} else {
		uint32_t c = htole32(rb_crc32c(0, p, len));

		memcpy(out, &c, 4);
	}
}

static void hdr_store(unsigned char *buf, const struct verify_hdr *h)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	v16 = htole16(h->magic);
	memcpy(buf + 0, &v16, 2);
	v16 = htole16(h->type);
	memcpy(buf + 2, &v16, 2);
	v32 = htole32(h->len);
	memcpy(buf + 4, &v32, 4);
	v64 = htole64(h->offset);
	memcpy(buf + 8, &v64, 8);
	v64 = htole64(h->numberio);
	memcpy(buf + 16, &v64, 8);
	v64 = htole64(h->seed);
	memcpy(buf + 24, &v64, 8);
	memcpy(buf + HDR_OFF_CSUM, h->csum, 16);
	memset(buf + HDR_OFF_PAD, 0, HDR_OFF_HCRC - HDR_OFF_PAD);
	v32 = htole32(rb_crc32c(0, buf, HDR_OFF_HCRC));
	memcpy(buf + HDR_OFF_HCRC, &v32, 4);
}

static void hdr_load(const unsigned char *buf, struct verify_hdr *h)
{
	memcpy(&h->magic, buf + 0, 2);
	h->magic = le16toh(h->magic);
	memcpy(&h->type, buf + 2, 2);
	h->type = le16toh(h->type);
	memcpy(&h->len, buf + 4, 4);
	h->len = le32toh(h->len);
	memcpy(&h->offset, buf + 8, 8);
	h->offset = le64toh(h->offset);
	memcpy(&h->numberio, buf + 16, 8);
	h->numberio = le64toh(h->numberio);
	memcpy(&h->seed, buf + 24, 8);
	h->seed = le64toh(h->seed);
	memcpy(h->csum, buf + HDR_OFF_CSUM, 16);
	memcpy(&h->hdr_crc, buf + HDR_OFF_HCRC, 4);
	h->hdr_crc = le32toh(h->hdr_crc);
}

void verify_fill(enum verify_type type, void *buf, uint32_t len, uint64_t offset,
		 uint64_t seed, uint64_t numberio)
{
	unsigned char *p = buf;
	struct verify_hdr h;

	if (type == VERIFY_NONE || len < VERIFY_MIN_BS) {
		payload_fill(p, len, seed, offset);
		return;
	}
	payload_fill(p + VERIFY_HDR_SIZE, len - VERIFY_HDR_SIZE, seed, offset);
	h.magic = VERIFY_MAGIC;
	h.type = (uint16_t)type;
	h.len = len;
	h.offset = offset;
	h.numberio = numberio;
	h.seed = seed;
	payload_csum(type, p + VERIFY_HDR_SIZE, len - VERIFY_HDR_SIZE, h.csum);
	hdr_store(p, &h);
}

static void hex(char *out, const uint8_t *b, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/*
 * The header is intact, so its seed regenerates what the payload should
 * be: find the first byte that differs. Only runs on the failure path.
 * Returns its position in the block, or -1 when the payload is as written
 * (then the stored checksum itself was damaged).
 */
static long first_difference(const unsigned char *p, uint32_t len, const struct verify_hdr *h,
			     unsigned char *want, unsigned char *got)
{
	uint64_t key = payload_key(h->seed, h->offset), k, v;
	uint32_t pos, i, n;

	for (pos = VERIFY_HDR_SIZE, k = 0; pos < len; pos += 8, k++) {
		unsigned char w[8];

		v = payload_word(key, k);
		memcpy(w, &v, 8);
		n = len - pos < 8 ? len - pos : 8;
		for (i = 0; i < n; i++)
			if (p[pos + i] != w[i]) {
				*want = w[i];
				*got = p[pos + i];
				return (long)(pos + i);
			}
	}
	return -1;
}

uint32_t verify_block_len(const void *buf, uint32_t avail)
{
	struct verify_hdr h;

	if (avail < VERIFY_MIN_BS)
		return 0;
	hdr_load(buf, &h);
	if (h.magic != VERIFY_MAGIC || rb_crc32c(0, buf, HDR_OFF_HCRC) != h.hdr_crc ||
	    h.len < VERIFY_MIN_BS || h.len > avail)
		return 0;
	return h.len;
}

int verify_check(enum verify_type type, const void *buf, uint32_t len, uint64_t offset,
		 char *msg, size_t msglen)
{
	const unsigned char *p = buf;
	struct verify_hdr h;
	uint8_t csum[16];
	uint32_t hcrc;

	if (type == VERIFY_NONE)
		return 0;
	if (len < VERIFY_MIN_BS) {
		snprintf(msg, msglen, "verify: block of %u bytes at offset %llu is smaller than "
			 "the %u bytes a verify header needs", len, (unsigned long long)offset,
			 VERIFY_MIN_BS);
		return -EINVAL;
	}
	hdr_load(p, &h);
	if (h.magic != VERIFY_MAGIC) {
		snprintf(msg, msglen, "verify: bad magic at offset %llu: expected 0x%04x, got 0x%04x",
			 (unsigned long long)offset, VERIFY_MAGIC, h.magic);
		return -EILSEQ;
	}
	hcrc = rb_crc32c(0, p, HDR_OFF_HCRC);
	if (hcrc != h.hdr_crc) {
		snprintf(msg, msglen, "verify: bad header crc32c at offset %llu: expected 0x%08x, "
			 "got 0x%08x", (unsigned long long)offset, h.hdr_crc, hcrc);
		return -EILSEQ;
	}
	if (h.type != type) {
		snprintf(msg, msglen, "verify: block at offset %llu was written with verify=%s, "
			 "expected verify=%s", (unsigned long long)offset,
			 verify_type_name(h.type), verify_type_name(type));
		return -EILSEQ;
	}
	if (h.offset != offset) {
		snprintf(msg, msglen, "verify: block at offset %llu carries header offset %llu "
			 "(misplaced write)", (unsigned long long)offset,
			 (unsigned long long)h.offset);
		return -EILSEQ;
	}
	if (h.len != len) {
		snprintf(msg, msglen, "verify: block at offset %llu was written as %u bytes, "
			 "read back as %u", (unsigned long long)offset, h.len, len);
		return -EILSEQ;
	}
	payload_csum(type, p + VERIFY_HDR_SIZE, len - VERIFY_HDR_SIZE, csum);
	if (memcmp(csum, h.csum, 16)) {
		unsigned char want = 0, got = 0;
		long pos = first_difference(p, len, &h, &want, &got);
		char where[96] = "";

		if (pos >= 0)
			snprintf(where, sizeof(where), "; first bad byte at +%ld: expected 0x%02x, "
				 "got 0x%02x", pos, want, got);
		if (type == VERIFY_MD5) {
			char e[33], g[33];

			hex(e, h.csum, 16);
			hex(g, csum, 16);
			snprintf(msg, msglen, "verify: bad md5 at offset %llu (block of %u "
				     "bytes): expected %s, got %s%s", (unsigned long long)offset,
				     len, e, g, where);
		} else {
			uint32_t e, g;

			memcpy(&e, h.csum, 4);
			memcpy(&g, csum, 4);
			snprintf(msg, msglen, "verify: bad crc32c at offset %llu (block of %u "
				     "bytes): expected 0x%08x, got 0x%08x%s",
				     (unsigned long long)offset, len, le32toh(e), le32toh(g), where);
		}
		return -EILSEQ;
	}
	return 0;
}
