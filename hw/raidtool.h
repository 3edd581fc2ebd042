/*
 * raidtool.h - the vendor RAID tools behind one seam: HPE ssacli (and its
 * older names hpssacli, hpacucli), Broadcom storcli / Dell perccli, the
 * legacy MegaCli (read-only) and Linux mdadm.
 *
 * Each tool is a `struct raid_tool_ops`: the binaries to look for on PATH,
 * how to read the live configuration, a parser from the tool's output into
 * the inventory model (hw/inventory.h), and, for the tools that can change
 * arrays, the command builder and the verdict on a change's output. The
 * validation of a change lives in hw/array.h.
 *
 * Tools always run from an argv, never through a shell, with a timeout
 * after which the whole process group is killed, LC_ALL=C, stdin on
 * /dev/null. Nothing here prints; failures are -errno plus a message in the
 * caller's buffer naming the tool, the command and, for output that cannot
 * be understood, the line.
 *
 * Threading: no shared state; any thread may call these, one inventory per
 * thread. raidtool_exec() forks, so a multithreaded caller must not hold
 * locks the child would need (the child only calls execve).
 */
#ifndef RB_RAIDTOOL_H
#define RB_RAIDTOOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "inventory.h"

struct array_op;

#define RAIDTOOL_MAX_ARGS 64
#define RAIDTOOL_DEFAULT_TIMEOUT_MS 120000

/* What one run of a tool left behind. Release with raidtool_run_release(). */
struct raidtool_run {
	int status;		/* exit status; -1 when it died of a signal */
	int signal;		/* the signal that ended it, 0 if none */
	bool timed_out;		/* killed (with its process group) at the deadline */
	char *out;		/* stdout, NUL-terminated */
	size_t out_len;
	char *errout;		/* stderr, NUL-terminated */
	size_t err_len;
};

/*
 * The limits one read or command runs under. A NULL ctl means the default
 * per-command timeout, no overall deadline and no cancel.
 */
struct raidtool_ctl {
	int timeout_ms;			/* per command; <= 0: RAIDBENCH_TOOL_TIMEOUT or the default */
	long long deadline_ms;		/* raidtool_now_ms() the whole read must end by; 0: none */
	const atomic_int *cancel;	/* set non-zero from any thread: stop now (-ECANCELED) */
};

/* An argv under construction; strings are owned. v[n] is always NULL. */
struct raidtool_argv {
	char *v[RAIDTOOL_MAX_ARGS + 1];
	size_t n;
};

/* An OS block device and its world-wide name, for joining logical drives. */
struct raidtool_osdev {
	const char *name;	/* "sda" */
	const char *wwn;	/* "naa.600508b1001c37f1...", "0x5000c500ae318bc9", "600508B1..." */
};

/* Where a text to parse came from: named in every error message. */
struct raidtool_src {
	const char *tool;	/* "ssacli", "storcli", ... */
	const char *cmd;	/* the command that printed it: "ctrl all show config detail" */
	const char *file;	/* the imported file, NULL for a live run */
	const struct raidtool_osdev *osdevs;	/* for the WWN join; NULL on import */
	size_t nr_osdevs;
};

/* A RAID level a tool builds and the drive counts it takes for it. */
struct raidtool_level {
	const char *level;	/* normalized: "0" "1" "10" "5" "6" "50" "60" "1adm" "linear" */
	unsigned min;		/* fewest drives */
	unsigned multiple;	/* the count must be a multiple of this */
};

/* A captured output `devices --import FORM:FILE` takes. */
struct raidtool_import {
	const char *form;	/* the FORM word */
	const char *cmd;	/* what printed such a file: for messages and the parser */
};

enum raidtool_flags {
	/* a create's spares are a second command (add-spare to the new array) */
	RT_F_SPARES_AFTER_CREATE = 1u << 0,
	/* add-spare and remove-spare take one drive per command */
	RT_F_ONE_SPARE_PER_COMMAND = 1u << 1,
	/* arrays are lettered A, B, ...: a create makes the next letter */
	RT_F_LETTERED_ARRAYS = 1u << 2,
};

