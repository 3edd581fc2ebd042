/*
 * builder_draw.c - how the Array builder looks: the controller's drives
 * (picked, free, or dimmed with the reason they cannot be used), its logical
 * drives with any progress, and below them one panel: the new array as
 * picked (level, strip, capacity, fault tolerance, estimated performance,
 * the exact command), the typed confirmation with what will be lost, the
 * running change, or its outcome in the vendor's words.
 *
 * Draws only; the state and the keys are tui/screens/scr_builder.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder_int.h"
#include "widgets.h"

#define LABEL_W 11
#define MAX_PLINES 64

/* One line of the panel. */
struct pline {
	enum theme_el el;
	char label[LABEL_W + 1];
	char text[512];
	bool levels;		/* the level chooser: drawn token by token */
	bool whole;		/* a title or the prompt: the label column too */
};

struct panel {
	struct pline l[MAX_PLINES];
	int n;
	int width;		/* of the text column */
};

int builder_rows(const struct builder_state *st)
{
	return (int)(st->bp.nr_drives + st->bp.nr_lds);
}

char *builder_short_line(const struct raidtool_argv *av)
{
	const char *v[RAIDTOOL_MAX_ARGS + 1];
	const char *slash;

	if (!av->n)
		return NULL;
	memcpy(v, av->v, (av->n + 1) * sizeof(v[0]));
	slash = strrchr(v[0], '/');
	if (slash)
		v[0] = slash + 1;
	return raidtool_argv_format(v);
}

const char *builder_progress_words(enum inv_status s)
{
	switch (s) {
	case INV_INITIALIZING:
		return "parity initialization";
	case INV_TRANSFORMING:
		return "transformation";
	case INV_REBUILDING:
		return "rebuild";
	case INV_ERASING:
		return "erase";
	default:
		return NULL;
	}
}

static enum theme_el status_el(enum inv_status s)
{
	switch (s) {
	case INV_OK:
		return EL_STATUS_OK;
	case INV_DEGRADED:
	case INV_PREDICTIVE_FAILURE:
		return EL_STATUS_WARN;
	case INV_REBUILDING:
	case INV_INITIALIZING:
	case INV_TRANSFORMING:
	case INV_ERASING:
		return EL_STATUS_BUSY;
	case INV_FAILED:
	case INV_OFFLINE:
		return EL_STATUS_FAILED;
	default:
		return EL_DIM;
	}
}

/* ---- the panel's lines ------------------------------------------------------------------ */

/* Bytes of s that fit in width cells, broken at a space when one is near. */
static int fit(const char *s, int width)
{
	int n = 0, brk = 0;
	char piece[512];

	while (s[n] && s[n] != '\n') {
		int next = n + 1;

		while (s[next] && ((unsigned char)s[next] & 0xc0) == 0x80)
			next++;
		snprintf(piece, sizeof(piece), "%.*s", next, s);
		if (n && w_width(piece) > width)
			break;
		if (s[n] == ' ')
			brk = n;
		n = next;
	}
	return s[n] && s[n] != '\n' && brk > 0 ? brk : n;
}

