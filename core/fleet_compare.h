/*
 * fleet_compare.h - "which of these servers is slow?": one fleet result (fio's
 * own --client JSON, or a fleet run raidbench saved) as one row per host,
 * with the median across hosts and the hosts that stray from it flagged.
 * Nothing here prints.
 */
#ifndef RB_FLEET_COMPARE_H
#define RB_FLEET_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct fleet_row {
	char host[160];
	unsigned port;
	unsigned nr_jobs;
	double iops[2];		/* read, write: summed over the host's jobs */
	double bw_bytes[2];
	double p99_ns[2];	/* the largest p99 of the host's jobs, < 0 when none */
	bool outlier;
	char why[256];		/* what strays, in words */
};

struct fleet_table {
	struct fleet_row *rows;
	size_t nr;
	struct fleet_row median;	/* per column, over the hosts */
};

/*
 * Loads path: a document with "client_stats" (fio's client mode, and
 * raidbench's --output-format=json of a fleet run), or a saved fleet run
 * ("jobs" and raidbench.fleet). "All clients" is left out. 0, or -errno with
 * err naming the file and what is wrong (-EINVAL: not a fleet result).
 */
int fleet_compare_load(struct fleet_table *t, const char *path, char *err, size_t errlen);

/*
 * Fills the median and flags each host whose total IOPS or bandwidth is more
 * than tol (0.2 = 20 %) away from the median, or whose p99 is more than tol
 * above it. Returns how many hosts were flagged.
 */
size_t fleet_compare_flag(struct fleet_table *t, double tol);

void fleet_table_release(struct fleet_table *t);

#endif
