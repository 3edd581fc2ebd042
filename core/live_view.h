/*
 * live_view.h - the one decoder of live records (core/live_rec.h): it
 * gathers a tick's records and, at the tick's end, turns them into rates
 * per job, in total and per device, so every view (the status line, --live
 * JSON, the Run screen, the sweep, the series a result keeps) reads the same
 * numbers.
 *
 * Threading contract: a struct live_view belongs to the thread that pops the
 * ring (the run's consumer); nothing in it is shared. Never prints.
 */
#ifndef RB_LIVE_VIEW_H
#define RB_LIVE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "live_rec.h"

#define LIVE_NR_DDIR 3		/* read, write, trim: as enum rb_ddir */

/* One direction of one job (or the total) over one interval. */
struct live_io {
	bool seen;		/* a record came this tick */
	uint64_t ios, bytes;	/* completed in the interval */
	double iops, bw;	/* per second over the interval; bytes/s */
	uint32_t mean_ns, p50_ns, p99_ns, p999_ns, max_ns;
	uint64_t tot_ios, tot_bytes;	/* since the run started */
};

/* One job (or the total): its directions and its status over one interval. */
struct live_job {
	bool seen;		/* a status record came this tick */
	struct live_io io[LIVE_NR_DDIR];
	int phase;		/* enum worker_phase; the total has none (-1) */
	uint32_t running;	/* total: workers not done; a job: 1 or 0 */
	uint32_t ramp;		/* total: workers in ramp */
	uint32_t inflight;	/* I/Os submitted and not completed, or jobs inside a syscall */
	uint64_t errors;
	float percent;
	uint64_t eta_s;
};

/* One device over one interval, in iostat's terms. */
struct live_dev {
	bool seen;		/* a record came this tick */
	char name[32];		/* the layout's full name, else the record's short one */
	double r_s, w_s;	/* completions per second */
	double rmb_s, wmb_s;	/* MB/s (1,000,000 bytes) */
	double aqu_sz;		/* average queue size */
	double r_await_ms, w_await_ms;
	double util_pct;	/* < 0: not meaningful (NVMe, md, dm) */
	double busy_pct;	/* the same figure whatever the device: time busy, capped at 100 */
	double interval_s;	/* what the figures are over; 0: none yet */
	uint64_t t_ns;		/* when the last record was sampled, since the run started */
	/* the records' counts, summed when a tick's end was lost (the figures come from them) */
	struct {
		uint64_t r_ios, w_ios, r_sectors, w_sectors, r_ticks, w_ticks;
		uint64_t io_ticks, queue_ticks, interval_ms;
		bool util_meaningful;
	} raw;
};

/* A whole tick as the views show it. */
struct live_tick {
	uint64_t t_ns;		/* elapsed since the run started */
	uint64_t interval_ns;
	uint64_t drops;		/* records the ring dropped so far */
	struct live_job total;
	struct live_job *jobs;	/* nr_jobs of them */
	struct live_dev *devs;	/* nr_devs of them */
};

struct live_view {
	size_t nr_jobs, nr_devs;
	struct live_tick now;	/* the last complete tick */
	struct live_tick next;	/* the one being gathered */
	uint64_t ticks;		/* complete ticks so far */
	bool gathering;		/* records came since the last tick's end */
	bool ended;		/* LIVE_END came */
	/*
	 * Each job's latest text (LIVE_TEXT: exec's program output under the
	 * TUI), "" before any: printable ASCII only, whole or not at all (a text
	 * with a part lost keeps the one before). Not tied to ticks.
	 */
	char (*text)[LIVE_TEXT_MAX];
	/*
	 * The error each job failed with (LIVE_ERROR), "" for a job that has
	 * not: checked as the texts are, whole or not at all (a part lost loses
	 * it: the run's end still reports it). nr_errors counts the errors taken
	 * so far and last_error is the job of the latest, so a consumer that
	 * compares nr_errors after each record sees each one once.
	 */
	char (*error)[LIVE_ERROR_MAX];
	uint64_t nr_errors;
	size_t last_error;
	struct {
		bool on;	/* parts are coming */
		uint8_t type;	/* LIVE_TEXT or LIVE_ERROR */
		uint16_t job;
		uint8_t next, parts;
		uint32_t seq;	/* the last part's record sequence number */
		size_t len;
		char s[LIVE_ERROR_MAX];
	} part;			/* the text being put together */
};

/*
 * Sizes the view for a run's layout: device names are copied (NULL: the
 * records' short names). 0 or -ENOMEM; release with live_view_release.
 */
int live_view_init(struct live_view *v, size_t nr_jobs, size_t nr_devs,
		   const char *const *dev_names);
void live_view_release(struct live_view *v);

/* Feeds one record; true when it closed a tick (v->now then holds it). */
bool live_view_feed(struct live_view *v, const struct live_rec *rec);

/*
 * Closes the tick being gathered as if its end came at t_ns: for a consumer
 * that must not lose the records after the last tick's end (only a ring that
 * dropped that end leaves any). True when there were records (v->now holds them).
 */
bool live_view_flush(struct live_view *v, uint64_t t_ns);

/*
 * The line that says job j failed, "job 'NAME' failed: WHY" (name from the
 * run's layout; the error's own "job 'NAME': " does not come twice), into
 * buf; "" when the job has not failed.
 */
void live_view_error_line(const struct live_view *v, size_t j, const char *name, char *buf,
			  size_t len);

/* "setup", "layout", "ramp", "run", "verify", "done"; "?" for anything else. */
const char *live_phase_name(int phase);

/* "read", "write", "trim"; "?" for anything else. */
const char *live_ddir_name(int ddir);

#endif
