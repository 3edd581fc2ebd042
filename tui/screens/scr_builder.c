/*
 * scr_builder.c - the Array builder screen, reached from Devices with 'b':
 * pick drives of one controller (or this machine's block devices for md),
 * a RAID level the tool and the count allow, a strip size and spares; see
 * capacity, fault tolerance, the estimated performance and the exact vendor
 * command; confirm by typing the controller's slot (or the md name); watch
 * parity initialization, rebuild or transformation by re-reading the state.
 * Delete, spares and erase go the same way, listing what will be lost first.
 *
 * Every change is validated by hw/array.c against the tool's own view read
 * just before, exactly as `raidbench array` does, and runs off the UI thread
 * (hw/array_apply.c); screen tests run it synchronously. An imported
 * inventory shows the plan and the command but never runs anything.
 * Drawing is tui/screens/builder_draw.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builder_int.h"
#include "clock.h"
#include "guard.h"
#include "widgets.h"
#include "bufcat.h"

#define POLL_NS 3000000000ull		/* status re-read while something runs */

static void *builder_init(struct app *app)
{
	struct builder_state *st = calloc(1, sizeof(*st));

	(void)app;
	if (!st)
		return NULL;
	array_job_init(&st->preview);
	array_job_init(&st->job);
	array_job_init(&st->reader);
	return st;
}

static void lost_clear(struct builder_state *st)
{
	for (size_t i = 0; i < st->nr_lost; i++)
		free(st->lost[i]);
	free(st->lost);
	st->lost = NULL;
	st->nr_lost = 0;
}

