/*
 * engine_sg.c - ioengine=sg: SCSI commands through the SG_IO ioctl, to a
 * SCSI generic node (/dev/sgN: disks behind RAID HBAs and SAS expanders) or
 * a SCSI disk's block node. Reads and writes are READ(16)/WRITE(16); a trim
 * is UNMAP; a sync is SYNCHRONIZE CACHE(16); sg_write_mode= turns writes
 * into WRITE AND VERIFY(16), WRITE SAME(16) (with or without a data block)
 * or VERIFY(16) with BYTCHK 00/01/11, as fio's sg engine does. readfua= and
 * writefua= set FUA. Each command completes in queue() (SG_IO waits).
 *
 * probe() is the gate: a target that does not answer SG_IO (a loop device,
 * a file, an NVMe disk) is refused at setup by name, before any I/O.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <scsi/sg.h>
#include "engine.h"
#include "grow.h"
#include "job.h"

#define SG_TIMEOUT_MS 60000
#define SENSE_LEN 32

struct sg_ctx {
	enum sg_write_mode mode;
	bool readfua, writefua;
	unsigned *lbs;		/* per file index, 0 = not asked yet */
	size_t nr_lbs;
};

static void put_be(uint8_t *p, uint64_t v, int n)
{
	while (n--) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/* One command; 0, or -errno with a SCSI failure turned into the nearest errno. */
static int sg_cmd(int fd, const uint8_t *cdb, unsigned cdb_len, int dir, void *buf,
		  unsigned len, unsigned *resid)
{
	uint8_t sense[SENSE_LEN] = { 0 };
	struct sg_io_hdr h;
	unsigned key;

	memset(&h, 0, sizeof(h));
	h.interface_id = 'S';
	h.dxfer_direction = len ? dir : SG_DXFER_NONE;
	h.cmd_len = (unsigned char)cdb_len;
	h.mx_sb_len = sizeof(sense);
	h.dxfer_len = len;
	h.dxferp = buf;
	h.cmdp = (unsigned char *)cdb;
	h.sbp = sense;
	h.timeout = SG_TIMEOUT_MS;
	if (ioctl(fd, SG_IO, &h) < 0)
		return -errno;
	if (resid)
		*resid = h.resid > 0 ? (unsigned)h.resid : 0;
	if (!h.status && !h.host_status && !h.driver_status)
		return 0;
	/* fixed (0x70/0x71) or descriptor (0x72/0x73) sense: where the key is */
	key = (sense[0] & 0x7f) >= 0x72 ? sense[1] & 0xf : sense[2] & 0xf;
	switch (key) {
	case 0x5:	/* ILLEGAL REQUEST: the device does not take this command */
		return -EOPNOTSUPP;
	case 0x7:	/* DATA PROTECT */
		return -EROFS;
	case 0xe:	/* MISCOMPARE: a verify found other data */
		return -EILSEQ;
	case 0x2:	/* NOT READY */
		return -EBUSY;
	default:
		return -EIO;
	}
}

/* READ CAPACITY(16): the capacity and logical block size of the device behind fd. */
static int read_capacity(int fd, uint64_t *bytes, unsigned *lbs)
{
	uint8_t cdb[16] = { 0x9e, 0x10 }, data[32] = { 0 };
	int ret;

	put_be(cdb + 10, sizeof(data), 4);
	ret = sg_cmd(fd, cdb, sizeof(cdb), SG_DXFER_FROM_DEV, data, sizeof(data), NULL);
	if (ret)
		return ret;
	*lbs = (unsigned)get_be(data + 8, 4);
	if (!*lbs || *lbs > 65536)
		return -EIO;
	*bytes = (get_be(data, 8) + 1) * *lbs;
	return 0;
}

static int sg_probe(int fd, const char *path, uint64_t *bytes, unsigned *lbs, char *err,
		    size_t errlen)
{
	int version = 0, ret;

	/* an sg node answers SG_GET_VERSION_NUM; a SCSI disk's block node answers SG_IO */
	if (ioctl(fd, SG_GET_VERSION_NUM, &version) < 0 && errno != EINVAL) {
		snprintf(err, errlen, "ioengine=sg: %s does not take SCSI commands (SG_IO: %s); "
			 "sg needs a SCSI generic node (/dev/sgN) or a SCSI disk (/dev/sdX)", path,
			 strerror(errno));
		return -ENOTTY;
	}
	ret = read_capacity(fd, bytes, lbs);
	if (ret == -ENOTTY || ret == -EINVAL)
		snprintf(err, errlen, "ioengine=sg: %s does not take SCSI commands (SG_IO: %s); "
			 "sg needs a SCSI generic node (/dev/sgN) or a SCSI disk (/dev/sdX)", path,
			 strerror(-ret));
	else if (ret)
		snprintf(err, errlen, "ioengine=sg: %s: READ CAPACITY(16) failed: %s", path,
			 strerror(-ret));
	return ret;
}

static int sg_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		   unsigned nr_units, char *err, size_t errlen)
{
	struct sg_ctx *c;

	c = calloc(1, sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "sg: cannot allocate a context");
		return -ENOMEM;
	}
	*ctx = (struct engine_ctx *)c;
	return 0;
}

