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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "clock.h"
#include "config.h"
#include "diskstats.h"
#include "live.h"
#include "report.h"
#include "ring.h"
#include "run.h"
#include "series.h"
#include "ui_thread.h"
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

static void sleep_ms(unsigned ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * Sleeps until the next tick of a fixed grid (start + k * interval), so ticks
 * do not drift by the time sampling takes. A tick missed by more than a whole
 * interval (the machine was busy) is skipped, not caught up in a burst.
 */
static void sleep_to_tick(uint64_t *next, uint64_t interval_ns)
{
	uint64_t now = rb_now_ns();

	if (*next > now)
		rb_sleep_ns(*next - now);
	*next += interval_ns;
	now = rb_now_ns();
	if (*next <= now)
		*next = now + interval_ns;
}

static int start_set(struct worker *ws, size_t from, size_t to, uint64_t t0, char *err,
		     size_t errlen)
{
	size_t i;
	int ret = 0;

	/*
	 * flow=: the group's weights join before any of its workers starts, or
	 * the first one up runs unchecked until the others join (as fio, whose
	 * jobs join their flow before the group's start signal)
	 */
	for (i = from; i < to; i++)
		if (ws[i].flow)
			flow_join(ws[i].flow, ws[i].job->flow);
	for (i = from; i < to; i++) {
		ws[i].run_start_ns = t0;
		/* workers never take the signals the UI thread handles */
		ret = app_thread_start(&ws[i].thread, worker_main, &ws[i]);
		if (ret) {
			snprintf(err, errlen, "cannot start a thread for job '%s': %s",
				 ws[i].job->name, strerror(ret));
			break;
		}
		ws[i].started = true;
		/* named for profilers and the bench's per-thread CPU figures */
		pthread_setname_np(ws[i].thread, "rb-job");
	}
	return ret ? -ret : 0;
}

/* Adds name (and, like fio, the members under it: an md array's drives) once to the tracks. */
static void track_disk(const char *name, struct disk_track **tracks, size_t *nr, int depth)
{
	char slaves[32][64];
	struct disk_track *t;
	size_t k, n;

	for (k = 0; k < *nr; k++)
		if (!strcmp((*tracks)[k].name, name))
			return;
	t = realloc(*tracks, (*nr + 1) * sizeof(**tracks));
	if (!t)
		return;
	*tracks = t;
	memset(&t[*nr], 0, sizeof(t[*nr]));
	snprintf(t[*nr].name, sizeof(t[*nr].name), "%s", name);
	if (diskstat_read(name, &t[*nr].a))
		return;
	(*nr)++;
	/* md on dm on a disk is three deep; a loop in sysfs must not recurse forever */
	if (depth >= 4)
		return;
	n = diskstat_slaves(name, slaves, 32);
	for (k = 0; k < n; k++)
		track_disk(slaves[k], tracks, nr, depth + 1);
}

static void track_disks(struct run_result *res, struct disk_track **tracks, size_t *nr)
{
	size_t i;
	unsigned f;

	for (i = 0; i < res->nr_workers; i++) {
		struct worker *w = &res->workers[i];

		for (f = 0; f < w->nr_files && w->files[f].fd >= 0; f++) {
			char name[64];

			if (!diskstat_name_for_path(w->files[f].path, name, sizeof(name)))
				track_disk(name, tracks, nr, 0);
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
		/* latency_target: the depth the search settled on (the worker's) */
		if (!w->job->latency_target_us)
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

/* A run in progress: everything the engine thread and the consumer share. */
struct run_handle {
	struct run_result *res;
	const struct run_params *p;
	struct sampler *smp;
	struct live_sampler *ls;
	struct ring ring;
	unsigned interval_ms;
	uint64_t t0;
	_Atomic bool stop;		/* set by the consumer: interrupt or stop */
	_Atomic bool done;		/* set by the engine thread when it has finished */
	bool consumer_done;		/* the consumer saw done and drained the ring */
	pthread_t thread;
	bool thread_started;
	int ret;
	char err[256];
	struct run_layout lay;		/* the observer keeps a pointer until run_end() */
	struct disk_track *disks;
	size_t nr_disks;
	const char **disk_names;
	struct series *series;		/* the ticks kept for the saved result */
	const char **names;
	int *groups;
	int *nodes;		/* each worker's NUMA node, -1 when not placed */
};

/*
 * exitall: once a job that has it finishes, the jobs running beside it
 * (its stonewall set, fio's default exit_what=group) are told to stop.
 */
static void exitall_check(struct worker *ws, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		/* pairs with the worker's release store of PHASE_DONE */
		if (ws[i].job->exitall &&
		    atomic_load_explicit(&ws[i].phase, memory_order_acquire) == PHASE_DONE)
			break;
	if (i == to)
		return;
	for (i = from; i < to; i++)
		atomic_store_explicit(&ws[i].stop, true, memory_order_relaxed);
}

static void *engine_main(void *arg)
{
	struct run_handle *e = arg;
	struct run_result *res = e->res;
	size_t from, i;
	bool stopped = false;

	for (from = 0; from < res->nr_workers && !e->ret;) {
		size_t to = from + 1;
		unsigned running = 1;
		uint64_t tick_ns = (uint64_t)e->interval_ms * 1000000, next;

		/* a stonewall set: this worker up to the next job that has stonewall */
		while (to < res->nr_workers &&
		       !(res->workers[to].job->stonewall &&
			 res->workers[to].job != res->workers[to - 1].job))
			to++;
		next = rb_now_ns() + tick_ns;
		e->ret = start_set(res->workers, from, to, e->t0, e->err, sizeof(e->err));
		while (running && !e->ret) {
			uint64_t now;

			sleep_to_tick(&next, tick_ns);
			now = rb_now_ns();
			if (!stopped && atomic_load_explicit(&e->stop, memory_order_relaxed)) {
				stopped = true;
				for (i = 0; i < res->nr_workers; i++)
					atomic_store_explicit(&res->workers[i].stop, true,
							      memory_order_relaxed);
			}
			for (i = from; i < to; i++)
				sample_worker(&res->workers[i], &e->smp[i], now);
			exitall_check(res->workers, from, to);
			running = live_sample(e->ls, &e->ring, from, to, e->t0, now);
		}
		for (i = from; i < to; i++)
			if (res->workers[i].started)
				pthread_join(res->workers[i].thread, NULL);
		/* the last interval: what completed between the last tick and the join */
		live_sample(e->ls, &e->ring, from, to, e->t0, rb_now_ns());
		if (stopped || atomic_load_explicit(&e->stop, memory_order_relaxed))
			break;
		from = to;
	}
	if (e->ret) {
		/* a thread failed to start: stop and join what did start */
		for (i = 0; i < res->nr_workers; i++)
			atomic_store_explicit(&res->workers[i].stop, true, memory_order_relaxed);
		for (i = 0; i < res->nr_workers; i++)
			if (res->workers[i].started)
				pthread_join(res->workers[i].thread, NULL);
	}
	{
		struct live_rec end = { .type = LIVE_END, .t_ns = rb_now_ns() - e->t0 };

		ring_push(&e->ring, &end);
	}
	/* pairs with the consumer's acquire load: every record is in the ring */
	atomic_store_explicit(&e->done, true, memory_order_release);
	return NULL;
}

bool run_drain(struct run_handle *e)
{
	const struct run_observer *obs = e->p->observer;
	struct live_rec batch[64];
	uint32_t n, k;
	bool done;

	if (e->consumer_done)
		return true;
	if (e->p->interrupt && *e->p->interrupt && !e->res->interrupted)
		run_stop(e);
	/* pairs with the release store in engine_main: read done before draining */
	done = atomic_load_explicit(&e->done, memory_order_acquire);
	while ((n = ring_pop_batch(&e->ring, batch, 64)) > 0)
		for (k = 0; k < n; k++) {
			series_feed(e->series, &batch[k]);
			if (obs && obs->record)
				obs->record(obs->arg, &batch[k]);
		}
	e->consumer_done = done;
	return done;
}

void run_stop(struct run_handle *e)
{
	e->res->interrupted = true;
	atomic_store_explicit(&e->stop, true, memory_order_relaxed);
}

unsigned run_interval_ms(const struct run_handle *e)
{
	return e->interval_ms;
}

static void handle_free(struct run_handle *e)
{
	live_sampler_free(e->ls);
	series_free(e->series);
	ring_release(&e->ring);
	free(e->smp);
	free(e->disks);
	free(e->disk_names);
	free(e->names);
	free(e->groups);
	free(e->nodes);
	free(e);
}

/* fio's name of an rw= pattern that writes or trims */
static const char *writing_rw_name(unsigned rw)
{
	bool r = rw & RW_RANDOM;

	if ((rw & RW_TRIM) && (rw & RW_WRITE))
		return r ? "randtrimwrite" : "trimwrite";
	if ((rw & RW_READ) && (rw & RW_WRITE))
		return r ? "randrw" : "rw";
	if (rw & RW_WRITE)
		return r ? "randwrite" : "write";
	return r ? "randtrim" : "trim";
}

int run_check_readonly(const struct job_list *jl, bool readonly, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; readonly && i < jl->nr; i++) {
		const struct job_spec *j = &jl->jobs[i];

		if (j->rw & (RW_WRITE | RW_TRIM)) {
			snprintf(err, errlen, "job '%s' %s (rw=%s) but --readonly is set: "
				 "nothing ran", j->name, j->rw & RW_WRITE ? "writes" : "trims",
				 writing_rw_name(j->rw));
			return -EPERM;
		}
	}
	return 0;
}

int run_begin(const struct job_list *jl, const struct run_params *p, struct run_result *res,
	      struct run_handle **out, char *err, size_t errlen)
{
	struct run_handle *e;
	struct timeval tv;
	size_t i, k;
	int ret = 0;

	*out = NULL;
	memset(res, 0, sizeof(*res));
	ret = run_check_readonly(jl, p->consent && p->consent->readonly, err, errlen);
	if (ret)
		return ret;
	e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	e->res = res;
	e->p = p;
	e->interval_ms = p->observer && p->observer->interval_ms ? p->observer->interval_ms : 100;
	res->nr_workers = count_workers(jl);
	res->workers = calloc(res->nr_workers, sizeof(*res->workers));
	e->smp = calloc(res->nr_workers, sizeof(*e->smp));
	e->names = calloc(res->nr_workers + 1, sizeof(*e->names));
	e->groups = calloc(res->nr_workers + 1, sizeof(*e->groups));
	e->nodes = calloc(res->nr_workers + 1, sizeof(*e->nodes));
	if (!res->workers || !e->smp || !e->names || !e->groups || !e->nodes) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	/* placement first: a job that cannot run leaves no file created by its siblings */
	for (i = 0; i < jl->nr; i++) {
		ret = worker_check_placement(&jl->jobs[i], err, errlen);
		if (ret) {
			res->nr_workers = 0;	/* none was set up */
			goto fail;
		}
	}
	/* Set up everything before any I/O: a bad target anywhere stops the whole run. */
	for (i = 0, k = 0; i < jl->nr; i++) {
		unsigned c, n = jl->jobs[i].numjobs ? jl->jobs[i].numjobs : 1;

		for (c = 0; c < n; c++, k++) {
			ret = worker_setup(&res->workers[k], &jl->jobs[i], c, (unsigned)k,
					   p->consent);
			if (ret) {
				snprintf(err, errlen, "%s", res->workers[k].err);
				res->setup_wrote = res->workers[k].setup_wrote;
				res->nr_workers = k + 1;
				goto fail;
			}
			e->names[k] = jl->jobs[i].name;
			e->groups[k] = jl->jobs[i].groupid;
			e->nodes[k] = res->workers[k].numa_node;
		}
	}
	/* flow=: the jobs of one flow_id share its counters */
	if (flow_table_init(&res->flows, res->nr_workers)) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	for (k = 0; k < res->nr_workers; k++)
		if (res->workers[k].job->flow)
			res->workers[k].flow = flow_table_get(&res->flows, res->workers[k].job->flow_id);
	track_disks(res, &e->disks, &e->nr_disks);
	e->disk_names = calloc(e->nr_disks + 1, sizeof(*e->disk_names));
	if (!e->disk_names || ring_init(&e->ring, RING_LIVE_CAPACITY)) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < e->nr_disks; i++)
		e->disk_names[i] = e->disks[i].name;
	e->ls = live_sampler_new(res->workers, res->nr_workers, e->disk_names, e->nr_disks);
	if (!e->ls) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	e->lay.nr_workers = res->nr_workers;
	e->lay.worker_names = e->names;
	e->lay.worker_groups = e->groups;
	e->lay.worker_nodes = e->nodes;
	e->lay.nr_disks = e->nr_disks;
	e->lay.disk_names = e->disk_names;
	e->lay.interval_ms = e->interval_ms;
	e->series = series_new(&e->lay);	/* NULL (no memory): the result has no series */
	if (p->observer && p->observer->setup_done)
		p->observer->setup_done(p->observer->arg, jl, &e->lay);
	gettimeofday(&tv, NULL);
	res->start_realtime_ms = (uint64_t)tv.tv_sec * 1000 + (uint64_t)tv.tv_usec / 1000;
	e->t0 = rb_now_ns();

	/* the engine thread and the workers it starts never take the UI's signals */
	ret = app_thread_start(&e->thread, engine_main, e);
	if (ret) {
		snprintf(err, errlen, "cannot start the engine thread: %s", strerror(ret));
		ret = -ret;
		goto fail;
	}
	pthread_setname_np(e->thread, "rb-engine");
	e->thread_started = true;
	*out = e;
	return 0;
fail:
	handle_free(e);
	return ret;
}

int run_end(struct run_handle *e, char *err, size_t errlen)
{
	struct run_result *res = e->res;
	size_t i;
	int ret = 0;

	while (!run_drain(e))
		sleep_ms(e->interval_ms / 4 ? e->interval_ms / 4 : 1);
	if (e->thread_started)
		pthread_join(e->thread, NULL);
	res->live_drops = ring_dropped(&e->ring);
	if (e->ret) {
		ret = e->ret;
		snprintf(err, errlen, "%s", e->err);
	}
	res->du = calloc(e->nr_disks ? e->nr_disks : 1, sizeof(*res->du));
	for (i = 0; res->du && i < e->nr_disks; i++)
		if (!diskstat_read(e->disks[i].name, &e->disks[i].b))
			diskstat_util(&e->disks[i].a, &e->disks[i].b, &res->du[res->nr_du++]);

	for (i = 0; i < res->nr_workers; i++) {
		struct worker *w = &res->workers[i];
		size_t len = strlen(res->error_msgs), nlen = strlen(res->notes);

		if (w->note[0] && nlen + 2 < sizeof(res->notes))
			snprintf(res->notes + nlen, sizeof(res->notes) - nlen, "%s\n", w->note);
		if (!w->ts.error)
			continue;
		if (!res->error)
			res->error = w->ts.error;
		snprintf(w->ts.error_msg, sizeof(w->ts.error_msg), "%s", w->err);
		if (len + 2 < sizeof(res->error_msgs))
			snprintf(res->error_msgs + len, sizeof(res->error_msgs) - len, "%s\n",
				 w->err);
	}
	res->series = e->series;
	e->series = NULL;
	if (build_entries(res, e->smp) < 0 && !ret) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
	}
	/* the run is over: its targets are free for anyone, whatever the caller keeps */
	for (i = 0; i < res->nr_workers; i++)
		worker_finish(&res->workers[i]);
	handle_free(e);
	return ret;
}

int run_jobs(const struct job_list *jl, const struct run_params *p, struct run_result *res,
	     char *err, size_t errlen)
{
	struct run_handle *e;
	int ret = run_begin(jl, p, res, &e, err, errlen);

	if (ret)
		return ret;
	while (!run_drain(e))
		sleep_ms(e->interval_ms / 4 ? e->interval_ms / 4 : 1);
	return run_end(e, err, errlen);
}

void run_report_init(struct run_report *rep, const struct job_list *jl,
		     const struct run_result *res)
{
	memset(rep, 0, sizeof(*rep));
	rep->jobs = jl;
	rep->ts = res->ts;
	rep->nr_ts = res->nr_ts;
	rep->gs = res->gs;
	rep->nr_gs = res->nr_gs;
	rep->du = res->du;
	rep->nr_du = res->nr_du;
	rep->when = time(NULL);
	rep->when_ms = (uint64_t)rep->when * 1000;
	rep->version = "raidbench-" PACKAGE_VERSION;
}

void run_result_release(struct run_result *res)
{
	size_t i;

	for (i = 0; i < res->nr_workers; i++)
		worker_release(&res->workers[i]);
	free(res->workers);
	flow_table_release(&res->flows);
	free(res->ts);
	free(res->gs);
	free(res->du);
	series_free(res->series);
	memset(res, 0, sizeof(*res));
}
