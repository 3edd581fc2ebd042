/*
 * sweep.h - the RAID-level sweep: for each level, create an array over the
 * same drives (hw/array.h through the vendor tool), wait for its parity
 * initialization (or measure while it runs and say so), run a profile on
 * the new logical drive's OS device, save the result tagged with level,
 * strip size and drive count, delete the array; then a comparison with the
 * textbook estimate (raid_estimate.h) next to each measurement.
 *
 * Shared by `raidbench sweep` (tui/cli/cmd_sweep.c) and the TUI's sweep screen.
 * No curses and no stdout/stderr: everything that happens is reported
 * through the progress callback, failures as -errno plus a message.
 *
 * Safety: nothing runs without plan->yes. The only device written is the
 * OS device of a logical drive this sweep just created, given to the write
 * guard as consent; a guard verdict of "never" (mounted, swap, root) stops
 * the sweep. Every array the sweep creates is written to a journal
 * ($XDG_STATE_HOME/raidbench/sweep.json, default
 * ~/.local/state/raidbench/sweep.json) before the tool is asked and removed
 * only once the tool no longer shows it, so after a quit, a crash or a
 * failed step sweep_pending() names exactly those arrays and
 * sweep_cleanup() deletes exactly those: an array is deleted only when its
 * controller, logical drive and member drives all match the journal.
 *
 * Threading contract: sweep_run() and sweep_cleanup() block for the whole
 * sweep (minutes): a UI calls them from a thread of its own. Callbacks and
 * the run observer are called on that thread; they must not call curses
 * if it is not the UI thread. *interrupt may be set from any thread or a
 * signal handler: the current step ends (a vendor command is never cut
 * short), the array is deleted, and sweep_run() returns -EINTR.
 */
#ifndef RB_SWEEP_H
#define RB_SWEEP_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "raid_estimate.h"

struct run_observer;
struct run_params;
struct run_result;
struct job_list;

struct sweep_plan {
	const char *tool;		/* "ssacli", "storcli", "mdadm", or the binary's path */
	const char *controller;		/* "slot=0"/"0", "/c0"/"0"; NULL: the tool's only one */
	char **drives;			/* "1I:0:5", "252:3", "/dev/sdb" */
	size_t nr_drives;
	char **levels;			/* "0" "1" "5" "10" ... (vendor spellings are normalized) */
	size_t nr_levels;
	int64_t strip_bytes;		/* < 0: the tool's default */
	const char *profile;		/* a profile name (raidbench profiles) or a job file path */
	unsigned runtime_s;		/* each phase runs this long, time_based; 0 = 30 */
	const char *size;		/* region per phase ("1g"); NULL = the whole logical drive */
	bool wait_init;			/* wait for parity initialization before measuring */
	unsigned init_timeout_s;	/* give up waiting after this; 0 = 24 hours */
	unsigned poll_ms;		/* status re-read interval while waiting; 0 = 2000 */
	int tool_timeout_ms;		/* per vendor command; <= 0 = raidtool's default */
	bool yes;			/* consent: the drives' contents are destroyed */
};

enum sweep_event_kind {
	SWEEP_EV_LEVEL_START,		/* level, index, count */
	SWEEP_EV_CREATED,		/* level, command, ld, os_device */
	SWEEP_EV_INIT_WAIT,		/* level, ld, progress_pct (< 0 unknown), message */
	SWEEP_EV_RUN_START,		/* level, os_device, message = the profile's path */
	SWEEP_EV_RUN_DONE,		/* level, result_path ("" when nothing was saved) */
	SWEEP_EV_DELETED,		/* level, command, ld */
	SWEEP_EV_NOTE,			/* message: something worth knowing, not a failure */
	SWEEP_EV_ERROR,			/* level (NULL when not about one), message */
	SWEEP_EV_DONE,			/* message: the one-line verdict */
};

/* Valid during the callback only: copy what you keep. Unused strings are NULL. */
struct sweep_event {
	enum sweep_event_kind kind;
	size_t index;			/* the level's position in plan->levels */
	size_t count;			/* plan->nr_levels */
	const char *level;
	const char *command;		/* the exact vendor command line that ran */
	const char *ld;			/* the tool's id of the logical drive ("1", "0", "md0") */
	const char *os_device;
	const char *result_path;
	const char *message;
	double progress_pct;
};

struct sweep_callbacks {
	void (*progress)(void *arg, const struct sweep_event *ev);
	void *arg;
	const struct run_observer *observer;	/* live records of each run; NULL = none */
	volatile sig_atomic_t *interrupt;	/* set to stop; NULL = never */
	/*
	 * Runs one level's jobs as run_jobs() does (NULL: run_jobs itself); the
	 * sweep screen's lets the UI thread drain the run's ring.
	 */
	int (*run)(void *arg, const struct job_list *jl, const struct run_params *p,
		   struct run_result *res, char *err, size_t errlen);
};

