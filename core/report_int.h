/*
 * report_int.h - what the report writers (core/report_*.c) share: fio's
 * num2str, its distribution percentages, the percentile list of a job and
 * lookups into a struct run_report. Internal to the report_*.c files.
 */
#ifndef RB_REPORT_INT_H
#define RB_REPORT_INT_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "report.h"

/* fio's default significant figures (sig_figs=4) */
#define REPORT_SIG_FIGS 4
/* fio's default percentile_precision, the decimals of its default list */
#define REPORT_DEFAULT_PRECISION 2

enum report_unit {
	UNIT_NONE = 0,
	UNIT_PERSEC,
	UNIT_BYTE,
	UNIT_BIT,
	UNIT_BYTEPERSEC,
	UNIT_BITPERSEC,
};

/*
 * fio's num2str: num (times base) with at most maxlen digits plus a k/M/G
 * (pow2: Ki/Mi/Gi) prefix, e.g. "129MiB/s", "33.0k". Writes buf, returns it.
 */
char *report_num2str(char *buf, size_t len, uint64_t num, int maxlen, int base,
		     bool pow2, enum report_unit unit);

/* fio stat_calc_dist: percent per slot, a nonzero slot shown as at least 0.1. */
void report_depth_dist(const uint64_t *map, uint64_t total, double *out);

/* fio stat_calc_lat: percent of all I/Os, a nonzero bucket at least 0.01. */
void report_lat_dist(const struct thread_stat *ts, const uint64_t *src, unsigned nr,
		     double *out);

/* I/Os of all directions (fio ddir_rw_sum(total_io_u)), the % base above. */
uint64_t report_total_ios(const struct thread_stat *ts);

/* The job's percentile list sorted ascending (fio's default when unset). */
unsigned report_plist(const struct thread_stat *ts, double *out);
/* Decimals to print percentiles with, as fio's percentile_precision. */
unsigned report_plist_precision(const double *plist, unsigned nr);

/* Which histograms report percentiles; clat only without a job. */
bool report_clat_pct(const struct thread_stat *ts);
bool report_lat_pct(const struct thread_stat *ts);
bool report_slat_pct(const struct thread_stat *ts);

/* usr and sys CPU as % of job_runtime, 0 when it did not run. */
void report_cpu(const struct thread_stat *ts, double *usr, double *sys);

/* The ts's group totals, or NULL when the report has none for it. */
const struct group_stat *report_group(const struct run_report *r, int groupid);

/* fio 3.33 leaves bare flags (no value, or empty) out of "job options". */
static inline bool report_option_shown(const struct opt_kv *kv)
{
	return kv->key && kv->key[0] && kv->value && kv->value[0];
}

/*
 * The reports are read by scripts: numbers always with a '.', whatever
 * locale the program runs under (main() calls setlocale). Brackets a
 * writer's work on the calling thread only.
 */
struct report_locale {
	locale_t c;
	locale_t old;
};
void report_locale_enter(struct report_locale *l);
void report_locale_leave(struct report_locale *l);

/* Builds the JSON document; NULL on ENOMEM. The caller json_object_put()s it. */
struct json_object *report_json_build(const struct run_report *r, bool plus);

/*
 * root as fio prints its JSON (pretty, paths unescaped); puts root (NULL
 * gives NULL). Call inside report_locale_enter/leave. The caller frees.
 */
char *report_json_text(struct json_object *root);

/* Writes s and a newline to f, then frees s: 0, -ENOMEM (s is NULL) or -EIO. */
int report_write_text(FILE *f, char *s);

#endif
