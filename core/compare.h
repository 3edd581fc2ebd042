/*
 * compare.h - lines up loaded results (core/results.h) phase by phase for
 * `raidbench compare` and the TUI's results screen: per job name and
 * direction, IOPS, MB/s, mean and p99 latency, and the change in percent
 * against the first result. Pure arithmetic: no I/O, never prints.
 */
#ifndef RB_COMPARE_H
#define RB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "results.h"

struct compare_cell {
	bool present;		/* this file has the phase */
	double iops;
	double mb_s;		/* 1,000,000 bytes/s */
	double lat_mean_us;
	double lat_p99_us;	/* < 0 unknown */
	/* change in percent against the first file's cell; NaN when not comparable */
	double iops_pct, mb_s_pct, lat_mean_pct, lat_p99_pct;
};

struct compare_row {
	const char *phase;	/* points into the first result that has it */
	const char *desc;
	int ddir;
	struct compare_cell *cells;	/* one per result, in order */
};

struct compare {
	struct compare_row *rows;
	size_t nr_rows;
	size_t nr_cols;
};

/*
 * Lines up the phases of nr results by (job name, direction), in the order
 * they first appear. The rows point into rs, which must outlive c.
 * 0 or -ENOMEM.
 */
int compare_build(struct compare *c, const struct result *rs, size_t nr);
void compare_release(struct compare *c);

/* (v - base) / base * 100; NaN when base is 0 or either is unknown (< 0). */
double compare_change_pct(double base, double v);

#endif
