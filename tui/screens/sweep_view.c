/*
 * sweep_view.c - how the RAID sweep screen looks: the picks with each
 * level's estimate, the create commands and the typed confirmation, the
 * sweep step by step with the live numbers, and at the end the comparison:
 * a table of the levels and, per phase, bar charts of IOPS, MB/s and p99
 * latency with the textbook estimate next to each measurement.
 *
 * Draws only; the state and the keys are tui/screens/scr_sweep.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_ui.h"
#include "widgets.h"
#include "bufcat.h"

#define LABEL_W 11

static int nr_levels(const struct sweep_state *st)
{
	int n = 0;

	while (st->ops->levels && st->ops->levels[n] && n < SWEEP_UI_LEVELS)
		n++;
	return n;
}

void sweep_view_msg(const struct sweep_msg *m, char *buf, size_t len)
{
	switch (m->kind) {
	case SWEEP_EV_LEVEL_START:
		snprintf(buf, len, "[%zu/%zu] RAID %s", m->index + 1, m->count, m->level);
		break;
	case SWEEP_EV_CREATED:
		snprintf(buf, len, "created logical drive %s (%s): %s", m->ld,
			 *m->os_device ? m->os_device : "no OS device", m->command);
		break;
	case SWEEP_EV_INIT_WAIT:
		if (m->progress_pct >= 0)
			snprintf(buf, len, "waiting for parity initialization of logical drive %s: "
				 "%.0f%%", m->ld, m->progress_pct);
		else
			snprintf(buf, len, "waiting for parity initialization of logical drive %s (%s)",
				 m->ld, m->message);
		break;
	case SWEEP_EV_RUN_START:
		snprintf(buf, len, "running %s on %s", m->message, m->os_device);
		break;
	case SWEEP_EV_RUN_DONE:
		snprintf(buf, len, "measured RAID %s%s%s", m->level, *m->result_path ? ", saved " : "",
			 m->result_path);
		break;
	case SWEEP_EV_DELETED:
		snprintf(buf, len, "deleted %s%s logical drive %s: %s", *m->level ? "RAID " : "",
			 m->level, m->ld, m->command);
		break;
	case SWEEP_EV_NOTE:
		snprintf(buf, len, "note: %s", m->message);
		break;
	case SWEEP_EV_ERROR:
		snprintf(buf, len, "%s%s%s%s", *m->level ? "RAID " : "", m->level,
			 *m->level ? ": " : "", m->message);
		break;
	case SWEEP_EV_DONE:
		snprintf(buf, len, "%s", m->message);
		break;
	}
}

static attr_t msg_attr(const struct theme *t, enum sweep_event_kind k)
{
	return theme_attr(t, k == SWEEP_EV_ERROR ? EL_STATUS_FAILED : k == SWEEP_EV_DONE ?
			  EL_TITLE : k == SWEEP_EV_LEVEL_START ? EL_TITLE : EL_DEFAULT);
}

/* Bytes of s that fit in width cells (ASCII), broken at a space when one is near. */
static int fit(const char *s, int width)
{
	int n = (int)strlen(s), brk = width;

	if (n <= width)
		return n;
	while (brk > width / 2 && s[brk] != ' ')
		brk--;
	return brk > width / 2 ? brk : width;
}

