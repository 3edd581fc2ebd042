/*
 * engine_uring.c - ioengine=io_uring, through liburing.
 *
 * queue() fills one SQE (user_data = the unit); commit() is one
 * io_uring_enter that submits the batch and, as fio does, also asks for
 * completions (GETEVENTS), so the completions of earlier I/O are usually
 * waiting in the CQ ring by the time getevents() looks; getevents() reads
 * the CQ ring without a syscall and only enters the kernel to wait when
 * fewer than min are there.
 *
 * The ring is set up with COOP_TASKRUN and SINGLE_ISSUER|DEFER_TASKRUN
 * where the kernel has them (6.1+), falling back flag by flag. A
 * single-issuer ring belongs to the task that first submits, so it starts
 * disabled (R_DISABLED) and is enabled, and its fd registered, by the
 * first commit(): init may then run on another thread than the I/O.
 *
 * fio's tuning options (init_tuned): fixedbufs registers the units'
 * buffers once, so the kernel neither maps nor pins pages per I/O (reads
 * and writes become READ_FIXED/WRITE_FIXED with the unit's index); it is on
 * unless fixedbufs=0, and quietly off where the kernel refuses unless asked;
 * sqthread_poll (with sqthread_poll_cpu) sets the ring up with SQPOLL, a
 * kernel thread that picks SQEs up with no syscall while it is awake;
 * hipri sets it up with IOPOLL, completions found by polling the device,
 * which only devices with poll queues accept (others fail each I/O with
 * EOPNOTSUPP, as under fio). Files are always registered and reads and
 * writes are never vectored: fio's registerfiles and nonvectored.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate, FALLOC_FL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <liburing.h>
#include "engine.h"
#include "job.h"

struct uring_ctx {
	struct io_uring ring;
	unsigned depth;
	unsigned nr_held;	/* SQEs filled, not yet submitted: held[0 .. nr_held) */
	unsigned nr_inflight;	/* submitted, not yet reaped */
	bool enabled;		/* false until the first commit() enables the ring */
	bool get_events;	/* commit() passes GETEVENTS: DEFER_TASKRUN rings only */
	bool fixedbufs;		/* the units' buffers are registered: buffer index = unit idx */
	unsigned nr_fixed;	/* registered files: fixed_fds[0 .. nr_fixed) */
	int *fixed_fds;
	struct io_unit **held;
	struct io_unit **reaped;	/* filled by getevents(), read by event() */
};

static inline struct uring_ctx *to_uring(struct engine_ctx *ctx)
{
	return (struct uring_ctx *)ctx;
}

static void uring_free(struct uring_ctx *c)
{
	free(c->held);
	free(c->reaped);
	free(c->fixed_fds);
	free(c);
}

/* Tries the fastest setup first; drops one flag per EINVAL, as fio does. */
static int uring_setup(struct uring_ctx *c, unsigned depth, const struct engine_tuning *tune)
{
	struct io_uring_params p;
	unsigned must = 0;
	/* SUBMIT_ALL: a request failing at submission must not hold back the rest of the batch */
	unsigned flags = IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN |
			 IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
			 IORING_SETUP_R_DISABLED;
	static const unsigned drop[] = {
		IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_R_DISABLED,
		IORING_SETUP_COOP_TASKRUN,
		IORING_SETUP_SUBMIT_ALL,
	};
	unsigned i = 0;
	int r;

	if (tune && tune->sqpoll) {
		/* the SQ thread is the issuer: no DEFER_TASKRUN, and nothing to enable later */
		flags &= ~(IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
			   IORING_SETUP_R_DISABLED);
		must |= IORING_SETUP_SQPOLL;
		if (tune->sqpoll_cpu >= 0)
			must |= IORING_SETUP_SQ_AFF;
	}
	if (tune && tune->hipri)
		must |= IORING_SETUP_IOPOLL;
	for (;;) {
		memset(&p, 0, sizeof(p));
		p.flags = flags | must;
		if (must & IORING_SETUP_SQ_AFF)
			p.sq_thread_cpu = (unsigned)tune->sqpoll_cpu;
		r = io_uring_queue_init_params(depth, &c->ring, &p);
		if (r != -EINVAL || i == sizeof(drop) / sizeof(drop[0]))
			break;
		flags &= ~drop[i++];
	}
	if (r == 0)
		c->enabled = !(flags & IORING_SETUP_R_DISABLED);
	return r;
}

