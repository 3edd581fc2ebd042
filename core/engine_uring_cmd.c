/*
 * engine_uring_cmd.c - ioengine=io_uring_cmd (cmd_type=nvme): NVMe commands
 * passed through io_uring (IORING_OP_URING_CMD) to an NVMe generic
 * character device, /dev/ngXnY, bypassing the block layer. Reads and writes
 * are NVMe Read/Write, a trim is Dataset Management (deallocate), a sync is
 * Flush. The ring uses 128-byte SQEs and 32-byte CQEs, which these commands
 * need; a CQE's res is 0, an NVMe status (> 0) or -errno.
 *
 * probe() is the gate: a target that does not answer NVME_IOCTL_ID (a SATA
 * or SAS disk, a loop device, a file) is refused at setup by name.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include "engine.h"
#include "grow.h"
#include "job.h"

enum {
	NVME_CMD_FLUSH = 0x00, NVME_CMD_WRITE = 0x01, NVME_CMD_READ = 0x02, NVME_CMD_DSM = 0x09,
	NVME_ADMIN_IDENTIFY = 0x06,
	NVME_DSM_DEALLOCATE = 1u << 2,
};

struct ns_info {
	uint32_t nsid;		/* 0 = not asked yet */
	unsigned lbs;
};

struct ucmd_ctx {
	struct io_uring ring;
	unsigned nr_held, nr_inflight;
	struct io_unit **reaped;
	struct ns_info *ns;	/* per file index */
	size_t nr_ns;
};

/* The namespace id and LBA size of the NVMe namespace behind fd. */
static int ns_identify(int fd, struct ns_info *ns, uint64_t *bytes)
{
	struct nvme_passthru_cmd cmd;
	uint8_t *id;
	int nsid, ret;
	unsigned fmt, ds;

	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0)
		return nsid < 0 ? -errno : -ENXIO;
	if (posix_memalign((void **)&id, 4096, 4096))
		return -ENOMEM;
	memset(id, 0, 4096);
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = NVME_ADMIN_IDENTIFY;
	cmd.nsid = (uint32_t)nsid;
	cmd.addr = (uint64_t)(uintptr_t)id;
	cmd.data_len = 4096;
	cmd.cdw10 = 0;		/* CNS 0: the namespace's identify data */
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);
	if (ret) {
		free(id);
		return ret < 0 ? -errno : -EIO;
	}
	/* NSZE at byte 0; FLBAS at 26 picks one of the LBA formats at 128 (4 bytes each) */
	fmt = id[26] & 0xf;
	ds = id[128 + 4 * fmt + 2];
	if (bytes) {
		uint64_t nsze = 0;

		for (int i = 7; i >= 0; i--)
			nsze = nsze << 8 | id[i];
		*bytes = nsze << ds;
	}
	free(id);
	if (ds < 9 || ds > 16)
		return -EIO;
	ns->nsid = (uint32_t)nsid;
	ns->lbs = 1u << ds;
	return 0;
}

static int ucmd_probe(int fd, const char *path, uint64_t *bytes, unsigned *lbs, char *err,
		      size_t errlen)
{
	struct ns_info ns = { 0 };
	struct stat st;
	int ret;

	if (fstat(fd, &st) == 0 && !S_ISCHR(st.st_mode)) {
		snprintf(err, errlen, "ioengine=io_uring_cmd: %s is not a character device; NVMe "
			 "pass-through needs an NVMe generic device (/dev/ngXnY)", path);
		return -ENOTTY;
	}
	ret = ns_identify(fd, &ns, bytes);
	if (ret == -ENOTTY || ret == -EINVAL || ret == -ENXIO)
		snprintf(err, errlen, "ioengine=io_uring_cmd: %s is not an NVMe namespace "
			 "(NVME_IOCTL_ID: %s); NVMe pass-through needs an NVMe generic device "
			 "(/dev/ngXnY)", path, strerror(-ret));
	else if (ret)
		snprintf(err, errlen, "ioengine=io_uring_cmd: %s: Identify Namespace failed: %s",
			 path, strerror(-ret));
	else
		*lbs = ns.lbs;
	return ret;
}

