/*
 * engine_nbd.c - ioengine=nbd: I/O to a Network Block Device export
 * (nbdkit, qemu-nbd, nbd-server) named by uri=, through libnbd's
 * asynchronous calls: every unit is one NBD command on the wire, up to
 * iodepth of them in flight on the worker's one connection, their replies
 * taken in by libnbd's poll loop.
 *
 * The worker sizes the export with remote_probe() (its own short
 * connection, which also reads the export's two ends for the write guard)
 * before the run; configure() opens the run's connection. Nothing here
 * prints or decides about writing: the guard has said yes before a
 * writer gets here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libnbd.h>

#include "engine.h"
#include "job.h"

/* libnbd refuses larger requests whatever the server says (its own limit) */
#define NBD_REQUEST_MAX (64u << 20)

struct nbd_ctx {
	struct nbd_handle *h;
	unsigned depth;
	unsigned nr_held;	/* queued, not yet sent: held[] */
	unsigned nr_sent;	/* on the wire, reply not yet seen */
	unsigned nr_done;	/* replied: done[], oldest first */
	struct io_unit **held;
	struct io_unit **done;
	struct io_unit **ev;	/* what the last getevents() handed back */
};

static inline struct nbd_ctx *to_nbd(struct engine_ctx *ctx)
{
	return (struct nbd_ctx *)ctx;
}

static const char *const nbd_schemes[] = {
	"nbd://", "nbds://", "nbd+unix://", "nbds+unix://", "nbd+vsock://", "nbds+vsock://",
};

static int nbd_check_job(const struct job_spec *job, char *why, size_t whylen)
{
	const char *uri = job->remote_uri;
	size_t i;

	if (!uri || !*uri) {
		snprintf(why, whylen, "ioengine=nbd needs option 'uri' (the export, e.g. "
			 "uri=nbd+unix:///?socket=/run/nbd.sock or uri=nbd://host:10809/name)");
		return -EINVAL;
	}
	for (i = 0; i < sizeof(nbd_schemes) / sizeof(nbd_schemes[0]); i++)
		if (!strncmp(uri, nbd_schemes[i], strlen(nbd_schemes[i])))
			break;
	if (i == sizeof(nbd_schemes) / sizeof(nbd_schemes[0])) {
		snprintf(why, whylen, "option 'uri': '%s' is not an NBD URI (it starts with "
			 "nbd://, nbds://, nbd+unix://, nbds+unix://, nbd+vsock:// or "
			 "nbds+vsock://)", uri);
		return -EINVAL;
	}
	if (job->nr_filenames) {
		snprintf(why, whylen, "option 'filename': ioengine=nbd reaches its export "
			 "through uri= alone; filename= names nothing here");
		return -EINVAL;
	}
	if (job->nrfiles > 1) {
		snprintf(why, whylen, "option 'nrfiles': ioengine=nbd has one target, the "
			 "export named by uri=");
		return -EINVAL;
	}
	return 0;
}

/* Why a connection to uri failed, in words a user can act on. */
static void connect_error(const char *uri, char *err, size_t errlen)
{
	const char *e = nbd_get_error();
	const char *sock = strstr(uri, "socket=");

	if (sock && (sock[7] == '\0' || sock[7] == '&'))
		snprintf(err, errlen, "uri=%s: the socket= path is empty (an unset ${VARIABLE} "
			 "in the job file expands to nothing)", uri);
	else
		snprintf(err, errlen, "uri=%s: cannot connect to the NBD server: %s", uri,
			 e ? e : "unknown error");
}

/* A connected handle to uri, or NULL with err filled. */
static struct nbd_handle *nbd_open_uri(const char *uri, char *err, size_t errlen)
{
	struct nbd_handle *h = nbd_create();

	if (!h) {
		snprintf(err, errlen, "uri=%s: libnbd cannot create a handle: %s", uri,
			 nbd_get_error());
		return NULL;
	}
	if (!nbd_supports_uri(h)) {
		snprintf(err, errlen, "uri=%s: this libnbd was built without URI support", uri);
		nbd_close(h);
		return NULL;
	}
	if (nbd_connect_uri(h, uri) < 0) {
		connect_error(uri, err, errlen);
		nbd_close(h);
		return NULL;
	}
	return h;
}

static uint64_t job_max_bs(const struct job_spec *job)
{
	uint64_t m = 0;
	unsigned d, k;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		m = job->bs_max[d] > m ? job->bs_max[d] : m;
		m = job->bs[d] > m ? job->bs[d] : m;
		for (k = 0; k < job->nr_bssplit[d]; k++)
			m = job->bssplit[d][k].bs > m ? job->bssplit[d][k].bs : m;
	}
	return m;
}

