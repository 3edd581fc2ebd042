/*
 * fio_proto.h - fio's client/server wire protocol (fio 3.33, protocol
 * version 97): framing, CRC16, fragment reassembly, and the payloads a
 * client sends and reads, turned into raidbench's own structs. This room
 * knows bytes only: no sockets, no hosts, no printing (core/fleet.c drives
 * the conversation).
 *
 * Facts relied on (fio server.h, server.c, client.c, stat.h):
 *  - Every field on the wire is little endian, whatever the host.
 *  - A command is a 24-byte header then pdu_len payload bytes:
 *      u16 version, u16 opcode, u32 flags, u64 tag, u32 pdu_len,
 *      u16 cmd_crc16, u16 pdu_crc16.
 *    cmd_crc16 covers the first 20 header bytes as sent (little endian),
 *    pdu_crc16 the payload. The CRC is CRC-16/ARC: polynomial 0x8005
 *    reflected (0xA001), initial value 0, no final xor.
 *  - A payload above 1024 bytes travels in fragments of at most 1024 bytes,
 *    each a full command with the same opcode; flag bit 0 (F_MORE) on every
 *    fragment but the last. A receiver refuses a fragment above 1024.
 *  - The version field must equal the receiver's own (97); a fio server of
 *    another version drops the connection on the first command.
 *  - The tag is echoed in replies (PROBE, ETA), so a client can match them.
 */
#ifndef RB_FIO_PROTO_H
#define RB_FIO_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "stats.h"

#define FIO_PROTO_VERSION 97		/* fio 3.33's FIO_SERVER_VER */
#define FIO_PROTO_PORT 8765		/* fio --server's default port */
#define FIO_PROTO_HDR 24
#define FIO_PROTO_FRAG_MAX 1024
#define FIO_PROTO_F_MORE 1u
#define FIO_PROTO_CLIENT_CLI 1		/* client_type of fio's command-line client */
#define FIO_PROTO_MSG_MAX (64u << 20)	/* a reassembled message larger than this is an attack */

/* Opcodes (fio server.h FIO_NET_CMD_*). */
enum fio_op {
	FIO_OP_QUIT = 1,	/* client: stop the jobs; server: the connection is done */
	FIO_OP_EXIT = 2,
	FIO_OP_JOB = 3,		/* client: a job file's text */
	FIO_OP_JOBLINE = 4,	/* client: command-line arguments (argv[0] first) */
	FIO_OP_TEXT = 5,	/* server: output text (errors too) */
	FIO_OP_TS = 6,		/* server: one thread_stat + its group's run stats */
	FIO_OP_GS = 7,		/* server: a group's run stats */
	FIO_OP_SEND_ETA = 8,	/* client: asks for an ETA */
	FIO_OP_ETA = 9,		/* server: jobs_eta, tag echoed */
	FIO_OP_PROBE = 10,	/* both: hello and its reply (hostname, fio version) */
	FIO_OP_START = 11,	/* server: the job text parsed; jobs and stat outputs */
	FIO_OP_STOP = 12,	/* server: the backend ended; error and signal */
	FIO_OP_DU = 13,
	FIO_OP_SERVER_START = 14,	/* server: the jobs begin */
	FIO_OP_ADD_JOB = 15,
	FIO_OP_RUN = 16,	/* client: run what was sent */
	FIO_OP_IOLOG = 17,
	FIO_OP_UPDATE_JOB = 18,
	FIO_OP_LOAD_FILE = 19,
	FIO_OP_VTRIGGER = 20,
	FIO_OP_SENDFILE = 21,
	FIO_OP_JOB_OPT = 22,
	FIO_OP_NR = 23,
};

/* CRC-16/ARC as fio's crc16.c computes it. */
uint16_t fio_crc16(const void *buf, size_t len);

/* A growing byte buffer (what is waiting to be sent, or received). */
struct fio_buf {
	uint8_t *p;
	size_t len;
	size_t cap;
	size_t off;		/* bytes already consumed from the front */
};

void fio_buf_release(struct fio_buf *b);
int fio_buf_append(struct fio_buf *b, const void *data, size_t len);
/* Drops the consumed front once it is large (keeps appends cheap). */
void fio_buf_compact(struct fio_buf *b);

/*
 * Appends one command to out, fragmented as fio does, every fragment with
 * version ver (FIO_PROTO_VERSION except in tests faking another server).
 * 0 or -ENOMEM.
 */
