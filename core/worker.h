/*
 * worker.h - one job clone: its files, its engine context, its buffers and
 * the I/O loop that runs on its own thread.
 *
 * Threading contract: everything in struct worker is owned by the worker's
 * thread while it runs, except
 *   - the pub_* counters, which the worker stores (relaxed, single writer)
 *     and the sampler thread loads; totals are exact after the join;
 *   - stop, which any thread may set (relaxed) to end the run early;
 *   - phase, stored by the worker (release), loaded by the sampler (acquire);
 *   - ts.dir[].clat_hist buckets, stored with relaxed atomics (live_bump) so
 *     the engine thread can load them for interval percentiles;
 *   - text, a mailbox (core/mailbox.h) the worker's engine puts its latest
 *     text in (exec's program output under the TUI) and the sampler takes;
 *   - err once pub_failed is set: the worker writes err, then stores
 *     pub_failed (release) and never writes err again; the sampler loads
 *     pub_failed (acquire) and may then read err (the job failed: LIVE_ERROR).
 * The runner (core/run.c) builds workers, starts and joins their threads,
 * and reads ts only after the join.
 */
#ifndef RB_WORKER_H
#define RB_WORKER_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "guard.h"
#include "job.h"
#include "live_rec.h"
#include "mailbox.h"
#include "rand.h"
#include "stats.h"

struct flow;

struct worker_file {
	char *path;
	int fd;			/* -1 once the run is over (worker_finish) or for a no-data engine */
	bool was_open;		/* a real file or device the run opened */
	bool is_blockdev;
	bool shared;		/* filename= given: clones share it */
	uint64_t real_size;	/* file or device size at open */
	uint64_t start;		/* first byte of the region used */
	uint64_t size;		/* bytes of the region, a multiple of the min bs */
	uint64_t reach;		/* the region unrounded (fio's io_size): where an I/O may end */
	uint64_t seq_end;	/* region-relative end of the file, for rand_seq_offset */
	uint64_t next_seq[DDIR_RWDIR_CNT];	/* sequential position per direction, as fio */
	uint64_t last_start[DDIR_RWDIR_CNT];	/* offset of the pass's last I/O, UINT64_MAX none */
	bool done;		/* no offset for the direction picked this pass (fio's file done) */
	bool tw_pending;	/* randtrimwrite: the block just trimmed awaits its write */
	uint64_t tw_off, tw_len;
	/* zonemode=strided: the current zone, the position in it, bytes done there */
	uint64_t zone_start, zone_pos, zone_done;
	struct rb_randmap *map;	/* blocks of map_bs random I/O covered this pass, NULL without */
	struct rb_dist *dist;	/* random_distribution=zipf, pareto or normal, else NULL */
	struct rb_lfsr lfsr;	/* random_generator=lfsr: the file's blocks, once a pass */
	bool has_lfsr;
	unsigned fs_misses;	/* picks since its last I/O that found it at its end (fsvc_done) */
	/*
	 * verify: bitmaps by the worker's vgran bytes, NULL otherwise: the piece
	 * holds part of a write to read back (written), and the piece is where
	 * such a write begins (wstart); a write runs on to the next start or
	 * unwritten piece; vbits pieces in all
	 */
	uint8_t *written, *wstart;
	uint64_t vbits;
	uint64_t vbase;		/* the pieces of the files before it: its place in readback.order */
	unsigned lbs;		/* logical block size for O_DIRECT checks */
	void *target;		/* the engine's handle (target_open), else NULL */
};

/* What a verify phase reads back beyond the bitmaps (core/worker_readback.c). */
struct readback {
	bool keep_order;	/* files with a random map note their writes in issue order */
	uint64_t *order;	/* the start piece of each write noted (file's vbase added) */
	size_t nr, pos;		/* noted; read back so far */
	unsigned file;		/* the walk by file and offset: where it is */
	uint64_t piece;
};

/*
 * file_service_type: which file the next I/O goes to, fio's way
 * (core/worker_fsvc.c). A pick holds its file for file_service_nr I/Os, or
 * to its end (sequential), then the next is chosen in turn or drawn.
 */
#define FSVC_NONE UINT_MAX
struct fsvc {
	unsigned cur;		/* the file picked last, FSVC_NONE once it is closed (fio) */
	unsigned left;		/* I/Os it gets before the next pick */
	unsigned next;		/* the turn: the file the next round-robin pick asks first */
	unsigned nr_done;	/* files done for this pass (fio's nr_done_files) */
	bool stay;		/* sequential: the file keeps every I/O until its end */
	bool drawn;		/* random or a distribution picks, not turns */
	bool restarts;		/* a distribution: a file at its end starts over, never done */
	struct rb_frand rand;	/* random: the uniform draw, seed table slot 5 */
	struct rb_dist *dist;	/* zipf, pareto, normal: over nr_files << 10, unhashed */
};

struct worker {
	const struct job_spec *job;
	unsigned clone;			/* 0..numjobs-1 */
	unsigned index;			/* global index among all workers */
	int numa_node;			/* its target's node it is placed on, else -1 */
	pthread_t thread;
	bool started;

	struct worker_file *files;
	unsigned nr_files;
	struct fsvc fs;

