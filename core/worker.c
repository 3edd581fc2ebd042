/*
 * worker.c - the I/O loop of one job clone: choose direction, block size and
 * offset; hand units to the engine; reap; account every completion into the
 * clone's own statistics. Then the verify read-back.
 *
 * The hot path takes no lock and calls nothing that allocates. It never
 * prints: failures land in w->err and w->ts.error for the runner to report.
 */
#include <errno.h>
#include <limits.h>
#include <numa.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bufcat.h"
#include "clock.h"
#include "flow.h"
#include "job_cmd.h"
#include "live.h"
#include "verify.h"
#include "numa_place.h"
#include "worker.h"
#include "worker_int.h"

/* Per-pass state of the generator; lives on the worker thread's stack. */
struct io_state {
	uint64_t stat_start_ns;		/* statistics begin (after ramp) */
	uint64_t end_ns;		/* 0 = no time limit */
	bool counting;			/* ramp over */
	uint64_t loop_bytes;		/* issued in this loop */
	uint64_t phase_bytes;		/* issued in all loops of the main phase */
	uint64_t loop_written;		/* bytes written or trimmed in this loop */
	bool exp_verify;		/* experimental_verify: fio's budget for the read-back */
	uint64_t verified;		/* experimental_verify: bytes read back in all loops */
	uint64_t vphase_bytes;		/* read back by the verify phases of all passes */
	uint64_t backlog_bytes;		/* read back by verify_backlog in the write phases */
	uint64_t pass_mark;		/* the bytes moved when the last further pass began */
	uint64_t vphase_ios;
	unsigned passes;		/* fio's passes begun (its do_io calls), for number_ios */
	unsigned loop;
	/*
	 * a sequential pick of a random job failed (the pass or file is over):
	 * fio's I/O unit keeps the flag that spares the map, so the next pick
	 * does not mark it either (exact at iodepth 1, where the unit is reused)
	 */
	bool stale_nomark;
	uint64_t issued[DDIR_RWDIR_CNT];
	uint64_t issued_bytes[DDIR_RWDIR_CNT];
	uint64_t rate_start_ns;
	unsigned writes_since_sync;
	unsigned since_think;
	uint64_t numberio;
	bool verifying;
	bool verify_each_loop;		/* fio verifies what each loop wrote before the next */
	bool loop_break;		/* the main phase stopped at a loop's end for that */
	bool failed;			/* a fatal error stopped issuing */
	bool dry;			/* verify_only: the writes are generated, not issued */
	int last_ddir;			/* verify_backlog: the direction of the last completion */
	bool full;			/* fill_device: the device or file system is full */
	struct lat_target lat;		/* latency_target's depth search */
	uint64_t dir_start_ns;
	/* completions accounted but not yet folded into ts and published (settle()) */
	struct lat_acc acc_clat[DDIR_RWDIR_CNT], acc_lat[DDIR_RWDIR_CNT], acc_slat[DDIR_RWDIR_CNT];
	unsigned unsettled;
	uint64_t settled_ns;		/* clock at the last settle() */
	uint64_t last_comp;		/* clock of the last reap(): the next I/O's start */
};

static inline bool worker_stopped(struct worker *w)
{
	return atomic_load_explicit(&w->stop, memory_order_relaxed);
}

static void set_error(struct worker *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_error(struct worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->ts.error)
		return;
	w->ts.error = err;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof(w->err), fmt, ap);
	va_end(ap);
	/* err is final from here (ts.error stops any other set_error); pairs with the
	 * sampler's acquire load in core/live.c, which then reads err. An error of 0
	 * is no failure for the report (run_end): not for the live view either */
	if (err)
		atomic_store_explicit(&w->pub_failed, true, memory_order_release);
}

/*
 * The size of the next I/O, fio's way: a size is drawn (bsrange: uniform from
 * the minimum up, rounded down to a multiple of it; bssplit: by the weights),
 * and drawn again until it fits the room left before the region's end. 0 when
 * not even the smallest size fits.
 */
static uint64_t pick_bs(struct worker *w, int ddir, uint64_t room)
{
	const struct job_spec *job = w->job;
	unsigned n = job->nr_bssplit[ddir], i;
	uint64_t min = job->bs[ddir], max = job->bs_max[ddir], len = min;

	if (!n && min >= max)
		return min;
	if (min > room)
		return 0;
	do {
		uint32_t r = rb_taus_next(&w->bs_rand[ddir]);

		if (!n) {
			len = min + (uint64_t)((double)max * (r / 4294967296.0));
		} else {
			uint64_t perc = 0;

			for (i = 0; i < n; i++) {
				if (!w->split[ddir][i].perc)
					continue;
				len = w->split[ddir][i].bs;
				perc += w->split[ddir][i].perc;
				if (r / perc <= UINT32_MAX / 100u && len <= room)
					break;
			}
		}
		len -= len % min;
		if (len > max)
			len = max;
	} while (len > room);
	return len;
}

/* The direction of the next I/O on file f. */
static int pick_ddir(struct worker *w, const struct worker_file *f)
{
	unsigned rw = w->job->rw;

	/* (rand)trimwrite, as fio: trim a block, then write the block just trimmed */
	if ((rw & RW_TRIM) && (rw & RW_WRITE)) {
		if (rw & RW_RANDOM)
			return f->tw_pending ? DDIR_WRITE : DDIR_TRIM;
		return f->next_seq[DDIR_WRITE] == f->next_seq[DDIR_TRIM] ? DDIR_TRIM : DDIR_WRITE;
	}
	if ((rw & RW_READ) && (rw & RW_WRITE))
		return rb_mix_next(&w->mix) ? DDIR_WRITE : DDIR_READ;
	if (rw & RW_WRITE)
		return DDIR_WRITE;
	if (rw & RW_TRIM)
		return DDIR_TRIM;
	return DDIR_READ;
}

/*
 * zonemode=strided: zonesize bytes of I/O inside a zone of zonerange bytes,
 * then on to the zone zoneskip bytes past its end, back to the start at the
 * end of the region.
 */
static uint64_t strided_offset(struct worker *w, struct worker_file *f, uint64_t bs, bool random)
{
	const struct job_spec *job = w->job;
	uint64_t range = job->zonerange ? job->zonerange : job->zonesize, len;

	if (f->zone_done >= job->zonesize) {
		f->zone_start += range + job->zoneskip;
		f->zone_pos = 0;
		f->zone_done = 0;
		if (f->zone_start + bs > f->size)
			f->zone_start = 0;
	}
	len = f->size - f->zone_start < range ? f->size - f->zone_start : range;
	f->zone_done += bs;
	if (len < bs)
		return f->zone_start;
	if (random)
		return f->zone_start + rb_rand_below(&w->rand, (len - bs) / w->min_bs + 1) * w->min_bs;
	if (f->zone_pos + bs > len)
		f->zone_pos = 0;
	f->zone_pos += bs;
	return f->zone_start + f->zone_pos - bs;
}

/* Offset relative to the file's region start. */
uint64_t worker_pick_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t bs)
{
	const struct job_spec *job = w->job;
	uint64_t off, last = f->size - bs;
	bool random = job_is_random(job) &&
		      (job->percentage_random[ddir] >= 100 || worker_draw_random(w, ddir));

	if (job->zone_strided && job->zonesize)
		return strided_offset(w, f, bs, random);

	if (random) {
		if (worker_rand_block(w, f, ddir, &off))
			off = 0;	/* the pass is over; the caller's byte count ends it */
		else if (f->map)
			worker_map_mark(w, f, ddir, off, bs);
		if (off > last)
			off = last - last % w->min_bs;
		return off;
	}
	/* a sequential pass that is over: the next one starts at the start */
	if (worker_seq_offset(w, f, ddir, &off)) {
		f->next_seq[ddir] = 0;
		if (worker_seq_offset(w, f, ddir, &off))
			off = 0;
	}
	f->next_seq[ddir] = off + bs;
	return off;
}