static int sg_configure(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			size_t errlen)
{
	struct sg_ctx *c = (struct sg_ctx *)ctx;

	c->mode = job->sg_write_mode;
	c->readfua = job->sg_readfua;
	c->writefua = job->sg_writefua;
	return 0;
}

/* The logical block size of u's device, asked once per file. */
static int unit_lbs(struct sg_ctx *c, const struct io_unit *u, unsigned *lbs)
{
	uint64_t bytes;
	int ret;

	if (grow_to_index(&c->lbs, &c->nr_lbs, u->file_idx, sizeof(*c->lbs)))
		return -ENOMEM;
	if (!c->lbs[u->file_idx]) {
		ret = read_capacity(u->fd, &bytes, &c->lbs[u->file_idx]);
		if (ret)
			return ret;
	}
	*lbs = c->lbs[u->file_idx];
	return 0;
}

static int sg_queue(struct engine_ctx *ctx, struct io_unit *u)
{
	struct sg_ctx *c = (struct sg_ctx *)ctx;
	uint8_t cdb[16] = { 0 }, unmap[24] = { 0 };
	unsigned lbs, resid = 0, len = u->len;
	int dir = SG_DXFER_TO_DEV, ret;
	void *buf = u->buf;

	ret = unit_lbs(c, u, &lbs);
	if (ret)
		return engine_sync_done(u, ret);
	if (u->ddir != DDIR_SYNC && (u->offset % lbs || u->len % lbs))
		return engine_sync_done(u, -EINVAL);
	put_be(cdb + 2, u->offset / lbs, 8);
	put_be(cdb + 10, u->len / lbs, 4);
	switch (u->ddir) {
	case DDIR_READ:
		cdb[0] = 0x88;
		cdb[1] = c->readfua ? 0x08 : 0;
		dir = SG_DXFER_FROM_DEV;
		break;
	case DDIR_WRITE:
		cdb[1] = c->writefua ? 0x08 : 0;
		switch (c->mode) {
		case SG_WRITE_VERIFY:
			cdb[0] = 0x8e;
			cdb[1] = 0;	/* WRITE AND VERIFY has no FUA: it reaches the medium */
			break;
		case SG_WRITE_SAME:
		case SG_WRITE_SAME_NDOB:
			/* one block of data (or none: NDOB writes zeroes) repeated over the range */
			cdb[0] = 0x93;
			cdb[1] = c->mode == SG_WRITE_SAME_NDOB ? 0x01 : 0;
			len = c->mode == SG_WRITE_SAME_NDOB ? 0 : lbs;
			break;
		case SG_VERIFY_BYTCHK_00:
		case SG_VERIFY_BYTCHK_01:
		case SG_VERIFY_BYTCHK_11:
			/* VERIFY: 00 checks the medium only, 01 compares the data, 11 one block */
			cdb[0] = 0x8f;
			cdb[1] = c->mode == SG_VERIFY_BYTCHK_00 ? 0 :
				 c->mode == SG_VERIFY_BYTCHK_01 ? 0x02 : 0x06;
			len = c->mode == SG_VERIFY_BYTCHK_00 ? 0 :
			      c->mode == SG_VERIFY_BYTCHK_01 ? u->len : lbs;
			break;
		default:
			cdb[0] = 0x8a;
			break;
		}
		break;
	case DDIR_TRIM:
		/* UNMAP with one block descriptor: LBA, number of blocks */
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = 0x42;
		put_be(cdb + 7, sizeof(unmap), 2);
		put_be(unmap, sizeof(unmap) - 2, 2);
		put_be(unmap + 2, 16, 2);
		put_be(unmap + 8, u->offset / lbs, 8);
		put_be(unmap + 16, u->len / lbs, 4);
		buf = unmap;
		len = sizeof(unmap);
		ret = sg_cmd(u->fd, cdb, 10, dir, buf, len, NULL);
		return engine_sync_done(u, ret);
	default:
		memset(cdb, 0, sizeof(cdb));
		cdb[0] = 0x91;	/* SYNCHRONIZE CACHE(16) of the whole device */
		ret = sg_cmd(u->fd, cdb, sizeof(cdb), SG_DXFER_NONE, NULL, 0, NULL);
		return engine_sync_done(u, ret);
	}
	ret = sg_cmd(u->fd, cdb, sizeof(cdb), dir, buf, len, &resid);
	if (ret)
		return engine_sync_done(u, ret);
	u->error = 0;
	u->resid = len == u->len ? resid : 0;
	return ENGINE_COMPLETED;
}

static void sg_cleanup(struct engine_ctx *ctx)
{
	struct sg_ctx *c = (struct sg_ctx *)ctx;

	if (c)
		free(c->lbs);
	free(c);
}

const struct io_engine_ops engine_sg_ops = {
	.name = "sg",
	.flags = ENGINE_F_SYNC | ENGINE_F_CHARDEV,
	.init = sg_init,
	.configure = sg_configure,
	.probe = sg_probe,
	.queue = sg_queue,
	.commit = engine_sync_commit,
	.getevents = engine_sync_getevents,
	.event = engine_sync_event,
	.cleanup = sg_cleanup,
};
