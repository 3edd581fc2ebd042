/*
 * units.h - internals of the fio option parser, shared by its three files
 * and by nothing else:
 *
 *   core/units.c    the value grammar: sizes, times, numbers, per-direction
 *                   lists, bssplit, float lists, CPU and node lists, paths
 *   core/job.c      the option table: what each option does to a job
 *   core/options.c  job files, command line, [global], include, groups
 *
 * Value parsers take one already-trimmed value and return 0 or -EINVAL.
 * The ones whose failure has several causes also write why into a caller
 * buffer (why may be NULL); the simple ones leave the wording to the caller,
 * which knows the option name and the value.
 */
#ifndef RB_UNITS_H
#define RB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include "job.h"

#define UNITS_SIZE_HINT "a size such as 4k, 1m, 512"
#define UNITS_PCT_HINT "a size such as 4k, 1m, 512, or a percentage such as 20%"
#define UNITS_TIME_HINT "a whole number with an optional unit us, ms, s, m, h or d"

/* snprintf into buf (when buf is not NULL) and return -EINVAL. */
int units_errf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A size with fio's units under kb_base. With percent non-NULL a trailing
 * '%' is allowed: then *percent gets the number and *out 0; otherwise
 * *percent is set to 0. With percent NULL, '%' is an error.
 */
int units_size(const char *s, unsigned kb_base, uint64_t *out, unsigned *percent);
int units_time_us(const char *s, uint64_t default_unit_us, uint64_t *out);
/* Cuts blanks off both ends of s in place; returns where it now starts. */
char *units_trim(char *s);
/* A plain signed integer, decimal or 0x hex, no unit. */
int units_int(const char *s, long long *out);
int units_float(const char *s, double *out);
/* "0" or "1", fio's boolean values. */
int units_bool(const char *s, bool *out);

/* "read", "write", "trim" */
const char *units_ddir_name(int d);

/*
 * Splits a per-direction value in place (s is modified) the way fio does:
 * "r,w,t"; the last value given also covers the directions after it; an
 * empty value leaves its direction alone ("bs=,8k"); a trailing comma stops
 * the propagation ("bs=4k," sets read only). Unless commas_only, ':' and
 * '-' separate too when the rest holds no comma: fio 3.33 reads bs=4k-16k
 * as read 4k, write and trim 16k. part[d] is NULL for an untouched
 * direction; at least one is set on success.
 */
int units_ddir_split(char *s, bool commas_only, char *part[DDIR_RWDIR_CNT],
		     char *why, size_t whylen);

/*
 * One direction of bssplit ("4k/10:64k/50:32k/40"), s modified. Blank
 * percentages share what is left; the result totals 100 and is sorted by
 * percentage, as fio sorts it.
 */
int units_bssplit(char *s, unsigned kb_base, struct bssplit_entry *out,
		  unsigned *nr, char *why, size_t whylen);

/* A whole bssplit value: per-direction lists separated by commas only. */
int units_bssplit_ddir(const char *s, unsigned kb_base,
		       struct bssplit_entry out[DDIR_RWDIR_CNT][RB_MAX_BSSPLIT],
		       unsigned nr[DDIR_RWDIR_CNT], bool got[DDIR_RWDIR_CNT],
		       char *why, size_t whylen);

/* percentile_list: ':'-separated, 0 < p <= 100, sorted ascending. */
int units_percentiles(const char *s, double *out, unsigned max, unsigned *nr,
		      char *why, size_t whylen);

/* cpus_allowed: "0,5,8-15". */
int units_cpu_list(const char *s, cpu_set_t *set, char *why, size_t whylen);

/* A libnuma node string: "all", or "0,2-3" with an optional '!' or '+'. */
int units_node_list(const char *s);

/*
 * filename=/directory= lists: ':'-separated, "\:" is a literal colon, empty
 * entries skipped. *out is a NULL-terminated array the caller frees with
 * units_list_free. -EINVAL when no entry remains, -E2BIG past
 * UNITS_MAX_PATHS entries (empty ones counted), -ENOMEM.
 */
#define UNITS_MAX_PATHS 65536
int units_path_list(const char *s, char ***out, unsigned *nr);
void units_list_free(char **list);

/*
 * rw=: mode to RW_* bits, ":N" suffix to *nr: a size for sequential modes, a
 * count read as fio's atoi() for random ones ("randread:8k" is 8).
 */
int units_rw(const char *s, unsigned kb_base, unsigned *bits, unsigned *nr,
	     char *why, size_t whylen);
int units_verify(const char *s, enum verify_type *out, char *why, size_t whylen);
/* random_distribution=: zipf:theta, pareto:h, normal:sigma, each [:center]. */
int units_distribution(const char *s, enum rand_dist *dist, double *param,
		       double *center, char *why, size_t whylen);
/* numa_mem_policy=: validated only, as fio's rules (no libnuma needed). */
int units_mem_policy(const char *s, char *why, size_t whylen);
/* "min-max" or "min:max", swapped when given the wrong way round. */
int units_range(const char *s, unsigned kb_base, uint64_t *lo, uint64_t *hi);

/* ---- the option table (core/job.c) ---------------------------------- */

/*
 * A job or a [global] section under construction: the spec, plus which
 * options were given, because some of fio's fixups depend on whether an
 * option was set at all (iodepth_low, refill_buffers with verify, ...).
 */
#define JOB_OPT_SLOTS 320

struct job_draft {
	struct job_spec spec;
	bool set[JOB_OPT_SLOTS];	/* by option table index */
	bool bare_log[3];		/* write_{bw,lat,iops}_log given without a prefix */
	/*
	 * As fio's min_bs/max_bs: the bounds bsrange= or bssplit= set (the later
	 * of the two), 0 where neither was given. bs= stays apart in spec.bs, so
	 * the order of the three does not matter: job_draft_finish takes a
	 * direction's sizes from its bounds, from bs= only where there are none.
	 */
	uint64_t bs_lo[DDIR_RWDIR_CNT], bs_hi[DDIR_RWDIR_CNT];
};

void job_draft_init(struct job_draft *d);
int job_draft_copy(struct job_draft *dst, const struct job_draft *src);
void job_draft_release(struct job_draft *d);

/*
 * Applies one option (value NULL for a bare flag). Returns -ENOENT without
 * a message when key is not in the table (the caller words that, it knows
 * fio's other names); otherwise 0, -ENOMEM, or -EINVAL with why set to
 * "option 'bs': bad size 'x4k' (...)".
 */
int job_draft_set(struct job_draft *d, const char *key, const char *value,
		  char *why, size_t whylen);

/* fio's cross-option fixups and checks, once all options are in. */
int job_draft_finish(struct job_draft *d, char *why, size_t whylen);

int job_opt_count(void);
const char *job_opt_name(int idx);
const char *job_opt_alias(int idx);	/* NULL when none */
int job_opt_find(const char *key);	/* table index or -1 */
/* What differs from fio when key is given value (NULL: nothing worth a note). */
const char *job_opt_note(const char *key, const char *value);
/* true for options fio parses before the others of their section (kb_base) */
bool job_opt_early(int idx);
bool job_opt_bare(int idx);	/* may stand alone as a flag */

#endif