static void scramble(struct worker *w, struct io_unit *u)
{
	const struct job_spec *job = w->job;

	if (job->verify) {
		uint32_t k, vi = (uint32_t)w->verify_interval;

		/* a header every verify_interval bytes, so writes of mixed sizes verify too */
		for (k = 0; k + vi <= u->len; k += vi)
			verify_fill(job->verify, (char *)u->buf + k, vi, u->offset + k,
				    job->randseed + w->index, u->numberio);
		return;
	}
	if (job->zero_buffers)
		return;
	if (job->refill_buffers)
		worker_fill_random(&w->rand, u->buf, u->len);
	else if (job->scramble_buffers)
		/* defeats naive dedupe at the cost of two stores, as fio's scramble */
		((uint64_t *)u->buf)[0] ^= u->offset ^ rb_rand_u64(&w->rand);
}

static void loop_reset(struct worker *w)
{
	unsigned i;

	for (i = 0; i < w->nr_files; i++) {
		memset(w->files[i].next_seq, 0, sizeof(w->files[i].next_seq));
		memset(w->files[i].last_start, 0xff, sizeof(w->files[i].last_start));
		w->files[i].tw_pending = false;
		w->files[i].done = false;
		w->files[i].fs_misses = 0;
	}
	w->fs.nr_done = 0;
}

/*
 * The generator's state at a new loop: offsets from the start, draws again
 * with randrepeat; where fio's pass ends (pass), its files were closed, so
 * no file is held.
 */
static void new_loop(struct worker *w, bool reset, bool reseed, bool pass)
{
	int d;

	if (reset)
		loop_reset(w);
	if (pass)
		worker_fsvc_new_pass(w, reseed);
	worker_offsets_new_loop(w, reseed);
	if (reseed) {
		rb_mix_new_loop(&w->mix);
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			rb_taus_restart(&w->bs_rand[d]);
	}
}

/*
 * number_ios, fio's way: one limit on the I/Os of all passes together
 * (reads, writes, trims and read-backs, counted as issued), number_ios x
 * loops; a pass that reaches it ends, and so does each pass after it at
 * once. (rand)trimwrite's I/Os come in pairs: fio doubles number_ios as
 * each pass begins (do_io), so its limit grows pass by pass. A timed job
 * has none (fio's do_io runs on while time_based).
 */
static bool number_ios_reached(const struct worker *w, const struct io_state *st)
{
	const struct job_spec *job = w->job;
	uint64_t ios = st->issued[DDIR_READ] + st->issued[DDIR_WRITE] + st->issued[DDIR_TRIM] +
		       st->vphase_ios;
	uint64_t n = job->number_ios;
	unsigned k;

	if (!n || job->time_based)
		return false;
	if ((job->rw & RW_TRIM) && (job->rw & RW_WRITE))
		for (k = 0; k < st->passes && n <= UINT64_MAX / 2; k++)
			n *= 2;
	return n > UINT64_MAX / job->loops || ios >= n * job->loops;
}

/*
 * After the last loop and its read-back, fio runs the whole job again while
 * the bytes moved (writes, reads and read-backs of all passes) fall short of
 * io_size= (else size=) by a block or more and number_ios is not reached: its
 * verify clears the "file done" mark that otherwise ends a pass that ran out
 * of region early (rw=write:N's holes); io_size= runs passes with or without
 * a verify. Sets st up for that pass. (A quirk of fio's, matched on purpose:
 * each pass stays inside the region and is verified in full.)
 */
static bool another_pass(struct worker *w, struct io_state *st)
{
	const struct job_spec *job = w->job;
	uint64_t bytes = st->issued_bytes[DDIR_READ] + st->issued_bytes[DDIR_WRITE] +
			 st->issued_bytes[DDIR_TRIM] + st->vphase_bytes;
	uint64_t own, budget;

	if (st->exp_verify || st->failed || st->full || st->lat.done || w->ts.error ||
	    worker_stopped(w))
		return false;
	/*
	 * within a pass fio stops at loops x io_size of its own direction(s),
	 * counted over all passes, and at size= bytes of this pass (pass_limit);
	 * trims count in the bytes moved, and as the own direction of a job
	 * that only trims (trimwrite's own are its writes)
	 */
	own = (job->rw & RW_READ) && (job->rw & RW_WRITE) ?
	      st->issued_bytes[DDIR_READ] + st->issued_bytes[DDIR_WRITE] - st->backlog_bytes :
	      (job->rw & RW_WRITE) ? st->issued_bytes[DDIR_WRITE] :
	      (job->rw & RW_READ) ? st->issued_bytes[DDIR_READ] : st->issued_bytes[DDIR_TRIM];
	budget = worker_further_pass(w, bytes, own);
	if (!budget)
		return false;
	/* runtime= ends the job's passes too (fio's keep_running checks it first); a pass
	 * that moved nothing would only be followed by another like it */
	if ((st->end_ns && rb_now_ns() >= st->end_ns) || !bytes || bytes == st->pass_mark)
		return false;
	if (number_ios_reached(w, st))
		return false;
	st->pass_mark = bytes;
	st->passes++;
	st->loop_bytes = w->pass_limit - budget;
	st->loop_written = 0;
	new_loop(w, true, w->reseed_loops, true);
	return true;
}

/* Fills u with a read-back of a logged write: verify_backlog's batch or its leftovers. */
static bool fill_readback(struct worker *w, struct io_unit *u, bool in_batch)
{
	struct vbl_ent e;

	if (!vbl_pop(w, &e, in_batch))
		return false;
	u->ddir = DDIR_READ;
	u->len = e.len;
	u->offset = e.offset;
	u->fd = w->files[e.file_idx].fd;
	u->path = w->files[e.file_idx].path;
	u->target = w->files[e.file_idx].target;
	u->file_idx = e.file_idx;
	u->error = 0;
	u->resid = 0;
	u->numberio = 0;
	vbl_mark_unit(w, u->idx, true);
	return true;
}

/*
 * verify_backlog's read-back in the write phase, counted as fio counts it:
 * outside the job's byte budget and the read/write mix, inside rate= and
 * number_ios.
 */
static bool gen_backlog(struct worker *w, struct io_state *st, struct io_unit *u)
{
	if (!fill_readback(w, u, true))
		return false;
	st->issued[DDIR_READ]++;
	st->issued_bytes[DDIR_READ] += u->len;
	st->backlog_bytes += u->len;
	return true;
}

/*
 * A random job's sequential pick (percentage_random=, rw=randread:N), fio's
 * way: on from the direction's last I/O. At the end of the file a random
 * block instead (left unmarked); at the end of a region that stops short
 * of the file's end (a bigger file or device, a tail smaller than a block)
 * the pass is over; with time_based and one file the start again.
 * -ENOSPC when the pass is over (or the map has no block left).
 */
static int rand_seq_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t *off)
{
	uint64_t end = f->seq_end > f->size ? f->seq_end : f->size;

	if (f->next_seq[ddir] >= f->size && w->job->time_based && w->nr_files == 1)
		f->next_seq[ddir] = 0;
	if (f->next_seq[ddir] >= end)
		return worker_rand_block(w, f, ddir, off);
	if (f->next_seq[ddir] >= f->size)
		return -ENOSPC;
	*off = f->next_seq[ddir];
	return 0;
}

