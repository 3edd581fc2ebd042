/*
 * test_engine.c - every engine driven the way the worker drives it: write
 * 64 blocks of known content at depth 8, fsync, read them back and
 * compare; a read past EOF must come back short (resid), a write to a
 * read-only fd must come back with EBADF in the unit, not as an engine
 * failure. libaio's partial submissions, EAGAIN and missing aio fsync are
 * injected through an io_submit that stands in for libaio's.
 *
 * Temp files live in the program's scratch directory under /var/tmp (tmpfs
 * has no O_DIRECT) and are unlinked as soon as they are open.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* O_DIRECT */
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check_util.h"
#include "child.h"
#include "clock.h"
#include "engine.h"
#include "job.h"

#define NBLK 64
#define BS 4096
#define DEPTH 8

/* every registered engine runs the same contract tests: the registry is the list */
#define ENGINE_NAME(i) (engine_at(i)->name)

struct req {
	uint8_t ddir;
	bool datasync;
	uint64_t offset;
	uint32_t len;
	int fd;
};

struct result {
	int error;
	uint32_t resid;
	bool done;
};

struct rig {
	const struct io_engine_ops *ops;
	struct engine_ctx *ctx;
	struct io_unit units[DEPTH];
	struct io_unit *free[DEPTH];
	unsigned nr_free;
	unsigned held;
	unsigned inflight;
	unsigned char *bufs;
	unsigned char *image;	/* what the reads brought back, at file offsets */
	int fd;			/* O_RDWR, O_DIRECT when the file system has it */
	int ro_fd;		/* O_RDONLY, for the error case */
	bool direct;
	unsigned bad_issue;	/* units an F_SETS_ISSUE engine handed back unstamped */
};

static unsigned char pattern(uint64_t offset, size_t i)
{
	uint64_t b = offset / BS;

	return (unsigned char)(b * 7 + i * 13 + (i >> 8) * 3 + 1);
}

static void open_files(struct rig *r)
{
	char path[PATH_MAX];
	int fd = mkstemp(rb_test_tmpl(path, sizeof(path), "engine"));

	ck_assert_msg(fd >= 0, "mkstemp %s: %s", path, strerror(errno));
	ck_assert_int_eq(ftruncate(fd, (off_t)NBLK * BS), 0);
	close(fd);
	r->direct = true;
	r->fd = open(path, O_RDWR | O_DIRECT);
	if (r->fd < 0 && errno == EINVAL) {
		printf("note: /var/tmp refuses O_DIRECT; the engine test uses buffered I/O\n");
		r->direct = false;
		r->fd = open(path, O_RDWR);
	}
	ck_assert_msg(r->fd >= 0, "open %s: %s", path, strerror(errno));
	r->ro_fd = open(path, O_RDONLY | (r->direct ? O_DIRECT : 0));
	ck_assert_msg(r->ro_fd >= 0, "open %s read-only: %s", path, strerror(errno));
	unlink(path);
}

/* Returns false when the engine cannot run here at all (io_uring off in the kernel). */
static bool rig_init(struct rig *r, const char *name)
{
	char err[256] = "";
	unsigned i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->ops = engine_find(name);
	ck_assert_msg(r->ops != NULL, "engine_find(\"%s\")", name);
	ck_assert_str_eq(r->ops->name, name);
	/* the contract is about moving data through a file's fd; their own tests cover the rest */
	if (r->ops->flags & ENGINE_F_NOXFER) {
		printf("skipped %s: it moves no data (tests/integration/fio_engines.sh)\n", name);
		return false;
	}
	if (r->ops->flags & ENGINE_F_STREAM) {
		printf("skipped %s: it moves data over a socket (tests/integration/fio_net.sh)\n",
		       name);
		return false;
	}
	if (r->ops->probe) {
		printf("skipped %s: it needs its own kind of device (fio_engines.sh)\n", name);
		return false;
	}
	if (r->ops->target_open) {
		printf("skipped %s: it opens its own targets by name (fio_pmem.sh)\n", name);
		return false;
	}
	if (r->ops->flags & ENGINE_F_REMOTE) {
		printf("skipped %s: it reaches a server, not an fd (remote_engines.sh)\n", name);
		return false;
	}
	ck_assert_int_eq(posix_memalign((void **)&r->bufs, 4096, DEPTH * 2 * BS), 0);
	r->image = calloc(NBLK, BS);
	ck_assert_ptr_nonnull(r->image);
	for (i = 0; i < DEPTH; i++) {
		r->units[i].buf = r->bufs + (size_t)i * 2 * BS;
		r->units[i].idx = i;
		r->free[r->nr_free++] = &r->units[i];
	}
	open_files(r);
	ret = r->ops->init(&r->ctx, DEPTH, r->units, DEPTH, err, sizeof(err));
	if (ret && !strcmp(name, "io_uring") && (ret == -EPERM || ret == -ENOSYS)) {
		printf("skipped io_uring: %s\n", err);
		return false;
	}
	ck_assert_msg(ret == 0, "%s init: %d %s", name, ret, err);
	if (r->ops->register_files)
		ck_assert_int_eq(r->ops->register_files(r->ctx, &r->fd, 1), 0);
	return true;
}

