/*
 * sweep_ui.h - what the RAID sweep screen's two files share: its state and
 * keys (tui/screens/scr_sweep.c) and its drawing (tui/screens/sweep_view.c). Not for other
 * screens. UI thread only; the sweep itself runs in hw/sweep_task.c.
 */
#ifndef RB_SWEEP_UI_H
#define RB_SWEEP_UI_H

#include <stdbool.h>
#include <stdint.h>

#include "build_plan.h"
#include "live_view.h"
#include "run.h"
#include "sweep_task.h"
#include "tui.h"

#define SWEEP_UI_LOG 200
#define SWEEP_UI_LEVELS 16

enum sw_mode {
	SW_PICK,		/* drives, levels, profile, runtime */
	SW_PENDING,		/* an interrupted sweep left arrays: offer to delete them */
	SW_PREVIEW,		/* sweep_preview running */
	SW_CONFIRM,		/* the commands shown; typing the controller slot */
	SW_RUNNING,		/* the sweep (or the cleanup) runs */
	SW_DONE,		/* the comparison */
};

/* Rows of the pick list after the drives. */
enum sw_row { ROW_LEVELS, ROW_PROFILE, ROW_RUNTIME, ROW_WAIT, NR_SETTING_ROWS };

struct sweep_state {
	struct app *app;		/* the Run screen follows the sweep's runs */
	struct app_build build;
	bool loaded, live;
	const struct raid_tool_ops *ops;
	char tool_err[256];		/* why nothing can run here */
	struct build_plan bp;		/* the drives (picks: BP_MEMBER) */
	unsigned inv_gen;		/* app->inv_gen the drives were read from */
	bool level_on[SWEEP_UI_LEVELS];
	int level_cur;			/* the level under the cursor on the Levels row */
	int runtime_i;
	bool wait_init;
	int sel, top;			/* cursor: drives, then the setting rows */
	enum sw_mode mode;
	/* arrays an earlier sweep left behind */
	struct sweep_pending_array *pending;
	size_t nr_pending;
	/* the worker and what it reported */
	struct sweep_task task;
	bool task_active;
	bool cleanup;			/* the task is the cleanup of pending arrays */
	struct sweep_msg log[SWEEP_UI_LOG];
	size_t log_head, nr_log;
	char now[512];			/* the current step in words */
	size_t cur, count;
	double init_pct;		/* < 0: not waiting for initialization */
	bool measuring;			/* the profile runs: the live numbers mean something */
	struct live_view run_view;	/* the level's run, decoded on this thread (sweep_task_pump) */
	bool live_ok;
	struct run_observer live_obs;
	bool stopping;
	/* the typed confirmation */
	char want[96];
	char want_what[64];
	char input[128];
	char prompt_err[256];
	/* the outcome */
	int ret;
	char err[1024];
	bool have_report;		/* task.report holds the last preview or sweep */
	int phase;			/* results: the phase shown */
	int res_top;
};

/* The runtimes offered per phase, in seconds. */
unsigned sweep_ui_runtime(const struct sweep_state *st);
/* The profile the sweep runs: the one chosen on F3, else "default". */
const char *sweep_ui_profile(const struct app *app);
/* Log line i (0 = oldest). */
const struct sweep_msg *sweep_ui_log(const struct sweep_state *st, size_t i);

/* tui/screens/sweep_view.c */
void sweep_view_draw(struct app *app, struct sweep_state *st, const struct rect *r);
/* A log message in words. */
void sweep_view_msg(const struct sweep_msg *m, char *buf, size_t len);

#endif
