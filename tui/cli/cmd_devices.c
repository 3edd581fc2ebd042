/*
 * cmd_devices.c - `raidbench devices`: the storage inventory of this
 * machine (hw/discover.h, joined with what the vendor tools on PATH report,
 * hw/raidtool.h) or of captured vendor outputs (--import), as a
 * tree a person reads (controllers -> arrays -> logical drives -> physical
 * drives, then md arrays and the other block devices with size, model and
 * write safety) or as DESIGN's JSON (--json).
 *
 * It only reads: discovery opens nothing for writing, and nothing here
 * touches a device. As non-root it shows what it could read and the notes
 * say what needed root. The vendor tools run all at once (hw/raidprobe.h);
 * a slow one is named on stderr while it is waited for, and Ctrl-C stops
 * them all (their process groups are killed) before it exits.
 *
 * Hidden options for tests: --sysfs=DIR --proc=DIR --dev=DIR --pci-ids=FILE
 * point discovery at a recorded tree; --monitor-events=N prints N block
 * uevents (one "ACTION NAME" line each, after a "listening" line) and exits,
 * or gives up after --monitor-timeout=SECONDS (default 30) with status 1.
 */
#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "devtree.h"
#include "fmt.h"
#include "hw/discover.h"
#include "hw/inventory.h"
#include "hw/inventory_read.h"
#include "hw/monitor.h"
#include "hw/raidprobe.h"
#include "hw/raidtool.h"
#include "tty_text.h"

#define WAIT_SAY_FIRST_MS 2000	/* name a slow tool on stderr after this long */
#define WAIT_SAY_EVERY_MS 5000

struct devices_args {
	bool json;
	bool ascii;
	bool no_tools;
	const char **imports;
	size_t nr_imports;
	struct discover_opts dopts;
	long monitor_events;	/* > 0: monitor mode */
	long monitor_timeout;
	int tool_timeout_ms;	/* --tool-timeout; 0: RAIDBENCH_TOOL_TIMEOUT, else 60 s */
};

struct glyphs {
	const char *tee, *corner, *bar, *blank, *dot, *dash;
};

static const struct glyphs utf8_glyphs = { "├─ ", "└─ ", "│  ", "   ", " · ", "—" };
static const struct glyphs ascii_glyphs = { "|- ", "`- ", "|  ", "   ", ", ", "-" };

static void usage_devices(FILE *f)
{
	fprintf(f, "usage: raidbench devices [--json] [--ascii] [--no-tools] [--tool-timeout=SECONDS]\n"
		   "                        [--import TOOL:FILE ...]\n"
		   "  --json              the inventory as JSON (DESIGN.md \"The inventory model\")\n"
		   "  --ascii             draw the tree with ASCII only\n"
		   "  --no-tools          sysfs only: do not run the vendor tools found on PATH\n"
		   "                      (ssacli, storcli, mdadm) for arrays and drive health\n"
		   "  --tool-timeout=SECONDS\n"
		   "                      kill a vendor tool (and its process group) that has not\n"
		   "                      answered after this long (default $RAIDBENCH_TOOL_TIMEOUT,\n"
		   "                      else 60); the tools run at the same time\n"
		   "  --import TOOL:FILE  build the inventory from a captured vendor output\n"
		   "                      instead of this machine (TOOL: ssacli, storcli, megacli,\n"
		   "                      mdstat, mdadm-detail); repeatable\n");
}

