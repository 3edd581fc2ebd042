/*
 * test_verify.c - crc32c (both implementations), md5, and the verify block
 * format: round trips, and each kind of damage named with its offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nettle/md5.h>
#include "check_util.h"
#include "verify.h"

START_TEST(test_crc32c_vectors)
{
	static const unsigned char zeros[32], ones[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	unsigned char inc[32];
	int i;

	for (i = 0; i < 32; i++)
		inc[i] = (unsigned char)i;
	ck_assert_uint_eq(rb_crc32c(0, "123456789", 9), 0xe3069283);
	ck_assert_uint_eq(rb_crc32c_sw(0, "123456789", 9), 0xe3069283);
	ck_assert_uint_eq(rb_crc32c(0, "", 0), 0);
	/* RFC 3720 (iSCSI) B.4 test vectors */
	ck_assert_uint_eq(rb_crc32c(0, zeros, 32), 0x8a9136aa);
	ck_assert_uint_eq(rb_crc32c(0, ones, 32), 0x62a8ab43);
	ck_assert_uint_eq(rb_crc32c(0, inc, 32), 0x46dd794e);
	/* chaining over a split buffer gives the crc of the whole */
	ck_assert_uint_eq(rb_crc32c(rb_crc32c(0, "1234", 4), "56789", 5), 0xe3069283);
}
END_TEST

START_TEST(test_crc32c_sw_equals_hw)
{
	unsigned char *buf = malloc(8192 + 16);
	uint32_t hw, mismatches = 0;
	size_t len, off;
	unsigned i;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < 8192 + 16; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	if (!rb_crc32c_hw(0, buf, 1, &hw)) {
		fprintf(stderr, "test_crc32c_sw_equals_hw: no SSE4.2 on this CPU, compared "
			"rb_crc32c with the portable path only\n");
		ck_assert_uint_eq(rb_crc32c(0, buf, 4096), rb_crc32c_sw(0, buf, 4096));
		free(buf);
		return;
	}
	/* every length 0..64 at every alignment 0..7, then some big ones */
	for (off = 0; off < 8; off++)
		for (len = 0; len <= 64; len++) {
			rb_crc32c_hw(0x12345678, buf + off, len, &hw);
			mismatches += hw != rb_crc32c_sw(0x12345678, buf + off, len);
		}
	ck_assert_uint_eq(mismatches, 0);
	for (len = 4096; len <= 8192; len += 1021) {
		rb_crc32c_hw(0, buf + 3, len, &hw);
		ck_assert_uint_eq(hw, rb_crc32c_sw(0, buf + 3, len));
	}
	rb_crc32c_hw(0, "123456789", 9, &hw);
	ck_assert_uint_eq(hw, 0xe3069283);
	free(buf);
}
END_TEST

START_TEST(test_md5_vector)
{
	static const unsigned char want[16] = {
		0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
		0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72 };	/* md5("abc"), RFC 1321 */
	struct md5_ctx ctx;
	unsigned char got[16];
	int i;

	md5_init(&ctx);
	md5_update(&ctx, 3, (const uint8_t *)"abc");
	md5_digest(&ctx, MD5_DIGEST_SIZE, got);
	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(got[i], want[i]);
}
END_TEST

static unsigned char *block(size_t len)
{
	unsigned char *b = malloc(len);

	ck_assert_ptr_nonnull(b);
	return b;
}

static void roundtrip(enum verify_type type, uint32_t len)
{
	unsigned char *a = block(len), *b = block(len);
	char msg[256] = "";
	int r;

	verify_fill(type, a, len, 1048576, 99, 7);
	r = verify_check(type, a, len, 1048576, msg, sizeof(msg));
	ck_assert_msg(r == 0, "type %d len %u: %d %s", type, len, r, msg);
	/* same offset and seed, same bytes; another offset, other bytes */
	verify_fill(type, b, len, 1048576, 99, 7);
	ck_assert_int_eq(memcmp(a, b, len), 0);
	verify_fill(type, b, len, 1048576 + len, 99, 7);
	ck_assert_int_ne(memcmp(a + 64, b + 64, len - 64), 0);
	free(a);
	free(b);
}

START_TEST(test_verify_roundtrip)
{
	roundtrip(VERIFY_CRC32C, 512);
	roundtrip(VERIFY_CRC32C, 4096);
	roundtrip(VERIFY_CRC32C, 1000);	/* not a multiple of 8 */
	roundtrip(VERIFY_CRC32C, 1 << 20);
	roundtrip(VERIFY_MD5, 512);
	roundtrip(VERIFY_MD5, 4096);
	roundtrip(VERIFY_MD5, 65536 + 3);
}
END_TEST

