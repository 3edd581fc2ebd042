/*
 * scr_devices.c - the Devices screen (F2): the inventory as a tree
 * (hw/devtree.c) with health colors, a detail pane for the selected item,
 * live read/write IOPS and MB/s per block device, and rescans on 'r' or
 * when the hot-plug monitor sees a block device come or go.
 *
 * It reads only: sampling /sys/block/NAME/stat and rescanning never touch a
 * device. 't' hands a block device to the Target screen, which asks the
 * write guard; nothing here decides whether a device may be written.
 *
 * Live numbers and hot-plug need the live machine: with --import or a
 * recorded /sys, and in screen tests, neither runs, so dumps stay
 * deterministic.
 *
 * The vendor tools answer in the background (tui/screens/app_inv.c): a line under
 * the summary says how each is doing, and 'c' cancels them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "devtree.h"
#include "iostat.h"
#include "monitor.h"
#include "raidprobe.h"
#include "raidtool.h"
#include "tui.h"
#include "widgets.h"
#include "bufcat.h"

#define SAMPLE_NS 1000000000ull		/* live activity: one sample a second */
#define RESCAN_DELAY_NS 300000000ull	/* hot-plug: let a burst of uevents settle */
#define LABEL_W 12			/* detail pane: "Queue depth " */
#define MAX_VLINES 512

/* One wrapped line of the detail pane. */
struct vline {
	enum devtone tone;
	char label[LABEL_W + 1];
	char text[256];
};

struct dev_state {
	struct devtree tree;
	long sel;
	char sel_key[sizeof(((struct devrow *)0)->key)];
	int top;
	bool focus_detail;
	int detail_top;
	/* the detail pane, wrapped for the last width */
	struct vline *vl;
	int nr_vl;
	/* live activity */
	struct iostat *io;
	uint64_t io_last_ns;
	char io_err[160];
	/* hot-plug */
	struct monitor *mon;
	bool mon_tried;
	char mon_err[160];
	uint64_t rescan_due_ns;
	char last_event[96];
	/* geometry of the last frame, for clicks and paging */
	int list_y, list_h, list_x, list_w;
	struct rect detail_r;
};

static bool inv_live(const struct app *app)
{
	return !app->nr_imports && !app->sysfs_root;
}

static void *devices_init(struct app *app)
{
	struct dev_state *st = calloc(1, sizeof(*st));

	(void)app;
	if (!st)
		return NULL;
	devtree_init(&st->tree);
	st->vl = calloc(MAX_VLINES, sizeof(*st->vl));
	if (!st->vl) {
		free(st);
		return NULL;
	}
	return st;
}

static void devices_release(void *p)
{
	struct dev_state *st = p;

	devtree_release(&st->tree);
	iostat_free(st->io);
	if (st->mon)
		monitor_free(st->mon);
	free(st->vl);
	free(st);
}

/* Rows from the current inventory; the selection follows its key. */
static void rebuild(struct app *app, struct dev_state *st)
{
	long i;

	if (devtree_build(&st->tree, app->have_inv ? &app->inv : NULL))
		app_message(app, "Out of memory while listing the devices");
	i = st->sel_key[0] ? devtree_find(&st->tree, st->sel_key) : -1;
	if (i >= 0)
		st->sel = i;
	if (st->sel >= (long)st->tree.nr)
		st->sel = (long)st->tree.nr - 1;
	if (st->sel < 0)
		st->sel = 0;
	if (st->tree.nr)
		snprintf(st->sel_key, sizeof(st->sel_key), "%s", st->tree.rows[st->sel].key);
	else
		st->sel_key[0] = '\0';
}

static const struct devrow *selected(const struct dev_state *st)
{
	return st->tree.nr ? &st->tree.rows[st->sel] : NULL;
}

static void rescan(struct app *app, struct dev_state *st)
{
	app_load_inventory(app);
	rebuild(app, st);
}

