/*
 * run.c - runs a job list: sets up every clone, starts each stonewall set,
 * samples the workers' counters on the caller's thread (bw/iops samples every
 * bwavgtime, live ticks for the observer), joins, and merges the statistics
 * into reporting entries and groups.
 *
 * Never prints; the observer and the caller decide what the user sees.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "clock.h"
#include "diskstats.h"
#include "run.h"
#include "worker.h"

/* The sampler's view of one worker: the last bw/iops sample point. */
struct sampler {
	uint64_t last_ns;
	uint64_t last_bytes[DDIR_RWDIR_CNT];
	uint64_t last_ios[DDIR_RWDIR_CNT];
	bool started;
	struct lat_stat bw[DDIR_RWDIR_CNT];
	struct lat_stat iops[DDIR_RWDIR_CNT];
};

struct disk_track {
	char name[64];
	struct diskstat_snap a, b;
};

static void sample_worker(struct worker *w, struct sampler *s, uint64_t now)
{
	const struct job_spec *job = w->job;
	int phase = atomic_load_explicit(&w->phase, memory_order_acquire);
	uint64_t start = atomic_load_explicit(&w->pub_stat_start_ns, memory_order_relaxed);
	uint64_t avg_ns = (uint64_t)(job->bwavgtime_ms ? job->bwavgtime_ms : 500) * 1000000ull;
	int d;

	if (phase != PHASE_RUN && phase != PHASE_RAMP && phase != PHASE_VERIFY)
		return;
	if (!start || now < start)
		return;
	if (!s->started) {
		s->started = true;
		s->last_ns = start;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			s->last_bytes[d] = atomic_load_explicit(&w->pub_bytes[d],
								memory_order_relaxed);
			s->last_ios[d] = atomic_load_explicit(&w->pub_ios[d],
							      memory_order_relaxed);
		}
		return;
	}
	if (now - s->last_ns < avg_ns)
		return;
	for (d = 0; d < DDIR_RWDIR_CNT; d++) {
		uint64_t b = atomic_load_explicit(&w->pub_bytes[d], memory_order_relaxed);
		uint64_t n = atomic_load_explicit(&w->pub_ios[d], memory_order_relaxed);
		uint64_t ms = (now - s->last_ns) / 1000000;

		if (b != s->last_bytes[d] && ms) {
			lat_stat_add(&s->bw[d], (b - s->last_bytes[d]) * 1000 / ms / 1024);
			lat_stat_add(&s->iops[d], (n - s->last_ios[d]) * 1000 / ms);
		}
		s->last_bytes[d] = b;
		s->last_ios[d] = n;
	}
	s->last_ns = now;
}

static void fill_tick(struct worker *ws, size_t from, size_t to, uint64_t t0, uint64_t now,
		      struct run_tick *t)
{
	double done = 0, want = 0;
	uint64_t eta = 0;
	size_t i;
	int d;

	memset(t, 0, sizeof(*t));
	t->elapsed_ns = now - t0;
	t->nr_workers = (unsigned)(to - from);
	for (i = from; i < to; i++) {
		struct worker *w = &ws[i];
		const struct job_spec *job = w->job;
		int phase = atomic_load_explicit(&w->phase, memory_order_acquire);
		uint64_t start = atomic_load_explicit(&w->pub_stat_start_ns, memory_order_relaxed);
		uint64_t bytes = 0;

		t->nr_running += phase != PHASE_DONE;
		t->nr_ramp += phase == PHASE_RAMP;
		t->nr_verify += phase == PHASE_VERIFY;
		t->nr_layout += phase == PHASE_LAYOUT;
		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			uint64_t b = atomic_load_explicit(&w->pub_bytes[d], memory_order_relaxed);

			t->bytes[d] += b;
			bytes += b;
			t->ios[d] += atomic_load_explicit(&w->pub_ios[d], memory_order_relaxed);
		}
		t->inflight += atomic_load_explicit(&w->pub_inflight, memory_order_relaxed);
		if (job->runtime_us && start) {
			uint64_t end = start + job->runtime_us * 1000;
			double span = (double)(end - t0);

			want += 1;
			if (phase == PHASE_DONE || now >= end)
				done += 1;
			else {
				done += (double)(now - t0) / span;
				if ((end - now) / 1000000000ull > eta)
					eta = (end - now) / 1000000000ull;
			}
		} else if (w->io_limit) {
			double total = (double)w->io_limit * (job->loops ? job->loops : 1);

			want += 1;
			done += phase == PHASE_DONE ? 1.0 : (double)bytes / total;
			if (phase != PHASE_DONE && bytes && now > start) {
				double rate = (double)bytes / (double)(now - start);
				uint64_t left = (uint64_t)((total - (double)bytes) / rate / 1e9);

				eta = left > eta ? left : eta;
			}
		}
	}
	t->percent = want > 0 ? 100.0 * done / want : 0;
	if (t->percent > 100)
		t->percent = 100;
	t->eta_s = eta;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int start_set(struct worker *ws, size_t from, size_t to, uint64_t t0, char *err,
		     size_t errlen)
{
	sigset_t block, old;
	size_t i;
	int ret = 0;

	/* workers inherit a mask without the signals the UI thread handles */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = from; i < to; i++) {
		ws[i].run_start_ns = t0;
		ret = pthread_create(&ws[i].thread, NULL, worker_main, &ws[i]);
		if (ret) {
			snprintf(err, errlen, "cannot start a thread for job '%s': %s",
				 ws[i].job->name, strerror(ret));
			break;
		}
		ws[i].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret ? -ret : 0;
}

