/*
 * worker_offset.c - where a random I/O goes, drawn as fio 3.33 draws it so
 * that a job covers the same blocks with the same sizes (hence the same
 * counts) under both: the generators and their seeds, the block drawn
 * uniformly over the blocks an I/O may start at, the random map that moves a
 * covered block on to the next free one, and the run of free blocks an I/O of
 * mixed size is cut to.
 *
 * Per-thread state of one worker, no locking; nothing here allocates after
 * setup or prints.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "worker.h"
#include "worker_int.h"

/* fio's alignment of a random offset: blockalign, else the smallest size of the direction */
static inline uint64_t align_of(const struct job_spec *job, int ddir)
{
	return job->ba[ddir] ? job->ba[ddir] : job->bs[ddir];
}

/*
 * How many ba-sized blocks a random I/O may start at (fio's last_block): the
 * region, less the part of the smallest size that overhangs an alignment unit.
 */
static uint64_t last_block(const struct job_spec *job, const struct worker_file *f, int ddir)
{
	uint64_t ba = align_of(job, ddir), size = f->size;

	if (job->bs[ddir] > ba) {
		if (size < job->bs[ddir] - ba)
			return 0;
		size -= job->bs[ddir] - ba;
	}
	return size / ba;
}

/*
 * The seed of a file's zipf, pareto or normal draws: with randrepeat (and no
 * randseed=), fio's hash of the file's name times the thread number, so each
 * file draws its own; otherwise the seed of the job's random offsets.
 */
static uint32_t dist_seed(const struct worker *w, const struct worker_file *f, unsigned thread_nr)
{
	if (w->reseed_loops)
		return rb_name_hash(f->path) * (uint32_t)thread_nr;
	return (uint32_t)w->off_rand.seed;
}

/* A file's non-uniform distribution: its region in blocks of the smaller read or write size. */
static int dist_setup(struct worker *w, struct worker_file *f, unsigned thread_nr, char *err,
		      size_t errlen)
{
	const struct job_spec *job = w->job;
	uint64_t unit = job->bs[DDIR_READ] < job->bs[DDIR_WRITE] ? job->bs[DDIR_READ]
								 : job->bs[DDIR_WRITE];
	char derr[200] = "";

	/* a partial last block counts: a draw may land where no I/O fits (fio's nranges) */
	f->dist = rb_dist_new(job->random_distribution, job->dist_param, job->dist_center,
			      (f->reach + unit - 1) / unit, dist_seed(w, f, thread_nr), derr,
			      sizeof(derr));
	if (!f->dist) {
		snprintf(err, errlen, "job '%s': random_distribution: %s", job->name, derr);
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	}
	return 0;
}

