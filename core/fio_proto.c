/*
 * fio_proto.c - fio 3.33's client/server protocol in bytes: the header and
 * its CRCs, fragments, the payloads raidbench sends (PROBE, JOBLINE, JOB,
 * RUN, SEND_ETA, QUIT) and the ones it reads (PROBE reply, START, TEXT, ETA,
 * TS, GS, STOP). Reads every field with explicit little-endian loads at
 * fixed offsets, so the host's endianness and padding never matter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_proto.h"

/* ---- CRC-16/ARC ------------------------------------------------------------ */

/*
 * Slicing by 8 (tables k = 1..7 advance a byte's effect k more bytes): a TS
 * message is 184 KB and the CRC was most of the console's time per message.
 */
static uint16_t crc_table[8][256];
static bool crc_ready;

static void crc_init(void)
{
	unsigned i, b, k;

	for (i = 0; i < 256; i++) {
		uint16_t c = (uint16_t)i;

		for (b = 0; b < 8; b++)
			c = (c & 1) ? (uint16_t)((c >> 1) ^ 0xA001) : (uint16_t)(c >> 1);
		crc_table[0][i] = c;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++)
			crc_table[k][i] = (uint16_t)((crc_table[k - 1][i] >> 8) ^
						     crc_table[0][crc_table[k - 1][i] & 0xff]);
	__atomic_store_n(&crc_ready, true, __ATOMIC_RELEASE);	/* pairs with the load below */
}

uint16_t fio_crc16(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint16_t crc = 0;

	/* the tables are the same whoever builds them first: a race writes equal values */
	if (!__atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE))
		crc_init();
	for (; len >= 8; len -= 8, p += 8)
		crc = crc_table[7][(crc ^ p[0]) & 0xff] ^ crc_table[6][((crc >> 8) ^ p[1]) & 0xff] ^
		      crc_table[5][p[2]] ^ crc_table[4][p[3]] ^ crc_table[3][p[4]] ^
		      crc_table[2][p[5]] ^ crc_table[1][p[6]] ^ crc_table[0][p[7]];
	while (len--)
		crc = (uint16_t)((crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff]);
	return crc;
}

/* ---- little-endian access -------------------------------------------------- */

