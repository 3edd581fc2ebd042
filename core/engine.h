/*
 * engine.h - the I/O engine seam: every ioengine= behind one ops table, one
 * registry (engine.c) that is the only place listing them. Code outside an
 * engine's own file asks the flags below, never the name.
 *
 * Threading contract: an engine context belongs to one worker thread; every
 * op is called only from that thread. Engines do not touch statistics, files
 * or offsets: the worker (core/worker.c) prepares each io_unit and accounts
 * for it when the engine hands it back.
 */
#ifndef RB_ENGINE_H
#define RB_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct io_unit {
	void *buf;		/* aligned to the engine's needs (4 KiB) */
	uint64_t offset;
	uint32_t len;
	uint8_t ddir;		/* enum rb_ddir, or DDIR_SYNC for an fsync */
	bool datasync;		/* DDIR_SYNC: fdatasync instead of fsync */
	int fd;
	const char *path;	/* the file's name, for engines that act on names */
	unsigned file_idx;
	unsigned idx;		/* index in the worker's unit array */
	int error;		/* 0 or positive errno, set on completion */
	uint32_t resid;		/* bytes not transferred (short I/O) */
	uint32_t dropped;	/* set by an engine that can tell: blocks lost before this one (UDP) */
	uint64_t start_ns;	/* set by the worker */
	uint64_t issue_ns;
	uint64_t numberio;	/* sequence number, for verify headers */
	void *engine_priv;	/* per-unit engine data (iocb) */
	void *target;		/* the file's handle from target_open(), else NULL */
};

enum engine_queue_result {
	ENGINE_QUEUED = 0,	/* held for commit(); completes via getevents() */
	ENGINE_COMPLETED = 1,	/* done synchronously; error/resid are set */
	ENGINE_BUSY = 2,	/* cannot take it now: reap first, then retry */
	/* nothing more will come (net: the sender closed): the unit is not counted, the phase ends */
	ENGINE_DONE = 3,
};

enum {
	ENGINE_F_SYNC = 1u << 0,	/* every queue() completes synchronously */
	ENGINE_F_NODATA = 1u << 1,	/* moves no data (null) */
	ENGINE_F_SETS_ISSUE = 1u << 2,	/* commit() stamps issue_ns itself */
	/* at depth 1 queue() completes on the spot (fio's FIO_SYNCIO shortcut): no slat */
	ENGINE_F_SYNC_AT_DEPTH1 = 1u << 3,
	ENGINE_F_NOLAYOUT = 1u << 4,	/* files are neither laid out nor opened (filecreate) */
	ENGINE_F_CHARDEV = 1u << 5,	/* targets are character devices (sg, NVMe generic) */
	ENGINE_F_UNLINKS = 1u << 6,	/* removes files by name: each path is guarded as a write */
	ENGINE_F_DISKLESS = 1u << 7,	/* touches no file at all (cpuio): runs for runtime= */
	/* queue() moves no data between the buffer and the file (falloc, filestat, cpuio...) */
	ENGINE_F_NOXFER = 1u << 9,
	/* maps its targets (libpmem, dev-dax): direct=/sync= are its own, never O_DIRECT/O_SYNC */
	ENGINE_F_MAPS = 1u << 10,
	/* targets are reached over the network (uri=, iscsi://): sized and read by remote_probe() */
	ENGINE_F_REMOTE = 1u << 11,
	/* keeps zone write pointers itself (libzbc): zonemode=zbd runs on zoned devices */
	ENGINE_F_ZONED = 1u << 12,
	/* no file: the engine opens its own byte stream (net); size= or runtime= ends the job */
	ENGINE_F_STREAM = 1u << 13,
};

struct engine_ctx;
struct job_spec;
struct guard_consent;
struct mailbox;
struct stat;

/*
 * What init_tuned gets: fio's engine tuning options, and the run's context
 * (the clone's number, the stop flag, the write guard's consent).
 */