/* Hot-plug: drain the monitor; rescan once a burst has settled. */
static void poll_monitor(struct app *app, struct dev_state *st, uint64_t now)
{
	struct monitor_event ev;
	int n;

	if (!st->mon_tried) {
		st->mon_tried = true;
		st->mon = monitor_new(st->mon_err, sizeof(st->mon_err));
	}
	while (st->mon && (n = monitor_read(st->mon, &ev)) != 0) {
		if (n < 0) {
			snprintf(st->mon_err, sizeof(st->mon_err), "the hot-plug monitor stopped");
			monitor_free(st->mon);
			st->mon = NULL;
			break;
		}
		snprintf(st->last_event, sizeof(st->last_event), "%s %s", ev.action_text, ev.name);
		st->rescan_due_ns = now + RESCAN_DELAY_NS;
	}
	if (st->rescan_due_ns && now >= st->rescan_due_ns) {
		st->rescan_due_ns = 0;
		rescan(app, st);
		app_message(app, "Devices changed (%s): rescanned", st->last_event);
	}
}

static void sample_io(struct dev_state *st, uint64_t now)
{
	if (!st->io && !st->io_err[0]) {
		st->io = iostat_new(NULL);
		if (!st->io)
			snprintf(st->io_err, sizeof(st->io_err), "out of memory");
	}
	if (!st->io || (st->io_last_ns && now - st->io_last_ns < SAMPLE_NS))
		return;
	st->io_last_ns = now;
	if (iostat_sample(st->io, now, st->io_err, sizeof(st->io_err))) {
		iostat_free(st->io);
		st->io = NULL;
	}
}

/* The live rates of b, or NULL until two samples exist. */
static const struct iostat_dev *io_of(const struct dev_state *st, const struct inv_blockdev *b)
{
	const struct iostat_dev *d;

	if (!st->io || !b || !b->name)
		return NULL;
	d = iostat_find(st->io, b->name);
	return d && d->valid ? d : NULL;
}

static attr_t tone_attr(const struct theme *t, enum devtone tone)
{
	static const enum theme_el el[] = {
		[TONE_NONE] = EL_DEFAULT, [TONE_OK] = EL_STATUS_OK, [TONE_WARN] = EL_STATUS_WARN,
		[TONE_BUSY] = EL_STATUS_BUSY, [TONE_FAILED] = EL_STATUS_FAILED,
		[TONE_UNKNOWN] = EL_DIM, [TONE_SAFE] = EL_SAFE, [TONE_UNSAFE] = EL_UNSAFE,
		[TONE_TITLE] = EL_TITLE,
	};

	return theme_attr(t, el[tone]);
}

/* "12.3" MB/s (10^6 bytes, as the Help screen says) from iostat's MiB/s. */
static void fmt_mbs(char *buf, size_t len, double mib_s)
{
	double mb = mib_s * 1048576.0 / 1e6;

	snprintf(buf, len, mb >= 1000 ? "%.0f" : "%.1f", mb);
}

/* ---- the tree ----------------------------------------------------------- */

/* Width of the name column; the others are fixed. io: the four live columns. */
static int name_width(int w, bool io)
{
	return w - 1 - 13 - 10 - (io ? 28 : 0);
}

static void tree_prefix(const struct theme *t, const struct devrow *r, char *buf, size_t len)
{
	size_t o = 0;
	int l;

	buf[0] = '\0';
	for (l = 1; l < r->depth && o < len; l++)
		o = bufcat(buf, len, o, "%s", r->vert & (1ul << l) ? t->g->tree_vert : "  ");
	if (r->depth > 0 && o < len)
		snprintf(buf + o, len - o, "%s", r->last ? t->g->tree_last : t->g->tree_mid);
}

