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

struct raid_tool_ops {
	const char *name;		/* "ssacli" | "storcli" | "megacli" | "mdadm" */
	const char *const *binaries;	/* NULL-terminated, looked for on PATH in order */
	/* Runs the listing commands of the tool at bin and parses them into inv. */
	int (*read)(const char *bin, struct inventory *inv, const struct raidtool_src *src,
		    const struct raidtool_ctl *ctl, char *err, size_t errlen);
	/* Parses one output (any of the listing commands) into inv. */
	int (*parse)(struct inventory *inv, const char *text, const struct raidtool_src *src,
		     char *err, size_t errlen);
	/* "0", "slot=0", "/c0" -> the id the parser gives the controller. NULL = no controllers. */
	int (*controller_id)(const char *user, char *buf, size_t len);
	/* Levels it can build, normalized ("0" "1" "10" ...); NULL = read-only tool. */
	const char *const *levels;
	/* Appends the arguments (after the binary) of a validated change to av. */
	int (*build)(const struct array_op *op, const struct inventory *inv,
		     struct raidtool_argv *av, char *err, size_t errlen);
	/* 0 when a change's run succeeded; else -EIO and the vendor's words in err. */
	int (*check)(const struct raidtool_run *run, char *err, size_t errlen);
};

extern const struct raid_tool_ops raidtool_ssacli;
extern const struct raid_tool_ops raidtool_storcli;
extern const struct raid_tool_ops raidtool_megacli;
extern const struct raid_tool_ops raidtool_mdadm;

/* The registry, NULL-terminated, in the order the live read asks them. */
const struct raid_tool_ops *const *raidtool_all(void);

/* By name: "ssacli", "hpssacli", "storcli", "perccli", "storcli64", "megacli", "mdadm". */
const struct raid_tool_ops *raidtool_by_name(const char *name);

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
 * Builds the inventory from a captured output: tool is "ssacli", "storcli",
 * "megacli", "mdstat" or "mdadm-detail" (what `raidbench devices --import
 * TOOL:FILE` takes). On failure inv is unchanged and err names the tool, the
 * file and the line. Several imports into one inventory join up: the three
 * storcli outputs of one controller become one controller.
 */
int raidtool_import(struct inventory *inv, const char *tool, const char *file, char *err,
		    size_t errlen);

/* The TOOL names raidtool_import() accepts, NULL-terminated. */
const char *const *raidtool_import_names(void);

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
