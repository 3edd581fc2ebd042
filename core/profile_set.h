/*
 * profile_set.h - the one catalog of test profiles, with what each one runs:
 * built-in profiles ($RAIDBENCH_PROFILE_DIR, else profiles/ next to the
 * binary in a build tree, else RB_DATADIR/profiles) and the user's own
 * ($XDG_CONFIG_HOME/raidbench/profiles, else ~/.config/raidbench/profiles).
 * A user profile wins over a built-in one of the same name, as for
 * `raidbench profiles`.
 *
 * No curses, never prints: a profile that does not parse keeps the parser's
 * one-line error for the screen to show.
 */
#ifndef RB_PROFILE_SET_H
#define RB_PROFILE_SET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "job.h"
#include "options.h"

/* One job of a profile as the Profiles screen lists it. */
struct profile_job {
	char name[64];
	char desc[160];
	char rw[16];		/* "randread" */
	char bs[32];		/* "4k", "4k-64k", "bssplit" */
	unsigned iodepth;	/* as written */
	unsigned depth;		/* what runs: 1 on a synchronous engine, whatever iodepth says */
	unsigned numjobs;
	unsigned rwmixread;
	bool mixed;		/* reads and writes: rwmixread applies */
	char runtime[40];	/* "5s", "2s, time_based", "none" */
	char size[24];		/* "64m", "device" */
	int groupid;		/* phase - 1 */
};

struct profile_info {
	char name[128];
	char path[PATH_MAX];
	bool user;
	char summary[256];	/* the file's first comment line */
	struct profile_job *jobs;
	size_t nr_jobs;
	size_t nr_phases;
	char error[512];	/* why it does not parse, "" when it does */
};

struct profile_set {
	struct profile_info *p;
	size_t nr;
};

/* The directories; user_dir is -ENOENT when neither XDG_CONFIG_HOME nor HOME is set. */
void profile_builtin_dir(char *buf, size_t len);
int profile_user_dir(char *buf, size_t len);

/*
 * Lists every profile (name, path, user or built-in), sorted by name, without
 * parsing any. 0; -ENOMEM (s empty); or -errno of a directory that could not
 * be read, with s holding the other's profiles and err saying "dir: why".
 */
int profile_set_list(struct profile_set *s, char *err, size_t errlen);
/*
 * Lists and parses every profile, sorted by name, each parsed with opts as
 * the run's command-line defaults (the target). 0 or -ENOMEM; a profile that
 * does not parse is listed with its error.
 */
int profile_set_load(struct profile_set *s, const struct cmd_opt *opts, size_t nr_opts);
void profile_set_release(struct profile_set *s);
/* Index of the profile called name, or -1. */
int profile_set_find(const struct profile_set *s, const char *name);

/* The first comment line of a job file, without ';' or '#' ("" when none). */
void profile_summary(const char *path, char *buf, size_t len);
/* Fills p->jobs and p->nr_phases from a parsed job list. 0 or -ENOMEM. */
int profile_info_fill(struct profile_info *p, const struct job_list *jl);
void profile_info_release(struct profile_info *p);

/* A parser message that starts with path gets the file's name instead: "oops.fio:5: ...". */
void profile_error_shorten(char *err, const char *path);

/* fio's words for a job's pattern and sizes: "randrw", "1m", "128k", "512". */
void profile_fmt_rw(char *buf, size_t len, unsigned rw);
void profile_fmt_bytes(char *buf, size_t len, unsigned long long v);

#endif
