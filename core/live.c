/*
 * live.c - per-interval records from cumulative worker counters: the
 * difference of two ticks, latency percentiles from histogram deltas (never
 * stored samples), progress and ETA, and the iostat arithmetic inputs for
 * each device the run touches; a job's latest text and, once, the error it
 * failed with. Runs on the engine thread; never prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskstats.h"
#include "live.h"
#include "stats.h"
#include "worker.h"

struct live_prev {
	uint64_t ios[DDIR_RWDIR_CNT];
	uint64_t bytes[DDIR_RWDIR_CNT];
	uint64_t lat_sum[DDIR_RWDIR_CNT];
	uint64_t hist[DDIR_RWDIR_CNT][HIST_NR];
};

struct live_disk {
	char name[64];
	struct diskstat_snap prev;
	bool have;
	bool util_meaningful;
};

struct live_sampler {
	struct worker *ws;
	size_t nr;
	struct live_prev *prev;
	uint64_t tot_hist[DDIR_RWDIR_CNT][HIST_NR];
	struct live_disk *disks;
	size_t nr_disks;
	uint32_t seq;
	uint64_t last_ns;
	struct live_rec *batch;		/* one tick's records, pushed with one index store */
	uint32_t nr_batch, max_batch;
	uint64_t tot_ios[DDIR_RWDIR_CNT];	/* cumulative over finished sets too */
	uint64_t tot_bytes[DDIR_RWDIR_CNT];
	uint64_t done_ios[DDIR_RWDIR_CNT];	/* of workers in earlier sets */
	uint64_t done_bytes[DDIR_RWDIR_CNT];
	/* stonewall sets, run one after another: the whole run's progress */
	unsigned *set_of;			/* per worker */
	unsigned nr_sets;
	uint64_t *set_plan_s;			/* a set's ramp + runtime, 0 = size-bound */
	bool *err_sent;				/* per worker: its error went out as LIVE_ERROR */
};

_Static_assert(MAILBOX_TEXT_MAX <= LIVE_TEXT_MAX, "a worker's text fits in LIVE_TEXT parts");
_Static_assert(sizeof(((struct worker *)0)->err) <= LIVE_ERROR_MAX,
	       "a worker's error fits in LIVE_ERROR parts");
_Static_assert(LIVE_ERROR_PARTS <= UINT8_MAX, "a part number fits its field");

static const double live_plist[3] = { 50.0, 99.0, 99.9 };

/* %util misleads where the device serves requests in parallel (iostat's manual). */
static bool util_meaningful(const char *name)
{
	return strncmp(name, "nvme", 4) && strncmp(name, "md", 2) && strncmp(name, "dm-", 3);
}

struct live_sampler *live_sampler_new(struct worker *ws, size_t nr_workers,
				      const char *const *disks, size_t nr_disks)
{
	struct live_sampler *ls = calloc(1, sizeof(*ls));
	size_t i;

	if (!ls)
		return NULL;
	ls->ws = ws;
	ls->nr = nr_workers;
	ls->prev = calloc(nr_workers ? nr_workers : 1, sizeof(*ls->prev));
	ls->disks = calloc(nr_disks ? nr_disks : 1, sizeof(*ls->disks));
	/* per worker 3 I/O + 1 status; the total's 3 + 1; a disk each; the tick end (a text's
	 * parts, rare, may flush the batch early: push() keeps the order) */
	ls->max_batch = (uint32_t)(nr_workers * 4 + nr_disks + 8 + LIVE_TEXT_PARTS);
	ls->batch = calloc(ls->max_batch, sizeof(*ls->batch));
	if (!ls->prev || !ls->disks || !ls->batch) {
		live_sampler_free(ls);
		return NULL;
	}
	ls->set_of = calloc(nr_workers ? nr_workers : 1, sizeof(*ls->set_of));
	ls->set_plan_s = calloc(nr_workers ? nr_workers : 1, sizeof(*ls->set_plan_s));
	ls->err_sent = calloc(nr_workers ? nr_workers : 1, sizeof(*ls->err_sent));
	if (!ls->set_of || !ls->set_plan_s || !ls->err_sent) {
		live_sampler_free(ls);
		return NULL;
	}
	for (i = 0; i < nr_workers; i++) {
		const struct job_spec *j = ws[i].job;
		uint64_t plan = j->runtime_us ? (j->runtime_us + j->ramp_time_us) / 1000000 : 0;

		/* the same split as the runner's: a stonewall job that is not a clone */
		if (i && j->stonewall && j != ws[i - 1].job)
			ls->nr_sets++;
		ls->set_of[i] = ls->nr_sets;
		if (plan > ls->set_plan_s[ls->nr_sets])
			ls->set_plan_s[ls->nr_sets] = plan;
	}
	ls->nr_sets++;
	ls->nr_disks = nr_disks;
	for (i = 0; i < nr_disks; i++) {
		snprintf(ls->disks[i].name, sizeof(ls->disks[i].name), "%s", disks[i]);
		ls->disks[i].have = !diskstat_read(disks[i], &ls->disks[i].prev);
		ls->disks[i].util_meaningful = util_meaningful(disks[i]);
	}
	return ls;
}

