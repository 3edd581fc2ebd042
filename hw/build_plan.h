/*
 * build_plan.h - what the Array builder screen works on, without curses:
 * the drives of one controller (or, for md, this machine's block devices)
 * with whether each can join a new array and why not, the logical drives
 * (or md arrays) already there, the user's picks (members, spares, level,
 * strip size), and the hw/array.h ops those picks become.
 *
 * Copies what it needs out of the inventories it is loaded from, so the
 * inventories can be re-read underneath it. UI thread only.
 */
#ifndef RB_BUILD_PLAN_H
#define RB_BUILD_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "inventory.h"
#include "raid_estimate.h"
#include "raidtool.h"

#define BP_MAX_OP_DRIVES 128

enum bp_use { BP_NONE, BP_MEMBER, BP_SPARE };

struct bp_drive {
	char id[128];		/* vendor address ("1I:0:5", "252:3"), or /dev/sdb for md */
	char model[64];
	int64_t size;		/* INV_UNSET when unknown */
	char media[8];		/* "hdd", "ssd", "" */
	char state[48];		/* "ok", "failed", "writable", "holds data" */
	enum inv_status status;
	bool usable;		/* can join a new array */
	char why[192];		/* unusable: why; usable: a warning ("holds an ext4 file system") */
	char array[32];		/* the array or md it belongs to, "" when none */
	bool spare;		/* a spare (of array, or global when array is "") */
	bool passthrough;
	enum bp_use use;
};

struct bp_ld {
	char id[64];		/* "1", "0" (storcli VD), "md0" */
	char array[32];		/* "A", drive group "0"; "" for md */
	char level[16];
	int64_t size;
	enum inv_status status;
	char state[64];		/* the vendor's words when given */
	double progress;	/* < 0: nothing running */
	char os_device[64];
};

struct build_plan {
	const struct raid_tool_ops *ops;
	bool md;
	char controller[64];	/* the tool's controller id ("slot=255", "/c0"); "" for md */
	char confirm[64];	/* what to type to confirm a controller change: "255", "/c0" */
	char title[192];	/* "Smart HBA H240, slot 255" */
	char mode[16];		/* "raid", "hba", "mixed", "" */
	struct bp_drive *drives;
	size_t nr_drives;
	struct bp_ld *lds;
	size_t nr_lds;
	int level;		/* index into ops->levels; -1 = none chosen */
	int strip;		/* index into the strip choices; 0 = the tool's default */
};

/* An op whose strings point into this struct (and the plan): no allocation. */
struct bp_op {
	struct array_op op;
	char *drives[BP_MAX_OP_DRIVES];
	char *spares[BP_MAX_OP_DRIVES];
	char ld[80];
	char array[32];
};

void build_plan_init(struct build_plan *bp, const struct raid_tool_ops *ops);
void build_plan_release(struct build_plan *bp);

/* The drives and logical drives of controller c (a vendor tool's view). 0 or -ENOMEM. */
int build_plan_load_controller(struct build_plan *bp, const struct inv_controller *c);

/*
 * md: the block devices of inv (disks the kernel sees: JBOD, pass-through,
 * plain) and the md arrays of md_inv (mdadm's view; may be inv). examine:
 * ask the write guard about each device (the live machine only).
 */
int build_plan_load_md(struct build_plan *bp, const struct inventory *inv,
		       const struct inventory *md_inv, bool examine);

/* Picks of old (members, spares, level, strip) carried over to bp by drive id. */
void build_plan_keep_picks(struct build_plan *bp, const struct build_plan *old);

size_t build_plan_count(const struct build_plan *bp, enum bp_use use);
/* The level chosen ("5"), NULL when none. */
const char *build_plan_level(const struct build_plan *bp);
/* Whether level i fits n members with this tool; why says what it needs when not. */
bool build_plan_level_fits(const struct build_plan *bp, int i, size_t n, char *why,
			   size_t len);
/* Moves the level to the next (dir > 0) or previous level that fits the members. */
void build_plan_cycle_level(struct build_plan *bp, int dir);
void build_plan_cycle_strip(struct build_plan *bp);
/* "default", "64 KiB", ... */
const char *build_plan_strip_name(const struct build_plan *bp);
int64_t build_plan_strip_bytes(const struct build_plan *bp);

/* The estimate of the chosen level over the members. 0, or -EINVAL (est->tolerance says). */
int build_plan_estimate(const struct build_plan *bp, struct raid_estimate *est);

/* Ops from the picks (pointers into bp and o). */
void build_plan_create_op(const struct build_plan *bp, struct bp_op *o);
void build_plan_delete_op(const struct build_plan *bp, const struct bp_ld *ld, struct bp_op *o);
/* Adds the drives marked as spares to ld's array (or md). */
void build_plan_add_spares_op(const struct build_plan *bp, const struct bp_ld *ld,
			      struct bp_op *o);
void build_plan_remove_spare_op(const struct build_plan *bp, const struct bp_drive *d,
				struct bp_op *o);
void build_plan_erase_op(const struct build_plan *bp, const struct bp_drive *d, struct bp_op *o);

/* Whether anything is initializing, rebuilding, transforming or erasing. */
bool build_plan_busy(const struct build_plan *bp);

/* Whether typed confirms a change on this controller (or on md, for the md name want). */
bool build_plan_confirmed(const struct build_plan *bp, const char *want, const char *typed);

#endif