/* What the export must allow for this job: writes, trims, the request size. */
static int check_export(struct nbd_handle *h, const struct job_spec *job, const char *uri,
			char *err, size_t errlen)
{
	int64_t max = nbd_get_block_size(h, LIBNBD_SIZE_MAXIMUM);

	if (max <= 0 || max > NBD_REQUEST_MAX)
		max = NBD_REQUEST_MAX;
	if ((job->rw & (RW_WRITE | RW_TRIM)) && !job->verify_only && nbd_is_read_only(h) == 1) {
		snprintf(err, errlen, "uri=%s: the export is read-only (the server said so); this "
			 "job writes", uri);
		return -EROFS;
	}
	if ((job->fsync_blocks || job->fdatasync_blocks || job->end_fsync) &&
	    nbd_can_flush(h) != 1) {
		snprintf(err, errlen, "uri=%s: the export does not support flush; this job asks "
			 "for fsync", uri);
		return -EOPNOTSUPP;
	}
	if ((job->rw & RW_TRIM) && nbd_can_trim(h) != 1) {
		snprintf(err, errlen, "uri=%s: the export does not support trim; this job trims",
			 uri);
		return -EOPNOTSUPP;
	}
	if (job_max_bs(job) > (uint64_t)max) {
		snprintf(err, errlen, "uri=%s: block size %llu is larger than the largest NBD "
			 "request the export takes (%lld bytes)", uri,
			 (unsigned long long)job_max_bs(job), (long long)max);
		return -EINVAL;
	}
	return 0;
}

static int read_at(struct nbd_handle *h, void *buf, size_t len, uint64_t off, const char *uri,
		   char *err, size_t errlen)
{
	const size_t chunk = 1u << 20;
	size_t done;

	for (done = 0; done < len; done += chunk) {
		size_t n = len - done < chunk ? len - done : chunk;

		if (nbd_pread(h, (char *)buf + done, n, off + done, 0) < 0) {
			int e = nbd_get_errno();

			snprintf(err, errlen, "uri=%s: reading %zu bytes at offset %llu failed: %s",
				 uri, n, (unsigned long long)(off + done), nbd_get_error());
			return e ? -e : -EIO;
		}
	}
	return 0;
}

static int nbd_remote_probe(const struct job_spec *job, const char *target, uint64_t *bytes,
			    unsigned *lbs, void *head, void *tail, size_t edge, char *err,
			    size_t errlen)
{
	struct nbd_handle *h = nbd_open_uri(target, err, errlen);
	int64_t size, min;
	int ret;

	if (!h)
		return -ECONNREFUSED;
	size = nbd_get_size(h);
	if (size < 0) {
		snprintf(err, errlen, "uri=%s: the server does not give the export's size: %s",
			 target, nbd_get_error());
		nbd_close(h);
		return -EIO;
	}
	min = nbd_get_block_size(h, LIBNBD_SIZE_MINIMUM);
	ret = check_export(h, job, target, err, errlen);
	if (!ret && head) {
		/* the guard looks at both ends, as on a disk */
		size_t n = (uint64_t)size < edge ? (size_t)size : edge;

		ret = read_at(h, head, n, 0, target, err, errlen);
		if (!ret && (uint64_t)size > edge)
			ret = read_at(h, tail, edge, (uint64_t)size - edge, target, err, errlen);
	}
	nbd_shutdown(h, 0);
	nbd_close(h);
	if (ret)
		return ret;
	*bytes = (uint64_t)size;
	*lbs = min > 0 ? (unsigned)min : 1;
	return 0;
}

static int nbd_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		    unsigned nr_units, char *err, size_t errlen)
{
	struct nbd_ctx *n;

	if (!depth)
		depth = 1;
	n = calloc(1, sizeof(*n));
	if (n) {
		n->held = calloc(depth, sizeof(*n->held));
		n->done = calloc(depth, sizeof(*n->done));
		n->ev = calloc(depth, sizeof(*n->ev));
	}
	if (!n || !n->held || !n->done || !n->ev) {
		if (n) {
			free(n->held);
			free(n->done);
			free(n->ev);
		}
		free(n);
		snprintf(err, errlen, "nbd: cannot allocate a context for depth %u", depth);
		return -ENOMEM;
	}
	n->depth = depth;
	*ctx = (struct engine_ctx *)n;
	return 0;
}