static void draw_row(struct app *app, struct dev_state *st, const struct devrow *r, int y, int x,
		     int w, bool sel, bool io)
{
	const struct theme *t = app->theme;
	int nw = name_width(w, io), cx;
	char prefix[128], label[512], status[64], size[32];
	attr_t base = sel ? (st->focus_detail ? A_BOLD | A_UNDERLINE : theme_attr(t, EL_SELECTED))
			  : r->depth == 0 ? A_BOLD : A_NORMAL;
	double bytes = devtree_size(r);

	tree_prefix(t, r, prefix, sizeof(prefix));
	devtree_label(r, label, sizeof(label));
	devtree_status(r, status, sizeof(status));
	size[0] = '\0';
	if (bytes >= 0)
		fmt_size(size, sizeof(size), bytes);
	w_text(y, x, w, base, true, " ");
	w_text(y, x + 1, nw, sel ? base : theme_attr(t, EL_BOX), false, "%s", prefix);
	cx = x + 1 + w_width(prefix);
	w_text(y, cx, x + 1 + nw - cx, base, false, "%s%s", r->collapsed ? "+ " : "", label);
	cx = x + 1 + nw;
	w_text(y, cx + 1, 12, sel ? base : tone_attr(t, devtree_tone(r)), false, "%s", status);
	w_text(y, cx + 14, 9, base, false, "%9s", size);
	if (io) {
		const struct iostat_dev *d = io_of(st, r->bdev);
		char rs[16], ws[16], rm[16], wm[16];

		if (!d)
			return;
		fmt_count(rs, sizeof(rs), d->rates.r_s);
		fmt_count(ws, sizeof(ws), d->rates.w_s);
		fmt_mbs(rm, sizeof(rm), d->rates.rmb_s);
		fmt_mbs(wm, sizeof(wm), d->rates.wmb_s);
		w_text(y, cx + 23, 28, sel ? base : theme_attr(t, EL_GAUGE_READ), false, " %6s", rs);
		w_text(y, cx + 30, 7, sel ? base : theme_attr(t, EL_GAUGE_WRITE), false, " %6s", ws);
		w_text(y, cx + 37, 7, sel ? base : theme_attr(t, EL_GAUGE_READ), false, " %6s", rm);
		w_text(y, cx + 44, 7, sel ? base : theme_attr(t, EL_GAUGE_WRITE), false, " %6s", wm);
	}
}

static void draw_tree(struct app *app, struct dev_state *st, const struct rect *r, bool io)
{
	const struct theme *t = app->theme;
	int nw = name_width(r->w, io), i, y;
	char name[64] = "Device";

	st->list_y = r->y + 1;
	st->list_h = r->h - 1;
	st->list_x = r->x;
	st->list_w = r->w;
	if (st->list_h <= 0)
		return;
	if (st->sel < st->top)
		st->top = (int)st->sel;
	if (st->sel >= st->top + st->list_h)
		st->top = (int)st->sel - st->list_h + 1;
	if (st->top > (int)st->tree.nr - st->list_h)
		st->top = (int)st->tree.nr - st->list_h;
	if (st->top < 0)
		st->top = 0;
	if (st->top > 0 || st->top + st->list_h < (int)st->tree.nr)
		snprintf(name, sizeof(name), "Device (row %d of %zu)", (int)st->sel + 1, st->tree.nr);
	w_text(r->y, r->x, r->w, theme_attr(t, EL_TITLE), true, " %-*s %-12s %9s%s", nw, name,
	       "Status", "Size", io ? "    r/s    w/s  rMB/s  wMB/s" : "");
	for (i = st->top, y = st->list_y; i < (int)st->tree.nr && y < st->list_y + st->list_h; i++, y++)
		draw_row(app, st, &st->tree.rows[i], y, r->x, r->w, i == st->sel, io);
}

/* ---- the detail pane ---------------------------------------------------- */

struct wrap_ctx {
	struct dev_state *st;
	int width;		/* of the value column */
	bool first;
};

static void vl_push(struct dev_state *st, enum devtone tone, const char *label, const char *text,
		    int n)
{
	struct vline *v;

	if (st->nr_vl >= MAX_VLINES)
		return;
	v = &st->vl[st->nr_vl++];
	v->tone = tone;
	snprintf(v->label, sizeof(v->label), "%s", label);
	snprintf(v->text, sizeof(v->text), "%.*s", n, text);
}

/*
 * Bytes of s that fill one line of at most width cells, broken at a space
 * when there is one; at least one character.
 */
static int fit(const char *s, int width)
{
	const char *end = s, *brk = NULL;
	char piece[512];

	while (*end) {
		const char *next = end + 1;

		while (*next && ((unsigned char)*next & 0xc0) == 0x80)
			next++;
		snprintf(piece, sizeof(piece), "%.*s", (int)(next - s), s);
		if (end > s && w_width(piece) > width)
			break;
		if (*end == ' ')
			brk = end;
		end = next;
	}
	if (*end && brk && brk > s)
		end = brk;
	return (int)(end - s);
}

