/*
 * check_util.h - helpers shared by the Check unit tests: a private scratch
 * directory per test program, and a main() that runs one suite and then
 * removes that directory whatever happened to the tests.
 *
 * Why main does the removing: a failed ck_assert ends the forked test at
 * once, so neither the rest of its body nor a checked fixture's teardown
 * runs, and whatever the test made in /tmp would stay. Tests still tidy up
 * after themselves; the guarantee is that everything they make lives under
 * rb_test_tmpl()'s directory, which only RB_TEST_MAIN's process touches at
 * the end.
 */
#ifndef RB_CHECK_UTIL_H
#define RB_CHECK_UTIL_H

#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Under /var/tmp, not /tmp: tests open files with O_DIRECT, which tmpfs
 * (what /tmp often is) refuses.
 */
#define RB_TEST_TMP_BASE "/var/tmp"
#define RB_TEST_TMP_ENV "RB_TEST_TMPDIR"

/*
 * Writes "DIR/name.XXXXXX" into buf for mkdtemp() or mkstemp(), DIR being
 * the test program's scratch directory; returns buf.
 */
static inline char *rb_test_tmpl(char *buf, size_t len, const char *name)
{
	const char *dir = getenv(RB_TEST_TMP_ENV);
	int n;

	ck_assert_msg(dir && dir[0], "%s is not set: run the test through RB_TEST_MAIN",
		      RB_TEST_TMP_ENV);
	n = snprintf(buf, len, "%s/%s.XXXXXX", dir, name);
	ck_assert_msg(n > 0 && (size_t)n < len, "%s/%s.XXXXXX does not fit in %zu bytes", dir,
		      name, len);
	return buf;
}

static inline int rb_test_rm_entry(const char *path, const struct stat *st, int flag,
				   struct FTW *ftw)
{
	/* FTW_PHYS: a symlink is removed itself, never what it points at */
	if (remove(path) && errno != ENOENT)
		fprintf(stderr, "could not remove %s: %s\n", path, strerror(errno));
	return 0;
}

/* The suite's process, for the forwarding handler; only rb_test_main sets it. */
static pid_t rb_test_child;
static volatile sig_atomic_t rb_test_signal;

/* An interrupt goes to the suite; main removes the directory once it has gone. */
static inline void rb_test_forward(int sig)
{
	rb_test_signal = sig;
	if (rb_test_child > 0)
		kill(rb_test_child, sig);
}

/*
 * Makes the scratch directory, runs the suite in a child process (so a
 * crash even with CK_FORK=no leaves this process to clean up), removes the
 * directory, and returns the suite's exit status.
 */
static inline int rb_test_main(Suite *(*suite_fn)(void))
{
	static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP };
	char dir[sizeof(RB_TEST_TMP_BASE) + 64];
	struct sigaction sa = { .sa_handler = rb_test_forward };
	sigset_t block, old;
	int status = 0;

	snprintf(dir, sizeof(dir), "%s/rb-%.32s.XXXXXX", RB_TEST_TMP_BASE,
		 program_invocation_short_name);
	if (!mkdtemp(dir)) {
		fprintf(stderr, "mkdtemp %s: %s\n", dir, strerror(errno));
		return EXIT_FAILURE;
	}
	setenv(RB_TEST_TMP_ENV, dir, 1);
	setenv("TMPDIR", dir, 1);	/* for tools and libraries the tests start */

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
		sigaddset(&block, forwarded[i]);
		sigaction(forwarded[i], &sa, NULL);
	}
	sigprocmask(SIG_BLOCK, &block, &old);
	fflush(NULL);
	rb_test_child = fork();
	if (rb_test_child == 0) {
		SRunner *sr;
		int failed;

		for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
			signal(forwarded[i], SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		sr = srunner_create(suite_fn());
		srunner_run_all(sr, CK_NORMAL);
		failed = srunner_ntests_failed(sr);
		srunner_free(sr);
		exit(failed ? EXIT_FAILURE : EXIT_SUCCESS);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (rb_test_child < 0)
		fprintf(stderr, "fork: %s\n", strerror(errno));
	else
		while (waitpid(rb_test_child, &status, 0) < 0 && errno == EINTR)
			;

	nftw(dir, rb_test_rm_entry, 16, FTW_DEPTH | FTW_PHYS);

	if (rb_test_signal) {
		signal(rb_test_signal, SIG_DFL);
		raise(rb_test_signal);
	}
	if (rb_test_child < 0)
		return EXIT_FAILURE;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "%s: the suite died of signal %d (%s)\n",
			program_invocation_short_name, WTERMSIG(status), strsignal(WTERMSIG(status)));
		return EXIT_FAILURE;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILURE;
}

#define RB_TEST_MAIN(suite_fn)                                                   \
	int main(void)                                                           \
	{                                                                        \
		return rb_test_main(suite_fn);                                   \
	}

#endif
