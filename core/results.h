/*
 * results.h - every run saved as JSON under $XDG_DATA_HOME/raidbench/results/
 * (default ~/.local/share/raidbench/results/): fio's JSON plus a "raidbench"
 * object with the host, the version and each target.
 */
#ifndef RB_RESULTS_H
#define RB_RESULTS_H

#include <stddef.h>
#include "report.h"
#include "run.h"

/* The results directory, created if missing. 0 or -errno. */
int results_dir(char *buf, size_t len);

/*
 * Saves one run; path receives the file written. 0 or -errno with err set.
 * Never overwrites an earlier result.
 */
int results_save(const struct run_report *rep, const struct run_result *res, char *path,
		 size_t pathlen, char *err, size_t errlen);

#endif