void live_sampler_free(struct live_sampler *ls)
{
	if (!ls)
		return;
	free(ls->prev);
	free(ls->set_of);
	free(ls->set_plan_s);
	free(ls->err_sent);
	free(ls->disks);
	free(ls->batch);
	free(ls);
}

static void push(struct live_sampler *ls, struct ring *r, struct live_rec *rec)
{
	rec->seq = ls->seq++;
	if (ls->nr_batch == ls->max_batch) {
		ring_push_batch(r, ls->batch, ls->nr_batch);
		ls->nr_batch = 0;
	}
	ls->batch[ls->nr_batch++] = *rec;
}

/* A job's text as LIVE_TEXT (or LIVE_ERROR) parts, one after another in the batch. */
static void push_text(struct live_sampler *ls, struct ring *r, uint8_t type, size_t job,
		      uint64_t now, const char *text)
{
	size_t len = strlen(text), at = 0;
	uint8_t part = 0, parts = (uint8_t)(len ? (len + LIVE_TEXT_PART - 1) / LIVE_TEXT_PART : 1);

	do {
		struct live_rec rec = { .type = type, .job = (uint16_t)job, .t_ns = now };
		size_t n = len - at < LIVE_TEXT_PART ? len - at : LIVE_TEXT_PART;

		rec.u.text.part = part++;
		rec.u.text.parts = parts;
		rec.u.text.len = (uint8_t)n;
		memcpy(rec.u.text.s, text + at, n);
		at += n;
		push(ls, r, &rec);
	} while (at < len);
}

static uint32_t sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Interval latency fields of an I/O record from a histogram delta. */
static void fill_latency(struct live_rec *rec, const uint64_t *delta, uint64_t lat_sum,
			 uint64_t ios)
{
	uint64_t pct[3];
	int b;

	if (!ios)
		return;
	hist_percentiles(delta, live_plist, 3, pct);
	rec->u.io.p50_ns = sat32(pct[0]);
	rec->u.io.p99_ns = sat32(pct[1]);
	rec->u.io.p999_ns = sat32(pct[2]);
	rec->u.io.mean_ns = sat32(lat_sum / ios);
	for (b = HIST_NR - 1; b >= 0; b--)
		if (delta[b]) {
			rec->u.io.max_ns = sat32(hist_value((unsigned)b));
			break;
		}
}

static bool job_does(const struct job_spec *job, int d)
{
	if (d == DDIR_READ)
		return (job->rw & RW_READ) || job->verify;
	if (d == DDIR_WRITE)
		return job->rw & RW_WRITE;
	return job->rw & RW_TRIM;
}

/*
 * Progress of one worker (0..1) and its seconds left. A timed job's is its
 * clock; a job bound by its size has moved its share of all it will move
 * (pub_plan_bytes: the worker's own rule of passes and read-backs, see
 * worker_plan_bytes()); with runtime= too, it ends at whichever comes first.
 * moved: the bytes of the I/O records of this same tick (read once, so the
 * percent and the bytes beside it agree even when the worker moves megabytes
 * between two reads, as an unpaced read-back does).
 */
static double progress(struct worker *w, int phase, uint64_t now, uint64_t moved, uint64_t *eta)
{
	const struct job_spec *job = w->job;
	uint64_t start = atomic_load_explicit(&w->pub_stat_start_ns, memory_order_relaxed);
	uint64_t plan = atomic_load_explicit(&w->pub_plan_bytes, memory_order_relaxed);
	uint64_t bytes = atomic_load_explicit(&w->pub_ramp_bytes, memory_order_relaxed);
	uint64_t time_eta = UINT64_MAX, begin = start - job->ramp_time_us * 1000;
	double frac = 0;

	*eta = 0;
	if (phase == PHASE_DONE)
		return 1.0;
	if (job->runtime_us && start) {
		uint64_t end = start + job->runtime_us * 1000;

		if (now >= end)
			return 1.0;
		time_eta = (end - now) / 1000000000ull;
		frac = now > begin ? (double)(now - begin) / (double)(end - begin) : 0;
		if (job->time_based || !plan) {
			*eta = time_eta;
			return frac;
		}
	}
	bytes += moved;
	/* the ramp's bytes count toward the passes too (the worker's rule counts them) */
	if (plan && start && now > begin) {
		double rate = (double)bytes / (double)(now - begin);
		double part = bytes < plan ? (double)bytes / (double)plan : 1.0;

		*eta = time_eta;
		if (rate > 0 && plan > bytes &&
		    (double)(plan - bytes) / rate / 1e9 < (double)time_eta)
			*eta = (uint64_t)((double)(plan - bytes) / rate / 1e9);
		else if (time_eta == UINT64_MAX)
			*eta = 0;
		if (part > frac)
			frac = part;
	}
	return frac;
}