static int uring_init_tuned(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			    unsigned nr_units, const struct engine_tuning *tune, char *err,
			    size_t errlen)
{
	struct uring_ctx *c;
	int r;

	if (!depth)
		depth = 1;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->held = calloc(depth, sizeof(*c->held))) ||
	    !(c->reaped = calloc(depth, sizeof(*c->reaped)))) {
		snprintf(err, errlen, "io_uring: cannot allocate a context for depth %u", depth);
		if (c)
			uring_free(c);
		return -ENOMEM;
	}
	c->depth = depth;
	r = uring_setup(c, depth, tune);
	if (r < 0) {
		snprintf(err, errlen, "io_uring: the kernel refused io_uring_queue_init(%u%s%s): %s%s",
			 depth, tune && tune->sqpoll ? ", sqthread_poll" : "",
			 tune && tune->hipri ? ", hipri" : "", strerror(-r),
			 r == -EPERM || r == -ENOSYS ?
			 " (io_uring disabled: see kernel.io_uring_disabled or the seccomp policy)" :
			 "");
		uring_free(c);
		return r;
	}
	if (tune && tune->fixedbufs && nr_units) {
		struct iovec *iov = calloc(nr_units, sizeof(*iov));
		unsigned i;

		if (!iov) {
			snprintf(err, errlen, "io_uring: cannot allocate %u buffer vectors", nr_units);
			io_uring_queue_exit(&c->ring);
			uring_free(c);
			return -ENOMEM;
		}
		for (i = 0; i < nr_units; i++) {
			iov[i].iov_base = units[i].buf;
			iov[i].iov_len = tune->unit_buf_len;
		}
		r = io_uring_register_buffers(&c->ring, iov, nr_units);
		free(iov);
		if (r < 0 && !tune->fixedbufs_required) {
			/* not asked for: plain buffers work, only a little slower */
		} else if (r < 0) {
			snprintf(err, errlen, "io_uring: fixedbufs: the kernel refused to register "
				 "%u buffers of %zu bytes: %s%s", nr_units, tune->unit_buf_len,
				 strerror(-r), r == -ENOMEM ?
				 " (locked memory: raise RLIMIT_MEMLOCK, ulimit -l)" : "");
			io_uring_queue_exit(&c->ring);
			uring_free(c);
			return r;
		} else {
			c->fixedbufs = true;
		}
	}
	/*
	 * Without DEFER_TASKRUN, GETEVENTS on submit costs a little and buys
	 * nothing, since completions land in the CQ ring by themselves.
	 */
	c->get_events = c->ring.flags & IORING_SETUP_DEFER_TASKRUN;
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int uring_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		      unsigned nr_units, char *err, size_t errlen)
{
	return uring_init_tuned(ctx, depth, units, nr_units, NULL, err, errlen);
}

/*
 * Fixed files save the kernel an fd lookup and refcount per I/O. Slot i
 * holds fds[i]; a unit uses its slot when file_idx names one holding its fd.
 */
static int uring_register_files(struct engine_ctx *ctx, const int *fds, unsigned nr)
{
	struct uring_ctx *c = to_uring(ctx);
	int *copy;
	int r;

	if (!nr || c->nr_fixed)
		return 0;
	copy = malloc(nr * sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, fds, nr * sizeof(*copy));
	r = io_uring_register_files(&c->ring, fds, nr);
	if (r < 0) {
		free(copy);
		return r;	/* plain fds keep working */
	}
	c->fixed_fds = copy;
	c->nr_fixed = nr;
	return 0;
}

static int uring_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct uring_ctx *c = to_uring(ctx);
	struct io_uring_sqe *sqe;
	bool fixed;
	int fd;

	if (c->nr_held + c->nr_inflight >= c->depth)
		return ENGINE_BUSY;
	if (u->ddir > DDIR_SYNC)
		return -EINVAL;
	sqe = io_uring_get_sqe(&c->ring);
	if (!sqe)
		return ENGINE_BUSY;
	/* the fd check keeps a unit whose file_idx is not its registered slot correct */
	fixed = u->file_idx < c->nr_fixed && c->fixed_fds[u->file_idx] == u->fd;
	fd = fixed ? (int)u->file_idx : u->fd;
	switch (u->ddir) {
	case DDIR_READ:
		if (c->fixedbufs)
			io_uring_prep_read_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->idx);
		else
			io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
		break;
	case DDIR_WRITE:
		if (c->fixedbufs)
			io_uring_prep_write_fixed(sqe, fd, u->buf, u->len, u->offset, (int)u->idx);
		else
			io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
		break;
	case DDIR_SYNC:
		io_uring_prep_fsync(sqe, fd, u->datasync ? IORING_FSYNC_DATASYNC : 0);
		break;
	default:
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					u->offset, u->len);
		break;
	}
	if (fixed)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, u);
	c->held[c->nr_held++] = u;
	return ENGINE_QUEUED;
}