int fio_proto_encode(struct fio_buf *out, uint16_t ver, uint16_t op, uint64_t tag,
		     const void *pdu, size_t len);

/* One received command, fragments joined. */
struct fio_msg {
	uint16_t version;
	uint16_t opcode;
	uint32_t flags;
	uint64_t tag;
	uint32_t len;
	uint8_t *pdu;		/* owned by the message: fio_msg_release() */
};

void fio_msg_release(struct fio_msg *m);

/* Reassembles commands out of a byte stream. */
struct fio_rx {
	struct fio_buf in;
	struct fio_msg cur;	/* being joined from fragments */
	size_t cur_cap;		/* bytes allocated at cur.pdu */
	bool joining;
};

void fio_rx_release(struct fio_rx *rx);

/*
 * Takes the next whole command out of rx->in: 1 with *m filled (the caller
 * releases it), 0 when more bytes are needed, or a negative errno with err
 * naming what was wrong: -EPROTONOSUPPORT for another protocol version
 * (the message's version is still in *ver_seen), -EBADMSG for a CRC
 * mismatch or a bad fragment. After an error the stream is unusable.
 */
int fio_rx_next(struct fio_rx *rx, struct fio_msg *m, uint16_t *ver_seen, char *err,
		size_t errlen);

/* ---- payloads a client sends -------------------------------------------- */

/* PROBE: flags (no zlib: statistics then come uncompressed) and the server's name as we know it. */
int fio_proto_probe(struct fio_buf *out, uint64_t tag, const char *server_name);
/* JOBLINE: argv as fio's command line on the server (argv[0] is the program name). */
int fio_proto_jobline(struct fio_buf *out, char *const *argv, unsigned argc);
/* JOB: the text of a job file, parsed on the server. */
int fio_proto_job(struct fio_buf *out, const char *text, size_t len);
/* A command without payload (RUN, SEND_ETA, QUIT). */
int fio_proto_simple(struct fio_buf *out, uint16_t op, uint64_t tag);

/* ---- payloads a client reads -------------------------------------------- */

struct fio_probe_reply {
	char hostname[65];
	char fio_version[33];
	bool bigendian;
	unsigned os, arch, bits;
	uint32_t cpus;
	uint64_t flags;
};

struct fio_eta {
	uint32_t nr_running, nr_ramp, nr_pending, nr_setting_up;
	uint64_t rate[DDIR_RWDIR_CNT];		/* bytes/s over the server's last ETA period */
	uint32_t iops[DDIR_RWDIR_CNT];
	uint64_t elapsed_s, eta_s;
	uint32_t nr_threads;
};

/* Each returns 0, or -EBADMSG with err naming the opcode and the length seen. */
int fio_proto_read_probe(const struct fio_msg *m, struct fio_probe_reply *out, char *err,
			 size_t errlen);
int fio_proto_read_start(const struct fio_msg *m, uint32_t *jobs, uint32_t *stat_outputs,
			 char *err, size_t errlen);
int fio_proto_read_stop(const struct fio_msg *m, int32_t *error, int32_t *signal, char *err,
			size_t errlen);
int fio_proto_read_eta(const struct fio_msg *m, struct fio_eta *out, char *err, size_t errlen);
/* TEXT: *text points into m (NUL-terminated copy made in place is not needed: len given). */
int fio_proto_read_text(const struct fio_msg *m, uint32_t *level, const char **text,
			size_t *len, char *err, size_t errlen);

/*
 * TS: fio's packed struct thread_stat (183888 bytes) followed by its
 * group_run_stats (164 bytes), padded to 184056; a job with priority
 * statistics or steady-state data adds bytes after that, which are not
 * read. ts arrives zeroed from the caller; job stays NULL.
 */
int fio_proto_read_ts(const struct fio_msg *m, struct thread_stat *ts, struct group_stat *gs,
		      char *err, size_t errlen);
int fio_proto_read_gs(const struct fio_msg *m, struct group_stat *gs, char *err, size_t errlen);

/* "TS", "PROBE", ... for messages; "op 99" beyond the table (buf holds it). */
const char *fio_proto_op_name(unsigned op, char *buf, size_t len);

/* Test helpers: the sizes the decoders expect. */
#define FIO_PROTO_TS_LEN 183888
#define FIO_PROTO_GS_LEN 164
#define FIO_PROTO_TS_PDU_LEN 184056
#define FIO_PROTO_ETA_LEN 168
#define FIO_PROTO_PROBE_REPLY_LEN 112

#endif
