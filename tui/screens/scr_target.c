/*
 * scr_target.c - the Target screen (F4): what the next run reads and
 * writes. The scratch file (the default, touches no disk), each block
 * device of the inventory with the write guard's verdict and reason, or a
 * path typed by hand.
 *
 * Consent is the device name typed to confirm, nothing else: only an exact
 * match sets app->target.consented, and it is never offered for a device
 * the guard marks GUARD_NEVER (mounted, swap, the root device). This screen
 * only records the choice; the engine's guard (core/guard.h) checks again
 * when it opens the target for writing, so nothing here can bypass it.
 *
 * The guard runs when the screen is entered, not every frame. Devices of an
 * imported or recorded inventory are not this machine's: they are listed
 * with what the inventory says and cannot be chosen.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tui.h"
#include "widgets.h"

struct tgt_dev {
	char name[64];
	char path[256];
	char model[96];
	int64_t size;
	enum guard_verdict verdict;
	char reasons[2048];	/* one reason a line */
};

enum tgt_mode {
	MODE_LIST,
	MODE_PATH,		/* typing a path */
	MODE_CONSENT,		/* typing the device name to confirm */
};

struct target_state {
	struct tgt_dev *devs;
	size_t nr;
	bool live;		/* the inventory is this machine's */
	int sel, top;
	enum tgt_mode mode;
	char input[PATH_MAX];
	char error[256];	/* under the prompt: why the input was not taken */
	struct tgt_dev pending;	/* the device waiting for consent */
	int list_y, list_h;
};

static void *target_init(struct app *app)
{
	(void)app;
	return calloc(1, sizeof(struct target_state));
}

static void target_release(void *p)
{
	struct target_state *st = p;

	free(st->devs);
	free(st);
}

/* Rows: the scratch file, the devices, "Enter a file path...". */
static int nr_rows(const struct target_state *st)
{
	return (int)st->nr + 2;
}

/* Where the scratch file is (or will be): $XDG_CACHE_HOME/raidbench/scratch.dat. */
static void scratch_path(const struct app *app, char *buf, size_t len)
{
	if (app->target.scratch[0])
		snprintf(buf, len, "%s", app->target.scratch);
	else if (scratch_file(buf, len, false, NULL, 0))
		snprintf(buf, len, "(no place for it: set XDG_CACHE_HOME)");
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The guard's verdict for a device of this machine. */
static void examine(struct tgt_dev *d)
{
	struct guard_report rep;
	int rc = guard_examine(d->path, &rep);

	d->verdict = rep.verdict;
	snprintf(d->reasons, sizeof(d->reasons), "%s", rep.reasons);
	if (rc < 0 && (d->verdict == GUARD_OK || !d->reasons[0])) {
		/* what cannot be examined is treated as unsafe */
		d->verdict = GUARD_NEVER;
		snprintf(d->reasons, sizeof(d->reasons), "%s cannot be examined (%s)", d->path,
			 strerror(-rc));
	}
}

/* A recorded inventory's words, in the guard's terms. */
static void from_inventory(struct tgt_dev *d, const struct inv_blockdev *b)
{
	if (b->write_safe)
		d->verdict = GUARD_OK;
	else if (b->nr_mounts || b->swap)
		d->verdict = GUARD_NEVER;
	else
		d->verdict = GUARD_NEEDS_CONSENT;
	snprintf(d->reasons, sizeof(d->reasons), "%s",
		 b->why_not_write_safe ? b->why_not_write_safe : "");
}

static void load_devices(struct app *app, struct target_state *st)
{
	size_t i, n = app->have_inv ? app->inv.nr_blockdevs : 0;

	free(st->devs);
	st->devs = n ? calloc(n, sizeof(*st->devs)) : NULL;
	st->nr = st->devs ? n : 0;
	st->live = !app->nr_imports && !app->sysfs_root;
	for (i = 0; i < st->nr; i++) {
		const struct inv_blockdev *b = &app->inv.blockdevs[i];
		struct tgt_dev *d = &st->devs[i];

		snprintf(d->name, sizeof(d->name), "%s", b->name ? b->name : "?");
		snprintf(d->path, sizeof(d->path), "%s", b->path ? b->path : "");
		snprintf(d->model, sizeof(d->model), "%s", b->model ? b->model : "");
		d->size = b->size_bytes;
		if (st->live && d->path[0])
			examine(d);
		else
			from_inventory(d, b);
	}
}

static void target_enter(struct app *app, void *p)
{
	struct target_state *st = p;
	size_t i;

	load_devices(app, st);
	st->mode = MODE_LIST;
	st->error[0] = '\0';
	st->sel = 0;
	if (app->target.path[0]) {
		st->sel = nr_rows(st) - 1;
		for (i = 0; i < st->nr; i++)
			if (!strcmp(st->devs[i].path, app->target.path))
				st->sel = (int)i + 1;
	}
}

/* The first reason line, for the list. */
static void first_reason(const char *reasons, char *buf, size_t len)
{
	const char *nl = strchr(reasons, '\n');

	snprintf(buf, len, "%.*s", nl ? (int)(nl - reasons) : (int)strlen(reasons), reasons);
}

/* "has an ext4 file system" for the row of /dev/loop3: the row names the device already. */
static const char *without_subject(const char *reason, const char *path)
{
	size_t n = strlen(path);

	if (n && !strncmp(reason, path, n) && reason[n] == ' ')
		return reason + n + 1;
	return reason;
}

static void safety_words(const struct tgt_dev *d, char *buf, size_t len, enum theme_el *el)
{
	char first[256];
	const char *why;

	first_reason(d->reasons, first, sizeof(first));
	why = without_subject(first, d->path);
	switch (d->verdict) {
	case GUARD_OK:
		snprintf(buf, len, "writable");
		*el = EL_SAFE;
		break;
	case GUARD_NEEDS_CONSENT:
		snprintf(buf, len, "holds data: %s", why[0] ? why : "reason not given");
		*el = EL_STATUS_WARN;
		break;
	default:
		snprintf(buf, len, "never written: %s", why[0] ? why : "reason not given");
		*el = EL_UNSAFE;
		break;
	}
}

static const struct tgt_dev *find_dev(const struct target_state *st, const char *path)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		if (!strcmp(st->devs[i].path, path))
			return &st->devs[i];
	return NULL;
}