static void flipped_payload(enum verify_type type, const char *name)
{
	unsigned char *b = block(4096);
	char msg[256] = "";
	int r;

	verify_fill(type, b, 4096, 1048576, 5, 1);
	b[1000] ^= 0x01;
	r = verify_check(type, b, 4096, 1048576, msg, sizeof(msg));
	ck_assert_int_eq(r, -EILSEQ);
	ck_assert_msg(strstr(msg, name) && strstr(msg, "at offset 1048576") &&
		      strstr(msg, "block of 4096 bytes") && strstr(msg, "expected") &&
		      strstr(msg, "+1000"), "message: %s", msg);
	free(b);
}

START_TEST(test_verify_detects_flipped_byte)
{
	unsigned char *b = block(4096);
	char msg[256] = "";
	int r, pos, missed = 0;

	flipped_payload(VERIFY_CRC32C, "bad crc32c");
	flipped_payload(VERIFY_MD5, "bad md5");

	/* a flip anywhere is caught, header included */
	for (pos = 0; pos < 4096; pos += 37) {
		verify_fill(VERIFY_CRC32C, b, 4096, 8192, 5, 1);
		b[pos] ^= 0x80;
		missed += verify_check(VERIFY_CRC32C, b, 4096, 8192, msg, sizeof(msg)) == 0;
	}
	ck_assert_int_eq(missed, 0);

	verify_fill(VERIFY_CRC32C, b, 4096, 8192, 5, 1);
	memset(b, 0, 2);
	r = verify_check(VERIFY_CRC32C, b, 4096, 8192, msg, sizeof(msg));
	ck_assert_int_eq(r, -EILSEQ);
	ck_assert_str_eq(msg, "verify: bad magic at offset 8192: expected 0xacca, got 0x0000");

	/* a header field changed, magic intact: the header's own crc says so */
	verify_fill(VERIFY_CRC32C, b, 4096, 8192, 5, 1);
	b[20] ^= 0xff;
	r = verify_check(VERIFY_CRC32C, b, 4096, 8192, msg, sizeof(msg));
	ck_assert_int_eq(r, -EILSEQ);
	ck_assert_msg(strstr(msg, "header crc32c at offset 8192") != NULL, "message: %s", msg);

	/* a zeroed block, the usual lost write */
	memset(b, 0, 4096);
	r = verify_check(VERIFY_MD5, b, 4096, 0, msg, sizeof(msg));
	ck_assert_int_eq(r, -EILSEQ);
	ck_assert_str_eq(msg, "verify: bad magic at offset 0: expected 0xacca, got 0x0000");
	free(b);
}
END_TEST

START_TEST(test_verify_misplaced_and_mismatched)
{
	unsigned char *b = block(4096);
	char msg[256] = "";
	int r;

	verify_fill(VERIFY_CRC32C, b, 4096, 8192, 5, 1);
	r = verify_check(VERIFY_CRC32C, b, 4096, 4096, msg, sizeof(msg));
	ck_assert_int_eq(r, -EILSEQ);
	ck_assert_str_eq(msg, "verify: block at offset 4096 carries header offset 8192 "
			 "(misplaced write)");

	r = verify_check(VERIFY_MD5, b, 4096, 8192, msg, sizeof(msg));
	ck_assert_int_eq(r, -EILSEQ);
	ck_assert_msg(strstr(msg, "verify=crc32c") != NULL, "message: %s", msg);

	r = verify_check(VERIFY_CRC32C, b, 2048, 8192, msg, sizeof(msg));
	ck_assert_int_eq(r, -EILSEQ);
	ck_assert_msg(strstr(msg, "4096 bytes") != NULL, "message: %s", msg);

	/* messages are cut to the buffer, never overrun it */
	memset(msg, 'x', sizeof(msg));
	verify_check(VERIFY_CRC32C, b, 4096, 4096, msg, 10);
	ck_assert_uint_eq(strlen(msg), 9);
	ck_assert_int_eq(msg[10], 'x');

	ck_assert_int_eq(verify_check(VERIFY_NONE, b, 4096, 0, msg, sizeof(msg)), 0);
	free(b);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_crc32c_vectors);
	tcase_add_test(tc, test_crc32c_sw_equals_hw);
	tcase_add_test(tc, test_md5_vector);
	tcase_add_test(tc, test_verify_roundtrip);
	tcase_add_test(tc, test_verify_detects_flipped_byte);
	tcase_add_test(tc, test_verify_misplaced_and_mismatched);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(verify_suite)