/* Label in the dim column, then text wrapped under it (at most 3 lines); the next row. */
static int row(struct app *app, int y, int x, int w, const char *label, attr_t a,
	       const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static int row(struct app *app, int y, int x, int w, const char *label, attr_t a,
	       const char *fmt, ...)
{
	char text[1024];
	const char *s = text;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	w_text(y, x, LABEL_W, theme_attr(app->theme, EL_DIM), false, "%s", label);
	for (int lines = 0; lines < 3; lines++) {
		int n = fit(s, w - LABEL_W > 8 ? w - LABEL_W : 8);

		w_text(y++, x + LABEL_W, w - LABEL_W, a, false, "%.*s", n, s);
		s += n;
		while (*s == ' ')
			s++;
		if (!*s)
			break;
	}
	return y;
}

/* ---- picking ---------------------------------------------------------------------- */

static void draw_drive(struct app *app, const struct bp_drive *d, int y, int x, int w, bool sel)
{
	const struct theme *t = app->theme;
	attr_t base = sel ? theme_attr(t, EL_SELECTED) : d->usable ? A_NORMAL : theme_attr(t, EL_DIM);
	char size[32] = "";

	if (d->size >= 0)
		fmt_size(size, sizeof(size), (double)d->size);
	w_text(y, x, w, base, true, " %s %-12s %9s %-5s %-10s %s",
	       d->use == BP_MEMBER ? "[x]" : d->usable ? "[ ]" : " - ", d->id, size, d->media,
	       d->state, d->usable ? d->model : d->why);
}

static void draw_levels(struct app *app, struct sweep_state *st, int y, int x, int w, bool sel)
{
	const struct theme *t = app->theme;
	size_t members = build_plan_count(&st->bp, BP_MEMBER);
	char why[96];
	int cx = x + LABEL_W;

	w_text(y, x, LABEL_W, sel ? theme_attr(t, EL_SELECTED) : theme_attr(t, EL_DIM), false,
	       "Levels");
	for (int i = 0; i < nr_levels(st) && cx < x + w; i++) {
		bool fits = build_plan_level_fits(&st->bp, i, members, why, sizeof(why));
		attr_t a = sel && i == st->level_cur ? theme_attr(t, EL_SELECTED) :
			   fits || !members ? A_NORMAL : theme_attr(t, EL_DIM);

		w_text(y, cx, x + w - cx, a, false, "[%s]%s", st->level_on[i] ? "x" : " ",
		       st->ops->levels[i]);
		cx += (int)strlen(st->ops->levels[i]) + 4;
	}
}

/* Each checked level's estimate over the picked drives. */
static int draw_estimates(struct app *app, struct sweep_state *st, int y, int x, int w, int bottom)
{
	const struct theme *t = app->theme;
	size_t members = build_plan_count(&st->bp, BP_MEMBER);
	int64_t smallest = -1;

	for (size_t i = 0; i < st->bp.nr_drives; i++)
		if (st->bp.drives[i].use == BP_MEMBER && st->bp.drives[i].size > 0 &&
		    (smallest < 0 || st->bp.drives[i].size < smallest))
			smallest = st->bp.drives[i].size;
	if (y < bottom)
		w_text(y++, x, w, theme_attr(t, EL_TITLE), true, " %-8s %-10s %-7s %-7s %s", "Level",
		       "Capacity", "Reads", "Writes", "Redundancy  (" RAID_ESTIMATE_LABEL
		       ", x one drive, random)");
	for (int i = 0; i < nr_levels(st) && y < bottom; i++) {
		struct raid_estimate est;
		char cap[32] = "?";

		if (!st->level_on[i])
			continue;
		if (raid_estimate(st->ops->levels[i], (unsigned)members,
				  st->bp.md && !strcmp(st->ops->levels[i], "1") ? 1 : 0, smallest,
				  &est)) {
			w_text(y++, x, w, theme_attr(t, EL_STATUS_WARN), false, " RAID %-3s %s",
			       st->ops->levels[i], est.tolerance);
			continue;
		}
		if (est.capacity_bytes >= 0)
			fmt_size(cap, sizeof(cap), (double)est.capacity_bytes);
		w_text(y++, x, w, A_NORMAL, false, " RAID %-3s %-10s %5.1fx  %5.1fx  %s",
		       st->ops->levels[i], cap, est.rand_read_x, est.rand_write_x, est.tolerance);
	}
	return y;
}

static void draw_pick(struct app *app, struct sweep_state *st, int y, const struct rect *r)
{
	const struct theme *t = app->theme;
	int bottom = r->y + r->h, rows = (int)st->bp.nr_drives + NR_SETTING_ROWS;
	int list_h = bottom - y - 1 - NR_SETTING_ROWS - 6;
	int nd = (int)st->bp.nr_drives, base = nd;

	if (list_h < 3)
		list_h = 3;
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true, "     %-12s %9s %-5s %-10s %s",
	       st->bp.md ? "Device" : "Drive", "Size", "Media", "State", "Model, or why not");
	if (st->sel < nd) {
		if (st->sel < st->top)
			st->top = st->sel;
		if (st->sel >= st->top + list_h)
			st->top = st->sel - list_h + 1;
	}
	for (int i = st->top; i < nd && i < st->top + list_h; i++)
		draw_drive(app, &st->bp.drives[i], y++, r->x, r->w, i == st->sel);
	if (!nd)
		w_text(y++, r->x + 5, r->w - 5, theme_attr(t, EL_DIM), false, "no drives to sweep");
	draw_levels(app, st, y++, r->x + 1, r->w - 2, st->sel == base + ROW_LEVELS);
	w_text(y, r->x + 1, LABEL_W, theme_attr(t, st->sel == base + ROW_PROFILE ? EL_SELECTED :
						    EL_DIM), false, "Profile");
	w_text(y++, r->x + 1 + LABEL_W, r->w - 2 - LABEL_W, A_NORMAL, false,
	       "%s  (F3 Profiles chooses another)", sweep_ui_profile(app));
	w_text(y, r->x + 1, LABEL_W, theme_attr(t, st->sel == base + ROW_RUNTIME ? EL_SELECTED :
						    EL_DIM), false, "Runtime");
	w_text(y++, r->x + 1 + LABEL_W, r->w - 2 - LABEL_W, A_NORMAL, false,
	       "%u s per phase of the profile, per level  (Space changes)", sweep_ui_runtime(st));
	w_text(y, r->x + 1, LABEL_W, theme_attr(t, st->sel == base + ROW_WAIT ? EL_SELECTED :
						    EL_DIM), false, "Wait init");
	w_text(y++, r->x + 1 + LABEL_W, r->w - 2 - LABEL_W, A_NORMAL, false, "%s",
	       st->wait_init ? "yes: measure after parity initialization  (Space changes)" :
	       "no: measure while it runs, marked on the result  (Space changes)");
	(void)rows;
	y = draw_estimates(app, st, y, r->x, r->w, bottom - 1);
	if (y < bottom)
		w_text(bottom - 1, r->x, r->w, theme_attr(t, EL_DIM), false,
		       " Enter: each level's command, then a typed confirmation");
}