int worker_offsets_setup(struct worker *w, uint64_t seed, unsigned thread_nr, char *err,
			 size_t errlen)
{
	const struct job_spec *job = w->job;
	uint64_t most = 0, block_seed;
	unsigned i;
	int d, ret;
	bool use64;

	/* the map's block is the smallest size of any direction, used or not (fio's rw_min_bs) */
	w->map_bs = job->bs[0];
	for (d = 1; d < DDIR_RWDIR_CNT; d++)
		if (job->bs[d] < w->map_bs)
			w->map_bs = job->bs[d];
	for (i = 0; i < w->nr_files; i++)
		if (w->files[i].size / w->map_bs > most)
			most = w->files[i].size / w->map_bs;
	/*
	 * a 32-bit draw cannot reach every block of a bigger region: fio turns to
	 * 64 bits, but only once it reseeds (a new loop with randrepeat); the
	 * first loop still draws from the generator seeded before the switch
	 */
	use64 = job->random_generator == RANDGEN_TAUS64;
	w->off_use64 = use64 || (job->random_generator == RANDGEN_DEFAULT && most > UINT32_MAX);
	/*
	 * randrepeat gives offsets fio's fixed seed, else they come from the seed
	 * table; randseed= turns off the reseeding at each loop (fio clears
	 * randrepeat then, after seeding)
	 */
	w->reseed_loops = job->randrepeat && !job->randseed_set;
	block_seed = job->randrepeat ? RB_RANDSEED_BLOCK * thread_nr
				     : rb_seed_slot(seed, thread_nr, RB_SEED_BLOCK);
	rb_frand_init(&w->off_rand, block_seed, use64);
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		rb_taus_init(&w->seq_rand[d], seed, thread_nr, RB_SEED_SEQ_RAND);
	rb_taus_init(&w->zone_rand, seed, thread_nr, RB_SEED_ZONE);
	/* fio starts its count at 1, not N: the job's first I/O is a random one */
	w->seq_left = 1;
	for (i = 0; i < w->nr_files; i++)
		for (d = 0; d < DDIR_RWDIR_CNT; d++)
			w->files[i].last_start[d] = UINT64_MAX;

	if (!job_is_random(job) || job->zone_strided)
		return 0;
	/*
	 * zipf, pareto and normal: a generator per file and nothing else, no
	 * map and no lfsr (fio's init_random_map stops there); zoned draws
	 * from the job's offset generator, or the lfsr
	 */
	if (job->random_distribution != DIST_RANDOM) {
		for (i = 0; i < w->nr_files; i++) {
			ret = dist_setup(w, &w->files[i], thread_nr, err, errlen);
			if (ret)
				return ret;
		}
		return 0;
	}
	for (i = 0; i < w->nr_files; i++) {
		struct worker_file *f = &w->files[i];
		uint64_t nr = f->reach / w->map_bs;

		if (!nr)
			continue;
		/* lfsr takes the map's place, norandommap or not (fio's) */
		if (job->random_generator == RANDGEN_LFSR) {
			if (rb_lfsr_init(&f->lfsr, nr, block_seed)) {
				snprintf(err, errlen, "job '%s': random_generator=lfsr cannot start "
					 "from this seed over %llu blocks of %s (fio fails the "
					 "same way); try another randseed=", job->name,
					 (unsigned long long)nr, f->path);
				return -EINVAL;
			}
			f->has_lfsr = true;
			continue;
		}
		/* non-uniform distributions and blockalign go without a map, as in fio */
		if (job->norandommap)
			continue;
		f->map = rb_randmap_new(nr);
		if (!f->map) {
			snprintf(err, errlen, "job '%s': no memory for the random map of %llu "
				 "blocks of %s (norandommap does without)", job->name,
				 (unsigned long long)nr, f->path);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * fio's fio_file_reset: a new pass over the file (each open of it, and a
 * timed job whose map or lfsr ran out): every block free again, the lfsr
 * back at its seed.
 */
static void file_reset_blocks(struct worker *w, struct worker_file *f)
{
	if (f->map)
		rb_randmap_reset(f->map);
	if (f->has_lfsr)
		rb_lfsr_reset(&f->lfsr, w->off_rand.seed);
}

void worker_offsets_new_loop(struct worker *w, bool reseed)
{
	unsigned i;
	int d;

	for (i = 0; i < w->nr_files; i++)
		file_reset_blocks(w, &w->files[i]);
	if (!reseed)
		return;
	rb_frand_init(&w->off_rand, w->off_rand.seed, w->off_use64);
	for (d = 0; d < DDIR_RWDIR_CNT; d++)
		rb_taus_restart(&w->seq_rand[d]);
	rb_taus_restart(&w->zone_rand);
}

bool worker_draw_random(struct worker *w, int ddir)
{
	return rb_taus_pct(&w->seq_rand[ddir]) <= w->job->percentage_random[ddir];
}

/*
 * A block in [0, lastb) from the job's offset generator, or the file's next
 * lfsr block (which knows its own range, as fio's ignores lastb), moved on
 * to the next free one where the map has it covered. -ENOSPC when the map
 * or the lfsr has no block left.
 */
static inline int draw_block(struct worker *w, struct worker_file *f, uint64_t lastb,
			     uint64_t *b)
{
	if (f->has_lfsr)
		return rb_lfsr_next(&f->lfsr, b) ? 0 : -ENOSPC;
	*b = rb_frand_scale(&w->off_rand, lastb);
	if (f->map && rb_randmap_isset(f->map, *b)) {
		*b = rb_randmap_next_free(f->map, *b);
		if (*b == RB_RANDMAP_NONE)
			return -ENOSPC;
	}
	/* the next draw is known: its map word arrives while this I/O is issued */
	if (f->map)
		rb_randmap_prefetch(f->map, rb_frand_peek_scale(&w->off_rand, lastb));
	return 0;
}

/* the uniform pick, inline in pick_random: every random I/O of most jobs comes here */
static inline int rand_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t *off)
{
	uint64_t lastb = last_block(w->job, f, ddir), b;
	int ret;

	if (!lastb)
		return -ENOSPC;
	ret = draw_block(w, f, lastb, &b);
	if (!ret)
		*off = b * align_of(w->job, ddir);
	return ret;
}

int worker_rand_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t *off)
{
	return rand_offset(w, f, ddir, off);
}