static void rig_release(struct rig *r)
{
	if (r->ctx)
		r->ops->cleanup(r->ctx);
	close(r->fd);
	close(r->ro_fd);
	free(r->bufs);
	free(r->image);
}

static void finish(struct rig *r, struct io_unit *u, const struct req *reqs, struct result *res)
{
	const struct req *q = &reqs[u->numberio];

	ck_assert_ptr_nonnull(u);
	res[u->numberio].error = u->error;
	res[u->numberio].resid = u->resid;
	res[u->numberio].done = true;
	if (q->ddir == DDIR_READ && !u->error && q->offset + q->len <= (uint64_t)NBLK * BS)
		memcpy(r->image + q->offset, u->buf, q->len);
	r->free[r->nr_free++] = u;
}

/* The worker's pump in miniature: fill the queue, commit every few, reap. */
static void run(struct rig *r, const struct req *reqs, unsigned n, struct result *res)
{
	unsigned next = 0, done = 0, i;

	memset(res, 0, n * sizeof(*res));
	while (done < n) {
		while (next < n && r->nr_free) {
			struct io_unit *u = r->free[--r->nr_free];
			const struct req *q = &reqs[next];
			int ret;
			size_t k;

			u->ddir = q->ddir;
			u->datasync = q->datasync;
			u->offset = q->offset;
			u->len = q->len;
			u->fd = q->fd;
			u->file_idx = 0;
			u->numberio = next;
			u->error = -1;
			u->resid = 12345;
			u->start_ns = u->issue_ns = rb_now_ns();
			if (q->ddir == DDIR_WRITE)
				for (k = 0; k < q->len; k++)
					((unsigned char *)u->buf)[k] = pattern(q->offset, k);
			else
				memset(u->buf, 0xee, q->len);
			ret = r->ops->queue(r->ctx, u);
			if (ret == ENGINE_BUSY) {
				r->free[r->nr_free++] = u;
				break;
			}
			ck_assert_msg(ret >= 0, "%s queue: %d", r->ops->name, ret);
			next++;
			if (ret == ENGINE_COMPLETED) {
				finish(r, u, reqs, res);
				done++;
			} else if (++r->held >= 3) {
				ret = r->ops->commit(r->ctx, rb_clock);
				ck_assert_msg(ret >= 0, "%s commit: %d", r->ops->name, ret);
				r->held -= (unsigned)ret;
				r->inflight += (unsigned)ret;
			}
		}
		if (r->held) {
			int ret = r->ops->commit(r->ctx, rb_clock);

			ck_assert_msg(ret >= 0, "%s commit: %d", r->ops->name, ret);
			r->held -= (unsigned)ret;
			r->inflight += (unsigned)ret;
		}
		if (r->inflight) {
			int got = r->ops->getevents(r->ctx, 1, r->inflight);

			ck_assert_msg(got >= 1 && (unsigned)got <= r->inflight,
				      "%s getevents(1, %u) = %d", r->ops->name, r->inflight, got);
			for (i = 0; i < (unsigned)got; i++) {
				struct io_unit *u = r->ops->event(r->ctx, i);

				if ((r->ops->flags & ENGINE_F_SETS_ISSUE) && u->issue_ns < u->start_ns)
					r->bad_issue++;
				finish(r, u, reqs, res);
			}
			r->inflight -= (unsigned)got;
			done += (unsigned)got;
		}
	}
	ck_assert_uint_eq(r->held, 0);
	ck_assert_uint_eq(r->inflight, 0);
	ck_assert_uint_eq(r->nr_free, DEPTH);
	ck_assert_uint_eq(r->bad_issue, 0);
}