/* Word-wraps value into lines of at most width cells; the label goes on the first. */
static void wrap_line(void *p, enum devtone tone, const char *label, const char *value)
{
	struct wrap_ctx *c = p;
	int width = tone == TONE_TITLE ? c->width + LABEL_W : c->width;
	const char *s = value;

	if (tone == TONE_TITLE && !c->first)
		vl_push(c->st, TONE_NONE, "", "", 0);
	c->first = false;
	if (width < 8)
		width = 8;
	do {
		int n = fit(s, width);

		vl_push(c->st, tone, label, s, n);
		label = "";
		s += n;
		while (*s == ' ')
			s++;
	} while (*s);
}

static void live_lines(struct app *app, struct dev_state *st, const struct inv_blockdev *b,
		       struct wrap_ctx *c)
{
	const struct iostat_dev *d = io_of(st, b);
	char rs[16], ws[16], rm[16], wm[16], line[160];

	if (!inv_live(app)) {
		wrap_line(c, TONE_UNKNOWN, "Activity", "none shown: this inventory is imported or "
			  "recorded, not this machine's");
		return;
	}
	if (app->test_mode) {
		wrap_line(c, TONE_UNKNOWN, "Activity", "not sampled in screen tests");
		return;
	}
	if (!d) {
		wrap_line(c, TONE_UNKNOWN, "Activity",
			  st->io_err[0] ? st->io_err : "measuring (shown after two samples, 1 s apart)");
		return;
	}
	fmt_count(rs, sizeof(rs), d->rates.r_s);
	fmt_count(ws, sizeof(ws), d->rates.w_s);
	fmt_mbs(rm, sizeof(rm), d->rates.rmb_s);
	fmt_mbs(wm, sizeof(wm), d->rates.wmb_s);
	snprintf(line, sizeof(line), "read %s IOPS %s MB/s, write %s IOPS %s MB/s, queue %.1f",
		 rs, rm, ws, wm, d->rates.aqu_sz);
	wrap_line(c, TONE_NONE, "Activity", line);
}

static void build_detail(struct app *app, struct dev_state *st, const struct devrow *r, int width)
{
	struct wrap_ctx c = { st, width - LABEL_W, true };
	const struct inv_blockdev *b;

	st->nr_vl = 0;
	devtree_details(r, wrap_line, &c);
	b = devtree_target(r);
	if (r->bdev)
		live_lines(app, st, r->bdev, &c);
	if (b && inv_live(app))
		wrap_line(&c, TONE_NONE, "", "t makes it the test target (F4 Target)");
}

static void draw_detail(struct app *app, struct dev_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	const struct devrow *row = selected(st);
	struct rect in = w_inner(r);
	int i, y;

	st->detail_r = *r;
	w_box(t, r, st->focus_detail ? "Details - Up/Down scroll, Tab back" : "Details (Tab)");
	if (!row || in.w < 10 || in.h < 1)
		return;
	build_detail(app, st, row, in.w - 2);
	if (st->detail_top > st->nr_vl - in.h)
		st->detail_top = st->nr_vl - in.h;
	if (st->detail_top < 0)
		st->detail_top = 0;
	for (i = st->detail_top, y = in.y; i < st->nr_vl && y < in.y + in.h; i++, y++) {
		const struct vline *v = &st->vl[i];

		if (v->tone == TONE_TITLE) {
			w_text(y, in.x + 1, in.w - 1, theme_attr(t, EL_TITLE), false, "%s", v->text);
			continue;
		}
		w_text(y, in.x + 1, LABEL_W, theme_attr(t, EL_DIM), false, "%s", v->label);
		w_text(y, in.x + 1 + LABEL_W, in.w - 1 - LABEL_W, tone_attr(t, v->tone), false, "%s",
		       v->text);
	}
	if (st->nr_vl > in.h)
		w_text(r->y + r->h - 1, r->x + r->w - 16, 14, theme_attr(t, EL_DIM), false, " %s %d/%d ",
		       st->detail_top + in.h < st->nr_vl ? "more" : "end",
		       st->detail_top + in.h < st->nr_vl ? st->detail_top + in.h : st->nr_vl, st->nr_vl);
}