static int parse_args(int argc, char **argv, struct devices_args *a)
{
	static const char *const root_opts[] = { "--sysfs", "--proc", "--dev", "--pci-ids" };
	const char **roots[] = { &a->dopts.sysfs_root, &a->dopts.proc_root, &a->dopts.dev_root,
				 &a->dopts.pci_ids };

	for (int i = 0; i < argc; i++) {
		bool missing = false, done = false;
		const char *v;

		if (!strcmp(argv[i], "--json")) {
			a->json = true;
			continue;
		}
		if (!strcmp(argv[i], "--ascii")) {
			a->ascii = true;
			continue;
		}
		if (!strcmp(argv[i], "--no-tools")) {
			a->no_tools = true;
			continue;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage_devices(stdout);
			exit(0);
		}
		if ((v = cli_opt_value(argc, argv, &i, "--import", &missing))) {
			const char **p = realloc(a->imports, (a->nr_imports + 1) * sizeof(*p));

			if (!p || !strchr(v, ':')) {
				free(p ? p : a->imports);
				a->imports = NULL;
				tty_fprintf(stderr, "raidbench devices: --import takes TOOL:FILE, "
						"e.g. --import %s:config.txt\n", raidtool_import_form(0));
				return -EINVAL;
			}
			a->imports = p;
			p[a->nr_imports++] = v;
			continue;
		}
		for (size_t k = 0; k < 4 && !done && !missing; k++) {
			if ((v = cli_opt_value(argc, argv, &i, root_opts[k], &missing))) {
				*roots[k] = v;
				done = true;
			}
		}
		if (!done && !missing && (v = cli_opt_value(argc, argv, &i, "--monitor-events", &missing))) {
			a->monitor_events = strtol(v, NULL, 10);
			done = a->monitor_events > 0;
		}
		if (!done && !missing &&
		    (v = cli_opt_value(argc, argv, &i, "--tool-timeout", &missing))) {
			char *end;
			double sec = strtod(v, &end);

			if (end == v || *end || !(sec > 0) || sec > 86400) {
				fprintf(stderr, "raidbench devices: --tool-timeout=%s: seconds, above 0 "
						"and at most 86400\n", v);
				return -EINVAL;
			}
			a->tool_timeout_ms = sec * 1000 < 1 ? 1 : (int)(sec * 1000);
			continue;
		}
		if (!done && !missing &&
		    (v = cli_opt_value(argc, argv, &i, "--monitor-timeout", &missing))) {
			a->monitor_timeout = strtol(v, NULL, 10);
			done = a->monitor_timeout > 0;
		}
		if (done)
			continue;
		tty_fprintf(stderr, "raidbench devices: %s '%s'\n",
			missing ? "missing value for" : "unknown option", argv[i]);
		usage_devices(stderr);
		return -EINVAL;
	}
	return 0;
}

/* ---- the tree ------------------------------------------------------------ */

struct tree {
	FILE *out;
	const struct glyphs *g;
	char prefix[512];
	size_t len[32];		/* prefix length at each depth */
	int depth;
};