/* ---- confirming --------------------------------------------------------------------- */

static int draw_prompt(struct app *app, struct sweep_state *st, int y, const struct rect *r)
{
	const struct theme *t = app->theme;

	w_text(y++, r->x, r->w, theme_attr(t, EL_MESSAGE), true, " Type %s (%s) and Enter to %s; "
	       "Esc cancels:", st->want, st->want_what, st->mode == SW_PENDING ?
	       "delete exactly these" : "run the sweep");
	w_text(y++, r->x, r->w, A_BOLD, true, " > %s_", st->input);
	if (*st->prompt_err)
		w_text(y++, r->x, r->w, theme_attr(t, EL_ERROR), true, " %s", st->prompt_err);
	return y;
}

static void draw_confirm(struct app *app, struct sweep_state *st, int y, const struct rect *r)
{
	const struct theme *t = app->theme;
	const struct sweep_report *rep = &st->task.report;
	const struct sweep_plan *p = &st->task.plan;
	char drives[512] = "";
	size_t n = 0;

	for (size_t i = 0; i < p->nr_drives && n < sizeof(drives); i++)
		n = bufcat(drives, sizeof(drives), n, "%s%s", i ? ", " : "",
				      p->drives[i]);
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true, " Sweep %zu level%s over %zu drives "
	       "on %s, profile %s, %u s per phase", rep->nr_levels, rep->nr_levels == 1 ? "" : "s",
	       p->nr_drives, st->bp.title, p->profile, p->runtime_s);
	for (size_t i = 0; i < rep->nr_levels && y < r->y + r->h - 5; i++) {
		const struct sweep_level *lv = &rep->levels[i];
		char label[24];
		const char *cmd = lv->command ? lv->command : "";
		const char *slash = NULL;

		/* the binary's base name: the full path is on the Tool line */
		if (lv->command && (slash = strchr(lv->command, ' ')))
			for (const char *c = lv->command; c < slash; c++)
				if (*c == '/')
					cmd = c + 1;
		snprintf(label, sizeof(label), " RAID %s", lv->level);
		if (lv->command)
			y = row(app, y, r->x, r->w, label, A_NORMAL, "%s", cmd);
		else
			y = row(app, y, r->x, r->w, label, theme_attr(t, EL_STATUS_FAILED), "refused: %s",
				lv->error);
	}
	y = row(app, y, r->x, r->w, " Lost", theme_attr(t, EL_STATUS_WARN),
		"everything on %s, at every level", drives);
	for (size_t i = 0; i < rep->nr_levels && y < r->y + r->h - 4; i++)
		if (rep->levels[i].warnings) {
			y = row(app, y, r->x, r->w, "", theme_attr(t, EL_STATUS_WARN), "%s",
				rep->levels[i].warnings);
			break;
		}
	if (st->ret)
		w_text(y++, r->x, r->w, theme_attr(t, EL_ERROR), true, " %s: Esc, uncheck it",
		       st->err);
	else
		draw_prompt(app, st, y, r);
}