/* Writes, fsync, fdatasync, read back, compare: what every engine must get right. */
static void roundtrip(const char *name)
{
	static struct req reqs[NBLK + 3];
	static struct result res[NBLK + 3];
	struct rig r;
	unsigned i, n = 0, bad = 0, first_bad = 0;
	bool nodata;

	if (!rig_init(&r, name))
		return;
	nodata = r.ops->flags & ENGINE_F_NODATA;
	/* writes in a scattered order, with an fsync in the middle; then an fdatasync */
	for (i = 0; i < NBLK; i++) {
		reqs[n++] = (struct req){ DDIR_WRITE, false, (uint64_t)((i * 37) % NBLK) * BS, BS,
					  r.fd };
		if (i == NBLK / 2)
			reqs[n++] = (struct req){ DDIR_SYNC, false, 0, 0, r.fd };
	}
	reqs[n++] = (struct req){ DDIR_SYNC, false, 0, 0, r.fd };
	reqs[n++] = (struct req){ DDIR_SYNC, true, 0, 0, r.fd };
	run(&r, reqs, n, res);
	for (i = 0; i < n; i++) {
		ck_assert_msg(res[i].done && res[i].error == 0 && res[i].resid == 0,
			      "%s request %u (ddir %d): done %d error %d (%s) resid %u", name, i,
			      reqs[i].ddir, res[i].done, res[i].error, strerror(res[i].error),
			      res[i].resid);
	}

	for (n = 0; n < NBLK; n++)
		reqs[n] = (struct req){ DDIR_READ, false, (uint64_t)n * BS, BS, r.fd };
	memset(r.image, 0xee, (size_t)NBLK * BS);
	run(&r, reqs, n, res);
	for (i = 0; i < n; i++)
		ck_assert_msg(res[i].error == 0 && res[i].resid == 0,
			      "%s read %u: error %d resid %u", name, i, res[i].error, res[i].resid);
	for (i = 0; i < (unsigned)NBLK * BS; i++) {
		unsigned char want = nodata ? 0xee : pattern(i / BS * BS, i % BS);

		if (r.image[i] != want && !bad++)
			first_bad = i;
	}
	ck_assert_msg(!bad, "%s: %u bytes differ, first at %u: expected 0x%02x, got 0x%02x",
		      name, bad, first_bad,
		      nodata ? 0xee : pattern(first_bad / BS * BS, first_bad % BS),
		      r.image[first_bad]);
	rig_release(&r);
}

START_TEST(test_engine_roundtrip)
{
	roundtrip(ENGINE_NAME(_i));
}
END_TEST

/*
 * libaio's awkward kernel answers, injected: this definition of io_submit
 * takes the place of libaio's for the engine linked into this program, and
 * passes through to the real one.
 */
enum { AIO_PASS, AIO_ONE_AT_A_TIME, AIO_EAGAIN_AND_SHORT, AIO_NO_FSYNC };
static int aio_inject;
static unsigned aio_fsyncs_seen;

static bool is_fsync(const struct iocb *iocb)
{
	return iocb->aio_lio_opcode == IO_CMD_FSYNC || iocb->aio_lio_opcode == IO_CMD_FDSYNC;
}

int io_submit(io_context_t ctx, long nr, struct iocb *ios[])
{
	static int (*real)(io_context_t, long, struct iocb **);
	static unsigned calls;
	long i;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "io_submit");
	calls++;
	switch (aio_inject) {
	case AIO_ONE_AT_A_TIME:
		return real(ctx, nr > 1 ? 1 : nr, ios);
	case AIO_EAGAIN_AND_SHORT:
		/* out of resources now and then, partial submissions in between */
		return calls % 4 == 2 ? -EAGAIN : real(ctx, nr > 1 ? nr - 1 : nr, ios);
	case AIO_NO_FSYNC:
		/* a kernel before 4.18: takes the iocbs up to the first fsync, refuses that one */
		for (i = 0; i < nr && !is_fsync(ios[i]); i++)
			;
		if (i == 0 && nr > 0) {
			aio_fsyncs_seen++;
			return -EINVAL;
		}
		return real(ctx, i, ios);
	default:
		return real(ctx, nr, ios);
	}
}

