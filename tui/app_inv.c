/*
 * app_inv.c - the inventory the Devices and Target screens show: this
 * machine's controllers and block devices (hw discovery from sysfs) and what
 * the vendor tools on PATH report, or captured vendor outputs given with
 * --import=TOOL:FILE (how screen tests and users with a capture from another
 * server see a configuration).
 */
#include <stdio.h>
#include <string.h>

#include "discover.h"
#include "raidtool.h"
#include "tui.h"

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
		if (!ret && !app->sysfs_root && raidtool_read_all(&inv, terr, sizeof(terr)) < 0)
			inv_add_note(&inv, "%s", terr);
		/* one controller per card: the vendor tool's view joins the sysfs one */
		if (!ret)
			discover_join_vendor(&inv);
	}
	if (ret) {
		snprintf(app->inv_error, sizeof(app->inv_error), "%s", err);
		inventory_release(&inv);
		return;
	}
	if (app->have_inv)
		inventory_release(&app->inv);
	app->inv = inv;
	app->have_inv = true;
}
