/*
 * scr_sweep.c - the RAID sweep screen, reached from Devices ('w') or the
 * builder: pick drives of one controller (or block devices for md), a set
 * of levels, the profile (F3's choice, else "default") and a runtime per
 * phase; see each level's create command; confirm by typing the controller
 * slot; then watch the sweep create, initialize, measure and delete level
 * after level, and compare the levels phase by phase (tui/screens/sweep_view.c).
 *
 * The sweep is hw/sweep.h's and blocks for minutes, so it runs on its own
 * thread (hw/sweep_task.c) whose events this screen drains every frame;
 * screen tests run it synchronously. On entry, arrays an interrupted sweep
 * left behind (the sweep journal) are named, and deleting them, and only
 * them, is offered with the same typed confirmation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_ui.h"
#include "widgets.h"

static const unsigned runtimes[] = { 1, 5, 10, 30, 60, 300 };
#define DEFAULT_RUNTIME_I 3

unsigned sweep_ui_runtime(const struct sweep_state *st)
{
	return runtimes[st->runtime_i];
}

const char *sweep_ui_profile(const struct app *app)
{
	return app->profile.path[0] ? app->profile.path : "default";
}

const struct sweep_msg *sweep_ui_log(const struct sweep_state *st, size_t i)
{
	return &st->log[(st->log_head + i) % SWEEP_UI_LOG];
}

/*
 * A level's run starts (on the UI thread, from sweep_task_pump): a view sized
 * for it here, and the Run screen follows it too, whichever screen shows.
 */
static void live_setup(void *arg, const struct job_list *jl, const struct run_layout *lay)
{
	struct sweep_state *st = arg;

	(void)jl;
	if (st->live_ok)
		live_view_release(&st->run_view);
	st->live_ok = !live_view_init(&st->run_view, lay->nr_workers, lay->nr_disks, lay->disk_names);
	app_run_show_layout(st->app, lay);
}

static void live_record(void *arg, const struct live_rec *rec)
{
	struct sweep_state *st = arg;

	if (st->live_ok)
		live_view_feed(&st->run_view, rec);
	app_run_show_record(st->app, rec);
}

static void *sweep_init(struct app *app)
{
	struct sweep_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->app = app;
	sweep_task_init(&st->task);
	st->live_obs = (struct run_observer){ live_setup, live_record, st, 0 };
	st->runtime_i = DEFAULT_RUNTIME_I;
	st->wait_init = true;
	return st;
}

static void sweep_release(void *p)
{
	struct sweep_state *st = p;

	/* a running sweep finishes its step and deletes its array before this returns */
	sweep_task_release(&st->task);
	if (st->live_ok)
		live_view_release(&st->run_view);
	sweep_pending_free(st->pending, st->nr_pending);
	build_plan_release(&st->bp);
	free(st);
}

static int nr_levels(const struct sweep_state *st)
{
	int n = 0;

	while (st->ops->levels && st->ops->levels[n] && n < SWEEP_UI_LEVELS)
		n++;
	return n;
}

static int nr_rows(const struct sweep_state *st)
{
	return (int)st->bp.nr_drives + NR_SETTING_ROWS;
}

/* ---- loading ------------------------------------------------------------------------ */

static void read_pending(struct sweep_state *st)
{
	char err[512] = "";

	sweep_pending_free(st->pending, st->nr_pending);
	st->pending = NULL;
	st->nr_pending = 0;
	if (sweep_pending(&st->pending, &st->nr_pending, err, sizeof(err))) {
		snprintf(st->err, sizeof(st->err), "the sweep journal cannot be read: %s", err);
		st->pending = NULL;
		st->nr_pending = 0;
	}
}

/* What to type to delete the pending arrays: their controller slot (or md name). */
static void pending_want(struct sweep_state *st)
{
	const struct sweep_pending_array *a = &st->pending[0];
	const char *w = *a->controller ? a->controller : *a->ld ? a->ld : "delete";

	if (!strncmp(w, "slot=", 5))
		w += 5;
	for (size_t i = 1; i < st->nr_pending; i++)
		if (strcmp(st->pending[i].controller, a->controller))
			w = "delete";	/* several controllers: one word for all */
	snprintf(st->want, sizeof(st->want), "%s", w);
	snprintf(st->want_what, sizeof(st->want_what), "%s",
		 !strcmp(w, "delete") ? "the word" : *a->controller ? "the controller's slot" :
		 "the md array's name");
}