/*
 * Everything that differs between tools is a member here, filled in the
 * tool's own file: code elsewhere never compares a tool's name or address.
 * A tool without controller_id has no controllers: it builds arrays from
 * the OS's block devices (software RAID; its arrays are inv->md_arrays).
 */
struct raid_tool_ops {
	const char *name;		/* the registry's name, also inv_controller.source */
	const char *const *binaries;	/* NULL-terminated, looked for on PATH in order */
	/* Other names people know it by (a rebranded build), for messages; NULL-terminated. */
	const char *const *aliases;
	unsigned flags;			/* RT_F_* */
	/* Runs the listing commands of the tool at bin and parses them into inv. */
	int (*read)(const char *bin, struct inventory *inv, const struct raidtool_src *src,
		    const struct raidtool_ctl *ctl, char *err, size_t errlen);
	/* Parses one output (any of the listing commands) into inv. */
	int (*parse)(struct inventory *inv, const char *text, const struct raidtool_src *src,
		     char *err, size_t errlen);
	/* The captured outputs it imports, NULL form-terminated; the first is its default. */
	const struct raidtool_import *imports;
	/* "0", "slot=0", "/c0" -> the id the parser gives the controller. NULL = no controllers. */
	int (*controller_id)(const char *user, char *buf, size_t len);
	const char *id_forms;		/* what controller_id takes, for messages: "/cN or N" */
	/*
	 * Dropped from the id in what people type to confirm a change, and what
	 * that short form is ("slot=", "the controller's slot": the number on
	 * the card); NULL: the id itself, "the controller's id".
	 */
	const char *id_prefix, *id_short_what;
	/* Levels it can build, normalized ("0" "1" "10" ...); NULL = read-only tool. */
	const char *const *levels;
	/* The drive-count rule of each of levels, NULL level-terminated. */
	const struct raidtool_level *rules;
	unsigned strip_min_kib;		/* smallest strip size it takes (the largest is 1 MiB) */
	/*
	 * A read-only tool: the one that sees the same controllers and changes
	 * them. The live read asks this tool only when that one is absent.
	 */
	const struct raid_tool_ops *superseded_by;
	/* Appends the arguments (after the binary) of a validated change to av. */
	int (*build)(const struct array_op *op, const struct inventory *inv,
		     struct raidtool_argv *av, char *err, size_t errlen);
	/* 0 when a change's run succeeded; else -EIO and the vendor's words in err. */
	int (*check)(const struct raidtool_run *run, char *err, size_t errlen);
};

/* The registry, NULL-terminated, in the order the live read asks them. */
const struct raid_tool_ops *const *raidtool_all(void);

/* By name or by any of its binaries' names, ignoring case; NULL when unknown. */
const struct raid_tool_ops *raidtool_by_name(const char *name);

/* The tool that builds arrays from plain block devices (no controllers). */
const struct raid_tool_ops *raidtool_for_block_devices(void);

/*
 * The names of the tools that can build arrays, for messages: with sep
 * ", " "a, b/b2 or c" (a tool's aliases after a slash); with sep "|" every
 * name and alias "a|b|b2|c", an option's values.
 */
void raidtool_builder_names(char *buf, size_t len, const char *sep);

/* 0 when ops (the tool called name; ops may be NULL) can change arrays; else -EINVAL, why says so. */
int raidtool_writable(const struct raid_tool_ops *ops, const char *name, char *why,
		      size_t whylen);

/* id in the tool's own form (what controller_id gives), not a name discovery gave it. */
bool raidtool_own_id(const struct raid_tool_ops *ops, const char *id);

/* The id as people type it to confirm: id past ops->id_prefix. */
const char *raidtool_id_short(const struct raid_tool_ops *ops, const char *id);

/* "the controller's slot", "the controller's id": what raidtool_id_short() gives. */
const char *raidtool_id_short_what(const struct raid_tool_ops *ops);

/* Do a and b name the same controller of this tool (any form controller_id takes)? */
bool raidtool_same_controller(const struct raid_tool_ops *ops, const char *a, const char *b);

/* Searches PATH for the tool's binaries; 0 with path filled, or -ENOENT. */
int raidtool_find(const struct raid_tool_ops *ops, char *path, size_t len);

