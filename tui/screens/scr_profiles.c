/*
 * scr_profiles.c - the Profiles screen: the built-in and user profiles with
 * their summary and phases; Enter chooses one for the run; the knob pane
 * edits its common options (pattern, block size, read mix, queue depth,
 * jobs, runtime, size) as overrides; the equivalent fio command line; 's'
 * saves the result as a user profile.
 *
 * The chosen profile and its overrides live in app->profile, kept by
 * tui/screens/profile_choice.c; this file draws and handles keys. Overrides reach
 * every job through an edited copy of the profile, because fio's
 * command-line options are only defaults under a job file; a saved user
 * profile is the same job file: the original text with the lines the
 * overrides replace commented out, the overrides in a leading [global]
 * section, and a comment block naming them (core/profile_edit.h).
 *
 * Only app->profile leaves this screen; it never starts a run itself ('r'
 * switches to the Run screen).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_choice.h"
#include "profile_edit.h"
#include "profile_set.h"
#include "tui.h"
#include "widgets.h"

#define MAX_LINES 256

enum focus { FOCUS_LIST, FOCUS_KNOBS, FOCUS_CMD, FOCUS_COUNT };
enum prompt { PROMPT_NONE, PROMPT_EDIT, PROMPT_SAVE };

struct profiles_state {
	struct profile_set set;
	bool loaded;
	int sel, top;			/* the list's cursor and first row */
	enum focus focus;
	int knob;			/* the knob pane's cursor */
	int cmd_top;
	const char *cmd_shown;		/* the command line cmd_top belongs to */
	enum prompt prompt;
	char input[128];
	char error[768];		/* the last refusal, until the next key */
	struct profile_choice choice;	/* the chosen profile (app->profile) */
	/* where the panes were drawn, for mouse clicks */
	struct rect list_r, knob_r;
};

/* Lists and parses the profiles again, keeping the cursor on the same name. */
static void reload(struct app *app, struct profiles_state *st)
{
	struct cmd_opt opts[4];
	size_t n = profile_choice_run_opts(app, opts);
	char keep[128] = "";
	int i;

	if (st->loaded && st->sel >= 0 && (size_t)st->sel < st->set.nr)
		snprintf(keep, sizeof(keep), "%s", st->set.p[st->sel].name);
	else
		snprintf(keep, sizeof(keep), "%s", app->profile.name[0] ? app->profile.name : "default");
	profile_set_release(&st->set);
	if (profile_set_load(&st->set, opts, n))
		snprintf(st->error, sizeof(st->error), "out of memory listing the profiles");
	st->loaded = true;
	i = profile_set_find(&st->set, keep);
	st->sel = i >= 0 ? i : 0;
}

static void save(struct app *app, struct profiles_state *st, const char *name)
{
	int i;

	if (profile_choice_save(&st->choice, app, &st->set, name, st->error, sizeof(st->error)))
		return;
	st->prompt = PROMPT_NONE;
	reload(app, st);
	i = profile_set_find(&st->set, name);
	if (i >= 0) {
		st->sel = i;
		profile_choice_choose(&st->choice, app, &st->set, &st->set.p[i]);
	}
	app_message(app, "Saved as %s in %s, and chosen", name,
		    getenv("XDG_CONFIG_HOME") && *getenv("XDG_CONFIG_HOME")
			    ? "$XDG_CONFIG_HOME/raidbench/profiles" : "~/.config/raidbench/profiles");
}

/* ---- drawing --------------------------------------------------------------- */

struct layout {
	struct rect list, info, knobs, cmd;
	int status_y;
};

static void layout(const struct rect *r, struct layout *l)
{
	int bottom = r->h / 3 > KNOB_COUNT + 2 ? r->h / 3 : KNOB_COUNT + 2;
	int top = r->h - bottom - 1;
	int list_w = r->w >= 120 ? 34 : 26;
	int knob_w = r->w >= 120 ? 54 : 38;

	l->list = (struct rect){ r->y, r->x, top, list_w };
	l->info = (struct rect){ r->y, r->x + list_w, top, r->w - list_w };
	l->knobs = (struct rect){ r->y + top, r->x, bottom, knob_w };
	l->cmd = (struct rect){ r->y + top, r->x + knob_w, bottom, r->w - knob_w };
	l->status_y = r->y + r->h - 1;
}

static void pane_box(struct app *app, struct profiles_state *st, const struct rect *r,
		     enum focus f, const char *title)
{
	char t[256];

	snprintf(t, sizeof(t), "%s%s%s", st->focus == f ? app->theme->g->arrow : "",
		 st->focus == f ? " " : "", title);
	w_box(app->theme, r, t);
}