/* The line under the title: what the run will use and what it may do there. */
static void draw_chosen(struct app *app, struct target_state *st, int y, int x, int w)
{
	const struct theme *t = app->theme;
	const struct tgt_dev *d;
	char scratch[PATH_MAX], why[256];
	struct stat sb;

	if (!app->target.path[0]) {
		scratch_path(app, scratch, sizeof(scratch));
		w_text(y, x, w, A_BOLD, false, "Target: the scratch file");
		w_text(y + 1, x + 8, w - 8, theme_attr(t, EL_SAFE), false,
		       "touches no disk; write tests fill %s", scratch);
		return;
	}
	w_text(y, x, w, A_BOLD, false, "Target: %s", app->target.path);
	if (!app->target.is_device) {
		w_text(y + 1, x + 8, w - 8, theme_attr(t, EL_DEFAULT), false, "%s",
		       stat(app->target.path, &sb) == 0 ? "a file that exists: write tests overwrite it"
							: "a file: write tests create it");
		return;
	}
	d = find_dev(st, app->target.path);
	if (!d && st->pending.path[0] && !strcmp(st->pending.path, app->target.path))
		d = &st->pending;
	if (!d) {
		w_text(y + 1, x + 8, w - 8, theme_attr(t, EL_DIM), false,
		       "a device not in the inventory: the guard decides when the run starts");
		return;
	}
	first_reason(d->reasons, why, sizeof(why));
	if (d->verdict == GUARD_OK)
		w_text(y + 1, x + 8, w - 8, theme_attr(t, EL_SAFE), false,
		       "writable: nothing on it to lose");
	else if (d->verdict == GUARD_NEVER)
		w_text(y + 1, x + 8, w - 8, theme_attr(t, EL_UNSAFE), false,
		       "read tests only: never written (%s)", why);
	else if (app->target.consented)
		w_text(y + 1, x + 8, w - 8, theme_attr(t, EL_STATUS_WARN), false,
		       "write tests allowed: you typed its name; its data will be destroyed");
	else
		w_text(y + 1, x + 8, w - 8, theme_attr(t, EL_STATUS_WARN), false,
		       "read tests only until you consent (Enter on it and type its name)");
}