/* The drives from the TUI's inventory (re-read after every change); picks stay. */
static void load_drives(struct app *app, struct sweep_state *st)
{
	const struct inv_controller *c = NULL;
	struct build_plan old = st->bp;

	build_plan_init(&st->bp, st->ops);
	st->inv_gen = app->inv_gen;
	for (size_t i = 0; app->have_inv && i < app->inv.nr_controllers; i++)
		if (app->inv.controllers[i].id &&
		    !strcmp(app->inv.controllers[i].id, st->build.inv_controller_id))
			c = &app->inv.controllers[i];
	if (st->bp.md)
		build_plan_load_md(&st->bp, app->have_inv ? &app->inv : NULL,
				   app->have_inv ? &app->inv : NULL, st->live);
	else if (c)
		build_plan_load_controller(&st->bp, c);
	else
		snprintf(st->err, sizeof(st->err), "the controller is not in the inventory any "
			 "more: Esc, then r on Devices rescans");
	build_plan_keep_picks(&st->bp, &old);
	build_plan_release(&old);
	if (st->sel >= nr_rows(st))
		st->sel = nr_rows(st) - 1;
}

static void load(struct app *app, struct sweep_state *st)
{
	build_plan_release(&st->bp);
	st->build = app->build;
	st->loaded = true;
	st->live = !app->nr_imports && !app->sysfs_root;
	st->tool_err[0] = st->err[0] = '\0';
	st->ops = raidtool_by_name(st->build.tool);
	if (!st->ops || !st->ops->levels) {
		raidtool_writable(NULL, st->build.tool, st->tool_err, sizeof(st->tool_err));
		st->ops = st->ops ? st->ops : raidtool_for_block_devices();
	}
	if (!st->live)
		snprintf(st->tool_err, sizeof(st->tool_err), "this inventory is imported, not this "
			 "machine's: a sweep can only be planned here");
	build_plan_init(&st->bp, st->ops);
	st->sel = 0;
	load_drives(app, st);
	memset(st->level_on, 0, sizeof(st->level_on));
	st->level_cur = 0;
	st->sel = st->top = 0;
	st->mode = SW_PICK;
	st->have_report = false;
	read_pending(st);
	if (st->nr_pending) {
		pending_want(st);
		st->input[0] = st->prompt_err[0] = '\0';
		st->mode = SW_PENDING;
	}
}

static void sweep_enter(struct app *app, void *p)
{
	struct sweep_state *st = p;

	if (st->task_active || st->mode == SW_CONFIRM || st->mode == SW_DONE) {
		if (!st->task_active && st->mode == SW_DONE &&
		    (strcmp(app->build.inv_controller_id, st->build.inv_controller_id) ||
		     strcmp(app->build.tool, st->build.tool)))
			load(app, st);
		return;
	}
	load(app, st);
}

/* ---- the worker's events ----------------------------------------------------------- */

static void log_push(struct sweep_state *st, const struct sweep_msg *m)
{
	if (st->nr_log == SWEEP_UI_LOG) {
		st->log_head = (st->log_head + 1) % SWEEP_UI_LOG;
		st->nr_log--;
	}
	st->log[(st->log_head + st->nr_log++) % SWEEP_UI_LOG] = *m;
}

static void take(struct sweep_state *st, const struct sweep_msg *m)
{
	if (m->kind != SWEEP_EV_INIT_WAIT || !st->nr_log ||
	    sweep_ui_log(st, st->nr_log - 1)->kind != SWEEP_EV_INIT_WAIT)
		log_push(st, m);
	else
		st->log[(st->log_head + st->nr_log - 1) % SWEEP_UI_LOG] = *m;	/* one line */
	if (m->kind == SWEEP_EV_LEVEL_START) {
		st->cur = m->index;
		st->count = m->count;
		st->init_pct = -1;
	}
	if (m->kind == SWEEP_EV_INIT_WAIT)
		st->init_pct = m->progress_pct;
	if (m->kind == SWEEP_EV_RUN_START)
		st->init_pct = -1;
	st->measuring = m->kind == SWEEP_EV_RUN_START ||
			(st->measuring && m->kind == SWEEP_EV_NOTE);
	sweep_view_msg(m, st->now, sizeof(st->now));
}