static bool is_chosen(const struct profiles_state *st, const struct profile_info *p)
{
	return !strcmp(p->name, st->choice.base_name);
}

static void draw_list(struct app *app, struct profiles_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	struct rect in = w_inner(r);
	int i, y;

	pane_box(app, st, r, FOCUS_LIST, "Profiles");
	st->list_r = in;
	if (!st->set.nr) {
		char dir[PATH_MAX];

		profile_builtin_dir(dir, sizeof(dir));
		w_text(in.y, in.x, in.w, theme_attr(t, EL_ERROR), false, "No profiles found.");
		w_text(in.y + 1, in.x, in.w, A_NORMAL, false, "Looked in %s", dir);
		return;
	}
	if (st->sel < st->top)
		st->top = st->sel;
	if (in.h > 0 && st->sel >= st->top + in.h)
		st->top = st->sel - in.h + 1;
	for (i = st->top, y = in.y; (size_t)i < st->set.nr && y < in.y + in.h; i++, y++) {
		const struct profile_info *p = &st->set.p[i];
		bool cur = i == st->sel;
		attr_t a = cur ? (st->focus == FOCUS_LIST ? theme_attr(t, EL_SELECTED) : A_REVERSE)
			       : p->error[0] ? theme_attr(t, EL_ERROR) : A_NORMAL;

		w_text(y, in.x, in.w, a, true, "%s %-*s%s",
		       is_chosen(st, p) ? t->g->bullet : " ", in.w - 8, p->name,
		       p->error[0] ? " error" : p->user ? " user" : "");
	}
}

static void draw_jobs(struct app *app, const struct profile_info *p, int y, const struct rect *in)
{
	const struct theme *t = app->theme;
	bool wide = in->w >= 90;
	int last = in->y + in->h;
	bool two_lines = !wide && (int)(2 * p->nr_jobs) <= last - y - 1;
	size_t i;

	w_text(y++, in->x, in->w, theme_attr(t, EL_TITLE), true,
	       "%-2s %-20s %-9s %-8s %9s%s", "ph", "job", "pattern", "bs", "QD x jobs",
	       wide ? "  description" : "");
	for (i = 0; i < p->nr_jobs && y < last; i++) {
		const struct profile_job *j = &p->jobs[i];
		bool first = !i || j->groupid != p->jobs[i - 1].groupid;
		char ph[16] = "", qd[32];
		int pad;

		if (first)
			snprintf(ph, sizeof(ph), "%d", j->groupid + 1);
		/* the depth that runs (a synchronous engine ignores iodepth), times the clones */
		snprintf(qd, sizeof(qd), "%u%s%u", j->depth, t->g->times, j->numjobs);
		pad = 9 - w_width(qd);
		w_text(y++, in->x, in->w, A_NORMAL, false, "%-2s %-20.20s %-9s %-8s %*s%s%s%s", ph,
		       j->name, j->rw, j->bs, pad > 0 ? pad : 0, "", qd, wide ? "  " : "",
		       wide ? j->desc : "");
		if (two_lines && j->desc[0] && y < last)
			w_text(y++, in->x + 3, in->w - 3, theme_attr(t, EL_DIM), false, "%s", j->desc);
	}
	if (i < p->nr_jobs && last - 1 >= in->y)
		w_text(last - 1, in->x, in->w, theme_attr(t, EL_DIM), true, "... %zu more jobs",
		       p->nr_jobs - i + 1);
}