/* Fills u with the next I/O of the main phase; false when the phase is over. */
static bool gen_main(struct worker *w, struct io_state *st, struct io_unit *u, uint64_t now)
{
	const struct job_spec *job = w->job;
	struct worker_file *f;
	uint64_t bs, off = 0;
	bool rtw_write, seq, rand_fit, rand_seq = false, merged, hit = false;
	unsigned held_cur = 0, held_left = 0, held_next = 0;
	int ddir;

	if (st->failed || st->full || st->lat.done || worker_stopped(w))
		return false;
	if (st->end_ns && now >= st->end_ns)
		return false;
	/*
	 * the job stops at loops x io_size (else size) of its own direction(s)
	 * however its passes fell, as fio's: a pass need not end at io_size=
	 */
	if (!job->time_based && st->phase_bytes >= worker_job_cap(w))
		return false;
	/* number_ios ends a pass early, and each loop after it that begins over it */
next_loop:
	if (st->loop_bytes >= w->pass_limit || number_ios_reached(w, st)) {
		if (!job->time_based && ++st->loop >= job->loops)
			return false;
		/* one fio pass that runs on past a loop's end: what a loop overran counts on */
		merged = !worker_loop_ends_pass(w);
		st->loop_bytes = merged && st->loop_bytes > w->pass_limit ? st->loop_bytes - w->pass_limit
									 : 0;
		/*
		 * fio verifies where its pass ends, not inside a pass that runs on:
		 * random writes without a map read back once what all the loops
		 * of the pass wrote, a block written in several of them once
		 */
		if (st->verify_each_loop && !st->loop_break && !merged) {
			/* the next loop starts once this one is verified (worker_main) */
			st->loop_break = true;
			st->loop--;
			st->loop_bytes = w->pass_limit;
			return false;
		}
		st->loop_break = false;
		st->loop_written = 0;
		/* a sequential pass that runs on keeps its place (rw=write:N wrapping) */
		/* fio draws each loop's I/Os again with randrepeat where its pass ends */
		new_loop(w, !merged || job_is_random(job), w->reseed_loops && !merged, !merged);
		if (!merged)
			st->passes++;
		if (number_ios_reached(w, st)) {
			st->loop_bytes = w->pass_limit;
			goto next_loop;
		}
	}
	/*
	 * experimental_verify: fio counts the read-back as written bytes, so
	 * the loops end once writes and read-backs together reach loops x size
	 */
	if (st->exp_verify && st->phase_bytes + st->verified >= worker_job_cap(w))
		return false;
	if (w->vbl && vbl_due(w, st->last_ddir))
		return gen_backlog(w, st, u) || gen_main(w, st, u, now);
	/* zonemode=strided's loop end below takes its pick back (not a draw it took) */
	if (job->zone_strided) {
		held_cur = w->fs.cur;
		held_left = w->fs.left;
		held_next = w->fs.next;
	}
	/*
	 * the file, as file_service_type picks it; a file found with no I/O
	 * below (the picked file has no offset for the direction picked: a
	 * sequential one at its end, a full map, nothing that fits) is done
	 * for the pass or starts over (worker_fsvc_done), and the pick comes
	 * back here with a new direction, not through a call per file, so
	 * thousands of files that fill at once take no stack
	 */
next_file:
	f = &w->files[worker_fsvc_pick(w)];
	ddir = pick_ddir(w, f);
	rtw_write = ddir == DDIR_WRITE && f->tw_pending;
	/* sequential I/O: the offset first, then a size (worker_seq_offset) */
	seq = !rtw_write && !job_is_random(job) && !job->zone_strided;
	/* random I/O: the offset first, then a size that fits there, as fio */
	rand_fit = !rtw_write && job_is_random(job) && !job->zone_strided;
	/*
	 * rw=randread:N: every Nth I/O (the job's first included, none with
	 * N=0; randtrimwrite's writes count too) is random, as
	 * percentage_random= may still decide; the others follow rw_sequencer
	 * and leave the map alone
	 */
	hit = false;	/* set anew when a done file sends the pick back to next_file */
	if (job_is_random(job) && !job->zone_strided && job->rw_seq_nr &&
	    !--w->seq_left) {
		hit = true;
		w->seq_left = job->rw_seq_nr;
	}
	if (seq) {
		/*
		 * fio's pick, then the direction's size, or one of a range drawn
		 * to fit before the region's end; where there is no offset or
		 * no size fits, the file is done for the pass (with several
		 * files, the pass is over once each is), whatever io_size= and
		 * loops= allow, and fio does not count the direction it picked
		 * (rw=rw's other direction need not be at its end)
		 */
		bs = worker_seq_offset(w, f, ddir, &off) ? 0 : pick_bs(w, ddir, f->reach - off);
		if (!bs) {
			if ((job->rw & RW_READ) && (job->rw & RW_WRITE))
				rb_mix_unissue(&w->mix);
			if (!worker_fsvc_done(w, f))
				goto next_file;
			st->loop_bytes = w->pass_limit;
			return gen_main(w, st, u, now);
		}
	} else if (rand_fit) {
		int ret = 0;

		rand_seq = !hit || (job->percentage_random[ddir] < 100 &&
				    !worker_draw_random(w, ddir));
		if (rand_seq && !hit && job->rw_sequencer == RW_SEQ_IDENTICAL)
			off = f->last_start[ddir] == UINT64_MAX ? 0 : f->last_start[ddir];
		else if (rand_seq)
			ret = rand_seq_offset(w, f, ddir, &off);
		else
			ret = worker_rand_block(w, f, ddir, &off);
		/* fio's get_next_offset: an offset past the region is no offset */
		if (!ret && off >= f->reach)
			ret = -ENOSPC;
		if (ret == -ERANGE) {
			set_error(w, EINVAL, "job '%s': random_distribution=zoned_abs: the zones "
				  "run past the end of %s (%llu bytes)", job->name, f->path,
				  (unsigned long long)f->size);
			st->failed = true;
			return false;
		}
		bs = ret ? 0 : pick_bs(w, ddir, f->reach - off);
		/* and fill_io_u's: an I/O that would run past the end of the file is none */
		if (bs && off + bs > (f->seq_end > f->reach ? f->seq_end : f->reach))
			bs = 0;
		/*
		 * the map is full or nothing fits: the pass is over (the phase, if
		 * it did nothing); fio does not count the direction it picked
		 */
		if (!bs) {
			if ((job->rw & RW_READ) && (job->rw & RW_WRITE))
				rb_mix_unissue(&w->mix);
			st->stale_nomark |= rand_seq;
			if (!worker_fsvc_done(w, f))
				goto next_file;
			if (!st->loop_bytes)
				return false;
			st->loop_bytes = w->pass_limit;
			return gen_main(w, st, u, now);
		}
		if (f->map && !rand_seq && !st->stale_nomark)
			bs = worker_map_mark(w, f, ddir, off, bs);
		st->stale_nomark = false;
	} else {
		bs = rtw_write ? f->tw_len : pick_bs(w, ddir, UINT64_MAX);
	}
	/*
	 * fio issues while fewer bytes than the limit are done, the last I/O
	 * may run past it (size= over files with a partial block each); the
	 * tail of a region smaller than a block is left by the region's end
	 */
	if (!job->time_based && !seq && !rand_fit && !rtw_write &&
	    st->loop_bytes >= w->pass_limit) {
		st->loop_bytes = w->pass_limit;
		w->fs.cur = held_cur;
		w->fs.left = held_left;
		w->fs.next = held_next;
		return gen_main(w, st, u, now);
	}
	f->fs_misses = 0;

	u->ddir = (uint8_t)ddir;
	u->len = (uint32_t)bs;
	if (rtw_write) {
		off = f->tw_off;
		f->tw_pending = false;
	} else if (seq || rand_fit) {
		/* fio's sequential picks go on from the direction's last I/O, random or not */
		f->next_seq[ddir] = off + bs;
		f->last_start[ddir] = off;
	} else if (!rand_fit) {
		off = worker_pick_offset(w, f, ddir, bs);
	}
	if (ddir == DDIR_TRIM && (job->rw & RW_WRITE) && (job->rw & RW_RANDOM)) {
		f->tw_pending = true;
		f->tw_off = off;
		f->tw_len = bs;
	}
	u->offset = f->start + off;
	u->fd = f->fd;
	u->path = f->path;
	u->target = f->target;
	u->file_idx = (unsigned)(f - w->files);
	u->error = 0;
	u->resid = 0;
	u->numberio = st->numberio++;
	vbl_mark_unit(w, u->idx, false);
	if (ddir == DDIR_WRITE) {
		if (!st->dry)
			scramble(w, u);
		if (f->written)
			readback_written(w, f, u->offset, u->len);
		if (vbl_log(w, u->file_idx, u->offset, u->len) ||
		    readback_issued(w, u->file_idx, u->offset)) {
			set_error(w, ENOMEM, "job '%s': out of memory for the list of writes to "
				  "read back", job->name);
			st->failed = true;
			return false;
		}
	}
	/* trimwrite's trims come on top of size=, as fio's: the writes count */
	if (!(ddir == DDIR_TRIM && (job->rw & RW_WRITE))) {
		st->loop_bytes += bs;
		st->phase_bytes += bs;
	}
	if (ddir != DDIR_READ)
		st->loop_written += bs;
	st->issued[ddir]++;
	st->issued_bytes[ddir] += bs;
	return true;
}