static void task_finished(struct app *app, struct sweep_state *st)
{
	st->task_active = false;
	app->sweep_busy = false;
	st->ret = st->task.ret;
	snprintf(st->err, sizeof(st->err), "%s", st->task.err);
	if (st->task.kind == SWEEP_TASK_PREVIEW) {
		st->have_report = true;
		if (st->ret && st->ret != -EINVAL) {
			st->mode = SW_PICK;
			app_message(app, "The sweep cannot be planned: %s", st->err);
			return;
		}
		const char *c = st->task.report.controller, *d = st->task.plan.drives[0];

		snprintf(st->want, sizeof(st->want), "%s", *c ? raidtool_id_short(st->ops, c) :
			 strrchr(d, '/') ? strrchr(d, '/') + 1 : d);
		snprintf(st->want_what, sizeof(st->want_what), "%s",
			 *st->task.report.controller ? raidtool_id_short_what(st->ops) :
			 "the first drive's name");
		st->input[0] = st->prompt_err[0] = '\0';
		st->mode = SW_CONFIRM;
		return;
	}
	if (st->cleanup) {
		st->cleanup = false;
		read_pending(st);
		st->mode = st->nr_pending ? SW_PENDING : SW_PICK;
		if (st->nr_pending)
			pending_want(st);
		app_message(app, st->ret ? "Cleanup stopped: %s" : "The arrays the interrupted "
			    "sweep left behind are deleted%s", st->ret ? st->err : "");
		app_load_inventory(app);
		load_drives(app, st);
		return;
	}
	st->have_report = true;
	st->mode = SW_DONE;
	st->phase = 0;
	st->res_top = 0;
	st->stopping = false;
	read_pending(st);
	app_load_inventory(app);
	load_drives(app, st);
}

static void poll_task(struct app *app, struct sweep_state *st)
{
	struct sweep_msg m[32];
	size_t n;

	if (!st->task_active)
		return;
	sweep_task_pump(&st->task, &st->live_obs);
	while ((n = sweep_task_drain(&st->task, m, 32)) > 0)
		for (size_t i = 0; i < n; i++) {
			take(st, &m[i]);
			/* an array came or went: Devices shows it now, not after the sweep */
			if (m[i].kind == SWEEP_EV_CREATED || m[i].kind == SWEEP_EV_DELETED)
				app_load_inventory(app);
		}
	if (sweep_task_done(&st->task)) {
		while ((n = sweep_task_drain(&st->task, m, 32)) > 0)
			for (size_t i = 0; i < n; i++)
				take(st, &m[i]);
		task_finished(app, st);
	}
}

static void start(struct app *app, struct sweep_state *st, enum sweep_task_kind kind)
{
	st->task_active = true;
	app->sweep_busy = true;
	if (kind != SWEEP_TASK_PREVIEW) {
		st->nr_log = st->log_head = 0;
		st->now[0] = '\0';
		st->init_pct = -1;
		st->measuring = false;
		st->mode = SW_RUNNING;
	}
	if (sweep_task_start(&st->task, kind, app->test_mode)) {
		st->task_active = false;
		app->sweep_busy = false;
		st->mode = SW_PICK;
		app_message(app, "Nothing was run: %s", st->task.err);
		return;
	}
	if (app->test_mode)
		poll_task(app, st);
}

/* The plan from the picks; previews it (reads the tool, validates every level). */
static void preview(struct app *app, struct sweep_state *st)
{
	char why[96];
	size_t members = build_plan_count(&st->bp, BP_MEMBER);
	int ret = 0, levels = 0;

	if (!members) {
		app_message(app, "Pick the drives first (Space)");
		return;
	}
	for (int i = 0; i < nr_levels(st); i++)
		if (st->level_on[i]) {
			levels++;
			if (!build_plan_level_fits(&st->bp, i, members, why, sizeof(why))) {
				app_message(app, "RAID %s %s: uncheck it or pick more drives",
					    st->ops->levels[i], why);
				return;
			}
		}
	if (!levels) {
		app_message(app, "Check at least one level (Space on the Levels row)");
		return;
	}
	sweep_task_release(&st->task);
	ret |= sweep_task_set(&st->task, &st->task.plan.tool, st->ops->name);
	/* the tool's own id; none when discovery renamed it: the sweep takes the tool's only one */
	if (*st->build.controller)
		ret |= sweep_task_set(&st->task, &st->task.plan.controller, st->build.controller);
	ret |= sweep_task_set(&st->task, &st->task.plan.profile, sweep_ui_profile(app));
	for (size_t i = 0; i < st->bp.nr_drives; i++)
		if (st->bp.drives[i].use == BP_MEMBER)
			ret |= sweep_task_add_drive(&st->task, st->bp.drives[i].id);
	for (int i = 0; i < nr_levels(st); i++)
		if (st->level_on[i])
			ret |= sweep_task_add_level(&st->task, st->ops->levels[i]);
	st->task.plan.runtime_s = sweep_ui_runtime(st);
	st->task.plan.wait_init = st->wait_init;
	st->task.plan.strip_bytes = -1;
	if (ret) {
		app_message(app, "Out of memory");
		return;
	}
	st->mode = SW_PREVIEW;
	start(app, st, SWEEP_TASK_PREVIEW);
}

