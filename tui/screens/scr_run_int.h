/*
 * scr_run_int.h - what the Run screen's own files share (scr_run.c, the
 * screen; run_table.c, its job and device rows); not for other screens.
 * UI thread only.
 */
#ifndef RB_SCR_RUN_INT_H
#define RB_SCR_RUN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "live_view.h"
#include "results.h"
#include "run_hosts.h"
#include "run_next.h"
#include "tui_int.h"

#define HIST_LEN 600		/* a minute of 100 ms ticks */

struct io_now {
	double iops, bw;	/* per second, this interval */
	uint32_t p50, p99, p999, max;
	uint64_t tot_ios;
};

/* A job's clones side by side: one row, "random x16", until 'x' expands it. */
struct job_group {
	size_t first, n;
};

/* A job that is done shows its whole run, not its last interval. */
struct job_whole {
	struct live_job last;	/* its last tick */
	bool seen;		/* it has run (its stonewall set started) */
	bool counting;		/* seen in the run phase (after ramp) */
	bool done;
	uint64_t t0_ns, t1_ns;
	uint64_t ios0[LIVE_NR_DDIR], bytes0[LIVE_NR_DDIR];
	uint64_t ios1[LIVE_NR_DDIR], bytes1[LIVE_NR_DDIR];
	double iops[LIVE_NR_DDIR], bw[LIVE_NR_DDIR];
	uint32_t p99;		/* the largest interval p99 it had */
};

struct run_state {
	struct live_view view;		/* decodes the records; view.now is the last tick */
	bool have_view;
	/* names, from the layout */
	size_t nr_jobs;
	char (*job_names)[48];
	int *job_groups;
	int *job_nodes;			/* NUMA node each worker was placed on, -1: none */
	bool has_nodes;			/* some worker was: the job table shows a node column */
	struct job_group *grp;
	size_t nr_grp;
	struct job_whole *whole;
	size_t nr_disks;
	/* the tick shown */
	struct io_now tot[LIVE_NR_DDIR];
	double interval_s;
	uint64_t elapsed_ns;
	float percent;
	uint64_t eta_s;
	uint64_t drops;
	uint32_t running, ramp, inflight;
	bool started, ended;
	/* the end of the run: its phases as saved (core/results.h), not a tick */
	struct result fin;
	bool have_fin;
	char fin_err[256];
	/* history for the graphs, oldest first */
	double h_iops[HIST_LEN], h_bw[HIST_LEN], h_p50[HIST_LEN], h_p99[HIST_LEN],
		h_p999[HIST_LEN];
	/* per direction, for the stacked charts, and each tick's time (seconds since the start) */
	double h_dir_iops[DDIR_RWDIR_CNT][HIST_LEN], h_dir_bw[DDIR_RWDIR_CNT][HIST_LEN],
		h_t[HIST_LEN];
	size_t h_n;
	bool graph_bw;		/* 'g' toggles IOPS / MB/s */
	bool expand;		/* 'x' shows every clone */
	bool confirm_stop;
	/* the jobs that failed so far, a line each (live_view_error_line), as they came */
	char live_err[4096];
	uint64_t nr_errors;		/* of view's errors, those in live_err */
	struct run_hosts *hosts;	/* a run on fio servers: the Hosts pane */
	struct run_next next;	/* what Enter starts */
};

/* Rows the job table needs: a row per job (its clones as one), or each clone when expanded. */
size_t run_table_rows(const struct run_state *st);

/*
 * The job rows, then the device rows, over r: every device row where they
 * fit, the jobs at least a header, a row and a "+N more" line.
 */
void run_table_draw(struct app *app, struct run_state *st, const struct rect *r);

#endif
