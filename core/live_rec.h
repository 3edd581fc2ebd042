/*
 * live_rec.h - the layout of one live record: what the engine's sampler
 * (core/live.c) says about one tick, and the phases a job goes through.
 * The transport (core/ring.h) only moves these; core/live_view.h decodes them.
 * Plain data: no functions, no threading of its own.
 */
#ifndef RB_LIVE_REC_H
#define RB_LIVE_REC_H

#include <stdint.h>

#define RB_CACHELINE 64

enum live_type {
	LIVE_IO = 1,		/* one job (or the total) in one direction, one interval */
	LIVE_STATUS,		/* one job (or the total): phase, depth, errors, progress */
	LIVE_DISK,		/* one device the run touches, one interval */
	LIVE_TICK_END,		/* closes the records of one tick */
	/* one part of the error a job failed with (its w->err), parts in a row as LIVE_TEXT's */
	LIVE_ERROR,
	LIVE_END,		/* the run is over */
	/* one part of a job's latest text (exec's program output under the TUI), parts in a row */
	LIVE_TEXT,
};

#define LIVE_TOTAL 0xffffu

/* A job's text (its NUL included) and the bytes of it one LIVE_TEXT record carries. */
#define LIVE_TEXT_MAX 256
#define LIVE_TEXT_PART 45
#define LIVE_TEXT_PARTS ((LIVE_TEXT_MAX - 1 + LIVE_TEXT_PART - 1) / LIVE_TEXT_PART)

/* The error a job failed with (its NUL included), sent once, in LIVE_TEXT_PART-byte parts. */
#define LIVE_ERROR_MAX 512
#define LIVE_ERROR_PARTS ((LIVE_ERROR_MAX - 1 + LIVE_TEXT_PART - 1) / LIVE_TEXT_PART)

/* Where a job is; a LIVE_STATUS record carries it in ddir. */
enum worker_phase {
	PHASE_SETUP = 0,
	PHASE_LAYOUT,
	PHASE_RAMP,
	PHASE_RUN,
	PHASE_VERIFY,
	PHASE_DONE,
	PHASE_NR		/* not a phase: how many there are */
};

/* A record: one cache line. */
struct live_rec {
	uint32_t seq;		/* producer's sequence number, gaps = drops */
	uint8_t type;		/* enum live_type */
	uint8_t ddir;		/* LIVE_IO: enum rb_ddir; LIVE_STATUS: phase */
	uint16_t job;		/* worker index or LIVE_TOTAL; LIVE_DISK: device index */
	uint64_t t_ns;		/* elapsed since the run started, at the sample */
	union {
		struct {
			uint32_t ios;		/* completed in the interval */
			uint32_t max_ns;	/* interval max completion latency (bucket value) */
			uint64_t bytes;
			uint64_t tot_ios;	/* cumulative, exact even after drops */
			uint64_t tot_bytes;
			uint32_t mean_ns;	/* interval mean completion latency */
			uint32_t p50_ns;
			uint32_t p99_ns;
			uint32_t p999_ns;
		} io;
		struct {
			uint32_t running;	/* workers not done (total) or 1/0 */
			uint32_t inflight;
			uint64_t errors;
			uint64_t eta_s;
			uint64_t interval_ns;
			float percent;
			uint32_t ramp;		/* workers in ramp */
			uint64_t drops;		/* records the ring dropped so far */
		} st;
		struct {
			uint32_t r_ios, w_ios;		/* interval completions */
			uint32_t r_sectors, w_sectors;
			uint32_t r_ticks, w_ticks;	/* ms spent by completed I/Os */
			uint32_t io_ticks;		/* ms busy */
			uint32_t queue_ticks;		/* weighted ms in queue */
			uint32_t interval_ms;
			uint32_t util_meaningful;	/* 0 for NVMe and RAID volumes */
			char name[8];			/* short name; full names in the run result */
		} disk;
		struct {			/* LIVE_TEXT and LIVE_ERROR */
			uint8_t part;		/* 0 .. parts - 1, sent in order, one record after another */
			uint8_t parts;
			uint8_t len;		/* bytes of s used */
			char s[LIVE_TEXT_PART];	/* not NUL-terminated */
		} text;
		uint8_t raw[48];
	} u;
};

_Static_assert(sizeof(struct live_rec) == RB_CACHELINE, "a live record is one cache line");
_Static_assert(sizeof(((struct live_rec *)0)->u.text) <= sizeof(((struct live_rec *)0)->u.raw),
	       "a text part fits in a record");

#endif