/* ---- the frame ---------------------------------------------------------- */

/* "ssacli:capture.txt" for --import=ssacli:/long/path/capture.txt */
static void import_names(const struct app *app, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < app->nr_imports && o < len; i++) {
		const char *spec = app->imports[i], *colon = strchr(spec, ':');
		const char *slash = strrchr(spec, '/');

		if (colon && slash && slash > colon)
			o = bufcat(buf, len, o, "%s%.*s%s", i ? ", " : "",
					      (int)(colon - spec + 1), spec, slash + 1);
		else
			o = bufcat(buf, len, o, "%s%s", i ? ", " : "", spec);
	}
}

/* "ssacli, hpssacli, ..., mdadm": every binary the vendor-tool room looks for. */
static void tool_names(char *buf, size_t len)
{
	const struct raid_tool_ops *const *ops;
	const char *const *bin;
	size_t o = 0;

	buf[0] = '\0';
	for (ops = raidtool_all(); ops && *ops; ops++)
		for (bin = (*ops)->binaries; bin && *bin && o < len; bin++)
			o = bufcat(buf, len, o, "%s%s", o ? ", " : "", *bin);
}

static int draw_empty(struct app *app, int y, int x, int w)
{
	const struct theme *t = app->theme;
	char names[512];

	if (!app->have_inv) {
		w_text(y++, x, w, theme_attr(t, EL_ERROR), false, " The device inventory could not be read.");
		return y;
	}
	w_text(y++, x, w, theme_attr(t, EL_TITLE), false, "No storage found.");
	if (app->nr_imports) {
		w_text(y++, x, w, A_NORMAL, false, "The imported output held no controllers, arrays,");
		w_text(y++, x, w, A_NORMAL, false, "drives or block devices (the files are named above).");
		return y;
	}
	w_text(y++, x, w, A_NORMAL, false, "Looked for: storage controllers on the PCI bus and");
	w_text(y++, x, w, A_NORMAL, false, "block devices in %s/block, md arrays in %s/block/md*,",
	       app->sysfs_root ? app->sysfs_root : "/sys", app->sysfs_root ? app->sysfs_root : "/sys");
	if (!app->sysfs_root) {
		tool_names(names, sizeof(names));
		w_text(y++, x, w, A_NORMAL, false, "and the RAID tools on PATH: %s.", names);
	}
	w_text(y++, x, w, A_NORMAL, false, "r rescans (after attaching a drive or a loop device).");
	return y;
}

static attr_t probe_attr(const struct theme *t, enum raidprobe_state s)
{
	switch (s) {
	case RAIDPROBE_RUNNING:
		return theme_attr(t, EL_STATUS_BUSY);
	case RAIDPROBE_DONE:
		return theme_attr(t, EL_STATUS_OK);
	case RAIDPROBE_CANCELLED:
		return theme_attr(t, EL_STATUS_WARN);
	default:
		return theme_attr(t, EL_STATUS_FAILED);
	}
}

/*
 * "Vendor tools: ssacli: probing... 12 s  storcli: timed out after 30 s":
 * while one runs or when one did not answer; returns the next free row.
 */
static int draw_probes(struct app *app, int y, const struct rect *r)
{
	const struct theme *t = app->theme;
	size_t n = raidprobe_count(app->probe);
	int x, end = r->x + r->w, lines = 1;
	bool show = false, running = false;
	struct raidprobe_tool tool;
	char text[640];

	for (size_t i = 0; i < n; i++) {
		raidprobe_tool(app->probe, i, &tool);
		show |= tool.state != RAIDPROBE_DONE;
		running |= tool.state == RAIDPROBE_RUNNING;
	}
	if (!show)
		return y;
	w_text(y, r->x, r->w, theme_attr(t, EL_DIM), true, " Vendor tools:");
	x = r->x + 15;
	for (size_t i = 0; i < n; i++) {
		int w;

		raidprobe_tool(app->probe, i, &tool);
		raidprobe_describe(&tool, app->ascii, text, sizeof(text));
		w = w_width(text);
		if (x + w > end && x > r->x + 15 && lines < 3) {
			w_text(++y, r->x, r->w, A_NORMAL, true, " ");
			x = r->x + 15;
			lines++;
		}
		w_text(y, x, end - x, probe_attr(t, tool.state), false, "%s", text);
		x += w + 2;
	}
	if (running && x + 12 <= end)
		w_text(y, x, end - x, theme_attr(t, EL_DIM), false, "(c cancels)");
	return y + 1;
}