int worker_seq_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t *off)
{
	const struct job_spec *job = w->job;
	int64_t gap = job->rw_gap;
	/* fio keeps the file's end and the last I/O's end from the file's start */
	uint64_t end = f->start + f->seq_end, last = f->start + f->next_seq[ddir];
	/* a backward walk comes back to the region's size, or the file's end if shorter */
	uint64_t top = end < f->reach ? end : f->reach, pos;

	if (job->time_based && w->nr_files == 1 && f->next_seq[ddir] >= f->reach) {
		f->next_seq[ddir] = 0;
		last = f->start;
	}
	if (last >= end)
		return -ENOSPC;
	/*
	 * the walk and its wrap compare with what fio compares, so offset= shows
	 * its quirks too: a backward walk's first pick is from the region's
	 * size counted from the file's start, a region-relative position is
	 * held against the file's end, and a forward wrap lands offset= bytes in
	 */
	if (gap < 0 && last == f->start && f->start)
		last = top;
	pos = last - f->start;
	if (pos && gap) {
		pos += (uint64_t)gap;	/* before the start (N < 0) it is far past the end */
		if (pos >= end)
			pos = gap > 0 ? f->start : top + (uint64_t)gap;
	}
	if (pos >= f->reach || f->start + pos + job->bs[ddir] > end)
		return -ENOSPC;
	*off = pos;
	return 0;
}

/*
 * random_distribution=zoned(_abs), as fio: a zone by its share of the
 * accesses, a block drawn uniformly inside it. -ENOSPC when no I/O fits,
 * -ERANGE when zoned_abs zones run past the region.
 */
static int zoned_offset(struct worker *w, struct worker_file *f, int ddir, uint64_t *off)
{
	const struct job_spec *job = w->job;
	uint64_t lastb = last_block(job, f, ddir), ba = align_of(job, ddir);
	uint64_t first = 0, end = 0, b;
	unsigned v, acc = 0, i;
	int ret;

	if (!lastb)
		return -ENOSPC;
	/* a zone by its share of the accesses (1-100), then a block inside it */
	v = rb_taus_pct(&w->zone_rand);
	for (i = 0; i < job->nr_dzones; i++) {
		acc += job->dzones[i].access;
		if (v <= acc)
			break;
		first += job->dzones[i].size;
	}
	if (i == job->nr_dzones) {
		/* shares that leave v out (fio's table has no entry there): the whole region */
		ret = draw_block(w, f, lastb, &b);
	} else if (job->dzones_abs) {
		end = (first + job->dzones[i].size) / ba;
		if (end > lastb)
			return -ERANGE;
		ret = draw_block(w, f, end - first / ba, &b);
		b += first / ba;
	} else {
		end = first + job->dzones[i].size;
		ret = draw_block(w, f, lastb * (end - first) / 100, &b);
		b += first * lastb / 100;
	}
	if (!ret)
		*off = b * ba;
	return ret;
}

