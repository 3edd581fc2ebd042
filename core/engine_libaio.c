/*
 * engine_libaio.c - ioengine=libaio: Linux native AIO through libaio.
 *
 * queue() only prepares the unit's own iocb and appends it to the held
 * list; commit() hands the held list to io_submit() in one call where it
 * can; getevents() takes the completions already there straight from the
 * kernel's completion ring, which is mapped into the process (what fio's
 * userspace_reap does), and enters io_getevents() only to wait when fewer
 * than min are there. No allocation and no extra syscall per I/O.
 *
 * A unit the kernel refuses at submission (io_submit fails on it: EBADF
 * for a write to a read-only fd, EINVAL for a bad request) is not a fatal
 * error of the context: it is completed with that error and comes back
 * through getevents() like any other, so the worker accounts it per I/O.
 * Kernels without aio fsync (before 4.18) refuse IOCB_CMD_FSYNC with
 * EINVAL; from then on fsyncs run synchronously in queue().
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* fallocate, FALLOC_FL_* */
#endif
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engine.h"
#include "job.h"

/* The kernel's completion ring, mapped at the context's address (fs/aio.c). */
struct aio_cq_ring {
	unsigned id, nr, head, tail;
	unsigned magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};

#define AIO_CQ_RING_MAGIC 0xa10a10a1u

struct libaio_ctx {
	io_context_t aio;
	struct aio_cq_ring *cq;	/* NULL when the ring is not one we can read */
	unsigned depth;
	unsigned nr_held;	/* prepared, waiting for commit(): held[0 .. nr_held) */
	unsigned nr_kernel;	/* submitted, not yet reaped from the kernel */
	unsigned nr_refused;	/* completed at submission: refused[0 .. nr_refused) */
	bool sync_fsync;	/* the kernel has no aio fsync */
	struct iocb *iocbs;	/* one per unit, units[i].engine_priv = &iocbs[i] */
	struct iocb **held;
	struct io_event *refused;
	struct io_event *events;	/* filled by getevents(), read by event() */
};

static inline struct libaio_ctx *to_aio(struct engine_ctx *ctx)
{
	return (struct libaio_ctx *)ctx;
}

static void libaio_free(struct libaio_ctx *a)
{
	free(a->iocbs);
	free(a->held);
	free(a->refused);
	free(a->events);
	free(a);
}

static int libaio_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		       unsigned nr_units, char *err, size_t errlen)
{
	struct libaio_ctx *a;
	unsigned i;
	int r;

	if (!depth)
		depth = 1;
	a = calloc(1, sizeof(*a));
	if (!a)
		goto nomem;
	a->depth = depth;
	a->iocbs = calloc(nr_units ? nr_units : 1, sizeof(*a->iocbs));
	a->held = calloc(depth, sizeof(*a->held));
	a->refused = calloc(depth, sizeof(*a->refused));
	a->events = calloc(depth, sizeof(*a->events));
	if (!a->iocbs || !a->held || !a->refused || !a->events)
		goto nomem;
	for (i = 0; i < nr_units; i++)
		units[i].engine_priv = &a->iocbs[i];
	r = io_setup((int)depth, &a->aio);
	if (r < 0) {
		snprintf(err, errlen, "libaio: the kernel refused io_setup(%u): %s%s", depth,
			 strerror(-r), r == -EAGAIN ? " (raise fs.aio-max-nr or lower iodepth)" : "");
		libaio_free(a);
		return r;
	}
	a->cq = (struct aio_cq_ring *)a->aio;
	if (a->cq->magic != AIO_CQ_RING_MAGIC || a->cq->incompat_features)
		a->cq = NULL;
	*ctx = (struct engine_ctx *)a;
	return 0;
nomem:
	snprintf(err, errlen, "libaio: cannot allocate a context for depth %u", depth);
	if (a)
		libaio_free(a);
	return -ENOMEM;
}

static int sync_fsync(struct io_unit *u)
{
	int r = u->datasync ? fdatasync(u->fd) : fsync(u->fd);

	u->error = r < 0 ? errno : 0;
	u->resid = 0;
	return ENGINE_COMPLETED;
}

static int libaio_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct libaio_ctx *a = to_aio(ctx);
	struct iocb *iocb = u->engine_priv;

	if (a->nr_held + a->nr_kernel + a->nr_refused >= a->depth)
		return ENGINE_BUSY;
	switch (u->ddir) {
	case DDIR_READ:
		io_prep_pread(iocb, u->fd, u->buf, u->len, (long long)u->offset);
		break;
	case DDIR_WRITE:
		io_prep_pwrite(iocb, u->fd, u->buf, u->len, (long long)u->offset);
		break;
	case DDIR_SYNC:
		if (a->sync_fsync)
			return sync_fsync(u);
		if (u->datasync)
			io_prep_fdsync(iocb, u->fd);
		else
			io_prep_fsync(iocb, u->fd);
		break;
	case DDIR_TRIM:
		/* AIO has no discard; fio's libaio does trims synchronously too */
		u->resid = 0;
		u->error = fallocate(u->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				     (off_t)u->offset, (off_t)u->len) < 0 ? errno : 0;
		return ENGINE_COMPLETED;
	default:
		return -EINVAL;
	}
	iocb->data = u;
	a->held[a->nr_held++] = iocb;
	return ENGINE_QUEUED;
}