static void track_disks(struct run_result *res, struct disk_track **tracks, size_t *nr)
{
	size_t i, k;
	unsigned f;

	for (i = 0; i < res->nr_workers; i++) {
		struct worker *w = &res->workers[i];

		for (f = 0; f < w->nr_files && w->files[f].fd >= 0; f++) {
			char name[64];
			struct disk_track *t;

			if (diskstat_name_for_path(w->files[f].path, name, sizeof(name)))
				continue;
			for (k = 0; k < *nr; k++)
				if (!strcmp((*tracks)[k].name, name))
					break;
			if (k < *nr)
				continue;
			t = realloc(*tracks, (*nr + 1) * sizeof(**tracks));
			if (!t)
				return;
			*tracks = t;
			memset(&t[*nr], 0, sizeof(t[*nr]));
			snprintf(t[*nr].name, sizeof(t[*nr].name), "%s", name);
			if (diskstat_read(name, &t[*nr].a))
				continue;
			(*nr)++;
		}
	}
}

/* One reporting entry per clone, or per group when its jobs ask for group_reporting. */
static int build_entries(struct run_result *res, struct sampler *smp)
{
	size_t i, k;
	int *group_entry = NULL, max_gid = 0;

	for (i = 0; i < res->nr_workers; i++)
		if (res->workers[i].job->groupid > max_gid)
			max_gid = res->workers[i].job->groupid;
	group_entry = malloc(sizeof(int) * (size_t)(max_gid + 1));
	res->ts = calloc(res->nr_workers ? res->nr_workers : 1, sizeof(*res->ts));
	if (!group_entry || !res->ts) {
		free(group_entry);
		return -ENOMEM;
	}
	for (i = 0; i <= (size_t)max_gid; i++)
		group_entry[i] = -1;
	for (i = 0; i < res->nr_workers; i++) {
		struct worker *w = &res->workers[i];
		struct thread_stat *ts = &w->ts;
		int d;

		for (d = 0; d < DDIR_RWDIR_CNT; d++) {
			ts->dir[d].bw = smp[i].bw[d];
			ts->dir[d].iops = smp[i].iops[d];
		}
		ts->nr_jobs = 1;
		ts->groupid = w->job->groupid;
		ts->latency_depth = w->job->iodepth;
		if (w->job->group_reporting && group_entry[ts->groupid] >= 0) {
			thread_stat_merge(&res->ts[group_entry[ts->groupid]], ts);
			continue;
		}
		k = res->nr_ts++;
		res->ts[k] = *ts;
		if (w->job->group_reporting)
			group_entry[ts->groupid] = (int)k;
	}
	free(group_entry);
	return group_stats_build(res->ts, res->nr_ts, &res->gs, &res->nr_gs);
}

static size_t count_workers(const struct job_list *jl)
{
	size_t i, n = 0;

	for (i = 0; i < jl->nr; i++)
		n += jl->jobs[i].numjobs ? jl->jobs[i].numjobs : 1;
	return n;
}