/* The summary, the inventory's error and notes; returns the next free row. */
static int draw_head(struct app *app, struct dev_state *st, const struct rect *r)
{
	const struct theme *t = app->theme;
	int y = r->y, max_lines = r->h >= 40 ? 6 : 2, lines = 0;
	char line[512], names[512];
	size_t i;

	if (app->have_inv) {
		devtree_summary(&app->inv, line, sizeof(line));
		import_names(app, names, sizeof(names));
		if (!app->nr_imports)
			w_text(y++, r->x, r->w, A_NORMAL, true, " %s", line[0] ? line : "Nothing found");
		else if (line[0] && w_width(line) + w_width(names) + 16 <= r->w)
			w_text(y++, r->x, r->w, A_NORMAL, true, " %s  (imported: %s)", line, names);
		else {
			if (line[0])
				w_text(y++, r->x, r->w, A_NORMAL, true, " %s", line);
			w_text(y++, r->x, r->w, theme_attr(t, EL_DIM), true, " Imported: %s", names);
		}
	}
	y = draw_probes(app, y, r);
	if (app->inv_error[0])
		w_text(y++, r->x, r->w, theme_attr(t, EL_ERROR), true, " %s%s",
		       app->have_inv ? "Rescan failed, showing the last inventory: " : "",
		       app->inv_error);
	for (i = 0; app->have_inv && i < app->inv.nr_notes && lines < max_lines; i++) {
		const char *s = app->inv.notes[i];
		bool first = true;

		if (lines == max_lines - 1 && i + 1 < app->inv.nr_notes) {
			w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_WARN), true,
			       " Note: %zu more notes (raidbench devices lists them all)",
			       app->inv.nr_notes - i);
			break;
		}
		while (*s && lines < max_lines) {
			int n = fit(s, r->w - 7);

			w_text(y++, r->x, r->w, theme_attr(t, EL_STATUS_WARN), true, " %s %.*s",
			       first ? "Note:" : "     ", n, s);
			lines++;
			first = false;
			s += n;
			while (*s == ' ')
				s++;
		}
	}
	if (inv_live(app) && !app->test_mode && st->mon_tried && !st->mon && r->h >= 40)
		w_text(y++, r->x, r->w, theme_attr(t, EL_DIM), true,
		       " Hot-plug updates are off (%s): r rescans", st->mon_err);
	return y;
}

static void devices_draw(struct app *app, void *p, const struct rect *r)
{
	struct dev_state *st = p;
	bool live = inv_live(app) && !app->test_mode;
	struct rect tree, detail;
	int y;

	if (live) {
		uint64_t now = rb_now_ns();

		poll_monitor(app, st, now);
		sample_io(st, now);
	}
	rebuild(app, st);
	y = draw_head(app, st, r);
	if (!st->tree.nr) {
		draw_empty(app, y + 1, r->x + 2, r->w - 4);
		st->list_h = 0;
		return;
	}
	tree.y = y;
	tree.x = r->x;
	tree.h = r->y + r->h - y;
	tree.w = r->w;
	detail = tree;
	if (r->w >= 120) {
		detail.w = r->w * 2 / 5;
		tree.w = r->w - detail.w - 1;
		detail.x = r->x + tree.w + 1;
	} else {
		/* the tree takes what its rows need, the details at least two fifths */
		int dh = tree.h * 2 / 5;

		if (dh < tree.h - (int)st->tree.nr - 1)
			dh = tree.h - (int)st->tree.nr - 1;
		if (dh < 7)
			dh = 7;
		if (dh > tree.h - 4)
			dh = tree.h - 4;
		tree.h -= dh;
		detail.y = tree.y + tree.h;
		detail.h = dh;
	}
	draw_tree(app, st, &tree, inv_live(app) && name_width(tree.w, true) >= 24);
	draw_detail(app, st, &detail);
}

