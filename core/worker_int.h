/* worker_int.h - what the worker's own files share; not for other modules. */
#ifndef RB_WORKER_INT_H
#define RB_WORKER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "worker.h"

int worker_open_files(struct worker *w, char *err, size_t errlen);
void worker_close_files(struct worker *w);

/*
 * On the job's own thread, before its I/O (core/worker_thread.c): its CPUs,
 * NUMA node and nice, its units and their buffers, its engine context.
 * 0, or -errno with msg filled.
 */
int worker_thread_setup(struct worker *w, char *msg, size_t msglen);
/* The engine's context, once: by the job's thread as it ends, else by finish or release. */
void worker_engine_release(struct worker *w);
/* len bytes (a multiple of 8) of buf from r: buffer contents no device can compress */
void worker_fill_random(struct rb_rand *r, void *buf, size_t len);

/*
 * The next offset for an I/O of bs bytes in direction ddir, relative to the
 * region start of f: sequential (with rw=...:N holes), random through the
 * random map, uniform with norandommap (aligned to blockalign), or from a
 * non-uniform distribution. Always aligned and inside [0, f->size - bs].
 */
uint64_t worker_pick_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t bs);


/*
 * Random offsets as fio draws them (core/worker_offset.c). Setup seeds the
 * generators for the job's thread number (1-based, clones consecutive) from
 * seed (randseed, or the clock without randrepeat) and builds the random
 * maps; 0 or -ENOMEM with err filled.
 */
int worker_offsets_setup(struct worker *w, uint64_t seed, unsigned thread_nr, char *err,
			 size_t errlen);
/* A new loop: every block free again; with reseed the draws start over as well. */
void worker_offsets_new_loop(struct worker *w, bool reseed);
/* percentage_random below 100: whether the next I/O of ddir goes to a random offset. */
bool worker_draw_random(struct worker *w, int ddir);
/*
 * A random offset of direction ddir in f's region (relative to its start):
 * drawn uniformly over the aligned starts (or the file's next lfsr block),
 * moved on to the next free block when the random map has it covered.
 * -ENOSPC when the map or lfsr has no block left (the pass is over) or no
 * I/O fits the region.
 */
int worker_rand_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t *off);
/*
 * fio's get_next_rand_block: the job's random_distribution picks (uniform,
 * zoned, zipf, pareto, normal); a timed job whose file has no block left
 * starts over on it once. The offset may lie where no I/O fits (zipf and
 * the like count a partial last block): the caller checks.
 */
int worker_rand_block(struct worker *w, struct worker_file *f, int ddir, uint64_t *off);
/* A random pass over f gives each block once (map or lfsr), so it ends when none is left. */
static inline bool worker_file_covers(const struct worker_file *f)
{
	return f->map || f->has_lfsr;
}
/*
 * A sequential job's next offset in direction ddir (relative to f's region),
 * fio's way: on from the direction's last I/O, rw=...:N's hole added after
 * the first; a hole that lands at or past the file's end wraps to the start
 * (N < 0: to N before the region's end). The region's end is fio's, not
 * rounded to whole blocks (f->reach), and so is the file's (f->seq_end).
 * -ENOSPC where fio finds the file done for the pass: the last I/O reached
 * the file's end, the offset is at or past the region's end, or an I/O of the
 * direction's smallest size would cross the file's end (sizes of a range
 * must fit the region: the caller draws one that does). A timed job on one
 * file starts over once an I/O reached the region's end. Does not move on.
 */
int worker_seq_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t *off);
/*
 * fio's fio_file_reset inside a pass (a timed job's full map, a file a
 * file_service_type distribution found at its end): every block free, the
 * sequential picks back at the start, the draws going on.
 */
void worker_file_restart(struct worker *w, struct worker_file *f);
/* Marks an I/O in the map; returns len cut to the run of free blocks at off. */
uint64_t worker_map_mark(struct worker *w, struct worker_file *f, int ddir, uint64_t off,
			 uint64_t len);

/*
 * Whether the end of a loop is also the end of one pass of fio's I/O loop,
 * where fio reseeds (randrepeat); where it is not, fio goes on drawing and
 * counts the bytes of all loops together.
 */
bool worker_loop_ends_pass(const struct worker *w);
/*
 * What bounds the job over all its passes: loops x io_size= (else size=) of
 * its own direction(s), as fio's; UINT64_MAX where the product overflows.
 */
static inline uint64_t worker_job_cap(const struct worker *w)
{
	return w->io_limit <= UINT64_MAX / w->job->loops ? w->io_limit * w->job->loops : UINT64_MAX;
}

/* The bytes one loop issues at most: io_limit, or the region where fio's pass ends there. */
uint64_t worker_pass_limit(const struct worker *w);
/*
 * fio's further pass after the loops: what it may move (0: none) once the
 * passes so far moved `moved` bytes, `own` of them in the job's own
 * direction(s). The one copy of the rule: another_pass() and
 * worker_plan_bytes() both ask it.
 */
uint64_t worker_further_pass(const struct worker *w, uint64_t moved, uint64_t own);
/* verify=, do_verify, a job that writes, not verify_only: a read-back after each pass */
bool worker_verifies_writes(const struct job_spec *job);
/* verify_only on a job that writes: a dry run of each pass, then its read-back. */
bool worker_dry_runs(const struct job_spec *job);
/* All the bytes a size-bound job moves (passes, read-backs, further passes); 0 if timed. */
uint64_t worker_plan_bytes(const struct worker *w);

/*
 * file_service_type: the file of the next I/O (core/worker_fsvc.c). Setup
 * seeds the choice from seed table slot 5; 0, -EINVAL or -ENOMEM with err.
 */
int worker_fsvc_setup(struct worker *w, uint64_t seed, unsigned thread_nr, char *err,
		      size_t errlen);
