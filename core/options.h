/*
 * options.h - fio's job grammar: job files (ini, [global], include, ${VAR},
 * inline comments) and fio-style command-line options, into a struct
 * job_list. Units, per-direction lists, bssplit and fio's quirks follow
 * ../shared/reference/fio.md section 1.
 *
 * Nothing here does I/O besides reading job files.
 */
#ifndef RB_OPTIONS_H
#define RB_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "job.h"

/*
 * A job option given on the command line, in order. "--name=x" starts a new
 * job; options before the first --name are global defaults under the first
 * job file. value is NULL for a bare flag ("--time_based").
 */
struct cmd_opt {
	const char *key;
	const char *value;
};

/*
 * Builds the job list from command-line job options and job files, assigns
 * groups (stonewall, new_group, implicit stonewall between files) and
 * validates every value. On error returns -EINVAL (or -ENOENT for a missing
 * file/include) with err holding one line: "FILE:LINE: option 'bs': bad
 * value 'x4k' (a size such as 4k, 1m, 512)". Nothing is left allocated then.
 */
int jobs_load(struct job_list *jl, const struct cmd_opt *opts, size_t nr_opts,
	      char *const *files, size_t nr_files, char *err, size_t errlen);
/*
 * The same, with options that win over every job's own (a profile's values
 * give way to what the user asked for: target, run length, knobs). They are
 * applied after each job's options; the job list's options name them among
 * the globals, and again in a job that sets the same option itself, so
 * jobs_to_cmdline() stays a faithful fio command line.
 */
int jobs_load_over(struct job_list *jl, const struct cmd_opt *opts, size_t nr_opts,
		   char *const *files, size_t nr_files, const struct cmd_opt *over,
		   size_t nr_over, char *err, size_t errlen);

/* true when key is a job option this parser knows (for the CLI's own options). */
bool option_is_job_option(const char *key);
/* true when key is a job option that cannot stand alone: "--bs 4k" takes the next word, as fio. */
bool option_needs_value(const char *key);

/* Parses a size with fio's units under kb_base (1024 or 1000). 0 or -EINVAL. */
int parse_size(const char *s, unsigned kb_base, uint64_t *out);
/* Parses a time; default_unit_us is the unit of a bare number (1000000 for s). */
int parse_time_us(const char *s, uint64_t default_unit_us, uint64_t *out);

/*
 * Where raidbench's effect differs from fio's for the options the job list
 * uses: one line each, "job 'x': option 'gtod_reduce': ...", "" when none
 * (caller frees; NULL on ENOMEM).
 */
char *jobs_notes(const struct job_list *jl);

/* fio --showcmd: the equivalent command line of a job list (caller frees). */
char *jobs_to_cmdline(const struct job_list *jl);

#endif
