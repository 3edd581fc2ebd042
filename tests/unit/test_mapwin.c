/*
 * test_mapwin.c - the mapping table of the mmap, libpmem and dev-dax
 * engines on its own: a window is made once per fd and remade when the
 * worker hands in another fd on the same file, an I/O is clipped to the
 * window, a size the engine refuses leaves nothing mapped, and fio's page
 * rule for fsync= names the engine. The temp file is unlinked once open.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check_util.h"
#include "engine.h"
#include "engine_mapwin.h"
#include "job.h"

#define FILE_LEN 8192

static int sizes_asked;

static int size_of_file(int fd, const struct stat *st, const char *path, uint64_t *bytes)
{
	sizes_asked++;
	*bytes = (uint64_t)st->st_size;
	return *bytes ? 0 : -EINVAL;
}

static const struct mapwin_ops plain = { .size = size_of_file };

static int maps_made;

static void map_counted(struct mapwin *w, int fd, int prot)
{
	maps_made++;
	w->p = mmap(NULL, w->len, prot, MAP_SHARED, fd, 0);
	w->pmem = true;
}

static const struct mapwin_ops counted = { .size = size_of_file, .map = map_counted };

/*
 * u on an unlinked file of FILE_LEN bytes, byte i = i & 0xff (path is u's
 * name for it); with ro, a second, read-only fd on the same file.
 */
static void unit_on_file(struct io_unit *u, char *path, size_t len, int *ro)
{
	unsigned char buf[FILE_LEN];
	int i;

	memset(u, 0, sizeof(*u));
	u->fd = mkstemp(rb_test_tmpl(path, len, "mapwin"));
	ck_assert_int_ge(u->fd, 0);
	u->path = path;
	if (ro) {
		*ro = open(path, O_RDONLY);
		ck_assert_int_ge(*ro, 0);
	}
	unlink(path);
	for (i = 0; i < FILE_LEN; i++)
		buf[i] = (unsigned char)i;
	ck_assert_int_eq(write(u->fd, buf, sizeof(buf)), FILE_LEN);
}

START_TEST(mapped_once_per_fd)
{
	struct mapwin_table t = { 0 };
	struct io_unit u;
	struct mapwin *w, *w2;
	char path[PATH_MAX];
	int fd, ro;

	unit_on_file(&u, path, sizeof(path), &ro);
	fd = u.fd;
	sizes_asked = maps_made = 0;
	u.file_idx = 3;
	ck_assert_int_eq(mapwin_get(&t, &u, &counted, &w), 0);
	ck_assert_ptr_nonnull(w->p);
	ck_assert_uint_eq(w->len, FILE_LEN);
	ck_assert(w->writable);
	ck_assert(w->pmem);
	ck_assert_uint_eq(((unsigned char *)w->p)[300], 300 & 0xff);
	/* the same fd again: the same window, not a second mapping */
	ck_assert_int_eq(mapwin_get(&t, &u, &counted, &w2), 0);
	ck_assert_ptr_eq(w2, w);
	ck_assert_int_eq(maps_made, 1);
	ck_assert_int_eq(sizes_asked, 1);
	/* the worker reopened the file read-only: the window follows the new fd */
	u.fd = ro;
	ck_assert_int_eq(mapwin_get(&t, &u, &counted, &w2), 0);
	ck_assert_int_eq(maps_made, 2);
	ck_assert_int_eq(w2->fd, ro);
	ck_assert(!w2->writable);
	/* another file index grows the table; the first window stays */
	u.file_idx = 40;
	ck_assert_int_eq(mapwin_get(&t, &u, &plain, &w2), 0);
	ck_assert_uint_ge(t.nr, 41);
	ck_assert(!w2->pmem);	/* mmap's own map says nothing of pmem */
	ck_assert_ptr_nonnull(t.w[3].p);
	mapwin_free(&t);
	ck_assert_ptr_null(t.w);
	ck_assert_uint_eq(t.nr, 0);
	close(fd);
	close(ro);
}
END_TEST

START_TEST(clipped_to_the_window)
{
	struct mapwin_table t = { 0 };
	struct io_unit u;
	struct mapwin *w;
	char path[PATH_MAX];
	size_t len = 0;
	char *at;

	unit_on_file(&u, path, sizeof(path), NULL);
	ck_assert_int_eq(mapwin_get(&t, &u, &plain, &w), 0);
	u.offset = 4096;
	u.len = 4096;
	at = mapwin_at(w, &u, &len);
	ck_assert_ptr_eq(at, (char *)w->p + 4096);
	ck_assert_uint_eq(len, 4096);
	/* over the end: what lies inside, the rest comes back as resid */
	u.offset = FILE_LEN - 192;
	at = mapwin_at(w, &u, &len);
	ck_assert_ptr_nonnull(at);
	ck_assert_uint_eq(len, 192);
	ck_assert_int_eq(mapwin_done(&u, len), ENGINE_COMPLETED);
	ck_assert_int_eq(u.error, 0);
	ck_assert_uint_eq(u.resid, 4096 - 192);
	/* at the end: nothing */
	u.offset = FILE_LEN;
	ck_assert_ptr_null(mapwin_at(w, &u, &len));
	mapwin_free(&t);
	close(u.fd);
}
END_TEST

START_TEST(refused_size_maps_nothing)
{
	struct mapwin_table t = { 0 };
	struct io_unit u;
	struct mapwin *w;
	char path[PATH_MAX];
	int fd;

	unit_on_file(&u, path, sizeof(path), NULL);
	fd = u.fd;
	ck_assert_int_eq(ftruncate(fd, 0), 0);
	ck_assert_int_eq(mapwin_get(&t, &u, &plain, &w), -EINVAL);
	ck_assert_ptr_null(w->p);
	u.fd = -1;	/* a closed fd: fstat's error */
	ck_assert_int_eq(mapwin_get(&t, &u, &plain, &w), -EBADF);
	ck_assert_ptr_null(w->p);
	mapwin_free(&t);
	close(fd);
}
END_TEST

START_TEST(fsync_needs_whole_pages)
{
	struct job_spec job;
	char err[256] = "";
	long page = sysconf(_SC_PAGESIZE);

	memset(&job, 0, sizeof(job));
	job.bs[DDIR_READ] = job.bs[DDIR_WRITE] = (uint64_t)page;
	job.fsync_blocks = 4;
	ck_assert_int_eq(mapwin_check_bs(&job, "libpmem", err, sizeof(err)), 0);
	job.bs[DDIR_WRITE] = 512;
	ck_assert_int_eq(mapwin_check_bs(&job, "libpmem", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "ioengine=libpmem: with fsync= or fdatasync="));
	ck_assert_ptr_nonnull(strstr(err, "bs=512 is not"));
	/* without a sync every N blocks any block size goes */
	job.fsync_blocks = 0;
	ck_assert_int_eq(mapwin_check_bs(&job, "dev-dax", err, sizeof(err)), 0);
	job.fdatasync_blocks = 1;
	ck_assert_int_eq(mapwin_check_bs(&job, "dev-dax", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "ioengine=dev-dax:"));
}
END_TEST

static Suite *mapwin_suite(void)
{
	Suite *s = suite_create("mapwin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, mapped_once_per_fd);
	tcase_add_test(tc, clipped_to_the_window);
	tcase_add_test(tc, refused_size_maps_nothing);
	tcase_add_test(tc, fsync_needs_whole_pages);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(mapwin_suite)