/* First commit: runs on the I/O thread, which is what a single-issuer ring needs. */
static int uring_enable(struct uring_ctx *c)
{
	/* the raw syscall: liburing 2.3 declares io_uring_enable_rings but does not export it */
	if (syscall(__NR_io_uring_register, c->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS,
		    NULL, 0) < 0)
		return -errno;
	c->enabled = true;
	/* a registered ring fd saves an fd lookup per io_uring_enter; optional */
	io_uring_register_ring_fd(&c->ring);
	return 0;
}

/* Submits the held SQEs; with wait_nr, one io_uring_enter also waits for that many CQEs. */
static int uring_submit(struct engine_ctx *ctx, uint64_t (*clock)(void), unsigned wait_nr)
{
	struct uring_ctx *c = to_uring(ctx);
	unsigned i, n;
	int r;

	if (!c->nr_held)
		return 0;
	if (!c->enabled && (r = uring_enable(c)) < 0)
		return r;
	if (wait_nr > c->nr_held + c->nr_inflight)
		wait_nr = c->nr_held + c->nr_inflight;
	if (wait_nr) {
		/* a wait cut short by a signal leaves the I/O submitted: getevents() waits again */
		r = io_uring_submit_and_wait(&c->ring, wait_nr);
		if (r == -EINTR || r == -ETIME)
			r = (int)(c->nr_held - io_uring_sq_ready(&c->ring));
	} else {
		do
			r = c->get_events ? io_uring_submit_and_get_events(&c->ring)
					  : io_uring_submit(&c->ring);
		while (r == -EINTR);
	}
	if (r < 0) {
		/* out of kernel resources: the caller reaps and retries, unless nothing would come */
		if ((r == -EAGAIN || r == -EBUSY) && c->nr_inflight)
			return 0;
		return r;
	}
	n = (unsigned)r < c->nr_held ? (unsigned)r : c->nr_held;
	if (clock && n) {
		uint64_t now = clock();

		for (i = 0; i < n; i++)
			c->held[i]->issue_ns = now;
	}
	c->nr_inflight += n;
	c->nr_held -= n;
	/* short submit: the rest stay in the SQ ring, in order, for the next enter */
	if (c->nr_held)
		memmove(c->held, c->held + n, c->nr_held * sizeof(*c->held));
	return (int)n;
}

static int uring_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	return uring_submit(ctx, clock, 0);
}

/* QD1's whole cycle in one io_uring_enter: submit, then sleep until it completes. */
static int uring_commit_wait(struct engine_ctx *ctx, unsigned wait_nr)
{
	return uring_submit(ctx, NULL, wait_nr ? wait_nr : 1);
}

/* Moves ready CQEs into reaped[], up to max in total; no syscall. */
static unsigned uring_reap(struct uring_ctx *c, unsigned n, unsigned max)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;

	io_uring_for_each_cqe(&c->ring, head, cqe) {
		struct io_unit *u;

		if (n >= max)
			break;
		seen++;
		u = io_uring_cqe_get_data(cqe);
		c->nr_inflight--;
		if (cqe->res < 0) {
			u->error = -cqe->res;
			u->resid = u->len;
		} else {
			u->error = 0;
			u->resid = (unsigned)cqe->res < u->len ? u->len - (unsigned)cqe->res : 0;
		}
		c->reaped[n++] = u;
	}
	if (seen)
		io_uring_cq_advance(&c->ring, seen);
	return n;
}

static int uring_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct uring_ctx *c = to_uring(ctx);
	unsigned n;

	if (max > c->depth)
		max = c->depth;
	if (min > max)
		min = max;
	n = uring_reap(c, 0, max);
	while (n < min && c->nr_inflight) {
		struct io_uring_cqe *cqe;
		unsigned want = min - n;
		int r;

		if (want > c->nr_inflight)
			want = c->nr_inflight;
		r = io_uring_wait_cqe_nr(&c->ring, &cqe, want);
		if (r < 0 && r != -EINTR && r != -EAGAIN && r != -ETIME)
			return r;
		n = uring_reap(c, n, max);
	}
	return (int)n;
}

static struct io_unit *uring_event(struct engine_ctx *ctx, unsigned i)
{
	return to_uring(ctx)->reaped[i];
}

static void uring_cleanup(struct engine_ctx *ctx)
{
	struct uring_ctx *c = to_uring(ctx);

	if (!c)
		return;
	io_uring_queue_exit(&c->ring);
	uring_free(c);
}

const struct io_engine_ops engine_uring_ops = {
	.name = "io_uring",
	.flags = ENGINE_F_SETS_ISSUE,
	.init = uring_init,
	.init_tuned = uring_init_tuned,
	.register_files = uring_register_files,
	.queue = uring_queue,
	.commit = uring_commit,
	.commit_wait = uring_commit_wait,
	.getevents = uring_getevents,
	.event = uring_event,
	.cleanup = uring_cleanup,
};
