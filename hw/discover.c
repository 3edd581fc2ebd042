/*
 * discover.c - discovery's front door: resolves the roots, reads procfs
 * once, runs the controller, block device and md passes in that order
 * (block devices link to controllers; md members are block devices), and
 * turns what could not be read for lack of privilege into notes.
 *
 * Read-only; never prints.
 */
#include "discover_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void discover_opts_init(struct discover_opts *o)
{
	o->sysfs_root = "/sys";
	o->proc_root = "/proc";
	o->dev_root = "/dev";
	o->pci_ids = NULL;
}

static int add_notes(struct dctx *d)
{
	int ret = 0;

	/* Containers deny root too (device cgroup): only suggest root to non-root. */
	if (d->denied & DENIED_PROBE)
		ret = inv_add_note(d->inv, "some device nodes could not be opened to read their "
				   "signatures, so they are not called write-safe%s",
				   geteuid() ? ": run as root to see them" : "");
	if (!ret && (d->denied & DENIED_SYSFS))
		ret = inv_add_note(d->inv, "some sysfs attributes (SCSI serial numbers) could not "
				   "be read%s", geteuid() ? ": they are readable by root only" : "");
	if (!ret && (d->denied & DENIED_MOUNTINFO))
		ret = inv_add_note(d->inv, "%s/self/mountinfo is not readable: mounts are unknown",
				   d->o->proc_root);
	return ret;
}

int discover_inventory(struct inventory *inv, const struct discover_opts *o, char *err,
		       size_t errlen)
{
	struct discover_opts def;
	struct dctx d;
	int ret;

	if (!err)
		errlen = 0;
	discover_opts_init(&def);
	if (!o)
		o = &def;
	memset(&d, 0, sizeof(d));
	d.o = o;
	d.inv = inv;
	d.err = err;
	d.errlen = errlen;
	/* Resolved so device paths found through symlinks compare against it. */
	if (!realpath(o->sysfs_root, d.sysfs)) {
		ret = -errno;
		snprintf(err, errlen, "cannot read %s: %s", o->sysfs_root, strerror(errno));
		return ret;
	}
	ret = proc_load(&d);
	if (ret) {
		snprintf(err, errlen, "out of memory reading %s", o->proc_root);
		return ret;
	}
	ret = discover_controllers(&d);
	if (!ret)
		ret = discover_blockdevs(&d);
	if (!ret)
		ret = md_sysfs_discover(inv, d.sysfs, err, errlen);
	if (!ret)
		ret = add_notes(&d);
	proc_release(&d);
	return ret;
}