static uint16_t ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t ld64(const uint8_t *p)
{
	return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

/* fio sends doubles as IEEE 754 bit patterns in a u64 (lib/ieee754.c). */
static double ldd(const uint8_t *p)
{
	uint64_t v = ld64(p);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static void st16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void st32(uint8_t *p, uint32_t v)
{
	st16(p, (uint16_t)v);
	st16(p + 2, (uint16_t)(v >> 16));
}

static void st64(uint8_t *p, uint64_t v)
{
	st32(p, (uint32_t)v);
	st32(p + 4, (uint32_t)(v >> 32));
}

/* ---- buffers ---------------------------------------------------------------- */

void fio_buf_release(struct fio_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

int fio_buf_append(struct fio_buf *b, const void *data, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		uint8_t *n;

		while (cap < b->len + len)
			cap *= 2;
		n = realloc(b->p, cap);
		if (!n)
			return -ENOMEM;
		b->p = n;
		b->cap = cap;
	}
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

void fio_buf_compact(struct fio_buf *b)
{
	if (!b->off)
		return;
	if (b->off == b->len) {
		b->off = b->len = 0;
		return;
	}
	if (b->off < 65536 && b->off * 2 < b->len)
		return;
	memmove(b->p, b->p + b->off, b->len - b->off);
	b->len -= b->off;
	b->off = 0;
}

/* ---- framing ---------------------------------------------------------------- */

int fio_proto_encode(struct fio_buf *out, uint16_t ver, uint16_t op, uint64_t tag,
		     const void *pdu, size_t len)
{
	const uint8_t *src = pdu;

	do {
		size_t n = len > FIO_PROTO_FRAG_MAX ? FIO_PROTO_FRAG_MAX : len;
		uint8_t h[FIO_PROTO_HDR];

		st16(h, ver);
		st16(h + 2, op);
		st32(h + 4, n < len ? FIO_PROTO_F_MORE : 0);
		st64(h + 8, tag);
		st32(h + 16, (uint32_t)n);
		st16(h + 20, fio_crc16(h, 20));
		st16(h + 22, fio_crc16(src, n));
		if (fio_buf_append(out, h, sizeof(h)) || fio_buf_append(out, src, n))
			return -ENOMEM;
		src += n;
		len -= n;
	} while (len);
	return 0;
}

void fio_msg_release(struct fio_msg *m)
{
	free(m->pdu);
	memset(m, 0, sizeof(*m));
}

void fio_rx_release(struct fio_rx *rx)
{
	fio_buf_release(&rx->in);
	fio_msg_release(&rx->cur);
	rx->cur_cap = 0;
	rx->joining = false;
}

int fio_rx_next(struct fio_rx *rx, struct fio_msg *m, uint16_t *ver_seen, char *err,
		size_t errlen)
{
	char name[16];

	for (;;) {
		size_t avail = rx->in.len - rx->in.off;
		const uint8_t *h;
		uint16_t ver, op;
		uint32_t flags, n;
		uint8_t *np;

		/* nothing received yet leaves the buffer NULL: no pointer arithmetic on it */
		if (avail < FIO_PROTO_HDR)
			return 0;
		h = rx->in.p + rx->in.off;
		ver = ld16(h);
		op = ld16(h + 2);
		flags = ld32(h + 4);
		n = ld32(h + 16);
		if (fio_crc16(h, 20) != ld16(h + 20)) {
			snprintf(err, errlen, "bad header checksum (%04x, computed %04x): not a fio "
				 "server, or a corrupted stream", ld16(h + 20), fio_crc16(h, 20));
			return -EBADMSG;
		}
		if (ver != FIO_PROTO_VERSION) {
			if (ver_seen)
				*ver_seen = ver;
			snprintf(err, errlen, "the server speaks fio protocol version %u, raidbench "
				 "speaks %u (fio 3.33): run fio 3.33 there", ver, FIO_PROTO_VERSION);
			return -EPROTONOSUPPORT;
		}
		if (n > FIO_PROTO_FRAG_MAX) {
			snprintf(err, errlen, "%s fragment of %u bytes, above fio's %u",
				 fio_proto_op_name(op, name, sizeof(name)), n, FIO_PROTO_FRAG_MAX);
			return -EBADMSG;
		}
		if (avail < FIO_PROTO_HDR + (size_t)n)
			return 0;
		if (fio_crc16(h + FIO_PROTO_HDR, n) != ld16(h + 22)) {
			snprintf(err, errlen, "bad payload checksum on %s",
				 fio_proto_op_name(op, name, sizeof(name)));
			return -EBADMSG;
		}
		if (!rx->joining) {
			rx->cur.version = ver;
			rx->cur.opcode = op;
			rx->cur.tag = ld64(h + 8);
			rx->cur.len = 0;
			rx->joining = true;
		} else if (rx->cur.opcode != op) {
			snprintf(err, errlen, "a %s fragment inside a %s message",
				 fio_proto_op_name(op, name, sizeof(name)),
				 fio_proto_op_name(rx->cur.opcode, name + 8, 8));
			return -EBADMSG;
		}
		if ((size_t)rx->cur.len + n > FIO_PROTO_MSG_MAX) {
			snprintf(err, errlen, "a message above %u MiB", FIO_PROTO_MSG_MAX >> 20);
			return -EBADMSG;
		}
		/* one spare byte keeps text payloads NUL-terminated; doubling keeps a
		 * 184 KB TS in 180 fragments from costing 180 reallocations */
		if ((size_t)rx->cur.len + n + 1 > rx->cur_cap) {
			size_t cap = rx->cur_cap ? rx->cur_cap : 4096;

			while (cap < (size_t)rx->cur.len + n + 1)
				cap *= 2;
			np = realloc(rx->cur.pdu, cap);
			if (!np) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			rx->cur.pdu = np;
			rx->cur_cap = cap;
		}
		np = rx->cur.pdu;
		memcpy(np + rx->cur.len, h + FIO_PROTO_HDR, n);
		rx->cur.len += n;
		np[rx->cur.len] = '\0';
		rx->in.off += FIO_PROTO_HDR + n;
		if (flags & FIO_PROTO_F_MORE)
			continue;
		rx->cur.flags = flags & ~FIO_PROTO_F_MORE;
		*m = rx->cur;
		memset(&rx->cur, 0, sizeof(rx->cur));
		rx->cur_cap = 0;
		rx->joining = false;
		fio_buf_compact(&rx->in);
		return 1;
	}
}

/* ---- what a client sends --------------------------------------------------- */

int fio_proto_simple(struct fio_buf *out, uint16_t op, uint64_t tag)
{
	return fio_proto_encode(out, FIO_PROTO_VERSION, op, tag, NULL, 0);
}

int fio_proto_probe(struct fio_buf *out, uint64_t tag, const char *server_name)
{
	uint8_t pdu[8 + 128] = { 0 };	/* u64 flags, char server[128] */

	snprintf((char *)pdu + 8, 128, "%s", server_name);
	return fio_proto_encode(out, FIO_PROTO_VERSION, FIO_OP_PROBE, tag, pdu, sizeof(pdu));
}

int fio_proto_jobline(struct fio_buf *out, char *const *argv, unsigned argc)
{
	size_t len = 4, off = 4;
	uint8_t *pdu;
	unsigned i;
	int ret;

	/* u16 lines, u16 client_type, then per line: u16 len (with NUL), text */
	for (i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		if (n > UINT16_MAX)
			return -E2BIG;
		len += 2 + n;
	}
	pdu = calloc(1, len);
	if (!pdu)
		return -ENOMEM;
	st16(pdu, (uint16_t)argc);
	st16(pdu + 2, FIO_PROTO_CLIENT_CLI);
	for (i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		st16(pdu + off, (uint16_t)n);
		memcpy(pdu + off + 2, argv[i], n);
		off += 2 + n;
	}
	ret = fio_proto_encode(out, FIO_PROTO_VERSION, FIO_OP_JOBLINE, 0, pdu, len);
	free(pdu);
	return ret;
}

int fio_proto_job(struct fio_buf *out, const char *text, size_t len)
{
	uint8_t *pdu = malloc(8 + len + 1);
	int ret;

	if (!pdu)
		return -ENOMEM;
	/* u32 buf_len, u32 client_type, the text (the server NUL-terminates at buf_len) */
	st32(pdu, (uint32_t)len);
	st32(pdu + 4, FIO_PROTO_CLIENT_CLI);
	memcpy(pdu + 8, text, len);
	pdu[8 + len] = '\0';
	ret = fio_proto_encode(out, FIO_PROTO_VERSION, FIO_OP_JOB, 0, pdu, 8 + len + 1);
	free(pdu);
	return ret;
}

/* ---- what a client reads --------------------------------------------------- */

static const char *const op_names[FIO_OP_NR] = {
	"?", "QUIT", "EXIT", "JOB", "JOBLINE", "TEXT", "TS", "GS", "SEND_ETA", "ETA",
	"PROBE", "START", "STOP", "DU", "SERVER_START", "ADD_JOB", "RUN", "IOLOG",
	"UPDATE_JOB", "LOAD_FILE", "VTRIGGER", "SENDFILE", "JOB_OPT",
};

const char *fio_proto_op_name(unsigned op, char *buf, size_t len)
{
	if (op && op < FIO_OP_NR)
		return op_names[op];
	snprintf(buf, len, "op %u", op);
	return buf;
}

static int short_msg(const struct fio_msg *m, size_t need, char *err, size_t errlen)
{
	char name[16];

	if (m->len >= need)
		return 0;
	snprintf(err, errlen, "%s message of %u bytes, expected at least %zu",
		 fio_proto_op_name(m->opcode, name, sizeof(name)), m->len, need);
	return -EBADMSG;
}

static void copy_str(char *dst, size_t dstlen, const uint8_t *src, size_t srclen)
{
	size_t n = strnlen((const char *)src, srclen);

	if (n >= dstlen)
		n = dstlen - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int fio_proto_read_probe(const struct fio_msg *m, struct fio_probe_reply *out, char *err,
			 size_t errlen)
{
	const uint8_t *p = m->pdu;

	/* hostname[64], u8 bigendian, fio_version[32], u8 os, u8 arch, u8 bpp, u32 cpus, u64 flags */
	if (short_msg(m, FIO_PROTO_PROBE_REPLY_LEN, err, errlen))
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	copy_str(out->hostname, sizeof(out->hostname), p, 64);
	out->bigendian = p[64];
	copy_str(out->fio_version, sizeof(out->fio_version), p + 65, 32);
	out->os = p[97];
	out->arch = p[98];
	out->bits = p[99] * 8u;
	out->cpus = ld32(p + 100);
	out->flags = ld64(p + 104);
	return 0;
}

int fio_proto_read_start(const struct fio_msg *m, uint32_t *jobs, uint32_t *stat_outputs,
			 char *err, size_t errlen)
{
	if (short_msg(m, 8, err, errlen))
		return -EBADMSG;
	*jobs = ld32(m->pdu);
	*stat_outputs = ld32(m->pdu + 4);
	return 0;
}

int fio_proto_read_stop(const struct fio_msg *m, int32_t *error, int32_t *signal, char *err,
			size_t errlen)
{
	if (short_msg(m, 8, err, errlen))
		return -EBADMSG;
	*error = (int32_t)ld32(m->pdu);
	*signal = (int32_t)ld32(m->pdu + 4);
	return 0;
}

int fio_proto_read_text(const struct fio_msg *m, uint32_t *level, const char **text,
			size_t *len, char *err, size_t errlen)
{
	uint32_t n;

	/* u32 level, u32 buf_len, u64 log_sec, u64 log_usec, text */
	if (short_msg(m, 24, err, errlen))
		return -EBADMSG;
	*level = ld32(m->pdu);
	n = ld32(m->pdu + 4);
	if (n > m->len - 24)
		n = m->len - 24;
	*text = (const char *)m->pdu + 24;
	*len = n;
	return 0;
}

int fio_proto_read_eta(const struct fio_msg *m, struct fio_eta *out, char *err, size_t errlen)
{
	const uint8_t *p = m->pdu;
	int d;

	/*
	 * jobs_eta: u32 nr_running, nr_ramp, nr_pending, nr_setting_up; u64
	 * m_rate[3], t_rate[3], rate[3]; u32 m_iops[3], t_iops[3], iops[3], pad;
	 * u64 elapsed_sec, eta_sec; u32 is_pow2, unit_base, sig_figs, files_open,
	 * nr_threads, pad2; then the run string.
	 */
	if (short_msg(m, FIO_PROTO_ETA_LEN, err, errlen))
		return -EBADMSG;
	memset(out, 0, sizeof(*out));
	out->nr_running = ld32(p);
	out->nr_ramp = ld32(p + 4);
	out->nr_pending = ld32(p + 8);
	out->nr_setting_up = ld32(p + 12);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		out->rate[d] = ld64(p + 64 + 8 * d);
		out->iops[d] = ld32(p + 112 + 4 * d);
	}
	out->elapsed_s = ld64(p + 128);
	out->eta_s = ld64(p + 136);
	out->nr_threads = ld32(p + 160);
	return 0;
}

/*
 * Offsets in fio 3.33's packed struct thread_stat (stat.h). sync_stat is
 * aligned to 8, which makes the whole struct 8-aligned: 183884 bytes of
 * fields round up to 183888. An io_stat is u64 max, min, samples and two
 * 16-byte fio_fp64_t (mean, S), 56 bytes.
 */
enum ts_off {
	TS_NAME = 0,			/* char[128] */
	TS_VERROR = 128,		/* char[128] */
	TS_ERROR = 256,
	TS_THREAD_NUMBER = 260,
	TS_GROUPID = 264,
	TS_PID = 268,
	TS_DESCRIPTION = 272,		/* char[256] */
	TS_MEMBERS = 528,
	TS_UNIFIED_RW_REP = 532,
	TS_SYNC_STAT = 544,		/* io_stat */
	TS_CLAT_STAT = 600,		/* io_stat[3], then slat, lat, bw, iops */
	TS_IO_STAT_LEN = 56,
	TS_USR_TIME = 1440,		/* u64 usr, sys, ctx, minf, majf */
	TS_CLAT_PCT = 1480,		/* u32 clat_, lat_, slat_percentiles, pad */
	TS_PCT_PRECISION = 1496,
	TS_PCT_LIST = 1504,		/* fio_fp64_t[20] */
	TS_IO_U_MAP = 1824,		/* u64[7] depth, then submit[7], complete[7] */
	TS_LAT_N = 1992,		/* u64[10], lat_u[10], lat_m[12] */
	TS_PLAT = 2248,			/* u64[3 slat/clat/lat][3 ddir][1856] */
	TS_SYNC_PLAT = 135880,		/* u64[1856] */
	TS_TOTAL_IO_U = 150728,		/* u64[4]: read, write, trim, sync */
	TS_SHORT_IO_U = 150760,
	TS_DROP_IO_U = 150784,
	TS_TOTAL_SUBMIT = 150808,
	TS_TOTAL_COMPLETE = 150816,
	TS_IO_BYTES = 150824,
	TS_RUNTIME = 150848,		/* ms per direction */
	TS_TOTAL_RUN_TIME = 150872,
	TS_CONTINUE_ON_ERROR = 150880,	/* u16 in a u32 */
	TS_FIRST_ERROR = 150884,
	TS_TOTAL_ERR_COUNT = 150888,
	TS_KB_BASE = 183680,
	TS_LATENCY_DEPTH = 183688,
	TS_SIG_FIGS = 183728,
	/* group_run_stats after the thread_stat: u64 max_run[3], min_run[3],
	 * max_bw[3], min_bw[3], iobytes[3], agg[3]; u32 kb_base, unit_base,
	 * sig_figs, groupid, unified_rw_rep */
	GS_MAX_RUN = 0,
	GS_MIN_RUN = 24,
	GS_MAX_BW = 48,
	GS_MIN_BW = 72,
	GS_IOBYTES = 96,
	GS_AGG = 120,
	GS_KB_BASE = 144,
	GS_GROUPID = 156,
};

enum { FIO_SLAT, FIO_CLAT, FIO_LAT };

static void read_io_stat(const uint8_t *p, struct lat_stat *s)
{
	s->max = ld64(p);
	s->min = ld64(p + 8);
	s->n = ld64(p + 16);
	s->mean = ldd(p + 24);
	s->m2 = ldd(p + 40);	/* fio's S: sum of squared deviations, as Welford's m2 */
	if (!s->n)
		s->min = s->max = 0;
}

static void read_hist(const uint8_t *p, uint64_t *hist)
{
	unsigned i;

	for (i = 0; i < HIST_NR; i++)
		hist[i] = ld64(p + 8 * i);
}

static void read_gs(const uint8_t *p, struct group_stat *gs)
{
	int d;

	memset(gs, 0, sizeof(*gs));
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		gs->max_run[d] = ld64(p + GS_MAX_RUN + 8 * d);
		gs->min_run[d] = ld64(p + GS_MIN_RUN + 8 * d);
		gs->max_bw[d] = ld64(p + GS_MAX_BW + 8 * d);
		gs->min_bw[d] = ld64(p + GS_MIN_BW + 8 * d);
		gs->io_bytes[d] = ld64(p + GS_IOBYTES + 8 * d);
		gs->agg_bw[d] = ld64(p + GS_AGG + 8 * d);
	}
	gs->kb_base = ld32(p + GS_KB_BASE);
	gs->groupid = (int)ld32(p + GS_GROUPID);
}

int fio_proto_read_gs(const struct fio_msg *m, struct group_stat *gs, char *err, size_t errlen)
{
	if (short_msg(m, FIO_PROTO_GS_LEN, err, errlen))
		return -EBADMSG;
	read_gs(m->pdu, gs);
	return 0;
}

int fio_proto_read_ts(const struct fio_msg *m, struct thread_stat *ts, struct group_stat *gs,
		      char *err, size_t errlen)
{
	const uint8_t *p = m->pdu;
	unsigned i;
	int d;

	if (short_msg(m, FIO_PROTO_TS_LEN + FIO_PROTO_GS_LEN, err, errlen))
		return -EBADMSG;
	copy_str(ts->name, sizeof(ts->name), p + TS_NAME, 128);
	copy_str(ts->error_msg, sizeof(ts->error_msg), p + TS_VERROR, 128);
	ts->error = (int)ld32(p + TS_ERROR);
	ts->groupid = (int)ld32(p + TS_GROUPID);
	ts->nr_jobs = ld32(p + TS_MEMBERS);
	read_io_stat(p + TS_SYNC_STAT, &ts->sync_lat);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct ddir_stat *ds = &ts->dir[d];
		const uint8_t *st = p + TS_CLAT_STAT + TS_IO_STAT_LEN * d;

		read_io_stat(st, &ds->clat);
		read_io_stat(st + 3 * TS_IO_STAT_LEN, &ds->slat);
		read_io_stat(st + 6 * TS_IO_STAT_LEN, &ds->lat);
		read_io_stat(st + 9 * TS_IO_STAT_LEN, &ds->bw);
		read_io_stat(st + 12 * TS_IO_STAT_LEN, &ds->iops);
		read_hist(p + TS_PLAT + 8 * HIST_NR * (FIO_SLAT * 3 + d), ds->slat_hist);
		read_hist(p + TS_PLAT + 8 * HIST_NR * (FIO_CLAT * 3 + d), ds->clat_hist);
		read_hist(p + TS_PLAT + 8 * HIST_NR * (FIO_LAT * 3 + d), ds->lat_hist);
		ds->total_ios = ld64(p + TS_TOTAL_IO_U + 8 * d);
		ds->short_ios = ld64(p + TS_SHORT_IO_U + 8 * d);
		ds->drop_ios = ld64(p + TS_DROP_IO_U + 8 * d);
		ds->io_bytes = ld64(p + TS_IO_BYTES + 8 * d);
		ds->runtime_ms = ld64(p + TS_RUNTIME + 8 * d);
	}
	read_hist(p + TS_SYNC_PLAT, ts->sync_hist);
	ts->sync_total = ld64(p + TS_TOTAL_IO_U + 8 * 3);
	ts->usr_us = ld64(p + TS_USR_TIME);
	ts->sys_us = ld64(p + TS_USR_TIME + 8);
	ts->ctx = ld64(p + TS_USR_TIME + 16);
	ts->minf = ld64(p + TS_USR_TIME + 24);
	ts->majf = ld64(p + TS_USR_TIME + 32);
	for (i = 0; i < DEPTH_MAP_NR; i++) {
		ts->depth_level[i] = ld64(p + TS_IO_U_MAP + 8 * i);
		ts->submit_map[i] = ld64(p + TS_IO_U_MAP + 56 + 8 * i);
		ts->complete_map[i] = ld64(p + TS_IO_U_MAP + 112 + 8 * i);
	}
	for (i = 0; i < LAT_N_NR; i++)
		ts->lat_n[i] = ld64(p + TS_LAT_N + 8 * i);
	for (i = 0; i < LAT_U_NR; i++)
		ts->lat_u[i] = ld64(p + TS_LAT_N + 80 + 8 * i);
	for (i = 0; i < LAT_M_NR; i++)
		ts->lat_m[i] = ld64(p + TS_LAT_N + 160 + 8 * i);
	ts->total_submit = ld64(p + TS_TOTAL_SUBMIT);
	ts->total_complete = ld64(p + TS_TOTAL_COMPLETE);
	ts->total_io_u = 0;
	for (i = 0; i < DEPTH_MAP_NR; i++)
		ts->total_io_u += ts->depth_level[i];
	ts->job_runtime_ms = ld64(p + TS_TOTAL_RUN_TIME);
	ts->elapsed_ms = ts->job_runtime_ms;
	ts->first_error = (int)ld32(p + TS_FIRST_ERROR);
	ts->total_err = ld64(p + TS_TOTAL_ERR_COUNT);
	ts->latency_depth = ld32(p + TS_LATENCY_DEPTH);
	if (gs)
		read_gs(p + FIO_PROTO_TS_LEN, gs);
	return 0;
}
