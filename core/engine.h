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
	unsigned file_idx;
	unsigned idx;		/* index in the worker's unit array */
	int error;		/* 0 or positive errno, set on completion */
	uint32_t resid;		/* bytes not transferred (short I/O) */
	uint64_t start_ns;	/* set by the worker */
	uint64_t issue_ns;
	uint64_t numberio;	/* sequence number, for verify headers */
	void *engine_priv;	/* per-unit engine data (iocb) */
};

enum engine_queue_result {
	ENGINE_QUEUED = 0,	/* held for commit(); completes via getevents() */
	ENGINE_COMPLETED = 1,	/* done synchronously; error/resid are set */
	ENGINE_BUSY = 2,	/* cannot take it now: reap first, then retry */
};

enum {
	ENGINE_F_SYNC = 1u << 0,	/* every queue() completes synchronously */
	ENGINE_F_NODATA = 1u << 1,	/* moves no data (null) */
	ENGINE_F_SETS_ISSUE = 1u << 2,	/* commit() stamps issue_ns itself */
	/* at depth 1 queue() completes on the spot (fio's FIO_SYNCIO shortcut): no slat */
	ENGINE_F_SYNC_AT_DEPTH1 = 1u << 3,
};

struct engine_ctx;

struct io_engine_ops {
	const char *name;
	unsigned flags;
	/* Prepare for at most depth in-flight units; units[] stays valid until cleanup. */
	int (*init)(struct engine_ctx **ctx, unsigned depth, struct io_unit *units,
		    unsigned nr_units, char *err, size_t errlen);
	/* Files are opened by the worker; engines that register fds get them here. */
	int (*register_files)(struct engine_ctx *ctx, const int *fds, unsigned nr);
	int (*queue)(struct engine_ctx *ctx, struct io_unit *u);
	/*
	 * Submit what queue() held. Returns the number of units handed to the
	 * kernel (>= 0) or -errno. now_ns is the clock read after submission,
	 * stamped into issue_ns of the submitted units when F_SETS_ISSUE.
	 */
	int (*commit)(struct engine_ctx *ctx, uint64_t (*clock)(void));
	/* Reap between min and max completions; returns count or -errno. */
	int (*getevents)(struct engine_ctx *ctx, unsigned min, unsigned max);
	/* The i-th unit reaped by the last getevents(); error/resid filled in. */
	struct io_unit *(*event)(struct engine_ctx *ctx, unsigned i);
	void (*cleanup)(struct engine_ctx *ctx);
};

/* Looks an engine up by its fio name; NULL when unknown. */
const struct io_engine_ops *engine_find(const char *name);

/* The i-th registered engine, NULL past the last; engine_at(0) is fio's default. */
const struct io_engine_ops *engine_at(size_t i);

/* The registered names, ", "-separated, for messages ("libaio, io_uring, ..."). */
void engine_names(char *buf, size_t len);

/*
 * ioengine=: the registered engine called s, or NULL with why filled: a fio
 * engine raidbench does not run (and why not), or an unknown name; both list
 * what is supported.
 */
const struct io_engine_ops *engine_lookup(const char *s, char *why, size_t whylen);

#endif
