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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "fmt.h"
#include "hw/discover.h"
#include "hw/inventory.h"
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
						"e.g. --import ssacli:config.txt\n");
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

static void print_blockdev(struct tree *t, bool last, const struct inv_blockdev *b);

/* The OS's view of a drive or logical drive, nested under it (listed once). */
static void print_os_view(struct tree *t, bool last, const struct inv_blockdev *b)
{
	if (!b)
		return;
	tree_push(t, last);
	print_blockdev(t, true, b);
	tree_pop(t);
}

static void print_pd(struct tree *t, bool last, const struct inventory *inv,
		     const struct inv_pd *pd)
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
	if (inv)
		print_os_view(t, last, inv_bdev_of_pd(inv, pd, NULL));
}

static void print_ld(struct tree *t, bool last, const struct inventory *inv,
		     const struct inv_ld *ld)
{
	struct line l = { .sep = "  " };
	char sz[32], st[256];

	line_add(&l, "logical drive %s", ld->id ? ld->id : "?");
	line_add(&l, "RAID %s", ld->raid_level ? ld->raid_level : "level unknown");
	line_add(&l, "%s", size_text(ld->size_bytes, sz, sizeof(sz)));
	status_words(inv_status_name(ld->status), ld->status_text, st, sizeof(st));
	if (ld->progress_pct >= 0)
		line_add(&l, "[%s, %.1f%%]", st, ld->progress_pct);
	else
		line_add(&l, "[%s]", st);
	if (ld->os_device)
		line_add(&l, "%s", ld->os_device);
	tree_node(t, last, "%s", l.buf);
	print_os_view(t, last, inv_bdev_by_name(inv, ld->os_device, NULL));
}