static void draw_row(struct app *app, struct target_state *st, int i, int y, int x, int w)
{
	const struct theme *t = app->theme;
	bool sel = i == st->sel;
	attr_t base = sel ? theme_attr(t, EL_SELECTED) : A_NORMAL;
	const char *mark = " ";
	char buf[PATH_MAX + 64];

	w_text(y, x, w, base, true, " ");
	if (i == 0) {
		if (!app->target.path[0])
			mark = t->g->bullet;
		scratch_path(app, buf, sizeof(buf));
		w_text(y, x + 1, 2, base, false, "%s", mark);
		w_text(y, x + 3, w - 3, base, false, "Scratch file (default, touches no disk): %s", buf);
		return;
	}
	if (i == nr_rows(st) - 1) {
		if (app->target.path[0] && !app->target.is_device)
			mark = t->g->bullet;
		w_text(y, x + 1, 2, base, false, "%s", mark);
		if (app->target.path[0] && !app->target.is_device)
			w_text(y, x + 3, w - 3, base, false, "Enter a file path... (now %s)",
			       app->target.path);
		else
			w_text(y, x + 3, w - 3, base, false, "Enter a file path...");
		return;
	}
	{
		const struct tgt_dev *d = &st->devs[i - 1];
		enum theme_el el;
		char size[32] = "";
		int mw = w >= 120 ? 32 : 16;

		if (app->target.path[0] && !strcmp(app->target.path, d->path))
			mark = t->g->bullet;
		if (d->size >= 0)
			fmt_size(size, sizeof(size), (double)d->size);
		safety_words(d, buf, sizeof(buf), &el);
		w_text(y, x + 1, 2, base, false, "%s", mark);
		w_text(y, x + 3, 12, base, false, "%s", d->name);
		w_text(y, x + 15, 10, base, false, "%9s", size);
		w_text(y, x + 26, mw, base, false, "%s", d->model[0] ? d->model : "-");
		w_text(y, x + 27 + mw, w - 27 - mw, sel ? base : theme_attr(t, el), false, "%s", buf);
	}
}

/* The highlighted device's every reason, under the list. */
static int draw_reasons(struct app *app, struct target_state *st, int y, int x, int w, int h)
{
	const struct tgt_dev *d;
	const char *s;
	int n = 0;

	if (st->sel < 1 || st->sel > (int)st->nr)
		return 0;
	d = &st->devs[st->sel - 1];
	if (d->verdict == GUARD_OK || !d->reasons[0])
		return 0;
	w_text(y + n++, x, w, theme_attr(app->theme, EL_TITLE), false, "%s: %s", d->path,
	       d->verdict == GUARD_NEVER ? "never written (reads are allowed)"
					 : "writing destroys what it holds");
	for (s = d->reasons; *s && n < h;) {
		const char *nl = strchr(s, '\n');
		int len = nl ? (int)(nl - s) : (int)strlen(s);

		w_text(y + n++, x + 2, w - 2, A_NORMAL, false, "- %.*s", len, s);
		s = nl ? nl + 1 : s + len;
	}
	return n;
}

/* Rows the prompt takes at the bottom. */
static int prompt_rows(const struct target_state *st)
{
	if (st->mode == MODE_LIST)
		return 0;
	return (st->mode == MODE_CONSENT ? 3 : 2) + (st->error[0] ? 1 : 0);
}

static void draw_prompt(struct app *app, struct target_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	int y = r->y + r->h - prompt_rows(st);

	if (st->mode == MODE_PATH) {
		w_text(y++, r->x, r->w, theme_attr(t, EL_MESSAGE), true,
		       " Path of a file (or device) to test; Enter takes it, Esc cancels:");
	} else {
		w_text(y++, r->x, r->w, theme_attr(t, EL_MESSAGE), true,
		       " A write test destroys everything %s holds.", st->pending.path);
		w_text(y++, r->x, r->w, theme_attr(t, EL_MESSAGE), true,
		       " Type %s (or %s) and Enter to allow it; Esc keeps it for reads only:",
		       st->pending.name, st->pending.path);
	}
	w_text(y, r->x, r->w, A_BOLD, true, " > %s_", st->input);
	if (st->error[0])
		w_text(y + 1, r->x, r->w, theme_attr(t, EL_ERROR), true, " %s", st->error);
}