/* fio's get_next_rand_offset: the job's distribution picks. */
static inline int pick_random(struct worker *w, struct worker_file *f, int ddir, uint64_t *off)
{
	if (f->dist) {
		*off = rb_dist_next(f->dist) * align_of(w->job, ddir);
		return 0;
	}
	if (w->job->nr_dzones)
		return zoned_offset(w, f, ddir, off);
	return rand_offset(w, f, ddir, off);
}

int worker_rand_block(struct worker *w, struct worker_file *f, int ddir, uint64_t *off)
{
	int ret = pick_random(w, f, ddir, off);

	/*
	 * a timed job starts over on the file inside its pass, as fio's
	 * get_next_rand_block, and so does one whose files are chosen by a
	 * distribution (file_service_type=zipf...): no reseed
	 */
	if (ret == -ENOSPC && (w->job->time_based || w->fs.restarts)) {
		worker_file_restart(w, f);
		ret = pick_random(w, f, ddir, off);
	}
	return ret;
}

void worker_file_restart(struct worker *w, struct worker_file *f)
{
	file_reset_blocks(w, f);
	for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
		f->next_seq[d] = 0;
		f->last_start[d] = UINT64_MAX;
	}
}

uint64_t worker_map_mark(struct worker *w, struct worker_file *f, int ddir, uint64_t off,
			 uint64_t len)
{
	/* fio counts the marked run in blocks of the direction's smallest size */
	uint64_t unit = w->job->bs[ddir], n;

	n = rb_randmap_set_nr(f->map, off / unit, (len + unit - 1) / unit);
	if (n && n * unit < len)
		len = n * unit;
	return len;
}

bool worker_loop_ends_pass(const struct worker *w)
{
	unsigned i;

	if (!job_is_random(w->job)) {
		/*
		 * fio's sequential pass ends when every file is done (an I/O
		 * reached its end, worker_seq_offset); where rw=write:N's holes
		 * wrap to the start (or, N negative, to the end) one need not be,
		 * and the pass runs on until the bytes of all loops are issued,
		 * or size= bytes where the engine queues (below); files chosen by
		 * a distribution start over at their end, never done, likewise
		 */
		if (w->fs.restarts)
			return !w->sync_io;
		if (!w->job->rw_gap)
			return true;
		for (i = 0; i < w->nr_files; i++)
			if (!w->files[i].done)
				return !w->sync_io;
		return true;
	}
	/*
	 * fio's pass ends when the map is full, or when the bytes issued reach
	 * size= and the engine counts them at issue (it queues rather than
	 * completing in its submit call), whatever io_size= is
	 */
	return worker_file_covers(&w->files[0]) || !w->sync_io;
}

/*
 * The bytes of one sequential pass without holes, fio's way (worker_seq_offset):
 * a size of the job's direction from each file's start while the offset is
 * below the region's end and the I/O ends inside the file, so past the
 * region's end where the file goes on (size=1026k on a bigger file: 257 I/Os
 * of 4k); sizes of a range fill the region's whole smallest sizes.
 */
static uint64_t seq_pass_bytes(const struct worker *w)
{
	const struct job_spec *job = w->job;
	int d = (job->rw & RW_WRITE) ? DDIR_WRITE : (job->rw & RW_READ) ? DDIR_READ : DDIR_TRIM;
	uint64_t bs = job->bs[d], bytes = 0, n, fit;
	unsigned i;

	for (i = 0; i < w->nr_files; i++) {
		const struct worker_file *f = &w->files[i];

		if (job->nr_bssplit[d] || job->bs_max[d] > bs) {
			bytes += f->reach - f->reach % bs;
			continue;
		}
		n = (f->reach + bs - 1) / bs;
		fit = f->seq_end / bs;
		bytes += (n < fit ? n : fit) * bs;
	}
	return bytes;
}

