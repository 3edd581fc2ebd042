/*
 * job_cmd.h - exec_prerun= and exec_postrun=: a job's shell command before
 * its I/O and after it, as fio 3.33 runs them. Never prints.
 *
 * Threading contract: job_cmd_check() on the setup thread, job_cmd_run() on
 * the job's worker thread; stop is the worker's flag, set by any thread.
 */
#ifndef RB_JOB_CMD_H
#define RB_JOB_CMD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "guard.h"
#include "job.h"

/*
 * At setup: the output files JOBNAME.prerun.txt / JOBNAME.postrun.txt the
 * job's commands will write pass the write guard. 0, or -EPERM with err
 * holding the refusal.
 */
int job_cmd_check(const struct job_spec *job, const struct guard_consent *consent, char *err,
		  size_t errlen);

/*
 * Runs the job's exec_prerun (post false) or exec_postrun through /bin/sh -c
 * with stdin from /dev/null and stdout and stderr to JOBNAME.prerun.txt /
 * JOBNAME.postrun.txt (created or truncated through the guard), and waits
 * for it; a stop while it runs ends its process group. 0 when it exited
 * with status 0 (or the job has no such command); else -errno with msg
 * naming the job, the option, the command and what happened.
 */
int job_cmd_run(const struct job_spec *job, bool post, const struct guard_consent *consent,
		const _Atomic bool *stop, char *msg, size_t msglen);

#endif
