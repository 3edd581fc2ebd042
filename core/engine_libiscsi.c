/*
 * engine_libiscsi.c - ioengine=libiscsi: I/O to iSCSI LUNs named by
 * filename=iscsi://host[:port]/target-iqn/lun, through libiscsi's user-space
 * initiator: no kernel session, no /dev node. Each file is one LUN on its own
 * connection; every unit is one asynchronous SCSI command (READ(16),
 * WRITE(16), UNMAP, SYNCHRONIZE CACHE(16)), up to iodepth in flight, their
 * replies taken in by iscsi_service() on a poll() of all connections.
 *
 * remote_probe() sizes a LUN (READ CAPACITY(16)) on a short connection of
 * its own and reads its two ends for the write guard; configure() logs in
 * for the run. Nothing here prints or decides about writing.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

#include "engine.h"
#include "job.h"

/* fio's default initiator name: a target's ACL written for fio admits raidbench too */
#define DEFAULT_INITIATOR "iqn.2019-04.org.fio:fio"

struct lun {
	struct iscsi_context *iscsi;
	struct iscsi_url *url;
	uint32_t block;		/* logical block size */
	uint64_t blocks;
};

/* What a unit's command needs until its reply: the buffer as SCSI sees it. */
struct unit_cmd {
	struct scsi_iovec iov;
	struct unmap_list unmap;
	struct engine_ctx *owner;
	struct io_unit *u;
};

struct iscsi_ctx {
	unsigned depth;
	unsigned nr_held, nr_sent, nr_done;
	struct io_unit **held, **done, **ev;
	struct unit_cmd *cmds;	/* one per unit, by io_unit.idx */
	struct lun *luns;
	struct pollfd *pfds;
	unsigned nr_luns;
};

static inline struct iscsi_ctx *to_iscsi(struct engine_ctx *ctx)
{
	return (struct iscsi_ctx *)ctx;
}

static int libiscsi_check_job(const struct job_spec *job, char *why, size_t whylen)
{
	unsigned i;

	if (!job->nr_filenames) {
		snprintf(why, whylen, "ioengine=libiscsi needs option 'filename' naming the LUN: "
			 "filename=iscsi\\://host[\\:port]/target-iqn/lun (a ':' inside a "
			 "filename is written '\\:')");
		return -EINVAL;
	}
	for (i = 0; i < job->nr_filenames; i++) {
		struct iscsi_url *url = iscsi_parse_full_url(NULL, job->filenames[i]);

		if (!url) {
			snprintf(why, whylen, "option 'filename': '%s' is not an iSCSI URL "
				 "(iscsi://[user[%%password]@]host[:port]/target-iqn/lun)",
				 job->filenames[i]);
			return -EINVAL;
		}
		iscsi_destroy_url(url);
	}
	if (job->remote_uri) {
		snprintf(why, whylen, "option 'uri' belongs to ioengine=nbd; ioengine=libiscsi "
			 "takes its LUNs from filename=");
		return -EINVAL;
	}
	return 0;
}

/*
 * libiscsi words a refused connection as a failed reconnect; a plain TCP
 * connect to the portal ("host:port", "[v6]:port", port 3260 by default)
 * says what is really wrong. 0 when something listens there, else -errno.
 */
static int portal_reachable(const char *portal, char *why, size_t whylen)
{
	char host[256], *port = NULL, *end;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int fd, e = ECONNREFUSED, r;

	snprintf(host, sizeof(host), "%s", portal);
	if (host[0] == '[' && (end = strchr(host, ']'))) {
		*end = '\0';
		port = end[1] == ':' ? end + 2 : NULL;
		memmove(host, host + 1, strlen(host + 1) + 1);
	} else if ((end = strrchr(host, ':'))) {
		*end = '\0';
		port = end + 1;
	}
	r = getaddrinfo(host, port && *port ? port : "3260", &hints, &res);
	if (r) {
		snprintf(why, whylen, "cannot resolve %s: %s", host, gai_strerror(r));
		return -EHOSTUNREACH;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0)
			continue;
		r = connect(fd, ai->ai_addr, ai->ai_addrlen);
		e = r ? errno : 0;
		close(fd);
		if (!r)
			break;
	}
	freeaddrinfo(res);
	if (e)
		snprintf(why, whylen, "no iSCSI target answers at %s: %s", portal, strerror(e));
	return -e;
}