/*
 * The bytes of one pass with rw=...:N's holes (N > 0) where every file comes
 * to its end as worker_seq_offset walks it: I/Os at 0, bs + N, 2(bs + N)...
 * until the last one reached the file's end, or the next would be at or past
 * the region's end or cross the file's end, before a hole lands at or past
 * the file's end, which wraps to the start: such a walk never ends.
 * UINT64_MAX where one never ends, N < 0 (its walk wraps as it starts), the
 * sizes are drawn or rw=rw's directions share the pass.
 */
static uint64_t holes_pass_bytes(const struct worker *w)
{
	const struct job_spec *job = w->job;
	int d = (job->rw & RW_WRITE) ? DDIR_WRITE : (job->rw & RW_READ) ? DDIR_READ : DDIR_TRIM;
	uint64_t bs = job->bs[d], step = bs + (uint64_t)job->rw_gap, bytes = 0;
	unsigned i;

	if (job->rw_gap <= 0 || ((job->rw & RW_READ) && (job->rw & RW_WRITE)) ||
	    job->nr_bssplit[d] || job->bs_max[d] > bs)
		return UINT64_MAX;
	for (i = 0; i < w->nr_files; i++) {
		const struct worker_file *f = &w->files[i];
		/* positions are the region's, the end the file's (worker_seq_offset) */
		uint64_t end = f->start + f->seq_end, cross, at_end, wrap, past;

		/* the k-th I/O: the first to cross the end, the one after an I/O that ends there */
		cross = f->start + bs > end ? 0 : (end - f->start - bs) / step + 1;
		at_end = f->start + bs >= end ? 1 : (end - f->start - bs + step - 1) / step + 1;
		/* the first hole at or past the file's end, the first pick at or past the region's */
		wrap = end > step ? (end + step - 1) / step : 1;
		past = (f->reach + step - 1) / step;
		if (past < cross)
			cross = past;
		if (at_end > wrap && cross >= wrap)
			return UINT64_MAX;
		bytes += cross * bs;
	}
	return bytes;
}

/*
 * fio's pass ends where the region runs out (a sequential pass at its end, a
 * random one once its map is full) and, with an engine that queues, once it
 * has issued size= bytes (fio counts its bytes at queueing only); io_size=
 * does not end a pass, it bounds the job: loops x io_size (else size) of its
 * direction(s) over all passes (gen_main). Where io_size= asks for more than
 * the region, the job takes more passes: its loops, then further ones while
 * short of io_size=. A pass that never runs out (no map, holes that wrap) on
 * an engine that completes at once goes on to io_size=, as random writes
 * without a map do on any engine.
 */
uint64_t worker_pass_limit(const struct worker *w)
{
	const struct job_spec *job = w->job;
	uint64_t cap;

	/*
	 * a timed job's pass ends by bytes only to be verified (fio's do_io):
	 * at size= bytes, counted as queued, on an engine that queues, else
	 * at io_size=; without a verify it ends only where no I/O fits (a
	 * random pass resets its full map and draws on, worker_rand_offset).
	 * size= is fio's, not rounded to the block size: the I/O that crosses
	 * it is issued (bs=4k, size=1026k: 257 random I/Os with no map)
	 */
	if (job->time_based) {
		if (!(job->verify && job->do_verify && (job->rw & RW_WRITE)))
			return UINT64_MAX;
		return !w->sync_io && w->size_bytes < w->io_limit ? w->size_bytes : w->io_limit;
	}
	cap = worker_job_cap(w);
	if (!w->sync_io)
		return job_is_random(job) && (job->rw & RW_WRITE) && job->norandommap &&
		       w->io_limit > w->size_bytes ? w->io_limit : w->size_bytes;
	/*
	 * a mixed sequential pass ends where the direction it picks has reached
	 * the end (gen_main), which may be well past size= bytes of both, and a
	 * pass with holes where each file is done (worker_seq_offset), if ever,
	 * and one whose files start over (file_service_type=zipf...) never:
	 * only the job's bytes of all loops bound them
	 */
	if (!job_is_random(job) && (((job->rw & RW_READ) && (job->rw & RW_WRITE)) || job->rw_gap ||
				    w->fs.restarts))
		return cap;
	/*
	 * a random pass with a map ends at the pick that finds it full: that
	 * pick's draws are spent (they show where randseed= keeps the
	 * generators running from pass to pass), so the pass has no byte limit
	 * (with several files, at the pick that finds the last one's map full)
	 */
	if (job_is_random(job))
		return !worker_file_covers(&w->files[0]) ? w->io_limit : cap;
	return seq_pass_bytes(w);
}