/* The head of the held list was refused by io_submit() with -err: complete it. */
static void refuse_head(struct libaio_ctx *a, struct iocb *iocb, int err)
{
	struct io_unit *u = iocb->data;
	struct io_event *ev = &a->refused[a->nr_refused++];

	memset(ev, 0, sizeof(*ev));
	ev->data = u;
	ev->obj = iocb;
	if (err == EINVAL && (iocb->aio_lio_opcode == IO_CMD_FSYNC ||
			      iocb->aio_lio_opcode == IO_CMD_FDSYNC)) {
		a->sync_fsync = true;
		sync_fsync(u);
		err = u->error;
	}
	ev->res = err ? (unsigned long)(long)-err : 0;
}

static int libaio_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	struct libaio_ctx *a = to_aio(ctx);
	unsigned done = 0, i;
	unsigned backoff = 0;
	int r = 0;

	while (done < a->nr_held) {
		r = io_submit(a->aio, (long)(a->nr_held - done), a->held + done);
		if (r > 0) {
			done += (unsigned)r;
			a->nr_kernel += (unsigned)r;
			continue;
		}
		if (r == -EINTR)
			continue;
		if (r == -EAGAIN || r == -ENOMEM || r == 0) {
			/*
			 * Short of kernel resources. With I/O in flight the
			 * worker reaps and comes back; with none there is
			 * nothing to wait for, so back off briefly (as fio
			 * does), and give up after about a second.
			 */
			if (done || a->nr_kernel || a->nr_refused)
				break;
			if (++backoff > 1000)
				return r < 0 ? r : -EAGAIN;
			usleep(1000);
			continue;
		}
		/* this one iocb is bad, not the context: complete it with the error */
		refuse_head(a, a->held[done], -r);
		done++;
	}
	if (!done)
		return 0;
	if (clock) {
		uint64_t now = clock();

		for (i = 0; i < done; i++)
			((struct io_unit *)a->held[i]->data)->issue_ns = now;
	}
	a->nr_held -= done;
	if (a->nr_held)
		memmove(a->held, a->held + done, a->nr_held * sizeof(*a->held));
	return (int)done;
}

/*
 * Copies up to max ready completions out of the ring without a syscall. Only
 * this thread consumes the ring (here or in io_getevents), so head is ours;
 * tail is the kernel's: acquire, then the events it covers are written.
 */
static unsigned cq_reap(struct aio_cq_ring *cq, struct io_event *out, unsigned max)
{
	unsigned head = __atomic_load_n(&cq->head, __ATOMIC_RELAXED);
	unsigned tail = __atomic_load_n(&cq->tail, __ATOMIC_ACQUIRE), n = 0;

	while (head != tail && n < max) {
		out[n++] = cq->events[head];
		if (++head >= cq->nr)
			head = 0;
	}
	if (n)
		/* the slots may be refilled once the kernel sees the new head */
		__atomic_store_n(&cq->head, head, __ATOMIC_RELEASE);
	return n;
}

static int libaio_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	static const struct timespec poll_only = { 0, 0 };
	struct libaio_ctx *a = to_aio(ctx);
	unsigned n = 0;

	if (max > a->depth)
		max = a->depth;
	if (min > max)
		min = max;
	if (a->nr_refused) {
		n = a->nr_refused < max ? a->nr_refused : max;
		memcpy(a->events, a->refused, n * sizeof(*a->events));
		a->nr_refused -= n;
		if (a->nr_refused)
			memmove(a->refused, a->refused + n, a->nr_refused * sizeof(*a->refused));
	}
	while (n < max && a->nr_kernel) {
		unsigned want;
		int r;

		if (a->cq) {
			unsigned got = cq_reap(a->cq, a->events + n,
					       max - n < a->nr_kernel ? max - n : a->nr_kernel);

			n += got;
			a->nr_kernel -= got;
			if (n >= min || !a->nr_kernel)
				break;
		}
		want = n < min ? min - n : 0;

		/* never wait for more than is in flight: that would sleep forever */
		if (want > a->nr_kernel)
			want = a->nr_kernel;
		/* with nothing required, a zero timeout lets libaio peek at the ring, no syscall */
		r = io_getevents(a->aio, (long)want, (long)(max - n), a->events + n,
				 want ? NULL : (struct timespec *)&poll_only);
		if (r < 0) {
			if (r == -EINTR)
				continue;
			return r;
		}
		n += (unsigned)r;
		a->nr_kernel -= (unsigned)r;
		if (n >= min)
			break;
	}
	return (int)n;
}

static struct io_unit *libaio_event(struct engine_ctx *ctx, unsigned i)
{
	struct io_event *ev = &to_aio(ctx)->events[i];
	struct io_unit *u = ev->data;
	long res = (long)ev->res;

	if (res < 0) {
		u->error = (int)-res;
		u->resid = u->len;
	} else {
		u->error = 0;
		u->resid = (unsigned long)res < u->len ? u->len - (uint32_t)res : 0;
	}
	return u;
}

static void libaio_cleanup(struct engine_ctx *ctx)
{
	struct libaio_ctx *a = to_aio(ctx);

	if (!a)
		return;
	io_destroy(a->aio);
	libaio_free(a);
}

const struct io_engine_ops engine_libaio_ops = {
	.name = "libaio",
	.flags = ENGINE_F_SETS_ISSUE,
	.init = libaio_init,
	.queue = libaio_queue,
	.commit = libaio_commit,
	.getevents = libaio_getevents,
	.event = libaio_event,
	.cleanup = libaio_cleanup,
};
