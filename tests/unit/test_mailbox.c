/*
 * test_mailbox.c - the latest-text mailbox: empty until a put, a take empties
 * it, the newest of several puts wins, a long text is cut, and between two
 * threads every text taken is one that was put, whole, never older than the
 * one before (run under TSan by make check-tsan's build of the tree too).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "mailbox.h"

START_TEST(latest_wins)
{
	static struct mailbox mb;	/* zeroed: an empty mailbox */
	char buf[MAILBOX_TEXT_MAX], big[MAILBOX_TEXT_MAX + 50];

	ck_assert_msg(!mailbox_take(&mb, buf, sizeof(buf)), "empty at first");
	mailbox_put(&mb, "one");
	ck_assert(mailbox_take(&mb, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "one");
	ck_assert_msg(!mailbox_take(&mb, buf, sizeof(buf)), "taken: empty again");
	mailbox_put(&mb, "two");
	mailbox_put(&mb, "three");
	mailbox_put(&mb, "four");
	ck_assert(mailbox_take(&mb, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "four");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	mailbox_put(&mb, big);
	ck_assert(mailbox_take(&mb, buf, sizeof(buf)));
	ck_assert_uint_eq(strlen(buf), MAILBOX_TEXT_MAX - 1);
	mailbox_put(&mb, "five");
	ck_assert(mailbox_take(&mb, buf, 3));
	ck_assert_str_eq(buf, "fi");
}
END_TEST

#define ROUNDS 200000

static struct mailbox shared;
static _Atomic int writer_done;

/* Texts that say whether they are whole: the number n, then its last digit repeated. */
static void *writer(void *arg)
{
	char text[MAILBOX_TEXT_MAX];
	int n, at;

	(void)arg;
	for (n = 1; n <= ROUNDS; n++) {
		at = snprintf(text, sizeof(text), "%d:", n);
		memset(text + at, '0' + n % 10, 100 + n % 100);
		text[at + 100 + n % 100] = '\0';
		mailbox_put(&shared, text);
	}
	atomic_store(&writer_done, 1);
	return NULL;
}

START_TEST(two_threads_never_torn)
{
	char buf[MAILBOX_TEXT_MAX];
	int last = 0, takes = 0, n;
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, writer, NULL), 0);
	for (;;) {
		int done = atomic_load(&writer_done);
		char *p;
		size_t k, want;

		if (mailbox_take(&shared, buf, sizeof(buf))) {
			takes++;
			n = (int)strtol(buf, &p, 10);
			ck_assert_msg(*p == ':' && n > last, "text %d after %d ('%.20s')", n, last, buf);
			want = 100 + (size_t)(n % 100);
			ck_assert_msg(strlen(p + 1) == want, "text %d: %zu bytes after ':', %zu put",
				      n, strlen(p + 1), want);
			for (k = 1; k <= want; k++)
				ck_assert_msg(p[k] == '0' + n % 10, "text %d torn at %zu: '%c'", n, k, p[k]);
			last = n;
		} else if (done) {
			break;
		}
	}
	pthread_join(t, NULL);
	ck_assert_msg(last == ROUNDS, "the last text taken is the last put: %d, %d", last, ROUNDS);
	ck_assert_int_gt(takes, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("mailbox");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, latest_wins);
	tcase_add_test(tc, two_threads_never_torn);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(suite)