static void tree_node(struct tree *t, bool last, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void tree_node(struct tree *t, bool last, const char *fmt, ...)
{
	va_list ap;

	tty_fprintf(t->out, "%s%s", t->prefix, last ? t->g->corner : t->g->tee);
	va_start(ap, fmt);
	tty_vfprintf(t->out, fmt, ap);
	va_end(ap);
	fputc('\n', t->out);
}

/* Enters the children of the node just printed; last says whether it was its parent's last. */
static void tree_push(struct tree *t, bool last)
{
	if (t->depth >= 31)
		return;
	t->len[t->depth++] = strlen(t->prefix);
	strncat(t->prefix, last ? t->g->blank : t->g->bar,
		sizeof(t->prefix) - strlen(t->prefix) - 1);
}

static void tree_pop(struct tree *t)
{
	if (t->depth > 0)
		t->prefix[t->len[--t->depth]] = '\0';
}

/* A line under the current node that is not a node itself: details, reasons. */
static void tree_info(struct tree *t, bool more_follow, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void tree_info(struct tree *t, bool more_follow, const char *fmt, ...)
{
	va_list ap;

	tty_fprintf(t->out, "%s%s", t->prefix, more_follow ? t->g->bar : t->g->blank);
	va_start(ap, fmt);
	tty_vfprintf(t->out, fmt, ap);
	va_end(ap);
	fputc('\n', t->out);
}

static const char *size_text(int64_t bytes, char *buf, size_t len)
{
	if (bytes < 0)
		return "size unknown";
	fmt_size(buf, len, (double)bytes);
	return buf;
}

/* Appends ", text" style pieces to a line buffer. */
struct line {
	char buf[1024];
	size_t len;
	const char *sep;
};

static void line_add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= sizeof(l->buf) - 1)
		return;
	if (l->len)
		l->len += (size_t)snprintf(l->buf + l->len, sizeof(l->buf) - l->len, "%s", l->sep);
	if (l->len >= sizeof(l->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n;
	if (l->len >= sizeof(l->buf))
		l->len = sizeof(l->buf) - 1;
}

static void status_words(const char *status, const char *text, char *buf, size_t len)
{
	if (text && strcmp(text, status))
		snprintf(buf, len, "%s (%s)", status, text);
	else
		snprintf(buf, len, "%s", status);
}

static void print_pcie(struct line *l, const struct inv_pcie *p, const struct glyphs *g)
{
	bool degraded = (p->max_speed_gts > 0 && p->speed_gts > 0 && p->speed_gts < p->max_speed_gts) ||
			(p->max_width > 0 && p->width > 0 && p->width < p->max_width);

	if (!p->known)
		return;
	if (degraded)
		line_add(l, "PCIe %g GT/s x%d %s DEGRADED LINK, the card can do %g GT/s x%d",
			 p->speed_gts, p->width, g->dash, p->max_speed_gts, p->max_width);
	else
		line_add(l, "PCIe %g GT/s x%d", p->speed_gts, p->width);
}

static void print_pd(struct tree *t, bool last, const struct inv_pd *pd)
{
	struct line l = { .sep = "  " };
	char sz[32], st[256];

	line_add(&l, "%s drive %s", pd->role ? pd->role : "physical", pd->id ? pd->id : "?");
	if (pd->size_bytes >= 0)
		line_add(&l, "%s", size_text(pd->size_bytes, sz, sizeof(sz)));
	if (pd->interface || pd->media)
		line_add(&l, "%s%s%s", pd->interface ? pd->interface : "",
			 pd->interface && pd->media ? " " : "", pd->media ? pd->media : "");
	if (pd->model)
		line_add(&l, "%s", pd->model);
	if (pd->serial)
		line_add(&l, "serial %s", pd->serial);
	status_words(inv_status_name(pd->status), pd->status_text, st, sizeof(st));
	line_add(&l, "[%s]", st);
	tree_node(t, last, "%s", l.buf);
}

static void print_ld(struct tree *t, bool last, const struct inv_controller *c,
		     const struct inv_ld *ld)
{
	struct line l = { .sep = "  " };
	char sz[32], st[256];

	line_add(&l, "logical drive %s", ld->id ? ld->id : "?");
	if (ld->raid_level)
		line_add(&l, "RAID %s", ld->raid_level);
	else if (c && c->source && !strcmp(c->source, "sysfs"))
		/* the kernel shows a logical drive but not its level: only the tool knows it */
		line_add(&l, "level unknown (no vendor tool)");
	else
		line_add(&l, "RAID level unknown");
	line_add(&l, "%s", size_text(ld->size_bytes, sz, sizeof(sz)));
	status_words(inv_status_name(ld->status), ld->status_text, st, sizeof(st));
	if (ld->progress_pct >= 0)
		line_add(&l, "[%s, %.1f%%]", st, ld->progress_pct);
	else
		line_add(&l, "[%s]", st);
	if (ld->os_device)
		line_add(&l, "%s", ld->os_device);
	tree_node(t, last, "%s", l.buf);
}

static void print_array(struct tree *t, bool last, const struct inv_array *a)
{
	char st[256];

	status_words(inv_status_name(a->status), a->status_text, st, sizeof(st));
	tree_node(t, last, "array %s  [%s]", a->id ? a->id : "(not named by the tool)", st);
}

static void print_blockdev(struct tree *t, bool last, const struct inv_blockdev *b)
{
	struct line l = { .sep = "  " };
	char sz[32];

	line_add(&l, "%s", b->name);
	line_add(&l, "%s", size_text(b->size_bytes, sz, sizeof(sz)));
	if (b->model)
		line_add(&l, "%s", b->model);
	if (b->rotational >= 0)
		line_add(&l, "%s", b->rotational ? "hdd" : "ssd");
	if (b->logical_block_size > 0 && b->physical_block_size > 0)
		line_add(&l, "%lld/%lld-byte blocks", (long long)b->logical_block_size,
			 (long long)b->physical_block_size);
	if (b->signature)
		line_add(&l, "%s", b->signature);
	line_add(&l, "%s", b->write_safe ? "write-safe" : "NOT write-safe");
	tree_node(t, last, "%s", l.buf);
	tree_push(t, last);
	if (b->serial || b->wwn || b->scheduler) {
		struct line d = { .sep = t->g->dot };

		if (b->serial)
			line_add(&d, "serial %s", b->serial);
		if (b->wwn)
			line_add(&d, "wwn %s", b->wwn);
		if (b->scheduler)
			line_add(&d, "scheduler %s", b->scheduler);
		if (b->queue_depth >= 0)
			line_add(&d, "queue depth %lld", (long long)b->queue_depth);
		tree_info(t, false, "%s", d.buf);
	}
	/* the names a user may type instead of sdX: one a line, whole, to copy */
	for (size_t i = 0; i < b->nr_stable_names; i++)
		tree_info(t, false, "%s", b->stable_names[i]);
	if (b->nr_partitions) {
		struct line d = { .sep = " " };

		for (size_t i = 0; i < b->nr_partitions; i++)
			line_add(&d, "%s", b->partitions[i]);
		tree_info(t, false, "partitions: %s", d.buf);
	}
	if (b->nr_mounts) {
		struct line d = { .sep = ", " };

		for (size_t i = 0; i < b->nr_mounts; i++)
			line_add(&d, "%s", b->mounts[i]);
		tree_info(t, false, "mounted at: %s", d.buf);
	}
	if (b->nr_holders) {
		struct line d = { .sep = ", " };

		for (size_t i = 0; i < b->nr_holders; i++)
			line_add(&d, "%s", b->holders[i]);
		tree_info(t, false, "held by: %s", d.buf);
	}
	if (b->swap)
		tree_info(t, false, "in use as swap");
	if (b->why_not_write_safe) {
		const char *p = b->why_not_write_safe;

		while (*p) {
			size_t n = strcspn(p, "\n");

			tree_info(t, false, "%s %.*s", t->g->dash, (int)n, p);
			p += n;
			if (*p)
				p++;
		}
	}
	tree_pop(t);
}

/* The controller's line and its details; children (how many: n) follow. */
static void print_controller(struct tree *t, bool last, const struct inv_controller *c, size_t n)
{
	struct line l = { .sep = t->g->dot };
	char st[256];

	status_words(inv_status_name(c->status), c->status_text, st, sizeof(st));
	tree_node(t, last, "%s  %s  [%s]", c->id ? c->id : "?",
		  c->model ? c->model : "(model unknown)", st);
	tree_push(t, last);
	if (c->driver)
		line_add(&l, "driver %s", c->driver);
	if (c->firmware)
		line_add(&l, "firmware %s", c->firmware);
	if (c->mode)
		line_add(&l, "mode %s", c->mode);
	if (c->slot)
		line_add(&l, "slot %s", c->slot);
	if (c->serial)
		line_add(&l, "serial %s", c->serial);
	if (c->numa_node != INV_NO_NUMA)
		line_add(&l, "NUMA node %d", c->numa_node);
	if (c->source && strcmp(c->source, "sysfs"))
		line_add(&l, "from %s", c->source);
	print_pcie(&l, &c->pcie, t->g);
	if (l.len)
		tree_info(t, n > 0, "%s", l.buf);
	tree_pop(t);
}

static void print_md(struct tree *t, bool last, const struct inv_md *md)
{
	struct line l = { .sep = "  " };
	char sz[32], st[256];

	line_add(&l, "%s", md->name ? md->name : "?");
	line_add(&l, "RAID %s", md->raid_level ? md->raid_level : "level unknown");
	line_add(&l, "%s", size_text(md->size_bytes, sz, sizeof(sz)));
	status_words(inv_status_name(md->status), md->status_text, st, sizeof(st));
	if (md->progress_pct >= 0)
		line_add(&l, "[%s %.1f%%]", st, md->progress_pct);
	else
		line_add(&l, "[%s]", st);
	tree_node(t, last, "%s", l.buf);
}

static void print_md_member(struct tree *t, bool last, const struct inv_md_member *m)
{
	const char *role = m->role ? m->role : "role unknown";

	if (m->slot >= 0)
		tree_node(t, last, "%s  %s, slot %d", m->device, role, m->slot);
	else
		tree_node(t, last, "%s  %s", m->device, role);
}

/*
 * The text tree is the Devices screen's tree (tui/devtree.h) in words: its
 * top-level groups are the sections, a controller's drive groups are
 * flattened into the controller, and the OS device of a logical drive,
 * drive or md array is nested under it. The rows under row i in this view
 * are kids[first[i]] .. kids[first[i] + count[i] - 1].
 */
struct view {
	const struct devtree *dt;
	size_t *first, *count;	/* per row: its children's run in kids[] */
	size_t *kids;
};

static bool flattened(const struct devrow *r)
{
	return r->kind == DR_UNASSIGNED || r->kind == DR_PASSTHROUGH;
}

/* The row each row hangs under in the text tree (SIZE_MAX: a section's top). */
static int view_build(struct view *v, const struct devtree *dt)
{
	size_t n = dt->nr, stack[64], *parent, fill = 0;

	v->dt = dt;
	v->first = calloc(n + 1, sizeof(size_t));
	v->count = calloc(n + 1, sizeof(size_t));
	v->kids = calloc(n + 1, sizeof(size_t));
	parent = calloc(n + 1, sizeof(size_t));
	if (!v->first || !v->count || !v->kids || !parent) {
		free(parent);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		int d = dt->rows[i].depth;
		size_t p = SIZE_MAX;

		if (d > 0 && d < 64)
			p = stack[d - 1];
		while (p != SIZE_MAX && flattened(&dt->rows[p]))
			p = parent[p];
		/* a top-level group is a section heading: its rows are the section's top */
		if (p != SIZE_MAX && dt->rows[p].depth == 0 && dt->rows[p].kind != DR_CONTROLLER)
			p = SIZE_MAX;
		parent[i] = p;
		if (d < 64)
			stack[d] = i;
		if (p != SIZE_MAX)
			v->count[p]++;
	}
	for (size_t i = 0; i < n; i++) {
		v->first[i] = fill;
		fill += v->count[i];
		v->count[i] = 0;
	}
	for (size_t i = 0; i < n; i++)
		if (parent[i] != SIZE_MAX)
			v->kids[v->first[parent[i]] + v->count[parent[i]]++] = i;
	free(parent);
	return 0;
}

static void view_release(struct view *v)
{
	free(v->first);
	free(v->count);
	free(v->kids);
}

/* The OS device nested under a row (listed once: the tree claimed it for this row). */
static const struct inv_blockdev *os_view(const struct devrow *r)
{
	return r->kind == DR_LD || r->kind == DR_PD || r->kind == DR_MD ? r->bdev : NULL;
}

static void print_row(struct tree *t, const struct view *v, size_t i, bool last)
{
	const struct devrow *r = &v->dt->rows[i];
	const struct inv_blockdev *os = os_view(r);
	size_t n = v->count[i] + (os != NULL);

	switch (r->kind) {
	case DR_CONTROLLER:
		print_controller(t, last, r->c, n);
		break;
	case DR_ARRAY:
		print_array(t, last, r->a);
		break;
	case DR_LD:
		print_ld(t, last, r->c, r->ld);
		break;
	case DR_PD:
		print_pd(t, last, r->pd);
		break;
	case DR_MD:
		print_md(t, last, r->md);
		break;
	case DR_MD_MEMBER:
		print_md_member(t, last, r->mm);
		break;
	case DR_BDEV:
		print_blockdev(t, last, r->bdev);
		return;
	default:
		return;
	}
	if (!n)
		return;
	tree_push(t, last);
	for (size_t k = 0; k < v->count[i]; k++)
		print_row(t, v, v->kids[v->first[i] + k], --n == 0);
	if (os)
		print_blockdev(t, true, os);
	tree_pop(t);
}

/* The rows at the top of the section that starts at row i (a heading row or a controller). */
static void print_section(struct tree *t, const struct view *v, size_t from, size_t to)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		n += v->dt->rows[i].depth == (v->dt->rows[from].kind == DR_CONTROLLER ? 0 : 1);
	for (size_t i = from; i < to; i++)
		if (v->dt->rows[i].depth == (v->dt->rows[from].kind == DR_CONTROLLER ? 0 : 1))
			print_row(t, v, i, --n == 0);
}

static int print_tree(FILE *out, const struct inventory *inv, const struct glyphs *g)
{
	struct tree t = { .out = out, .g = g };
	struct devtree dt;
	struct view v = { 0 };
	size_t i = 0, end;
	int ret;

	devtree_init(&dt);
	ret = devtree_build(&dt, inv);
	if (!ret)
		ret = view_build(&v, &dt);
	if (ret) {
		view_release(&v);
		devtree_release(&dt);
		return ret;
	}
	tty_fprintf(out, "Controllers\n");
	for (end = 0; end < dt.nr && (dt.rows[end].depth || dt.rows[end].kind == DR_CONTROLLER);)
		end++;
	if (!end)
		tty_fprintf(out, "%s(none found)\n", g->blank);
	print_section(&t, &v, 0, end);
	for (i = end; i < dt.nr; i = end) {
		for (end = i + 1; end < dt.nr && dt.rows[end].depth > 0; end++)
			;
		tty_fprintf(out, "\n%s\n", dt.rows[i].kind == DR_MD_GROUP ? "md arrays" :
			    "Other block devices");
		print_section(&t, &v, i, end);
	}
	if (inv->nr_notes) {
		tty_fprintf(out, "\nNotes\n");
		for (size_t k = 0; k < inv->nr_notes; k++)
			tty_fprintf(out, "%s%s\n", g->blank, inv->notes[k]);
	}
	view_release(&v);
	devtree_release(&dt);
	return 0;
}

/* ---- modes --------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int monitor_events(const struct devices_args *a)
{
	double deadline = now_s() + (double)(a->monitor_timeout > 0 ? a->monitor_timeout : 30);
	struct monitor_event ev;
	struct monitor *m;
	char err[256];
	long seen = 0;
	int rc = 0;

	m = monitor_new(err, sizeof(err));
	if (!m) {
		tty_fprintf(stderr, "raidbench devices: %s\n", err);
		return EXIT_FAILURE;
	}
	tty_printf("listening (%s events)\n", monitor_from_udev(m) ? "udev" : "kernel");
	fflush(stdout);
	while (seen < a->monitor_events) {
		struct pollfd pfd = { .fd = monitor_fd(m), .events = POLLIN };
		double left = deadline - now_s();

		if (left <= 0)
			break;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			break;
		while (seen < a->monitor_events && (rc = monitor_read(m, &ev)) > 0) {
			tty_printf("%s %s%s\n", ev.action_text, ev.name, ev.partition ? " partition" : "");
			fflush(stdout);
			seen++;
		}
		if (rc < 0) {
			tty_fprintf(stderr, "raidbench devices: reading uevents: %s\n", strerror(-rc));
			break;
		}
	}
	monitor_free(m);
	if (seen < a->monitor_events) {
		tty_fprintf(stderr, "raidbench devices: saw %ld of %ld events before the timeout\n",
			seen, a->monitor_events);
		return EXIT_FAILURE;
	}
	return 0;
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* "ssacli (5 s), storcli (5 s)": the tools still running. */
static void running_tools(struct raidprobe *p, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < raidprobe_count(p) && o < len; i++) {
		struct raidprobe_tool t;

		raidprobe_tool(p, i, &t);
		if (t.state == RAIDPROBE_RUNNING)
			o += (size_t)snprintf(buf + o, len - o, "%s%s (%lld s)", o ? ", " : "",
					      t.name, t.elapsed_ms / 1000);
	}
}

