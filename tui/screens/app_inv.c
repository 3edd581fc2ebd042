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

#include "discover.h"
#include "raidprobe.h"
#include "raidtool.h"
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
	struct inventory inv;
	char err[512] = "";
	size_t i;
	int ret = 0;

	memset(&inv, 0, sizeof(inv));
	app->inv_error[0] = '\0';
	if (app->nr_imports) {
		for (i = 0; i < app->nr_imports && !ret; i++) {
			char spec[4096], *colon;

			snprintf(spec, sizeof(spec), "%s", app->imports[i]);
			colon = strchr(spec, ':');
			if (!colon) {
				snprintf(err, sizeof(err), "--import=%s: expected TOOL:FILE", spec);
				ret = -1;
				break;
			}
			*colon = '\0';
			ret = raidtool_import(&inv, spec, colon + 1, err, sizeof(err));
		}
	} else {
		struct discover_opts o;
		char terr[512];

		discover_opts_init(&o);
		if (app->sysfs_root)
			o.sysfs_root = app->sysfs_root;
		ret = discover_inventory(&inv, &o, err, sizeof(err));
		/* vendor tools only on the live machine: a recorded tree has none */
		if (!ret && !app->sysfs_root) {
			/* the last load's tools, if still running, are cancelled, not waited for */
			raidprobe_free(app->probe, 0);
			app->probe = raidprobe_start(&inv, app->tool_timeout_ms, terr, sizeof(terr));
			if (!app->probe)
				inv_add_note(&inv, "%s", terr);
			/* screen tests dump what the tools said, not how far they got */
			while (app->test_mode && !raidprobe_wait(app->probe, 1000))
				;
		}
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
		raidprobe_collect(app->probe, &app->inv_next);
		/* one controller per card: the vendor tool's view joins the sysfs one */
		discover_join_vendor(&app->inv_next);
		app->have_inv_next = false;
		take_inventory(app, &app->inv_next);
		memset(&app->inv_next, 0, sizeof(app->inv_next));
		return;
	}
	if (app->have_inv && raidprobe_collect(app->probe, &app->inv)) {
		discover_join_vendor(&app->inv);
		app->inv_gen++;
	}
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