/* Verify phase: read back every write the main phase logged. */
static bool gen_verify(struct worker *w, struct io_state *st, struct io_unit *u, uint64_t now)
{
	uint64_t bs, off;
	unsigned fi;

	if (worker_stopped(w) || (st->failed && w->job->verify_fatal))
		return false;
	/* runtime= covers the read-back too: fio verifies nothing once it has passed */
	if (st->end_ns && now >= st->end_ns)
		return false;
	/* with a backlog, what is left is what the phase's read-backs did not reach */
	if (w->vbl) {
		if (!fill_readback(w, u, false))
			return false;
		st->vphase_bytes += u->len;
		st->vphase_ios++;
		return true;
	}
	/* each intact write is read back whole, in fio's order (worker_readback.c) */
	if (!readback_next(w, &fi, &off, &bs))
		return false;
	/*
	 * experimental_verify: fio reads back while all its read-backs so far
	 * stay within what this loop wrote, and counts them against the write
	 * budget
	 */
	if (st->exp_verify) {
		if (st->verified + w->map_bs > st->loop_written)
			return false;
		st->verified += bs;
	}
	u->ddir = DDIR_READ;
	u->len = (uint32_t)bs;
	u->offset = off;
	u->fd = w->files[fi].fd;
	u->path = w->files[fi].path;
	u->target = w->files[fi].target;
	u->file_idx = fi;
	u->error = 0;
	u->resid = 0;
	st->vphase_bytes += bs;
	st->vphase_ios++;
	return true;
}

/*
 * Checks every verify_interval chunk of a unit read back; a job that only
 * reads walks the blocks by their headers' lengths (it does not know the
 * writer's sizes) and stops at the first bad one. 0 or -EILSEQ with msg: the
 * first bad chunk's fault, then which chunk of the unit it is and how many
 * of them are bad.
 */
static int verify_chunks(struct worker *w, const struct io_unit *u, char *msg, size_t len)
{
	uint32_t k, vi = (uint32_t)w->verify_interval, got = u->len - u->resid;
	uint32_t n = 0, bad = 0, first = 0;
	bool walk = !(w->job->rw & RW_WRITE);
	char scratch[64];
	size_t at;

	for (k = 0; k < got && !(walk && bad); k += vi) {
		if (walk) {
			uint32_t l = verify_block_len((const char *)u->buf + k, got - k);

			vi = l ? l : got - k;	/* no header: verify_check says what is wrong */
		}
		if (k + vi > got)
			break;
		n++;
		/* the first fault is the one told; the rest are counted */
		if (verify_check(w->job->verify, (const char *)u->buf + k, vi, u->offset + k,
				 bad ? scratch : msg, bad ? sizeof(scratch) : len) && !bad++)
			first = n;
	}
	/* a read-back is whole intervals: one that checks none, or leaves a tail, says so */
	if (!bad && !walk && (!n || k < got)) {
		snprintf(msg, len, "verify: %u bytes read back at offset %llu are not whole "
			 "%u-byte intervals: %u bytes left unchecked", got,
			 (unsigned long long)u->offset, vi, got - k);
		return -EILSEQ;
	}
	if (!bad)
		return 0;
	at = strlen(msg);
	if (got > vi && walk)
		snprintf(msg + at, len - at, "; block %u of the %u-byte read at offset %llu", first,
			 got, (unsigned long long)u->offset);
	else if (got > vi)
		snprintf(msg + at, len - at, "; interval %u of %u of the %u-byte write at offset "
			 "%llu (%u bad)", first, n, got, (unsigned long long)u->offset, bad);
	return -EILSEQ;
}

/*
 * verify_only: what the read-back checks is what the job would have written,
 * as fio's dry run: the main phase's I/Os are generated, not issued, and each
 * write is logged as if it had completed. A timed job has no end to generate
 * to: its region is taken as written in blocks of the write size.
 */
static void verify_only_log(struct worker *w, struct io_state *st)
{
	const struct job_spec *job = w->job;
	struct io_unit *u = &w->units[0];
	uint64_t off, len, step = job->bs[DDIR_WRITE], vi = w->verify_interval;
	unsigned i;

	if (!job->time_based) {
		st->dry = true;
		/* gen_main marks each write to read back, as it issues it */
		while (gen_main(w, st, u, 0))
			;
		st->dry = false;
		return;
	}
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		uint64_t size = f->size / vi * vi;

		for (off = 0; off < size; off += len) {
			len = size - off < step ? size - off : step;
			readback_written(w, f, f->start + off, len);
		}
	}
}

