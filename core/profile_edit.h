/*
 * profile_edit.h - the common knobs of a profile (pattern, block size, read
 * mix, queue depth, jobs, runtime, size) applied over every job of it.
 *
 * Why a new job file and not command-line options: options given before the
 * job file are only defaults under it (fio's rule), so "--bs=64k" does not
 * change a job that says bs=1m. The edited profile is therefore the
 * original text with each overridden line commented out and the overrides
 * in a [global] section placed first, so they reach every job. The same
 * text, with a comment block naming the overrides, is what "save as a user
 * profile" writes. Limits: an `include` with a relative path would resolve
 * against the new file's directory.
 *
 * No curses, never prints; failures are -errno plus one line in err.
 */
#ifndef RB_PROFILE_EDIT_H
#define RB_PROFILE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "options.h"

enum knob_id {
	KNOB_RW,
	KNOB_BS,
	KNOB_RWMIX,
	KNOB_IODEPTH,
	KNOB_NUMJOBS,
	KNOB_RUNTIME,
	KNOB_SIZE,
	KNOB_COUNT,
};

struct knob {
	const char *key;	/* fio's option: "bs" */
	const char *label;	/* "block size" */
	const char *example;	/* "4k, 64k, 1m" */
	/* fio's other names of this option and options it replaces (bssplit for bs) */
	const char *const *drops;
};

extern const struct knob profile_knobs[KNOB_COUNT];

/*
 * The text of the profile at path with the overrides applied to every job;
 * header, when not NULL, becomes its first comment line (the summary a
 * listing shows). Caller frees. NULL with err set when path cannot be read.
 */
char *profile_edit_text(const char *path, const char *header, const struct cmd_opt *ov,
			size_t nr_ov, char *err, size_t errlen);

/*
 * Checks that text parses as the run would read it (run_opts first, as the
 * run's command-line defaults) and only then writes it to path, through a
 * temporary file in the same directory (created if missing). 0, -EINVAL
 * with err holding the parser's message without the file and line, or
 * -errno.
 */
int profile_edit_write(const char *text, const char *path, const struct cmd_opt *run_opts,
		       size_t nr_run, char *err, size_t errlen);

/* $XDG_CACHE_HOME/raidbench/profiles/NAME-edited.fio (the run's copy). 0 or -ENOENT. */
int profile_edit_cache_path(char *buf, size_t len, const char *name);

/* A user profile name: letters, digits, '-', '_', '.', not starting with '.' or '-'. */
bool profile_name_ok(const char *name);

/* A knob value: printable, no ';', '#', '=', '[' or spaces. */
bool profile_value_ok(const char *value);

#endif