/* ---- keys and clicks ---------------------------------------------------- */

static void select_row(struct dev_state *st, long i)
{
	if (!st->tree.nr)
		return;
	if (i < 0)
		i = 0;
	if (i >= (long)st->tree.nr)
		i = (long)st->tree.nr - 1;
	if (i != st->sel)
		st->detail_top = 0;
	st->sel = i;
	snprintf(st->sel_key, sizeof(st->sel_key), "%s", st->tree.rows[i].key);
}

static int choose_target(struct app *app, struct dev_state *st)
{
	const struct devrow *r = selected(st);
	const struct inv_blockdev *b = r ? devtree_target(r) : NULL;
	const char *path = b ? b->path : r && r->ld && r->ld->os_device ? r->ld->os_device : NULL;

	if (!r) {
		app_message(app, "No devices to choose from: F4 Target can take a file path");
		return EV_HANDLED;
	}
	if (!path) {
		app_message(app, "Only a block device can be a test target: pick a logical drive "
			    "with an OS device, an md array or a block device");
		return EV_HANDLED;
	}
	if (!inv_live(app)) {
		app_message(app, "%s is from an imported inventory, not this machine: not a target",
			    path);
		return EV_HANDLED;
	}
	snprintf(app->target.path, sizeof(app->target.path), "%s", path);
	app->target.is_device = true;
	app->target.consented = false;
	app_switch(app, SCR_TARGET);
	return EV_HANDLED;
}

/* 'b' Array builder, 'w' RAID sweep: the controller's tool, or software RAID for block devices. */
static int open_builder(struct app *app, struct dev_state *st, enum screen_id id)
{
	const struct devrow *r = selected(st);
	const struct inv_controller *c = r ? r->c : NULL;
	bool md = !r || r->kind == DR_PASSTHROUGH || r->kind == DR_MD_GROUP || r->kind == DR_MD ||
		  r->kind == DR_MD_MEMBER || r->kind == DR_BDEV_GROUP || r->kind == DR_BDEV || !c ||
		  !c->source || !strcmp(c->source, "sysfs") ||
		  (r->kind == DR_PD && r->pd && r->pd->role && !strcmp(r->pd->role, "passthrough"));
	const struct raid_tool_ops *ops = md ? raidtool_for_block_devices() :
					  raidtool_by_name(c->source);
	char why[256];

	memset(&app->build, 0, sizeof(app->build));
	if (raidtool_writable(ops, c ? c->source : NULL, why, sizeof(why))) {
		app_message(app, "%s", why);
		return EV_HANDLED;
	}
	snprintf(app->build.tool, sizeof(app->build.tool), "%s", ops->name);
	if (!md && c->id) {
		snprintf(app->build.inv_controller_id, sizeof(app->build.inv_controller_id), "%s",
			 c->id);
		/* the tool's own id, unless discovery renamed it after its sysfs twin */
		if (raidtool_own_id(ops, c->id))
			snprintf(app->build.controller, sizeof(app->build.controller), "%s", c->id);
	}
	app_switch(app, id);
	return EV_HANDLED;
}

static int detail_key(struct dev_state *st, int ch)
{
	int page = st->detail_r.h > 4 ? st->detail_r.h - 3 : 1;

	switch (ch) {
	case KEY_UP:
	case 'k':
		st->detail_top--;
		break;
	case KEY_DOWN:
	case 'j':
		st->detail_top++;
		break;
	case KEY_PPAGE:
		st->detail_top -= page;
		break;
	case KEY_NPAGE:
	case ' ':
		st->detail_top += page;
		break;
	case KEY_HOME:
		st->detail_top = 0;
		break;
	case KEY_END:
		st->detail_top = st->nr_vl;
		break;
	case '\t':
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 27:
		st->focus_detail = false;
		break;
	default:
		return EV_NONE;
	}
	if (st->detail_top < 0)
		st->detail_top = 0;
	return EV_HANDLED;
}