/* libiscsi's last error as one line. */
static const char *last_error(struct iscsi_context *iscsi, char *buf, size_t len)
{
	const char *e = iscsi_get_error(iscsi);

	snprintf(buf, len, "%s", e && *e ? e : "unknown error");
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void lun_release(struct lun *l)
{
	if (l->iscsi) {
		if (iscsi_is_logged_in(l->iscsi))
			iscsi_logout_sync(l->iscsi);
		iscsi_destroy_context(l->iscsi);
	}
	if (l->url)
		iscsi_destroy_url(l->url);
	memset(l, 0, sizeof(*l));
}

/* Logs in to the LUN named by target and reads its capacity; 0 or -errno with err. */
static int lun_open(struct lun *l, const struct job_spec *job, const char *target, char *err,
		    size_t errlen)
{
	const char *initiator = job->iscsi_initiator ? job->iscsi_initiator : DEFAULT_INITIATOR;
	struct scsi_readcapacity16 *rc;
	struct scsi_task *task;
	char msg[256];

	memset(l, 0, sizeof(*l));
	l->iscsi = iscsi_create_context(initiator);
	if (!l->iscsi) {
		snprintf(err, errlen, "%s: cannot create an iSCSI context for initiator %s",
			 target, initiator);
		return -ENOMEM;
	}
	l->url = iscsi_parse_full_url(l->iscsi, target);
	if (!l->url) {
		snprintf(err, errlen, "%s: not an iSCSI URL: %s", target,
			 last_error(l->iscsi, msg, sizeof(msg)));
		lun_release(l);
		return -EINVAL;
	}
	if (iscsi_set_targetname(l->iscsi, l->url->target) ||
	    iscsi_set_session_type(l->iscsi, ISCSI_SESSION_NORMAL) ||
	    iscsi_set_header_digest(l->iscsi, ISCSI_HEADER_DIGEST_NONE_CRC32C)) {
		snprintf(err, errlen, "%s: cannot set up the session: %s", target,
			 last_error(l->iscsi, msg, sizeof(msg)));
		lun_release(l);
		return -EINVAL;
	}
	if (iscsi_full_connect_sync(l->iscsi, l->url->portal, l->url->lun)) {
		char why[384];
		int e = portal_reachable(l->url->portal, why, sizeof(why));

		if (e)
			snprintf(err, errlen, "%s: %s", target, why);
		else
			snprintf(err, errlen, "%s: cannot log in to target %s LUN %d at %s: %s",
				 target, l->url->target, l->url->lun, l->url->portal,
				 last_error(l->iscsi, msg, sizeof(msg)));
		lun_release(l);
		return e ? e : -ECONNREFUSED;
	}
	/* a lost connection fails the run's I/O with a message; retrying forever would hang it */
	iscsi_set_noautoreconnect(l->iscsi, 1);
	task = iscsi_readcapacity16_sync(l->iscsi, l->url->lun);
	rc = task && task->status == SCSI_STATUS_GOOD ? scsi_datain_unmarshall(task) : NULL;
	if (!rc || !rc->block_length) {
		snprintf(err, errlen, "%s: READ CAPACITY(16) failed: %s", target,
			 last_error(l->iscsi, msg, sizeof(msg)));
		if (task)
			scsi_free_scsi_task(task);
		lun_release(l);
		return -EIO;
	}
	l->block = rc->block_length;
	l->blocks = rc->returned_lba + 1;
	if ((job->rw & RW_TRIM) && !rc->lbpme) {
		snprintf(err, errlen, "%s: the LUN is not thin-provisioned (no UNMAP); this job "
			 "trims", target);
		scsi_free_scsi_task(task);
		lun_release(l);
		return -EOPNOTSUPP;
	}
	scsi_free_scsi_task(task);
	return 0;
}

static int read_blocks(struct lun *l, void *buf, size_t len, uint64_t off, const char *target,
		       char *err, size_t errlen)
{
	struct scsi_task *task = iscsi_read16_sync(l->iscsi, l->url->lun, off / l->block,
						   (uint32_t)len, (int)l->block, 0, 0, 0, 0, 0);
	char msg[256];

	if (!task || task->status != SCSI_STATUS_GOOD || task->datain.size < (int)len) {
		snprintf(err, errlen, "%s: reading %zu bytes at offset %llu failed: %s", target,
			 len, (unsigned long long)off, last_error(l->iscsi, msg, sizeof(msg)));
		if (task)
			scsi_free_scsi_task(task);
		return -EIO;
	}
	memcpy(buf, task->datain.data, len);
	scsi_free_scsi_task(task);
	return 0;
}

static int libiscsi_remote_probe(const struct job_spec *job, const char *target,
				 uint64_t *bytes, unsigned *lbs, void *head, void *tail,
				 size_t edge, char *err, size_t errlen)
{
	struct lun l;
	uint64_t size;
	int ret = lun_open(&l, job, target, err, errlen);

	if (ret)
		return ret;
	size = l.blocks * l.block;
	if (head) {
		/* the guard looks at both ends, as on a disk (edge is a whole number of blocks) */
		size_t n = size < edge ? (size_t)size : edge;

		ret = read_blocks(&l, head, n, 0, target, err, errlen);
		if (!ret && size > edge)
			ret = read_blocks(&l, tail, edge, size - edge, target, err, errlen);
	}
	lun_release(&l);
	if (ret)
		return ret;
	*bytes = size;
	*lbs = l.block ? l.block : 512;
	return 0;
}

static int libiscsi_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			 unsigned nr_units, char *err, size_t errlen)
{
	struct iscsi_ctx *c = calloc(1, sizeof(*c));

	if (!depth)
		depth = 1;
	if (c) {
		c->held = calloc(depth, sizeof(*c->held));
		c->done = calloc(depth, sizeof(*c->done));
		c->ev = calloc(depth, sizeof(*c->ev));
		c->cmds = calloc(nr_units, sizeof(*c->cmds));
	}
	if (!c || !c->held || !c->done || !c->ev || !c->cmds) {
		if (c) {
			free(c->held);
			free(c->done);
			free(c->ev);
			free(c->cmds);
		}
		free(c);
		snprintf(err, errlen, "libiscsi: cannot allocate a context for depth %u", depth);
		return -ENOMEM;
	}
	c->depth = depth;
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int libiscsi_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			      size_t errlen)
{
	struct iscsi_ctx *c = to_iscsi(ctx);
	unsigned i;
	int ret;

	c->luns = calloc(job->nr_filenames, sizeof(*c->luns));
	c->pfds = calloc(job->nr_filenames, sizeof(*c->pfds));
	if (!c->luns || !c->pfds)
		return -ENOMEM;
	for (i = 0; i < job->nr_filenames; i++) {
		ret = lun_open(&c->luns[i], job, job->filenames[i], err, errlen);
		if (ret)
			return ret;
		c->nr_luns = i + 1;
		c->pfds[i].fd = iscsi_get_fd(c->luns[i].iscsi);
	}
	return 0;
}

