/*
 * test_text.c - outside text on its way out: bounded appending into fixed
 * buffers (core/bufcat.c) and the escaping of control characters and
 * broken UTF-8 before a terminal sees them (tui/tty_text.c); durations
 * as the screens print them (tui/fmt.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bufcat.h"
#include "check_util.h"
#include "fmt.h"
#include "tty_text.h"

START_TEST(bufcat_cuts_and_chains)
{
	char buf[8] = "", guard[8];
	size_t n;

	memset(guard, 'G', sizeof(guard));
	n = bufcat(buf, sizeof(buf), 0, "%s", "abc");
	ck_assert_uint_eq(n, 3);
	n = bufcat(buf, sizeof(buf), n, " %s", "defghijkl");
	ck_assert_uint_eq(n, 7);
	ck_assert_str_eq(buf, "abc def");
	/* full: further appends change nothing, also with a position past the end */
	ck_assert_uint_eq(bufcat(buf, sizeof(buf), n, "%s", "x"), 7);
	ck_assert_uint_eq(bufcat(buf, sizeof(buf), 100, "%s", "x"), 7);
	ck_assert_str_eq(buf, "abc def");
	ck_assert_mem_eq(guard, "GGGGGGGG", 8);
	ck_assert_uint_eq(bufcat(buf, 0, 0, "%s", "x"), 0);
}
END_TEST

static void escaped(const char *in, bool keep_lines, const char *want)
{
	char *got = tty_escape(in, keep_lines);

	ck_assert_ptr_nonnull(got);
	ck_assert_msg(!strcmp(got, want), "escape of \"%s\": got \"%s\", want \"%s\"", in, got,
		      want);
	free(got);
}

START_TEST(escapes_controls_and_broken_utf8)
{
	escaped("plain /dev/sdb", false, "plain /dev/sdb");
	escaped("X\x1b]0;t\x07\x1b[2J", false, "X\\x1b]0;t\\x07\\x1b[2J");
	escaped("del\x7f nul-less\x01", false, "del\\x7f nul-less\\x01");
	escaped("a\nb\tc\r", false, "a\\x0ab\\x09c\\x0d");
	escaped("a\nb\tc\r", true, "a\nb\tc\\x0d");
	/* C1 controls as UTF-8 (U+009B is CSI) and as lone bytes */
	escaped("\xc2\x9b" "1m \x9b", false, "\\xc2\\x9b1m \\x9b");
	/* valid UTF-8 passes: U+00A0, é, ─, 🙂 */
	escaped("\xc2\xa0\xc3\xa9\xe2\x94\x80\xf0\x9f\x99\x82", false,
		"\xc2\xa0\xc3\xa9\xe2\x94\x80\xf0\x9f\x99\x82");
	/* overlong, surrogate, past U+10FFFF, cut short */
	escaped("\xc0\xaf", false, "\\xc0\\xaf");
	escaped("\xed\xa0\x80", false, "\\xed\\xa0\\x80");
	escaped("\xf4\x90\x80\x80", false, "\\xf4\\x90\\x80\\x80");
	escaped("\xe2\x94", false, "\\xe2\\x94");
}
END_TEST

START_TEST(char_len_is_zero_for_what_must_not_pass)
{
	ck_assert_uint_eq(tty_char_len("a"), 1);
	ck_assert_uint_eq(tty_char_len("\x1b"), 0);
	ck_assert_uint_eq(tty_char_len(""), 0);
	ck_assert_uint_eq(tty_char_len("\xe2\x94\x80"), 3);
	ck_assert_uint_eq(tty_char_len("\xc2\x85"), 0);
}
END_TEST

START_TEST(printf_escapes_its_whole_output)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_gt(tty_fprintf(f, "serial %s\n", "X\x1b[2J"), 0);
	fclose(f);
	ck_assert_str_eq(text, "serial X\\x1b[2J\n");
	free(text);
}
END_TEST

START_TEST(json_stays_json_and_utf8)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	/* as json-c writes it: C0 escaped, DEL, C1 and broken bytes raw */
	ck_assert_int_eq(tty_json_puts("{\n  \"s\":\"a\\u001b\x7f\xc2\x9b\x9b\xc3\xa9\"\n}", f), 0);
	fclose(f);
	ck_assert_str_eq(text, "{\n  \"s\":\"a\\u001b\\u007f\\u009b\\ufffd\xc3\xa9\"\n}\n");
	free(text);
}
END_TEST

/* runtime=99999999 is 1157 days: the ETA says so, not "1666666:39" */
START_TEST(durations_grow_days)
{
	char b[64];

	fmt_duration(b, sizeof(b), 5);
	ck_assert_str_eq(b, "00:05");
	fmt_duration(b, sizeof(b), 3599);
	ck_assert_str_eq(b, "59:59");
	fmt_duration(b, sizeof(b), 3600);
	ck_assert_str_eq(b, "1:00:00");
	fmt_duration(b, sizeof(b), 86399);
	ck_assert_str_eq(b, "23:59:59");
	fmt_duration(b, sizeof(b), 99999999);
	ck_assert_str_eq(b, "1157d 09:46:39");
	fmt_duration(b, sizeof(b), UINT64_MAX);
	ck_assert_msg(strstr(b, "d ") != NULL, "%s", b);
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, bufcat_cuts_and_chains);
	tcase_add_test(tc, escapes_controls_and_broken_utf8);
	tcase_add_test(tc, char_len_is_zero_for_what_must_not_pass);
	tcase_add_test(tc, printf_escapes_its_whole_output);
	tcase_add_test(tc, json_stays_json_and_utf8);
	tcase_add_test(tc, durations_grow_days);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(text_suite)