struct engine_tuning {
	bool fixedbufs;		/* register the units' buffers once (io_uring) */
	bool fixedbufs_required;	/* asked for: failing to register is an error */
	bool sqpoll;		/* a kernel thread submits: no syscall per batch */
	int sqpoll_cpu;		/* that thread's CPU, -1 for any */
	bool hipri;		/* completions by polling the device (IOPOLL) */
	size_t unit_buf_len;	/* bytes of each unit's buffer */
	unsigned clone;		/* the job clone's number (net: port= + clone, as fio) */
	const _Atomic bool *stop;	/* the worker's stop flag: long waits (accept) poll it */
	/* the run's --allow-destroy/--readonly: output_file()'s files open through the guard under it */
	const struct guard_consent *consent;
	/*
	 * Where the engine may put, from its worker's thread, a line of text for
	 * the live view (exec: its program's latest output under the TUI); the
	 * sampler takes it each tick. NULL: nobody listens.
	 */
	struct mailbox *live_text;
};

struct io_engine_ops {
	const char *name;
	unsigned flags;
	const char *note;	/* optional: where it differs from fio's engine, for --parse-only */
	/* Prepare for at most depth in-flight units; units[] stays valid until cleanup. */
	int (*init)(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		    unsigned nr_units, char *err, size_t errlen);
	/* init with the job's tuning options; when present the worker calls it instead */
	int (*init_tuned)(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
			  unsigned nr_units, const struct engine_tuning *tune, char *err,
			  size_t errlen);
	/* Files are opened by the worker; engines that register fds get them here. */
	int (*register_files)(struct engine_ctx *ctx, const int *fds, unsigned nr);
	int (*queue)(struct engine_ctx *ctx, struct io_unit *u);
	/*
	 * Submit what queue() held. Returns the number of units handed to the
	 * kernel (>= 0) or -errno. now_ns is the clock read after submission,
	 * stamped into issue_ns of the submitted units when F_SETS_ISSUE.
	 */
	int (*commit)(struct engine_ctx *ctx, uint64_t (*clock)(void));
	/*
	 * Optional: commit() and a wait for wait_nr (>= 1) completions in one
	 * syscall, for when the worker would reap with that minimum next. The
	 * submission's end is not seen apart from the wait, so issue_ns keeps the
	 * worker's stamp (slat is the time to prepare the I/O). Returns as commit().
	 */
	int (*commit_wait)(struct engine_ctx *ctx, unsigned wait_nr);
	/* Reap between min and max completions; returns count or -errno. */
	int (*getevents)(struct engine_ctx *ctx, unsigned min, unsigned max);
	/* The i-th unit reaped by the last getevents(); error/resid filled in. */
	struct io_unit *(*event)(struct engine_ctx *ctx, unsigned i);
	void (*cleanup)(struct engine_ctx *ctx);
	/*
	 * Optional: checks that fd (path opened read-only) is a target this engine
	 * drives, and reads its capacity and logical block size; 0, or -errno with
	 * err naming the target and why (the job is refused at setup).
	 */
	int (*probe)(int fd, const char *path, uint64_t *bytes, unsigned *lbs, char *err,
		     size_t errlen);
	/* Optional: takes the job's engine options (stat_type=, cmd_type=, ...) after init. */
	int (*configure)(struct engine_ctx *ctx, const struct job_spec *job, char *err,
			 size_t errlen);
	/* Optional: what the job does besides I/O, for --parse-only (the command exec runs). */
	void (*describe)(const struct job_spec *job, char *buf, size_t len);
	/*
	 * Optional, on the worker's thread once the job's I/O is over: ends what the
	 * engine started (exec's program, net's connection); 0, or -errno with err
	 * saying what went wrong (the program's exit status). err left filled with
	 * 0 returned is a note for the job's results (what exec's program wrote
	 * under the TUI), not an error.
	 */
	int (*end)(struct engine_ctx *ctx, char *err, size_t errlen);
	/*
	 * Optional, for targets the engine opens itself by name (pmemblk's pools,
	 * "path,bsize,MiB"): at setup, from the setup thread, instead of laying
	 * out and opening the file. The engine asks the guard (under consent)
	 * about every file it will create or write, and returns a handle (given
	 * to each unit as target), the usable bytes and the block size; 0 or
	 * -errno with err naming the target and why.
	 */
	int (*target_open)(const char *spec, const struct job_spec *job,
			   const struct guard_consent *consent, void **target, uint64_t *bytes,
			   unsigned *lbs, char *err, size_t errlen);
	/* Drops a handle from target_open(); unlink: the job asked for unlink=1. */
	void (*target_close)(void *target, bool unlink);
	/*
	 * Optional, at setup, for each local target that exists, before anything
	 * is opened for writing: refuses a kind of file the engine cannot drive
	 * (libpmem: a block device). 0, or -errno with err naming the engine, the
	 * target and why.
	 */
	int (*check_target)(const char *path, const struct stat *st, char *err, size_t errlen);
	/*
	 * Optional: the files besides its targets the engine creates or truncates
	 * (exec's JOBNAME.stdout and JOBNAME.stderr, e4defrag's donor): the i-th
	 * one's name in buf and 0, -ENOENT past the last, or another -errno with
	 * buf saying what the job lacks ("needs donorname= (the donor file)"). At setup, before any I/O, the worker
	 * puts each through the write guard (a refusal stops the run there); the
	 * engine opens them with guard_open_write() under engine_tuning's consent.
	 */
	int (*output_file)(const struct job_spec *job, unsigned i, char *buf, size_t len);
	/*
	 * Optional, at parse time: the job's options as this engine needs them
	 * (uri= given, a well-formed URL); 0, or -EINVAL with why naming the option.
	 */
	int (*check_job)(const struct job_spec *job, char *why, size_t whylen);
	/*
	 * ENGINE_F_REMOTE: connects to target (a file's name: the URI) once at
	 * setup and gives its size and logical block size; when head is not NULL
	 * it also reads the first and last edge bytes (the whole target when
	 * smaller) into head and tail, for the write guard. 0, or -errno with err
	 * naming the target and why (no server, a malformed URI, no such LUN).
	 */
	int (*remote_probe)(const struct job_spec *job, const char *target, uint64_t *bytes,
			    unsigned *lbs, void *head, void *tail, size_t edge, char *err,
			    size_t errlen);
};

