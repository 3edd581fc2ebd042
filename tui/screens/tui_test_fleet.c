/*
 * tui_test_fleet.c - the screen tests' fleet: `fake-fleet N [lost|version]`
 * feeds the Run screen N ticks of deterministic live records laid out as a
 * run on four fio servers (a total row per host, then its two jobs), with
 * the hosts' states as the fleet reports them: all running, one lost at
 * half time, or one of another protocol version from the start.
 */
#include <stdio.h>
#include <string.h>

#include "live_rec.h"
#include "run.h"
#include "stats.h"
#include "tui.h"
#include "tui_int.h"

#define NR_HOSTS 4
#define ROWS_PER_HOST 3		/* the host's total, then two jobs */

static void rec_io(struct app *app, unsigned job, int d, uint64_t t_ns, uint32_t ios,
		   uint64_t bytes, uint32_t p99)
{
	struct live_rec rec = { .type = LIVE_IO, .ddir = (uint8_t)d, .job = (uint16_t)job,
				.t_ns = t_ns };

	rec.u.io.ios = ios;
	rec.u.io.bytes = bytes;
	rec.u.io.p50_ns = p99 / 4;
	rec.u.io.p99_ns = p99;
	rec.u.io.p999_ns = p99 * 2;
	rec.u.io.max_ns = p99 * 3;
	scr_run_record(app->state[SCR_RUN], &rec);
}

static void rec_status(struct app *app, unsigned job, int phase, uint64_t t_ns, uint64_t errors,
		       uint32_t running, float pct, uint64_t eta)
{
	struct live_rec rec = { .type = LIVE_STATUS, .ddir = (uint8_t)phase, .job = (uint16_t)job,
				.t_ns = t_ns };

	rec.u.st.running = running;
	rec.u.st.errors = errors;
	rec.u.st.interval_ns = 100000000;
	rec.u.st.percent = pct;
	rec.u.st.eta_s = eta;
	scr_run_record(app->state[SCR_RUN], &rec);
}

void tui_test_fake_fleet(struct app *app, int ticks, const char *fault)
{
	static const char *const hosts[NR_HOSTS] = { "10.0.0.1,8765", "10.0.0.2,8765",
						     "10.0.0.3,8765", "10.0.0.4,8765" };
	static const char *const jobs[2] = { "seq-read-1m", "rand-write-4k" };
	const char *names[NR_HOSTS * ROWS_PER_HOST], *row_hosts[NR_HOSTS * ROWS_PER_HOST];
	int groups[NR_HOSTS * ROWS_PER_HOST];
	struct run_layout lay = { .nr_workers = NR_HOSTS * ROWS_PER_HOST, .worker_names = names,
				  .worker_groups = groups, .worker_hosts = row_hosts,
				  .interval_ms = 100 };
	bool lost = fault && !strcmp(fault, "lost"), version = fault && !strcmp(fault, "version");
	int h, j, t;

	for (h = 0; h < NR_HOSTS; h++) {
		names[h * ROWS_PER_HOST] = hosts[h];
		groups[h * ROWS_PER_HOST] = -1;
		row_hosts[h * ROWS_PER_HOST] = hosts[h];
		for (j = 0; j < 2; j++) {
			names[h * ROWS_PER_HOST + 1 + j] = jobs[j];
			groups[h * ROWS_PER_HOST + 1 + j] = 0;
			row_hosts[h * ROWS_PER_HOST + 1 + j] = hosts[h];
		}
	}
	scr_run_reset(app->state[SCR_RUN]);
	scr_run_layout(app->state[SCR_RUN], NULL, &lay);
	for (t = 1; t <= ticks; t++) {
		uint64_t now = (uint64_t)t * 100000000ull;
		uint32_t all_ios[2] = { 0 }, running = 0;
		uint64_t all_bytes[2] = { 0 };

		for (h = 0; h < NR_HOSTS; h++) {
			bool dead = (lost && h == 2 && t > ticks / 2) || (version && h == 1);
			uint32_t hios[2] = { 0 };
			uint64_t hbytes[2] = { 0 };
			const char *state = "running", *why = "";

			if (lost && h == 2 && t > ticks / 2) {
				state = "lost";
				why = "the connection closed mid-run (its last status is kept)";
			} else if (version && h == 1) {
				state = "version";
				why = "the server speaks fio protocol version 96, raidbench speaks 97 "
				      "(fio 3.33): run fio 3.33 there";
			}
			scr_run_host_state(app->state[SCR_RUN], (size_t)h, state, why);
			for (j = 0; j < 2 && !dead; j++) {
				unsigned row = (unsigned)(h * ROWS_PER_HOST + 1 + j);
				/* host 4 is the slow one: a quarter of the others' rate */
				uint32_t ios = (uint32_t)((j ? 2000 + 40 * (t % 5) : 60 + (t % 3)) /
							  (h == 3 ? 4 : 1));
				uint64_t bs = j ? 4096 : 1048576;
				int d = j ? DDIR_WRITE : DDIR_READ;

				rec_io(app, row, d, now, ios, ios * bs, j ? 180000u + 1000u * (unsigned)h :
					       2600000u);
				rec_status(app, row, PHASE_RUN, now, 0, 1, 0, 0);
				hios[d] += ios;
				hbytes[d] += ios * bs;
			}
			for (j = 0; j < 2; j++)
				rec_io(app, (unsigned)(h * ROWS_PER_HOST), j, now, hios[j], hbytes[j],
				       dead ? 0 : (j ? 180000u + 1000u * (unsigned)h : 2600000u));
			rec_status(app, (unsigned)(h * ROWS_PER_HOST), dead ? PHASE_DONE : PHASE_RUN, now,
				   dead ? 1 : 0, dead ? 0 : 2, 0, 0);
			for (j = 0; j < 2; j++) {
				all_ios[j] += hios[j];
				all_bytes[j] += hbytes[j];
			}
			running += dead ? 0 : 2;
		}
		for (j = 0; j < 2; j++)
			rec_io(app, LIVE_TOTAL, j, now, all_ios[j], all_bytes[j], j ? 183000 : 2600000);
		rec_status(app, LIVE_TOTAL, PHASE_RUN, now, lost && t > ticks / 2 ? 1 : 0, running,
			   (float)(100.0 * t / (ticks + 10)), (uint64_t)(ticks + 10 - t) / 10);
		scr_run_record(app->state[SCR_RUN], &(struct live_rec){ .type = LIVE_TICK_END,
									 .t_ns = now });
	}
}
