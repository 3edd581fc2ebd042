/*
 * tui.h - the ncurses front end: one app, several screens (Devices,
 * Profiles, Target, Run, Results, Help), a key bar, and the state the
 * screens share (the chosen profile and target, the run in progress, the
 * last result).
 *
 * Threading contract: everything here runs on the UI thread only. The run's
 * engine and workers never call into tui/; the UI drains the live ring every
 * frame (core/run.h run_drain) and never blocks the engine.
 *
 * Screens are const vtables (htop's Panel/Meter model): draw() paints a
 * rectangle, key() returns what happened (EV_* bits) and the app acts on it,
 * so screens never know about each other except through app_switch().
 */
#ifndef RB_TUI_H
#define RB_TUI_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "guard.h"
#include "inventory.h"
#include "job.h"
#include "report.h"
#include "live_rec.h"
#include "run.h"
#include "theme.h"

/* What a key handler did. */
enum {
	EV_NONE = 0,
	EV_HANDLED = 1u << 0,
	EV_REDRAW = 1u << 1,
	EV_QUIT = 1u << 2,	/* ask to quit (the app confirms while a run is active) */
	EV_BACK = 1u << 3,	/* Esc: back to the previous screen */
};

struct rect {
	int y, x, h, w;
};

struct app;
struct raidprobe;
struct inv_loader;

enum screen_id {
	SCR_HELP = 0,
	SCR_DEVICES,
	SCR_PROFILES,
	SCR_TARGET,
	SCR_RUN,
	SCR_RESULTS,
	SCR_BUILDER,		/* reached from Devices ('b'), not a tab */
	SCR_SWEEP,		/* reached from Devices ('w') or the builder */
	SCR_COUNT,
};

/* A key hint for the key bar: "F5" "Run", or "Enter" "Open". */
struct key_hint {
	const char *key;
	const char *label;
};

struct screen_ops {
	const char *title;			/* "Devices" */
	/* state is the screen's own struct, allocated by init, freed by release */
	void *(*init)(struct app *app);
	void (*release)(void *st);
	void (*enter)(struct app *app, void *st);	/* the screen became current */
	void (*draw)(struct app *app, void *st, const struct rect *r);
	int (*key)(struct app *app, void *st, int ch);	/* EV_* bits */
	/* mouse click at screen coordinates inside the screen's rect (optional) */
	int (*click)(struct app *app, void *st, int y, int x);
	/* extra hints shown in the key bar after the screen switch keys */
	const struct key_hint *hints;
	/* optional: the hints for this moment, instead of hints (NULL-terminated) */
	const struct key_hint *(*hints_now)(struct app *app, void *st);
	/* optional: every frame, whichever screen shows (work that must not wait for a visit) */
	void (*poll)(struct app *app, void *st);
};

extern const struct screen_ops scr_help_ops, scr_devices_ops, scr_profiles_ops,
	scr_target_ops, scr_run_ops, scr_results_ops, scr_builder_ops, scr_sweep_ops;

/* What the Devices screen hands the builder: the controller (or md) and the drives picked. */
struct app_build {
	char tool[32];			/* "ssacli", "storcli", "mdadm" */
	char controller[64];		/* the tool's controller id; "" for mdadm */
	char inv_controller_id[128];	/* inventory id of the controller, "" for md */
};

/* The chosen profile and the knobs the Profiles screen edits on top of it. */
struct app_profile {
	char name[128];		/* "cdm-standard", "" = none chosen */
	char path[4096];	/* the job file */
	/* overrides as fio options ("runtime", "5"); applied as the run's options */
	struct cmd_opt *overrides;
	size_t nr_overrides;
	char *override_store[64];	/* owned strings behind overrides */
};

/* The chosen target: a device or a file, and whether the user consented. */
struct app_target {
	char path[4096];	/* "" = the scratch file */
	bool is_device;
	bool consented;		/* the device name was typed to confirm a destructive test */
	char scratch[4096];	/* $XDG_CACHE_HOME/raidbench/scratch.dat */
	/* a file that does not exist yet (or is empty): the size= the run creates it with */
	char new_size[32];
};

