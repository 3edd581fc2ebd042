/*
 * app_fleet.c - the TUI's twin of `raidbench run --client=...`: the chosen
 * profile on many fio servers (raidbench --client=HOST ... --target=PATH),
 * the fleet stepped once a frame, its live records to the Run screen and
 * its hosts' states to the Hosts pane, the run saved as the command line
 * saves it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fleet.h"
#include "tui.h"
#include "tui_int.h"

int app_fleet_start(struct app *app)
{
	struct app_run *run = &app->run;
	struct fleet_addr *addrs = NULL;
	struct fleet_params fp = { 0 };
	size_t nr = 0, i;
	int ret;

	for (i = 0; i < run->nr_clients; i++) {
		ret = fleet_add_clients(run->clients[i], &addrs, &nr, run->error, sizeof(run->error));
		if (ret) {
			free(addrs);
			return ret;
		}
	}
	ret = fleet_check_writes(&run->jl, &run->consent, run->error, sizeof(run->error));
	if (ret) {
		free(addrs);
		return ret;
	}
	run->fleet_text = fleet_job_text(&run->jl);
	run->fleet = calloc(1, sizeof(*run->fleet));
	if (!run->fleet_text || !run->fleet) {
		free(addrs);
		snprintf(run->error, sizeof(run->error), "out of memory");
		return -ENOMEM;
	}
	fp.job_text = run->fleet_text;
	fp.interval_ms = 100;
	ret = fleet_begin(run->fleet, addrs, nr, &run->jl, &fp, run->error, sizeof(run->error));
	free(addrs);
	if (ret) {
		app_fleet_release(app);
		return ret;
	}
	scr_run_reset(app->state[SCR_RUN]);
	scr_run_layout(app->state[SCR_RUN], &run->jl, &run->fleet->layout);
	run->started_ms = (uint64_t)time(NULL) * 1000;
	return 0;
}

void app_fleet_poll(struct app *app)
{
	struct app_run *run = &app->run;
	struct fleet *f = run->fleet;
	struct live_rec recs[256];
	size_t i, failed = 0;
	uint32_t n, k;
	bool going;
	char err[512];

	if (!f || run->fleet_done)
		return;
	/* a frame's worth: the fleet never blocks the UI */
	going = fleet_step(f, 0);
	while ((n = ring_pop_batch(&f->ring, recs, 256)) > 0)
		for (k = 0; k < n; k++)
			scr_run_record(app->state[SCR_RUN], &recs[k]);
	for (i = 0; i < f->nr_hosts; i++) {
		const struct fleet_host *h = &f->hosts[i];

		failed += h->state == FLEET_FAILED;
		scr_run_host_state(app->state[SCR_RUN], i, h->state == FLEET_FAILED ?
				   fleet_fault_name(h->fault) : fleet_state_name(h->state), h->why);
	}
	if (going)
		return;
	run->fleet_done = true;
	run->saved_path[0] = '\0';
	if (!app->test_mode && fleet_save_results(f, &run->jl, NULL, run->started_ms,
						  f->stop_sent, run->saved_path,
						  sizeof(run->saved_path), err, sizeof(err)))
		snprintf(run->error, sizeof(run->error), "the result was not saved: %s", err);
	app_message(app, "%s on %zu hosts%s%s%s", f->stop_sent ? "Run stopped" : "Run finished",
		    f->nr_hosts, failed ? " (some failed, see the Hosts pane)" : "",
		    run->saved_path[0] ? ", saved as " : "", run->saved_path);
}

void app_fleet_stop(struct app *app)
{
	if (app->run.fleet && !app->run.fleet_done)
		fleet_stop(app->run.fleet);
}

void app_fleet_release(struct app *app)
{
	struct app_run *run = &app->run;

	if (run->fleet) {
		fleet_release(run->fleet);
		free(run->fleet);
	}
	free(run->fleet_text);
	run->fleet = NULL;
	run->fleet_text = NULL;
	run->fleet_done = false;
}
