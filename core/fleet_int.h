/*
 * fleet_int.h - what the rooms of the fleet client share (core/fleet.c the
 * connections and the loop, fleet_setup.c addresses, job text and layout,
 * fleet_live.c the live records). Not for use outside core/fleet*.c.
 */
#ifndef RB_FLEET_INT_H
#define RB_FLEET_INT_H

#include "fleet.h"

#define FLEET_TEXT_MAX 2048

struct slot_prev {
	uint64_t ios[DDIR_RWDIR_CNT];
	uint64_t bytes[DDIR_RWDIR_CNT];
	double lat_sum[DDIR_RWDIR_CNT];	/* clat mean * samples: sums subtract */
	uint64_t *hist;			/* [DDIR_RWDIR_CNT][HIST_NR] clat, as of the last tick */
};

struct fleet_host_priv {
	int fd;
	struct fio_rx rx;
	struct fio_buf tx;
	uint64_t started_ns;		/* connect began */
	uint64_t last_rx_ns;
	uint64_t eta_tag;		/* outstanding ETA request, 0 = none */
	uint32_t jobs, stat_outputs;
	unsigned starts;		/* START replies: JOBLINE's then JOB's */
	bool run_sent, quit_sent, got_stop;
	/* the set being gathered */
	struct thread_stat *batch;
	size_t nr_batch;
	bool gs_phase;			/* GS arrived: the next TS starts a new set */
	/* live */
	struct slot_prev *prev;		/* per layout job row of this host */
	size_t nr_slots;
	char text[FLEET_TEXT_MAX];	/* what the server printed (its error messages) */
	size_t text_len;
};

struct fleet_priv {
	char **names;
	char **hosts;
	int *groups;
	uint64_t *hist_tmp;		/* [3][HIST_NR] per host, summed */
	uint64_t *hist_all;		/* [3][HIST_NR] all hosts */
	struct live_rec *recs;
	size_t nr_recs, cap_recs;
	uint32_t seq;
};

/* fleet_setup.c: the live layout (a total row per host, then its job rows) */
int fleet_layout_build(struct fleet *f, const struct job_list *jl);
/* fleet_live.c: one tick's records, from the newest status set of every host */
void fleet_tick_records(struct fleet *f, uint64_t now, uint64_t interval_ns);
/* fleet_live.c: queues a record for the tick's batch push */
void fleet_emit(struct fleet *f, const struct live_rec *r);
bool fleet_host_live(const struct fleet_host *h);

#endif
