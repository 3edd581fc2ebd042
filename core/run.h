/*
 * run.h - a whole run: every job of a job list, its clones, the stonewall
 * sequence, the sampler that turns counters into bw/iops samples and live
 * ticks, and the merged results.
 *
 * Threading contract: run_jobs() is called from the UI/main thread and runs
 * the sampler loop on that thread; workers run on their own threads with
 * SIGINT, SIGTERM and SIGWINCH blocked. The observer's tick() is called on
 * the caller's thread only. *interrupt may be set from a signal handler.
 */
#ifndef RB_RUN_H
#define RB_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "guard.h"
#include "job.h"
#include "stats.h"

struct worker;

/* What a live view sees every tick: cumulative totals over all workers. */
struct run_tick {
	uint64_t elapsed_ns;
	unsigned nr_workers;
	unsigned nr_running;
	unsigned nr_ramp;
	unsigned nr_verify;
	unsigned nr_layout;
	uint64_t bytes[DDIR_RWDIR_CNT];
	uint64_t ios[DDIR_RWDIR_CNT];
	uint64_t inflight;
	double percent;		/* progress of the current stonewall set, 0..100 */
	uint64_t eta_s;
};

struct run_observer {
	/* once, after every clone is set up and before any I/O */
	void (*setup_done)(void *arg, const struct job_list *jl);
	void (*tick)(void *arg, const struct run_tick *t);
	void *arg;
	unsigned interval_ms;	/* default 100 */
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
	int error;		/* first job error (positive errno), 0 = all ok */
	char error_msgs[4096];	/* one line per failed job */
	uint64_t start_realtime_ms;
};

/*
 * Sets up every job clone (targets, write guard, layout) before any I/O, then
 * runs the stonewall sets in order. Returns 0 when the run happened (job
 * errors are in res->error / res->error_msgs), or -errno when setup failed
 * and nothing ran (err holds the one-line reason).
 */
int run_jobs(const struct job_list *jl, const struct run_params *p, struct run_result *res,
	     char *err, size_t errlen);

void run_result_release(struct run_result *res);

#endif