static void lost_add(struct builder_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lost_add(struct builder_state *st, const char *fmt, ...)
{
	char **v = realloc(st->lost, (st->nr_lost + 1) * sizeof(*v));
	va_list ap;

	if (!v)
		return;
	st->lost = v;
	va_start(ap, fmt);
	if (vasprintf(&v[st->nr_lost], fmt, ap) >= 0)
		st->nr_lost++;
	va_end(ap);
}

static void forget_tool_inv(struct builder_state *st)
{
	if (st->have_tool_inv)
		inventory_release(&st->tool_inv);
	st->have_tool_inv = false;
}

static void builder_release(void *p)
{
	struct builder_state *st = p;

	array_job_release(&st->job);
	array_job_release(&st->reader);
	array_job_release(&st->preview);
	forget_tool_inv(st);
	build_plan_release(&st->bp);
	lost_clear(st);
	free(st);
}

/* ---- loading ---------------------------------------------------------------------- */

static const struct inv_controller *app_controller(const struct app *app, const char *id)
{
	for (size_t i = 0; app->have_inv && i < app->inv.nr_controllers; i++)
		if (app->inv.controllers[i].id && !strcmp(app->inv.controllers[i].id, id))
			return &app->inv.controllers[i];
	return NULL;
}

/* The plan from whatever view is best: the tool's own, else the TUI's inventory. */
static void load_plan(struct app *app, struct builder_state *st)
{
	const struct inv_controller *ac = app_controller(app, st->build.inv_controller_id), *c;
	struct build_plan old = st->bp;
	int ret;

	build_plan_init(&st->bp, st->ops);
	st->load_err[0] = '\0';
	if (st->bp.md) {
		ret = build_plan_load_md(&st->bp, app->have_inv ? &app->inv : NULL,
					 st->have_tool_inv ? &st->tool_inv :
					 app->have_inv ? &app->inv : NULL, st->live);
	} else {
		c = st->have_tool_inv ? array_find_controller(&st->tool_inv, st->ops->name, ac) : ac;
		if (c && st->have_tool_inv && *st->build.controller) {
			for (size_t i = 0; i < st->tool_inv.nr_controllers; i++)
				if (st->tool_inv.controllers[i].id &&
				    !strcmp(st->tool_inv.controllers[i].id, st->build.controller))
					c = &st->tool_inv.controllers[i];
		}
		if (!c) {
			snprintf(st->load_err, sizeof(st->load_err), "%s does not list this "
				 "controller (any more): r reads it again, Esc goes back",
				 st->ops->name);
			ret = 0;
		} else {
			ret = build_plan_load_controller(&st->bp, c);
		}
	}
	if (ret)
		snprintf(st->load_err, sizeof(st->load_err), "out of memory");
	build_plan_keep_picks(&st->bp, &old);
	build_plan_release(&old);
	if (st->sel >= builder_rows(st))
		st->sel = builder_rows(st) ? builder_rows(st) - 1 : 0;
	st->dirty = true;
}

/* Empties job for the next use with this screen's tool. */
static void job_reset(struct builder_state *st, struct array_job *job)
{
	array_job_release(job);
	job->ops = st->ops;
	snprintf(job->bin, sizeof(job->bin), "%s", st->bin);
}

/* A status read in the background (synchronously in screen tests). */
static void start_read(struct app *app, struct builder_state *st)
{
	if (st->reader_active || st->job_active || *st->tool_err)
		return;
	job_reset(st, &st->reader);
	st->reader_active = true;
	if (array_job_start(&st->reader, app->test_mode)) {
		st->reader_active = false;
		snprintf(st->load_err, sizeof(st->load_err), "%s", st->reader.err);
	}
}

static void take_state(struct builder_state *st, struct array_job *job)
{
	forget_tool_inv(st);
	st->tool_inv = job->after;
	st->have_tool_inv = true;
	job->have_after = false;
	memset(&job->after, 0, sizeof(job->after));
}

static void reader_done(struct app *app, struct builder_state *st)
{
	bool read = st->reader.have_after;

	st->reader_active = false;
	if (read)
		take_state(st, &st->reader);
	load_plan(app, st);
	if (!read)
		snprintf(st->load_err, sizeof(st->load_err), "cannot read %s's configuration: %s",
			 st->ops->name, st->reader.read_err);
	st->next_poll_ns = rb_now_ns() + POLL_NS;
}

static void load(struct app *app, struct builder_state *st)
{
	struct array_job probe;
	char err[512] = "";

	/* a read still under way may be another tool's: wait for it and drop it */
	array_job_release(&st->reader);
	st->reader_active = false;
	forget_tool_inv(st);
	build_plan_release(&st->bp);
	st->build = app->build;
	st->loaded = true;
	st->mode = BM_LIST;
	st->sel = st->top = 0;
	st->have_result = false;
	st->tool_err[0] = st->load_err[0] = '\0';
	st->live = !app->nr_imports && !app->sysfs_root;
	st->ops = raidtool_by_name(st->build.tool);
	if (!st->ops || !st->ops->levels) {
		raidtool_writable(NULL, st->build.tool, st->tool_err, sizeof(st->tool_err));
		st->ops = st->ops ? st->ops : raidtool_for_block_devices();
	}
	build_plan_init(&st->bp, st->ops);
	array_job_init(&probe);
	if (array_job_find_tool(&probe, st->ops->name, err, sizeof(err))) {
		/* the commands still show, under the tool's usual name */
		snprintf(st->bin, sizeof(st->bin), "%s", st->ops->binaries[0]);
		if (!*st->tool_err)
			snprintf(st->tool_err, sizeof(st->tool_err), "%s: nothing can run", err);
	} else {
		snprintf(st->bin, sizeof(st->bin), "%s", probe.bin);
	}
	if (!st->live)
		snprintf(st->tool_err, sizeof(st->tool_err), "imported, not this machine's: "
			 "plans and commands show, nothing runs");
	job_reset(st, &st->job);
	job_reset(st, &st->preview);
	load_plan(app, st);
	start_read(app, st);
}

static void builder_enter(struct app *app, void *p)
{
	struct builder_state *st = p;

	if (st->job_active || st->mode == BM_CONFIRM) {
		if (strcmp(app->build.inv_controller_id, st->build.inv_controller_id) ||
		    strcmp(app->build.tool, st->build.tool))
			app_message(app, "A change on %s is still %s: finish it first",
				    st->bp.title, st->job_active ? "running" : "waiting for you");
		return;
	}
	load(app, st);
}

/* ---- the preview of the create ----------------------------------------------------- */

static const struct inventory *plan_inv(struct app *app, struct builder_state *st)
{
	return st->have_tool_inv ? &st->tool_inv : &app->inv;
}

/*
 * Whether changes can be checked: on this machine only against what the tool
 * itself says (discovery may have renamed the controller after its sysfs
 * twin); an import is its own view.
 */
static bool tool_view(const struct builder_state *st)
{
	return st->have_tool_inv || !st->live || *st->tool_err;
}

/* Validates op and builds its steps into job; 0, or -errno with err filled. */
static int stage(struct app *app, struct builder_state *st, const struct array_op *op,
		 struct array_job *job, struct array_plan *plan, char *err, size_t errlen)
{
	int ret;

	memset(plan, 0, sizeof(*plan));
	ret = array_validate(op, plan_inv(app, st), NULL, plan, err, errlen);
	if (!ret)
		ret = array_job_add(job, op, plan, plan_inv(app, st), err, errlen);
	return ret;
}

static void refresh_preview(struct app *app, struct builder_state *st)
{
	struct array_plan plan;
	struct bp_op o;

	if (!st->dirty)
		return;
	st->dirty = false;
	job_reset(st, &st->preview);
	st->preview_ok = false;
	st->preview_err[0] = '\0';
	if (!build_plan_count(&st->bp, BP_MEMBER)) {
		snprintf(st->preview_err, sizeof(st->preview_err), "pick drives with Space");
		return;
	}
	if (!tool_view(st)) {
		snprintf(st->preview_err, sizeof(st->preview_err), "%s", st->reader_active ?
			 "waiting for the tool's own view of the controller" :
			 "the tool's own view could not be read: r tries again");
		return;
	}
	if (!build_plan_level(&st->bp)) {
		snprintf(st->preview_err, sizeof(st->preview_err), "pick a RAID level with "
			 "Left/Right");
		return;
	}
	build_plan_create_op(&st->bp, &o);
	st->preview_ok = !stage(app, st, &o.op, &st->preview, &plan, st->preview_err,
				sizeof(st->preview_err));
	array_plan_release(&plan);
}

/* ---- a change: confirm, run, read back --------------------------------------------- */

static void remember_lds(struct builder_state *st)
{
	st->nr_before = 0;
	for (size_t i = 0; i < st->bp.nr_lds && st->nr_before < 64; i++)
		snprintf(st->before[st->nr_before++], sizeof(st->before[0]), "%s", st->bp.lds[i].id);
}

/* The new logical drive (or md) a create made, in words; the cursor goes there. */
static void find_new(struct builder_state *st)
{
	st->result_new[0] = '\0';
	for (size_t i = 0; i < st->bp.nr_lds; i++) {
		const struct bp_ld *l = &st->bp.lds[i];
		char size[32] = "?";
		bool seen = false;

		for (size_t k = 0; k < st->nr_before; k++)
			seen |= !strcmp(st->before[k], l->id);
		if (seen)
			continue;
		if (l->size >= 0)
			fmt_size(size, sizeof(size), (double)l->size);
		snprintf(st->result_new, sizeof(st->result_new), "%s %s: RAID %s, %s, %s%s%s%s%s",
			 st->bp.md ? "md array" : "logical drive", l->id, l->level, size, l->state,
			 *l->array ? ", array " : "", l->array, *l->os_device ? ", " : "",
			 l->os_device);
		st->sel = (int)(st->bp.nr_drives + i);
		return;
	}
}

static void job_done(struct app *app, struct builder_state *st)
{
	struct array_job *j = &st->job;
	bool read = j->have_after;

	st->job_active = false;
	st->mode = BM_LIST;
	st->have_result = true;
	st->result_ok = j->ret == 0;
	st->result_hint[0] = '\0';
	if (j->ret) {
		snprintf(st->result, sizeof(st->result), "%s", j->err);
		snprintf(st->result_hint, sizeof(st->result_hint), "%s", j->hint ? j->hint :
			 "nothing else was run; fix what the tool says, then try again");
	} else {
		snprintf(st->result, sizeof(st->result), "%s", *j->notes ? j->notes : "");
	}
	if (read)
		take_state(st, j);
	load_plan(app, st);
	if (!read)
		snprintf(st->load_err, sizeof(st->load_err), "the state could not be read back: %s",
			 j->read_err);
	find_new(st);
	if (st->result_ok) {
		/* the picks went into the array: start the next one afresh */
		for (size_t i = 0; i < st->bp.nr_drives; i++)
			st->bp.drives[i].use = BP_NONE;
		st->dirty = true;
	}
	/* the Devices screen shows what the tool says now */
	app_load_inventory(app);
	st->next_poll_ns = rb_now_ns() + POLL_NS;
}

/* Jobs that finished since the last frame. */
static void poll_jobs(struct app *app, struct builder_state *st)
{
	if (st->reader_active && array_job_done(&st->reader))
		reader_done(app, st);
	if (st->job_active && array_job_done(&st->job))
		job_done(app, st);
	if (!app->test_mode && st->live && !st->reader_active && !st->job_active &&
	    st->mode == BM_LIST && build_plan_busy(&st->bp) && rb_now_ns() >= st->next_poll_ns)
		start_read(app, st);
}

/* What the OS sees on a device: file systems, mounts, signatures, or that it is blank. */
static void lost_os(struct builder_state *st, const char *what, const char *path)
{
	struct guard_report rep;
	char *save = NULL;
	struct stat sb;

	if (!path || !*path)
		return;		/* hw/array.c's validation says so */
	if (stat(path, &sb) || !S_ISBLK(sb.st_mode)) {
		lost_add(st, "%s: %s is not a block device here, so nothing can be mounted from it",
			 what, path);
		return;
	}
	if (guard_examine(path, &rep)) {
		lost_add(st, "%s (%s): cannot be examined", what, path);
		return;
	}
	if (rep.verdict == GUARD_OK) {
		lost_add(st, "%s (%s): no file system, partition table or RAID signature seen; "
			 "not mounted", what, path);
		return;
	}
	for (char *l = strtok_r(rep.reasons, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		lost_add(st, "%s", l);
}

/* Validates the change and asks for the typed confirmation. */
static void propose(struct app *app, struct builder_state *st, const struct array_op *op)
{
	struct array_plan plan;
	char err[1024] = "";

	if (st->job_active || st->reader_active || !tool_view(st)) {
		app_message(app, "Wait: %s is still answering%s", st->ops->name,
			    st->reader_active ? "" : " (r reads its configuration again)");
		return;
	}
	job_reset(st, &st->job);
	if (stage(app, st, op, &st->job, &plan, err, sizeof(err))) {
		app_message(app, "Refused, nothing was run: %s", err);
		job_reset(st, &st->job);
		return;
	}
	for (size_t i = 0; i < plan.nr_warnings; i++)
		lost_add(st, "%s", plan.warnings[i]);
	if (st->bp.md) {
		const char *w = op->verb == ARRAY_CREATE ? plan.md_name :
				op->verb == ARRAY_ERASE ? op->drives[0] : op->ld;

		snprintf(st->want, sizeof(st->want), "%s", strncmp(w, "/dev/", 5) ? w : w + 5);
		snprintf(st->want_what, sizeof(st->want_what), "%s",
			 op->verb == ARRAY_ERASE ? "the device's name" : "the md array's name");
	} else {
		snprintf(st->want, sizeof(st->want), "%s", st->bp.confirm);
		snprintf(st->want_what, sizeof(st->want_what), "%s",
			 raidtool_id_short_what(st->ops));
	}
	array_plan_release(&plan);
	st->input[0] = st->prompt_err[0] = '\0';
	st->have_result = false;
	st->mode = BM_CONFIRM;
}

static void start_change(struct app *app, struct builder_state *st)
{
	if (*st->tool_err) {
		snprintf(st->prompt_err, sizeof(st->prompt_err), "Nothing runs: %s", st->tool_err);
		return;
	}
	remember_lds(st);
	st->result_cmd[0] = '\0';
	for (size_t i = 0; i < st->job.nr_steps; i++) {
		char *line = builder_short_line(&st->job.steps[i].av);
		size_t n = strlen(st->result_cmd);

		snprintf(st->result_cmd + n, sizeof(st->result_cmd) - n, "%s%s", i ? "; " : "",
			 line ? line : "?");
		free(line);
	}
	st->mode = BM_RUNNING;
	st->job_active = true;
	if (array_job_start(&st->job, app->test_mode)) {
		st->job_active = false;
		st->mode = BM_LIST;
		app_message(app, "Nothing was run: %s", st->job.err);
		return;
	}
	if (app->test_mode && array_job_done(&st->job))
		job_done(app, st);
}

static const struct bp_drive *cur_drive(const struct builder_state *st)
{
	return st->sel >= 0 && (size_t)st->sel < st->bp.nr_drives ? &st->bp.drives[st->sel] : NULL;
}

static const struct bp_ld *cur_ld(const struct builder_state *st)
{
	size_t i = (size_t)st->sel - st->bp.nr_drives;

	return st->sel >= (int)st->bp.nr_drives && i < st->bp.nr_lds ? &st->bp.lds[i] : NULL;
}

static void propose_create(struct app *app, struct builder_state *st)
{
	struct bp_op o;
	char ids[512] = "";
	size_t n = 0;

	refresh_preview(app, st);
	if (!st->preview_ok) {
		app_message(app, "Not yet: %s", st->preview_err);
		return;
	}
	lost_clear(st);
	build_plan_create_op(&st->bp, &o);
	for (size_t i = 0; i < o.op.nr_drives + o.op.nr_spares; i++)
		n = bufcat(ids, sizeof(ids), n, "%s%s", i ? ", " : "", i < o.op.nr_drives ? o.drives[i] :
				      o.spares[i - o.op.nr_drives]);
	snprintf(st->job_title, sizeof(st->job_title), "Create RAID %s over %zu drive%s%s",
		 o.op.level, o.op.nr_drives, o.op.nr_drives == 1 ? "" : "s",
		 o.op.nr_spares ? " with spares" : "");
	lost_add(st, "anything on %s", ids);
	propose(app, st, &o.op);
}

static void propose_delete(struct app *app, struct builder_state *st, const struct bp_ld *l)
{
	struct bp_op o;
	char size[32] = "?", what[128];

	lost_clear(st);
	if (l->size >= 0)
		fmt_size(size, sizeof(size), (double)l->size);
	if (st->bp.md) {
		snprintf(st->job_title, sizeof(st->job_title), "Stop md array %s", l->id);
		snprintf(what, sizeof(what), "md array %s", l->id);
		lost_add(st, "md array %s (RAID %s, %s): stopped; its members keep their "
			 "superblocks", l->id, l->level, size);
	} else {
		snprintf(st->job_title, sizeof(st->job_title), "Delete logical drive %s", l->id);
		snprintf(what, sizeof(what), "logical drive %s", l->id);
		lost_add(st, "logical drive %s (RAID %s, %s) and everything on it", l->id, l->level,
			 size);
		if (*l->array)
			lost_add(st, "array %s, when this is its last logical drive: its drives "
				 "become unassigned", l->array);
	}
	if (st->live)
		lost_os(st, what, l->os_device);
	build_plan_delete_op(&st->bp, l, &o);
	propose(app, st, &o.op);
}

static void propose_drive_op(struct app *app, struct builder_state *st, int ch)
{
	const struct bp_drive *d = cur_drive(st);
	const struct bp_ld *l = cur_ld(st);
	struct bp_op o;

	lost_clear(st);
	if (ch == 'a') {
		if (!l) {
			app_message(app, "Mark drives with p, then press a on the logical drive "
				    "whose array gets them as spares");
			return;
		}
		if (!build_plan_count(&st->bp, BP_SPARE)) {
			app_message(app, "No drive is marked as a spare: p on a free drive marks it");
			return;
		}
		snprintf(st->job_title, sizeof(st->job_title), "Add %zu spare%s to %s %s",
			 build_plan_count(&st->bp, BP_SPARE),
			 build_plan_count(&st->bp, BP_SPARE) == 1 ? "" : "s",
			 st->bp.md ? "md array" : "array", st->bp.md ? l->id : l->array);
		lost_add(st, "nothing on the arrays; anything on the new spares");
		build_plan_add_spares_op(&st->bp, l, &o);
	} else if (!d) {
		app_message(app, "%s works on a drive: move to one", ch == 'x' ? "x" : "e");
		return;
	} else if (ch == 'x') {
		if (!d->spare) {
			app_message(app, "%s is not a spare", d->id);
			return;
		}
		snprintf(st->job_title, sizeof(st->job_title), "Remove spare %s", d->id);
		lost_add(st, "nothing: %s stops being a spare%s%s", d->id,
			 *d->array ? " of " : "", d->array);
		build_plan_remove_spare_op(&st->bp, d, &o);
	} else {
		snprintf(st->job_title, sizeof(st->job_title), "Erase %s", d->id);
		build_plan_erase_op(&st->bp, d, &o);
	}
	propose(app, st, &o.op);
}

/* ---- keys ---------------------------------------------------------------------------- */

static int confirm_key(struct app *app, struct builder_state *st, int ch)
{
	switch (ch) {
	case 27:
		st->mode = BM_LIST;
		job_reset(st, &st->job);
		app_message(app, "Cancelled: nothing was run");
		return EV_HANDLED;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (!build_plan_confirmed(&st->bp, st->want, st->input)) {
			snprintf(st->prompt_err, sizeof(st->prompt_err), "\"%s\" is not %s: nothing "
				 "was run; Esc cancels", st->input, st->want);
			st->input[0] = '\0';
			return EV_HANDLED;
		}
		start_change(app, st);
		return EV_HANDLED;
	default:
		w_edit_key(st->input, sizeof(st->input), ch);
		return EV_HANDLED;	/* q must not quit mid-typing */
	}
}

static void toggle(struct app *app, struct builder_state *st, enum bp_use use)
{
	struct bp_drive *d = (struct bp_drive *)cur_drive(st);

	if (!d) {
		app_message(app, "Space and p pick drives; on a logical drive: d deletes it, a adds "
			    "the drives marked p as its spares");
		return;
	}
	if (!d->usable) {
		app_message(app, "%s cannot join a new array: %s", d->id, d->why);
		return;
	}
	d->use = d->use == use ? BP_NONE : use;
	st->dirty = true;
}

static void move_sel(struct builder_state *st, int to)
{
	int n = builder_rows(st);

	st->sel = to < 0 ? 0 : to >= n ? n - 1 : to;
	if (st->sel < 0)
		st->sel = 0;
}

static int builder_key(struct app *app, void *p, int ch)
{
	struct builder_state *st = p;
	int page = st->list_h > 1 ? st->list_h - 1 : 1;

	poll_jobs(app, st);
	if (st->mode == BM_CONFIRM)
		return confirm_key(app, st, ch);
	if (st->mode == BM_RUNNING) {
		if (ch == 27)
			return EV_NONE;	/* back to Devices; the change goes on */
		app_message(app, "Wait: %s is running", st->ops->name);
		return EV_HANDLED;
	}
	if (st->have_result && (ch == 27 || ch == '\n' || ch == '\r' || ch == KEY_ENTER)) {
		st->have_result = false;
		return EV_HANDLED;
	}
	st->have_result = false;
	{
		int want = st->sel;

		if (w_list_key(ch, &want, page, builder_rows(st))) {
			move_sel(st, want);
			return EV_HANDLED;
		}
	}
	switch (ch) {
	case ' ':
		toggle(app, st, BP_MEMBER);
		break;
	case 'p':
		toggle(app, st, BP_SPARE);
		break;
	case KEY_LEFT:
	case KEY_RIGHT:
	case '<':
	case '>':
		if (!build_plan_count(&st->bp, BP_MEMBER))
			app_message(app, "Pick drives first (Space): the levels offered depend on "
				    "how many");
		build_plan_cycle_level(&st->bp, ch == KEY_RIGHT || ch == '>' ? 1 : -1);
		st->dirty = true;
		break;
	case 's':
		build_plan_cycle_strip(&st->bp);
		st->dirty = true;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 'c':
		propose_create(app, st);
		break;
	case 'd':
		if (cur_ld(st))
			propose_delete(app, st, cur_ld(st));
		else
			app_message(app, "d deletes a logical drive: move to one");
		break;
	case 'a':
	case 'x':
	case 'e':
		propose_drive_op(app, st, ch);
		break;
	case 'r':
	case 'R':
		start_read(app, st);
		if (*st->tool_err)
			app_message(app, "Not read again: %s", st->tool_err);
		break;
	case 'w':
		app_switch(app, SCR_SWEEP);
		break;
	default:
		return EV_NONE;
	}
	return EV_HANDLED;
}

static void builder_draw(struct app *app, void *p, const struct rect *r)
{
	struct builder_state *st = p;

	if (!st->loaded)
		load(app, st);
	poll_jobs(app, st);
	if (st->mode == BM_LIST)
		refresh_preview(app, st);
	builder_draw_all(app, st, r);
}

static const struct key_hint builder_hints[] = {
	{ "Space", "Pick" }, { "p", "Spare" }, { "<>", "Level" }, { "s", "Strip" },
	{ "Enter", "Create" }, { "d", "Delete" }, { "e", "Erase" }, { NULL, NULL },
};

const struct screen_ops scr_builder_ops = {
	.title = "Array builder",
	.init = builder_init,
	.release = builder_release,
	.enter = builder_enter,
	.draw = builder_draw,
	.key = builder_key,
	.hints = builder_hints,
};