/* One phase of one level's result, one direction. */
struct sweep_phase {
	char name[64];			/* the job name */
	int ddir;			/* DDIR_READ, DDIR_WRITE */
	bool sequential;
	double iops;
	double bw_bytes;		/* per second */
	double p99_ns;			/* completion latency; < 0 unknown */
	double estimate_x;		/* textbook multiple of one drive; 0 unknown */
};

enum sweep_level_state {
	SWEEP_PLANNED,			/* not reached (or sweep_preview) */
	SWEEP_MEASURED,			/* measured and saved */
	SWEEP_REFUSED,			/* the level could not be created; nothing changed */
	SWEEP_FAILED,			/* a step failed after the create */
	SWEEP_INTERRUPTED,
};

struct sweep_level {
	char level[16];			/* normalized */
	enum sweep_level_state state;
	char *command;			/* the create command line (owned); NULL when refused */
	char *warnings;			/* what validation says will be lost, one per line; NULL none */
	char ld[64];			/* the logical drive it became */
	char os_device[128];
	int64_t strip_bytes;		/* as the tool reports it; < 0 unknown */
	int64_t size_bytes;
	unsigned drives;
	bool initializing;		/* measured while parity initialization ran */
	char result_path[PATH_MAX];	/* "" when nothing was saved */
	struct raid_estimate est;	/* est.tolerance says why when the level cannot be */
	struct sweep_phase *phases;
	size_t nr_phases;
	char error[512];		/* what went wrong, "" when nothing did */
};

struct sweep_report {
	struct sweep_level *levels;	/* one per plan->levels, in order */
	size_t nr_levels;
	int64_t drive_bytes;		/* the smallest member, < 0 unknown */
	char tool[32];			/* "ssacli" */
	char controller[64];		/* the tool's id ("slot=255", "/c0"); "" for md */
	bool started;			/* a vendor command that changes something was run */
};

/*
 * What the sweep would do, without changing anything: reads the tool's
 * configuration and validates every level against it; each level gets its
 * create command or its refusal (error), and its estimate. Returns 0 when
 * every level can be created, -EINVAL when some cannot (see the levels),
 * or another -errno with err set when nothing could be checked (tool
 * missing, controller unknown). Release report with sweep_report_release().
 */
int sweep_preview(const struct sweep_plan *plan, struct sweep_report *report, char *err,
		  size_t errlen);

/*
 * Runs the sweep. Refuses (-EPERM) without plan->yes, (-EBUSY) while the
 * journal still holds arrays of an earlier sweep (sweep_cleanup first) and
 * (-EINVAL) when a level fails validation: nothing runs then. A level the
 * tool itself refuses is skipped (nothing to delete); any other failure
 * deletes the array of that level and stops. Results saved before a failure
 * are kept. Returns 0 when every level was measured, -EINTR when
 * interrupted, else the first failure with err set; report (may be NULL) is
 * filled either way. An array that could not be deleted stays in the
 * journal and the error says so. The refusals before anything runs come
 * back only as the return value (report->started is false then); each
 * failed level is also an SWEEP_EV_ERROR event, and SWEEP_EV_DONE ends
 * every sweep that got past them.
 */
int sweep_run(const struct sweep_plan *plan, const struct sweep_callbacks *cb,
	      struct sweep_report *report, char *err, size_t errlen);

void sweep_report_release(struct sweep_report *report);

/* ---- the journal: arrays a sweep created and has not deleted ---------------- */

struct sweep_pending_array {
	char id[48];			/* the journal's own key */
	char tool[32];			/* "ssacli" */
	char bin[PATH_MAX];		/* the binary that created it */
	char controller[64];		/* the tool's controller id; "" for md */
	char ld[64];			/* "" when the sweep stopped before learning it */
	char level[16];
	char os_device[128];
	char uid[80];			/* the tool's identity of the logical drive; "" unknown */
	char **drives;			/* its member drives */
	size_t nr_drives;
	char state[16];			/* "creating", "created", "deleting" */
	long pid;			/* the sweep that wrote it */
	char time[32];			/* when, local ISO 8601 */
};

/* $XDG_STATE_HOME/raidbench/sweep.json (default ~/.local/state/...). 0 or -ENOENT. */
int sweep_journal_path(char *buf, size_t len);

/* The journal's arrays (none: 0 with *nr 0). Free with sweep_pending_free(). */
int sweep_pending(struct sweep_pending_array **out, size_t *nr, char *err, size_t errlen);
void sweep_pending_free(struct sweep_pending_array *p, size_t nr);

/*
 * Deletes exactly the journal's arrays and clears them from it: each is
 * deleted only when the tool shows it with the recorded controller, logical
 * drive (when known) and member drives; one the tool no longer shows is
 * just cleared (SWEEP_EV_NOTE); one whose members differ, or whose sweep is
 * still running, is left alone and reported. Needs yes (-EPERM otherwise).
 * 0 when the journal ends empty, else the first failure with err set.
 * Events: SWEEP_EV_DELETED, SWEEP_EV_NOTE, SWEEP_EV_ERROR, SWEEP_EV_DONE.
 */
int sweep_cleanup(bool yes, const struct sweep_callbacks *cb, char *err, size_t errlen);

#endif