static void account(struct worker *w, struct io_state *st, struct io_unit *u, uint64_t comp)
{
	const struct job_spec *job = w->job;
	struct thread_stat *ts = &w->ts;
	int ddir = u->ddir;

	st->last_ddir = ddir;
	if ((u->error || u->resid) && ddir == DDIR_WRITE && w->files[u->file_idx].written)
		readback_unwritten(w, &w->files[u->file_idx], u->offset, u->len);
	if (u->error && ddir == DDIR_WRITE)
		vbl_unlog(w, u->file_idx, u->offset, u->len);
	if (u->error && job->fill_device && ddir == DDIR_WRITE &&
	    (u->error == ENOSPC || u->error == EDQUOT)) {
		/* fill_device: a full device ends the job; fio counts that I/O, with no bytes */
		st->full = true;
		u->error = 0;
		u->resid = u->len;
	}
	if (u->error) {
		unsigned coe = job->continue_on_error;
		unsigned bit = ddir == DDIR_READ ? COE_READ : COE_WRITE;
		const char *what = ddir == DDIR_READ ? "read" : ddir == DDIR_WRITE ? "write" : "trim";

		if (!ts->first_error)
			ts->first_error = u->error;
		ts->total_err++;
		atomic_store_explicit(&w->pub_errors, ts->total_err, memory_order_relaxed);
		if (!(coe & bit)) {
			set_error(w, u->error, "job '%s': %s error at offset %llu of %s (%u bytes): "
				  "%s%s", job->name, what,
				  (unsigned long long)u->offset, w->files[u->file_idx].path, u->len,
				  strerror(u->error),
				  u->error == EINVAL && job->direct ?
				  " (with direct=1 the block size, offset and buffer must be "
				  "aligned to the device's logical block size)" : "");
			st->failed = true;
		}
		return;
	}
	/*
	 * an engine that moves no data has nothing to check: fio skips it too
	 * (FIO_FAKEIO); a job that only reads checks what it reads, as fio does
	 */
	if (job->verify && !(w->ops->flags & ENGINE_F_NODATA) &&
	    (st->verifying || vbl_unit_verifies(w, u->idx) ||
	     (ddir == DDIR_READ && !(job->rw & RW_WRITE)))) {
		char msg[400];

		if (verify_chunks(w, u, msg, sizeof(msg))) {
			ts->total_err++;
			if (!ts->first_error)
				ts->first_error = EILSEQ;
			set_error(w, EILSEQ, "job '%s': %s: %s", job->name,
				  w->files[u->file_idx].path, msg);
			st->failed = true;
		}
	}
	if (!st->counting) {
		if (comp < st->stat_start_ns) {
			/* not in the statistics, but moved: the live progress counts it */
			atomic_store_explicit(&w->pub_ramp_bytes, u->len - u->resid +
					      atomic_load_explicit(&w->pub_ramp_bytes,
								   memory_order_relaxed),
					      memory_order_relaxed);
			return;
		}
		st->counting = true;
		rb_mix_reset_counts(&w->mix);
	}
	{
		struct ddir_stat *ds = &ts->dir[ddir];
		uint64_t clat = comp - u->issue_ns, lat = comp - u->start_ns;

		ds->io_bytes += u->len - u->resid;
		ds->total_ios++;
		if (u->resid)
			ds->short_ios++;
		ds->drop_ios += u->dropped;
		lat_acc_add(&st->acc_clat[ddir], clat);
		live_bump(&ds->clat_hist[hist_index(clat)]);
		lat_acc_add(&st->acc_lat[ddir], lat);
		lat_target_complete(&st->lat, job, lat, comp);
		if (job->lat_percentiles)
			ds->lat_hist[hist_index(lat)]++;
		if (!w->sync_io) {
			uint64_t slat = u->issue_ns - u->start_ns;

			lat_acc_add(&st->acc_slat[ddir], slat);
			if (job->slat_percentiles)
				ds->slat_hist[hist_index(slat)]++;
		}
		stat_add_clat_bucket(ts, clat);
		if (w->logs)
			worker_logs_io(w, ddir, u->len - u->resid,
				       w->sync_io ? 0 : u->issue_ns - u->start_ns, clat, lat, comp,
				       u->offset);
		w->lat_sum[ddir] += clat;
		st->unsettled++;
	}
}

/*
 * Folds the completions accounted since the last call into ts's moments and
 * publishes the counters the sampler reads: once per reaped batch, not per
 * I/O (the histograms and ts's counters are exact at every completion).
 */
static void settle(struct worker *w, struct io_state *st, uint64_t now)
{
	int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct ddir_stat *ds = &w->ts.dir[d];

		if (!st->acc_clat[d].n)
			continue;
		lat_stat_fold(&ds->clat, &st->acc_clat[d]);
		lat_stat_fold(&ds->lat, &st->acc_lat[d]);
		lat_stat_fold(&ds->slat, &st->acc_slat[d]);
		/* pairs with the sampler's relaxed loads: counters only, no ordering needed */
		atomic_store_explicit(&w->pub_lat_sum[d], w->lat_sum[d], memory_order_relaxed);
		atomic_store_explicit(&w->pub_bytes[d], ds->io_bytes, memory_order_relaxed);
		atomic_store_explicit(&w->pub_ios[d], ds->total_ios, memory_order_relaxed);
	}
	st->unsettled = 0;
	st->settled_ns = now;
}

/* One I/O at a time (a synchronous engine, or QD1): settle every 64, or 10 ms. */
static inline void settle_sync(struct worker *w, struct io_state *st, uint64_t now)
{
	if (st->unsettled >= 64 || now - st->settled_ns >= 10000000)
		settle(w, st, now);
}

/*
 * A remote target (nbd, libiscsi) has no fd: its fsync is a DDIR_SYNC unit
 * through the engine (an NBD flush, SYNCHRONIZE CACHE), sent with nothing
 * else in flight. 0 or -errno.
 */
static int engine_flush(struct worker *w, unsigned file_idx)
{
	struct io_unit *u;
	int r;

	if (!w->nr_free)
		return -EBUSY;
	u = w->free_units[--w->nr_free];
	u->ddir = DDIR_SYNC;
	u->datasync = w->job->fdatasync_blocks != 0;
	u->file_idx = file_idx;
	u->fd = -1;
	u->path = w->files[file_idx].path;
	u->offset = 0;
	u->len = 0;
	u->start_ns = u->issue_ns = rb_now_ns();
	r = w->ops->queue(w->ctx, u);
	if (r == ENGINE_QUEUED) {
		r = w->ops->commit(w->ctx, NULL);
		if (r >= 0)
			r = w->ops->getevents(w->ctx, 1, 1);
		if (r == 1)
			u = w->ops->event(w->ctx, 0);
		r = r < 0 ? r : r == 1 ? 0 : -EIO;
	} else
		r = r == ENGINE_COMPLETED ? 0 : r < 0 ? r : -EBUSY;
	w->free_units[w->nr_free++] = u;
	return r ? r : -u->error;
}

static void do_fsync(struct worker *w, unsigned file_idx, bool count)
{
	uint64_t t0 = rb_now_ns(), t1;
	int fd = w->files[file_idx].fd, ret;

	if (w->ops->flags & ENGINE_F_REMOTE)
		ret = engine_flush(w, file_idx);
	else if (fd < 0)
		ret = 0;	/* no fd: the engine keeps the target itself (pmemblk), always synchronous */
	else
		ret = (w->job->fdatasync_blocks ? fdatasync(fd) : fsync(fd)) < 0 ? -errno : 0;
	t1 = rb_now_ns();
	if (ret < 0) {
		set_error(w, -ret, "job '%s': fsync failed: %s", w->job->name, strerror(-ret));
		return;
	}
	if (count) {
		w->ts.sync_total++;
		lat_stat_add(&w->ts.sync_lat, t1 - t0);
		w->ts.sync_hist[hist_index(t1 - t0)]++;
	}
}

static inline void put_free(struct worker *w, struct io_unit *u)
{
	w->free_units[w->nr_free++] = u;
}

static int reap(struct worker *w, struct io_state *st, unsigned *inflight, unsigned min)
{
	const struct job_spec *job = w->job;
	unsigned max = job->iodepth_batch_complete_max;
	uint64_t comp;
	int n, i;

	if (max < min)
		max = min;
	if (max > *inflight)
		max = *inflight;
	if (min > max)
		min = max;
	n = w->ops->getevents(w->ctx, min, max);
	if (n < 0) {
		set_error(w, -n, "job '%s': reaping I/O failed: %s", job->name, strerror(-n));
		return n;
	}
	/* one clock read per reaped batch: it is every I/O's completion time here anyway */
	comp = rb_now_ns();
	st->last_comp = comp;
	stat_add_depth(w->ts.complete_map, (unsigned)n);
	w->ts.total_complete++;
	for (i = 0; i < n; i++) {
		struct io_unit *u = w->ops->event(w->ctx, (unsigned)i);

		account(w, st, u, comp);
		put_free(w, u);
	}
	/* folded every 64 completions or 10 ms, as for a synchronous engine: at QD1 a batch is one I/O */
	settle_sync(w, st, comp);
	*inflight -= (unsigned)n;
	atomic_store_explicit(&w->pub_inflight, *inflight, memory_order_relaxed);
	return n;
}