static int ucmd_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen)
{
	struct ucmd_ctx *c = calloc(1, sizeof(*c));
	int ret;

	if (c)
		c->reaped = calloc(depth ? depth : 1, sizeof(*c->reaped));
	if (!c || !c->reaped) {
		if (c)
			free(c);
		snprintf(err, errlen, "io_uring_cmd: cannot allocate a context");
		return -ENOMEM;
	}
	ret = io_uring_queue_init(depth ? depth : 1, &c->ring,
				  IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
	if (ret < 0) {
		snprintf(err, errlen, "io_uring_cmd: cannot set up a ring with 128-byte SQEs "
			 "(needs Linux 5.19 or later): %s", strerror(-ret));
		free(c->reaped);
		free(c);
		return ret;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int unit_ns(struct ucmd_ctx *c, const struct io_unit *u, struct ns_info **ns)
{
	if (grow_to_index(&c->ns, &c->nr_ns, u->file_idx, sizeof(*c->ns)))
		return -ENOMEM;
	*ns = &c->ns[u->file_idx];
	return (*ns)->nsid ? 0 : ns_identify(u->fd, *ns, NULL);
}

static int ucmd_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct ucmd_ctx *c = (struct ucmd_ctx *)ctx;
	struct nvme_uring_cmd *cmd;
	struct io_uring_sqe *sqe;
	struct ns_info *ns;
	uint64_t slba;
	int ret = unit_ns(c, u, &ns);

	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir != DDIR_SYNC && (u->offset % ns->lbs || u->len % ns->lbs || !u->len))
		return engine_sync_done(u, -EINVAL);
	sqe = io_uring_get_sqe(&c->ring);
	if (!sqe)
		return ENGINE_BUSY;
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = u->fd;
	sqe->cmd_op = NVME_URING_CMD_IO;
	io_uring_sqe_set_data(sqe, u);
	cmd = (struct nvme_uring_cmd *)sqe->cmd;
	cmd->nsid = ns->nsid;
	slba = u->offset / ns->lbs;
	switch (u->ddir) {
	case DDIR_READ:
	case DDIR_WRITE:
		cmd->opcode = u->ddir == DDIR_READ ? NVME_CMD_READ : NVME_CMD_WRITE;
		cmd->addr = (uint64_t)(uintptr_t)u->buf;
		cmd->data_len = u->len;
		cmd->cdw10 = (uint32_t)slba;
		cmd->cdw11 = (uint32_t)(slba >> 32);
		cmd->cdw12 = u->len / ns->lbs - 1;	/* 0's based */
		break;
	case DDIR_TRIM: {
		/* one range: context attributes, length in LBAs, starting LBA */
		uint32_t *range = u->buf;

		range[0] = 0;
		range[1] = u->len / ns->lbs;
		range[2] = (uint32_t)slba;
		range[3] = (uint32_t)(slba >> 32);
		cmd->opcode = NVME_CMD_DSM;
		cmd->addr = (uint64_t)(uintptr_t)u->buf;
		cmd->data_len = 16;
		cmd->cdw10 = 0;		/* number of ranges, 0's based */
		cmd->cdw11 = NVME_DSM_DEALLOCATE;
		break;
	}
	default:
		cmd->opcode = NVME_CMD_FLUSH;
		break;
	}
	c->nr_held++;
	return ENGINE_QUEUED;
}

static int ucmd_commit(struct engine_ctx *ctx, uint64_t (*clock)(void))
{
	struct ucmd_ctx *c = (struct ucmd_ctx *)ctx;
	int n;

	if (!c->nr_held)
		return 0;
	n = io_uring_submit(&c->ring);
	if (n < 0)
		return n;
	c->nr_held -= (unsigned)n;
	c->nr_inflight += (unsigned)n;
	return n;
}

static int ucmd_getevents(struct engine_ctx *ctx, unsigned min, unsigned max)
{
	struct ucmd_ctx *c = (struct ucmd_ctx *)ctx;
	struct io_uring_cqe *cqe;
	unsigned n = 0;
	int ret;

	while (n < max) {
		ret = n < min ? io_uring_wait_cqe(&c->ring, &cqe) : io_uring_peek_cqe(&c->ring, &cqe);
		if (ret == -EAGAIN || (ret == -EINTR && n >= min))
			break;
		if (ret == -EINTR)
			continue;
		if (ret < 0)
			return n ? (int)n : ret;
		{
			struct io_unit *u = io_uring_cqe_get_data(cqe);

			/* res: 0 done, > 0 an NVMe status (the device refused), < 0 -errno */
			u->error = cqe->res < 0 ? -cqe->res : cqe->res > 0 ? EIO : 0;
			u->resid = u->error ? u->len : 0;
			c->reaped[n++] = u;
		}
		io_uring_cqe_seen(&c->ring, cqe);
		c->nr_inflight--;
	}
	return (int)n;
}

static struct io_unit *ucmd_event(struct engine_ctx *ctx, unsigned i)
{
	return ((struct ucmd_ctx *)ctx)->reaped[i];
}

static void ucmd_cleanup(struct engine_ctx *ctx)
{
	struct ucmd_ctx *c = (struct ucmd_ctx *)ctx;

	if (!c)
		return;
	io_uring_queue_exit(&c->ring);
	free(c->reaped);
	free(c->ns);
	free(c);
}

const struct io_engine_ops engine_uring_cmd_ops = {
	.name = "io_uring_cmd",
	.flags = ENGINE_F_CHARDEV,
	.init = ucmd_init,
	.probe = ucmd_probe,
	.queue = ucmd_queue,
	.commit = ucmd_commit,
	.getevents = ucmd_getevents,
	.event = ucmd_event,
	.cleanup = ucmd_cleanup,
};