static int devices_key(struct app *app, void *p, int ch)
{
	struct dev_state *st = p;
	int page = st->list_h > 1 ? st->list_h - 1 : 1;

	rebuild(app, st);
	if (ch == 'r' || ch == 'R') {
		rescan(app, st);
		if (app->inv_error[0])
			app_message(app, "Rescan failed: %s", app->inv_error);
		else if (app->have_inv_next)
			app_message(app, "Rescanning: the list stays as it was until the vendor "
				    "tools answer (c cancels them)");
		else
			app_message(app, "Rescanned: %zu controllers, %zu block devices",
				    app->inv.nr_controllers, app->inv.nr_blockdevs);
		return EV_HANDLED;
	}
	if (ch == 'c' || ch == 'C') {
		if (!app_probing(app)) {
			app_message(app, "No vendor tool is running");
			return EV_HANDLED;
		}
		app_cancel_probes(app);
		app_message(app, "Stopping the vendor tools (their processes are killed)");
		return EV_HANDLED;
	}
	if (ch == 't' || ch == 'T')
		return choose_target(app, st);
	if (ch == 'b' || ch == 'w')
		return open_builder(app, st, ch == 'b' ? SCR_BUILDER : SCR_SWEEP);
	if (st->focus_detail) {
		int ev = detail_key(st, ch);

		if (ev)
			return ev;
	}
	switch (ch) {
	case KEY_UP:
	case 'k':
		select_row(st, st->sel - 1);
		break;
	case KEY_DOWN:
	case 'j':
		select_row(st, st->sel + 1);
		break;
	case KEY_PPAGE:
		select_row(st, st->sel - page);
		break;
	case KEY_NPAGE:
		select_row(st, st->sel + page);
		break;
	case KEY_HOME:
	case 'g':
		select_row(st, 0);
		break;
	case KEY_END:
	case 'G':
		select_row(st, (long)st->tree.nr - 1);
		break;
	case '\t':
		if (st->tree.nr)
			st->focus_detail = true;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		/* a branch folds and unfolds; a leaf opens its details */
		if (!st->tree.nr)
			break;
		if (st->tree.rows[st->sel].has_children) {
			if (devtree_toggle(&st->tree, (size_t)st->sel))
				app_message(app, "Out of memory");
			rebuild(app, st);
		} else {
			st->focus_detail = true;
		}
		break;
	default:
		return EV_NONE;
	}
	return EV_HANDLED;
}

static int devices_click(struct app *app, void *p, int y, int x)
{
	struct dev_state *st = p;
	const struct rect *d = &st->detail_r;

	(void)app;
	if (st->list_h > 0 && y >= st->list_y && y < st->list_y + st->list_h && x >= st->list_x &&
	    x < st->list_x + st->list_w) {
		long i = st->top + (y - st->list_y);

		if (i < (long)st->tree.nr) {
			select_row(st, i);
			st->focus_detail = false;
		}
		return EV_HANDLED;
	}
	if (st->tree.nr && y >= d->y && y < d->y + d->h && x >= d->x && x < d->x + d->w) {
		st->focus_detail = true;
		return EV_HANDLED;
	}
	return EV_NONE;
}

static void devices_enter(struct app *app, void *p)
{
	rebuild(app, p);
}

static const struct key_hint devices_hints[] = {
	{ "t", "Target" }, { "b", "Build" }, { "w", "Sweep" }, { "r", "Rescan" }, { NULL, NULL },
};

/* While a vendor tool runs, its cancel key comes first. */
static const struct key_hint devices_probing_hints[] = {
	{ "c", "Cancel tools" }, { "t", "Target" }, { "b", "Build" }, { "w", "Sweep" },
	{ "r", "Rescan" }, { NULL, NULL },
};

static const struct key_hint *devices_hints_now(struct app *app, void *p)
{
	(void)p;
	return app_probing(app) ? devices_probing_hints : devices_hints;
}

const struct screen_ops scr_devices_ops = {
	.title = "Devices",
	.init = devices_init,
	.release = devices_release,
	.enter = devices_enter,
	.draw = devices_draw,
	.key = devices_key,
	.click = devices_click,
	.hints = devices_hints,
	.hints_now = devices_hints_now,
};