/* wait_nr > 0: the caller reaps at least that many next; an engine that can waits in the same call */
static int commit(struct worker *w, unsigned *queued, unsigned *inflight, unsigned wait_nr)
{
	int n = wait_nr && w->ops->commit_wait ? w->ops->commit_wait(w->ctx, wait_nr)
					       : w->ops->commit(w->ctx, rb_clock);

	if (n < 0) {
		set_error(w, -n, "job '%s': submitting I/O failed: %s", w->job->name,
			  strerror(-n));
		return n;
	}
	if (n > 0) {
		stat_add_depth(w->ts.submit_map, (unsigned)n);
		w->ts.total_submit++;
	}
	*queued -= (unsigned)n;
	*inflight += (unsigned)n;
	atomic_store_explicit(&w->pub_inflight, *inflight, memory_order_relaxed);
	return n;
}

static void drain(struct worker *w, struct io_state *st, unsigned *queued, unsigned *inflight)
{
	while (*queued && commit(w, queued, inflight, 0) > 0)
		;
	while (*inflight)
		if (reap(w, st, inflight, *inflight) < 0)
			break;
}

/* Sleeps until rate_iops/rate allow the next I/O; returns the clock after. */
static uint64_t rate_wait(struct worker *w, struct io_state *st, uint64_t now)
{
	const struct job_spec *job = w->job;
	uint64_t until = 0;
	int d;

	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t t;

		if (job->rate_iops[d]) {
			t = st->rate_start_ns + st->issued[d] * 1000000000ull / job->rate_iops[d];
			if (t > until)
				until = t;
		}
		if (job->rate[d]) {
			t = st->rate_start_ns +
			    (uint64_t)((double)st->issued_bytes[d] * 1e9 / (double)job->rate[d]);
			if (t > until)
				until = t;
		}
	}
	if (until > now) {
		struct timespec ts = { .tv_sec = (time_t)((until - now) / 1000000000ull),
				       .tv_nsec = (long)((until - now) % 1000000000ull) };

		nanosleep(&ts, NULL);
		now = rb_now_ns();
	}
	return now;
}

static void think(struct worker *w)
{
	const struct job_spec *job = w->job;
	uint64_t spin_end = rb_now_ns() + job->thinktime_spin_us * 1000;

	while (rb_now_ns() < spin_end)
		;
	if (job->thinktime_us > job->thinktime_spin_us) {
		uint64_t ns = (job->thinktime_us - job->thinktime_spin_us) * 1000;
		struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
				       .tv_nsec = (long)(ns % 1000000000ull) };

		nanosleep(&ts, NULL);
	}
}

/*
 * flow=: waits while this job is ahead of its weight's share of its flow,
 * then counts the coming I/O into the flow. Returns the clock after.
 */
static uint64_t flow_wait(struct worker *w, struct io_state *st, uint64_t now)
{
	const struct job_spec *job = w->job;

	while (flow_ahead(w->flow, w->flow_ios, job->flow) && !worker_stopped(w) &&
	       !(st->end_ns && now >= st->end_ns)) {
		if (job->flow_sleep_us) {
			struct timespec ts = { .tv_sec = (time_t)(job->flow_sleep_us / 1000000),
					       .tv_nsec = (long)(job->flow_sleep_us % 1000000) * 1000 };

			nanosleep(&ts, NULL);
		} else {
			sched_yield();
		}
		now = rb_now_ns();
	}
	w->flow_ios++;
	flow_count(w->flow);
	return now;
}

typedef bool (*gen_fn)(struct worker *, struct io_state *, struct io_unit *, uint64_t);

/* The pump: keep the queue full, reap when it is, until gen says stop. */
static void pump(struct worker *w, struct io_state *st, gen_fn gen)
{
	const struct job_spec *job = w->job;
	bool paced = false, more = true, busy, fresh = false;
	struct io_unit *retry = NULL;
	uint64_t now = 0;
	unsigned queued = 0, inflight = 0, d, min;
	unsigned batch = job->iodepth_batch_submit ? job->iodepth_batch_submit : job->iodepth;
	bool will_reap;
	/*
	 * Submit and wait in one syscall (io_uring at QD1: one io_uring_enter per
	 * I/O, not two) unless slat is asked for in percentiles: it is then only
	 * the time to prepare the I/O.
	 */
	bool can_wait = !job->slat_percentiles;

	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		if (job->rate_iops[d] || job->rate[d])
			paced = true;
	while (more || inflight || queued || retry) {
		busy = false;
		while ((more && w->nr_free && w->nr_units - w->nr_free < st->lat.qd) || retry) {
			struct io_unit *u;
			int r;

			/*
			 * One clock read serves until something may block: the units
			 * of one pass share their start time (their slat includes the
			 * generation of the units after them, tens of ns each), and
			 * after a reap or a synchronous completion the completion's
			 * clock starts the next I/O (its lat includes the accounting).
			 */
			if (!fresh) {
				now = rb_now_ns();
				fresh = true;
			}
			if (retry) {
				/* the engine was full: this unit already holds its I/O */
				u = retry;
				retry = NULL;
			} else {
				/* a backlog's read-backs start once the writes in flight are done */
				if (w->vbl && !st->verifying && (queued || inflight) &&
				    vbl_due(w, st->last_ddir)) {
					fresh = false;
					drain(w, st, &queued, &inflight);
				}
				u = w->free_units[w->nr_free - 1];
				if (paced && !st->verifying) {
					now = rate_wait(w, st, now);
					/* each paced I/O starts when its wait ends */
					fresh = false;
				}
				if (w->flow && !st->verifying) {
					now = flow_wait(w, st, now);
					fresh = false;
				}
				if (!gen(w, st, u, now)) {
					more = false;
					break;
				}
				w->nr_free--;
			}
			u->start_ns = now;
			u->issue_ns = now;
			worker_iolog_io(w, u);
			/* a synchronous engine's I/O is in flight while its syscall runs: depth means the
			 * same for every engine (the sampler loads it) */
			if (w->sync_io)
				atomic_store_explicit(&w->pub_inflight, inflight + 1,
						      memory_order_relaxed);
			r = w->ops->queue(w->ctx, u);
			if (w->sync_io)
				atomic_store_explicit(&w->pub_inflight, inflight,
						      memory_order_relaxed);
			if (r == ENGINE_COMPLETED) {
				now = rb_now_ns();
				account(w, st, u, now);
				settle_sync(w, st, now);
				put_free(w, u);
			} else if (r == ENGINE_BUSY) {
				retry = u;
				busy = true;
				break;
			} else if (r == ENGINE_DONE) {
				/* the stream ended (a sender closed): this unit did nothing */
				put_free(w, u);
				more = false;
				break;
			} else if (r < 0) {
				set_error(w, -r, "job '%s': queueing I/O failed: %s", job->name,
					  strerror(-r));
				put_free(w, u);
				st->failed = true;
				more = false;
				break;
			} else {
				queued++;
				w->ts.depth_level[stat_depth_level_idx(queued + inflight)]++;
				w->ts.total_io_u++;
				/* when no more can be queued, the commit after the loop may wait too */
				if (queued >= batch &&
				    !(w->ops->commit_wait && can_wait &&
				      (!w->nr_free || w->nr_units - w->nr_free >= st->lat.qd))) {
					fresh = false;
					if (commit(w, &queued, &inflight, 0) < 0) {
						st->failed = true;
						more = false;
					}
				}
			}
			if (r == ENGINE_COMPLETED) {
				w->ts.depth_level[0]++;
				w->ts.total_io_u++;
			}
			if (u->ddir == DDIR_WRITE && !st->verifying &&
			    (job->fsync_blocks || job->fdatasync_blocks)) {
				unsigned every = job->fsync_blocks ? job->fsync_blocks
								   : job->fdatasync_blocks;

				if (++st->writes_since_sync >= every) {
					fresh = false;
					drain(w, st, &queued, &inflight);
					do_fsync(w, u->file_idx, st->counting);
					st->writes_since_sync = 0;
				}
			}
			if (job->thinktime_us && ++st->since_think >= job->thinktime_blocks) {
				fresh = false;
				drain(w, st, &queued, &inflight);
				think(w);
				st->since_think = 0;
			}
		}
		min = job->iodepth_batch_complete_min ? job->iodepth_batch_complete_min : 1;
		if (!more)
			min = 1;
		will_reap = !w->nr_free || !more || busy || w->nr_units - w->nr_free >= st->lat.qd;
		if (queued) {
			fresh = false;
			if (commit(w, &queued, &inflight, will_reap && can_wait ? min : 0) < 0)
				break;
		}
		if (!inflight)
			continue;
		if (will_reap) {
			if (reap(w, st, &inflight, min) < 0)
				break;
			now = st->last_comp;
			fresh = true;
		}
	}
	drain(w, st, &queued, &inflight);
	settle(w, st, rb_now_ns());
}