static void sample_workers(struct live_sampler *ls, struct ring *r, size_t from, size_t to,
			   uint64_t t0, uint64_t now_abs, uint64_t interval, unsigned *running_out)
{
	uint64_t dsum[DDIR_RWDIR_CNT] = { 0 }, dios[DDIR_RWDIR_CNT] = { 0 };
	uint64_t dbytes[DDIR_RWDIR_CNT] = { 0 }, errors = 0, inflight = 0, eta_max = 0;
	uint64_t delta[HIST_NR], now = now_abs - t0;
	bool used[DDIR_RWDIR_CNT] = { false };
	char text[MAILBOX_TEXT_MAX];
	unsigned running = 0, ramp = 0;
	double done = 0;
	size_t i;
	int d;
	unsigned b;

	memset(ls->tot_hist, 0, sizeof(ls->tot_hist));
	for (i = from; i < to; i++) {
		struct worker *w = &ls->ws[i];
		struct live_prev *p = &ls->prev[i];
		int phase = atomic_load_explicit(&w->phase, memory_order_acquire);
		uint64_t stat_start = atomic_load_explicit(&w->pub_stat_start_ns,
							   memory_order_relaxed);
		struct live_rec st = { .type = LIVE_STATUS, .job = (uint16_t)i, .t_ns = now };
		uint64_t eta, moved;

		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			struct live_rec rec = { .type = LIVE_IO, .ddir = (uint8_t)d,
						.job = (uint16_t)i, .t_ns = now };
			uint64_t ios = atomic_load_explicit(&w->pub_ios[d], memory_order_relaxed);
			uint64_t bytes = atomic_load_explicit(&w->pub_bytes[d], memory_order_relaxed);
			uint64_t lsum = atomic_load_explicit(&w->pub_lat_sum[d], memory_order_relaxed);
			const uint64_t *hist = w->ts.dir[d].clat_hist;

			if (!job_does(w->job, d) && ios == p->ios[d])
				continue;
			used[d] = true;
			for (b = 0; b < HIST_NR; b++) {
				uint64_t v = __atomic_load_n(&hist[b], __ATOMIC_RELAXED);

				delta[b] = v - p->hist[d][b];
				p->hist[d][b] = v;
				ls->tot_hist[d][b] += delta[b];
			}
			rec.u.io.ios = sat32(ios - p->ios[d]);
			rec.u.io.bytes = bytes - p->bytes[d];
			rec.u.io.tot_ios = ios;
			rec.u.io.tot_bytes = bytes;
			fill_latency(&rec, delta, lsum - p->lat_sum[d], ios - p->ios[d]);
			push(ls, r, &rec);
			dios[d] += ios - p->ios[d];
			dbytes[d] += bytes - p->bytes[d];
			dsum[d] += lsum - p->lat_sum[d];
			ls->tot_ios[d] += ios - p->ios[d];
			ls->tot_bytes[d] += bytes - p->bytes[d];
			p->ios[d] = ios;
			p->bytes[d] = bytes;
			p->lat_sum[d] = lsum;
		}
		/* the worker leaves its phase at "ramp": the ramp ends when statistics start */
		if (phase == PHASE_RAMP && stat_start && now_abs >= stat_start)
			phase = PHASE_RUN;
		st.ddir = (uint8_t)phase;
		st.u.st.running = phase != PHASE_DONE;
		st.u.st.inflight = sat32(atomic_load_explicit(&w->pub_inflight, memory_order_relaxed));
		st.u.st.errors = atomic_load_explicit(&w->pub_errors, memory_order_relaxed);
		st.u.st.interval_ns = interval;
		for (moved = 0, d = 0; d < DDIR_RWDIR_CNT; d++)
			moved += p->bytes[d];
		st.u.st.percent = (float)(100.0 * progress(w, phase, now_abs, moved, &eta));
		st.u.st.eta_s = eta;
		st.u.st.ramp = phase == PHASE_RAMP;
		push(ls, r, &st);
		if (mailbox_take(&w->text, text, sizeof(text)))
			push_text(ls, r, LIVE_TEXT, i, now, text);
		/* pairs with set_error's release store (core/worker.c): err is final now */
		if (!ls->err_sent[i] && atomic_load_explicit(&w->pub_failed, memory_order_acquire)) {
			push_text(ls, r, LIVE_ERROR, i, now, w->err);
			ls->err_sent[i] = true;
		}
		running += phase != PHASE_DONE;
		ramp += phase == PHASE_RAMP;
		inflight += st.u.st.inflight;
		errors += st.u.st.errors;
		done += st.u.st.percent / 100.0;
		eta_max = eta > eta_max ? eta : eta_max;
	}
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		struct live_rec rec = { .type = LIVE_IO, .ddir = (uint8_t)d, .job = LIVE_TOTAL,
					.t_ns = now };

		if (!used[d])
			continue;
		rec.u.io.ios = sat32(dios[d]);
		rec.u.io.bytes = dbytes[d];
		rec.u.io.tot_ios = ls->tot_ios[d];
		rec.u.io.tot_bytes = ls->tot_bytes[d];
		fill_latency(&rec, ls->tot_hist[d], dsum[d], dios[d]);
		push(ls, r, &rec);
	}
	{
		struct live_rec st = { .type = LIVE_STATUS, .job = LIVE_TOTAL, .t_ns = now };
		unsigned set = from < ls->nr ? ls->set_of[from] : 0, k;
		double frac = to > from ? done / (double)(to - from) : 1.0;

		st.u.st.running = running;
		st.u.st.ramp = ramp;
		st.u.st.inflight = sat32(inflight);
		st.u.st.errors = errors;
		st.u.st.interval_ns = interval;
		/* the whole run: the sets before this one are done, the later ones planned */
		st.u.st.eta_s = eta_max;
		for (k = set + 1; k < ls->nr_sets; k++)
			st.u.st.eta_s += ls->set_plan_s[k];
		st.u.st.percent = (float)(100.0 * (set + frac) / ls->nr_sets);
		st.u.st.drops = ring_dropped(r);
		push(ls, r, &st);
	}
	*running_out = running;
}

