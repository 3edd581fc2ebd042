/*
 * inventory_read.h - the one front door to an inventory: captured vendor
 * outputs (`--import TOOL:FILE`) or this machine's discovery, then the
 * vendor tools on PATH in the background (hw/raidprobe.h), then each tool's
 * controllers joined to their sysfs twins. `raidbench devices` and the
 * Devices screen both come in here; they differ only in how they wait.
 *
 * Threading: the caller's thread; the tools run in raidprobe's threads and
 * only inventory_read_collect() moves their answers into an inventory.
 */
#ifndef RB_INVENTORY_READ_H
#define RB_INVENTORY_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "discover.h"
#include "inventory.h"
#include "raidprobe.h"

struct inventory_source {
	const char *const *imports;	/* "TOOL:FILE" captures; when any, nothing else is read */
	size_t nr_imports;
	struct discover_opts discover;	/* the roots discovery reads (a recorded tree in tests) */
	bool no_tools;			/* no vendor tools, discovery only */
	int tool_timeout_ms;		/* per tool; <= 0: the default */
};

/* The live machine, vendor tools included. */
void inventory_source_init(struct inventory_source *s);

/*
 * Fills inv (normally empty) from s: the imports in order, or discovery.
 * The vendor tools start only on the live machine (sysfs at /sys) unless
 * s->no_tools; *probe is then their set (collect it with
 * inventory_read_collect(), free it with raidprobe_free()), else NULL. A
 * failure to start them is an inventory note, not an error. Returns 0, or
 * -errno with err naming the import or what discovery could not read; inv
 * must be released either way.
 */
int inventory_read(struct inventory *inv, const struct inventory_source *s,
		   struct raidprobe **probe, char *err, size_t errlen);

/*
 * Moves what the tools of probe said since the last call into inv (NULL
 * probe: nothing) and joins each vendor controller to its sysfs twin.
 * Returns how many tools ended since the last call.
 */
size_t inventory_read_collect(struct raidprobe *probe, struct inventory *inv);

#endif