/* ---- keys ---------------------------------------------------------------------------- */

/* Typing the confirmation word: 0 = still typing, 1 = confirmed, -1 = cancelled. */
static int prompt_key(struct app *app, struct sweep_state *st, int ch)
{
	size_t n = strlen(st->input);

	if (ch == 27)
		return -1;
	if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		if (build_plan_confirmed(&st->bp, st->want, st->input) ||
		    (!strncmp(st->want, "/c", 2) && !strcmp(st->input, st->want + 2)))
			return 1;
		snprintf(st->prompt_err, sizeof(st->prompt_err), "\"%s\" is not %s: nothing was "
			 "run; Esc cancels", st->input, st->want);
		st->input[0] = '\0';
		return 0;
	}
	if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n)
		st->input[n - 1] = '\0';
	else if (ch >= 32 && ch < 127 && n + 1 < sizeof(st->input)) {
		st->input[n] = (char)ch;
		st->input[n + 1] = '\0';
	}
	(void)app;
	return 0;
}

static int confirm_key(struct app *app, struct sweep_state *st, int ch)
{
	int r = prompt_key(app, st, ch);

	if (r < 0) {
		st->mode = SW_PICK;
		app_message(app, "Cancelled: nothing was run%s", st->nr_pending ?
			    "; a sweep cannot start while the arrays left behind are there" : "");
		return EV_HANDLED;
	}
	if (r == 0)
		return EV_HANDLED;
	if (*st->tool_err) {
		snprintf(st->prompt_err, sizeof(st->prompt_err), "Nothing runs: %s", st->tool_err);
		return EV_HANDLED;
	}
	if (st->mode == SW_CONFIRM && st->ret) {
		snprintf(st->prompt_err, sizeof(st->prompt_err), "Nothing runs while a level is "
			 "refused: Esc, then uncheck it");
		return EV_HANDLED;
	}
	if (st->mode == SW_PENDING) {
		st->cleanup = true;
		st->task.kind = SWEEP_TASK_CLEANUP;
		start(app, st, SWEEP_TASK_CLEANUP);
	} else {
		st->task.plan.yes = true;
		start(app, st, SWEEP_TASK_RUN);
	}
	return EV_HANDLED;
}

static void toggle(struct app *app, struct sweep_state *st)
{
	if (st->sel < (int)st->bp.nr_drives) {
		struct bp_drive *d = &st->bp.drives[st->sel];

		if (!d->usable)
			app_message(app, "%s cannot take part: %s", d->id, d->why);
		else
			d->use = d->use == BP_MEMBER ? BP_NONE : BP_MEMBER;
		return;
	}
	switch (st->sel - (int)st->bp.nr_drives) {
	case ROW_LEVELS:
		st->level_on[st->level_cur] = !st->level_on[st->level_cur];
		break;
	case ROW_PROFILE:
		app_message(app, "The profile is the one chosen on F3 Profiles (now %s)",
			    sweep_ui_profile(app));
		break;
	case ROW_RUNTIME:
		st->runtime_i = (st->runtime_i + 1) % (int)(sizeof(runtimes) / sizeof(runtimes[0]));
		break;
	case ROW_WAIT:
		st->wait_init = !st->wait_init;
		break;
	}
}