/*
 * Waits for the vendor tools of p and collects them into inv. Ctrl-C (or
 * TERM, HUP) cancels them: each tool's process group is killed before this
 * returns 128+signal.
 */
static int wait_tools(struct raidprobe *p, struct inventory *inv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[3];
	char names[512];
	double start = now_s(), say_at = start + WAIT_SAY_FIRST_MS / 1000.0;
	int ret = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < 3; i++) {
		sigaction(sigs[i], &sa, &old[i]);
		if (old[i].sa_handler == SIG_IGN)	/* nohup, a background job: stay deaf */
			sigaction(sigs[i], &old[i], NULL);
	}
	got_signal = 0;
	while (p && !got_signal && !raidprobe_wait(p, 100)) {
		if (now_s() < say_at)
			continue;
		say_at = now_s() + WAIT_SAY_EVERY_MS / 1000.0;
		running_tools(p, names, sizeof(names));
		if (names[0])
			fprintf(stderr, "raidbench devices: waiting for %s...\n", names);
	}
	if (p && got_signal) {
		fprintf(stderr, "raidbench devices: interrupted; stopping the vendor tools\n");
		ret = 128 + got_signal;
	}
	if (p && !ret)
		inventory_read_collect(p, inv);
	/* a cancelled tool is killed within about a second; do not leave it behind */
	raidprobe_free(p, 5000);
	for (size_t i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return ret;
}