static int libiscsi_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct iscsi_ctx *c = to_iscsi(ctx);

	if (c->nr_held + c->nr_sent + c->nr_done >= c->depth)
		return ENGINE_BUSY;
	u->error = 0;
	u->resid = 0;
	c->held[c->nr_held++] = u;
	return ENGINE_QUEUED;
}

static void finish(struct iscsi_ctx *c, struct io_unit *u, int error, uint32_t resid)
{
	u->error = error;
	u->resid = error ? u->len : resid;
	c->done[c->nr_done++] = u;
}

/* libiscsi calls this from iscsi_service() when u's command has its status. */
static void on_status(struct iscsi_context *iscsi, int status, void *command_data,
		      void *private_data)
{
	struct unit_cmd *cmd = private_data;
	struct iscsi_ctx *c = to_iscsi(cmd->owner);
	struct scsi_task *task = command_data;
	uint32_t resid = 0;
	int error = 0;

	if (status == SCSI_STATUS_CANCELLED)
		error = ECANCELED;
	else if (status != SCSI_STATUS_GOOD)
		error = EIO;
	else if (task && task->residual_status == SCSI_RESIDUAL_UNDERFLOW)
		resid = task->residual < cmd->u->len ? task->residual : cmd->u->len;
	if (task)
		scsi_free_scsi_task(task);
	c->nr_sent--;
	finish(c, cmd->u, error, resid);
}

