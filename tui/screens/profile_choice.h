/*
 * profile_choice.h - the profile chosen for the run and the knobs set on
 * it, kept consistent with app->profile: its name, the job file the run
 * reads, and the overrides (owned strings in override_store[]).
 *
 * How overrides reach the run: fio's command-line options are only
 * defaults under a job file, so app->profile.path points at an edited copy
 * of the profile in which they apply to every job (core/profile_edit.h);
 * app->profile.overrides still lists them (app_run_start passes them as
 * defaults too, which changes nothing). Every change is checked by the
 * real parser before app->profile changes.
 *
 * UI thread only; draws nothing.
 */
#ifndef RB_PROFILE_CHOICE_H
#define RB_PROFILE_CHOICE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "profile_set.h"
#include "tui.h"

struct profile_choice {
	char base_name[128];		/* "oltp"; "default" when nothing is chosen */
	char base_path[PATH_MAX];	/* the profile's own file */
	char edited_path[PATH_MAX];	/* the copy with the overrides, "" = none yet */
	bool implicit;			/* nothing chosen: the run takes the default */
	struct profile_info eff;	/* its jobs as the run will read them */
	char *cmdline;			/* the equivalent fio command line */
	char error[768];		/* why it does not parse, "" when it does */
};

void profile_choice_release(struct profile_choice *c);

/*
 * The run's command-line defaults, which app_run_start uses too: the target
 * (the scratch file, with its size, when none is chosen) and the run length
 * on screen, 5 s per phase unless the profile or a knob says else. Fills at
 * most 4 entries; the values live in app. Returns the count.
 */
size_t profile_choice_run_opts(struct app *app, struct cmd_opt *o);

/* Follows app->profile (the default profile of set when none); re-parses when it changed or force. */
void profile_choice_sync(struct profile_choice *c, struct app *app, const struct profile_set *set,
			 bool force);

/* Chooses p for the run: app->profile becomes p, without overrides. */
void profile_choice_choose(struct profile_choice *c, struct app *app,
			   const struct profile_set *set, const struct profile_info *p);

/* app->profile's override of key (a fio option name), NULL when not set. */
const char *profile_choice_override(const struct app *app, const char *key);

/* The profile's own values of knob k (enum knob_id) over its jobs: "1m/4k". */
void profile_choice_knob_values(const struct profile_choice *c, int k, char *buf, size_t len);

/*
 * Sets knob k to value ("" = the profile's own). 0, or -EINVAL/-errno with
 * err holding the parser's message; nothing changes then.
 */
int profile_choice_set_knob(struct profile_choice *c, struct app *app, int k, const char *value,
			    char *err, size_t errlen);

/*
 * Saves the chosen profile with its overrides as the user profile name
 * (never over an existing user or built-in profile). 0, or -errno with err
 * set. The caller lists the profiles again and chooses the new one.
 */
int profile_choice_save(struct profile_choice *c, struct app *app, const struct profile_set *set,
			const char *name, char *err, size_t errlen);

#endif
