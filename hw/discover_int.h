/*
 * discover_int.h - what the discovery files (hw/discover*.c, hw/md_sysfs.c)
 * share: the state of one discovery run and small sysfs readers that turn
 * "missing", "unreadable" and "empty" into unset values. Not for use
 * outside hw/.
 */
#ifndef RB_DISCOVER_INT_H
#define RB_DISCOVER_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "discover.h"
#include "inventory.h"
#include "systab.h"

/* Things that could not be read; each becomes one inventory note. */
enum {
	DENIED_PROBE = 1u << 0,		/* device nodes: signature and guard verdict */
	DENIED_SYSFS = 1u << 1,		/* root-only sysfs attributes (VPD pages, ...) */
	DENIED_MOUNTINFO = 1u << 2,
};


struct loop_backing {
	char name[32];		/* "loop7" */
	dev_t backing;		/* the block device it reads and writes */
};

struct dctx {
	const struct discover_opts *o;
	struct inventory *inv;
	char sysfs[PATH_MAX];	/* sysfs_root, resolved */
	char *err;
	size_t errlen;
	unsigned denied;
	struct systab tab;	/* mounts and swaps of opts' proc root */
	struct loop_backing *loops;	/* loop devices over block devices, read once */
	size_t nr_loops;
	bool loops_read;
};

/* ---- hw/discover_sysfs.c ---- */

/* Reads a small attribute, trailing blanks cut; 0 or -errno (-ENODATA if empty). */
int sysfs_read(const char *path, char *buf, size_t len);
/* A malloc'ed trimmed attribute, NULL when missing or empty. Sets DENIED_SYSFS on EACCES. */
char *sysfs_strdup(struct dctx *d, const char *path);
/* A decimal or 0x attribute; def when missing or not a number. */
int64_t sysfs_int(const char *path, int64_t def);
/* path printf'ed into buf (PATH_MAX); a truncated path reads as missing. */
const char *pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Last component of the symlink at path ("hpsa" for .../driver), malloc'ed; NULL if none. */
char *sysfs_link_name(const char *path);
/* Sorted (version order: sdb < sdaa, loop2 < loop10) entry names of a directory. */
int dir_names(const char *dir, char ***names, size_t *nr);
void names_free(char **names, size_t nr);
/* The nearest PCI function in a resolved device path: "0000:05:00.0"; false if none. */
bool pci_ancestor(const char *devpath, char *addr, size_t len);
/* Reads mountinfo and swaps of opts' proc root into d. */
int proc_load(struct dctx *d);
void proc_release(struct dctx *d);

/* ---- hw/discover_pci.c ---- */

/* Every PCI mass-storage function, with names, driver, firmware, NUMA and link. */
int discover_controllers(struct dctx *d);
/* The controller whose PCI address is addr, adding one for a non-storage class
 * function (a USB host with a disk behind it); NULL on ENOMEM or no such function. */
struct inv_controller *controller_for_pci(struct dctx *d, const char *addr);

/* ---- hw/discover_block.c ---- */

int discover_blockdevs(struct dctx *d);

#endif