static void target_draw(struct app *app, void *p, const struct rect *r)
{
	struct target_state *st = p;
	const struct theme *t = app->theme;
	int y = r->y, bottom = r->y + r->h, i, mw = r->w >= 120 ? 32 : 16;

	bottom -= prompt_rows(st);
	draw_chosen(app, st, y, r->x + 1, r->w - 2);
	y += 3;
	if (!st->live && st->nr) {
		w_text(y++, r->x + 1, r->w - 2, theme_attr(t, EL_DIM), false,
		       "Imported or recorded devices, not this machine's: listed, not choosable.");
	}
	w_text(y, r->x, r->w, theme_attr(t, EL_TITLE), true, "   Target");
	w_text(y, r->x + 15, 10, theme_attr(t, EL_TITLE), false, "%9s", "Size");
	w_text(y, r->x + 26, mw, theme_attr(t, EL_TITLE), false, "Model");
	w_text(y, r->x + 27 + mw, r->w - 27 - mw, theme_attr(t, EL_TITLE), false, "Write safety");
	y++;
	st->list_y = y;
	st->list_h = bottom - y - 5;
	if (st->list_h < 3)
		st->list_h = bottom - y;
	if (st->sel < st->top)
		st->top = st->sel;
	if (st->sel >= st->top + st->list_h)
		st->top = st->sel - st->list_h + 1;
	for (i = st->top; i < nr_rows(st) && y < st->list_y + st->list_h; i++, y++)
		draw_row(app, st, i, y, r->x, r->w);
	if (!st->nr && y < bottom - 2)
		w_text(++y, r->x + 3, r->w - 4, theme_attr(t, EL_DIM), false, "%s",
		       !app->have_inv ? "No block devices: the inventory could not be read (F2 Devices says why)."
				      : "No block devices in the inventory (F2 Devices, r rescans).");
	if (y < bottom - 1)
		draw_reasons(app, st, y + 1, r->x + 1, r->w - 2, bottom - y - 1);
	if (st->mode != MODE_LIST)
		draw_prompt(app, st, r);
}

/* ---- choosing ----------------------------------------------------------- */

static void set_target(struct app *app, const char *path, bool is_device, bool consented)
{
	snprintf(app->target.path, sizeof(app->target.path), "%s", path);
	app->target.is_device = is_device;
	app->target.consented = consented;
}

/* A device picked from the list or typed: the verdict decides what happens. */
static void choose_device(struct app *app, struct target_state *st, const struct tgt_dev *d)
{
	char why[256];

	first_reason(d->reasons, why, sizeof(why));
	set_target(app, d->path, true, false);
	switch (d->verdict) {
	case GUARD_OK:
		break;
	case GUARD_NEVER:
		/* consent never applies here: the engine's guard refuses writes whatever is typed */
		app_message(app, "Read tests only on %s: it is never written (%s)", d->path, why);
		break;
	default:
		st->pending = *d;
		st->mode = MODE_CONSENT;
		st->input[0] = '\0';
		st->error[0] = '\0';
		break;
	}
}

static void choose_row(struct app *app, struct target_state *st)
{
	if (st->sel == 0) {
		set_target(app, "", false, false);
		return;
	}
	if (st->sel == nr_rows(st) - 1) {
		st->mode = MODE_PATH;
		st->error[0] = '\0';
		snprintf(st->input, sizeof(st->input), "%s",
			 app->target.path[0] && !app->target.is_device ? app->target.path : "");
		return;
	}
	if (!st->live) {
		app_message(app, "%s is from an imported inventory, not this machine: not a target",
			    st->devs[st->sel - 1].path);
		return;
	}
	choose_device(app, st, &st->devs[st->sel - 1]);
}