static void cpu_usage(struct rusage *ru)
{
	if (getrusage(RUSAGE_THREAD, ru) < 0)
		memset(ru, 0, sizeof(*ru));
}

static uint64_t tv_us(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000ull + (uint64_t)tv->tv_usec;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct job_spec *job = w->job;
	struct io_state st;
	struct rusage ru0, ru1;
	uint64_t t0, t_main_end, t_end, issued;
	unsigned i, d;
	bool again = false;

	memset(&st, 0, sizeof(st));
	/* as fio, a delayed job sets up after its delay: net's sender connects then */
	if (job->startdelay_us) {
		struct timespec ts = { .tv_sec = (time_t)(job->startdelay_us / 1000000),
				       .tv_nsec = (long)(job->startdelay_us % 1000000) * 1000 };

		nanosleep(&ts, NULL);
	}
	{
		char msg[sizeof(w->err)] = "";
		int ret = worker_thread_setup(w, msg, sizeof(msg));

		if (ret) {
			set_error(w, -ret, "%s", msg);
			atomic_store_explicit(&w->phase, PHASE_DONE, memory_order_release);
			return NULL;
		}
	}
	/* as fio: after the job's setup, before its I/O; a command that fails skips the job
	 * without making it an error (fio's exit status stays 0 too) */
	if (job_cmd_run(job, false, w->consent, &w->stop, w->note, sizeof(w->note))) {
		bufcat(w->note, sizeof(w->note), strlen(w->note), "; the job did no I/O, as fio");
		atomic_store_explicit(&w->phase, PHASE_DONE, memory_order_release);
		return NULL;
	}
	if (vbl_new(w)) {
		set_error(w, ENOMEM, "job '%s': out of memory for verify_backlog's list", job->name);
		atomic_store_explicit(&w->phase, PHASE_DONE, memory_order_release);
		return NULL;
	}
	/*
	 * the verify phase reads back in write order where fio's log keeps it;
	 * a backlog has its own log, experimental_verify none, and a timed job
	 * on an engine that completes at once never reads back (its runtime
	 * is over when its pass ends)
	 */
	w->rback.keep_order = !w->vbl && !job->experimental_verify &&
			      (worker_verifies_writes(job) || worker_dry_runs(job)) &&
			      !(job->time_based && w->sync_io);
	/* nothing completed yet: the first backlog's batch is not held back */
	st.last_ddir = DDIR_WRITE;
	st.passes = 1;
	cpu_usage(&ru0);
	t0 = rb_now_ns();
	st.rate_start_ns = t0;
	st.stat_start_ns = t0 + job->ramp_time_us * 1000;
	st.counting = !job->ramp_time_us;
	if (job->runtime_us)
		st.end_ns = st.stat_start_ns + job->runtime_us * 1000;
	else if (job->time_based)
		st.end_ns = 0;
	atomic_store_explicit(&w->pub_stat_start_ns, st.stat_start_ns, memory_order_relaxed);
	worker_logs_start(w, st.stat_start_ns);
	lat_target_init(&st.lat, job, t0);
	if (!st.lat.on)
		st.lat.qd = w->nr_units;
	/* pairs with the sampler's acquire load of phase */
	atomic_store_explicit(&w->phase, job->ramp_time_us ? PHASE_RAMP : PHASE_RUN,
			      memory_order_release);
	/* with a ramp the phase flips to RUN when statistics start; the sampler reads the clock */
	/*
	 * a timed job on an engine that queues verifies each size= bytes, as
	 * fio's; verify_only's dry run and read-back take turns loop by loop
	 * (a timed one reads back its region once)
	 */
	st.verify_each_loop = (worker_verifies_writes(job) ||
			       (worker_dry_runs(job) && !job->time_based)) &&
			      (job->time_based ? !w->sync_io : job->loops > 1);
	st.exp_verify = st.verify_each_loop && job->experimental_verify && !job->verify_only;
	do {
		if (st.loop_break || again) {
			/* the next loop: what it writes is what its verify reads */
			readback_clear(w);
			st.verifying = false;
			atomic_store_explicit(&w->phase, PHASE_RUN, memory_order_release);
		}
		again = false;
		issued = st.numberio;
		if (!job->verify_only)
			pump(w, &st, gen_main);
		else if (worker_dry_runs(job) && w->files && w->files[0].written)
			verify_only_log(w, &st);
		if (job->end_fsync && job_writes(job) && !w->ts.error && !st.loop_break)
			for (i = 0; i < w->nr_files; i++)
				do_fsync(w, i, false);
		t_main_end = rb_now_ns();
		/* a loop that found nothing to write ends the job, read-back and all (fio) */
		if (st.exp_verify && st.numberio == issued)
			break;
		/*
		 * nor does a main phase that moved nothing lead to a next loop (it
		 * stopped on its runtime, say, before it could take up the loop it
		 * broke off for its verify: that loop would never come)
		 */
		if (st.numberio == issued)
			st.loop_break = false;
		/* a backlog's failed read-back ends the job there, as fio's */
		if (job->verify && (job->do_verify || job->verify_only) && (job->rw & RW_WRITE) &&
		    (!w->ts.error || !job->verify_fatal) && !(w->vbl && st.failed) &&
		    !worker_stopped(w)) {
			atomic_store_explicit(&w->phase, PHASE_VERIFY, memory_order_release);
			st.verifying = true;
			st.failed = false;
			readback_rewind(w);
			pump(w, &st, gen_verify);
			again = !st.loop_break && another_pass(w, &st);
		} else if (job->io_size && !st.loop_break && !job->verify_only) {
			again = another_pass(w, &st);
		}
	} while ((st.loop_break || again) && !worker_stopped(w) &&
		 !(w->ts.error && job->verify_fatal));
	if (w->ops->end) {
		char eerr[1024] = "";
		int r = w->ops->end(w->ctx, eerr, sizeof(eerr));

		if (r)
			set_error(w, -r, "job '%s': %s", job->name, eerr);
		else if (eerr[0])	/* a note, not an error (exec's output under the TUI) */
			bufcat(w->note, sizeof(w->note), strlen(w->note), "%sjob '%s': %s",
			       w->note[0] ? "; " : "", job->name, eerr);
	}
	t_end = rb_now_ns();
	cpu_usage(&ru1);
	if (worker_logs_close(w, t_end) < 0)
		set_error(w, EIO, "job '%s': writing its log files failed (disk full?)", job->name);
	{
		int ret = worker_iolog_close(w);

		if (ret < 0)
			set_error(w, -ret, "job '%s': write_iolog=%s: %s", job->name,
				  job->write_iolog, strerror(-ret));
	}
	/* as fio: once the I/O is over and the logs are written; its status changes nothing.
	 * A stopped run does not wait for one more command. */
	{
		/* after what the engine's end noted, if anything */
		char post[sizeof(w->note)] = "";

		if (job->exec_postrun && worker_stopped(w))
			snprintf(post, sizeof(post), "job '%s': exec_postrun not run: the job was "
				 "stopped", job->name);
		else
			job_cmd_run(job, true, w->consent, &w->stop, post, sizeof(post));
		if (post[0])
			bufcat(w->note, sizeof(w->note), strlen(w->note), "%s%s",
			       w->note[0] ? "; " : "", post);
	}
	vbl_free(w);
	if (w->flow)
		flow_leave(w->flow, job->flow, w->flow_ios);
	if (st.lat.on)
		w->ts.latency_depth = st.lat.qd;

	{
		uint64_t start = st.stat_start_ns < t_main_end ? st.stat_start_ns : t_main_end;
		uint64_t main_ms = (t_main_end - start) / 1000000;
		uint64_t verify_ms = (t_end - t_main_end) / 1000000;

		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			if (!w->ts.dir[d].total_ios)
				continue;
			w->ts.dir[d].runtime_ms = main_ms;
			if (d == DDIR_READ && st.verifying)
				w->ts.dir[d].runtime_ms += verify_ms;
			if (!w->ts.dir[d].runtime_ms)
				w->ts.dir[d].runtime_ms = 1;
		}
		w->ts.job_runtime_ms = (t_end - start) / 1000000;
	}
	w->ts.usr_us = tv_us(&ru1.ru_utime) - tv_us(&ru0.ru_utime);
	w->ts.sys_us = tv_us(&ru1.ru_stime) - tv_us(&ru0.ru_stime);
	w->ts.ctx = (uint64_t)(ru1.ru_nvcsw - ru0.ru_nvcsw + ru1.ru_nivcsw - ru0.ru_nivcsw);
	w->ts.majf = (uint64_t)(ru1.ru_majflt - ru0.ru_majflt);
	w->ts.minf = (uint64_t)(ru1.ru_minflt - ru0.ru_minflt);
	w->ts.elapsed_ms = (t_end - w->run_start_ns) / 1000000;
	/*
	 * The engine's context goes with its own thread, all jobs at once: libaio's
	 * io_destroy waits out an RCU grace period (30-40 ms here), and 64 jobs'
	 * worth of them one after another in run_end held the run's end by 2 s.
	 * After the CPU reading above, so the job's CPU does not count it.
	 */
	worker_engine_release(w);
	atomic_store_explicit(&w->phase, PHASE_DONE, memory_order_release);
	return NULL;
}

