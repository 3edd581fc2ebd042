/*
 * app_run.c - the TUI's twin of `raidbench run`: the chosen profile on the
 * chosen target, through the same parser, write guard and engine, with the
 * live records going to the Run screen. The guard's refusal is shown, never
 * bypassed: consent is only the device name the user typed on the Target
 * screen.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "options.h"
#include "profile_choice.h"
#include "profile_set.h"
#include "identity.h"
#include "results.h"
#include "tui.h"
#include "tui_int.h"

bool app_run_active(const struct app *app)
{
	return app->run.h != NULL || (app->run.fleet && !app->run.fleet_done);
}

void app_profile_clear(struct app_profile *p)
{
	size_t i;

	for (i = 0; i < sizeof(p->override_store) / sizeof(p->override_store[0]); i++) {
		free(p->override_store[i]);
		p->override_store[i] = NULL;
	}
	free(p->overrides);
	p->overrides = NULL;
	p->nr_overrides = 0;
}

static void on_setup(void *arg, const struct job_list *jl, const struct run_layout *lay)
{
	struct app *app = arg;

	scr_run_layout(app->state[SCR_RUN], jl, lay);
}

static void on_record(void *arg, const struct live_rec *rec)
{
	struct app *app = arg;

	scr_run_record(app->state[SCR_RUN], rec);
}

void app_run_show_layout(struct app *app, const struct run_layout *lay)
{
	/* a run of the app's own keeps the screen */
	if (app_run_active(app))
		return;
	/* the app's own last run stays in Results; the screen follows the other task */
	app->run_fed = true;
	scr_run_reset(app->state[SCR_RUN]);
	scr_run_layout(app->state[SCR_RUN], NULL, lay);
}

void app_run_show_record(struct app *app, const struct live_rec *rec)
{
	if (!app->run_fed || app_run_active(app))
		return;
	scr_run_record(app->state[SCR_RUN], rec);
}

/* The profile file: the chosen one, else the quick-start default. */
int app_run_profile_path(struct app *app, char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (app->profile.path[0]) {
		snprintf(buf, len, "%s", app->profile.path);
		return 0;
	}
	profile_builtin_dir(dir, sizeof(dir));
	snprintf(buf, len, "%s/default.fio", dir);
	return access(buf, R_OK) == 0 ? 0 : -ENOENT;
}


int app_run_start(struct app *app)
{
	struct app_run *run = &app->run;
	char path[PATH_MAX], *files[1];
	struct cmd_opt opts[4], over[81];
	char target_opt[PATH_MAX + 16];
	const char *target;
	size_t n = 0, no = 0, i;
	int ret;

	if (run->h)
		return -EBUSY;
	app_run_finish(app);
	run->error[0] = '\0';
	if (run->nr_clients && !app->target.path[0]) {
		snprintf(run->error, sizeof(run->error), "a run on fio servers needs --target=PATH: "
			 "a file or device path on the servers");
		return -EINVAL;
	}
	if (app_run_profile_path(app, path, sizeof(path))) {
		snprintf(run->error, sizeof(run->error), "no profile chosen and the default profile "
			 "was not found (profiles/default.fio)");
		return -ENOENT;
	}
	/* the scratch file is made (or checked) on every start: never a planted link */
	if (!app->target.path[0] && (ret = scratch_file(app->target.scratch,
			sizeof(app->target.scratch), true, run->error, sizeof(run->error))))
		return ret;
	target = app->target.path[0] ? app->target.path : app->target.scratch;
	snprintf(target_opt, sizeof(target_opt), "%s", target);
	n = profile_choice_run_opts(app, opts);
	/* the chosen target and the knobs win over anything the profile says */
	over[no].key = "filename";
	over[no++].value = target_opt;
	for (i = 0; i < app->profile.nr_overrides && no < 80; i++)
		over[no++] = app->profile.overrides[i];
	files[0] = path;
	ret = jobs_load_over(&run->jl, opts, n, files, 1, over, no, run->error,
			     sizeof(run->error));
	if (ret)
		return ret;
	run->have_jobs = true;
	if (run->nr_clients) {
		memset(&run->consent, 0, sizeof(run->consent));
		return app_fleet_start(app);
	}
	free(run->consent_path);
	run->consent_path = NULL;
	memset(&run->consent, 0, sizeof(run->consent));
	if (app->target.is_device && app->target.consented) {
		run->consent_path = strdup(target);
		run->consent.paths = &run->consent_path;
		run->consent.nr = run->consent_path ? 1 : 0;
	}
	run->obs.setup_done = on_setup;
	run->obs.record = on_record;
	run->obs.arg = app;
	run->obs.interval_ms = 100;
	run->params.consent = &run->consent;
	run->params.observer = &run->obs;
	run->params.interrupt = NULL;
	scr_run_reset(app->state[SCR_RUN]);
	app->run_fed = false;
	ret = run_begin(&run->jl, &run->params, &run->res, &run->h, run->error,
			sizeof(run->error));
	if (ret) {
		/* the guard speaks the command line's language; here consent is typed on F4 */
		char *tail = strstr(run->error, "; to destroy its contents, add --allow-destroy=");

		if (tail)
			snprintf(tail, sizeof(run->error) - (size_t)(tail - run->error),
				 "; to destroy its contents, pick it on the Target screen (F4) and "
				 "type its name to confirm");
		run_result_release(&run->res);
		job_list_release(&run->jl);
		run->have_jobs = false;
		run->h = NULL;
		return ret;
	}
	run->started_ms = (uint64_t)time(NULL) * 1000;
	return 0;
}