static void draw_pending(struct app *app, struct sweep_state *st, int y, const struct rect *r)
{
	const struct theme *t = app->theme;

	w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_WARN), true, " An interrupted sweep left "
	       "%zu array%s behind (sweep journal):", st->nr_pending, st->nr_pending == 1 ? "" : "s");
	for (size_t i = 0; i < st->nr_pending && y < r->y + r->h - 4; i++) {
		const struct sweep_pending_array *a = &st->pending[i];
		char drives[256] = "";
		size_t n = 0;

		for (size_t k = 0; k < a->nr_drives && n < sizeof(drives); k++)
			n = bufcat(drives, sizeof(drives), n, "%s%s", k ? "," : "",
					      a->drives[k]);
		w_text(y++, r->x, r->w, A_NORMAL, false, "   RAID %s on %s %s, logical drive %s%s%s%s, "
		       "drives %s, created %s (%s)", a->level, a->tool, a->controller,
		       *a->ld ? a->ld : "(not known)", *a->os_device ? " (" : "", a->os_device,
		       *a->os_device ? ")" : "", drives, a->time, a->state);
	}
	w_text(y++, r->x, r->w, A_NORMAL, false, " Deleting them destroys what they hold; nothing "
	       "else is touched. Esc leaves them (no sweep starts until they are gone).");
	draw_prompt(app, st, y, r);
}

/* ---- running ------------------------------------------------------------------------ */

static void draw_running(struct app *app, struct sweep_state *st, int y, const struct rect *r)
{
	const struct theme *t = app->theme;
	const struct live_job *tot = st->live_ok && st->run_view.ticks ? &st->run_view.now.total : NULL;
	int bottom = r->y + r->h;
	size_t first;

	if (st->cleanup)
		w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_BUSY), true,
		       " Deleting the arrays the interrupted sweep left behind...");
	else
		w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_BUSY), true, " Sweep running: level "
		       "%zu of %zu%s", st->cur + 1, st->count ? st->count : st->task.plan.nr_levels,
		       st->stopping ? "  (stopping after this step; its array is deleted)" :
				      "  (s stops it; the array of the step is deleted)");
	y = row(app, y, r->x, r->w, " Now", A_NORMAL, "%s", *st->now ? st->now : "starting");
	if (tot && st->measuring) {
		char iops[16], bw[32];
		double io = 0, b = 0;

		for (int d = 0; d < LIVE_NR_DDIR; d++) {
			io += tot->io[d].iops;
			b += tot->io[d].bw;
		}
		fmt_count(iops, sizeof(iops), io);
		fmt_rate(bw, sizeof(bw), b);
		y = row(app, y, r->x, r->w, " Live", theme_attr(t, EL_GAUGE_READ), "%s IOPS  %s  "
			"(%.0f%% of the profile)", iops, bw, tot->percent);
	}
	if (st->init_pct >= 0) {
		w_text(y, r->x, LABEL_W, theme_attr(t, EL_DIM), false, " Init");
		w_hbar(t, y, r->x + LABEL_W, 20, st->init_pct / 100, theme_attr(t, EL_STATUS_BUSY));
		w_text(y++, r->x + LABEL_W + 21, r->w - LABEL_W - 21, A_NORMAL, false,
		       "%.0f%% parity initialization", st->init_pct);
	}
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true, " Steps");
	first = st->nr_log > (size_t)(bottom - y) ? st->nr_log - (size_t)(bottom - y) : 0;
	for (size_t i = first; i < st->nr_log && y < bottom; i++) {
		const struct sweep_msg *m = sweep_ui_log(st, i);
		char line[1024];

		sweep_view_msg(m, line, sizeof(line));
		w_text(y++, r->x + 2, r->w - 2, msg_attr(t, m->kind), false, "%s", line);
	}
}