int worker_setup(struct worker *w, const struct job_spec *job, unsigned clone,
		 unsigned index, const struct guard_consent *consent)
{
	unsigned d, k, i;
	uint64_t seed;
	int ret;

	memset(w, 0, sizeof(*w));
	w->job = job;
	w->numa_node = -1;
	w->clone = clone;
	w->index = index;
	w->consent = consent;
	thread_stat_init(&w->ts, job);
	w->ops = engine_find(job->ioengine);
	if (!w->ops) {
		char have[256];

		engine_names(have, sizeof(have));
		snprintf(w->err, sizeof(w->err), "job '%s': unknown ioengine '%s' (raidbench has: "
			 "%s)", job->name, job->ioengine, have);
		return -EINVAL;
	}
	w->min_bs = UINT64_MAX;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		bool used = (d == DDIR_READ && (job->rw & RW_READ)) ||
			    (d == DDIR_WRITE && (job->rw & RW_WRITE)) ||
			    (d == DDIR_TRIM && (job->rw & RW_TRIM)) ||
			    (d == DDIR_READ && job->verify);

		if (!used)
			continue;
		for (k = 0; k < job->nr_bssplit[d]; k++) {
			uint64_t b = job->bssplit[d][k].bs;

			w->min_bs = b < w->min_bs ? b : w->min_bs;
			w->max_bs = b > w->max_bs ? b : w->max_bs;
		}
		/* a bsrange after a bssplit bounds the split's sizes (pick_bs) */
		w->min_bs = job->bs[d] < w->min_bs ? job->bs[d] : w->min_bs;
		w->max_bs = job->bs_max[d] > w->max_bs ? job->bs_max[d] : w->max_bs;
		w->max_bs = job->bs[d] > w->max_bs ? job->bs[d] : w->max_bs;
	}
	if (job->verify) {
		/* the parser refused sizes a header does not fit (job_verify_interval) */
		w->verify_interval = job_verify_interval(job);
		/*
		 * the read-back's bookkeeping piece divides every write's size (a
		 * multiple of the interval) and offset (a multiple of the min bs, or
		 * of write sizes): bs=6k,8k writes 8k blocks at multiples of 8k
		 */
		w->vgran = w->verify_interval;
		for (uint64_t a = w->min_bs, t; a; a = t) {
			t = w->vgran % a;
			w->vgran = a;
		}
		w->max_bs = w->max_bs > w->verify_interval ? w->max_bs : w->verify_interval;
	}
	seed = job->randrepeat || job->randseed_set ? job->randseed : (uint64_t)rb_now_ns();
	rb_rand_seed(&w->rand, seed + 0x9e3779b97f4a7c15ull * (index + 1));
	rb_mix_init(&w->mix, seed, index + 1, job->rwmixread);
	rb_taus_init(&w->fsize_rand, seed, index + 1, RB_SEED_FILE_SIZE);
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		unsigned n = job->nr_bssplit[d], a, b, slot;

		/*
		 * seed table slots 0-2 are the block sizes of reads, writes and trims;
		 * as fio, verify draws writes like reads and trimwrite trims like writes
		 */
		slot = d;
		if (d >= DDIR_WRITE && job->verify)
			slot = DDIR_READ;
		if (d == DDIR_TRIM && (job->rw & RW_WRITE))
			slot = job->verify ? DDIR_READ : DDIR_WRITE;
		rb_taus_init(&w->bs_rand[d], seed, index + 1, slot);
		/* fio looks bssplit up sorted by percentage; a stable sort keeps ties in order */
		memcpy(w->split[d], job->bssplit[d], n * sizeof(w->split[d][0]));
		for (a = 1; a < n; a++) {
			struct bssplit_entry e = w->split[d][a];

			for (b = a; b > 0 && w->split[d][b - 1].perc > e.perc; b--)
				w->split[d][b] = w->split[d][b - 1];
			w->split[d][b] = e;
		}
	}

	ret = worker_open_files(w, w->err, sizeof(w->err));
	if (ret)
		return ret;
	ret = worker_logs_open(w, w->err, sizeof(w->err));
	if (ret)
		return ret;
	ret = job_cmd_check(job, consent, w->err, sizeof(w->err));
	if (ret)
		return ret;
	ret = worker_iolog_open(w, w->err, sizeof(w->err));
	if (ret)
		return ret;
	ret = worker_offsets_setup(w, seed, index + 1, w->err, sizeof(w->err));
	if (ret)
		return ret;
	ret = worker_fsvc_setup(w, seed, index + 1, w->err, sizeof(w->err));
	if (ret)
		return ret;
	/*
	 * No placement asked for: the worker will run on its target's node.
	 * Chosen here, before any thread starts, so the run's layout shows it.
	 */
	if (!job->has_cpus_allowed && !job->numa_cpu_nodes && !job->numa_mem_policy &&
	    w->nr_files && numa_available() >= 0 && numa_max_node() > 0)
		w->numa_node = numa_node_of_path(w->files[0].path);
	if (job->verify && (job->do_verify || job->verify_only))
		for (i = 0; i < w->nr_files; i++) {
			size_t bytes;

			w->files[i].vbits = w->files[i].reach / w->vgran;
			w->files[i].vbase = i ? w->files[i - 1].vbase + w->files[i - 1].vbits : 0;
			bytes = (size_t)(w->files[i].vbits + 7) / 8;

			w->files[i].written = calloc(bytes, 1);
			w->files[i].wstart = calloc(bytes, 1);
			if (!w->files[i].written || !w->files[i].wstart)
				return -ENOMEM;
		}
	return 0;
}
