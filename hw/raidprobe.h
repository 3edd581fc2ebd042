/*
 * raidprobe.h - the live read of every vendor tool on PATH as background
 * probes: one thread per tool, all at once, each under one overall timeout,
 * each cancellable, each with a state a front end can show while it waits
 * ("ssacli: probing... 12 s", "storcli: timed out after 30 s").
 *
 * Threading contract: a probe set has one owner thread (the UI thread, the
 * CLI's main thread) that calls every function below; the tool threads only
 * touch their own slot, under the set's lock. No function here waits on a
 * child process except raidprobe_wait() and raidprobe_free(), and those only
 * as long as they are told. Tool threads block every signal, so the owner
 * gets SIGINT and friends. Nothing here prints.
 */
#ifndef RB_RAIDPROBE_H
#define RB_RAIDPROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "inventory.h"

/* A listing's default overall timeout per tool (array changes keep raidtool's own). */
#define RAIDPROBE_DEFAULT_TIMEOUT_MS 60000

enum raidprobe_state {
	RAIDPROBE_RUNNING = 0,
	RAIDPROBE_DONE,		/* it answered; its controllers are in the inventory */
	RAIDPROBE_FAILED,	/* it ran and failed, or could not run: msg says why */
	RAIDPROBE_TIMED_OUT,	/* killed with its process group at the timeout */
	RAIDPROBE_CANCELLED,	/* killed with its process group on request */
};

/* What the owner sees of one tool: a copy, taken under the lock. */
struct raidprobe_tool {
	const char *name;		/* "ssacli": static, from the tool's ops table */
	enum raidprobe_state state;
	long long elapsed_ms;		/* so far while running, else how long it took */
	int timeout_ms;
	char msg[512];			/* the failure in the tool's words, "" otherwise */
};

struct raidprobe;

/*
 * Starts one probe per vendor tool found on PATH (MegaCli only when no
 * storcli/perccli is there) and returns at once. base: the inventory
 * discovery built, for the WWN join of logical drives to block devices (read
 * now, not kept). timeout_ms <= 0: RAIDBENCH_TOOL_TIMEOUT, else
 * RAIDPROBE_DEFAULT_TIMEOUT_MS. NULL with err filled when out of memory or a
 * thread cannot start (the tools that did start are cancelled). Free with
 * raidprobe_free().
 */
struct raidprobe *raidprobe_start(const struct inventory *base, int timeout_ms, char *err,
				  size_t errlen);

/* How many tools it probes (0 when none is on PATH). */
size_t raidprobe_count(const struct raidprobe *p);

/* Tool i's state now. */
void raidprobe_tool(struct raidprobe *p, size_t i, struct raidprobe_tool *out);

/* True while any tool is still running. */
bool raidprobe_busy(struct raidprobe *p);

/*
 * Moves the results of the tools that ended since the last call into inv:
 * a tool's controllers when it answered, a note when it did not. Returns
 * how many tools ended since the last call (so the caller knows to redo
 * what depends on the inventory, e.g. discover_join_vendor()).
 */
size_t raidprobe_collect(struct raidprobe *p, struct inventory *inv);

/* Asks every running tool to stop; returns at once (they end within ~1 s). */
void raidprobe_cancel(struct raidprobe *p);

/* Waits up to ms for a tool to end; true when none is running any more. */
bool raidprobe_wait(struct raidprobe *p, int ms);

/*
 * Cancels what still runs, waits up to wait_ms for the tool threads to have
 * killed their tools, and lets go of the set: a tool thread still stuck
 * (a tool in uninterruptible sleep) frees it when it ends. NULL is allowed.
 */
void raidprobe_free(struct raidprobe *p, int wait_ms);

/*
 * Waits up to wait_ms until no tool thread of any set runs (a set let go of
 * with raidprobe_free() was cancelled, so its tools are being killed): what
 * a process calls before it exits. True when none runs.
 */
bool raidprobe_settle(int wait_ms);

/* "running" "done" "failed" "timed out" "cancelled" */
const char *raidprobe_state_name(enum raidprobe_state s);

/*
 * One line for a person: "ssacli: probing... 12 s (timeout 60 s)", "ssacli: done (3 s)",
 * "storcli: timed out after 30 s", "storcli: failed: <reason>",
 * "ssacli: cancelled". ascii: "..." instead of an ellipsis.
 */
void raidprobe_describe(const struct raidprobe_tool *t, bool ascii, char *buf, size_t len);

#endif