static void print_array(struct tree *t, bool last, const struct inventory *inv,
			const struct inv_array *a)
{
	char st[256];
	size_t n = a->nr_lds + a->nr_pds;

	status_words(inv_status_name(a->status), a->status_text, st, sizeof(st));
	tree_node(t, last, "array %s  [%s]", a->id ? a->id : "(not named by the tool)", st);
	tree_push(t, last);
	for (size_t i = 0; i < a->nr_lds; i++)
		print_ld(t, --n == 0, inv, &a->lds[i]);
	for (size_t i = 0; i < a->nr_pds; i++)	/* a data drive has no OS device */
		print_pd(t, --n == 0, NULL, &a->pds[i]);
	tree_pop(t);
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

/* A block device of c not shown already under one of its logical drives or drives. */
static bool belongs(const struct inventory *inv, const struct inv_blockdev *b,
		    const struct inv_controller *c)
{
	if (!b->controller || !c->id || strcmp(b->controller, c->id))
		return false;
	for (size_t i = 0; i < c->nr_arrays; i++)
		for (size_t k = 0; k < c->arrays[i].nr_lds; k++)
			if (inv_bdev_by_name(inv, c->arrays[i].lds[k].os_device, NULL) == b)
				return false;
	for (size_t k = 0; k < c->nr_unassigned; k++)
		if (inv_bdev_of_pd(inv, &c->unassigned[k], NULL) == b)
			return false;
	for (size_t k = 0; k < c->nr_passthrough; k++)
		if (inv_bdev_of_pd(inv, &c->passthrough[k], NULL) == b)
			return false;
	return true;
}

static void print_controller(struct tree *t, bool last, const struct inventory *inv,
			     const struct inv_controller *c)
{
	struct line l = { .sep = t->g->dot };
	char st[256];
	size_t n = c->nr_arrays + c->nr_unassigned + c->nr_passthrough;

	for (size_t i = 0; i < inv->nr_blockdevs; i++)
		n += belongs(inv, &inv->blockdevs[i], c);
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
	for (size_t i = 0; i < c->nr_arrays; i++)
		print_array(t, --n == 0, inv, &c->arrays[i]);
	for (size_t i = 0; i < c->nr_unassigned; i++)
		print_pd(t, --n == 0, inv, &c->unassigned[i]);
	for (size_t i = 0; i < c->nr_passthrough; i++)
		print_pd(t, --n == 0, inv, &c->passthrough[i]);
	for (size_t i = 0; i < inv->nr_blockdevs; i++)
		if (belongs(inv, &inv->blockdevs[i], c))
			print_blockdev(t, --n == 0, &inv->blockdevs[i]);
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
	tree_push(t, last);
	for (size_t i = 0; i < md->nr_members; i++) {
		const struct inv_md_member *m = &md->members[i];
		const char *role = m->role ? m->role : "role unknown";

		if (m->slot >= 0 && m->role && !strcmp(m->role, "spare"))
			tree_node(t, i + 1 == md->nr_members, "%s  spare, rebuilding slot %d",
				  m->device, m->slot);
		else if (m->slot >= 0)
			tree_node(t, i + 1 == md->nr_members, "%s  %s, slot %d", m->device, role,
				  m->slot);
		else
			tree_node(t, i + 1 == md->nr_members, "%s  %s", m->device, role);
	}
	tree_pop(t);
}

static void print_tree(FILE *out, const struct inventory *inv, const struct glyphs *g)
{
	struct tree t = { .out = out, .g = g };
	size_t others = 0, n;

	tty_fprintf(out, "Controllers\n");
	if (!inv->nr_controllers)
		tty_fprintf(out, "%s(none found)\n", g->blank);
	for (size_t i = 0; i < inv->nr_controllers; i++)
		print_controller(&t, i + 1 == inv->nr_controllers, inv, &inv->controllers[i]);
	if (inv->nr_md) {
		tty_fprintf(out, "\nmd arrays\n");
		for (size_t i = 0; i < inv->nr_md; i++)
			print_md(&t, i + 1 == inv->nr_md, &inv->md[i]);
	}
	for (size_t i = 0; i < inv->nr_blockdevs; i++)
		others += !inv->blockdevs[i].controller;
	if (others) {
		tty_fprintf(out, "\nOther block devices\n");
		n = others;
		for (size_t i = 0; i < inv->nr_blockdevs; i++)
			if (!inv->blockdevs[i].controller)
				print_blockdev(&t, --n == 0, &inv->blockdevs[i]);
	}
	if (inv->nr_notes) {
		tty_fprintf(out, "\nNotes\n");
		for (size_t i = 0; i < inv->nr_notes; i++)
			tty_fprintf(out, "%s%s\n", g->blank, inv->notes[i]);
	}
}

/* ---- modes --------------------------------------------------------------- */

static int load_imports(struct inventory *inv, const struct devices_args *a)
{
	char err[1024];

	for (size_t i = 0; i < a->nr_imports; i++) {
		const char *colon = strchr(a->imports[i], ':');
		char tool[64];

		snprintf(tool, sizeof(tool), "%.*s", (int)(colon - a->imports[i]), a->imports[i]);
		err[0] = '\0';
		if (raidtool_import(inv, tool, colon + 1, err, sizeof(err))) {
			tty_fprintf(stderr, "raidbench devices: %s\n",
				err[0] ? err : "import failed");
			return EXIT_FAILURE;
		}
	}
	return 0;
}

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
 * The vendor tools, all at once, into inv. Ctrl-C (or TERM, HUP) cancels
 * them: each tool's process group is killed before this returns 128+signal.
 */
static int read_tools(struct inventory *inv, int timeout_ms)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[3];
	struct raidprobe *p;
	char err[512], names[512];
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
	p = raidprobe_start(inv, timeout_ms, err, sizeof(err));
	if (!p)	/* no tool ran: the inventory says why, as for a tool that failed */
		inv_add_note(inv, "the vendor tools were not run: %s", err);
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
		raidprobe_collect(p, inv);
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
	struct inventory inv = { 0 };
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
	if (a.nr_imports) {
		ret = load_imports(&inv, &a);
	} else if (discover_inventory(&inv, &a.dopts, err, sizeof(err))) {
		tty_fprintf(stderr, "raidbench devices: %s\n", err);
		ret = EXIT_FAILURE;
	} else if (!a.no_tools && !strcmp(a.dopts.sysfs_root, "/sys")) {
		/* a failing tool leaves a note in inv; its controllers are just not shown */
		ret = read_tools(&inv, a.tool_timeout_ms);
		discover_join_vendor(&inv);
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
		print_tree(stdout, &inv, a.ascii || !utf8_locale() ? &ascii_glyphs : &utf8_glyphs);
	}
	inventory_release(&inv);
	if (fflush(stdout) || ferror(stdout)) {
		tty_fprintf(stderr, "raidbench devices: cannot write the output: %s\n", strerror(errno));
		ret = EXIT_FAILURE;
	}
	return ret;
}