int run_jobs(const struct job_list *jl, const struct run_params *p, struct run_result *res,
	     char *err, size_t errlen)
{
	unsigned interval = p->observer && p->observer->interval_ms ? p->observer->interval_ms
								     : 100;
	struct disk_track *disks = NULL;
	struct sampler *smp = NULL;
	size_t nr_disks = 0, i, k, from;
	struct timeval tv;
	uint64_t t0;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->nr_workers = count_workers(jl);
	res->workers = calloc(res->nr_workers, sizeof(*res->workers));
	smp = calloc(res->nr_workers, sizeof(*smp));
	if (!res->workers || !smp) {
		free(smp);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* Set up everything before any I/O: a bad target anywhere stops the whole run. */
	for (i = 0, k = 0; i < jl->nr; i++) {
		unsigned c, n = jl->jobs[i].numjobs ? jl->jobs[i].numjobs : 1;

		for (c = 0; c < n; c++, k++) {
			ret = worker_setup(&res->workers[k], &jl->jobs[i], c, (unsigned)k,
					   p->consent);
			if (ret) {
				snprintf(err, errlen, "%s", res->workers[k].err);
				res->nr_workers = k + 1;
				free(smp);
				return ret;
			}
		}
	}
	if (p->observer && p->observer->setup_done)
		p->observer->setup_done(p->observer->arg, jl);
	track_disks(res, &disks, &nr_disks);
	gettimeofday(&tv, NULL);
	res->start_realtime_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	t0 = rb_now_ns();

	for (from = 0; from < res->nr_workers && !ret;) {
		size_t to = from + 1;
		bool running = true;

		/* a stonewall set: this worker up to the next job that has stonewall */
		while (to < res->nr_workers &&
		       !(res->workers[to].job->stonewall && res->workers[to].job != res->workers[to - 1].job))
			to++;
		ret = start_set(res->workers, from, to, t0, err, errlen);
		while (running) {
			struct run_tick tick;
			uint64_t now;

			sleep_ms(interval);
			now = rb_now_ns();
			if (p->interrupt && *p->interrupt && !res->interrupted) {
				res->interrupted = true;
				for (i = 0; i < res->nr_workers; i++)
					atomic_store_explicit(&res->workers[i].stop, true,
							      memory_order_relaxed);
			}
			for (i = from; i < to; i++)
				sample_worker(&res->workers[i], &smp[i], now);
			fill_tick(res->workers, from, to, t0, now, &tick);
			if (p->observer && p->observer->tick)
				p->observer->tick(p->observer->arg, &tick);
			running = tick.nr_running > 0;
		}
		for (i = from; i < to; i++)
			if (res->workers[i].started)
				pthread_join(res->workers[i].thread, NULL);
		if (res->interrupted)
			break;
		from = to;
	}
	if (ret) {
		/* a thread failed to start: stop and join what did start */
		for (i = 0; i < res->nr_workers; i++)
			atomic_store_explicit(&res->workers[i].stop, true, memory_order_relaxed);
		for (i = 0; i < res->nr_workers; i++)
			if (res->workers[i].started)
				pthread_join(res->workers[i].thread, NULL);
	}

	res->du = calloc(nr_disks ? nr_disks : 1, sizeof(*res->du));
	for (i = 0; res->du && i < nr_disks; i++)
		if (!diskstat_read(disks[i].name, &disks[i].b))
			diskstat_util(&disks[i].a, &disks[i].b, &res->du[res->nr_du++]);
	free(disks);

	for (i = 0; i < res->nr_workers; i++) {
		struct worker *w = &res->workers[i];
		size_t len = strlen(res->error_msgs);

		if (!w->ts.error)
			continue;
		if (!res->error)
			res->error = w->ts.error;
		snprintf(w->ts.error_msg, sizeof(w->ts.error_msg), "%s", w->err);
		if (len + 2 < sizeof(res->error_msgs))
			snprintf(res->error_msgs + len, sizeof(res->error_msgs) - len, "%s\n",
				 w->err);
	}
	if (build_entries(res, smp) < 0 && !ret) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	free(smp);
	return ret;
}

void run_result_release(struct run_result *res)
{
	size_t i;

	for (i = 0; i < res->nr_workers; i++)
		worker_release(&res->workers[i]);
	free(res->workers);
	free(res->ts);
	free(res->gs);
	free(res->du);
	memset(res, 0, sizeof(*res));
}
