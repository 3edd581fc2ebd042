/*
 * test_userdir.c - raidbench's own places: which directory is chosen with
 * and without the environment (never a shared one), and that nothing is
 * created through a planted link or in a directory someone else controls.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"
#include "userdir.h"

static char top[256];
static char err[1024];

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(rb_test_tmpl(top, sizeof(top), "userdir")));
	err[0] = '\0';
}

static void teardown(void)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *at(const char *rel)
{
	static char buf[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", top, rel);
	return buf[k];
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void assert_content(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, text);
}

START_TEST(chooses_xdg_then_home_then_passwd_never_tmp)
{
	char buf[256];

	ck_assert_int_eq(userdir_choose(USERDIR_CACHE, "/x/cache", "/home/u", "/pw", buf,
					sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/x/cache/raidbench");
	ck_assert_int_eq(userdir_choose(USERDIR_CACHE, NULL, "/home/u/", "/pw", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/home/u/.cache/raidbench");
	/* HOME unset: the password database's home, not /tmp */
	ck_assert_int_eq(userdir_choose(USERDIR_CACHE, NULL, NULL, "/root", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/root/.cache/raidbench");
	ck_assert_int_eq(userdir_choose(USERDIR_DATA, "", "", "/root", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/root/.local/share/raidbench");
	/* relative values are ignored, as the XDG spec says */
	ck_assert_int_eq(userdir_choose(USERDIR_STATE, "rel", "also/rel", "/pw", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/pw/.local/state/raidbench");
	ck_assert_int_eq(userdir_choose(USERDIR_CONFIG, NULL, NULL, "/", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/.config/raidbench");
	/* nothing at all: refused, no fallback */
	ck_assert_int_eq(userdir_choose(USERDIR_CACHE, NULL, NULL, NULL, buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(userdir_choose(USERDIR_CACHE, "/a/very/long/path", NULL, NULL, buf, 8),
			 -ENAMETOOLONG);
}
END_TEST

START_TEST(path_without_home_uses_the_password_database)
{
	char buf[PATH_MAX];

	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	ck_assert_int_eq(userdir_path(USERDIR_CACHE, "scratch.dat", buf, sizeof(buf), err,
				      sizeof(err)), 0);
	ck_assert_msg(strncmp(buf, "/tmp", 4), "fell back to %s", buf);
	ck_assert_msg(strstr(buf, "/.cache/raidbench/scratch.dat"), "got %s", buf);
	setenv("XDG_CACHE_HOME", "/nowhere/c", 1);
	ck_assert_int_eq(userdir_path(USERDIR_CACHE, "scratch.dat", buf, sizeof(buf), err,
				      sizeof(err)), 0);
	ck_assert_str_eq(buf, "/nowhere/c/raidbench/scratch.dat");
}
END_TEST

START_TEST(makes_directories_and_a_file)
{
	int fd;

	ck_assert_int_eq(userdir_make(at("a/b/raidbench"), err, sizeof(err)), 0);
	fd = userdir_open(at("a/b/raidbench/f.dat"), O_RDWR | O_CREAT, 0644, err, sizeof(err));
	ck_assert_msg(fd >= 0, "%d %s", fd, err);
	ck_assert_int_eq(write(fd, "x\n", 2), 2);
	close(fd);
	/* an existing file of ours is opened again, O_TRUNC after the checks */
	fd = userdir_open(at("a/b/raidbench/f.dat"), O_RDWR | O_CREAT | O_TRUNC, 0644, err,
			  sizeof(err));
	ck_assert_msg(fd >= 0, "%d %s", fd, err);
	close(fd);
	ck_assert_int_eq(userdir_open(at("a/b/raidbench/f.dat"), O_RDWR | O_CREAT | O_EXCL, 0644,
				      err, sizeof(err)), -EEXIST);
}
END_TEST

START_TEST(refuses_a_symlinked_file)
{
	int fd;

	write_file(at("victim"), "precious\n");
	ck_assert_int_eq(mkdir(at("raidbench"), 0755), 0);
	ck_assert_int_eq(symlink(at("victim"), at("raidbench/scratch.dat")), 0);
	fd = userdir_open(at("raidbench/scratch.dat"), O_RDWR | O_CREAT | O_TRUNC, 0644, err,
			  sizeof(err));
	ck_assert_int_eq(fd, -ELOOP);
	ck_assert_msg(strstr(err, "scratch.dat: it is a symbolic link"), "err: %s", err);
	/* a dangling link is no way in either */
	ck_assert_int_eq(symlink(at("new-victim"), at("raidbench/dangling")), 0);
	ck_assert_int_lt(userdir_open(at("raidbench/dangling"), O_RDWR | O_CREAT, 0644, err,
				      sizeof(err)), 0);
	ck_assert_int_eq(access(at("new-victim"), F_OK), -1);
	assert_content(at("victim"), "precious\n");
}
END_TEST

START_TEST(refuses_a_hard_link_and_a_fifo)
{
	write_file(at("victim"), "precious\n");
	ck_assert_int_eq(mkdir(at("raidbench"), 0755), 0);
	ck_assert_int_eq(link(at("victim"), at("raidbench/scratch.dat")), 0);
	ck_assert_int_eq(userdir_open(at("raidbench/scratch.dat"), O_RDWR | O_CREAT | O_TRUNC,
				      0644, err, sizeof(err)), -EPERM);
	ck_assert_msg(strstr(err, "hard links"), "err: %s", err);
	assert_content(at("victim"), "precious\n");
	ck_assert_int_eq(mkfifo(at("raidbench/fifo"), 0644), 0);
	ck_assert_int_eq(userdir_open(at("raidbench/fifo"), O_WRONLY | O_CREAT, 0644, err,
				      sizeof(err)), -EPERM);
	ck_assert_msg(strstr(err, "not a regular file"), "err: %s", err);
}
END_TEST

START_TEST(refuses_writable_directories)
{
	ck_assert_int_eq(mkdir(at("open"), 0777), 0);
	ck_assert_int_eq(chmod(at("open"), 0777), 0);
	ck_assert_int_eq(userdir_make(at("open/raidbench"), err, sizeof(err)), -EPERM);
	ck_assert_msg(strstr(err, "other users can write to it (mode 0777)"), "err: %s", err);
	ck_assert_int_eq(access(at("open/raidbench"), F_OK), -1);
	/* sticky, like /tmp: passed through, never used itself */
	ck_assert_int_eq(chmod(at("open"), 01777), 0);
	ck_assert_int_eq(userdir_make(at("open/raidbench"), err, sizeof(err)), 0);
	ck_assert_int_eq(userdir_make(at("open"), err, sizeof(err)), -EPERM);
	ck_assert_int_eq(mkdir(at("g"), 0775), 0);
	ck_assert_int_eq(chmod(at("g"), 0775), 0);
	ck_assert_int_eq(userdir_open(at("g/raidbench/x"), O_RDWR | O_CREAT, 0644, err,
				      sizeof(err)), -EPERM);
}
END_TEST

START_TEST(follows_only_links_of_ours)
{
	ck_assert_int_eq(mkdir(at("real"), 0755), 0);
	ck_assert_int_eq(mkdir(at("home"), 0755), 0);
	/* our own link (a home on another disk): followed, its target checked */
	ck_assert_int_eq(symlink("../real", at("home/.cache")), 0);
	ck_assert_int_eq(userdir_make(at("home/.cache/raidbench"), err, sizeof(err)), 0);
	ck_assert_int_eq(access(at("real/raidbench"), F_OK), 0);
	/* a dangling link of ours: its target is made */
	ck_assert_int_eq(symlink(at("later"), at("home/.local")), 0);
	ck_assert_int_eq(userdir_make(at("home/.local/raidbench"), err, sizeof(err)), 0);
	ck_assert_int_eq(access(at("later/raidbench"), F_OK), 0);
	/* a link to a place others may write: the target's directory is refused */
	ck_assert_int_eq(mkdir(at("open"), 0777), 0);
	ck_assert_int_eq(chmod(at("open"), 0777), 0);
	ck_assert_int_eq(symlink(at("open"), at("home/.config")), 0);
	ck_assert_int_eq(userdir_make(at("home/.config/raidbench"), err, sizeof(err)), -EPERM);
	ck_assert_msg(strstr(err, "/open: other users can write"), "err: %s", err);
	ck_assert_int_eq(symlink("loop", at("home/loop")), 0);
	ck_assert_int_eq(userdir_make(at("home/loop/raidbench"), err, sizeof(err)), -ELOOP);
}
END_TEST

START_TEST(refuses_what_another_user_owns)
{
	if (geteuid() != 0)
		return;	/* chown needs root; the suite runs as root */
	ck_assert_int_eq(mkdir(at("victim-dir"), 0755), 0);
	ck_assert_int_eq(mkdir(at("cache"), 0755), 0);
	/* another user's link in place of a directory component */
	ck_assert_int_eq(symlink(at("victim-dir"), at("cache/raidbench")), 0);
	ck_assert_int_eq(lchown(at("cache/raidbench"), 65534, 65534), 0);
	ck_assert_int_eq(userdir_open(at("cache/raidbench/scratch.dat"), O_RDWR | O_CREAT, 0644,
				      err, sizeof(err)), -EPERM);
	ck_assert_msg(strstr(err, "symbolic link that belongs to user 65534"), "err: %s", err);
	ck_assert_int_eq(access(at("victim-dir/scratch.dat"), F_OK), -1);
	/* another user's directory */
	ck_assert_int_eq(mkdir(at("theirs"), 0755), 0);
	ck_assert_int_eq(chown(at("theirs"), 65534, 65534), 0);
	ck_assert_int_eq(userdir_make(at("theirs/raidbench"), err, sizeof(err)), -EPERM);
	ck_assert_msg(strstr(err, "belongs to user 65534"), "err: %s", err);
	/* another user's file in our directory */
	ck_assert_int_eq(mkdir(at("ours"), 0755), 0);
	write_file(at("ours/f"), "theirs\n");
	ck_assert_int_eq(chown(at("ours/f"), 65534, 65534), 0);
	ck_assert_int_eq(userdir_open(at("ours/f"), O_RDWR | O_CREAT | O_TRUNC, 0644, err,
				      sizeof(err)), -EPERM);
	assert_content(at("ours/f"), "theirs\n");
}
END_TEST

static Suite *userdir_suite(void)
{
	Suite *s = suite_create("userdir");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, chooses_xdg_then_home_then_passwd_never_tmp);
	tcase_add_test(tc, path_without_home_uses_the_password_database);
	tcase_add_test(tc, makes_directories_and_a_file);
	tcase_add_test(tc, refuses_a_symlinked_file);
	tcase_add_test(tc, refuses_a_hard_link_and_a_fifo);
	tcase_add_test(tc, refuses_writable_directories);
	tcase_add_test(tc, follows_only_links_of_ours);
	tcase_add_test(tc, refuses_what_another_user_owns);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(userdir_suite)