START_TEST(test_libaio_anomalies)
{
	aio_inject = AIO_ONE_AT_A_TIME;
	roundtrip("libaio");
	aio_inject = AIO_EAGAIN_AND_SHORT;
	roundtrip("libaio");
	/* three fsyncs in the round trip: the first is refused, the rest never reach the kernel */
	aio_inject = AIO_NO_FSYNC;
	aio_fsyncs_seen = 0;
	roundtrip("libaio");
	ck_assert_uint_eq(aio_fsyncs_seen, 1);
	aio_inject = AIO_PASS;
}
END_TEST

START_TEST(test_engine_short_read)
{
	const char *name = ENGINE_NAME(_i);
	struct req reqs[2];
	struct result res[2];
	struct rig r;

	if (!rig_init(&r, name))
		return;
	reqs[0] = (struct req){ DDIR_READ, false, (uint64_t)(NBLK - 1) * BS, 2 * BS, r.fd };
	reqs[1] = (struct req){ DDIR_READ, false, (uint64_t)NBLK * BS, BS, r.fd };
	run(&r, reqs, 2, res);
	ck_assert_int_eq(res[0].error, 0);
	ck_assert_int_eq(res[1].error, 0);
	if (r.ops->flags & ENGINE_F_NODATA) {
		/* nothing is read, so nothing comes up short */
		ck_assert_uint_eq(res[0].resid, 0);
	} else {
		ck_assert_uint_eq(res[0].resid, BS);
		ck_assert_uint_eq(res[1].resid, BS);
	}
	rig_release(&r);
}
END_TEST

START_TEST(test_engine_error_in_unit)
{
	const char *name = ENGINE_NAME(_i);
	struct req reqs[3];
	struct result res[3];
	struct rig r;

	if (!rig_init(&r, name))
		return;
	if (r.ops->flags & ENGINE_F_NODATA) {
		rig_release(&r);
		return;		/* null never touches the fd, so it cannot fail */
	}
	/* the bad write sits between good reads: only it may fail */
	reqs[0] = (struct req){ DDIR_READ, false, 0, BS, r.fd };
	reqs[1] = (struct req){ DDIR_WRITE, false, BS, BS, r.ro_fd };
	reqs[2] = (struct req){ DDIR_READ, false, 2 * BS, BS, r.fd };
	run(&r, reqs, 3, res);
	ck_assert_int_eq(res[0].error, 0);
	ck_assert_int_eq(res[1].error, EBADF);
	ck_assert_uint_eq(res[1].resid, BS);
	ck_assert_int_eq(res[2].error, 0);
	rig_release(&r);
}
END_TEST

START_TEST(test_engine_trim)
{
	const char *name = ENGINE_NAME(_i);
	struct req reqs[2];
	struct result res[2];
	struct rig r;
	unsigned i, bad = 0;

	if (!rig_init(&r, name))
		return;
	if (r.ops->flags & ENGINE_F_NODATA) {
		rig_release(&r);
		return;
	}
	reqs[0] = (struct req){ DDIR_WRITE, false, 0, BS, r.fd };
	reqs[1] = (struct req){ DDIR_WRITE, false, BS, BS, r.fd };
	run(&r, reqs, 2, res);
	ck_assert_int_eq(res[0].error + res[1].error, 0);
	reqs[0] = (struct req){ DDIR_TRIM, false, 0, BS, r.fd };
	run(&r, reqs, 1, res);
	if (res[0].error == EOPNOTSUPP) {
		printf("note: /var/tmp cannot punch holes; trim not checked for %s\n", name);
		rig_release(&r);
		return;
	}
	if (res[0].error == EINVAL && (r.ops->flags & ENGINE_F_MAPS)) {
		/* libpmem, as fio's: a mapping of persistent memory has no trim */
		printf("note: %s has no trim (EINVAL)\n", name);
		rig_release(&r);
		return;
	}
	ck_assert_msg(res[0].error == 0, "%s trim: %s", name, strerror(res[0].error));
	reqs[0] = (struct req){ DDIR_READ, false, 0, BS, r.fd };
	reqs[1] = (struct req){ DDIR_READ, false, BS, BS, r.fd };
	run(&r, reqs, 2, res);
	for (i = 0; i < BS; i++) {
		bad += r.image[i] != 0;
		bad += r.image[BS + i] != pattern(BS, i);
	}
	ck_assert_msg(!bad, "%s: %u bytes wrong after trimming block 0", name, bad);
	rig_release(&r);
}
END_TEST

