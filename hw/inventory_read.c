/*
 * inventory_read.c - discover or import, start the vendor tools, join
 * (inventory_read.h). Never prints; errors go to the caller's buffer.
 */
#include "inventory_read.h"
#include "raidtool.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void inventory_source_init(struct inventory_source *s)
{
	memset(s, 0, sizeof(*s));
	discover_opts_init(&s->discover);
}

static int read_imports(struct inventory *inv, const struct inventory_source *s, char *err,
			size_t errlen)
{
	for (size_t i = 0; i < s->nr_imports; i++) {
		const char *spec = s->imports[i], *colon = strchr(spec, ':');
		char tool[64];
		int ret;

		if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(tool)) {
			snprintf(err, errlen, "--import=%s: expected TOOL:FILE", spec);
			return -EINVAL;
		}
		snprintf(tool, sizeof(tool), "%.*s", (int)(colon - spec), spec);
		err[0] = '\0';
		ret = raidtool_import(inv, tool, colon + 1, err, errlen);
		if (ret) {
			if (!err[0])
				snprintf(err, errlen, "--import=%s: import failed", spec);
			return ret;
		}
	}
	return 0;
}

int inventory_read(struct inventory *inv, const struct inventory_source *s,
		   struct raidprobe **probe, char *err, size_t errlen)
{
	const char *sysfs = s->discover.sysfs_root;
	char why[512];
	int ret;

	*probe = NULL;
	if (s->nr_imports)
		return read_imports(inv, s, err, errlen);
	ret = discover_inventory(inv, &s->discover, err, errlen);
	/* vendor tools only on the live machine: a recorded tree has none */
	if (ret || s->no_tools || !sysfs || strcmp(sysfs, "/sys"))
		return ret;
	*probe = raidprobe_start(inv, s->tool_timeout_ms, why, sizeof(why));
	if (!*probe)	/* no tool ran: the inventory says why, as for a tool that failed */
		return inv_add_note(inv, "the vendor tools were not run: %s", why) ? -ENOMEM : 0;
	return 0;
}

size_t inventory_read_collect(struct raidprobe *probe, struct inventory *inv)
{
	size_t n;

	if (!probe)
		return 0;
	n = raidprobe_collect(probe, inv);
	/* one controller per card: the vendor tool's view joins the sysfs one */
	if (n)
		discover_join_vendor(inv);
	return n;
}