/*
 * Runs argv (argv[0] a path, or a name looked up on PATH) with a timeout in
 * ms (<= 0: RAIDBENCH_TOOL_TIMEOUT seconds from the environment, else
 * RAIDTOOL_DEFAULT_TIMEOUT_MS), capturing stdout and stderr. Returns 0 when
 * the tool ran (whatever its exit status: read run->status), -ETIMEDOUT when
 * it was killed at the deadline (run still holds what it printed), or
 * -errno when it could not be started; err says which.
 */
int raidtool_exec(const char *const *argv, int timeout_ms, struct raidtool_run *run,
		  char *err, size_t errlen);
/*
 * The same under ctl: it also ends at ctl->deadline_ms (-ETIMEDOUT) and when
 * *ctl->cancel becomes non-zero (-ECANCELED, checked every 50 ms). The read
 * ends when the tool itself exits: a child it left holding the pipes gets a
 * short grace to finish its output, then the whole process group is killed
 * (as it is after every run, timed out or not).
 */
int raidtool_exec_ctl(const char *const *argv, const struct raidtool_ctl *ctl,
		      struct raidtool_run *run, char *err, size_t errlen);
/* CLOCK_MONOTONIC in ms, the clock of ctl->deadline_ms. */
long long raidtool_now_ms(void);
/* RAIDBENCH_TOOL_TIMEOUT (seconds) from the environment in ms, else fallback_ms. */
int raidtool_env_timeout_ms(int fallback_ms);
void raidtool_run_release(struct raidtool_run *run);

/* argv as one line a shell would run unchanged: words quoted only where needed. */
char *raidtool_argv_format(const char *const *argv);

int raidtool_argv_push(struct raidtool_argv *av, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void raidtool_argv_release(struct raidtool_argv *av);

/*
 * Builds the inventory from a captured output: tool is one of the tools'
 * import forms (raidtool_import_form()), or a tool's name for its first
 * form (what `raidbench devices --import TOOL:FILE` takes). On failure inv
 * is unchanged and err names the tool, the file and the line. Several
 * imports into one inventory join up: the outputs of one controller's
 * listing commands become one controller.
 */
int raidtool_import(struct inventory *inv, const char *tool, const char *file, char *err,
		    size_t errlen);

/* The i-th import form raidtool_import() accepts, in registry order; NULL past the last. */
const char *raidtool_import_form(size_t i);

/*
 * Reads the live configuration from every tool found on PATH (MegaCli only
 * when no storcli/perccli is there: they see the same controllers), all at
 * once (hw/raidprobe.h), and joins logical drives to this machine's block
 * devices by WWN (/sys/block, plus inv's own block_devices). Returns the
 * number of tools that answered, or the first failure as -errno with err
 * filled; the tools that did answer are in inv either way, and each failure
 * is also an inventory note. Blocks until every tool has ended.
 */
int raidtool_read_all(struct inventory *inv, char *err, size_t errlen);

/* One tool only (cmd_array's re-read after a change); bin from raidtool_find(). */
int raidtool_read(const struct raid_tool_ops *ops, const char *bin, struct inventory *inv,
		  int timeout_ms, char *err, size_t errlen);

/*
 * The join: the name of the device whose WWN is the vendor's volume id
 * (ssacli Unique Identifier, storcli SCSI NAA Id), ignoring case and the
 * "naa."/"0x"/"wwn-0x" decorations; NULL when none matches.
 */
const char *raidtool_join_wwn(const char *vendor_id, const struct raidtool_osdev *devs,
			      size_t nr);

/*
 * The block devices under sysroot ("/sys" live, a tree in tests) with a WWN
 * (block/NAME/device/wwid, device/wwn or wwid). *devs and each name/wwn are
 * allocated; free with raidtool_osdevs_free().
 */
int raidtool_osdevs_from_sysfs(const char *sysroot, struct raidtool_osdev **devs, size_t *nr);
void raidtool_osdevs_free(struct raidtool_osdev *devs, size_t nr);

/*
 * Moves src into dst, joining what both describe: a controller with the same
 * source and id, an array with the same id, a drive with the same address
 * gain the fields dst lacks. src is left empty (release it as usual).
 */
int raidtool_merge(struct inventory *dst, struct inventory *src);

#endif
