/*
 * test_scratch.c - the scratch directory RB_TEST_MAIN gives a test program
 * (check_util.h) is gone once the program ends, even when its tests fail or
 * crash, and a link out of it is removed without touching what it points at.
 *
 * The failing suite is this program run again with RB_SCRATCH_INNER set, so
 * no Check runner is nested inside another one's forked test.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_util.h"

/* The inner suite's tests: leave files behind, then fail or crash. */

/* Makes a directory with a file and a link to RB_SCRATCH_KEEP in the scratch directory. */
static void leave_files(void)
{
	const char *report = getenv("RB_SCRATCH_REPORT"), *keep = getenv("RB_SCRATCH_KEEP");
	char dir[PATH_MAX], path[PATH_MAX + 16];
	FILE *f;

	ck_assert_ptr_nonnull(report);
	ck_assert_ptr_nonnull(keep);
	f = fopen(report, "a");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", getenv(RB_TEST_TMP_ENV));
	fclose(f);
	ck_assert_ptr_nonnull(mkdtemp(rb_test_tmpl(dir, sizeof(dir), "inner")));
	snprintf(path, sizeof(path), "%s/file", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("left behind\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/out", dir);
	ck_assert_int_eq(symlink(keep, path), 0);
}

START_TEST(inner_fails)
{
	leave_files();
	ck_assert_msg(0, "fails on purpose");
}
END_TEST

START_TEST(inner_crashes)
{
	leave_files();
	/* a death no handler sees: under ASan a SIGSEGV is caught, reported and exited from */
	raise(SIGKILL);
}
END_TEST

static Suite *inner_suite(void)
{
	Suite *s = suite_create("scratch-inner");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, inner_fails);
	tcase_add_test(tc, inner_crashes);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * Runs the inner suite with CK_FORK=fork_mode; returns its wait status and
 * puts the scratch directory it reported in dir.
 */
static int run_inner(const char *fork_mode, char *dir, size_t len)
{
	char report[PATH_MAX], keep[PATH_MAX], line[PATH_MAX] = "";
	int fd, status;
	pid_t pid;
	FILE *f;

	fd = mkstemp(rb_test_tmpl(report, sizeof(report), "report"));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_ptr_nonnull(mkdtemp(rb_test_tmpl(keep, sizeof(keep), "keep")));
	snprintf(line, sizeof(line), "%s/precious", keep);
	f = fopen(line, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };
		char *argv[] = { "test_scratch", NULL };
		int null = open("/dev/null", O_WRONLY);

		setrlimit(RLIMIT_CORE, &no_core);	/* the crash is meant */
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		setenv("RB_SCRATCH_INNER", "1", 1);
		setenv("RB_SCRATCH_REPORT", report, 1);
		setenv("RB_SCRATCH_KEEP", keep, 1);
		setenv("CK_FORK", fork_mode, 1);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);

	f = fopen(report, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(fgets(line, sizeof(line), f), "the inner suite reported no directory");
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	snprintf(dir, len, "%s", line);
	ck_assert_msg(!strncmp(dir, RB_TEST_TMP_BASE "/rb-test_scratch.",
			       strlen(RB_TEST_TMP_BASE "/rb-test_scratch.")),
		      "scratch dir %s", dir);

	snprintf(line, sizeof(line), "%s/precious", keep);
	ck_assert_msg(access(line, F_OK) == 0, "%s went with the link to it: %s", line,
		      strerror(errno));
	return status;
}

static void assert_gone(const char *dir)
{
	ck_assert_msg(access(dir, F_OK) == -1 && errno == ENOENT, "%s is still there", dir);
}

START_TEST(gone_after_failure_and_crash_in_fork_mode)
{
	char dir[PATH_MAX];
	int status = run_inner("yes", dir, sizeof(dir));

	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == EXIT_FAILURE, "status %#x",
		      status);
	assert_gone(dir);
}
END_TEST

/* Without fork the crash takes the whole suite down: main's process is left. */
START_TEST(gone_after_crash_without_fork)
{
	char dir[PATH_MAX];
	int status = run_inner("no", dir, sizeof(dir));

	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == EXIT_FAILURE, "status %#x",
		      status);
	assert_gone(dir);
}
END_TEST

START_TEST(template_under_scratch)
{
	char buf[PATH_MAX];
	const char *dir = getenv(RB_TEST_TMP_ENV);

	ck_assert_ptr_nonnull(dir);
	ck_assert_str_eq(getenv("TMPDIR"), dir);
	rb_test_tmpl(buf, sizeof(buf), "name");
	ck_assert_int_eq(strncmp(buf, dir, strlen(dir)), 0);
	ck_assert_str_eq(buf + strlen(dir), "/name.XXXXXX");
}
END_TEST

static Suite *scratch_suite(void)
{
	Suite *s;
	TCase *tc;

	if (getenv("RB_SCRATCH_INNER"))
		return inner_suite();
	s = suite_create("scratch");
	tc = tcase_create("core");
	tcase_add_test(tc, template_under_scratch);
	tcase_add_test(tc, gone_after_failure_and_crash_in_fork_mode);
	tcase_add_test(tc, gone_after_crash_without_fork);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(scratch_suite)