/* ---- the comparison ------------------------------------------------------------------ */

static const struct sweep_level *first_measured(const struct sweep_report *rep)
{
	for (size_t i = 0; i < rep->nr_levels; i++)
		if (rep->levels[i].nr_phases)
			return &rep->levels[i];
	return NULL;
}

static const struct sweep_phase *phase_of(const struct sweep_level *lv, const struct sweep_phase *p)
{
	for (size_t k = 0; k < lv->nr_phases; k++)
		if (!strcmp(lv->phases[k].name, p->name) && lv->phases[k].ddir == p->ddir)
			return &lv->phases[k];
	return NULL;
}

static const char *state_word(const struct sweep_level *lv)
{
	switch (lv->state) {
	case SWEEP_PLANNED: return "not reached";
	case SWEEP_MEASURED: return lv->initializing ? "measured*" : "measured";
	case SWEEP_REFUSED: return "refused";
	case SWEEP_FAILED: return "failed";
	case SWEEP_INTERRUPTED: return "interrupted";
	}
	return "?";
}

enum metric { M_IOPS, M_MBS, M_P99 };

/* One bar chart: the levels' value of metric m in phase p; returns the next row. */
static int chart(struct app *app, const struct sweep_report *rep, const struct sweep_phase *p,
		 enum metric m, int y, int x, int w, int bottom, int skip)
{
	static const char *const names[] = { "IOPS", "MB/s", "p99 latency (lower is better)" };
	const struct theme *t = app->theme;
	double max = 0;
	int barw = w - 10 - 12 - 22;

	for (size_t i = 0; i < rep->nr_levels; i++) {
		const struct sweep_phase *ph = phase_of(&rep->levels[i], p);
		double v = !ph ? 0 : m == M_IOPS ? ph->iops : m == M_MBS ? ph->bw_bytes : ph->p99_ns;

		if (v > max)
			max = v;
	}
	if (skip-- <= 0 && y < bottom)
		w_text(y++, x, w, theme_attr(t, EL_TITLE), false, "  %-*s %11s  %s", barw + 8,
		       names[m], "measured", m == M_P99 ? "" : RAID_ESTIMATE_LABEL " x");
	for (size_t i = 0; i < rep->nr_levels; i++) {
		const struct sweep_level *lv = &rep->levels[i];
		const struct sweep_phase *ph = phase_of(lv, p);
		char val[32] = "-";
		double v = 0;

		if (skip-- > 0 || y >= bottom)
			continue;
		if (ph) {
			v = m == M_IOPS ? ph->iops : m == M_MBS ? ph->bw_bytes : ph->p99_ns;
			if (m == M_IOPS)
				fmt_count(val, sizeof(val), v);
			else if (m == M_MBS)
				snprintf(val, sizeof(val), "%.1f", v / 1e6);
			else if (v >= 0)
				fmt_ns(val, sizeof(val), v);
		}
		w_text(y, x, 10, A_NORMAL, false, "  RAID %s", lv->level);
		if (ph && max > 0 && barw > 4)
			w_hbar(t, y, x + 10, barw, v / max, theme_attr(t, m == M_P99 ? EL_GRAPH_P99 :
					 p->ddir ? EL_GAUGE_WRITE : EL_GAUGE_READ));
		w_text(y, x + 10 + barw, 12, A_NORMAL, false, " %11s", ph ? val : state_word(lv));
		if (ph && m != M_P99 && ph->estimate_x > 0)
			w_text(y, x + 22 + barw, w - 22 - barw, theme_attr(t, EL_DIM), false,
			       "  %.1fx%s", ph->estimate_x, lv->initializing ? "  (initializing)" : "");
		y++;
	}
	return y;
}