/* Text wrapped at spaces into lines of at most w columns (ASCII). */
static int wrap(const char *s, int w, const char **start, int *len, int max)
{
	int n = 0;

	while (*s && n < max && w > 0) {
		int l = (int)strlen(s), cut = l;

		if (l > w) {
			for (cut = w; cut > 0 && s[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = w;
		}
		start[n] = s;
		len[n++] = cut;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return n;
}

static void draw_info(struct app *app, struct profiles_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	struct rect in = w_inner(r);
	const struct profile_info *p;
	bool chosen, edited;
	char title[256];
	int y = in.y;

	if (!st->set.nr) {
		w_box(t, r, "");
		return;
	}
	p = &st->set.p[st->sel];
	chosen = is_chosen(st, p);
	edited = chosen && app->profile.nr_overrides && !st->choice.error[0];
	snprintf(title, sizeof(title), "%s (%s%s)", p->name, p->user ? "user" : "built-in",
		 edited ? ", edited" : "");
	w_box(t, r, title);
	w_text(y++, in.x, in.w, A_BOLD, false, "%s",
	       p->summary[0] ? p->summary : p->nr_jobs ? p->jobs[0].desc : "");
	if (p->error[0]) {
		const char *s[8];
		int l[8], n = wrap(p->error, in.w, s, l, 8), i;

		w_text(y++, in.x, in.w, theme_attr(t, EL_ERROR), false, "It does not parse:");
		for (i = 0; i < n && y < in.y + in.h; i++)
			w_text(y++, in.x, in.w, theme_attr(t, EL_ERROR), false, "%.*s", l[i], s[i]);
		return;
	}
	w_text(y++, in.x, in.w, theme_attr(t, EL_DIM), false, "%zu phase%s, %zu job%s%s",
	       p->nr_phases, p->nr_phases == 1 ? "" : "s", p->nr_jobs, p->nr_jobs == 1 ? "" : "s",
	       chosen ? (edited ? "; chosen, with your knobs below" : "; chosen for the run")
		      : "; Enter chooses it");
	draw_jobs(app, edited ? &st->choice.eff : p, y, &in);
}

static void draw_knobs(struct app *app, struct profiles_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	struct rect in = w_inner(r);
	char title[200];
	int k;

	snprintf(title, sizeof(title), "Knobs: %s%s", st->choice.base_name,
		 st->choice.implicit ? " (none chosen)" : "");
	pane_box(app, st, r, FOCUS_KNOBS, title);
	st->knob_r = in;
	for (k = 0; k < KNOB_COUNT && k < in.h; k++) {
		const char *ov = profile_choice_override(app, profile_knobs[k].key);
		bool cur = k == st->knob && st->focus == FOCUS_KNOBS;
		int vx = in.x + 13, vw = in.w - 13;
		char vals[256];

		w_text(in.y + k, in.x, in.w, cur ? theme_attr(t, EL_SELECTED) : A_NORMAL, true,
		       "%-12s", profile_knobs[k].label);
		if (cur && st->prompt == PROMPT_EDIT) {
			w_text(in.y + k, vx, vw, A_BOLD | A_UNDERLINE, true, "%s_", st->input);
			continue;
		}
		if (ov) {
			w_text(in.y + k, vx, vw, (cur ? theme_attr(t, EL_SELECTED) : 0) | A_BOLD, true,
			       "%s  (yours)", ov);
			continue;
		}
		profile_choice_knob_values(&st->choice, k, vals, sizeof(vals));
		w_text(in.y + k, vx, vw, cur ? theme_attr(t, EL_SELECTED) : theme_attr(t, EL_DIM),
		       true, "%s", st->choice.error[0] ? "?" : vals);
	}
}

static void draw_cmd(struct app *app, struct profiles_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	struct rect in = w_inner(r);
	const char *start[MAX_LINES];
	int len[MAX_LINES], n, i;
	char title[128];
	/* a refusal is shown here in full: the status line may cut it */
	const struct profile_choice *c = &st->choice;
	bool bad = st->error[0] || c->error[0];
	const char *text = st->error[0] ? st->error : c->error[0] ? c->error :
			   c->cmdline ? c->cmdline : "";

	if (c->cmdline != st->cmd_shown) {
		st->cmd_shown = c->cmdline;	/* another command line: from its top */
		st->cmd_top = 0;
	}

	n = wrap(text, in.w, start, len, MAX_LINES);
	if (st->error[0])
		st->cmd_top = 0;
	if (st->cmd_top > n - in.h)
		st->cmd_top = n - in.h > 0 ? n - in.h : 0;
	if (n > in.h)
		snprintf(title, sizeof(title), "fio command line (%d-%d of %d lines)", st->cmd_top + 1,
			 st->cmd_top + in.h, n);
	else
		snprintf(title, sizeof(title), "fio command line");
	pane_box(app, st, r, FOCUS_CMD, st->error[0] ? "Refused" : c->error[0] ?
		 "The chosen profile does not parse" : title);
	for (i = 0; i < in.h && st->cmd_top + i < n; i++)
		w_text(in.y + i, in.x, in.w, bad ? theme_attr(t, EL_ERROR) : A_NORMAL, false, "%.*s",
		       len[st->cmd_top + i], start[st->cmd_top + i]);
}

static void draw_status(struct app *app, struct profiles_state *st, int y, int w)
{
	const struct theme *t = app->theme;
	static const char *const hints[FOCUS_COUNT] = {
		"Enter chooses  Tab: knobs  s saves as a user profile  r or F5: Run screen",
		"Enter edits  x restores the profile's own value  Tab: command line",
		"Up/Down scroll  Tab: profiles  s saves as a user profile  r or F5: Run screen",
	};

	/* the Refused box shows the whole message; the line says what to do */
	if (st->error[0] && st->prompt != PROMPT_NONE)
		w_text(y, 0, w, theme_attr(t, EL_ERROR), true,
		       " Refused (see the box): change the %s and press Enter, or Esc cancels",
		       st->prompt == PROMPT_SAVE ? "name" : "value");
	else if (st->error[0])
		w_text(y, 0, w, theme_attr(t, EL_ERROR), true, " %s", st->error);
	else if (st->prompt == PROMPT_EDIT)
		w_text(y, 0, w, theme_attr(t, EL_MESSAGE), true,
		       " %s (%s), e.g. %s. Enter sets it, empty restores, Esc cancels",
		       profile_knobs[st->knob].label, profile_knobs[st->knob].key,
		       profile_knobs[st->knob].example);
	else if (st->prompt == PROMPT_SAVE)
		w_text(y, 0, w, theme_attr(t, EL_MESSAGE), true,
		       " Save as user profile named: %s_   (Enter saves, Esc cancels)", st->input);
	else
		w_text(y, 0, w, theme_attr(t, EL_DIM), false, " %s", hints[st->focus]);
}

static void profiles_draw(struct app *app, void *p, const struct rect *r)
{
	struct profiles_state *st = p;
	struct layout l;

	if (!st->loaded) {
		reload(app, st);
		profile_choice_sync(&st->choice, app, &st->set, true);
	}
	profile_choice_sync(&st->choice, app, &st->set, false);
	layout(r, &l);
	draw_list(app, st, &l.list);
	draw_info(app, st, &l.info);
	draw_knobs(app, st, &l.knobs);
	draw_cmd(app, st, &l.cmd);
	draw_status(app, st, l.status_y, r->w);
}

/* ---- keys ------------------------------------------------------------------ */

static int prompt_key(struct app *app, struct profiles_state *st, int ch)
{
	switch (ch) {
	case 27:
		st->prompt = PROMPT_NONE;
		st->error[0] = '\0';
		return EV_HANDLED;
	case '\n':
	case '\r':
	case KEY_ENTER:
		st->error[0] = '\0';
		if (st->prompt == PROMPT_SAVE) {
			save(app, st, st->input);
			return EV_HANDLED;
		}
		if (st->input[0] && !profile_value_ok(st->input)) {
			snprintf(st->error, sizeof(st->error),
				 "%s not set: '%s' is not a value (no spaces, ';', '#', '=' or '[')",
				 profile_knobs[st->knob].label, st->input);
			return EV_HANDLED;
		}
		if (!profile_choice_set_knob(&st->choice, app, st->knob, st->input, st->error,
					     sizeof(st->error)))
			st->prompt = PROMPT_NONE;
		return EV_HANDLED;
	default:
		if (ch != KEY_BACKSPACE && ch != 127 && ch != 8)
			st->error[0] = '\0';
		w_edit_key(st->input, sizeof(st->input), ch);
		return EV_HANDLED;
	}
}

static void move_sel(int *sel, int n, int delta)
{
	*sel += delta;
	if (*sel >= n)
		*sel = n - 1;
	if (*sel < 0)
		*sel = 0;
}

static int list_key(struct app *app, struct profiles_state *st, int ch)
{
	int n = (int)st->set.nr, page = st->list_r.h > 1 ? st->list_r.h - 1 : 1;

	switch (ch) {
	case KEY_UP:
	case 'k':
		move_sel(&st->sel, n, -1);
		return EV_HANDLED;
	case KEY_DOWN:
	case 'j':
		move_sel(&st->sel, n, 1);
		return EV_HANDLED;
	case KEY_PPAGE:
		move_sel(&st->sel, n, -page);
		return EV_HANDLED;
	case KEY_NPAGE:
		move_sel(&st->sel, n, page);
		return EV_HANDLED;
	case KEY_HOME:
		st->sel = 0;
		return EV_HANDLED;
	case KEY_END:
		move_sel(&st->sel, n, n);
		return EV_HANDLED;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (!n)
			return EV_HANDLED;
		if (st->set.p[st->sel].error[0]) {
			snprintf(st->error, sizeof(st->error), "%s cannot be chosen: %s",
				 st->set.p[st->sel].name, st->set.p[st->sel].error);
			return EV_HANDLED;
		}
		profile_choice_choose(&st->choice, app, &st->set, &st->set.p[st->sel]);
		app_message(app, "Profile %s chosen: r or F5 goes to Run; Tab edits its knobs",
			    st->set.p[st->sel].name);
		return EV_HANDLED;
	default:
		return EV_NONE;
	}
}

static int knobs_key(struct app *app, struct profiles_state *st, int ch)
{
	const char *ov;

	switch (ch) {
	case KEY_UP:
	case 'k':
		move_sel(&st->knob, KNOB_COUNT, -1);
		return EV_HANDLED;
	case KEY_DOWN:
	case 'j':
		move_sel(&st->knob, KNOB_COUNT, 1);
		return EV_HANDLED;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 'e':
		ov = profile_choice_override(app, profile_knobs[st->knob].key);
		snprintf(st->input, sizeof(st->input), "%s", ov ? ov : "");
		st->prompt = PROMPT_EDIT;
		return EV_HANDLED;
	case 'x':
	case KEY_DC:
		if (profile_choice_override(app, profile_knobs[st->knob].key))
			profile_choice_set_knob(&st->choice, app, st->knob, "", st->error,
						sizeof(st->error));
		return EV_HANDLED;
	default:
		return EV_NONE;
	}
}

static int cmd_key(struct profiles_state *st, int ch)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (st->cmd_top > 0)
			st->cmd_top--;
		return EV_HANDLED;
	case KEY_DOWN:
	case 'j':
		st->cmd_top++;	/* draw clamps */
		return EV_HANDLED;
	case KEY_PPAGE:
		st->cmd_top = st->cmd_top > 5 ? st->cmd_top - 5 : 0;
		return EV_HANDLED;
	case KEY_NPAGE:
		st->cmd_top += 5;
		return EV_HANDLED;
	default:
		return EV_NONE;
	}
}

static int profiles_key(struct app *app, void *p, int ch)
{
	struct profiles_state *st = p;

	if (!st->loaded)
		return EV_NONE;
	if (st->prompt != PROMPT_NONE)
		return prompt_key(app, st, ch);
	st->error[0] = '\0';
	switch (ch) {
	case '\t':
		st->focus = (enum focus)((st->focus + 1) % FOCUS_COUNT);
		return EV_HANDLED;
	case KEY_BTAB:
		st->focus = (enum focus)((st->focus + FOCUS_COUNT - 1) % FOCUS_COUNT);
		return EV_HANDLED;
	case 'r':
	case 'R':
		app_switch(app, SCR_RUN);
		return EV_HANDLED;
	case 's':
	case 'S':
		st->input[0] = '\0';
		st->prompt = PROMPT_SAVE;
		return EV_HANDLED;
	case 'e':
		if (st->focus != FOCUS_KNOBS) {
			st->focus = FOCUS_KNOBS;
			return EV_HANDLED;
		}
		break;
	default:
		break;
	}
	if (st->focus == FOCUS_LIST)
		return list_key(app, st, ch);
	if (st->focus == FOCUS_KNOBS)
		return knobs_key(app, st, ch);
	return cmd_key(st, ch);
}

static int profiles_click(struct app *app, void *p, int y, int x)
{
	struct profiles_state *st = p;
	const struct rect *l = &st->list_r, *k = &st->knob_r;

	(void)app;
	if (st->prompt != PROMPT_NONE)
		return EV_NONE;
	if (y >= l->y && y < l->y + l->h && x >= l->x && x < l->x + l->w &&
	    st->top + (y - l->y) < (int)st->set.nr) {
		st->focus = FOCUS_LIST;
		st->sel = st->top + (y - l->y);
		return EV_HANDLED;
	}
	if (y >= k->y && y < k->y + k->h && y - k->y < KNOB_COUNT && x >= k->x && x < k->x + k->w) {
		st->focus = FOCUS_KNOBS;
		st->knob = y - k->y;
		return EV_HANDLED;
	}
	return EV_NONE;
}

static void profiles_enter(struct app *app, void *p)
{
	struct profiles_state *st = p;

	/* profiles may have been saved, the target changed: read everything again */
	reload(app, st);
	profile_choice_sync(&st->choice, app, &st->set, true);
}

static void *profiles_init(struct app *app)
{
	(void)app;
	return calloc(1, sizeof(struct profiles_state));
}

static void profiles_release(void *p)
{
	struct profiles_state *st = p;

	profile_set_release(&st->set);
	profile_choice_release(&st->choice);
	free(st);
}

static const struct key_hint profiles_hints[] = {
	{ "Enter", "Use" }, { "s", "Save" }, { "r", "Run" }, { NULL, NULL },
};

const struct screen_ops scr_profiles_ops = {
	.title = "Profiles",
	.init = profiles_init,
	.release = profiles_release,
	.enter = profiles_enter,
	.draw = profiles_draw,
	.key = profiles_key,
	.click = profiles_click,
	.hints = profiles_hints,
};
