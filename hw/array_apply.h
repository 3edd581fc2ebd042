/*
 * array_apply.h - array changes and status reads for the TUI's Array
 * builder and RAID sweep screens, run off the UI thread so the screen keeps
 * drawing while a vendor tool takes its seconds (or its minutes).
 *
 * A job is a short list of validated changes (hw/array.h ops whose argv the
 * UI thread already built and showed) followed by a re-read of the tool's
 * configuration. It runs them in order the way `raidbench array` does
 * (tui/cli/cmd_array.c): raidtool_exec, the tool's own verdict (ops->check), and
 * for ssacli's spares of a new array a second command validated again
 * against the state re-read. The first failure stops the job with the
 * vendor's words. A job with no changes is just a status read (progress of
 * parity initialization, rebuild, transformation, erase).
 *
 * Threading contract: the UI thread fills the job, calls array_job_start()
 * and then only calls array_job_done() until it returns true; after that
 * the UI thread owns every field again (array_job_release() joins). The
 * worker thread touches nothing but the job: no curses, no struct app.
 * The done flag's release store (worker) pairs with the acquire load in
 * array_job_done(). Forking from the worker is safe: the child only execs.
 */
#ifndef RB_ARRAY_APPLY_H
#define RB_ARRAY_APPLY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "array.h"
#include "inventory.h"
#include "raidtool.h"

#define ARRAY_JOB_MAX_STEPS 16

/* One change: an op whose strings the step owns, and its argv. */
struct array_step {
	struct array_op op;
	struct raidtool_argv av;	/* empty for a follow-up built in the worker */
	char *line;			/* av as one line, for the screen */
	bool followup;			/* ssacli spares of a new array: validated after the create */
	char *store[8];			/* owned strings behind op */
};

struct array_job {
	/* input: set by the UI thread before array_job_start() */
	const struct raid_tool_ops *ops;
	char bin[4096];
	struct array_step steps[ARRAY_JOB_MAX_STEPS];
	size_t nr_steps;
	int timeout_ms;			/* <= 0: the tools' default */
	/* output: the worker's, read after array_job_done() */
	int ret;			/* 0, or the first failure (-errno) */
	size_t failed_step;		/* which step failed, when ret != 0 && ran */
	bool ran;			/* a change was attempted (ret may still be 0) */
	char err[2048];			/* the vendor's words, or why nothing ran */
	const char *hint;		/* array_hint() for err, NULL when none */
	char notes[1024];		/* what the tool printed on success (mdadm's stderr) */
	struct inventory after;		/* the tool's configuration afterwards */
	bool have_after;
	char read_err[1024];		/* why it could not be read back */
	/* private */
	pthread_t thread;
	bool started;
	atomic_bool done;
};

/* Zeroes job; set ops and bin (array_job_find_tool) next. */
void array_job_init(struct array_job *job);

/* Fills job->ops and job->bin from a tool name ("ssacli", "storcli", "mdadm"). 0 or -ENOENT. */
int array_job_find_tool(struct array_job *job, const char *tool, char *err, size_t errlen);

/*
 * Adds op (deep-copied) as the next step, with its argv built from plan
 * against inv (the tool's live configuration the op was validated
 * against). A create with ssacli spares also adds the follow-up step.
 * 0, or -errno with err saying why (array_build's words).
 */
int array_job_add(struct array_job *job, const struct array_op *op,
		  const struct array_plan *plan, const struct inventory *inv, char *err,
		  size_t errlen);

/* Starts the worker; sync runs it to the end before returning (screen tests). */
int array_job_start(struct array_job *job, bool sync);
/* true once the worker has finished (the outputs are then the UI thread's). */
bool array_job_done(struct array_job *job);
bool array_job_running(const struct array_job *job);
/* Joins the worker if one was started, frees everything; the job can be reused after init. */
void array_job_release(struct array_job *job);

/*
 * The tool's controller matching ctl (a controller of the TUI's inventory,
 * which discovery may have joined to its sysfs twin, renaming it): same
 * id, else same PCI address, serial or slot, else the only controller of
 * that tool. NULL when none matches.
 */
const struct inv_controller *array_find_controller(const struct inventory *tool_inv,
						   const char *tool,
						   const struct inv_controller *ctl);

#endif
