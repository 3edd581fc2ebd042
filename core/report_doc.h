/*
 * report_doc.h - what a report (core/report_html.c) draws, read from one
 * saved result: its phases (core/results.h), each phase's whole-run clat
 * percentiles and histogram bins (fio's json+), its per-interval series
 * (core/series.h's "series" section) and the devices' utilisation, plus the
 * lines that identify the run: target, controller, RAID level, drives,
 * firmware, profile, options, host, version, start time.
 *
 * Results files are outside input: every string here is raw text from the
 * file, to be escaped by whoever writes it out. Never prints.
 */
#ifndef RB_REPORT_DOC_H
#define RB_REPORT_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include "results.h"

enum { RD_IOPS, RD_BW, RD_P50, RD_P99, RD_P999, RD_NR_STATS };
enum { RD_MIN, RD_MEAN, RD_MAX };

/* One series read back: n buckets; a value the file has as null is NAN. */
struct rdoc_track {
	size_t n;
	double *t0_ms, *t1_ms;
	double *ios, *bytes;
	double *v[RD_NR_STATS][3];	/* devices: v[0] is utilisation in % */
};

struct rdoc_phase {
	const struct result_phase *rp;	/* in the doc's result */
	double p50_ns, p99_ns, p999_ns;	/* whole phase, slowest clone; < 0 unknown */
	double *bin_ns, *bin_count;	/* clat histogram bins, ascending; merged clones */
	size_t nr_bins;
	struct rdoc_track *series;	/* NULL when the file has none for this phase */
};

struct rdoc_dev {
	char *name;
	int util_meaningful;		/* 1, 0, or -1 unknown */
	struct rdoc_track t;
};

struct rdoc_kv {
	char *key, *val;
};

struct rdoc {
	struct result r;
	struct rdoc_phase *phases;	/* parallel to r.phases */
	struct rdoc_dev *devs;
	size_t nr_devs;
	struct rdoc_kv *meta;		/* identity, profile, options: in the order to show */
	size_t nr_meta;
	bool has_series;		/* the file has a "series" section */
	char *sweep_level;		/* raidbench.sweep.level, NULL when not a sweep result */
	char *label;			/* short name beside other results: "RAID 5", profile, file */
	double tick_ms;
	size_t index;			/* its place among the results of one report, from 0 */
};

/*
 * Loads path, the index-th result of a report (its label says which). 0, or -errno with err naming the file and why (not JSON, not
 * a result, cannot read). Nothing stays allocated on error.
 */
int rdoc_load(struct rdoc *d, size_t index, const char *path, char *err, size_t errlen);
/* The same from text in memory; name stands for the file in messages. */
int rdoc_parse(struct rdoc *d, size_t index, const char *name, const char *text, size_t len,
	       char *err, size_t errlen);
void rdoc_release(struct rdoc *d);

#endif