/*
 * fio's rule for a further pass, after the loops and their read-back: one
 * runs while the bytes moved (moved: reads, writes and read-backs of all
 * passes) fall short of io_size= by a block or more, and it moves at most
 * pass_limit bytes, cut where the job's own direction(s) (own: all passes,
 * verify_backlog's read-backs left out) reach loops x io_size. Returns what
 * the pass may move, 0 when there is none. The worker (another_pass) and the
 * progress estimate (worker_plan_bytes) both ask here.
 */
uint64_t worker_further_pass(const struct worker *w, uint64_t moved, uint64_t own)
{
	uint64_t cap;

	if (w->job->time_based || (w->ops->flags & ENGINE_F_STREAM))
		return 0;
	if (moved >= w->io_limit || w->io_limit - moved < w->max_bs)
		return 0;
	cap = worker_job_cap(w);
	if (own >= cap)
		return 0;
	return cap - own < w->pass_limit ? cap - own : w->pass_limit;
}

/* Whether the job reads back what it writes: a verify phase after each pass. */
bool worker_verifies_writes(const struct job_spec *job)
{
	return job->verify && job->do_verify && !job->verify_only && (job->rw & RW_WRITE);
}

/*
 * verify_only on a job that writes: each pass's writes are generated, not
 * issued (fio's dry run), and read back after it, as a job that writes and
 * verifies; the dry run's bytes count as moved toward io_size=, as fio's.
 */
bool worker_dry_runs(const struct job_spec *job)
{
	return job->verify && job->verify_only && (job->rw & RW_WRITE);
}

/*
 * What one verify can read back after `written` bytes were written since the
 * last: each block once (the read-back follows a bitmap of what was written),
 * so no more than the blocks the writes can reach: the region, every other
 * block with rw=write:N's holes, or what random writes with no map are
 * expected to have hit (n draws over N blocks hit N(1 - (1 - 1/N)^n)).
 */
static uint64_t readback_bytes(const struct worker *w, uint64_t region, uint64_t written)
{
	const struct job_spec *job = w->job;
	uint64_t cover = region, bs = w->min_bs;

	if (!job_is_random(job) && job->rw_gap && bs) {
		uint64_t gap = (uint64_t)(job->rw_gap < 0 ? -job->rw_gap : job->rw_gap);

		cover = region / (bs + gap) * bs;
	} else if (job_is_random(job) && !worker_file_covers(&w->files[0]) && bs && region >= bs) {
		double n = (double)(written / bs), blocks = (double)(region / bs);

		cover = (uint64_t)(blocks * -expm1(n * log1p(-1.0 / blocks))) * bs;
	}
	return written < cover ? written : cover;
}

/*
 * The bytes a job that ends by its size moves in all, counted as the live
 * progress counts them (every read, write, trim and read-back completed):
 * its loops of one pass each, what verify reads back, and the further
 * passes worker_further_pass() grants. Exact where each pass ends at
 * pass_limit; where it ends by chance (a mixed sequential pass at the
 * region's end: where the direction with the larger share gets there) or
 * reads back what chance wrote, the expected value. 0 for a timed job,
 * whose progress is its clock.
 */
