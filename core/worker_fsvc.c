/*
 * worker_fsvc.c - file_service_type: which of a job's files the next I/O
 * goes to, chosen as fio 3.33 chooses it so that a job with several files
 * issues the same I/Os in the same order under both.
 *
 * A pick holds its file for file_service_nr I/Os (roundrobin:N, random:N),
 * or until the file has no I/O left (sequential); then the next one comes in
 * turn, or is drawn: uniformly from seed table slot 5, or by zipf, pareto or
 * normal over nr_files << 10 values with the top bits naming the file, the
 * rank not hashed (fio disables its scatter for files). A file with no I/O
 * left is done for the pass; under a distribution it starts over instead,
 * as fio's, and the pass ends by bytes only.
 *
 * Not fio's: at an iodepth over 1 fio leaves a distribution's file that it
 * found at its end with I/Os in flight closing, and draws past it until they
 * complete; here it starts over at once (the iolog and a verify's read-back
 * then differ; the counts of a job without verify do not).
 *
 * Per-thread state of one worker; the pick in turn is inline in
 * worker_int.h, the draws here. Nothing allocates after setup or prints.
 */
#include <errno.h>
#include <stdio.h>

#include "worker.h"
#include "worker_int.h"

/* fio's FIO_FSERVICE_SHIFT: a distribution draws over this many values per file */
#define FSVC_SHIFT 10
/* seed table slot of the file choice (fio's FIO_RAND_FILE_OFF) */
#define FSVC_SEED_SLOT 5
/*
 * Picks in a row that find a file at its end, under a distribution, before
 * it is taken as done: fio starts it over for ever (and hangs where no file
 * has an I/O that fits); one that fits is found long before this.
 */
#define FSVC_MAX_MISSES 64

static enum rand_dist fsvc_dist(enum file_service fs)
{
	return fs == FSVC_ZIPF ? DIST_ZIPF : fs == FSVC_PARETO ? DIST_PARETO : DIST_NORMAL;
}

/* The uniform draw's generator: 64-bit for tausworthe64, and once fio switched to it. */
static void fsvc_seed_rand(struct worker *w, bool reseed)
{
	const struct job_spec *job = w->job;
	bool use64 = job->random_generator == RANDGEN_TAUS64 ||
		     (reseed && job_is_random(job) && w->off_use64);

	rb_frand_init(&w->fs.rand, w->fs.rand.seed, use64);
}

int worker_fsvc_setup(struct worker *w, uint64_t seed, unsigned thread_nr, char *err,
		      size_t errlen)
{
	const struct job_spec *job = w->job;
	struct fsvc *fs = &w->fs;
	char derr[200] = "";

	fs->cur = FSVC_NONE;
	fs->left = 0;
	fs->next = 0;
	fs->nr_done = 0;
	fs->stay = job->file_service == FSVC_SEQUENTIAL;
	fs->drawn = job->file_service >= FSVC_RANDOM;
	fs->restarts = job->file_service > FSVC_RANDOM;
	fs->dist = NULL;
	fs->rand.seed = rb_seed_slot(seed, thread_nr, FSVC_SEED_SLOT);
	if (job->file_service == FSVC_RANDOM)
		fsvc_seed_rand(w, false);
	/* an engine without files (cpuio, exec) never picks one */
	if (!fs->restarts || !w->nr_files)
		return 0;
	/* fio seeds the distribution from the slot's low 32 bits */
	fs->dist = rb_dist_new(fsvc_dist(job->file_service), job->fs_param, job->fs_center,
			       (uint64_t)w->nr_files << FSVC_SHIFT, (uint32_t)fs->rand.seed, derr,
			       sizeof(derr));
	if (!fs->dist) {
		snprintf(err, errlen, "job '%s': file_service_type: %s", job->name, derr);
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	}
	rb_dist_unhash(fs->dist);
	return 0;
}

void worker_fsvc_release(struct worker *w)
{
	rb_dist_free(w->fs.dist);
	w->fs.dist = NULL;
}

void worker_fsvc_new_pass(struct worker *w, bool reseed)
{
	w->fs.cur = FSVC_NONE;
	if (!reseed)
		return;
	if (w->job->file_service == FSVC_RANDOM)
		fsvc_seed_rand(w, true);
	if (w->fs.dist)
		rb_dist_restart(w->fs.dist);
}

static unsigned fsvc_draw(struct worker *w)
{
	uint64_t v;

	if (!w->fs.dist) {
		v = rb_frand_scale(&w->fs.rand, w->nr_files);
		/* a 64-bit draw near its top rounds up to nr_files in double precision */
		return v < w->nr_files ? (unsigned)v : w->nr_files - 1;
	}
	return (unsigned)(rb_dist_next(w->fs.dist) >> FSVC_SHIFT);
}

unsigned worker_fsvc_choose(struct worker *w)
{
	struct fsvc *fs = &w->fs;
	unsigned i;

	/* every file done would draw for ever: the caller ends the pass before (BUG) */
	if (fs->nr_done >= w->nr_files)
		return fs->cur = 0;
	do
		i = fsvc_draw(w);
	while (w->files[i].done);
	fs->cur = i;
	fs->left = w->job->file_service_nr - 1;
	return i;
}

bool worker_fsvc_done(struct worker *w, struct worker_file *f)
{
	/* fio closes the file: the next pick chooses anew */
	w->fs.cur = FSVC_NONE;
	if (w->fs.restarts && ++f->fs_misses < FSVC_MAX_MISSES) {
		worker_file_restart(w, f);
		return false;
	}
	f->done = true;
	return ++w->fs.nr_done >= w->nr_files;
}