static void draw_done(struct app *app, struct sweep_state *st, int y, const struct rect *r)
{
	const struct theme *t = app->theme;
	const struct sweep_report *rep = &st->task.report;
	const struct sweep_level *first = first_measured(rep);
	int bottom = r->y + r->h, skip = st->res_top;
	char cap[32];

	w_text(y++, r->x, r->w, theme_attr(t, st->ret ? EL_STATUS_WARN : EL_STATUS_OK), true,
	       " %s", st->ret ? st->err : "Sweep done: every level measured, no array left behind");
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true, " %-8s %-12s %-10s %s", "Level",
	       "State", "Capacity", "Redundancy (" RAID_ESTIMATE_LABEL ")");
	for (size_t i = 0; i < rep->nr_levels && y < bottom; i++) {
		const struct sweep_level *lv = &rep->levels[i];
		int64_t b = lv->size_bytes >= 0 ? lv->size_bytes : lv->est.capacity_bytes;

		snprintf(cap, sizeof(cap), "-");
		if (b >= 0)
			fmt_size(cap, sizeof(cap), (double)b);
		w_text(y++, r->x, r->w, lv->state == SWEEP_MEASURED ? A_NORMAL :
		       theme_attr(t, EL_STATUS_WARN), false, " RAID %-3s %-12s %-10s %s", lv->level,
		       state_word(lv), cap, *lv->error ? lv->error : lv->est.tolerance);
	}
	if (!first) {
		w_text(y + 1, r->x + 2, r->w - 2, theme_attr(t, EL_DIM), false,
		       "No level was measured: nothing to compare. Enter goes back to the picks.");
		return;
	}
	if (st->phase < 0)
		st->phase = (int)first->nr_phases - 1;
	if (st->phase >= (int)first->nr_phases)
		st->phase = 0;
	{
		const struct sweep_phase *p = &first->phases[st->phase];

		if (y < bottom)
			w_text(y++, r->x, r->w, A_BOLD, true, " Phase %d of %zu: %s (%s, %s)  "
			       "Left/Right: other phases", st->phase + 1, first->nr_phases, p->name,
			       p->ddir ? "write" : "read", p->sequential ? "sequential" : "random");
		for (int m = M_IOPS; m <= M_P99; m++) {
			int before = y;

			y = chart(app, rep, p, (enum metric)m, y, r->x, r->w, bottom, skip);
			skip -= (int)rep->nr_levels + 1 - (y - before);
			if (skip < 0)
				skip = 0;
		}
	}
	if (y < bottom)
		w_text(y++, r->x, r->w, theme_attr(t, EL_DIM), false, " " RAID_ESTIMATE_LABEL
		       ": textbook RAID arithmetic; the measurement is what counts. Results are "
		       "saved (F6).");
}

void sweep_view_draw(struct app *app, struct sweep_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	int y = r->y;

	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true, " RAID sweep on %s  (%s)",
	       st->bp.title, st->ops->name);
	if (*st->tool_err)
		w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_WARN), true, " %s", st->tool_err);
	if (*st->err && st->mode == SW_PICK)
		w_text(y++, r->x, r->w, theme_attr(t, EL_ERROR), true, " %s", st->err);
	if (st->mode == SW_PICK && st->nr_pending)
		w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_WARN), true, " %zu array%s left "
		       "behind by an interrupted sweep: D offers to delete them", st->nr_pending,
		       st->nr_pending == 1 ? "" : "s");
	switch (st->mode) {
	case SW_PICK:
		draw_pick(app, st, y, r);
		break;
	case SW_PENDING:
		draw_pending(app, st, y, r);
		break;
	case SW_PREVIEW:
		w_text(y, r->x, r->w, theme_attr(t, EL_STATUS_BUSY), true, " Reading %s and checking "
		       "every level...", st->ops->name);
		break;
	case SW_CONFIRM:
		draw_confirm(app, st, y, r);
		break;
	case SW_RUNNING:
		draw_running(app, st, y, r);
		break;
	case SW_DONE:
		draw_done(app, st, y, r);
		break;
	}
}