uint64_t worker_plan_bytes(const struct worker *w)
{
	const struct job_spec *job = w->job;
	uint64_t region = 0, pass = w->pass_limit, total = 0, moved = 0, own = 0, pending = 0;
	uint64_t next, cap;
	unsigned wshare = 0, i;
	bool dry = worker_dry_runs(job), verify = worker_verifies_writes(job) || dry, each;

	for (i = 0; i < w->nr_files; i++)
		region += w->files[i].size;
	if (job->time_based || !pass)
		return 0;
	/* verify_only with nothing to dry-run: no passes (worker_main) */
	if (job->verify_only && !dry)
		return region;
	if (job->experimental_verify && worker_verifies_writes(job) && job->loops > 1)
		/* fio counts the read-back against loops x size= */
		return worker_job_cap(w);
	/* gen_main: loops that run on as one pass are verified once, at its end */
	each = worker_loop_ends_pass(w);
	/* holes that bring each file to its end: the pass ends there */
	if (!job_is_random(job) && holes_pass_bytes(w) < pass) {
		pass = holes_pass_bytes(w);
		each = true;
	}
	if (job->rw & RW_WRITE)
		wshare = (job->rw & RW_READ) ? 100 - job->rwmixread : 100;
	/*
	 * gen_main: a mixed sequential pass past the region ends where the
	 * direction picked is at its end, the other one some blocks short of
	 * its own (so the bytes moved fall short, and a further pass follows)
	 */
	if (!job_is_random(job) && !job->rw_gap && pass > region && wshare && wshare < 100) {
		unsigned most = wshare > 50 ? wshare : 100 - wshare;
		uint64_t end = 0, e;

		/* with several files, each file's pass ends so (file_done) */
		for (i = 0; i < w->nr_files; i++) {
			e = w->files[i].size / most * 100;
			end += e > w->max_bs ? e - w->max_bs : e;
		}
		if (end < pass)
			pass = end;
	}
	/* gen_main: loops x io_size= of the job's own direction(s) bound all its passes */
	cap = worker_job_cap(w);
	/*
	 * a random pass with a map ends at the pick that finds it full: after
	 * the region; with rw=randread:N only every Nth I/O marks it, so about
	 * N regions (N=0: never full)
	 */
	if (job_is_random(job) && worker_file_covers(&w->files[0]) && job->rw_seq_nr &&
	    pass / job->rw_seq_nr > region)
		pass = region * job->rw_seq_nr;
	next = pass;
	for (i = 0; next && own < cap; i++) {
		uint64_t written, trims, ncap = cap;

		/*
		 * number_ios bounds the I/Os of all passes (worker.c's
		 * number_ios_reached): trimwrite's in pairs, its limit doubled
		 * each pass; here in bytes of the job's own direction(s)
		 */
		if (job->number_ios && w->min_bs == w->max_bs) {
			bool tw = (job->rw & RW_TRIM) && (job->rw & RW_WRITE);
			unsigned k;

			ncap = job->number_ios;
			for (k = 0; tw && k < i && ncap <= UINT64_MAX / 2; k++)
				ncap *= 2;
			ncap = ncap <= UINT64_MAX / job->loops / w->min_bs ?
			       ncap * job->loops * w->min_bs : UINT64_MAX;
			if (ncap > cap)
				ncap = cap;
		}
		if (own >= ncap)
			break;
		if (next > ncap - own)
			next = ncap - own;
		written = next / 100 * wshare + next % 100 * wshare / 100;

		/* trimwrite's trims come on top of the writes (gen_main), and count as moved */
		trims = (job->rw & RW_TRIM) && (job->rw & RW_WRITE) ? written : 0;
		own += next;
		moved += next + trims;
		/* a dry run's writes are not done, only counted toward the passes */
		total += dry ? 0 : next + trims;
		pending += written;
		/* the job's writes end with the last loop or at its bytes: read back then */
		if (verify && (each || i + 1 >= job->loops || own >= cap)) {
			uint64_t back = readback_bytes(w, region, pending);

			moved += back;
			total += back;
			pending = 0;
		}
		if (i + 1 < job->loops) {
			next = pass;
			continue;
		}
		/* worker_main asks for a further pass after a verify or with io_size= */
		if (!verify && !job->io_size)
			break;
		next = worker_further_pass(w, moved, own);
		if (next > pass)
			next = pass;
	}
	return total;
}