/* The run in progress or the last one. */
struct app_run {
	struct run_handle *h;		/* non-NULL while running */
	struct run_result res;
	bool have_result;
	struct job_list jl;
	bool have_jobs;
	struct guard_consent consent;
	char *consent_path;
	struct run_params params;
	struct run_observer obs;
	char error[1024];		/* why the run could not start, or job errors */
	char saved_path[4096];		/* where the result was saved */
	uint64_t started_ms;
	/* --client=HOST ...: the runs go to fio servers (tui/screens/app_fleet.c) */
	const char *clients[64];
	size_t nr_clients;
	struct fleet *fleet;		/* non-NULL from start to the next start */
	char *fleet_text;
	bool fleet_done;
};

struct app {
	/* terminal */
	int rows, cols;
	bool ascii;			/* --ascii or a non-UTF-8 locale */
	bool test_mode;			/* off-screen screen tests: deterministic output */
	bool start_now;			/* --start: run the chosen profile at once */
	const struct theme *theme;
	/* screens */
	void *state[SCR_COUNT];
	enum screen_id current;
	enum screen_id previous;
	bool quit;
	bool confirm_quit;		/* the quit question is showing */
	char message[256];		/* a one-line notice under the header, "" = none */
	/* shared */
	struct inventory inv;
	bool have_inv;
	char inv_error[512];
	unsigned inv_gen;		/* bumps whenever inv changes */
	/* the vendor tools' probes of the last (re)load, in the background; NULL = none */
	struct raidprobe *probe;
	/* a rescan waiting for its probes: the last complete inv stays until they end */
	struct inventory inv_next;
	bool have_inv_next;
	/* a rescan's discovery (sysfs, signatures: seconds on a busy machine), off the UI thread */
	struct inv_loader *loader;
	bool reload_again;		/* asked again while it ran */
	int tool_timeout_ms;		/* --tool-timeout; 0 = RAIDBENCH_TOOL_TIMEOUT, else 60 s */
	struct app_profile profile;
	struct app_target target;
	struct app_run run;
	struct app_build build;
	/* options the front end was started with */
	const char *const *imports;	/* --import TOOL:FILE */
	size_t nr_imports;
	const char *sysfs_root;		/* a recorded /sys tree (tests) */
	/* a RAID sweep's task runs (polled every frame, screen_ops.poll): Enter starts no run */
	bool sweep_busy;
	/* the Run screen shows a run the app did not start (a sweep's): Enter starts nothing */
	bool run_fed;
};

/* Switch screens; the current one becomes "previous" for Esc. */
void app_switch(struct app *app, enum screen_id id);
/* A notice shown under the header until the next key. printf-style. */
void app_message(struct app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Start the run of the chosen profile on the chosen target (tui/screens/app_run.c).
 * Returns 0, or -errno with app->run.error set (the guard's refusal, a bad
 * profile); the Run screen shows either.
 */
int app_run_start(struct app *app);
/* The job file the next run reads: the chosen profile, else the default. 0 or -ENOENT. */
int app_run_profile_path(struct app *app, char *buf, size_t len);
/*
 * The Run screen shows another task's run (the sweep's): its layout, then
 * its records as they come. UI thread; the records are copies.
 */
void app_run_show_layout(struct app *app, const struct run_layout *lay);
void app_run_show_record(struct app *app, const struct live_rec *rec);
/* Drain the ring (every frame); finishes and saves the run when it is over. */
void app_run_poll(struct app *app);
void app_run_stop(struct app *app);
bool app_run_active(const struct app *app);
/*
 * Stops an active run and waits (30 s at most) until it has ended and its
 * results are saved, as the s key does. Returns whether a run was active.
 */
bool app_run_wait_stopped(struct app *app);

/* Frees the profile's overrides (the chosen file stays). */
void app_profile_clear(struct app_profile *p);

/*
 * Reload the inventory (hw discovery or --import); sets have_inv / inv_error.
 * Never waits on a vendor tool: discovery's view is there at once, the tools
 * run in the background (app->probe) and app_poll_inventory() merges their
 * answers; on a rescan the last complete inventory stays until they end.
 */
void app_load_inventory(struct app *app);
/* Every frame: merges what the vendor tools answered since the last frame. */
void app_poll_inventory(struct app *app);
/* Stops the vendor tools still running (their process groups are killed). */
void app_cancel_probes(struct app *app);
/* Whether a vendor tool is still running. */
bool app_probing(const struct app *app);
/* Whether a rescan's discovery is still reading the machine. */
bool app_loading(const struct app *app);

/* The TUI entry point (tui/screens/tui.c); argv after "raidbench". */
int tui_main(int argc, char **argv);

#endif
