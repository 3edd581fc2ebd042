/*
 * app_inv.c - the inventory the Devices and Target screens show: this
 * machine's controllers and block devices (hw discovery from sysfs) and what
 * the vendor tools on PATH report, or captured vendor outputs given with
 * --import=TOOL:FILE (how screen tests and users with a capture from another
 * server see a configuration).
 *
 * The vendor tools run in the background (hw/raidprobe.h): the UI thread
 * never waits on one; it merges each tool's answer on the frame after it
 * arrives.
 */
#include <stdio.h>
#include <string.h>

#include "inventory_read.h"
#include "tui.h"

/* How long quitting waits for cancelled tools to be killed (they take ~1 s). */
#define PROBE_QUIT_WAIT_MS 3000

static void take_inventory(struct app *app, struct inventory *inv)
{
	if (app->have_inv)
		inventory_release(&app->inv);
	app->inv = *inv;
	app->have_inv = true;
	app->inv_gen++;
}

void app_load_inventory(struct app *app)
{
	struct inventory_source src;
	struct inventory inv;
	struct raidprobe *probe = NULL;
	char err[512] = "";
	int ret;

	memset(&inv, 0, sizeof(inv));
	app->inv_error[0] = '\0';
	inventory_source_init(&src);
	src.imports = app->imports;
	src.nr_imports = app->nr_imports;
	if (app->sysfs_root)
		src.discover.sysfs_root = app->sysfs_root;
	src.tool_timeout_ms = app->tool_timeout_ms;
	ret = inventory_read(&inv, &src, &probe, err, sizeof(err));
	if (probe) {
		/* the last load's tools, if still running, are cancelled, not waited for */
		raidprobe_free(app->probe, 0);
		app->probe = probe;
		/* screen tests dump what the tools said, not how far they got */
		while (app->test_mode && !raidprobe_wait(app->probe, 1000))
			;
	}
	if (ret) {
		snprintf(app->inv_error, sizeof(app->inv_error), "%s", err);
		inventory_release(&inv);
		return;
	}
	if (app->have_inv_next) {
		inventory_release(&app->inv_next);
		app->have_inv_next = false;
	}
	if (app->have_inv && app_probing(app)) {
		/* a rescan: controllers do not vanish while their tool is asked again */
		app->inv_next = inv;
		app->have_inv_next = true;
		return;
	}
	take_inventory(app, &inv);
	app_poll_inventory(app);
}

void app_poll_inventory(struct app *app)
{
	if (!app->probe)
		return;
	if (app->have_inv_next) {
		if (raidprobe_busy(app->probe))
			return;
		inventory_read_collect(app->probe, &app->inv_next);
		app->have_inv_next = false;
		take_inventory(app, &app->inv_next);
		memset(&app->inv_next, 0, sizeof(app->inv_next));
		return;
	}
	if (app->have_inv && inventory_read_collect(app->probe, &app->inv))
		app->inv_gen++;
}

void app_cancel_probes(struct app *app)
{
	raidprobe_cancel(app->probe);
}

bool app_probing(const struct app *app)
{
	return app->probe && raidprobe_busy(app->probe);
}

/* Called by app_release(): no tool outlives the TUI. */
void app_release_probes(struct app *app)
{
	raidprobe_free(app->probe, 0);
	app->probe = NULL;
	/* also the tools of earlier rescans, cancelled when they were replaced */
	raidprobe_settle(PROBE_QUIT_WAIT_MS);
	if (app->have_inv_next)
		inventory_release(&app->inv_next);
	app->have_inv_next = false;
}