	const struct io_engine_ops *ops;
	struct engine_ctx *ctx;
	struct io_unit *units;
	unsigned nr_units;
	struct io_unit **free_units;
	unsigned nr_free;
	void *buf_mem;
	size_t buf_len;
	size_t buf_mapped;	/* buf_mem is an mmap of this many bytes (huge pages); 0: malloc'd */

	struct rb_rand rand;		/* offsets, block sizes */
	struct rb_mix mix;		/* read/write directions, as fio picks them */
	struct rb_taus bs_rand[DDIR_RWDIR_CNT];	/* bsrange/bssplit sizes, as fio draws them */
	struct rb_taus fsize_rand;		/* filesize=LOW-HIGH's sizes, as fio draws them */
	struct rb_frand off_rand;	/* random offsets, as fio draws them (worker_offset.c) */
	struct rb_taus seq_rand[DDIR_RWDIR_CNT];	/* percentage_random's choice */
	struct rb_taus zone_rand;	/* random_distribution=zoned's choice of zone */
	bool reseed_loops;		/* each loop draws the same I/Os again (fio's randrepeat) */
	unsigned seq_left;		/* I/Os until a random one (rw=randread:N), fio's td count */
	bool off_use64;			/* off_rand is 64-bit from the first reseed on */
	uint64_t map_bs;		/* the random map's block: the smallest bs of any direction */
	/* bssplit in fio's lookup order: by percentage, ties as written */
	struct bssplit_entry split[DDIR_RWDIR_CNT][RB_MAX_BSSPLIT];
	uint64_t min_bs;
	uint64_t max_bs;
	uint64_t verify_interval;	/* verify: bytes per header (gcd of the write sizes) */
	uint64_t vgran;			/* verify: the written bitmaps' piece, gcd(min bs, interval) */
	uint64_t size_bytes;		/* fio's size=: the regions' bytes, not rounded to the min bs */
	uint64_t io_limit;		/* bytes per loop: io_size=, else size_bytes */
	uint64_t pass_limit;		/* bytes one loop (fio pass) issues: io_limit, or less */
	bool sync_io;			/* units complete in queue(): no slat */
	struct worker_logs *logs;	/* write_*_log files, NULL when none */
	struct vbl *vbl;		/* verify_backlog's pending writes, NULL without */
	struct readback rback;		/* the verify phase's read-back order */
	FILE *iolog;			/* write_iolog, NULL when off */
	struct flow *flow;		/* flow=: the runner's, NULL without flow control */
	uint64_t flow_ios;		/* I/Os this worker counted into its flow */
	uint64_t iolog_t0;		/* the iolog's time zero */
	int iolog_errno;		/* the first write to the iolog that failed: why */

	/* shared with the runner; see the threading contract above */
	const struct guard_consent *consent;
	_Atomic int phase;
	_Atomic bool stop;
	_Atomic uint64_t pub_bytes[DDIR_RWDIR_CNT];
	_Atomic uint64_t pub_ios[DDIR_RWDIR_CNT];
	_Atomic uint64_t pub_inflight;	/* submitted, not completed; ENGINE_F_SYNC: 1 in its syscall */
	_Atomic uint64_t pub_lat_sum[DDIR_RWDIR_CNT];	/* sum of completion latencies, ns */
	_Atomic uint64_t pub_errors;
	uint64_t lat_sum[DDIR_RWDIR_CNT];		/* the worker's own copy */
	_Atomic uint64_t pub_stat_start_ns;	/* when statistics started (after ramp) */
	_Atomic uint64_t pub_plan_bytes;	/* all the job will move, 0 = unknown or timed */
	_Atomic uint64_t pub_ramp_bytes;	/* moved during ramp_time (not in pub_bytes) */
	struct mailbox text;		/* the engine's latest text for the live view; see above */
	_Atomic bool pub_failed;	/* err is final (the job failed); see above */

	uint64_t run_start_ns;		/* the whole run's start, for elapsed */
	struct thread_stat ts;
	char err[512];			/* setup or fatal error, "" when none */
	char note[1024];		/* what went wrong without failing the job (exec_prerun), "" */
	bool setup_wrote;		/* setup failed after writing (laying out a file) */
};

/*
 * CPU and NUMA placement that cannot work (no such node, no usable CPU), for
 * the runner to refuse before any job is set up (fio refuses such a job file
 * outright); the worker thread applies the placement later. 0 or -errno with
 * err naming the job.
 */
int worker_check_placement(const struct job_spec *job, char *err, size_t errlen);

/*
 * Prepares a worker for a job clone: resolves and opens its files through
 * the write guard, lays out files that are missing or short, allocates
 * buffers and the engine context. Runs on the caller's thread, before any
 * worker starts, so a bad target stops the run before any I/O. Returns 0 or
 * -errno with w->err filled.
 */
int worker_setup(struct worker *w, const struct job_spec *job, unsigned clone,
		 unsigned index, const struct guard_consent *consent);

/* Thread body: runs the job; returns NULL. Errors land in w->ts.error/w->err. */
void *worker_main(void *arg);

/*
 * The run is over (the thread joined): closes every descriptor the worker
 * holds on its targets (the guard's exclusive claim ends with the last) and
 * frees its engine context and buffers; ts and each file's path, kind and
 * size stay for the report.
 */
void worker_finish(struct worker *w);

/* Frees files, buffers and the engine context (not ts). */
void worker_release(struct worker *w);

#endif
