/*
 * report.h - the results of a run in fio 3.33's formats: normal, json,
 * json+ and terse version 3.
 *
 * core never chooses a stream: the caller hands in the FILE to write to
 * (stdout, --output=FILE, or a memory stream for tests).
 */
#ifndef RB_REPORT_H
#define RB_REPORT_H

#include <stdio.h>
#include <time.h>
#include "job.h"
#include "stats.h"

struct run_report {
	const struct job_list *jobs;	/* for "global options" */
	/* one entry per job clone, or per group under group_reporting; in job order */
	struct thread_stat *ts;
	size_t nr_ts;
	struct group_stat *gs;
	size_t nr_gs;
	struct disk_util *du;
	size_t nr_du;
	time_t when;			/* report time */
	uint64_t when_ms;
	const char *version;		/* "fio-3.33"-style string to emit: "raidbench-0.1.0" */
};

enum report_format {
	REPORT_NORMAL = 1u << 0,
	REPORT_JSON = 1u << 1,
	REPORT_JSON_PLUS = 1u << 2,
	REPORT_TERSE = 1u << 3,
};

/* Parses "normal,json" into REPORT_* bits; returns -EINVAL naming the bad word in err. */
int report_parse_formats(const char *s, unsigned *out, char *err, size_t errlen);

int report_normal(FILE *f, const struct run_report *r);
int report_json(FILE *f, const struct run_report *r, bool plus);
int report_terse(FILE *f, const struct run_report *r);

/*
 * The json object as a string (caller frees), for saving results; plus adds
 * histogram bins. NULL on ENOMEM.
 */
char *report_json_string(const struct run_report *r, bool plus);

#endif