static int pick_key(struct app *app, struct sweep_state *st, int ch)
{
	int rows = nr_rows(st), on_levels = st->sel == (int)st->bp.nr_drives + ROW_LEVELS;

	switch (ch) {
	case KEY_UP:
	case 'k':
		st->sel = st->sel > 0 ? st->sel - 1 : 0;
		break;
	case KEY_DOWN:
	case 'j':
		st->sel = st->sel + 1 < rows ? st->sel + 1 : rows - 1;
		break;
	case KEY_HOME:
		st->sel = 0;
		break;
	case KEY_END:
		st->sel = rows - 1;
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
	case '<':
	case '>':
		if (!on_levels)
			return EV_NONE;	/* Left: back, as everywhere */
		/* the key bar says <>, as the builder's: both pairs move along the levels */
		st->level_cur = (st->level_cur + (ch == KEY_RIGHT || ch == '>' ? 1 :
						  nr_levels(st) - 1)) % nr_levels(st);
		break;
	case ' ':
		toggle(app, st);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		preview(app, st);
		break;
	default:
		return EV_NONE;
	}
	return EV_HANDLED;
}

static int sweep_key(struct app *app, void *p, int ch)
{
	struct sweep_state *st = p;

	poll_task(app, st);
	switch (st->mode) {
	case SW_PENDING:
		if (ch == 27 && !st->input[0]) {
			st->mode = SW_PICK;
			app_message(app, "The arrays are left alone; a sweep cannot start until "
				    "they are deleted");
			return EV_HANDLED;
		}
		return confirm_key(app, st, ch);
	case SW_CONFIRM:
		return confirm_key(app, st, ch);
	case SW_PREVIEW:
	case SW_RUNNING:
		if (ch == 's' && st->task_active && !st->cleanup) {
			sweep_task_stop(&st->task);
			st->stopping = true;
			app_message(app, "Stopping after the current step; its array is deleted");
			return EV_HANDLED;
		}
		if (ch == 27 || ch == KEY_LEFT)
			return EV_NONE;	/* back; the sweep goes on */
		app_message(app, "The sweep is running: s stops it (its array is deleted)");
		return EV_HANDLED;
	case SW_DONE:
		if (ch == KEY_LEFT || ch == KEY_RIGHT || ch == '<' || ch == '>') {
			st->phase += ch == KEY_RIGHT || ch == '>' ? 1 : -1;
			st->res_top = 0;
			return EV_HANDLED;
		}
		if (ch == KEY_UP || ch == KEY_DOWN || ch == KEY_PPAGE || ch == KEY_NPAGE) {
			st->res_top += ch == KEY_DOWN ? 1 : ch == KEY_UP ? -1 :
				       ch == KEY_NPAGE ? 10 : -10;
			if (st->res_top < 0)
				st->res_top = 0;
			return EV_HANDLED;
		}
		if (ch == 'n' || ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
			st->mode = st->nr_pending ? SW_PENDING : SW_PICK;
			return EV_HANDLED;
		}
		return EV_NONE;
	case SW_PICK:
		if (ch == 'D' && st->nr_pending) {
			pending_want(st);
			st->input[0] = st->prompt_err[0] = '\0';
			st->mode = SW_PENDING;
			return EV_HANDLED;
		}
		return pick_key(app, st, ch);
	}
	return EV_NONE;
}

static void sweep_draw(struct app *app, void *p, const struct rect *r)
{
	struct sweep_state *st = p;

	if (!st->loaded)
		load(app, st);
	poll_task(app, st);
	/* a rescan's vendor tools answered after the sweep re-read the drives */
	if (st->loaded && st->mode == SW_PICK && st->inv_gen != app->inv_gen)
		load_drives(app, st);
	sweep_view_draw(app, st, r);
}

static const struct key_hint sweep_hints[] = {
	{ "Space", "Pick" }, { "<>", "Level/phase" }, { "Enter", "Plan" }, { "s", "Stop" },
	{ NULL, NULL },
};

/* Every frame, whichever screen shows: the run's ring is drained here and nowhere else. */
static void sweep_poll(struct app *app, void *p)
{
	poll_task(app, p);
}

const struct screen_ops scr_sweep_ops = {
	.title = "RAID sweep",
	.init = sweep_init,
	.release = sweep_release,
	.poll = sweep_poll,
	.enter = sweep_enter,
	.draw = sweep_draw,
	.key = sweep_key,
	.hints = sweep_hints,
};