/* Takes a typed path: a block device goes through the guard, a file is a file. */
static void take_path(struct app *app, struct target_state *st)
{
	char path[PATH_MAX];
	struct stat sb;
	const char *home = getenv("HOME");

	if (!strncmp(st->input, "~/", 2) && home)
		snprintf(path, sizeof(path), "%s%s", home, st->input + 1);
	else
		snprintf(path, sizeof(path), "%s", st->input);
	if (!path[0]) {
		snprintf(st->error, sizeof(st->error), "Type a path, or Esc to cancel");
		return;
	}
	if (stat(path, &sb) == 0 && S_ISBLK(sb.st_mode)) {
		struct tgt_dev d;
		char real[PATH_MAX];

		memset(&d, 0, sizeof(d));
		snprintf(d.path, sizeof(d.path), "%s", path);
		snprintf(d.name, sizeof(d.name), "%s",
			 base_name(realpath(path, real) ? real : path));
		d.size = INV_UNSET;
		examine(&d);
		st->mode = MODE_LIST;
		if (find_dev(st, d.path))
			st->sel = (int)(find_dev(st, d.path) - st->devs) + 1;
		choose_device(app, st, &d);
		if (st->mode == MODE_LIST)
			st->pending = d;	/* the line under the title reads its verdict */
		return;
	}
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(st->error, sizeof(st->error), "%s is a directory: give a file in it", path);
		return;
	}
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		snprintf(st->error, sizeof(st->error), "%s is neither a file nor a block device", path);
		return;
	}
	st->mode = MODE_LIST;
	set_target(app, path, false, false);
}

static void take_consent(struct app *app, struct target_state *st)
{
	char dev_path[96];

	snprintf(dev_path, sizeof(dev_path), "/dev/%s", st->pending.name);
	if (strcmp(st->input, st->pending.name) && strcmp(st->input, st->pending.path) &&
	    strcmp(st->input, dev_path)) {
		snprintf(st->error, sizeof(st->error), "\"%s\" is not %s: no consent given; Esc "
			 "keeps it for read tests only", st->input, st->pending.name);
		st->input[0] = '\0';
		return;
	}
	st->mode = MODE_LIST;
	set_target(app, st->pending.path, true, true);
}

static int input_key(struct app *app, struct target_state *st, int ch)
{
	switch (ch) {
	case 27:
		if (st->mode == MODE_CONSENT)
			app_message(app, "No consent: %s stays the target for read tests only; writes "
				    "are refused", st->pending.path);
		st->mode = MODE_LIST;
		return EV_HANDLED;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (st->mode == MODE_PATH)
			take_path(app, st);
		else
			take_consent(app, st);
		return EV_HANDLED;
	default:
		w_edit_key(st->input, sizeof(st->input), ch);
		/* every other key stays in the prompt: q must not quit mid-typing */
		return EV_HANDLED;
	}
}

static void select_row(struct target_state *st, int i)
{
	if (i < 0)
		i = 0;
	if (i >= nr_rows(st))
		i = nr_rows(st) - 1;
	st->sel = i;
}

static int target_key(struct app *app, void *p, int ch)
{
	struct target_state *st = p;
	int page = st->list_h > 1 ? st->list_h - 1 : 1;

	if (st->mode != MODE_LIST)
		return input_key(app, st, ch);
	{
		int want = st->sel;

		if (w_list_key(ch, &want, page, nr_rows(st))) {
			select_row(st, want);
			return EV_HANDLED;
		}
	}
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		choose_row(app, st);
		break;
	default:
		return EV_NONE;
	}
	return EV_HANDLED;
}

static int target_click(struct app *app, void *p, int y, int x)
{
	struct target_state *st = p;
	int i = st->top + (y - st->list_y);

	(void)x;
	if (st->mode != MODE_LIST || y < st->list_y || y >= st->list_y + st->list_h ||
	    i >= nr_rows(st))
		return EV_NONE;
	/* a click selects; a click on the selected row chooses it */
	if (i == st->sel)
		choose_row(app, st);
	else
		st->sel = i;
	return EV_HANDLED;
}

static const struct key_hint target_hints[] = {
	{ "Enter", "Choose" }, { "Esc", "Back" }, { NULL, NULL },
};

const struct screen_ops scr_target_ops = {
	.title = "Target",
	.init = target_init,
	.release = target_release,
	.enter = target_enter,
	.draw = target_draw,
	.key = target_key,
	.click = target_click,
	.hints = target_hints,
};