static int nbd_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			 size_t errlen)
{
	struct nbd_ctx *n = to_nbd(ctx);

	n->h = nbd_open_uri(job->remote_uri, err, errlen);
	return n->h ? 0 : -ECONNREFUSED;
}

static int nbd_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct nbd_ctx *n = to_nbd(ctx);

	if (n->nr_held + n->nr_sent + n->nr_done >= n->depth)
		return ENGINE_BUSY;
	u->error = 0;
	u->resid = 0;
	n->held[n->nr_held++] = u;
	return ENGINE_QUEUED;
}

static void finish(struct nbd_ctx *n, struct io_unit *u, int error)
{
	u->error = error;
	u->resid = error ? u->len : 0;
	n->done[n->nr_done++] = u;
}

/* libnbd calls this from nbd_poll() when the reply to u's command is in. */
static int on_reply(void *user_data, int *error)
{
	struct io_unit *u = user_data;
	struct nbd_ctx *n = u->engine_priv;

	n->nr_sent--;
	finish(n, u, *error);
	return 1;	/* retires the command: nothing to collect later */
}

static int nbd_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	struct nbd_ctx *n = to_nbd(ctx);
	unsigned i, nr = n->nr_held;
	uint64_t now = 0;

	if (!nr)
		return 0;
	if (clock)
		now = clock();
	for (i = 0; i < nr; i++) {
		struct io_unit *u = n->held[i];
		nbd_completion_callback cb = { .callback = on_reply, .user_data = u };
		int64_t r;

		u->engine_priv = n;
		u->issue_ns = now ? now : u->issue_ns;
		switch (u->ddir) {
		case DDIR_READ:
			r = nbd_aio_pread(n->h, u->buf, u->len, u->offset, cb, 0);
			break;
		case DDIR_WRITE:
			r = nbd_aio_pwrite(n->h, u->buf, u->len, u->offset, cb, 0);
			break;
		case DDIR_TRIM:
			r = nbd_aio_trim(n->h, u->len, u->offset, cb, 0);
			break;
		case DDIR_SYNC:
			r = nbd_aio_flush(n->h, cb, 0);
			break;
		default:
			finish(n, u, EINVAL);
			continue;
		}
		if (r < 0) {
			/* refused before it reached the wire: the unit fails, the run goes on */
			int e = nbd_get_errno();

			finish(n, u, e ? e : EIO);
			continue;
		}
		n->nr_sent++;
	}
	n->nr_held = 0;
	return (int)nr;
}

static int nbd_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct nbd_ctx *n = to_nbd(ctx);
	unsigned nr;

	if (max > n->depth)
		max = n->depth;
	if (min > max)
		min = max;
	/* with nothing required, one look without waiting takes in what has arrived */
	if (!min && n->nr_sent && nbd_poll(n->h, 0) < 0)
		return nbd_get_errno() ? -nbd_get_errno() : -EIO;
	while (n->nr_done < min && n->nr_sent) {
		if (nbd_poll(n->h, -1) < 0) {
			int e = nbd_get_errno();

			/* the connection is gone: nothing more will come back on it */
			n->nr_sent = 0;
			return e ? -e : -EIO;
		}
	}
	nr = n->nr_done < max ? n->nr_done : max;
	memcpy(n->ev, n->done, nr * sizeof(*n->ev));
	n->nr_done -= nr;
	memmove(n->done, n->done + nr, n->nr_done * sizeof(*n->done));
	return (int)nr;
}

static struct io_unit *nbd_event(struct engine_ctx *ctx, unsigned i)
{
	return to_nbd(ctx)->ev[i];
}

static void nbd_cleanup(struct engine_ctx *ctx)
{
	struct nbd_ctx *n = to_nbd(ctx);

	if (n->h) {
		/* replies still owed are dropped with the handle: their units are the worker's */
		if (!n->nr_sent)
			nbd_shutdown(n->h, 0);
		nbd_close(n->h);
	}
	free(n->held);
	free(n->done);
	free(n->ev);
	free(n);
}

const struct io_engine_ops engine_nbd_ops = {
	.name = "nbd",
	.flags = ENGINE_F_REMOTE | ENGINE_F_SETS_ISSUE,
	.init = nbd_init,
	.configure = nbd_configure,
	.queue = nbd_queue,
	.commit = nbd_commit,
	.getevents = nbd_getevents,
	.event = nbd_event,
	.cleanup = nbd_cleanup,
	.check_job = nbd_check_job,
	.remote_probe = nbd_remote_probe,
};