static void add(struct panel *p, enum theme_el el, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A labelled line, word-wrapped into as many lines as it needs. */
static void add(struct panel *p, enum theme_el el, const char *label, const char *fmt, ...)
{
	char text[2048];
	const char *s = text;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	do {
		int n = fit(s, p->width > 8 ? p->width : 8);
		struct pline *l;

		if (p->n >= MAX_PLINES)
			return;
		l = &p->l[p->n++];
		memset(l, 0, sizeof(*l));
		l->el = el;
		snprintf(l->label, sizeof(l->label), "%s", label);
		snprintf(l->text, sizeof(l->text), "%.*s", n, s);
		label = "";
		s += n;
		while (*s == ' ' || *s == '\n')
			s++;
	} while (*s);
}

static void title(struct panel *p, enum theme_el el, const char *text)
{
	int w = p->width;

	int first = p->n;

	p->width += LABEL_W;	/* titles use the label column too */
	add(p, el, "", "%s", text);
	p->width = w;
	for (int i = first; i < p->n; i++)
		p->l[i].whole = true;
}

static void steps_lines(struct panel *p, const struct array_job *job, const char *label)
{
	for (size_t i = 0; i < job->nr_steps; i++) {
		char *line = builder_short_line(&job->steps[i].av);

		add(p, EL_DEFAULT, i ? "" : label, "%s", line ? line : "?");
		free(line);
	}
}

static void new_array_lines(const struct builder_state *st, struct panel *p)
{
	const struct build_plan *bp = &st->bp;
	size_t members = build_plan_count(bp, BP_MEMBER), spares = build_plan_count(bp, BP_SPARE);
	struct raid_estimate est;
	char size[32] = "?", why[96];
	int64_t smallest = -1;

	title(p, EL_TITLE, "New array  (Space drives, p spares, <> level, s strip, Enter creates)");
	add(p, EL_DEFAULT, "Level", "%s", "");
	p->l[p->n - 1].levels = true;
	if (members && build_plan_level(bp) &&
	    !build_plan_level_fits(bp, bp->level, members, why, sizeof(why)))
		add(p, EL_STATUS_WARN, "", "RAID %s %s", build_plan_level(bp), why);
	add(p, EL_DEFAULT, "Strip", "%s%s", build_plan_strip_name(bp),
	    bp->strip ? "" : " (the tool's choice)");
	for (size_t i = 0; i < bp->nr_drives; i++)
		if (bp->drives[i].use == BP_MEMBER && bp->drives[i].size > 0 &&
		    (smallest < 0 || bp->drives[i].size < smallest))
			smallest = bp->drives[i].size;
	if (smallest > 0)
		fmt_size(size, sizeof(size), (double)smallest);
	if (!members)
		add(p, EL_DIM, "Drives", "none picked%s", spares ? " (spares are marked)" : "");
	else
		add(p, EL_DEFAULT, "Drives", "%zu member%s of %s, %zu spare%s", members,
		    members == 1 ? "" : "s", size, spares, spares == 1 ? "" : "s");
	if (!build_plan_level(bp) || !members)
		;
	else if (build_plan_estimate(bp, &est)) {
		add(p, EL_STATUS_WARN, "Estimate", "%s", est.tolerance);
	} else {
		if (est.capacity_bytes >= 0)
			fmt_size(size, sizeof(size), (double)est.capacity_bytes);
		add(p, EL_BIG_NUMBER, "Capacity", "%s usable: %u of %u drive%s hold%s data",
		    est.capacity_bytes >= 0 ? size : "?", est.data_drives, est.drives,
		    est.drives == 1 ? "" : "s", est.data_drives == 1 ? "s" : "");
		add(p, est.failures_always ? EL_STATUS_OK : EL_STATUS_WARN, "Redundancy", "%s",
		    est.tolerance);
		add(p, EL_DEFAULT, "Reads", "%.1fx one drive random, %.1fx sequential  (%s)",
		    est.rand_read_x, est.seq_read_x, RAID_ESTIMATE_LABEL);
		add(p, EL_DEFAULT, "Writes", "%.1fx one drive random, %.1fx sequential  (%s)",
		    est.rand_write_x, est.seq_write_x, RAID_ESTIMATE_LABEL);
	}
	if (st->preview_ok)
		steps_lines(p, &st->preview, "Command");
	else
		add(p, EL_STATUS_WARN, "Command", "not yet: %s", st->preview_err);
}

static void confirm_lines(const struct builder_state *st, struct panel *p)
{
	char t[384];

	snprintf(t, sizeof(t), "%s on %s", st->job_title, st->bp.title);
	title(p, EL_TITLE, t);
	steps_lines(p, &st->job, "Runs");
	add(p, EL_DIM, "Tool", "%s", st->job.bin);
	for (size_t i = 0; i < st->nr_lost; i++)
		add(p, EL_STATUS_WARN, i ? "" : "Lost", "%s", st->lost[i]);
	snprintf(t, sizeof(t), "Type %s (%s) and Enter to run it; Esc cancels:", st->want,
		 st->want_what);
	title(p, EL_MESSAGE, t);
	snprintf(t, sizeof(t), "> %s_", st->input);
	title(p, EL_DEFAULT, t);
	if (*st->prompt_err)
		title(p, EL_ERROR, st->prompt_err);
}

static void result_lines(const struct builder_state *st, struct panel *p)
{
	char t[384];

	snprintf(t, sizeof(t), "%s: %s", st->result_ok ? "Done" : "Failed", st->job_title);
	title(p, st->result_ok ? EL_STATUS_OK : EL_ERROR, t);
	add(p, EL_DEFAULT, "Ran", "%s", st->result_cmd);
	if (*st->result_new)
		add(p, EL_STATUS_OK, "New", "%s", st->result_new);
	if (!st->result_ok) {
		add(p, EL_STATUS_FAILED, st->ops->name, "%s", st->result);
		add(p, EL_DEFAULT, "What to do", "%s", st->result_hint);
	} else if (*st->result) {
		add(p, EL_DIM, st->ops->name, "%s", st->result);
	}
	add(p, EL_DIM, "", "Enter or Esc: back to the new array");
}

/* ---- the frame ------------------------------------------------------------------------- */

static void draw_levels(struct app *app, const struct builder_state *st, int y, int x, int w)
{
	const struct theme *t = app->theme;
	const struct build_plan *bp = &st->bp;
	size_t members = build_plan_count(bp, BP_MEMBER);
	char why[96];
	int cx = x;

	if (build_plan_level(bp)) {
		w_text(y, cx, w, A_BOLD, false, "RAID %-6s", build_plan_level(bp));
		cx += 12;
	} else {
		w_text(y, cx, w, theme_attr(t, EL_DIM), false, "(none)");
		cx += 12;
	}
	for (int i = 0; bp->ops->levels && bp->ops->levels[i] && cx < x + w; i++) {
		const char *lv = bp->ops->levels[i];
		bool fits = build_plan_level_fits(bp, i, members, why, sizeof(why));
		attr_t a = i == bp->level ? theme_attr(t, EL_SELECTED) :
			   fits ? A_NORMAL : theme_attr(t, EL_DIM);

		/* brackets as well as the color: the choice reads in monochrome and in dumps */
		w_text(y, cx, x + w - cx, a, false, i == bp->level ? "[%s]" : " %s ", lv);
		cx += (int)strlen(lv) + 2;
	}
}

static void draw_panel(struct app *app, const struct builder_state *st, const struct panel *p,
		       int y, int x, int w, int h)
{
	const struct theme *t = app->theme;

	for (int i = 0; i < p->n && i < h; i++) {
		const struct pline *l = &p->l[i];

		if (l->levels) {
			w_text(y + i, x, LABEL_W, theme_attr(t, EL_DIM), false, "%s", l->label);
			draw_levels(app, st, y + i, x + LABEL_W, w - LABEL_W);
			continue;
		}
		if (l->whole) {
			w_text(y + i, x, w, theme_attr(t, l->el) | (l->text[0] == '>' ? A_BOLD : 0),
			       l->el == EL_MESSAGE, "%s", l->text);
			continue;
		}
		w_text(y + i, x, LABEL_W, theme_attr(t, EL_DIM), false, "%s", l->label);
		w_text(y + i, x + LABEL_W, w - LABEL_W, theme_attr(t, l->el), false, "%s", l->text);
	}
}

static void draw_drive(struct app *app, const struct builder_state *st, const struct bp_drive *d,
		       int y, int x, int w, int idw, bool sel)
{
	const struct theme *t = app->theme;
	attr_t base = sel ? theme_attr(t, EL_SELECTED) : d->usable ? A_NORMAL : theme_attr(t, EL_DIM);
	const char *mark = d->use == BP_MEMBER ? "[x]" : d->use == BP_SPARE ? "[S]" :
			   d->usable ? "[ ]" : " - ";
	char size[32] = "";
	int cx = x + 1 + 4 + idw + 1;

	(void)st;
	if (d->size >= 0)
		fmt_size(size, sizeof(size), (double)d->size);
	w_text(y, x, w, base, true, " %s %-*s", mark, idw, d->id);
	w_text(y, cx, 9, base, false, "%9s", size);
	w_text(y, cx + 10, 5, base, false, "%s", d->media);
	w_text(y, cx + 16, 11, sel || !d->usable ? base : theme_attr(t, status_el(d->status)),
	       false, "%s", d->state);
	cx += 27;
	if (!d->usable) {
		w_text(y, cx, x + w - cx, base, false, "%s", d->why);
		return;
	}
	if (w >= 120 || !*d->why) {
		w_text(y, cx, x + w - cx, base, false, "%-*.*s", w >= 120 ? 24 : 0, 24, d->model);
		if (w >= 120)
			cx += 25;
		else
			return;
	}
	w_text(y, cx, x + w - cx, sel ? base : theme_attr(t, EL_STATUS_WARN), false, "%s", d->why);
}

static void draw_ld(struct app *app, const struct builder_state *st, const struct bp_ld *l, int y,
		    int x, int w, bool sel)
{
	const struct theme *t = app->theme;
	attr_t base = sel ? theme_attr(t, EL_SELECTED) : A_NORMAL;
	attr_t tone = sel ? base : theme_attr(t, status_el(l->status));
	char size[32] = "", name[96];
	int cx = x + 5 + 14 + 1 + 10 + 9 + 2;

	if (l->size >= 0)
		fmt_size(size, sizeof(size), (double)l->size);
	if (st->bp.md)
		snprintf(name, sizeof(name), "%s", l->id);
	else
		snprintf(name, sizeof(name), "LD %s%s%s", l->id, *l->array ? "  array " : "",
			 l->array);
	w_text(y, x, w, base, true, "     %-14s RAID %-5s%9s  ", name, l->level, size);
	if (l->progress >= 0 || builder_progress_words(l->status)) {
		/* the normalized word and a gauge; the vendor's words are in the line above */
		w_text(y, cx, 13, tone, false, "%s", inv_status_name(l->status));
		cx += 14;
		if (l->progress >= 0 && x + w - cx > 16) {
			w_hbar(t, y, cx, 10, l->progress / 100.0, theme_attr(t, EL_STATUS_BUSY));
			w_text(y, cx + 11, 5, base, false, "%3.0f%%", l->progress);
			cx += 17;
		}
	} else {
		w_text(y, cx, 20, tone, false, "%s", l->state);
		cx += 21;
	}
	w_text(y, cx, x + w - cx, sel ? base : theme_attr(t, EL_DIM), false, "%s", l->os_device);
}

/* Section titles and rows; the selection stays in view. Returns the lines drawn. */
static void draw_list(struct app *app, struct builder_state *st, int y, int x, int w, int h)
{
	const struct theme *t = app->theme;
	const struct build_plan *bp = &st->bp;
	int lines = (int)bp->nr_drives + (int)bp->nr_lds + 2, idw = 6;
	int sel_line = st->sel < (int)bp->nr_drives ? st->sel + 1 : st->sel + 2;

	for (size_t i = 0; i < bp->nr_drives; i++)
		if ((int)strlen(bp->drives[i].id) > idw)
			idw = (int)strlen(bp->drives[i].id) > 16 ? 16 : (int)strlen(bp->drives[i].id);
	st->list_y = y;
	st->list_h = h;
	if (sel_line < st->top)
		st->top = sel_line - 1 < 0 ? 0 : sel_line - 1;
	if (sel_line >= st->top + h)
		st->top = sel_line - h + 1;
	if (st->top > lines - h)
		st->top = lines - h;
	if (st->top < 0)
		st->top = 0;
	for (int line = st->top, row = 0; line < lines && row < h; line++, row++) {
		int yy = y + row;

		if (line == 0) {
			w_text(yy, x, w, theme_attr(t, EL_TITLE), true, " %s %-*s %9s %-5s %-10s %s",
			       "   ", idw, bp->md ? "Device" : "Drive", "Size", "Media", "State",
			       w >= 120 ? "Model                     Why not / note" : "Model, or why not");
		} else if (line <= (int)bp->nr_drives) {
			draw_drive(app, st, &bp->drives[line - 1], yy, x, w, idw,
				   st->sel == line - 1 && st->mode == BM_LIST);
		} else if (line == (int)bp->nr_drives + 1) {
			w_text(yy, x, w, theme_attr(t, EL_TITLE), true, " %s%s",
			       bp->md ? "md arrays" : "Logical drives",
			       bp->nr_lds ? (bp->md ? "  (d stops one, a adds the p-marked spares)"
					    : "  (d deletes one, a adds the p-marked spares)")
					  : ": none yet");
		} else {
			size_t i = (size_t)(line - (int)bp->nr_drives - 2);

			draw_ld(app, st, &bp->lds[i], yy, x, w,
				st->sel == (int)(bp->nr_drives + i) && st->mode == BM_LIST);
		}
	}
	if (!bp->nr_drives && h > 1)
		w_text(y + 1, x + 5, w - 5, theme_attr(t, EL_DIM), false, "%s",
		       bp->md ? "no block devices in the inventory" : "no drives on this controller");
}

/* The lines above the list: which controller, why nothing can run, what is in progress. */
static int draw_head(struct app *app, struct builder_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	int y = r->y;

	char mode[16];
	size_t i;

	for (i = 0; st->bp.mode[i] && i + 1 < sizeof(mode); i++)
		mode[i] = (char)toupper((unsigned char)st->bp.mode[i]);
	mode[i] = '\0';
	w_text(y++, r->x, r->w, theme_attr(t, EL_TITLE), true, " %s  (%s%s%s%s)", st->bp.title,
	       st->ops->name, *mode ? ", " : "", mode, *mode ? " mode" : "");
	if (*st->tool_err)
		w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_WARN), true, " %s", st->tool_err);
	if (*st->load_err)
		w_text(y++, r->x, r->w, theme_attr(t, EL_ERROR), true, " %s", st->load_err);
	if (st->reader_active && !st->have_tool_inv)
		w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_BUSY), true,
		       " Reading %s's configuration...", st->ops->name);
	for (i = 0; i < st->bp.nr_lds && y < r->y + 5; i++) {
		const struct bp_ld *l = &st->bp.lds[i];
		const char *what = builder_progress_words(l->status);

		if (!what && l->progress < 0)
			continue;
		if (l->progress >= 0)
			w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_BUSY), true,
			       " %s of %s %s: %.0f%% done (%s)  %s", what ? what : "operation",
			       st->bp.md ? "md array" : "logical drive", l->id, l->progress,
			       l->state, app->test_mode ? "r reads it again" : "read every 3 s");
		else
			w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_BUSY), true,
			       " %s of %s %s is running (%s)  %s", what, st->bp.md ? "md array" :
			       "logical drive", l->id, l->state,
			       app->test_mode ? "r reads it again" : "read every 3 s");
	}
	return y;
}

void builder_draw_all(struct app *app, struct builder_state *st, const struct rect *r)
{
	static struct panel p;
	int y = draw_head(app, st, r), ph, lh;

	memset(&p, 0, sizeof(p));
	p.width = r->w - 2 - LABEL_W;
	if (st->mode == BM_CONFIRM)
		confirm_lines(st, &p);
	else if (st->mode == BM_RUNNING) {
		char t[384];

		snprintf(t, sizeof(t), "Running: %s on %s", st->job_title, st->bp.title);
		title(&p, EL_STATUS_BUSY, t);
		steps_lines(&p, &st->job, "Runs");
		add(&p, EL_DIM, "", "Esc goes back to Devices; the change goes on and its outcome "
		    "shows here");
	} else if (st->have_result)
		result_lines(st, &p);
	else
		new_array_lines(st, &p);
	ph = p.n;
	lh = r->y + r->h - y - ph - 1;
	if (lh < 4) {
		lh = 4;
		ph = r->y + r->h - y - lh - 1;
	}
	draw_list(app, st, y, r->x, r->w, lh);
	draw_panel(app, st, &p, y + lh + 1, r->x + 1, r->w - 2, ph);
}