void app_run_stop(struct app *app)
{
	app_fleet_stop(app);
	if (app->run.h)
		run_stop(app->run.h);
}

static void save(struct app *app)
{
	struct app_run *run = &app->run;
	struct run_report rep;
	char err[512];

	run_report_init(&rep, &run->jl, &run->res);
	if (app->test_mode)
		return;
	if (results_save(&rep, &run->res, identity_probe, run->saved_path, sizeof(run->saved_path), err,
			 sizeof(err)))
		snprintf(run->error, sizeof(run->error), "the result was not saved: %s", err);
}

void app_run_poll(struct app *app)
{
	struct app_run *run = &app->run;
	char err[512];

	if (run->fleet) {
		app_fleet_poll(app);
		return;
	}
	if (!run->h || !run_drain(run->h))
		return;
	if (run_end(run->h, err, sizeof(err)))
		snprintf(run->error, sizeof(run->error), "%s", err);
	run->h = NULL;
	run->have_result = true;
	if (run->res.error_msgs[0])
		snprintf(run->error, sizeof(run->error), "%s", run->res.error_msgs);
	else if (run->res.notes[0])	/* a job skipped by its exec_prerun: say why */
		snprintf(run->error, sizeof(run->error), "%s", run->res.notes);
	scr_run_finished(app->state[SCR_RUN], &run->jl, &run->res);
	save(app);
	app_message(app, "%s - F6 shows the results%s%s",
		    run->res.interrupted ? "Run stopped; the results so far are kept" : "Run finished",
		    run->saved_path[0] ? ", saved as " : "", run->saved_path);
}

bool app_run_wait_stopped(struct app *app)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 20 * 1000 * 1000 };
	int i;

	if (!app_run_active(app))
		return false;
	app_run_stop(app);
	/* workers finish their in-flight I/O; a device that never answers is not waited for */
	for (i = 0; i < 1500 && app_run_active(app); i++) {
		app_run_poll(app);
		if (app_run_active(app))
			nanosleep(&tick, NULL);
	}
	return true;
}

/* Forget the last result (a new run starts, or the app quits). */
void app_run_finish(struct app *app)
{
	struct app_run *run = &app->run;

	if (run->h || app_run_active(app))
		return;
	app_fleet_release(app);
	if (run->have_result || run->res.workers)
		run_result_release(&run->res);
	if (run->have_jobs)
		job_list_release(&run->jl);
	run->have_result = false;
	run->have_jobs = false;
	free(run->consent_path);
	run->consent_path = NULL;
}