static void sample_disks(struct live_sampler *ls, struct ring *r, uint64_t t_rel)
{
	size_t i;

	for (i = 0; i < ls->nr_disks; i++) {
		struct live_disk *dk = &ls->disks[i];
		struct live_rec rec = { .type = LIVE_DISK, .job = (uint16_t)i, .t_ns = t_rel };
		struct diskstat_snap now;

		if (diskstat_read(dk->name, &now))
			continue;
		if (dk->have) {
			const uint64_t *a = dk->prev.v, *b = now.v;

			rec.u.disk.r_ios = sat32(b[0] - a[0]);
			rec.u.disk.r_sectors = sat32(b[2] - a[2]);
			rec.u.disk.r_ticks = sat32(b[3] - a[3]);
			rec.u.disk.w_ios = sat32(b[4] - a[4]);
			rec.u.disk.w_sectors = sat32(b[6] - a[6]);
			rec.u.disk.w_ticks = sat32(b[7] - a[7]);
			rec.u.disk.io_ticks = sat32(b[9] - a[9]);
			rec.u.disk.queue_ticks = sat32(b[10] - a[10]);
			rec.u.disk.interval_ms = sat32((now.t_ns - dk->prev.t_ns) / 1000000);
			rec.u.disk.util_meaningful = dk->util_meaningful;
			snprintf(rec.u.disk.name, sizeof(rec.u.disk.name), "%.7s", dk->name);
			push(ls, r, &rec);
		}
		dk->prev = now;
		dk->have = true;
	}
}

unsigned live_sample(struct live_sampler *ls, struct ring *r, size_t from, size_t to,
		     uint64_t t0, uint64_t now)
{
	struct live_rec end = { .type = LIVE_TICK_END, .t_ns = now - t0 };
	uint64_t interval = now - (ls->last_ns ? ls->last_ns : t0);
	unsigned running;

	sample_workers(ls, r, from, to, t0, now, interval, &running);
	sample_disks(ls, r, now - t0);
	push(ls, r, &end);
	ring_push_batch(r, ls->batch, ls->nr_batch);
	ls->nr_batch = 0;
	ls->last_ns = now;
	return running;
}