static bool utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && !strcmp(cs, "UTF-8");
}

int cmd_devices(int argc, char **argv)
{
	struct devices_args a = { .json = false };
	struct inventory_source src;
	struct inventory inv = { 0 };
	struct raidprobe *p = NULL;
	char err[1024] = "";
	int ret = 0;

	discover_opts_init(&a.dopts);
	if (parse_args(argc, argv, &a)) {
		free(a.imports);
		return EXIT_USAGE;
	}
	if (a.monitor_events > 0) {
		free(a.imports);
		return monitor_events(&a);
	}
	inventory_source_init(&src);
	src.imports = a.imports;
	src.nr_imports = a.nr_imports;
	src.discover = a.dopts;
	src.no_tools = a.no_tools;
	src.tool_timeout_ms = a.tool_timeout_ms;
	if (inventory_read(&inv, &src, &p, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench devices: %s\n", err[0] ? err : "import failed");
		ret = EXIT_FAILURE;
	} else if (p) {
		/* a failing tool leaves a note in inv; its controllers are just not shown */
		ret = wait_tools(p, &inv);
	}
	free(a.imports);
	if (ret) {
		inventory_release(&inv);
		return ret;
	}
	if (a.json) {
		struct json_object *j = inventory_to_json(&inv);

		if (!j) {
			tty_fprintf(stderr, "raidbench devices: out of memory\n");
			ret = EXIT_FAILURE;
		} else {
			tty_json_puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
			json_object_put(j);
		}
	} else {
		if (print_tree(stdout, &inv, a.ascii || !utf8_locale() ? &ascii_glyphs : &utf8_glyphs)) {
			tty_fprintf(stderr, "raidbench devices: out of memory\n");
			ret = EXIT_FAILURE;
		}
	}
	inventory_release(&inv);
	if (fflush(stdout) || ferror(stdout)) {
		tty_fprintf(stderr, "raidbench devices: cannot write the output: %s\n", strerror(errno));
		ret = EXIT_FAILURE;
	}
	return ret;
}