START_TEST(test_engine_registry)
{
	static const char *const known[] = { "libaio", "io_uring", "psync", "sync", "null",
					     "posixaio" };
	const struct io_engine_ops *ops;
	char have[256];
	unsigned i;

	engine_names(have, sizeof(have));
	ck_assert_str_eq(engine_at(0)->name, "libaio");	/* fio's default */
	for (i = 0; (ops = engine_at(i)); i++) {
		ck_assert_msg(engine_find(ops->name) == ops, "engine_find(\"%s\")", ops->name);
		ck_assert_msg(strstr(have, ops->name) != NULL, "%s not in \"%s\"", ops->name, have);
		ck_assert_ptr_nonnull(ops->init);
		ck_assert_ptr_nonnull(ops->queue);
		ck_assert_ptr_nonnull(ops->commit);
		ck_assert_ptr_nonnull(ops->getevents);
		ck_assert_ptr_nonnull(ops->event);
		ck_assert_ptr_nonnull(ops->cleanup);
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		ck_assert_msg(engine_find(known[i]) != NULL, "engine_find(\"%s\")", known[i]);
	ck_assert_ptr_null(engine_find("rbd"));
	ck_assert_ptr_null(engine_find(NULL));
	ck_assert(engine_find("psync")->flags & ENGINE_F_SYNC);
	ck_assert(engine_find("sync")->flags & ENGINE_F_SYNC);
	ck_assert(engine_find("null")->flags & ENGINE_F_NODATA);
	ck_assert(engine_find("null")->flags & ENGINE_F_SYNC_AT_DEPTH1);
	ck_assert(!(engine_find("libaio")->flags & ENGINE_F_SYNC_AT_DEPTH1));
}
END_TEST

/* ioengine= values: ours, fio's others (with why not), plugins and typos. */
START_TEST(test_engine_lookup)
{
	char why[1024] = "", have[512];

	engine_names(have, sizeof(have));
	ck_assert_ptr_eq(engine_lookup("libaio", why, sizeof(why)), engine_find("libaio"));
	ck_assert_ptr_eq(engine_lookup("null", why, sizeof(why)), engine_find("null"));
	ck_assert_str_eq(why, "");
	ck_assert_ptr_null(engine_lookup("rbd", why, sizeof(why)));
	ck_assert_msg(!strncmp(why, "'rbd' is a fio ioengine raidbench does not support: it "
			       "needs a cluster", 70) &&
		      strstr(why, have), "%s", why);
	ck_assert_ptr_null(engine_lookup("external:/x.so", why, sizeof(why)));
	ck_assert_msg(strstr(why, "loads no engine plugins") && strstr(why, have), "%s", why);
	ck_assert_ptr_null(engine_lookup("libaoi", why, sizeof(why)));
	ck_assert_msg(!strncmp(why, "unknown ioengine 'libaoi' (supported: libaio, ", 46), "%s", why);
	/* a truncating buffer stays terminated */
	engine_names(have, 8);
	ck_assert_str_eq(have, "libaio,");
}
END_TEST

START_TEST(test_engine_init_errors)
{
	static struct io_unit units[1];
	const char *const async[] = { "libaio", "io_uring" };
	unsigned i;

	for (i = 0; i < 2; i++) {
		struct engine_ctx *ctx = NULL;
		char err[256] = "";
		int ret = engine_find(async[i])->init(&ctx, 1u << 20, units, 1, err, sizeof(err));

		ck_assert_msg(ret < 0, "%s init at depth 1M succeeded", async[i]);
		ck_assert_msg(!strncmp(err, async[i], strlen(async[i])) && strstr(err, "refused") &&
			      strstr(err, "1048576"), "%s message: %s", async[i], err);
	}
}
END_TEST

/* null: depth 1 completes in queue(); deeper, it holds, fills up, and hands back. */
START_TEST(test_engine_null_semantics)
{
	const struct io_engine_ops *ops = engine_find("null");
	struct io_unit units[DEPTH + 1];
	struct engine_ctx *ctx;
	char err[128];
	unsigned i;

	memset(units, 0, sizeof(units));
	ck_assert_int_eq(ops->init(&ctx, 1, units, 1, err, sizeof(err)), 0);
	ck_assert_int_eq(ops->queue(ctx, &units[0]), ENGINE_COMPLETED);
	ops->cleanup(ctx);

	ck_assert_int_eq(ops->init(&ctx, DEPTH, units, DEPTH, err, sizeof(err)), 0);
	for (i = 0; i < DEPTH; i++)
		ck_assert_int_eq(ops->queue(ctx, &units[i]), ENGINE_QUEUED);
	ck_assert_int_eq(ops->queue(ctx, &units[DEPTH]), ENGINE_BUSY);
	ck_assert_int_eq(ops->getevents(ctx, 0, DEPTH), 0);	/* nothing committed yet */
	ck_assert_int_eq(ops->commit(ctx, rb_clock), DEPTH);
	ck_assert_uint_ne(units[0].issue_ns, 0);
	ck_assert_int_eq(ops->getevents(ctx, 1, 3), 3);
	for (i = 0; i < 3; i++)
		ck_assert_ptr_eq(ops->event(ctx, i), &units[i]);
	/* room for three again; the ring wraps */
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(ops->queue(ctx, &units[i]), ENGINE_QUEUED);
	ck_assert_int_eq(ops->queue(ctx, &units[DEPTH]), ENGINE_BUSY);
	ck_assert_int_eq(ops->commit(ctx, rb_clock), 3);
	ck_assert_int_eq(ops->getevents(ctx, 1, DEPTH), DEPTH);
	for (i = 0; i < DEPTH; i++)
		ck_assert_ptr_eq(ops->event(ctx, i), &units[(i + 3) % DEPTH]);
	ops->cleanup(ctx);
}
END_TEST

/* exec's output under the TUI: the live view gets the newest lines that fit, escaped. */
START_TEST(test_capture_latest)
{
	struct child_capture cc;
	char buf[40];
	int wfd;
	const char *out = "first line\nsecond \033[1mline\nthird line\n";

	ck_assert_int_eq(child_capture_open(&cc, &wfd), 0);
	ck_assert_int_eq(write(wfd, out, strlen(out)), (int)strlen(out));
	child_capture_drain(&cc);
	/* 48 columns in all: from the first whole line from which the rest fits */
	child_capture_latest(&cc, buf, sizeof(buf));
	ck_assert_str_eq(buf, "second \\x1b[1mline | third line");
	child_capture_latest(&cc, buf, 30);
	ck_assert_str_eq(buf, "third line");
	{
		char wide[80];

		child_capture_latest(&cc, wide, sizeof(wide));
		ck_assert_str_eq(wide, "first line | second \\x1b[1mline | third line");
	}
	/* one line longer than the room: its end, after "...", never half an escape */
	ck_assert_int_eq(write(wfd, "0123456789abcdefghij\033klmnopqrstuvwxyz", 37), 37);
	child_capture_drain(&cc);
	child_capture_latest(&cc, buf, 24);
	ck_assert_str_eq(buf, "...\\x1bklmnopqrstuvwxyz");
	child_capture_latest(&cc, buf, 22);
	ck_assert_str_eq(buf, "...klmnopqrstuvwxyz");
	close(wfd);
	child_capture_close(&cc);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("core");
	int nr = 0;

	while (engine_at((size_t)nr))
		nr++;
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_engine_registry);
	tcase_add_test(tc, test_engine_lookup);
	tcase_add_test(tc, test_engine_init_errors);
	tcase_add_test(tc, test_engine_null_semantics);
	tcase_add_test(tc, test_capture_latest);
	tcase_add_loop_test(tc, test_engine_roundtrip, 0, nr);
	tcase_add_loop_test(tc, test_engine_short_read, 0, nr);
	tcase_add_loop_test(tc, test_engine_error_in_unit, 0, nr);
	tcase_add_loop_test(tc, test_engine_trim, 0, nr);
	tcase_add_test(tc, test_libaio_anomalies);
	suite_add_tcase(s, tc);
	return s;
}

RB_TEST_MAIN(engine_suite)