/*
 * For engines whose queue() always completes (ENGINE_F_SYNC): an empty
 * context and the ops that have nothing to do (core/engine_sync.c).
 */
int engine_sync_init(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		     unsigned nr_units, char *err, size_t errlen);
int engine_sync_commit(struct engine_ctx *ctx, uint64_t (*clock)(void));
int engine_sync_getevents(struct engine_ctx *ctx, unsigned min, unsigned max);
struct io_unit *engine_sync_event(struct engine_ctx *ctx, unsigned i);
void engine_sync_cleanup(struct engine_ctx *ctx);
/* Completes u with ret (0 or -errno): the whole unit done or failed. */
int engine_sync_done(struct io_unit *u, int ret);

/*
 * Engines that act once per file (filecreate, filestat, filedelete): which
 * file indexes have had their operation. Zeroed to start.
 */
struct engine_once {
	uint8_t *bits;
	size_t len;
};
/* 1 the first time idx is seen (and marks it), 0 after, -ENOMEM. */
int engine_once_first(struct engine_once *o, unsigned idx);
void engine_once_release(struct engine_once *o);

/* Looks an engine up by its fio name; NULL when unknown. */
const struct io_engine_ops *engine_find(const char *name);

/* The i-th registered engine, NULL past the last; engine_at(0) is fio's default. */
const struct io_engine_ops *engine_at(size_t i);

/* The registered names, ", "-separated, for messages ("libaio, io_uring, ..."). */
void engine_names(char *buf, size_t len);
/* The first registered engine with flag set, for messages that point the user to it ("?" if none). */
const char *engine_name_with(unsigned flag);

/*
 * ioengine=: the registered engine called s, or NULL with why filled: a fio
 * engine raidbench does not run (and why not), or an unknown name; both list
 * what is supported.
 */
const struct io_engine_ops *engine_lookup(const char *s, char *why, size_t whylen);

#endif