void worker_fsvc_release(struct worker *w);
/* A new fio pass: its files were closed, no pick is held; reseed: the draws start over. */
void worker_fsvc_new_pass(struct worker *w, bool reseed);
/* A new pick drawn (random, a distribution) among the files not done. */
unsigned worker_fsvc_choose(struct worker *w);
/*
 * The picked file f has no I/O for the direction: no pick is held, and f is
 * done for the pass, or under a distribution starts over (fio's). Returns
 * true when every file is done: the pass is over.
 */
bool worker_fsvc_done(struct worker *w, struct worker_file *f);

/*
 * fio's get_next_file: the held pick while it has I/Os left (sequential: to
 * the file's end), else the next file in turn that is not done, or one
 * drawn. Some file must not be done (worker_fsvc_done ends the pass first).
 */
static inline unsigned worker_fsvc_pick(struct worker *w)
{
	struct fsvc *fs = &w->fs;
	unsigned i, n;

	/* one file: every rule picks it (its end ends the pass, worker_fsvc_done) */
	if (w->nr_files == 1)
		return 0;
	if (fs->cur != FSVC_NONE) {
		if (fs->stay)
			return fs->cur;
		if (fs->left) {
			fs->left--;
			return fs->cur;
		}
	}
	if (fs->drawn)
		return worker_fsvc_choose(w);
	i = fs->next;
	for (n = 0; w->files[i].done && n < w->nr_files; n++)
		i = i + 1 == w->nr_files ? 0 : i + 1;
	fs->next = i + 1 == w->nr_files ? 0 : i + 1;
	fs->cur = i;
	/* roundrobin:0 wraps to the most: fio's, the file is held to its end */
	fs->left = w->job->file_service_nr - 1;
	return i;
}

/* latency_target's queue depth search (core/worker_lat.c) */
struct lat_target {
	bool on;		/* latency_target set */
	bool done;		/* the search has ended: the job stops issuing */
	unsigned qd;		/* I/Os allowed in flight now */
	unsigned low, high;	/* last depth that passed, first that failed */
	unsigned stable;	/* windows passed just under high */
	uint64_t win_start_ns, win_ios, win_failed;
};
void lat_target_init(struct lat_target *lt, const struct job_spec *job, uint64_t now);
/* One completion of total latency lat_ns at time now. */
void lat_target_complete(struct lat_target *lt, const struct job_spec *job, uint64_t lat_ns,
			 uint64_t now);

/* write_iolog: fio's iolog version 3 of the I/Os issued (core/worker_iolog.c) */
int worker_iolog_open(struct worker *w, char *err, size_t errlen);
void worker_iolog_io(struct worker *w, const struct io_unit *u);
int worker_iolog_close(struct worker *w);

/*
 * Whether fio keeps a file's writes in write order for their read-back: it
 * has fio's random map (lfsr has none); else they are sorted by offset.
 */
static inline bool worker_write_order(const struct worker *w, const struct worker_file *f)
{
	return f->map != NULL;
}

/* The verify phase's read-back: the pass's intact writes (core/worker_readback.c) */
/* A write issued: noted in order where the file keeps it (worker_write_order). 0 or -ENOMEM. */
int readback_issued(struct worker *w, unsigned file_idx, uint64_t offset);
/* A write issued: it is read back (unless it fails), and any earlier one it lands on is not. */
void readback_written(struct worker *w, struct worker_file *f, uint64_t offset, uint64_t len);
/* A write that failed or came back short: not read back (fio's unlog_io_piece). */
void readback_unwritten(struct worker *w, struct worker_file *f, uint64_t offset, uint64_t len);
/* A new pass: nothing to read back. */
void readback_clear(struct worker *w);
/* The verify phase starts: from the first write again. */
void readback_rewind(struct worker *w);
/* The next write to read back, whole: false once there is none. */
bool readback_next(struct worker *w, unsigned *file_idx, uint64_t *offset, uint64_t *len);
void readback_free(struct worker *w);

/* verify_backlog: writes awaiting their read-back (core/worker_backlog.c) */
struct vbl_ent {
	uint64_t offset;
	uint32_t len;
	unsigned file_idx;
};
/* Sets w->vbl when the job has a backlog (after the units exist): 0 or -ENOMEM. */
int vbl_new(struct worker *w);
void vbl_free(struct worker *w);
/* A write issued: 0 or -ENOMEM. */
int vbl_log(struct worker *w, unsigned file_idx, uint64_t offset, uint32_t len);
/* A write failed: it is not read back. */
void vbl_unlog(struct worker *w, unsigned file_idx, uint64_t offset, uint32_t len);
/* Whether the next I/O is a read-back; last_ddir: the last I/O to complete. */
bool vbl_due(struct worker *w, int last_ddir);
/* The next write to read back (in_batch: one of the current batch); false when none. */
bool vbl_pop(struct worker *w, struct vbl_ent *out, bool in_batch);
/* Whether unit unit_idx, when it completes, is a read-back to check. */
void vbl_mark_unit(struct worker *w, unsigned unit_idx, bool verifies);
bool vbl_unit_verifies(const struct worker *w, unsigned unit_idx);

/* fio's log files (core/worker_log.c) */
int worker_logs_open(struct worker *w, char *err, size_t errlen);
void worker_logs_start(struct worker *w, uint64_t base_ns);
void worker_logs_io(struct worker *w, int ddir, uint32_t bytes, uint64_t slat, uint64_t clat,
		    uint64_t lat, uint64_t comp_ns, uint64_t offset);
/* Flushes the last window (end_ns) and closes; 0 or -errno (a full disk shows here). */
int worker_logs_close(struct worker *w, uint64_t end_ns);

#endif
