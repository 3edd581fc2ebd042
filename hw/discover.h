/*
 * discover.h - builds the inventory (hw/inventory.h) of the live machine
 * from sysfs and procfs: PCI storage controllers with names, driver,
 * firmware, NUMA node and PCIe link; the block devices tied to them with
 * their safety verdict from the write guard; md arrays.
 *
 * Discovery reads files only. It needs no udev daemon and no udev database
 * (both absent in containers and initramfs) and never writes to sysfs or a
 * device: libblkid and the guard open device nodes read-only.
 *
 * Roots are a test seam: recorded trees under tests/fixtures/sysfs/ stand in
 * for /sys and /proc. Device nodes are only probed when the node under
 * dev_root is a block device with the number sysfs gives, so a recorded
 * tree never leads discovery to a real disk of the same name.
 *
 * Threading: one discovery at a time per inventory; no global state.
 */
#ifndef RB_DISCOVER_H
#define RB_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

struct inventory;

struct discover_opts {
	const char *sysfs_root;	/* "/sys" */
	const char *proc_root;	/* "/proc"; mountinfo is read from PROC/self/mountinfo */
	const char *dev_root;	/* "/dev" */
	const char *pci_ids;	/* pci.ids file; NULL: libpci's default (hwdb, then pci.ids) */
};

/* Fills o with the live machine's roots. */
void discover_opts_init(struct discover_opts *o);

/*
 * Appends what the machine has to inv (normally empty). Things that could
 * not be read for lack of privilege become inventory notes, not errors.
 * Returns 0, or -errno with err filled when sysfs itself cannot be read
 * or memory runs out; inv is then partly filled and must still be released.
 */
int discover_inventory(struct inventory *inv, const struct discover_opts *o, char *err,
		       size_t errlen);

/*
 * md arrays only (hw/md_sysfs.c), from SYSFS/block/md*\/md. Same contract
 * as discover_inventory().
 */
int md_sysfs_discover(struct inventory *inv, const char *sysfs_root, char *err,
		      size_t errlen);

/*
 * One controller per card: each controller a vendor tool reported (source
 * "ssacli", "storcli", ...; see hw/raidtool.h) whose PCI address is that of
 * a sysfs controller is joined into it. The sysfs id, driver, NUMA node,
 * PCIe link and block device links stay; the tool's arrays and drives
 * replace the volumes sysfs could only guess, and its model, serial,
 * firmware, mode, status and source win. Call after raidtool_read_all().
 */
void discover_join_vendor(struct inventory *inv);

#endif
