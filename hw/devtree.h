/*
 * devtree.h - the inventory (hw/inventory.h) flattened into the rows of the
 * Devices screen's tree: controllers -> arrays -> logical and physical
 * drives, unassigned and pass-through drives, the block devices a controller
 * serves, md arrays with their members and the other block devices; each
 * row's label, status word, health and detail lines in words.
 *
 * No curses here: rows and text only, so the tree's shape can be tested and
 * reused without a terminal. Rows point into the inventory they were built
 * from; rebuild them whenever the inventory is reloaded.
 *
 * Threading: UI thread only, like the inventory it reads.
 */
#ifndef RB_DEVTREE_H
#define RB_DEVTREE_H

#include <stdbool.h>
#include <stddef.h>

#include "inventory.h"

enum devrow_kind {
	DR_CONTROLLER,
	DR_ARRAY,
	DR_LD,
	DR_PD,
	DR_UNASSIGNED,		/* the group of a controller's unassigned drives */
	DR_PASSTHROUGH,		/* the group of a controller's pass-through drives */
	DR_MD_GROUP,		/* "md arrays" */
	DR_MD,
	DR_MD_MEMBER,
	DR_BDEV_GROUP,		/* "Other block devices" */
	DR_BDEV,
};

/* How a row's state reads; the screen maps it to a theme element. */
enum devtone {
	TONE_NONE = 0,		/* no status to show */
	TONE_OK,
	TONE_WARN,		/* degraded, predictive failure, a slow PCIe link, holds data */
	TONE_BUSY,		/* rebuilding, initializing, transforming, erasing */
	TONE_FAILED,		/* failed, offline */
	TONE_UNKNOWN,		/* the source did not say */
	TONE_SAFE,		/* a block device raidbench may write */
	TONE_UNSAFE,		/* mounted, swap, the root device: never written */
	TONE_TITLE,
};

struct devrow {
	enum devrow_kind kind;
	int depth;
	unsigned long vert;	/* bit d: the ancestor at depth d has later siblings */
	bool last;		/* the last of its siblings */
	bool has_children;
	bool collapsed;
	size_t count;		/* children of a group row */
	char key[192];		/* identity that survives a rescan: keeps the selection */
	const struct inv_controller *c;
	const struct inv_array *a;
	const struct inv_ld *ld;
	const struct inv_pd *pd;
	const struct inv_md *md;
	const struct inv_md_member *mm;
	const struct inv_blockdev *bdev;	/* this row's OS device, when known */
};

struct devtree {
	struct devrow *rows;
	size_t nr, cap;
	char **collapsed;	/* keys of collapsed rows; kept across rebuilds */
	size_t nr_collapsed;
};

void devtree_init(struct devtree *t);
/* Frees the rows and the collapsed set. */
void devtree_release(struct devtree *t);
/* Rebuilds the rows from inv (which may be NULL: no rows). 0 or -ENOMEM. */
int devtree_build(struct devtree *t, const struct inventory *inv);
/* Collapses or expands row i (only rows with children). 0 or -ENOMEM. */
int devtree_toggle(struct devtree *t, size_t i);
/* Index of the row with key, or -1. */
long devtree_find(const struct devtree *t, const char *key);

/* The row's name in the tree: "Smart Array P440ar, slot 0", "LD 1  RAID 5  sdb". */
void devtree_label(const struct devrow *r, char *buf, size_t len);
/* The status column: "ok", "rebuild 30%", "writable", "mounted"; "" for none. */
void devtree_status(const struct devrow *r, char *buf, size_t len);
enum devtone devtree_tone(const struct devrow *r);
/* Bytes the row's size column shows, or < 0 for none. */
double devtree_size(const struct devrow *r);
/* The block device a test could target from this row, or NULL. */
const struct inv_blockdev *devtree_target(const struct devrow *r);

/* "1 controller, 2 arrays, 8 physical drives": the non-zero counts; "" for none. */
void devtree_summary(const struct inventory *inv, char *buf, size_t len);

enum devtone devtone_of_status(enum inv_status s);
/* The status in a few words a person reads: "predictive_failure" is "failing soon". */
const char *devtree_status_words(enum inv_status s);
/* "RAID 10", "RAID 1 ADM", "JBOD", "RAID level not reported" for NULL. */
void devtree_raid_words(const char *level, char *buf, size_t len);

/* Receives the detail lines of a row: a label ("" for a continuation) and a value. */
typedef void (*devdetail_fn)(void *ctx, enum devtone tone, const char *label, const char *value);

/* Everything the inventory knows about row r, one field a line, in words (tui/screens/devdetail.c). */
void devtree_details(const struct devrow *r, devdetail_fn out, void *ctx);

#endif