static int libiscsi_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	struct iscsi_ctx *c = to_iscsi(ctx);
	unsigned i, k, nr = c->nr_held;
	uint64_t now = clock ? clock() : 0;

	if (!nr)
		return 0;
	for (i = 0; i < nr; i++) {
		struct io_unit *u = c->held[i];
		struct unit_cmd *cmd = &c->cmds[u->idx];
		struct lun *l = &c->luns[u->file_idx < c->nr_luns ? u->file_idx : 0];
		struct scsi_task *task = NULL;
		int lun = l->url->lun;

		if (now)
			u->issue_ns = now;
		cmd->owner = ctx;
		cmd->u = u;
		cmd->iov.iov_base = u->buf;
		cmd->iov.iov_len = u->len;
		if (u->ddir != DDIR_SYNC && (u->offset % l->block || u->len % l->block)) {
			finish(c, u, EINVAL, 0);
			continue;
		}
		switch (u->ddir) {
		case DDIR_READ:
			task = iscsi_read16_iov_task(l->iscsi, lun, u->offset / l->block, u->len,
						     (int)l->block, 0, 0, 0, 0, 0, on_status, cmd,
						     &cmd->iov, 1);
			break;
		case DDIR_WRITE:
			task = iscsi_write16_iov_task(l->iscsi, lun, u->offset / l->block, NULL,
						      u->len, (int)l->block, 0, 0, 0, 0, 0,
						      on_status, cmd, &cmd->iov, 1);
			break;
		case DDIR_TRIM:
			cmd->unmap.lba = u->offset / l->block;
			cmd->unmap.num = u->len / l->block;
			task = iscsi_unmap_task(l->iscsi, lun, 0, 0, &cmd->unmap, 1, on_status, cmd);
			break;
		case DDIR_SYNC:
			task = iscsi_synchronizecache16_task(l->iscsi, lun, 0, 0, 0, 0, on_status,
							     cmd);
			break;
		default:
			break;
		}
		if (!task) {
			/* refused before it was queued: the unit fails, the run goes on */
			finish(c, u, u->ddir > DDIR_SYNC ? EINVAL : EIO, 0);
			continue;
		}
		c->nr_sent++;
	}
	c->nr_held = 0;
	/* start sending now rather than at the next reap */
	for (k = 0; k < c->nr_luns; k++)
		if (iscsi_which_events(c->luns[k].iscsi) & POLLOUT)
			iscsi_service(c->luns[k].iscsi, POLLOUT);
	return (int)nr;
}

/* One poll() of every connection, timeout ms; 0 or -errno. */
static int service(struct iscsi_ctx *c, int timeout)
{
	unsigned i;
	int r;

	for (i = 0; i < c->nr_luns; i++) {
		c->pfds[i].events = (short)iscsi_which_events(c->luns[i].iscsi);
		c->pfds[i].revents = 0;
		/* nothing to wait for on it now: libiscsi asks to be called again in 100 ms */
		if (!c->pfds[i].events && timeout < 0)
			timeout = 100;
	}
	r = poll(c->pfds, c->nr_luns, timeout);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < c->nr_luns; i++) {
		short ev = c->pfds[i].revents;

		if (ev && iscsi_service(c->luns[i].iscsi, ev) < 0)
			return -ECONNRESET;	/* the connection is gone */
		if (ev & (POLLERR | POLLHUP))
			return -ECONNRESET;
	}
	return 0;
}

static int libiscsi_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct iscsi_ctx *c = to_iscsi(ctx);
	unsigned nr;
	int r;

	if (max > c->depth)
		max = c->depth;
	if (min > max)
		min = max;
	if (!min && c->nr_sent && (r = service(c, 0)) < 0)
		return r;
	while (c->nr_done < min && c->nr_sent)
		if ((r = service(c, -1)) < 0)
			return r;
	nr = c->nr_done < max ? c->nr_done : max;
	memcpy(c->ev, c->done, nr * sizeof(*c->ev));
	c->nr_done -= nr;
	memmove(c->done, c->done + nr, c->nr_done * sizeof(*c->done));
	return (int)nr;
}

static struct io_unit *libiscsi_event(struct engine_ctx *ctx, unsigned i)
{
	return to_iscsi(ctx)->ev[i];
}

static void libiscsi_cleanup(struct engine_ctx *ctx)
{
	struct iscsi_ctx *c = to_iscsi(ctx);
	unsigned i;

	for (i = 0; i < c->nr_luns; i++)
		lun_release(&c->luns[i]);
	free(c->luns);
	free(c->pfds);
	free(c->held);
	free(c->done);
	free(c->ev);
	free(c->cmds);
	free(c);
}

const struct io_engine_ops engine_libiscsi_ops = {
	.name = "libiscsi",
	.flags = ENGINE_F_REMOTE | ENGINE_F_SETS_ISSUE,
	.init = libiscsi_init,
	.configure = libiscsi_configure,
	.queue = libiscsi_queue,
	.commit = libiscsi_commit,
	.getevents = libiscsi_getevents,
	.event = libiscsi_event,
	.cleanup = libiscsi_cleanup,
	.check_job = libiscsi_check_job,
	.remote_probe = libiscsi_remote_probe,
};
