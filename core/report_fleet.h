/*
 * report_fleet.h - a fleet run's results in fio's client-mode shape: what
 * `fio --client=... --output-format=json` prints, with "client_stats" (one
 * entry per host and job, each with "hostname" and "port") and the "All
 * clients" sum at the end, so tools that read fio's client output read ours.
 * Nothing here prints; the caller hands in the stream.
 */
#ifndef RB_REPORT_FLEET_H
#define RB_REPORT_FLEET_H

#include <stdbool.h>
#include <stdio.h>
#include "report.h"

/* Which of the report's entries (rep->ts[first .. first+nr)) came from which host. */
struct report_fleet_host {
	const char *hostname;	/* as the user named it, fio's "hostname" */
	unsigned port;
	size_t first, nr;
};

/*
 * all: the sum of every host's entries named "All clients" (NULL: left out,
 * as fio does with a single entry). The document as a string (caller
 * frees), NULL on ENOMEM.
 */
char *report_fleet_json_string(const struct run_report *rep, const struct report_fleet_host *hosts,
			       size_t nr_hosts, const struct thread_stat *all, bool plus);
int report_fleet_json(FILE *f, const struct run_report *rep,
		      const struct report_fleet_host *hosts, size_t nr_hosts,
		      const struct thread_stat *all, bool plus);

#endif
