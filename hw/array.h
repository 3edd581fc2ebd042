/*
 * array.h - changing arrays through a vendor tool: create, delete, spares,
 * erase, controller mode (and mdadm's fail). An operation is described as a
 * `struct array_op`, validated against the live inventory (drives exist and
 * are free, the count fits the level, nothing mounted or held), then turned
 * into the exact argv by the tool's ops->build (hw/raidtool.h).
 *
 * Nothing here runs a tool or prints: tui/cli/cmd_array.c shows the command,
 * asks for --yes, runs it and re-reads the state.
 */
#ifndef RB_ARRAY_H
#define RB_ARRAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inventory.h"
#include "raidtool.h"

struct guard_report;

enum array_verb {
	ARRAY_CREATE,
	ARRAY_DELETE,
	ARRAY_ADD_SPARE,
	ARRAY_REMOVE_SPARE,
	ARRAY_ERASE,
	ARRAY_MODE,
	ARRAY_FAIL,		/* mdadm only: mark a member faulty */
};

struct array_op {
	enum array_verb verb;
	const struct raid_tool_ops *ops;
	char controller[64];	/* the tool's controller id ("slot=0", "/c0"); "" for mdadm */
	const char *level;	/* normalized: "0" "1" "10" "5" ... (create) */
	char **drives;		/* "1I:0:5", "252:3", "/dev/sdb" */
	size_t nr_drives;
	char **spares;		/* create: dedicated spares */
	size_t nr_spares;
	const char *ld;		/* delete: "1", "239", "/dev/md0"; mdadm spares/fail: the md */
	const char *array;	/* spares: ssacli "A"/"all", storcli drive group "0"; NULL = global */
	const char *name;	/* create: mdadm's /dev/mdN (chosen when NULL), storcli's VD name */
	int64_t strip_bytes;	/* INV_UNSET: the tool's default */
	int64_t size_bytes;	/* INV_UNSET: all the space */
	const char *mode;	/* "hba" | "raid" */
	const char *pattern;	/* erase: the tool's word ("zero", "simple", ...); NULL = default */
	bool force;		/* storcli: `force` on delete (the VD has partitions) */
};

/* Exits of cmd_array: the guard seam, so tests can fake mounted devices. */
struct array_env {
	int (*examine)(const char *path, struct guard_report *rep);
	int (*stat_blockdev)(const char *path);	/* 0 when path is a block device, else -errno */
	/* The OS's block devices by WWN: a controller drive the OS sees is checked too. */
	const struct raidtool_osdev *osdevs;
	size_t nr_osdevs;
};

/* What validation found that the user should see before saying --yes. */
struct array_plan {
	char **warnings;	/* "sdb has an ext4 file system: it will be lost" */
	size_t nr_warnings;
	char md_name[64];	/* create with mdadm: the md device chosen */
	char new_array[16];	/* create with ssacli: the array letter it will get ("B") */
};

const char *array_verb_name(enum array_verb v);
/* "create" -> ARRAY_CREATE; -EINVAL when unknown. */
int array_verb_parse(const char *s, enum array_verb *v);

/* Minimum drive count and multiple for a level with a tool; false when it cannot build it. */
bool array_level_rule(const struct raid_tool_ops *ops, const char *level, unsigned *min,
		      unsigned *multiple);

/*
 * Checks op against inv (the tool's live configuration) before anything
 * runs. 0 with plan filled, or -EINVAL / -EBUSY / -ENOENT with err saying
 * what is wrong and what to do. env NULL = the real guard and stat.
 */
int array_validate(const struct array_op *op, const struct inventory *inv,
		   const struct array_env *env, struct array_plan *plan, char *err,
		   size_t errlen);
void array_plan_release(struct array_plan *plan);

/* The argv (binary first) of an op validated into plan (NULL: no choices to apply). */
int array_build(const struct array_op *op, const struct array_plan *plan,
		const struct inventory *inv, const char *bin, struct raidtool_argv *av, char *err,
		size_t errlen);

/*
 * A create whose tool takes the spares of a new array in a second command
 * (RT_F_SPARES_AFTER_CREATE): true, and sp is that add-spare, for the array
 * validation named in plan. Else false (sp is filled all the same).
 */
bool array_spare_followup(const struct array_op *op, const struct array_plan *plan,
			  struct array_op *sp);

/* Whether running op destroys data (every change does, but a spare removal). */
bool array_destructive(const struct array_op *op);

/*
 * What to do about a vendor's refusal (its words in msg): one sentence, or
 * NULL when nothing better than "read the message" is known.
 */
const char *array_hint(const struct array_op *op, const char *msg);

/* Shared by the adapters: the controller of op in inv (NULL when absent). */
const struct inv_controller *array_controller(const struct array_op *op,
					      const struct inventory *inv);

#endif
