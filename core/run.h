/*
 * run.h - a whole run: every job of a job list, its clones, the stonewall
 * sequence, the sampler that turns counters into bw/iops samples and live
 * ticks, and the merged results.
 *
 * Threading contract: run_jobs() is called from the UI/main thread. It starts
 * an engine thread that starts the workers, samples them every tick and
 * pushes live records (core/ring.h) into a single-producer/single-consumer
 * ring; the calling thread is the ring's consumer and hands each record to
 * the observer. Engine and worker threads run with SIGINT, SIGTERM, SIGHUP
 * and SIGWINCH blocked. *interrupt may be set from a signal handler.
 */
#ifndef RB_RUN_H
#define RB_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"
#include "guard.h"
#include "job.h"
#include "stats.h"

struct worker;
struct series;

/* Names the live records refer to by index; valid from setup_done() to run_jobs()'s return. */
struct run_layout {
	size_t nr_workers;
	const char *const *worker_names;	/* job name of each worker */
	const int *worker_groups;	/* fleets: -1 marks a host's total row */
	const char *const *worker_hosts;	/* fleets: each row's host; NULL for a local run */
	const int *worker_nodes;	/* NUMA node each worker is placed on (-1: none); may be NULL */
	size_t nr_disks;
	const char *const *disk_names;		/* full kernel names: LIVE_DISK job = index */
	unsigned interval_ms;
};

struct live_rec;

struct run_observer {
	/* once, after every clone is set up and before any I/O */
	void (*setup_done)(void *arg, const struct job_list *jl, const struct run_layout *lay);
	/* every record popped from the live ring, in order, on the caller's thread */
	void (*record)(void *arg, const struct live_rec *rec);
	void *arg;
	unsigned interval_ms;	/* engine tick, default 100 */
};

struct run_params {
	const struct guard_consent *consent;
	const struct run_observer *observer;	/* NULL: no live view */
	volatile sig_atomic_t *interrupt;	/* set to stop the run early */
};

struct run_result {
	struct worker *workers;
	size_t nr_workers;
	struct thread_stat *ts;	/* per clone, or per group under group_reporting */
	size_t nr_ts;
	struct group_stat *gs;
	size_t nr_gs;
	struct disk_util *du;
	size_t nr_du;
	bool interrupted;
	uint64_t live_drops;	/* live records the ring dropped (a slow consumer) */
	int error;		/* first job error (positive errno), 0 = all ok */
	bool setup_wrote;	/* run_begin() failed after writing (a file's layout): not a refusal */
	char error_msgs[4096];	/* one line per failed job */
	char notes[4096];	/* one line per job that did less without failing (exec_prerun) */
	uint64_t start_realtime_ms;
	struct series *series;	/* per-interval series (core/series.h), NULL when none */
	struct flow_table flows;	/* flow=: the counters the workers share */
};

/*
 * Sets up every job clone (targets, write guard, layout) before any I/O, then
 * runs the stonewall sets in order. Returns 0 when the run happened (job
 * errors are in res->error / res->error_msgs), or -errno when setup failed
 * and nothing ran (err holds the one-line reason).
 */
int run_jobs(const struct job_list *jl, const struct run_params *p, struct run_result *res,
	     char *err, size_t errlen);

/*
 * fio's read-only mode: with --readonly a job that writes or trims is refused
 * before anything runs, whatever its target (an engine that moves no data too). Returns 0,
 * or -EPERM with err naming the job and its rw=.
 */
int run_check_readonly(const struct job_list *jl, bool readonly, char *err, size_t errlen);

/*
 * The same in steps, for a UI that owns its event loop: run_begin() sets up
 * and starts the engine thread (nothing else blocks); run_drain() hands every
 * record waiting in the ring to the observer and returns true once the run is
 * over and the ring is empty (call it every frame); run_stop() asks the
 * workers to stop (partial results are kept); run_end() waits, joins and
 * fills res, then frees the handle. On a run_begin() error nothing ran and
 * res must still be released.
 */
struct run_handle;
int run_begin(const struct job_list *jl, const struct run_params *p, struct run_result *res,
	      struct run_handle **h, char *err, size_t errlen);
bool run_drain(struct run_handle *h);
void run_stop(struct run_handle *h);
unsigned run_interval_ms(const struct run_handle *h);
int run_end(struct run_handle *h, char *err, size_t errlen);

void run_result_release(struct run_result *res);

struct run_report;
/* A report of a finished run (core/report.h), timestamped now; points into jl and res. */
void run_report_init(struct run_report *rep, const struct job_list *jl,
		     const struct run_result *res);

#endif
